//! Tables of rule sets: written by the generator from a preset or from a
//! rule file, answered by the command line and over HTTP with the box
//! names the file gives, nothing about the rule set compiled into either;
//! every answer the brute force's.

use dice_tables_reader::rule_sheet::TurnStarts;
use std::path::{Path, PathBuf};

use dice_tables_reader::rule_sheet::{RuleSheet, RuleTarget};
use dice_tables_reader::rules::RuleSet;
use dice_tables_reader::Game;
use dice_tables_tests::http::Server;
use dice_tables_tests::oracles::rule_set::{BruteOption, BruteRules};
use dice_tables_tests::{run, scratch, Rng};

/// A rule set no preset has and nothing in the repository names: written
/// by this test alone. Four dice, a free order, an upper bonus over three
/// face boxes, a first-roll bonus, a box that needs another, a total with
/// a pair, and the extra bonus with the forced joker.
const HOUSE_RULES: &str = r#"# The kitchen table's rules.
name = "kitchen-table"
dice = 4
rerolls = 2

[upper-bonus]
boxes = ["fours", "fives", "sixes"]
at = 30
points = 20

[extra-bonus]
box = "four-alike"
points = 40
joker = "forced"

[[box]]
name = "fours"
kind = "face"
face = 4

[[box]]
name = "fives"
kind = "face"
face = 5

[[box]]
name = "sixes"
kind = "face"
face = 6

[[box]]
name = "two-pairs"
kind = "pairs"
pairs = 2
score = 20

[[box]]
name = "run"
kind = "straight"
runs = [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]
score = 25
first-roll = 5

[[box]]
name = "fourteen"
kind = "total"
total = 14
pair = true
score = "all"

[[box]]
name = "four-alike"
kind = "alike"
count = 4
score = 40

[[box]]
name = "double-alike"
kind = "alike"
count = 4
score = 80
needs = "four-alike"
"#;

/// The house rules written to a file and solved with `generator --rules`:
/// the directory it wrote into (nothing but the table).
pub(crate) fn house_table() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("house-rules");
        let file = dir.join("house.toml");
        std::fs::write(&file, HOUSE_RULES).unwrap();
        let out_dir = dir.join("tables");
        let out = run("generator", &["--rules", file.to_str().unwrap(), "--out", out_dir.to_str().unwrap()], &[]);
        assert!(out.status.success(), "generator --rules: {}", String::from_utf8_lossy(&out.stderr));
        let written: Vec<String> =
            std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        assert_eq!(written, ["kitchen-table.dtab"], "a rule file alone writes its table alone");
        out_dir
    })
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A random turn start with 1 to 3 boxes open: (mask, upper, held), the
/// held boxes among the filled ones the rules track.
fn random_state(rules: &RuleSet, rng: &mut Rng) -> (u32, u32, u32) {
    let boxes = rules.boxes.len() as u64;
    let open = 1 + rng.below(3) as u32;
    let mut mask = 0u32;
    while mask.count_ones() < open {
        mask |= 1 << rng.below(boxes);
    }
    let upper = rules.upper_bonus.map_or(0, |b| rng.below(u64::from(b.at) + 1) as u32);
    let held =
        rules.tracked_boxes().iter().filter(|&&b| mask >> b & 1 == 0 && rng.below(2) == 0).fold(0, |h, &b| h | 1 << b);
    (mask, upper, held)
}

/// The names of the boxes of `bits`, as the lookups take them.
fn names(rules: &RuleSet, bits: u32) -> String {
    let names: Vec<&str> =
        (0..rules.boxes.len()).filter(|b| bits >> b & 1 == 1).map(|b| rules.boxes[b].name.as_str()).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(",")
    }
}

/// A roll's answered options (`answer["options"]`, each valued by `key`:
/// `ev` or `p`) against the brute force's: the same options, each value
/// within 1e-7. Returns the brute force's best value.
fn options_agree(
    rules: &RuleSet,
    answer: &serde_json::Value,
    key: &str,
    want: &[(BruteOption, f64)],
    context: &str,
) -> f64 {
    let options = answer["options"].as_array().unwrap();
    assert_eq!(options.len(), want.len(), "{context}: {answer}");
    for option in options {
        let action = &option["action"];
        let brute_option = match action.get("category") {
            Some(name) => BruteOption::Score(rules.box_named(name.as_str().unwrap()).unwrap()),
            None => {
                let mut kept: Vec<u8> = action["keep"].as_str().unwrap().bytes().map(|b| b - b'0').collect();
                kept.sort_unstable();
                BruteOption::Keep(kept)
            }
        };
        let (_, expected) = want.iter().find(|(o, _)| *o == brute_option).expect("the brute force has it");
        let value = option[key].as_f64().unwrap();
        assert!((value - expected).abs() < 1e-7, "{context}, {action}: {value} vs {expected}");
    }
    want.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max)
}

/// A rule set only this test writes, solved by `generator --rules FILE`
/// and asked through `reader lookup --table FILE`: on random turn starts
/// the value, and on a random roll of each the value of every option
/// (each box, each keep), are the brute force's within 1e-7, the best
/// first; HTTP answers the same as the command line.
#[test]
fn a_rule_set_only_this_test_writes_is_solved_and_answered_as_the_brute_force_plays_it() {
    let dir = house_table();
    let table = dir.join("kitchen-table.dtab");
    let rules = RuleSet::from_text(HOUSE_RULES).unwrap();
    let mut brute = BruteRules::new(rules.clone());
    let mut rng = Rng::new(6161);
    let server = Server::start(dir);
    let mut client = server.connect();
    for _ in 0..10 {
        let (mask, upper, held) = random_state(&rules, &mut rng);
        let (mask_arg, held_arg) = (names(&rules, mask), names(&rules, held));
        let upper_arg = upper.to_string();
        let state = ["--mask", &mask_arg, "--upper", &upper_arg, "--held", &held_arg];
        let mut args = vec!["lookup", "--table", table.to_str().unwrap()];
        args.extend(state);
        args.push("--json");
        let before = json_of(&run("reader", &args, &[]));
        let expected = brute.turn_start(mask, upper, held);
        let ev = before["ev"].as_f64().unwrap();
        assert!((ev - expected).abs() < 1e-7, "{mask_arg} upper {upper} held {held_arg}: {ev} vs {expected}");

        let dice: String = (0..rules.dice).map(|_| char::from(b'1' + rng.below(6) as u8)).collect();
        let rerolls = rng.below(u64::from(rules.rerolls) + 1) as usize;
        let rerolls_arg = rerolls.to_string();
        args.pop();
        args.extend(["--dice", &dice, "--rerolls", &rerolls_arg, "--json"]);
        let answer = json_of(&run("reader", &args, &[]));
        let faces: Vec<u8> = dice.bytes().map(|b| b - b'0').collect();
        let brute_options = brute.options(mask, upper, held, &faces, rerolls);
        let best = options_agree(&rules, &answer, "ev", &brute_options, &format!("{dice}, {rerolls} rerolls"));
        assert!((answer["ev"].as_f64().unwrap() - best).abs() < 1e-7);
        assert_eq!(answer["best"], answer["options"][0]["action"]);

        let query = format!(
            "/v1/lookup/kitchen-table?mask={mask_arg}&upper={upper}&held={held_arg}&dice={dice}&rerolls={rerolls}"
        );
        let over_http = client.get(&query).expect("an answer");
        assert_eq!(over_http.json(), answer, "{query}");
    }
    // The server lists the rule set with what a client needs to ask it.
    let info = client.get("/v1/info").expect("an answer").json();
    let entry = info["tables"].as_array().unwrap().iter().find(|t| t["game"] == "kitchen-table").expect("listed");
    let boxes: Vec<&str> = rules.boxes.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(entry["boxes"], serde_json::json!(boxes));
    assert_eq!(
        (entry["rule_set"].as_bool(), entry["dice"].as_u64(), entry["rerolls"].as_u64()),
        (Some(true), Some(4), Some(2))
    );
    assert_eq!(entry["saved_rerolls"].as_bool(), Some(false));
    // The box another needs is held; no box wins a two-player game at once.
    assert_eq!(
        (&entry["held_boxes"], &entry["wins_at_once"]),
        (&serde_json::json!(["four-alike"]), &serde_json::json!([]))
    );
}

/// A rule set that saves rerolls (Maxi Yatzy's swedish rule), only the
/// tests write: what a turn leaves unused a later turn may use.
const SAVING_RULES: &str = include_str!("../../rules/saver.toml");

/// The rule set above solved by `generator --rules FILE` and asked through
/// `reader lookup --table FILE --saved B` and HTTP: on random turn starts
/// at every count of rerolls saved their turns played allow, the value is
/// the brute force's (which saves rerolls itself) within 1e-7, and on a
/// random roll with random rerolls left (up to the turn's and those saved)
/// every option's too, the best first. No target table is made for it,
/// and more saved than the turns played allow is refused in one line.
#[test]
fn a_rule_set_that_saves_rerolls_is_solved_and_answered_as_the_brute_force_plays_it() {
    let dir = scratch("saving-rules");
    let file = dir.join("saver.toml");
    std::fs::write(&file, SAVING_RULES).unwrap();
    let out_dir = dir.join("tables");
    let out = run("generator", &["--rules", file.to_str().unwrap(), "--out", out_dir.to_str().unwrap()], &[]);
    assert!(out.status.success(), "generator --rules: {}", String::from_utf8_lossy(&out.stderr));
    let table = out_dir.join("saver.dtab");
    let refused =
        run("generator", &["--rules", file.to_str().unwrap(), "--with-target", "--out", dir.to_str().unwrap()], &[]);
    let why = String::from_utf8_lossy(&refused.stderr);
    assert_eq!((refused.status.code(), why.lines().count()), (Some(2), 1), "{why}");
    assert!(why.contains("saves rerolls"), "{why}");

    let rules = RuleSet::from_text(SAVING_RULES).unwrap();
    let mut brute = BruteRules::new(rules.clone());
    let mut rng = Rng::new(6162);
    let server = Server::start(&out_dir);
    let mut client = server.connect();
    let boxes = rules.boxes.len() as u32;
    for _ in 0..6 {
        let (mask, upper, _) = random_state(&rules, &mut rng);
        let mask_arg = names(&rules, mask);
        let upper_arg = upper.to_string();
        let most = u32::from(rules.rerolls) * (boxes - mask.count_ones());
        for saved in 0..=most {
            let saved_arg = saved.to_string();
            let args = ["lookup", "--table", table.to_str().unwrap(), "--mask", &mask_arg, "--upper", &upper_arg];
            let mut args = args.to_vec();
            args.extend(["--saved", &saved_arg, "--json"]);
            let before = json_of(&run("reader", &args, &[]));
            let expected = brute.turn_start_saved(mask, upper, 0, saved);
            let ev = before["ev"].as_f64().unwrap();
            assert!((ev - expected).abs() < 1e-7, "{mask_arg} upper {upper} saved {saved}: {ev} vs {expected}");
            assert_eq!(before["saved"].as_u64(), Some(u64::from(saved)));
        }
        let saved = rng.below(u64::from(most) + 1) as u32;
        let rerolls = rng.below(u64::from(u32::from(rules.rerolls) + saved) + 1) as usize;
        let dice: String = (0..rules.dice).map(|_| char::from(b'1' + rng.below(6) as u8)).collect();
        let (saved_arg, rerolls_arg) = (saved.to_string(), rerolls.to_string());
        let args = [
            "lookup",
            "--table",
            table.to_str().unwrap(),
            "--mask",
            &mask_arg,
            "--upper",
            &upper_arg,
            "--saved",
            &saved_arg,
            "--dice",
            &dice,
            "--rerolls",
            &rerolls_arg,
            "--json",
        ];
        let answer = json_of(&run("reader", &args, &[]));
        let faces: Vec<u8> = dice.bytes().map(|b| b - b'0').collect();
        let brute_options = brute.options_saved((mask, upper, 0, saved), &faces, rerolls);
        let context = format!("{mask_arg} upper {upper} saved {saved}: {dice}, {rerolls} rerolls");
        let best = options_agree(&rules, &answer, "ev", &brute_options, &context);
        assert!((answer["ev"].as_f64().unwrap() - best).abs() < 1e-7, "{context}");
        assert_eq!(answer["best"], answer["options"][0]["action"]);
        let query =
            format!("/v1/lookup/saver?mask={mask_arg}&upper={upper}&saved={saved}&dice={dice}&rerolls={rerolls}");
        assert_eq!(client.get(&query).expect("an answer").json(), answer, "{query}");
    }
    // The server lists it as saving rerolls, which a client then asks with `saved`.
    let info = client.get("/v1/info").expect("an answer").json();
    let entry = info["tables"].as_array().unwrap().iter().find(|t| t["game"] == "saver").expect("listed");
    assert_eq!((entry["saved_rerolls"].as_bool(), entry["rerolls"].as_u64()), (Some(true), Some(1)));
    // More saved than the turns played could save: one line, exit 2.
    let args = ["lookup", "--table", table.to_str().unwrap(), "--mask", "chance", "--saved", "9"];
    let out = run("reader", &args, &[]);
    let why = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), why.lines().count()), (Some(2), 1), "{why}");
    assert!(why.contains("saved rerolls 9 is out of range") && why.contains("0 to 4"), "{why}");
}

/// The house rules solved with `generator --rules FILE --with-target`:
/// the directory it wrote into (the rule set's table and its target table).
fn house_target_table() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("house-rules-target");
        let file = dir.join("house.toml");
        std::fs::write(&file, HOUSE_RULES).unwrap();
        let out_dir = dir.join("tables");
        let args = ["--rules", file.to_str().unwrap(), "--with-target", "--out", out_dir.to_str().unwrap()];
        let out = run("generator", &args, &[]);
        assert!(out.status.success(), "generator --rules --with-target: {}", String::from_utf8_lossy(&out.stderr));
        let mut written: Vec<String> =
            std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        written.sort();
        assert_eq!(written, ["kitchen-table-target.dtab", "kitchen-table.dtab"]);
        out_dir
    })
}

/// A rule set only this test writes, played to reach a target: its target
/// table (`generator --rules FILE --with-target`), asked through `reader
/// lookup --table FILE --need N`, gives on random turn starts the best
/// chance of each need, and on a random roll of each every option's
/// chance, as the brute force plays for the need itself (within 1e-7: the
/// table stores chances to 3e-8); the decision first, within the tie
/// allowance of the best; HTTP answers the same. The file verifies whole:
/// its start's remaining points are distributed as the distribution
/// carried forward says.
#[test]
fn a_rule_set_s_target_table_answers_each_need_as_the_brute_force_plays_for_it() {
    use dice_tables_reader::target::TARGET_TIE;
    use dice_tables_tests::oracles::rule_set::Goal;
    let dir = house_target_table();
    let table = dir.join("kitchen-table-target.dtab");
    let verify = run("reader", &["verify", table.to_str().unwrap()], &[]);
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stderr));
    let rules = RuleSet::from_text(HOUSE_RULES).unwrap();
    let mut brute = BruteRules::new(rules.clone());
    let mut rng = Rng::new(6262);
    let server = Server::start(dir);
    let mut client = server.connect();
    for _ in 0..10 {
        let (mask, upper, held) = random_state(&rules, &mut rng);
        let average = brute.turn_start(mask, upper, held);
        let need = 1 + rng.below(2 * average as u64 + 10) as i64;
        let (mask_arg, held_arg, upper_arg, need_arg) =
            (names(&rules, mask), names(&rules, held), upper.to_string(), need.to_string());
        let mut args = vec!["lookup", "--table", table.to_str().unwrap()];
        args.extend(["--mask", &mask_arg, "--upper", &upper_arg, "--held", &held_arg, "--need", &need_arg]);
        args.push("--json");
        let before = json_of(&run("reader", &args, &[]));
        let expected = brute.reach(mask, upper, held, need);
        let p = before["p"].as_f64().unwrap();
        assert!((p - expected).abs() < 1e-7, "{mask_arg} upper {upper} held {held_arg} need {need}: {p} vs {expected}");

        let dice: String = (0..rules.dice).map(|_| char::from(b'1' + rng.below(6) as u8)).collect();
        let rerolls = rng.below(u64::from(rules.rerolls) + 1) as usize;
        let rerolls_arg = rerolls.to_string();
        args.pop();
        args.extend(["--dice", &dice, "--rerolls", &rerolls_arg, "--json"]);
        let answer = json_of(&run("reader", &args, &[]));
        let faces: Vec<u8> = dice.bytes().map(|b| b - b'0').collect();
        let brute_options = brute.options_for(Goal::Reach(need), mask, upper, held, &faces, rerolls);
        let context = format!("{dice}, {rerolls} rerolls, need {need}");
        let best = options_agree(&rules, &answer, "p", &brute_options, &context);
        let decided = answer["p"].as_f64().unwrap();
        assert!(decided >= best - TARGET_TIE - 1e-7 && decided <= best + 1e-7, "{decided} vs the best {best}");
        assert_eq!(answer["best"], answer["options"][0]["action"]);

        let query = format!(
            "/v1/lookup/kitchen-table?mask={mask_arg}&upper={upper}&held={held_arg}&need={need}&dice={dice}&rerolls={rerolls}"
        );
        let over_http = client.get(&query).expect("an answer");
        assert_eq!(over_http.json(), answer, "{query}");
    }
    // Each turn start's points still to come under the play of the rule
    // set's own table: a distribution whose mean is the turn start's value
    // (ties in that play change the distribution, never its mean).
    let target = RuleTarget::open(&table).unwrap();
    for _ in 0..20 {
        let (mask, upper, held) = random_state(&rules, &mut rng);
        let remaining = target.remaining(mask, upper, held).unwrap();
        let p: Vec<f64> = (0..=i64::from(remaining.last())).map(|x| remaining.chance_of(x)).collect();
        let mean: f64 = p.iter().enumerate().map(|(x, p)| x as f64 * p).sum();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9 && p.iter().all(|&p| p > -1e-9), "{mask:#b}: {p:?}");
        let average = brute.turn_start(mask, upper, held);
        assert!((mean - average).abs() < 1e-6, "{mask:#b} upper {upper} held {held:#b}: {mean} vs {average}");
    }
    // The server lists the target table beside the rule set's own.
    let info = client.get("/v1/info").expect("an answer").json();
    let tables = info["tables"].as_array().unwrap();
    let entry = tables.iter().find(|t| t["game"] == "kitchen-table-target").expect("listed");
    assert_eq!((entry["target"].as_bool(), entry["rule_set_name"].as_str()), (Some(true), Some("kitchen-table")));
}

/// Against an opponent, the opponent-aware advisor reads a rule set's
/// target table as it reads yatzy's: on the last turn against an opponent
/// who has finished (their upper bonus, if earned, still to come) its
/// estimate is exact, and every option's is the brute force's chance of
/// winning, ties half (within 1e-7), the decision within the tie allowance
/// of the best; over HTTP the same. Earlier, an estimate in 0..=1.
#[test]
fn the_advisor_plays_a_rule_set_s_last_turn_as_the_brute_force_plays_to_win() {
    use dice_tables_reader::target::TARGET_TIE;
    use dice_tables_tests::oracles::rule_set::Goal;
    let dir = house_target_table();
    let table = dir.join("kitchen-table-target.dtab");
    let rules = RuleSet::from_text(HOUSE_RULES).unwrap();
    let mut brute = BruteRules::new(rules.clone());
    let mut rng = Rng::new(6363);
    let server = Server::start(dir);
    let mut client = server.connect();
    let at = rules.upper_bonus.unwrap().at;
    for _ in 0..12 {
        let (mask, upper, held) = loop {
            let state = random_state(&rules, &mut rng);
            if state.0.count_ones() == 1 {
                break state;
            }
        };
        // The opponent finished, their upper total either side of the bonus.
        let opp_upper = [u32::from(at) - 1, u32::from(at)][rng.below(2) as usize];
        let lead = rng.below(81) as i64 - 60;
        let (me, opp) = (200 + lead.max(0), 200 - lead.min(0));
        let bonus = if opp_upper >= u32::from(at) { i64::from(rules.upper_bonus.unwrap().points) } else { 0 };
        let behind = bonus - lead;
        let dice: String = (0..rules.dice).map(|_| char::from(b'1' + rng.below(6) as u8)).collect();
        let rerolls = rng.below(u64::from(rules.rerolls) + 1) as usize;
        let query = format!(
            "mask={}&upper={upper}&held={}&opp-mask=0&opp-upper={opp_upper}&me={me}&opp={opp}&dice={dice}&rerolls={rerolls}",
            names(&rules, mask),
            names(&rules, held)
        );
        let answer = client.get(&format!("/v1/lookup/kitchen-table?{query}")).expect("an answer").json();
        assert_eq!(answer["exact"], false, "{answer}");
        let faces: Vec<u8> = dice.bytes().map(|b| b - b'0').collect();
        let want = brute.options_for(Goal::Beat(behind), mask, upper, held, &faces, rerolls);
        let best = options_agree(&rules, &answer, "p", &want, &query);
        let decided = answer["p"].as_f64().unwrap();
        assert!(decided >= best - TARGET_TIE - 1e-7 && decided <= best + 1e-7, "{query}: {decided} vs {best}");
        // Before the roll, as the command line answers it.
        let (mask_arg, held_arg) = (names(&rules, mask), names(&rules, held));
        let (upper_arg, opp_upper_arg, me_arg, opp_arg) =
            (upper.to_string(), opp_upper.to_string(), me.to_string(), opp.to_string());
        let mut args = vec!["lookup", "--table", table.to_str().unwrap(), "--mask", &mask_arg, "--upper", &upper_arg];
        args.extend(["--held", &held_arg, "--opp-mask", "0", "--opp-upper", &opp_upper_arg]);
        args.extend(["--me", &me_arg, "--opp", &opp_arg, "--json"]);
        let before = json_of(&run("reader", &args, &[]));
        let (p, expected) = (before["p"].as_f64().unwrap(), brute.beat(mask, upper, held, behind));
        assert!((p - expected).abs() < 1e-7, "{query} before the roll: {p} vs {expected}");
    }
    // From a game's start: an estimate, a chance.
    let start = client.get("/v1/lookup/kitchen-table?opp-mask=all").expect("an answer").json();
    let p = start["p"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p) && start["exact"] == false, "{start}");
}

/// The target tables `make tables` writes: their start's best chances
/// (the figures README quotes) never rise with the target and are never
/// below the chance max-expected-score play reaches it; the distribution
/// of the final score each stores (the start's points still to come,
/// carried backward through the game) is the one carried forward from the
/// start by the rule set's own table's play, entry by entry within 1e-9.
#[test]
fn preset_target_tables_hold_their_figures_and_the_distribution_carried_forward() {
    use dice_tables_generator::rule_engine::distribution::score_distribution;
    let tables = dice_tables_reader::Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    // P*(start, 200) of each, as the generator reports it.
    let figures = [("forced-yatzy", 0.0204335), ("yacht", 0.2180631), ("generala", 0.1586790), ("crag", 0.0540693)];
    for (game, at_200) in figures {
        assert!(dice_tables_tests::RULE_TARGET_TABLES.contains(&format!("{game}-target").as_str()));
        let (sheet, target) = (tables.rule_sheet(game).unwrap(), tables.rule_target(game).unwrap());
        let all = target.all_open();
        let start = target.curve(all, 0, 0).unwrap();
        assert!((start.chance(200) - at_200).abs() < 1e-7, "{game}: P*(start, 200) {}", start.chance(200));
        let stored = target.ev_distribution().unwrap();
        let forward = score_distribution(&sheet).unwrap().scores.p;
        assert!(forward.len() <= stored.len(), "{game}");
        for (s, &p) in stored.iter().enumerate() {
            let q = forward.get(s).copied().unwrap_or(0.0);
            assert!((p - q).abs() < 1e-9, "{game}: P(final = {s}) {p} stored, {q} carried forward");
        }
        // The last turns' chances, as the brute force plays for them (in
        // sheet order for forced-yatzy: its last boxes).
        let rules = target.rules().clone();
        let mut brute = BruteRules::new(rules.clone());
        let mut rng = Rng::new(200);
        for _ in 0..4 {
            let (mut mask, upper, held) = random_state(&rules, &mut rng);
            if rules.order == dice_tables_reader::rules::Order::Fixed {
                mask = all & !((1u32 << (rules.boxes.len() - 1 - rng.below(2) as usize)) - 1);
            }
            let need = 1 + rng.below(2 * brute.turn_start(mask, upper, held) as u64 + 10) as i64;
            let (p, want) = (target.chance(mask, upper, held, need).unwrap(), brute.reach(mask, upper, held, need));
            assert!(
                (p - want).abs() < 1e-7,
                "{game} {mask:#b} upper {upper} held {held:#b} need {need}: {p} vs {want}"
            );
        }
        let at_least = dice_tables_reader::target::at_least_chances(&stored);
        for n in 1..stored.len() as i64 {
            let best = start.chance(n);
            assert!(best <= start.chance(n - 1), "{game}: P*(start, {n}) rises");
            assert!(
                best >= at_least[n as usize] - 1e-7,
                "{game}: P*(start, {n}) {best} below {}",
                at_least[n as usize]
            );
        }
    }
}

/// The table carries its rules: `reader info` prints them as the file
/// gave them (canonical), the view reads them back, and every stored
/// value is what the values it leads to make it (worked out again by the
/// reader from the rules alone).
#[test]
fn a_rule_set_table_carries_its_rules_and_every_value_follows_from_them() {
    let table = house_table().join("kitchen-table.dtab");
    let rules = RuleSet::from_text(HOUSE_RULES).unwrap();
    let info = run("reader", &["info", table.to_str().unwrap()], &[]);
    assert!(info.status.success());
    assert!(String::from_utf8_lossy(&info.stdout).ends_with(&rules.to_text()));
    let sheet = RuleSheet::open(&table).unwrap();
    assert_eq!(sheet.rules(), &rules);
    let verify = run("reader", &["verify", table.to_str().unwrap()], &[]);
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stderr));
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let mask = 1 + rng.below((1 << rules.boxes.len()) - 1) as u32;
        let upper = rng.below(31) as u32;
        let held = rules.tracked_boxes().iter().filter(|&&b| mask >> b & 1 == 0).fold(0, |h, &b| h | 1 << b);
        let (stored, again) = (
            sheet.turn_start_value(mask, upper, held).unwrap(),
            sheet.turn_start_recomputed(mask, upper, held).unwrap(),
        );
        assert!((stored - again).abs() < 1e-9, "mask {mask:#b} upper {upper}: {stored} vs {again}");
    }
}

/// Bad rule files are refused before any work: one line naming the file's
/// line and what is accepted, exit 2, nothing written; so is a rule set
/// whose table would not fit, with its estimate.
#[test]
fn bad_rule_files_and_rule_sets_too_large_are_refused_before_any_work() {
    let dir = scratch("bad-rules");
    let out_dir = dir.join("tables");
    let cases: [(&str, String, &str); 4] = [
        ("unknown-kind", HOUSE_RULES.replace("kind = \"pairs\"", "kind = \"pears\""), "line 33"),
        ("face-out-of-range", HOUSE_RULES.replace("face = 6", "face = 7"), "face = 7"),
        ("bonus-unreachable", HOUSE_RULES.replace("at = 30", "at = 61"), "no sheet reaches it"),
        ("a-game-of-its-own", HOUSE_RULES.replace("kitchen-table", "yatzy"), "a name of its own"),
    ];
    for (name, text, says) in cases {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        let out = run("generator", &["--rules", file.to_str().unwrap(), "--out", out_dir.to_str().unwrap()], &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
        assert!(!out_dir.exists(), "{name}: nothing is written");
    }
    // Twenty boxes of sixes with six dice and a bonus at 720: 2^20 sheets
    // times 721 upper totals, over what a table holds.
    let mut huge = String::from("name = \"huge\"\ndice = 6\nrerolls = 2\n\n[upper-bonus]\nboxes = [");
    huge.push_str(&(0..20).map(|i| format!("\"s{i}\"")).collect::<Vec<_>>().join(", "));
    huge.push_str("]\nat = 720\npoints = 50\n");
    for i in 0..20 {
        huge.push_str(&format!("\n[[box]]\nname = \"s{i}\"\nkind = \"face\"\nface = 6\n"));
    }
    let file = dir.join("huge.toml");
    std::fs::write(&file, huge).unwrap();
    let out = run("generator", &["--rules", file.to_str().unwrap(), "--out", out_dir.to_str().unwrap()], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("756023296 turn starts") && stderr.contains("a table holds"), "{stderr}");
    assert!(!out_dir.exists());
}

/// The small presets' tables, solved once for these tests.
fn preset_tables() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("preset-rule-tables");
        let out = run("generator", &["--games", &SMALL_PRESETS.join(","), "--out", dir.to_str().unwrap()], &[]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// The presets whose tables solve in a second or less.
const SMALL_PRESETS: [&str; 5] = ["forced-yatzy", "yacht", "yacht-dice", "generala", "crag"];

/// The most turns' plays a simulation keeps (about 8 KB each).
const MOST_PLANS: usize = 100_000;

/// One game played from the start as `sheet`'s table plays it, with
/// `plans` the turns' plays worked out so far: its final score, and
/// whether the upper bonus was paid.
fn play_one(
    sheet: &RuleSheet,
    plans: &mut std::collections::HashMap<(u32, u32, u32), dice_tables_reader::rule_sheet::TurnPlan>,
    rng: &mut Rng,
) -> (u32, bool) {
    use dice_tables_reader::rule_sheet::RuleChoice;
    use dice_tables_reader::rules::SheetState;
    use dice_tables_reader::Dice;
    let rules = sheet.rules();
    let n = usize::from(rules.dice);
    let cap = rules.upper_bonus.map_or(0, |b| u32::from(b.at));
    let mut state = SheetState { open: sheet.all_open(), upper: 0, held: 0 };
    let mut total = 0;
    let throw = |rng: &mut Rng, k: usize| -> Vec<u8> { (0..k).map(|_| 1 + rng.below(6) as u8).collect() };
    while state.open != 0 {
        let SheetState { open, upper, held } = state;
        // Kept for the turns many games share (every one of a small game's;
        // a big game's first ones): the rest are nearly all new.
        let key = (open, upper.min(cap), held);
        let fresh;
        let plan = match plans.len() < MOST_PLANS || plans.contains_key(&key) {
            true => plans.entry(key).or_insert_with(|| sheet.turn_plan(open, upper, held).unwrap()),
            false => {
                fresh = sheet.turn_plan(open, upper, held).unwrap();
                &fresh
            }
        };
        let mut dice = Dice::from_faces(&throw(rng, n)).unwrap();
        let mut rerolls = rules.rerolls;
        let scored = loop {
            match plan.best(dice, rerolls).expect("a box is open") {
                RuleChoice::Keep(keep) => {
                    let mut faces: Vec<u8> = keep.faces().collect();
                    faces.extend(throw(rng, n - keep.len()));
                    dice = Dice::from_faces(&faces).unwrap();
                    rerolls -= 1;
                }
                RuleChoice::Score(m) => break m,
            }
        };
        total += scored.scored();
        state = rules.after_scoring(state, scored.box_index, scored.points);
    }
    match rules.upper_bonus {
        Some(bonus) if state.upper >= u32::from(bonus.at) => (total + u32::from(bonus.points), true),
        _ => (total, false),
    }
}

/// 20,000 games (200,000 in `make bench`: `DICE_RULE_SET_GAMES`) played
/// from each small preset's table, every decision
/// its best play: the mean score within 4 standard errors of the table's
/// start value; and the exact score distribution the generator derives
/// from the table (`--score-distribution`), whose mean is the start value
/// and which sums to 1, is the games': at each decile its chance of a
/// score at most there within 4 standard errors of the games' share, and
/// the upper bonus's chance within 4 standard errors of how often the
/// games paid it.
#[test]
#[ignore = "slow: make test runs it"]
fn games_played_by_each_preset_table_score_as_its_exact_distribution_says() {
    use dice_tables_generator::rule_engine::distribution::score_distribution;
    let games_each = dice_tables_tests::games_from_env("DICE_RULE_SET_GAMES", 20_000);
    let within = |what: &str, seen: f64, exact: f64, error: f64| {
        assert!(
            (seen - exact).abs() < 4.0 * error,
            "{what}: {seen} in the games, {exact} exactly (standard error {error})"
        );
    };
    for name in SMALL_PRESETS {
        let sheet = RuleSheet::open(preset_tables().join(format!("{name}.dtab"))).unwrap();
        let start = sheet.turn_start_value(sheet.all_open(), 0, 0).unwrap();
        let exact = score_distribution(&sheet).unwrap();
        let total: f64 = exact.scores.p.iter().sum();
        assert!(
            (total - 1.0).abs() < 1e-12 && (exact.scores.mean() - start).abs() < 1e-9,
            "{name}: {total}, {}",
            exact.scores.mean()
        );
        let mut rng = Rng::new(2026);
        let mut plans = std::collections::HashMap::new();
        let games: Vec<(u32, bool)> = (0..games_each).map(|_| play_one(&sheet, &mut plans, &mut rng)).collect();
        let n = games_each as f64;
        let mean = games.iter().map(|g| f64::from(g.0)).sum::<f64>() / n;
        let variance = games.iter().map(|g| (f64::from(g.0) - mean).powi(2)).sum::<f64>() / n;
        within(&format!("{name} mean"), mean, start, (variance / n).sqrt());
        for decile in 1..10 {
            let at = exact.scores.quantile(f64::from(decile) / 10.0);
            let p: f64 = exact.scores.p[..=at].iter().sum();
            let seen = games.iter().filter(|g| g.0 as usize <= at).count() as f64 / n;
            within(&format!("{name} P(score <= {at})"), seen, p, (p * (1.0 - p) / n).sqrt());
        }
        if let Some(p) = exact.bonus_chance {
            let seen = games.iter().filter(|g| g.1).count() as f64 / n;
            within(&format!("{name} upper bonus"), seen, p, (p * (1.0 - p) / n).sqrt());
        }
    }
}

/// 20,000 games (200,000 in `make bench`) played from each of the
/// Yahtzee variants' tables (as `make tables` wrote them), two threads
/// each taking half, every decision its best play: the mean score within 4 standard errors of the table's
/// start value. (Their exact distributions, a minute each, are the
/// generator's `--score-distribution`: README's figures.)
#[test]
#[ignore = "slow: make test runs it"]
fn games_played_by_the_yahtzee_variants_tables_average_their_start_values() {
    let games: usize = dice_tables_tests::games_from_env("DICE_RULE_SET_GAMES", 20_000);
    for name in ["yahtzee-no-joker", "yahtzee-no-bonus"] {
        let sheet = RuleSheet::open(dice_tables_tests::made_tables().join(format!("{name}.dtab"))).unwrap();
        let start = sheet.turn_start_value(sheet.all_open(), 0, 0).unwrap();
        let scores: Vec<f64> = std::thread::scope(|scope| {
            let halves: Vec<_> = (0..2u64)
                .map(|half| {
                    let sheet = &sheet;
                    scope.spawn(move || {
                        let mut rng = Rng::new(2026 + half);
                        let mut plans = std::collections::HashMap::new();
                        (0..games / 2).map(|_| f64::from(play_one(sheet, &mut plans, &mut rng).0)).collect::<Vec<f64>>()
                    })
                })
                .collect();
            halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let error = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n / n).sqrt();
        let said = format!("{name}: {mean:.4} in {n} games, {start:.7} exactly (standard error {error:.4})");
        assert!((mean - start).abs() < 4.0 * error, "{said}");
        eprintln!("{said}");
    }
}

/// The presets the rules engine writes into tables of their own (`make
/// rule-tables`): each asked by its name, its start value the published
/// figure where there is one (yacht-dice: ho94949/yacht-dice's 191.774369)
/// and the engine's, its boxes the rules' in mask-bit order.
#[test]
fn preset_tables_answer_by_their_names_with_their_figures() {
    let dir = preset_tables();
    let figures = [
        ("forced-yatzy", 122.5585274),
        ("yacht", 166.9550677),
        ("yacht-dice", 191.7743692),
        ("generala", 159.6184561),
        ("crag", 149.8475932),
    ];
    for (name, figure) in figures {
        let answer = json_of(&run("reader", &["lookup", name, "--tables", dir.to_str().unwrap(), "--json"], &[]));
        assert_eq!(answer["game"], name);
        let ev = answer["ev"].as_f64().unwrap();
        assert!((ev - figure).abs() < 5e-8, "{name}: {ev} against {figure}");
        let rules = dice_tables_generator::rule_sets::preset(name).unwrap();
        let sheet = RuleSheet::open(dir.join(format!("{name}.dtab"))).unwrap();
        assert_eq!(sheet.rules(), &rules);
        assert_eq!(sheet.table().header().game, "rules");
    }
    assert!((191.7743692f64 - 191.774369).abs() < 5e-7, "ho94949/yacht-dice's published figure");
    // Generala's double generala scores only while the generala box holds 50.
    let ask = |held: &str| {
        let args = ["lookup", "generala", "--tables", dir.to_str().unwrap(), "--mask", "double-generala,sixes"];
        let mut args = args.to_vec();
        args.extend(["--held", held, "--dice", "66666", "--rerolls", "0", "--json"]);
        json_of(&run("reader", &args, &[]))
    };
    assert_eq!(ask("generala")["best"]["points"], 100);
    assert_eq!(ask("none")["best"], serde_json::json!({"category": "sixes", "points": 30}));
}

/// Lookups of a rule set's table refused in one line naming what was
/// wrong in the rules' own terms, exit status 2.
#[test]
fn lookups_a_rule_set_refuses_say_why_in_its_terms() {
    let table = house_table().join("kitchen-table.dtab");
    let cases: [(&[&str], &str); 7] = [
        (&["--dice", "12345"], "5 dice: kitchen-table rolls 4 dice (give the 4 faces, as 1245)"),
        (&["--dice", "1234", "--rerolls", "3"], "rerolls 3 is out of range: kitchen-table allows 0 to 2"),
        (&["--mask", "fours,yatzy"], "unknown category \"yatzy\""),
        (&["--held", "fours"], "held fours: only the points of four-alike matter later in kitchen-table"),
        (&["--mask", "all", "--held", "four-alike"], "held four-alike: an open box holds no points"),
        (&["--upper", "91"], "upper total 91 is out of range: kitchen-table's upper boxes make 0 to 60"),
        (&["--rerolls", "1"], "--rerolls=1 needs --dice: give the rules' dice showing"),
    ];
    for (args, says) in cases {
        let mut all = vec!["lookup", "--table", table.to_str().unwrap()];
        all.extend(args);
        let out = run("reader", &all, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && stderr.lines().count() == 1, "{args:?}: {stderr}");
    }
}

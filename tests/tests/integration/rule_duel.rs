//! Two players of any rule set: the rules engine's joint solve against the
//! brute force's recursion over both sheets
//! ([`BruteDuel`](dice_tables_tests::oracles::rule_set::duel::BruteDuel)),
//! which shares no code with it, on random states of the real games with
//! up to three boxes open on each sheet, at every lead a pair stores.

use dice_tables_generator::rule_engine::duel::{check_duel, solve, Layer, Sheets};
use dice_tables_generator::rule_sets::preset;
use dice_tables_reader::rules::{Order, RuleSet};
use dice_tables_tests::oracles::rule_set::duel::BruteDuel;
use dice_tables_tests::Rng;

/// The layers of `rules`' joint game up to `top` boxes open on both sheets.
fn bottom_layers(rules: &RuleSet, sheets: &Sheets, top: usize) -> Vec<Layer> {
    let mut layers = Vec::new();
    solve(rules, sheets, top, dice_tables_generator::dice::simd(), &mut |layer| layers.push(layer.clone()));
    layers
}

/// A random sheet of `rules` with `open` boxes open, as a game reaches it:
/// (open boxes, upper total, boxes holding points).
fn random_sheet(rules: &RuleSet, rng: &mut Rng, open: u32) -> (u32, u32, u32) {
    let boxes = rules.boxes.len() as u32;
    let mask = match rules.order {
        Order::Fixed => ((1u32 << boxes) - 1) & !((1u32 << (boxes - open)) - 1),
        Order::Free => loop {
            let m = rng.next_u64() as u32 & ((1 << boxes) - 1);
            if m.count_ones() == open {
                break m;
            }
        },
    };
    let bonus_boxes = rules.upper_bonus.map_or(0, |u| u.boxes);
    let mut upper = 0;
    let mut held = 0;
    for b in (0..rules.boxes.len()).filter(|&b| mask >> b & 1 == 0) {
        let face = rules.face_of(b).map_or(0, u32::from);
        if bonus_boxes >> b & 1 == 1 {
            upper += face * rng.below(u64::from(rules.dice) + 1) as u32;
        }
        if rng.below(2) == 1 {
            held |= 1 << b;
        }
    }
    (mask, upper, held)
}

/// The upper bonus a sheet with upper total `upper` is paid at the end.
fn bonus(rules: &RuleSet, upper: u32) -> i64 {
    rules.upper_bonus.filter(|u| upper >= u32::from(u.at)).map_or(0, |u| i64::from(u.points))
}

/// `states` random pairs of sheets of a preset, each with up to three
/// boxes open (the mover one more or as many as the opponent), at every
/// lead the pair stores and a few past them: the table's value is the
/// brute force's within 1e-9.
fn agrees_with_the_brute_force(name: &str, states: usize, seed: u64) {
    let rules = preset(name).unwrap();
    let sheets = check_duel(&rules).unwrap();
    let layers = bottom_layers(&rules, &sheets, 6);
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for _ in 0..states {
        let opp_open = rng.below(4) as u32;
        let me_open = if opp_open == 0 || rng.below(2) == 0 { opp_open + 1 } else { opp_open };
        let me_open = me_open.min(3);
        let me = random_sheet(&rules, &mut rng, me_open);
        let opp = random_sheet(&rules, &mut rng, opp_open);
        let (k, i) = sheets.find(me.0, me.1, me.2).unwrap();
        let (_, j) = sheets.find(opp.0, opp.1, opp.2).unwrap();
        let layer = &layers[(me_open + opp_open) as usize];
        let (most_me, most_opp) = (sheets.by_size[k][i].most as i64, sheets.by_size[opp_open as usize][j].most as i64);
        let counted = bonus(&rules, me.1) - bonus(&rules, opp.1);
        let query = most_me + most_opp + 10;
        let mut brute = BruteDuel::new(rules.clone(), query, me_open + opp_open);
        for lead in -most_me - 3..=most_opp + 3 {
            let table = layer.value(&sheets, i, j, lead + counted);
            let exact = brute.chance(me, opp, lead);
            assert!((table - exact).abs() < 1e-9, "{name} {me:?} {opp:?} lead {lead}: {table} against {exact}");
            compared += 1;
        }
    }
    assert!(compared > states * 20, "{name}: {compared}");
}

#[test]
fn forced_yatzy_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("forced-yatzy", 12, 11);
}

#[test]
fn generala_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("generala", 8, 12);
}

#[test]
fn yacht_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("yacht", 8, 13);
}

#[test]
fn crag_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("crag", 12, 14);
}

/// forced-yatzy, its target table and forced-yatzy-duel as `generator
/// --games forced-yatzy,forced-yatzy-target,forced-yatzy-duel` writes them, once for the tests of
/// this binary.
fn forced_yatzy_duel() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = dice_tables_tests::scratch("forced-yatzy-duel");
        let out = dice_tables_tests::run(
            "generator",
            &["--out", dir.to_str().unwrap(), "--games", "forced-yatzy,forced-yatzy-target,forced-yatzy-duel"],
            &[],
        );
        assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// The table's reader, on random states with up to three boxes open on
/// each sheet (the first player's turn starts solved from the stored
/// second player's ones at lookup time): the chance at every lead is the
/// brute force's within 1e-7, and on a random roll of each, every option's
/// chance too, the first listed the best.
#[test]
fn forced_yatzy_duel_answers_as_the_brute_force_plays() {
    answers_as_the_brute_force_plays(&forced_yatzy_duel().join("forced-yatzy-duel.dtab"), 8, 300, 21);
}

/// Your own rules for two players: `generator --rules FILE --with-duel`
/// writes the rule set's table and its two-player table (and refuses
/// `--with-duel` without a rule file, in one line), which answers as the
/// brute force plays, and `reader lookup NAME` answers from it exactly.
#[test]
fn a_rule_file_s_two_player_table_answers_as_the_brute_force_plays() {
    let dir = dice_tables_tests::scratch("porch-duel");
    let file = dir.join("porch.toml");
    std::fs::write(&file, dice_tables_tests::PORCH_RULES).unwrap();
    let out_dir = dir.join("tables");
    let refused = dice_tables_tests::run("generator", &["--with-duel", "--out", out_dir.to_str().unwrap()], &[]);
    let why = String::from_utf8_lossy(&refused.stderr);
    assert_eq!((refused.status.code(), why.lines().count()), (Some(2), 1), "{why}");
    assert!(why.contains("give --rules FILE.toml too"), "{why}");
    let args = ["--rules", file.to_str().unwrap(), "--with-duel", "--out", out_dir.to_str().unwrap()];
    let out = dice_tables_tests::run("generator", &args, &[]);
    assert!(out.status.success(), "generator --rules --with-duel: {}", String::from_utf8_lossy(&out.stderr));
    let mut written: Vec<String> =
        std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    written.sort();
    assert_eq!(written, ["porch-duel.dtab", "porch.dtab"]);
    answers_as_the_brute_force_plays(&out_dir.join("porch-duel.dtab"), 8, 100, 22);
    let asked = ["lookup", "porch", "--tables", out_dir.to_str().unwrap(), "--opp-mask", "all", "--json"];
    let answer = dice_tables_tests::run("reader", &asked, &[]);
    let text = String::from_utf8_lossy(&answer.stdout);
    assert!(answer.status.success() && text.contains(r#""exact":true"#), "{text}");
}

/// The two-player table `path` on `states` random states with up to three boxes
/// open on each sheet: the chance at every seventh lead up to `span` either
/// way (a little past the most three boxes score) is the brute force's within
/// 1e-7, and on a random roll of each, every option's chance too, the first
/// listed the best.
fn answers_as_the_brute_force_plays(path: &std::path::Path, states: usize, span: i64, seed: u64) {
    use dice_tables_reader::rule_sheet::RuleChoice;
    use dice_tables_reader::rules::SheetState;
    use dice_tables_reader::Game;
    use dice_tables_tests::oracles::rule_set::BruteOption;
    let duel = dice_tables_reader::rule_sheet::RuleDuel::open(path).unwrap();
    let rules = duel.rules().clone();
    let mut rng = Rng::new(seed);
    let (mut chances, mut options) = (0, 0);
    for _ in 0..states {
        let opp_open = 1 + rng.below(3) as u32;
        let me_open = if rng.below(2) == 0 { opp_open } else { (opp_open + 1).min(3) };
        let (me, opp) = (random_sheet(&rules, &mut rng, me_open), random_sheet(&rules, &mut rng, opp_open));
        let state = |s: (u32, u32, u32)| SheetState { open: s.0, upper: s.1, held: s.2 };
        let mut brute = BruteDuel::new(rules.clone(), span + 100, me_open + opp_open);
        for lead in (-span..=span).step_by(7) {
            let (table, exact) = (duel.chance(state(me), state(opp), lead).unwrap(), brute.chance(me, opp, lead));
            assert!((table - exact).abs() < 1e-7, "{me:?} {opp:?} lead {lead}: {table} against {exact}");
            chances += 1;
        }
        let lead = rng.below(61) as i64 - 30;
        let dice: Vec<u8> = (0..rules.dice).map(|_| 1 + rng.below(6) as u8).collect();
        let rerolls = rng.below(u64::from(rules.rerolls) + 1) as u8;
        let text: String = dice.iter().map(|d| char::from(b'0' + d)).collect();
        let roll = duel.options(state(me), state(opp), lead, text.parse().unwrap(), rerolls).unwrap();
        let want = brute.options(me, opp, lead, &dice, usize::from(rerolls));
        assert_eq!(roll.options.len(), want.len(), "{me:?} {opp:?} {text} {rerolls}");
        for (choice, v) in &roll.options {
            let option = match choice {
                RuleChoice::Score(m) => BruteOption::Score(m.box_index),
                RuleChoice::Keep(k) => BruteOption::Keep({
                    let mut kept: Vec<u8> = k.faces().collect();
                    kept.sort_unstable();
                    kept
                }),
            };
            let (_, exact) = want.iter().find(|(o, _)| *o == option).expect("the brute force has it");
            assert!((v - exact).abs() < 1e-7, "{me:?} {opp:?} {text} {rerolls} {option:?}: {v} against {exact}");
            options += 1;
        }
        let best = want.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
        assert!((roll.value - best).abs() < 1e-7, "the first listed is the best");
    }
    assert!(chances > 2 * span as usize / 7 * states && options > states, "{chances} {options}");
}

/// A two-player rule-set table checked whole (`duel`, beside the rule
/// set's target table `target`): every stored pair decodes (in [0, 1],
/// never falling as the lead grows: the reader refuses otherwise), and
/// past its settled leads it is 0 and 1 where no open box wins at once; on
/// the last turn of a game (the opponent done) the chance lies between
/// the target table's chance of winning outright and its chance of winning
/// or tying averaged with that, as for yazy (above it only where the box
/// left wins at once, which the target table scores for its points); the
/// start's figure is `first`. Returns the pairs checked.
fn holds_its_chances(duel: &std::path::Path, target: &std::path::Path, first: f64) -> usize {
    use dice_tables_reader::rule_sheet::{duel::Sheet, RuleDuel, RuleTarget};
    use dice_tables_reader::rules::SheetState;
    use dice_tables_reader::Game;
    let (duel, target) = (RuleDuel::open(duel).unwrap(), RuleTarget::open(target).unwrap());
    let rules = duel.rules().clone();
    let sheets = duel.sheets();
    let state = |s: &Sheet| SheetState { open: s.open, upper: u32::from(s.upper), held: s.held };
    let bonus = |s: &Sheet| i64::from(rules_bonus(&duel, u32::from(s.upper)));
    let wins_at_once = |s: &Sheet| rules.boxes.iter().enumerate().any(|(b, x)| x.wins && s.open >> b & 1 == 1);
    let mut pairs = 0;
    for n in (1..=sheets.top()).step_by(2) {
        let (k, l) = Sheets::sizes(n);
        for m in &sheets.by_size[k] {
            for o in &sheets.by_size[l] {
                // Leads as the lookups take them (no bonus), counted with both bonuses.
                let lead = |d: i64| d - bonus(m) + bonus(o);
                let low = duel.chance(state(m), state(o), lead(-i64::from(m.most) - 1)).unwrap();
                let high = duel.chance(state(m), state(o), lead(i64::from(o.most) + 1)).unwrap();
                if !wins_at_once(m) && !wins_at_once(o) {
                    assert_eq!((low, high), (0.0, 1.0), "{m:?} {o:?}");
                } else {
                    assert!(0.0 <= low && low <= high && high <= 1.0, "{m:?} {o:?}: {low} {high}");
                }
                pairs += 1;
            }
        }
    }
    let mut bracketed = 0;
    for m in &sheets.by_size[1] {
        for o in &sheets.by_size[0] {
            for d in -i64::from(m.most) - 2..=2 {
                let p = duel.chance(state(m), state(o), d - bonus(m) + bonus(o)).unwrap();
                let s = state(m);
                // The target table counts a bonus reached among the points to come.
                let win = target.chance(s.open, s.upper, s.held, 1 - d + bonus(m)).unwrap();
                let tie_or_win = target.chance(s.open, s.upper, s.held, -d + bonus(m)).unwrap();
                assert!(p >= win - 1e-7, "{m:?} {o:?} {d}: {p} below {win}");
                if !wins_at_once(m) {
                    assert!(p <= (win + tie_or_win) / 2.0 + 1e-7, "{m:?} {o:?} {d}: {p} above {win}, {tie_or_win}");
                }
                bracketed += 1;
            }
        }
    }
    assert!(bracketed > 10 * sheets.by_size[1].len(), "{bracketed}");
    let start = SheetState { open: duel.all_open(), upper: 0, held: 0 };
    let chance = duel.chance(start, start, 0).unwrap();
    assert!((chance - first).abs() < 1e-7, "the first player's chance {chance}, not {first}");
    pairs
}

/// Every two-player rule-set table, checked whole as [`holds_its_chances`]
/// says and against the brute force as [`answers_as_the_brute_force_plays`]
/// says: those `make rule-duel-tables` wrote into `DICE_RULE_DUEL_TABLES`
/// beside the rule sets' target tables (`make bench`: forced Yatzy's,
/// Generala's, Yacht's and Crag's), else forced Yatzy's, solved for these
/// tests.
#[test]
fn every_two_player_rule_set_table_holds_its_chances() {
    let figures = [("forced-yatzy", 0.4954427), ("generala", 0.4948350), ("yacht", 0.4938620), ("crag", 0.4970065)];
    let (dir, games) = match std::env::var_os("DICE_RULE_DUEL_TABLES") {
        Some(dir) => (std::path::PathBuf::from(dir), &figures[..]),
        None => (forced_yatzy_duel().to_path_buf(), &figures[..1]),
    };
    for (seed, (name, first)) in (31..).zip(games) {
        let (duel, target) = (dir.join(format!("{name}-duel.dtab")), dir.join(format!("{name}-target.dtab")));
        answers_as_the_brute_force_plays(&duel, 8, 300, seed);
        let pairs = holds_its_chances(&duel, &target, *first);
        assert!(pairs > 1000, "{name}-duel: {pairs} pairs");
        eprintln!("{name}-duel: the brute force's on 8 states, {pairs} pairs checked whole");
    }
}

/// The upper bonus a sheet with upper total `upper` is paid.
fn rules_bonus(duel: &dice_tables_reader::rule_sheet::RuleDuel, upper: u32) -> u16 {
    duel.rules().upper_bonus.filter(|b| upper >= u32::from(b.at)).map_or(0, |b| b.points)
}

/// A damaged file is refused by `reader verify`'s checks with one line
/// naming what is wrong, wherever the damage is.
#[test]
fn a_damaged_two_player_table_is_refused_in_one_line() {
    let whole = std::fs::read(forced_yatzy_duel().join("forced-yatzy-duel.dtab")).unwrap();
    dice_tables_reader::verify_bytes(whole.clone()).unwrap();
    for at in [40, whole.len() / 3, whole.len() / 2, whole.len() - 10] {
        let mut bytes = whole.clone();
        bytes[at] ^= 0x40;
        let err = dice_tables_reader::verify_bytes(bytes).unwrap_err().to_string();
        assert!(!err.contains('\n') && !err.is_empty(), "byte {at}: {err}");
    }
}

/// `reader lookup NAME --opp-mask ...` answers from the two-player table
/// where the directory has one: exact, the table's chance, the options
/// best first.
#[test]
fn reader_lookup_answers_two_players_exactly_from_the_table() {
    use dice_tables_reader::rules::SheetState;
    use dice_tables_reader::Game;
    let dir = forced_yatzy_duel();
    let args = [
        "lookup",
        "forced-yatzy",
        "--tables",
        dir.to_str().unwrap(),
        "--mask",
        "chance,yatzy",
        "--upper",
        "40",
        "--opp-mask",
        "yatzy",
        "--opp-upper",
        "70",
        "--me",
        "120",
        "--opp",
        "150",
        "--dice",
        "66662",
        "--rerolls",
        "1",
        "--json",
    ];
    let out = dice_tables_tests::run("reader", &args, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["exact"], true, "{answer}");
    let duel = dice_tables_reader::rule_sheet::RuleDuel::open(dir.join("forced-yatzy-duel.dtab")).unwrap();
    let (me, opp) =
        (SheetState { open: 0b11 << 13, upper: 40, held: 0 }, SheetState { open: 1 << 14, upper: 70, held: 0 });
    let roll = duel.options(me, opp, -30, "66662".parse().unwrap(), 1).unwrap();
    assert_eq!(answer["p"].as_f64().unwrap(), roll.value, "{answer}");
    let options = answer["options"].as_array().unwrap();
    assert_eq!(options.len(), roll.options.len());
    assert_eq!(options[0]["p"].as_f64().unwrap(), roll.options[0].1);
}

/// On the opponent's turn (`--to-move opp`, or by default when your sheet
/// has one box fewer open) the chance is yours: one less the opponent's,
/// the sheets and the lead seen from their side; the options are theirs,
/// their best first; the answer says whose turn it is.
#[test]
fn reader_lookup_answers_on_the_opponent_s_turn_with_your_chance() {
    use dice_tables_reader::rules::SheetState;
    use dice_tables_reader::Game;
    let dir = forced_yatzy_duel();
    let duel = dice_tables_reader::rule_sheet::RuleDuel::open(dir.join("forced-yatzy-duel.dtab")).unwrap();
    let lookup = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["lookup", "forced-yatzy", "--tables", dir.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let out = dice_tables_tests::run("reader", &args, &[]);
        assert!(out.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // Both sheets untouched, the opponent to move first.
    let start = SheetState { open: (1 << 15) - 1, upper: 0, held: 0 };
    let answer = lookup(&["--opp-mask", "all", "--to-move", "opp"]);
    assert_eq!(answer["to_move"], "opp", "{answer}");
    let theirs = duel.chance(start, start, 0).unwrap();
    assert!((answer["p"].as_f64().unwrap() - (1.0 - theirs)).abs() < 1e-15, "{answer}");
    // You moved first and scored 4 in ones; the opponent's roll, by default.
    let me = SheetState { open: start.open & !1, upper: 4, held: 0 };
    let answer = lookup(&[
        "--mask",
        "all,-ones",
        "--upper",
        "4",
        "--opp-mask",
        "all",
        "--me",
        "4",
        "--opp",
        "0",
        "--dice",
        "11256",
    ]);
    assert_eq!(answer["to_move"], "opp", "{answer}");
    let roll = duel.options(start, me, -4, "11256".parse().unwrap(), 2).unwrap();
    assert!((answer["p"].as_f64().unwrap() - (1.0 - roll.value)).abs() < 1e-15, "{answer}");
    let options = answer["options"].as_array().unwrap();
    assert_eq!(options.len(), roll.options.len());
    for (o, (_, p)) in options.iter().zip(&roll.options) {
        assert!((o["p"].as_f64().unwrap() - (1.0 - p)).abs() < 1e-15, "{o}");
    }
    // Your own turn asked as the opponent's cannot be.
    let args =
        ["lookup", "forced-yatzy", "--tables", dir.to_str().unwrap(), "--opp-mask", "all", "--mask", "all,-ones"];
    let out =
        dice_tables_tests::run("reader", &[&args[..], &["--me", "4", "--opp", "0", "--to-move", "me"]].concat(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--to-move me cannot be"));
}

/// yazy's two-player table is the rules engine's game: the yazy preset
/// (within the table's categories: the reduced table `make test` reads,
/// `REDUCED_DUEL`, or the whole one `make bench` points
/// `DICE_TARGET_TABLES` at) solved by the rules engine gives, at every
/// stored lead of the second player's turn starts (every pair of the
/// reduced game, a sample of about one in 500 of the whole one's), the
/// table's chance within its rounding (yazy's own solver wrote the table
/// and shares no turn code with the engine).
#[test]
fn the_rules_engine_s_yazy_is_the_yazy_duel_table() {
    use dice_tables_reader::yazy::duel::YazyDuel;
    use dice_tables_reader::yazy::Mask;
    use dice_tables_reader::Game;
    let duel = YazyDuel::open(dice_tables_tests::target_tables().join("yazy-duel.dtab")).unwrap();
    let universe = u32::from(duel.universe().bits());
    let mut rules = preset("yazy").unwrap();
    // Box b of the rules is category b of yazy's sheet; yazy has no bonus
    // and no box that needs another, so the reduced rules are its boxes alone.
    let cats: Vec<usize> = (0..rules.boxes.len()).filter(|c| universe >> c & 1 == 1).collect();
    rules.boxes = cats.iter().map(|&c| rules.boxes[c].clone()).collect();
    rules.check().unwrap();
    let to_yazy = |open: u32| {
        let bits = (0..cats.len()).filter(|b| open >> b & 1 == 1).fold(0u32, |m, b| m | 1 << cats[b]);
        Mask::new(bits).unwrap()
    };
    let sheets = check_duel(&rules).unwrap();
    let sample = if cats.len() == 11 { 500 } else { 1 };
    let mut rng = Rng::new(23);
    let (mut pairs, mut compared) = (0, 0);
    solve(&rules, &sheets, 2 * cats.len(), dice_tables_generator::dice::simd(), &mut |layer| {
        if layer.n % 2 == 0 {
            return; // the first player's turn starts: solved from these at lookup time
        }
        let (k, l) = Sheets::sizes(layer.n);
        for (i, m) in sheets.by_size[k].iter().enumerate() {
            for (j, o) in sheets.by_size[l].iter().enumerate() {
                if rng.below(sample) != 0 {
                    continue;
                }
                pairs += 1;
                for d in -(m.most as i64) - 3..=o.most as i64 + 3 {
                    let ours = layer.value(&sheets, i, j, d);
                    let table = duel.chance(to_yazy(m.open), to_yazy(o.open), d).unwrap();
                    assert!(
                        (ours - table).abs() < 1e-7,
                        "{:#b} {:#b} lead {d}: {ours} against {table}",
                        m.open,
                        o.open
                    );
                    compared += 1;
                }
            }
        }
    });
    assert!(pairs > 100 && compared > 10_000, "{pairs} pairs, {compared} leads");
    eprintln!("yazy-duel ({} categories): {pairs} pairs, {compared} leads the rules engine's", cats.len());
}

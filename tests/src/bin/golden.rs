//! Writes the golden files (`make golden`): for every game, at least 300
//! lookups chosen at random (a fixed seed) and what `reader lookup ... --json`
//! answers, one JSON file per game in `tests/golden/`. Every reader, in any
//! language, must give the same answers; `tests/tests/integration/golden.rs` checks the
//! Rust one. Regenerating is a deliberate act, like the table manifest.
//!
//! `refused.json` holds lookups every reader must refuse, with the one-line
//! message of the reader's lookup layer (what the Python package raises;
//! the command line prints it inside its own line).
//!
//! `target.json` holds yatzy and yahtzee lookups played to win: to reach a
//! target (`need`), or against an opponent as the opponent-aware advisor
//! plays (`opp-mask`), of states with at most 4 categories open: the
//! reduced target tables (`make reduced-target-tables`) answer them, and
//! the whole ones give the same answers (`make bench` checks). `yazy.json`
//! ends with yazy's target and advisor lookups (the `yazy-target` table).
//!
//! `yazy-duel.json` holds two-player yazy lookups of the reduced game the
//! reduced tables directory holds (both sheets within
//! [`DUEL_CATEGORIES`]), which only its table answers.
//!
//! `rule-set-duel.json` holds two-player forced Yatzy lookups, which the
//! reduced tables directory's `forced-yatzy-duel.dtab` (the whole table)
//! answers.
//!
//! Usage: golden TABLES_DIR REDUCED_TABLES_DIR OUT_DIR

use std::path::{Path, PathBuf};

use dice_tables_tests::Rng;
use serde_json::{json, Map, Value};

/// Lookups a game's file holds.
const PER_GAME: usize = 320;
/// yazy lookups played to reach a target, after the others in yazy.json.
const TARGET_LOOKUPS: usize = 80;
/// Lookups of each of yatzy and yahtzee in target.json.
const SHEET_TARGET_LOOKUPS: usize = 160;
/// Lookups against an opponent, of each of yatzy and yahtzee in
/// target.json, and of yazy (the advisor's) in yazy.json.
const VERSUS_LOOKUPS: usize = 80;
/// The most categories open in target.json's states.
const OPEN: u64 = 4;
/// Two-player yazy lookups in yazy-duel.json, on the turn of the player
/// given as `mask`.
const DUEL_LOOKUPS: usize = 240;
/// Two-player lookups on the opponent's turn (`to-move` opp, said or
/// implied), after the others: in yazy-duel.json and in duel.json.
const OPPONENT_TURN_LOOKUPS: usize = 60;
use dice_tables_tests::REDUCED_DUEL as DUEL_CATEGORIES;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tables, reduced, out] = &args[..] else {
        eprintln!("usage: golden TABLES_DIR REDUCED_TABLES_DIR OUT_DIR");
        std::process::exit(2);
    };
    std::fs::create_dir_all(out).expect("output directory");
    let mut rng = Rng::new(2026);
    for game in dice_tables_tests::games() {
        // Each game's own stream, so that adding a game changes no other's queries.
        let mut own;
        let rng = if game == "maxi-yatzy" {
            own = Rng::new(31);
            &mut own
        } else {
            &mut rng
        };
        let mut entries = Vec::new();
        let mut tries = 0;
        while entries.len() < PER_GAME {
            tries += 1;
            assert!(tries < 50 * PER_GAME, "{game}: too few queries answer");
            let query = random_query(game, rng);
            // Queries a table refuses (unreachable states) are left out.
            if let Some(answer) = lookup(Path::new(tables), game, &query) {
                entries.push(json!({ "query": query, "answer": answer }));
            }
        }
        if game == "yazy" {
            // Target lookups (the yazy-target table), from their own
            // stream so the other games' queries stay as they were.
            let mut rng = Rng::new(23);
            for _ in 0..TARGET_LOOKUPS {
                let mut query = random_query(game, &mut rng);
                query.insert("need".into(), Value::from(rng.below(300) as i64 - 10));
                let answer = lookup(Path::new(tables), game, &query).expect("every yazy mask answers");
                entries.push(json!({ "query": query, "answer": answer }));
            }
            // The opponent-aware advisor's lookups, from their own stream.
            let mut rng = Rng::new(29);
            while entries.len() < PER_GAME + TARGET_LOOKUPS + VERSUS_LOOKUPS {
                let mut query = random_query(game, &mut rng);
                let m = query["mask"].as_u64().expect("a mask");
                let size = m.count_ones() - rng.below(2) as u32;
                let mut o = 0u64;
                while o.count_ones() < size {
                    o |= 1 << rng.below(11);
                }
                query.insert("opp-mask".into(), Value::from(o));
                query.insert("me".into(), Value::from(rng.below(200)));
                query.insert("opp".into(), Value::from(rng.below(200)));
                query.insert("advisor".into(), Value::Bool(true));
                let answer = lookup(Path::new(tables), game, &query).expect("every pair of yazy masks answers");
                entries.push(json!({ "query": query, "answer": answer }));
            }
        }
        if game == "duel" {
            // On the opponent's turn, from their own stream.
            let mut rng = Rng::new(37);
            for _ in 0..OPPONENT_TURN_LOOKUPS {
                let mut query = random_query(game, &mut rng);
                query.insert("to-move".into(), Value::from("opp"));
                if let Some(answer) = lookup(Path::new(tables), game, &query) {
                    entries.push(json!({ "query": query, "answer": answer }));
                }
            }
        }
        write_lookups(&PathBuf::from(out).join(format!("{game}.json")), &format!("\"game\": \"{game}\""), &entries);
    }
    write_sheet_targets(Path::new(reduced), Path::new(out));
    write_two_player(Path::new(reduced), Path::new(out));
    write_refused(Path::new(tables), Path::new(out));
    write_rule_sets(Path::new(tables), Path::new(out));
    write_rule_set_duel(Path::new(reduced), Path::new(out));
}

/// Lookups of each preset's rule-set table in `rule-sets.json`.
const RULE_SET_LOOKUPS: usize = 48;
/// The rule set whose two-player table the golden lookups ask, and how many.
const RULE_SET_DUEL: &str = "forced-yatzy";
const RULE_SET_DUEL_LOOKUPS: usize = 240;

/// `rule-sets.json`: lookups of the tables `make tables` writes for the
/// presets the rules engine solves (`RULE_TABLES` in the Makefile), then
/// of their target tables (`RULE_TARGET_TABLES`) with a need, each with
/// its game: random sheets (in sheet order for a fixed order), upper
/// totals, boxes holding points, and mostly rolls with any rerolls left.
fn write_rule_sets(tables: &Path, out: &Path) {
    let mut entries = rule_set_lookups(tables, &dice_tables_tests::RULE_TABLES, Rng::new(61), Play::Points);
    // Then the target tables', played for a need and against an opponent.
    let targets: Vec<&str> =
        dice_tables_tests::RULE_TARGET_TABLES.iter().map(|t| t.strip_suffix("-target").expect("NAME-target")).collect();
    entries.extend(rule_set_lookups(tables, &targets, Rng::new(62), Play::Need));
    entries.extend(rule_set_lookups(tables, &targets, Rng::new(63), Play::Versus));
    write_lookups(&out.join("rule-sets.json"), "\"tables\": \"the presets' rule-set tables\"", &entries);
}

/// `rule-set-duel.json`: two-player forced Yatzy's lookups (its whole
/// table, in `reduced`: seconds to solve), on either player's turn.
fn write_rule_set_duel(reduced: &Path, out: &Path) {
    let entries = rule_set_lookups(reduced, &[RULE_SET_DUEL], Rng::new(64), Play::Duel);
    let head = format!("\"tables\": \"{RULE_SET_DUEL}-duel, whole (make reduced-target-tables)\"");
    write_lookups(&out.join("rule-set-duel.json"), &head, &entries);
}

/// What a rule set's golden lookups are played for.
#[derive(Clone, Copy, PartialEq)]
enum Play {
    /// The most points (the rule set's own table).
    Points,
    /// A need (its target table).
    Need,
    /// Winning against an opponent, as the advisor estimates it (its target table).
    Versus,
    /// Winning against an opponent exactly (its two-player table), on
    /// either player's turn; [`RULE_SET_DUEL_LOOKUPS`] of them, states no
    /// game reaches left out.
    Duel,
}

/// [`RULE_SET_LOOKUPS`] lookups of each rule set of `games`, played as `play` says.
fn rule_set_lookups(tables: &Path, games: &[&str], mut rng: Rng, play: Play) -> Vec<Value> {
    let mut entries = Vec::new();
    for &game in games {
        let rules = dice_tables_generator::rule_sets::preset(game).expect("a preset");
        let boxes = rules.boxes.len() as u64;
        let names = |bits: u64| -> Vec<Value> {
            (0..boxes)
                .filter(|b| bits >> b & 1 == 1)
                .map(|b| Value::from(rules.boxes[b as usize].name.clone()))
                .collect()
        };
        let count = if play == Play::Duel { RULE_SET_DUEL_LOOKUPS } else { RULE_SET_LOOKUPS };
        let mut tries = 0;
        while entries.iter().filter(|e: &&Value| e["game"] == game).count() < count {
            tries += 1;
            assert!(tries < 20 * count, "{game}: too few queries answer");
            let mask = match rules.order {
                dice_tables_reader::rules::Order::Fixed => ((1u64 << boxes) - 1) & !((1u64 << rng.below(boxes)) - 1),
                dice_tables_reader::rules::Order::Free => 1 + rng.below((1 << boxes) - 1),
            };
            let mut query = Map::new();
            query.insert(
                "mask".into(),
                Value::from(names(mask).iter().map(|n| n.as_str().unwrap()).collect::<Vec<_>>().join(",")),
            );
            if let Some(bonus) = rules.upper_bonus {
                query.insert("upper".into(), Value::from(rng.below(u64::from(bonus.at) + 1)));
            }
            let held = rules
                .tracked_boxes()
                .iter()
                .filter(|&&b| mask >> b & 1 == 0 && rng.below(2) == 0)
                .fold(0u64, |h, &b| h | 1 << b);
            if held != 0 {
                query.insert(
                    "held".into(),
                    Value::from(names(held).iter().map(|n| n.as_str().unwrap()).collect::<Vec<_>>().join(",")),
                );
            }
            if rng.below(6) > 0 {
                query.insert("dice".into(), dice(&mut rng, u64::from(rules.dice)));
                query.insert("rerolls".into(), Value::from(rng.below(u64::from(rules.rerolls) + 1)));
            }
            if play == Play::Need {
                // Up to about the most the open boxes score.
                query.insert("need".into(), Value::from(1 + rng.below(25 * u64::from(mask.count_ones()))));
            }
            if play == Play::Versus || play == Play::Duel {
                // The opponent a turn behind or level: as many boxes open, or one fewer.
                let open = mask.count_ones() - rng.below(2).min(u64::from(mask.count_ones()) - 1) as u32;
                let opp_mask = match rules.order {
                    dice_tables_reader::rules::Order::Fixed => {
                        ((1u64 << boxes) - 1) & !((1u64 << (boxes - u64::from(open))) - 1)
                    }
                    dice_tables_reader::rules::Order::Free => loop {
                        let m = rng.below(1 << boxes);
                        if m.count_ones() == open {
                            break m;
                        }
                    },
                };
                let opp_names = names(opp_mask).iter().map(|n| n.as_str().unwrap().to_string()).collect::<Vec<_>>();
                query.insert("opp-mask".into(), Value::from(opp_names.join(",")));
                if let Some(bonus) = rules.upper_bonus {
                    query.insert("opp-upper".into(), Value::from(rng.below(u64::from(bonus.at) + 1)));
                }
                query.insert("me".into(), Value::from(rng.below(200)));
                query.insert("opp".into(), Value::from(rng.below(200)));
            }
            if play == Play::Duel && !query.contains_key("held") && rng.below(4) == 0 {
                // The same state asked by the player waiting for the mover.
                for (a, b) in [("mask", "opp-mask"), ("upper", "opp-upper"), ("me", "opp")] {
                    let (x, y) = (query.remove(a), query.remove(b));
                    query.extend(y.map(|y| (a.to_string(), y)).into_iter().chain(x.map(|x| (b.to_string(), x))));
                }
                query.insert("to-move".into(), Value::from("opp"));
            }
            let answer = match (lookup(tables, game, &query), play) {
                (Some(answer), _) => answer,
                (None, Play::Duel) => continue,
                (None, _) => panic!("{game} {query:?} is refused"),
            };
            entries.push(json!({ "game": game, "query": query, "answer": answer }));
        }
    }
    entries
}

/// One lookup a line: diffs of a regenerated file show what changed.
fn write_lookups(file: &Path, head: &str, entries: &[Value]) {
    let lines: Vec<String> = entries.iter().map(|e| serde_json::to_string(e).expect("JSON")).collect();
    let text = format!("{{{head}, \"lookups\": [\n{}\n]}}\n", lines.join(",\n"));
    std::fs::write(file, text).expect("write golden file");
    println!("{}: {} lookups", file.display(), entries.len());
}

/// `target.json`: yatzy and yahtzee (the forced joker reading) lookups with
/// `need`, of random states with 1 to [`OPEN`] categories open, asked of
/// the reduced tables in `reduced` (states they refuse, which no game
/// reaches, are left out).
fn write_sheet_targets(reduced: &Path, out: &Path) {
    let mut rng = Rng::new(2323);
    let mut entries = Vec::new();
    for (game, categories) in [("yatzy", 15), ("yahtzee", 13)] {
        let mut found = 0;
        while found < SHEET_TARGET_LOOKUPS {
            let open = 1 + rng.below(OPEN) as u32;
            let mut mask = 0u64;
            while mask.count_ones() < open {
                mask |= 1 << rng.below(categories);
            }
            let mut query = Map::new();
            query.insert("mask".into(), Value::from(mask));
            let upper: u64 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * rng.below(6)).sum();
            query.insert("upper".into(), Value::from(upper));
            if game == "yahtzee" && mask >> 11 & 1 == 0 && rng.below(2) == 0 {
                query.insert("yahtzee-bonus".into(), Value::Bool(true));
            }
            if rng.below(8) > 0 {
                query.insert("dice".into(), dice(&mut rng, 5));
                query.insert("rerolls".into(), Value::from(rng.below(3)));
            }
            // Up to about what the open boxes can score, so most chances are neither 0 nor 1.
            query.insert("need".into(), Value::from(rng.below(25 * u64::from(open) + 10) as i64 - 5));
            if let Some(answer) = lookup(reduced, game, &query) {
                entries.push(json!({ "game": game, "query": query, "answer": answer }));
                found += 1;
            }
        }
    }
    // Against an opponent, from their own stream.
    let mut rng = Rng::new(2424);
    for (game, categories) in [("yatzy", 15), ("yahtzee", 13)] {
        let mut found = 0;
        while found < VERSUS_LOOKUPS {
            let open = 1 + rng.below(OPEN) as u32;
            let mut query = Map::new();
            for (side, size) in [("", open), ("opp-", open - rng.below(2) as u32)] {
                let mut mask = 0u64;
                while mask.count_ones() < size {
                    mask |= 1 << rng.below(categories);
                }
                query.insert(format!("{side}mask"), Value::from(mask));
                let upper: u64 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * rng.below(6)).sum();
                query.insert(format!("{side}upper"), Value::from(upper));
                if game == "yahtzee" && mask >> 11 & 1 == 0 && rng.below(2) == 0 {
                    query.insert(format!("{side}yahtzee-bonus"), Value::Bool(true));
                }
                // A total near what the filled boxes score, the two close enough that few chances are 0 or 1.
                query.insert(if side.is_empty() { "me" } else { "opp" }.into(), Value::from(150 + rng.below(60)));
            }
            if rng.below(8) > 0 {
                query.insert("dice".into(), dice(&mut rng, 5));
                query.insert("rerolls".into(), Value::from(rng.below(3)));
            }
            if let Some(answer) = lookup(reduced, game, &query) {
                entries.push(json!({ "game": game, "query": query, "answer": answer }));
                found += 1;
            }
        }
    }
    let head = format!("\"tables\": \"yatzy and yahtzee and their target tables, whole or reduced to the states with at most {OPEN} categories open (make reduced-target-tables)\"");
    write_lookups(&out.join("target.json"), &head, &entries);
}

/// `yazy-duel.json`: two-player yazy lookups of random states of the
/// reduced game in `reduced` (both turn orders, totals the filled
/// categories can make), most with a roll.
fn write_two_player(reduced: &Path, out: &Path) {
    use dice_tables_reader::yazy::duel::most;
    use dice_tables_reader::yazy::Mask;
    let universe = DUEL_CATEGORIES.parse::<Mask>().expect("a mask").bits();
    let sheets: Vec<u16> = (0..=universe).filter(|s| s & !universe == 0).collect();
    let mut entries = Vec::new();
    // The player to move as `mask`, then (from their own stream) the other.
    for (count, mut stream, waiting) in
        [(DUEL_LOOKUPS, Rng::new(4040), false), (OPPONENT_TURN_LOOKUPS, Rng::new(4041), true)]
    {
        let rng = &mut stream;
        for _ in 0..count {
            let m = sheets[1 + rng.below(sheets.len() as u64 - 1) as usize];
            let size = m.count_ones() - rng.below(2) as u32;
            let opponents: Vec<u16> = sheets.iter().copied().filter(|o| o.count_ones() == size).collect();
            let o = opponents[rng.below(opponents.len() as u64) as usize];
            let total = |rng: &mut Rng, open: u16| rng.below(most(universe & !open) as u64 + 1);
            let (mover_total, other_total) = (total(rng, m), total(rng, o));
            let mut query = Map::new();
            if waiting {
                // The sheets say whose turn it is only when the mover has one more open.
                query.insert("mask".into(), Value::from(o));
                query.insert("opp-mask".into(), Value::from(m));
                query.insert("me".into(), Value::from(other_total));
                query.insert("opp".into(), Value::from(mover_total));
                if size == m.count_ones() || rng.below(2) == 0 {
                    query.insert("to-move".into(), Value::from("opp"));
                }
            } else {
                query.insert("mask".into(), Value::from(m));
                query.insert("opp-mask".into(), Value::from(o));
                query.insert("me".into(), Value::from(mover_total));
                query.insert("opp".into(), Value::from(other_total));
            }
            if rng.below(8) > 0 {
                query.insert("dice".into(), dice(rng, 5));
                query.insert("rerolls".into(), Value::from(rng.below(3)));
            }
            let answer = lookup(reduced, "yazy", &query).expect("every state of the reduced game answers");
            entries.push(json!({ "query": query, "answer": answer }));
        }
    }
    let head = format!("\"game\": \"yazy\", \"tables\": \"two-player yazy reduced to {DUEL_CATEGORIES} on both sheets (make reduced-target-tables)\"");
    write_lookups(&out.join("yazy-duel.json"), &head, &entries);
}

/// Lookups every reader refuses: bad values, arguments that do not go
/// together, and states no game reaches (flags without dashes, as in the
/// golden files; `true` for a flag without a value).
const REFUSED: &[(&str, &str)] = &[
    ("yazy", r#"{"mask":"3","dice":"1245"}"#),
    ("yazy", r#"{"mask":"3","dice":"124566"}"#),
    ("yazy", r#"{"mask":"3","dice":"1234567"}"#),
    ("yazy", r#"{"mask":"3","dice":"12457"}"#),
    ("yazy", r#"{"mask":"3","dice":"1a345"}"#),
    ("yazy", r#"{"mask":"3","dice":""}"#),
    ("yazy", r#"{"mask":"2048"}"#),
    ("yazy", r#"{"mask":"-1"}"#),
    ("yazy", r#"{"mask":"0x1000"}"#),
    ("yazy", r#"{"mask":"ones,chance"}"#),
    ("yazy", r#"{"mask":""}"#),
    ("yazy", r#"{"mask":"99999999999999999999999"}"#),
    ("yazy", r#"{"mask":"3","dice":"12345","rerolls":"3"}"#),
    ("yazy", r#"{"mask":"3","dice":"12345","rerolls":"-1"}"#),
    ("yazy", r#"{"mask":"3","dice":"12345","rerolls":"two"}"#),
    ("yazy", r#"{"mask":"3","rerolls":"1"}"#),
    ("combo", r#"{"dice":"7"}"#),
    ("combo", r#"{"dice":"12345","rerolls":"6"}"#),
    ("combo", r#"{"rerolls":"2"}"#),
    ("threes", r#"{"dice":"123456"}"#),
    ("threes", r#"{"remaining":"6"}"#),
    ("threes", r#"{"remaining":"3","points":"31"}"#),
    ("threes", r#"{"remaining":"3","record":"31"}"#),
    ("threes", r#"{"remaining":"3","after":"16"}"#),
    ("threes", r#"{"remaining":"3","ties":"draw"}"#),
    ("threes", r#"{"remaining":"3","model":"random"}"#),
    ("threes", r#"{"remaining":"3","objective":"lose"}"#),
    ("threes", r#"{"remaining":"3","objective":"expected","record":"5"}"#),
    ("threes", r#"{"dice":"31","remaining":"2"}"#),
    ("threes", r#"{"points":"4"}"#),
    ("threes", r#"{"dice":"12345","points":"1"}"#),
    ("threes", r#"{"dice":"1","points":"25"}"#),
    ("tenk", r#"{"dice":"1234567"}"#),
    ("tenk", r#"{"dice":"0"}"#),
    ("tenk", r#"{"remaining":"0"}"#),
    ("tenk", r#"{"remaining":"7"}"#),
    ("tenk", r#"{"remaining":"6","score":"75"}"#),
    ("tenk", r#"{"remaining":"6","score":"-50"}"#),
    ("tenk", r#"{"remaining":"6","score":"x"}"#),
    ("tenk", r#"{"remaining":"6","score":"100000000"}"#),
    ("tenk", r#"{"dice":"155","remaining":"3"}"#),
    ("tenk", r#"{"score":"300"}"#),
    ("tenk", r#"{"remaining":"3","score":"1500","opening":true}"#),
    ("yatzy", r#"{"mask":"32768","upper":"0"}"#),
    ("yatzy", r#"{"mask":"all","upper":"-1"}"#),
    ("yatzy", r#"{"mask":"all","upper":"5"}"#),
    ("yatzy", r#"{"mask":"all","upper":"0","dice":"1111"}"#),
    ("yatzy", r#"{"mask":"ones,yahtzee","upper":"0"}"#),
    ("yahtzee", r#"{"mask":"8192","upper":"0"}"#),
    ("yahtzee", r#"{"mask":"twos,threes,fours,fives,sixes,three-kind,chance","upper":"7"}"#),
    ("yahtzee", r#"{"mask":"all","upper":"0","yahtzee-bonus":true}"#),
    ("yahtzee", r#"{"mask":"all","upper":"0","dice":"66667","rerolls":"1"}"#),
    ("yahtzee", r#"{"mask":"all","upper":"0","dice":"66666","rerolls":"3"}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","opp-mask":"chance","opp-upper":"20","me":"100"}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","opp-mask":"chance","me":"100","opp":"100"}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","me":"100","opp":"100"}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","opp-mask":"chance,yatzy,ones","opp-upper":"0","me":"1","opp":"1"}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","opp-mask":"chance","opp-upper":"20","me":"375","opp":"1"}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","opp-mask":"chance","opp-upper":"20","me":"1","opp":"1","need":"5"}"#),
    ("yahtzee", r#"{"mask":"chance","upper":"20","opp-upper":"20","opp-yahtzee-bonus":true}"#),
    ("yazy", r#"{"mask":"yazy","advisor":true}"#),
    ("maxi-yatzy", r#"{"mask":"all","dice":"12345"}"#),
    ("maxi-yatzy", r#"{"mask":"all","saved":"2"}"#),
    ("maxi-yatzy", r#"{"mask":"all,-ones","upper":"7"}"#),
    ("maxi-yatzy", r#"{"mask":"all,-ones"}"#),
    ("maxi-yatzy", r#"{"mask":"all","rules":"norwegian"}"#),
    ("maxi-yatzy", r#"{"mask":"all","dice":"123456","rerolls":"3"}"#),
    ("maxi-yatzy", r#"{"mask":"all","rerolls":"1"}"#),
    ("maxi-yatzy", r#"{"mask":"yatzy"}"#),
    ("duel", r#"{"me":"75","opp":"0"}"#),
    ("duel", r#"{"me":"10000","opp":"0"}"#),
    ("duel", r#"{"me":"-50","opp":"0"}"#),
    ("duel", r#"{"me":"0","opp":"x"}"#),
    ("duel", r#"{"me":"0","opp":"0","remaining":"0"}"#),
    ("duel", r#"{"me":"0","opp":"0","dice":"1234561","score":"300"}"#),
    ("duel", r#"{"me":"0","opp":"0","dice":"155","score":"0"}"#),
    ("duel", r#"{"me":"0","opp":"0","dice":"155","score":"75"}"#),
    ("yazy", r#"{"mask":"all","opp-mask":"yazy","me":"0","opp":"0"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"yazy,ones","me":"0","opp":"0","to-move":"me","dice":"12345"}"#),
    ("yazy", r#"{"mask":"yazy,ones","opp-mask":"yazy","me":"0","opp":"0","to-move":"opp"}"#),
    ("yazy", r#"{"mask":"yazy","to-move":"opp"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"yazy","me":"0","opp":"0","to-move":"them"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"yazy","me":"0","opp":"0","to-move":"opp","advisor":true}"#),
    ("yatzy", r#"{"mask":"chance","upper":"20","opp-mask":"chance,yatzy","opp-upper":"0","me":"1","opp":"1"}"#),
    ("duel", r#"{"me":"0","opp":"0","to-move":"both"}"#),
    ("yazy", r#"{"mask":"yazy","me":"0","opp":"0"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"yazy","me":"0"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"yazy","me":"0","opp":"0","need":"30"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"yazy","me":"281","opp":"0"}"#),
    ("yazy", r#"{"mask":"yazy","opp-mask":"2048","me":"0","opp":"0"}"#),
    ("duel", r#"{"me":"0","opp":"0","score":"300"}"#),
    ("duel", r#"{"me":"0","opp":"0","dice":"155","remaining":"3"}"#),
    ("duel", r#"{"me":"0","opp":"0","rules":"house"}"#),
];

/// `refused.json`: each refused lookup with the lookup layer's message,
/// after checking that the command line refuses it (status 2) with a line
/// that holds that message.
fn write_refused(tables: &Path, out: &Path) {
    let opened = dice_tables_reader::Tables::open_dir(tables).expect("tables directory");
    let mut entries = Vec::new();
    for (game, query) in REFUSED {
        let query: Map<String, Value> = serde_json::from_str(query).expect("REFUSED holds JSON objects");
        let message = match dice_tables_tests::golden_answer(&opened, game, &query) {
            Err(message) => message,
            Ok(answer) => panic!("{game} {query:?} is answered: {answer}"),
        };
        let cli = dice_tables_tests::golden_cli(game, &query, tables);
        let stderr = String::from_utf8_lossy(&cli.stderr);
        assert_eq!(cli.status.code(), Some(2), "{game} {query:?}: {stderr}");
        assert!(stderr.contains(&message), "{game} {query:?}: the CLI says {stderr:?}, the lookup layer {message:?}");
        entries.push(json!({ "game": game, "query": query, "error": message }));
    }
    let file = out.join("refused.json");
    let lines: Vec<String> = entries.iter().map(|e| serde_json::to_string(e).expect("JSON")).collect();
    std::fs::write(&file, format!("{{\"refused\": [\n{}\n]}}\n", lines.join(",\n"))).expect("write refused.json");
    println!("{}: {} refused lookups", file.display(), entries.len());
}

/// The reader's JSON answer to `query` (flags without their dashes; `true`
/// for a flag without a value), or `None` when it refuses the query.
fn lookup(tables: &Path, game: &str, query: &Map<String, Value>) -> Option<Value> {
    let out = dice_tables_tests::golden_cli(game, query, tables);
    match out.status.code() {
        Some(0) => Some(serde_json::from_slice(&out.stdout).expect("reader prints JSON")),
        Some(2) => None,
        _ => panic!("{game} {query:?}: {}", String::from_utf8_lossy(&out.stderr)),
    }
}

fn dice(rng: &mut Rng, n: u64) -> Value {
    Value::from((0..n).map(|_| char::from(b'1' + rng.below(6) as u8)).collect::<String>())
}

/// A threes query other than the expected total's: a throw or dice left,
/// with a record, a turn and the rules' two choices.
fn threes_query(rng: &mut Rng, set: &mut impl FnMut(&str, Value)) {
    if rng.below(2) == 0 {
        let n = 1 + rng.below(5);
        set("dice", dice(rng, n));
        set("points", Value::from(rng.below(6 * (5 - n) + 1)));
    } else {
        set("remaining", Value::from(rng.below(6)));
        set("points", Value::from(rng.below(31)));
    }
    if rng.below(2) == 0 {
        set("record", Value::from(rng.below(31)));
    }
    set("after", Value::from(rng.below(16)));
    set("ties", Value::from(["win", "lose"][rng.below(2) as usize]));
    set("model", Value::from(["sequential", "independent"][rng.below(2) as usize]));
}

/// A two-player 10000 query: both totals, then a turn's throw or dice
/// left, under either preset.
fn duel_query(rng: &mut Rng, set: &mut impl FnMut(&str, Value)) {
    set("me", Value::from(50 * rng.below(200)));
    set("opp", Value::from(50 * rng.below(200)));
    match rng.below(8) {
        0 => {}
        1..=3 => {
            set("remaining", Value::from(1 + rng.below(6)));
            set("score", Value::from(50 * (1 + rng.below(60))));
        }
        _ => {
            let score = 50 * rng.below(60);
            let n = if score == 0 { 6 } else { 1 + rng.below(6) };
            set("dice", dice(rng, n));
            set("score", Value::from(score));
        }
    }
    if rng.below(2) == 0 {
        set("rules", Value::from("cardgames"));
    }
}

fn random_query(game: &str, rng: &mut Rng) -> Map<String, Value> {
    let mut q = Map::new();
    let mut set = |k: &str, v: Value| {
        q.insert(k.to_string(), v);
    };
    match game {
        "yazy" => {
            set("mask", Value::from(1 + rng.below(2047)));
            if rng.below(8) > 0 {
                set("dice", dice(rng, 5));
                set("rerolls", Value::from(rng.below(3)));
            }
        }
        "combo" => {
            if rng.below(16) > 0 {
                set("dice", dice(rng, 5));
                set("rerolls", Value::from(rng.below(6)));
            }
        }
        "threes" if rng.below(8) == 0 => {
            let n = 1 + rng.below(5);
            set("dice", dice(rng, n));
            set("objective", Value::from("expected"));
        }
        "threes" => threes_query(rng, &mut set),
        "tenk" => {
            let opening = rng.below(4) == 0;
            let score = 50 * rng.below(if opening { 20 } else { 120 });
            if rng.below(2) == 0 {
                let n = if score == 0 { 6 } else { 1 + rng.below(6) };
                set("dice", dice(rng, n));
            } else {
                set("remaining", Value::from(1 + rng.below(6)));
            }
            set("score", Value::from(score));
            if opening {
                set("opening", Value::Bool(true));
            }
        }
        "maxi-yatzy" => {
            let mask = 1 + rng.below((1 << 20) - 1);
            let upper: u64 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * rng.below(7)).sum();
            set("mask", Value::from(mask));
            set("upper", Value::from(upper));
            if rng.below(8) > 0 {
                set("dice", dice(rng, 6));
                set("rerolls", Value::from(rng.below(3)));
            }
        }
        "yatzy" | "yahtzee" => {
            let categories = if game == "yatzy" { 15 } else { 13 };
            let mask = 1 + rng.below((1 << categories) - 1);
            // Upper points only from the filled upper boxes, so most states can be reached.
            let upper: u64 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * rng.below(6)).sum();
            set("mask", Value::from(mask));
            set("upper", Value::from(upper));
            if game == "yahtzee" && mask >> 11 & 1 == 0 && rng.below(2) == 0 {
                set("yahtzee-bonus", Value::Bool(true));
            }
            if rng.below(8) > 0 {
                set("dice", dice(rng, 5));
                set("rerolls", Value::from(rng.below(3)));
            }
        }
        _ => duel_query(rng, &mut set),
    }
    q
}

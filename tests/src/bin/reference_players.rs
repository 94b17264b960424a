//! The coach's reference figures: GAMES games of each reference player
//! (`dice_tables_tests::reference_players`) of each rule set named (by
//! default the presets `make tables` writes, then the built-in games whose
//! rules are presets: yatzy, yahtzee and yazy (maxi-yatzy when named),
//! then the presets played for
//! a target, `NAME:POINTS`, each player's score then the share reaching
//! it and its losses chances: `REFERENCE_TARGETS`, then the presets played
//! against the two-player table's optimal player, `NAME:two`, each
//! player's score 2 a win and 1 a tie, its losses chances of winning, its
//! rating the Elo gap its share against that player implies:
//! `REFERENCE_TWO_PLAYERS`, their two-player tables from `--duels DIR`,
//! or a built-in game's own, `yazy:two`; two-player 10000's, `duel:two`
//! and `duel-cardgames:two`, its players those of
//! `dice_tables_tests::tenk_players`; 10000 alone, `tenk`, each player's
//! score its turns to bank 10,000, the fewer winning a meeting, its loss
//! per turn), from TABLES, a built-in
//! game's preset solved here by the rules engine (its file there is the
//! game's own table): each player's
//! mean score, mean loss, mean accuracy and rating on the Elo scale (the
//! random player's 0), each with its standard error, and how closely the
//! Elo model fits the players' head-to-head shares.
//!
//! `--write FILE` writes the figures as the reader's reviews take them
//! (crates/lookup/src/reference_players.tsv), keeping the file's rows of
//! the rule sets not played (Maxi Yatzy's, two-player yazy's, 10000's
//! and two-player Generala's, Yacht's and Crag's, played apart: `make
//! maxi-yatzy-reference`, `make yazy-duel-reference`, `make
//! tenk-reference`, `make rule-duel-reference`);
//! `--check FILE` holds them to
//! that file's, each within 4 standard errors. The exit status says
//! whether the mean losses are ordered as the ratings are (wherever two
//! ratings differ by more than 4 standard errors, the higher rated gives
//! less away, unless the two losses are within 4 standard errors of each
//! other) and, with `--check`,
//! whether every figure was reproduced.
//!
//! `reference-players GAMES [TABLES] [--duels DIR] [--write FILE | --check FILE] [NAME | NAME:POINTS | NAME:two ...]`
//! (`make reference-players`; `make bench` plays 10,000 and checks).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use dice_tables_tests::reference_players::{
    accuracies, mean_se, play_all, play_all_against_optimal, play_all_for_target, ratings, ratings_against_optimal,
    BuiltInDuel, DuelOptions, ForTarget, Player,
};
use dice_tables_tests::tenk_players::{self, TenkPlayer};

const USAGE: &str =
    "reference-players GAMES [TABLES] [--duels DIR] [--write FILE | --check FILE] [NAME | NAME:POINTS | NAME:two ...]";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("reference-players: {e}");
            ExitCode::from(2)
        }
    }
}

/// How a rule set's games are played for the figures.
#[derive(Clone, Copy)]
enum PlayedAs {
    /// Alone, for the most points.
    Alone,
    /// Alone, for a final score of at least this many points.
    Target(u32),
    /// Against the two-player table's optimal player, each game in a seat
    /// drawn at random: a score of 2 a win, 1 a tie.
    Two,
}

/// One row of the figures: (mean, standard error) each.
struct Row {
    name: String,
    start: f64,
    player: String,
    games: usize,
    figures: [(f64, f64); 4],
}

const FIGURES: [&str; 4] = ["score", "loss", "accuracy", "rating"];

fn run() -> Result<bool, String> {
    let mut args = std::env::args().skip(1);
    let games = args
        .next()
        .and_then(|g| g.parse::<usize>().ok())
        .filter(|&g| g >= 2)
        .ok_or(format!("give the games per player (2 or more): {USAGE}"))?;
    let (mut dir, mut write, mut check, mut names) = (None, None, None, Vec::new());
    let mut duels = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--duels" => duels = Some(args.next().ok_or(format!("--duels takes a directory: {USAGE}"))?),
            "--write" => write = Some(args.next().ok_or(format!("--write takes a file: {USAGE}"))?),
            "--check" => check = Some(args.next().ok_or(format!("--check takes a file: {USAGE}"))?),
            _ if dir.is_none() && names.is_empty() => dir = Some(a),
            _ => names.push(a),
        }
    }
    if names.is_empty() {
        let presets = dice_tables_tests::RULE_TABLES.iter().chain(&dice_tables_tests::BUILT_IN_PRESETS);
        let played = dice_tables_tests::REFERENCE_TARGETS.iter().chain(&dice_tables_tests::REFERENCE_TWO_PLAYERS);
        names = presets.chain(played).map(|s| s.to_string()).collect();
    }
    let dir = dir.unwrap_or_else(|| "tables".into());
    let tables = dice_tables_reader::Tables::open_dir(&dir).map_err(|e| e.to_string())?;
    // The two-player tables, where `make tables` leaves them out.
    let duel_tables =
        dice_tables_reader::Tables::open_dir(duels.as_deref().unwrap_or(&dir)).map_err(|e| e.to_string())?;
    let (mut sound, mut rows) = (true, Vec::new());
    for asked in &names {
        let started = Instant::now();
        // NAME:POINTS plays NAME for a final score of at least POINTS;
        // NAME:two against the two-player table's optimal player.
        let (name, played_as) = match asked.split_once(':') {
            Some((name, "two")) => (name, PlayedAs::Two),
            Some((name, t)) => (
                name,
                PlayedAs::Target(t.parse::<u32>().map_err(|_| format!("{asked}: write NAME:POINTS or NAME:two"))?),
            ),
            None => (asked.as_str(), PlayedAs::Alone),
        };
        let (label, start, players, played) = match (played_as, tenk_duel(&tables, name, games)) {
            // Two-player 10000: against the duel table's optimal player.
            (PlayedAs::Two, Some(played)) => played?,
            (PlayedAs::Alone, _) if is_tenk(name) => tenk_alone(&tables, games)?,
            _ => sheet_players(&tables, &duel_tables, name, played_as, games)?,
        };
        let name = &label;
        let random = players.iter().position(|p| p == "random").expect("the random player");
        // Against someone each player met the optimal player: its share
        // says its Elo gap. Alone, each pair's games meet head to head.
        let fitted = match played_as {
            PlayedAs::Two => ratings_against_optimal(&played, random, 64),
            // Alone, 10000's games are a race: the fewer turns wins.
            PlayedAs::Alone if is_tenk(name) => ratings(&tenk_players::race_scores(&played), random, 64),
            PlayedAs::Alone | PlayedAs::Target(_) => ratings(&played, random, 64),
        };
        let fit = match played_as {
            PlayedAs::Two => "each player's rating its share against the optimal player's".to_string(),
            PlayedAs::Alone | PlayedAs::Target(_) => format!(
                "the Elo fit's largest miss of a pair's share {:.4} ({:.1} se)",
                fitted.worst_gap.0, fitted.worst_gap.1
            ),
        };
        println!(
            "{name}: {games} games of each player, start {start:.4}, {:.1} s; {fit}",
            started.elapsed().as_secs_f64()
        );
        let mut mine = Vec::new();
        for (p, player) in players.iter().enumerate() {
            let figures = [
                mean_se(played[p].iter().map(|g| f64::from(g.score))),
                mean_se(played[p].iter().map(|g| g.loss)),
                mean_se(accuracies(&played[p], start)),
                (fitted.rating[p], fitted.se[p]),
            ];
            let [(score, score_se), (loss, loss_se), (acc, acc_se), (rating, rating_se)] = figures;
            println!(
                "  {player:<18} score {score:8.3} ± {score_se:.3}  loss {loss:8.4} ± {loss_se:.4}  accuracy {acc:6.2} ± {acc_se:.2}  rating {rating:7.1} ± {rating_se:.1}"
            );
            mine.push(Row { name: name.clone(), start, player: player.clone(), games, figures });
        }
        for a in &mine {
            for b in &mine {
                let (gap, apart) = (a.figures[3].0 - b.figures[3].0, 4.0 * a.figures[3].1.hypot(b.figures[3].1));
                // A game's rating is read off the players' mean losses: the
                // higher rated must give less away. (Mean accuracies may
                // cross where both players are near hopeless for a target:
                // the mean of exp(-4 loss / start) rewards a spread of losses.)
                // Two players who give all but everything away (Yacht's
                // softmax T=16 and random against someone) may share a
                // loss within its errors: their losses tell no order.
                let (more, tied) = (a.figures[1].0 - b.figures[1].0, 4.0 * a.figures[1].1.hypot(b.figures[1].1));
                if gap > apart && more >= 0.0 && (more > tied || tied == 0.0) {
                    println!("  out of order: {} rates {gap:.1} above {}, giving no less away", a.player, b.player);
                    sound = false;
                }
            }
        }
        rows.extend(mine);
    }
    if let Some(file) = write {
        // The rule sets not played now keep their rows (Maxi Yatzy's and
        // two-player yazy's, each written apart after its own long run).
        let kept = std::fs::read_to_string(&file).unwrap_or_default();
        std::fs::write(&file, table(&rows, &kept)).map_err(|e| format!("{file}: {e}"))?;
        println!("written to {file}");
    }
    if let Some(file) = check {
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        sound &= reproduced(&rows, &text, &file);
    }
    Ok(sound)
}

/// The preset `name` solved by the rules engine, as its table would read.
fn solved_preset(name: &str) -> Result<dice_tables_reader::rule_sheet::RuleSheet, String> {
    use dice_tables_generator::rule_engine::{solve, table};
    use dice_tables_reader::Game;
    let rules = dice_tables_generator::rule_sets::preset(name).ok_or("no preset has that name")?;
    let solution = solve(&rules).map_err(|e| e.0)?;
    dice_tables_reader::rule_sheet::RuleSheet::from_vec(table(&solution).encode()).map_err(|e| e.to_string())
}

/// The figures as a tab-separated table, a header line first: `rows`,
/// then the rows of `kept` (a table this wrote) of every other rule set.
fn table(rows: &[Row], kept: &str) -> String {
    let mut out = String::from(
        "# Written by `make reference-players` (tests/src/bin/reference_players.rs): the coach's reference players, \
         each figure a mean and its standard error; the rating on the Elo scale, the random player's 0.\n",
    );
    out.push_str("rule_set\tstart\tplayer\tgames");
    for f in FIGURES {
        let _ = write!(out, "\t{f}\t{f}_se");
    }
    out.push('\n');
    for r in rows {
        let _ = write!(out, "{}\t{:.9}\t{}\t{}", r.name, r.start, r.player, r.games);
        for (m, se) in r.figures {
            let _ = write!(out, "\t{m:.6}\t{se:.6}");
        }
        out.push('\n');
    }
    for line in kept.lines().filter(|l| !l.starts_with('#') && !l.starts_with("rule_set\t")) {
        let name = line.split('\t').next().unwrap_or_default();
        if !rows.iter().any(|r| r.name == name) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Whether every row of `rows` is in `text` (a table [`table`] wrote),
/// each figure within 4 standard errors of the written one.
fn reproduced(rows: &[Row], text: &str, file: &str) -> bool {
    let mut all = true;
    for r in rows {
        let found = text
            .lines()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|f| f.len() == 4 + 2 * FIGURES.len() && f[0] == r.name && f[2] == r.player);
        let Some(f) = found else {
            println!("{file}: no row for {} {}", r.name, r.player);
            all = false;
            continue;
        };
        for (i, (name, (m, se))) in FIGURES.iter().zip(r.figures).enumerate() {
            let (their, their_se) =
                (f[4 + 2 * i].parse::<f64>().unwrap_or(f64::NAN), f[5 + 2 * i].parse::<f64>().unwrap_or(f64::NAN));
            let apart = 4.0 * se.hypot(their_se);
            // A figure the file lacks (NaN) is not reproduced either.
            let within = (m - their).abs() <= apart.max(1e-6);
            if !within {
                println!("{}: {} {name} {m:.4} ± {se:.4}, {file} says {their:.4} ± {their_se:.4}", r.name, r.player);
                all = false;
            }
        }
    }
    if all {
        println!("{file}: every figure reproduced within 4 standard errors");
    }
    all
}

/// A rule set's players, their figures' label and start: how
/// `reference-players` plays NAME (alone, for a target, or against the
/// two-player table's optimal player).
type Figures = (String, f64, Vec<String>, Vec<Vec<dice_tables_tests::reference_players::Played>>);

/// The games of a rule set's reference players, played as `played_as` asks.
fn sheet_players(
    tables: &dice_tables_reader::Tables,
    duel_tables: &dice_tables_reader::Tables,
    name: &str,
    played_as: PlayedAs,
    games: usize,
) -> Result<Figures, String> {
    // A built-in game's file is its own table (yatzy, maxi-yatzy): its
    // preset is solved here. Any other rule set's table must be in the
    // directory.
    let sheet = match tables.rule_sheet(name) {
        Ok(sheet) => sheet,
        Err(_) if dice_tables_generator::rule_sets::preset(name).is_some() => {
            std::sync::Arc::new(solved_preset(name).map_err(|e| format!("{name}: {e}"))?)
        }
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let all = sheet.all_open();
    Ok(match played_as {
        PlayedAs::Alone => {
            let start = sheet.turn_start_saved(all, 0, 0, 0).map_err(|e| e.to_string())?;
            let played = play_all(&*sheet, &Player::ALL, games, 63).map_err(|e| e.to_string())?;
            let players: Vec<String> = Player::ALL.iter().map(Player::name).collect();
            (name.to_string(), start, players, played)
        }
        PlayedAs::Two => {
            // A rule set's two-player table, or a built-in game's own
            // (yazy-duel.dtab) over its preset's options.
            let rule_duel = duel_tables.rule_duel(name);
            let built_in;
            let duel: &(dyn DuelOptions + Sync) = match &rule_duel {
                Ok(duel) => &**duel,
                Err(e) => {
                    let source = dice_tables_lookup::review::review_source(duel_tables, name);
                    let open = source.ok().and_then(|s| s.duel).ok_or(format!("{name}: {e}"))?;
                    built_in = BuiltInDuel { sheet: &*sheet, chances: open().map_err(|e| format!("{name}: {e}"))? };
                    &built_in
                }
            };
            let fresh = dice_tables_reader::rules::SheetState { open: all, upper: 0, held: 0 };
            let start = duel.chance(fresh, fresh, 0).map_err(|e| e.to_string())?;
            let who = ForTarget::all();
            let played = play_all_against_optimal(&*sheet, duel, &who, games, 63).map_err(|e| e.to_string())?;
            let label = dice_tables_lookup::review::Measure::Win.figures_of(name);
            (label, start, who.iter().map(ForTarget::name).collect(), played)
        }
        PlayedAs::Target(target) => {
            let chances = tables.rule_target(name).map_err(|e| format!("{name}: {e}"))?;
            let start = chances.chance(all, 0, 0, target.into()).map_err(|e| e.to_string())?;
            let who = ForTarget::all();
            let played = play_all_for_target(&*sheet, &chances, target, &who, games, 63).map_err(|e| e.to_string())?;
            let label = dice_tables_lookup::review::Measure::Reach(target).figures_of(name);
            (label, start, who.iter().map(ForTarget::name).collect(), played)
        }
    })
}
/// Whether `name` is 10000 alone (`tenk`, or `10000`).
fn is_tenk(name: &str) -> bool {
    use dice_tables_reader::Game;
    dice_tables_reader::game_named(name).is_some_and(|g| g.id == dice_tables_reader::tenk::Tenk::ID)
}

/// The games of 10000 alone's reference players, each played until its
/// banked total reaches 10,000 (`tenk_players::play_alone`: the score a
/// game's turns, the loss per turn), from the tenk table in TABLES; the
/// start the expected banked points of a turn, as a review's rating reads it.
fn tenk_alone(tables: &dice_tables_reader::Tables, games: usize) -> Result<Figures, String> {
    use dice_tables_reader::Game;
    let tenk = tables.get::<dice_tables_reader::tenk::Tenk>().map_err(|e| e.to_string())?;
    let start = tenk.turn_value(6, 0).map_err(|e| e.to_string())?;
    let who = TenkPlayer::ALONE;
    let played = tenk_players::play_all_alone(tenk, &who, games, 63).map_err(|e| e.to_string())?;
    let label = dice_tables_lookup::review::Measure::Points.figures_of(dice_tables_reader::tenk::Tenk::ID);
    Ok((label, start, who.iter().map(TenkPlayer::name).collect(), played))
}

/// The games of two-player 10000's reference players (`NAME:two`, NAME a
/// duel table's game: its rules' table in TABLES, beside tenk.dtab, whose
/// table the max-expected-score player reads); `None` for another game.
fn tenk_duel(tables: &dice_tables_reader::Tables, name: &str, games: usize) -> Option<Result<Figures, String>> {
    use dice_tables_reader::duel::{CardgamesDuel, Duel, Scoring, SeedDuel};
    use dice_tables_reader::Game;
    fn play<S: Scoring>(tables: &dice_tables_reader::Tables, games: usize) -> Result<Figures, String> {
        let duel = tables.get::<Duel<S>>().map_err(|e| e.to_string())?;
        let tenk = tables.get::<dice_tables_reader::tenk::Tenk>().map_err(|e| e.to_string())?;
        let start = duel.win_chance(0, 0).map_err(|e| e.to_string())?;
        let who = TenkPlayer::ALL;
        let played = tenk_players::play_all_against_optimal(duel, tenk, &who, games, 63).map_err(|e| e.to_string())?;
        let label = dice_tables_lookup::review::Measure::Win.figures_of(S::ID);
        Ok((label, start, who.iter().map(TenkPlayer::name).collect(), played))
    }
    let id = dice_tables_reader::game_named(name)?.id;
    if id == SeedDuel::ID {
        Some(play::<dice_tables_reader::duel::Seed>(tables, games))
    } else if id == CardgamesDuel::ID {
        Some(play::<dice_tables_reader::duel::Cardgames>(tables, games))
    } else {
        None
    }
}

//! `reader review NAME GAME.txt`: a game of a rule set, or of 10000,
//! reviewed from its text (what the page writes after a game): what the
//! dice brought, what the decisions gave away, and the largest mistakes.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use dice_tables_lookup::review::tenk::{then_word, TenkChoice, TenkReview};
use dice_tables_lookup::review::threes::{model_word, ties_word, ThreesKeep, ThreesReview};
use dice_tables_lookup::review::{game_named, parse_target, reviewed, Decision, Measure, Review, Reviewed, SheetTotal};
use dice_tables_reader::rule_sheet::{Board, RuleChoice};

use crate::output::Failure;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The rule set (`crag`, `generala`, ... or your own's name): its table
    /// NAME.dtab; or yatzy, yahtzee, yazy or maxi-yatzy, read from its own
    /// table beside NAME-parts.dtab; or 10000: `duel` (or `duel-cardgames`)
    /// against someone, `10000` alone. Left out, the text's header names it
    /// (a first line `game: NAME`).
    #[arg(value_name = "NAME")]
    rule_set: String,
    /// The game's text: one decision a line, `DICE keep KEPT` or `DICE score BOX` (`-`: standard input;
    /// 10000: one throw a line, `DICE keep KEPT bank`, `DICE keep KEPT throw` or `DICE bust`);
    /// against someone, each line may begin with its player's number (`2: DICE keep KEPT`) or the
    /// header say `players: 2`: reviewed in each player's chance of winning, from NAME-duel.dtab
    /// (yazy's: yazy-duel.dtab, `make yazy-duel`).
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print one JSON object: the start's value, the score, the luck and
    /// the losses summed, every decision, the largest mistakes' lines.
    #[arg(long)]
    json: bool,
    /// The game was played for a final score of at least POINTS: review it
    /// in the chance of reaching them, from the rule set's target table
    /// NAME-target.dtab (yatzy's, yahtzee's, yazy's: yatzy-target.dtab, ...; the text's header may
    /// say so instead: `target: POINTS`).
    #[arg(long, value_name = "POINTS", value_parser = parse_target)]
    target: Option<u32>,
    /// Directory holding the tables (default: `$DICE_TABLES`, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// The review as asked: the text to print.
pub fn run(a: &ReviewArgs) -> Result<String, Failure> {
    // One argument alone is the file, whose header names the rule set.
    let (name, file) = match &a.file {
        Some(file) => (Some(a.rule_set.as_str()), std::path::Path::new(file)),
        None => (None, std::path::Path::new(&a.rule_set)),
    };
    let text = read_game(file)?;
    let Some(name) = name.or(game_named(&text)).map(str::to_string) else {
        let how = "write reader review NAME FILE, or begin the text with a line game: NAME";
        return Err(Failure::Usage(format!("{}: the text names no rule set: {how}", file.display())));
    };
    let tables = crate::directory::tables(a.tables.clone())?;
    let review = reviewed(&tables, &name, a.target, &text)?;
    if a.json {
        return Ok(format!("{}\n", review.to_json()));
    }
    Ok(match &review {
        Reviewed::Sheet(sheet, review) => words(sheet, review),
        Reviewed::Tenk(review) => tenk_words(review),
        Reviewed::Threes(review) => threes_words(review),
    })
}

/// The game's text, from a file or standard input.
fn read_game(file: &std::path::Path) -> Result<String, Failure> {
    let read =
        if file.as_os_str() == "-" { std::io::read_to_string(std::io::stdin()) } else { std::fs::read_to_string(file) };
    read.map_err(|e| {
        Failure::Usage(format!(
            "{}: cannot read the game ({e}): give a text file of one decision a line, or - for standard input",
            file.display()
        ))
    })
}

fn choice_words(sheet: &Board, c: &RuleChoice) -> String {
    match c {
        RuleChoice::Keep(k) if k.is_empty() => "reroll all".into(),
        RuleChoice::Keep(k) => format!("keep {k}"),
        RuleChoice::Score(m) => format!("score {} for {}", sheet.rules().boxes[m.box_index].name, m.scored()),
    }
}

fn words(sheet: &Board, r: &Review) -> String {
    let mut out = String::new();
    let two = r.players() == 2;
    let players = if two { ", two players" } else { "" };
    let _ = writeln!(out, "{}{players}: {} decisions", r.rule_set, r.decisions.len());
    // Values in points, or in chance of reaching a target or of winning.
    let chance = r.measure != Measure::Points;
    let value = |x: f64| if chance { format!("{:.2} %", 100.0 * x) } else { format!("{x:.2}") };
    // What the dice brought, and what was given away (a table's tie
    // allowance may leave a loss a rounding below 0).
    let signed = |x: f64| if chance { format!("{:+.2} % chance", 100.0 * x) } else { format!("{x:+.2} points") };
    let amount = |x: f64| if chance { format!("{:.2} % chance", 100.0 * x.max(0.0)) } else { format!("{x:.2}") };
    let expected = match r.measure {
        Measure::Points => "expected".to_string(),
        Measure::Reach(target) => format!("chance of {target} or more"),
        Measure::Win => "player 1's chance of winning".to_string(),
    };
    let bonus = |s: &SheetTotal| match sheet.rules().upper_bonus {
        Some(_) => format!(" (upper bonus {})", s.bonus),
        None => String::new(),
    };
    let player = |p: usize| format!("player {}", p + 1);
    match (r.final_score(), two) {
        (Some(score), false) => {
            let outcome = match (r.measure, r.reached()) {
                (Measure::Reach(target), Some(true)) => format!(": {target} reached"),
                (Measure::Reach(target), _) => format!(": short of {target}"),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "score {score}{}{outcome}, {expected} at the start {}",
                bonus(&r.sheets[0]),
                value(r.start)
            );
        }
        (Some(_), true) => {
            let scores: Vec<String> =
                r.sheets.iter().enumerate().map(|(p, s)| format!("{} {}{}", player(p), s.total(), bonus(s))).collect();
            let outcome = match (r.won_at_once, r.outcome()) {
                (Some((p, b)), _) => {
                    format!("{} wins at once with a {} served", player(p), sheet.rules().boxes[b].name)
                }
                (None, Some(0.5)) => "a tie".to_string(),
                (None, Some(x)) => format!("{} wins", player(usize::from(x == 0.0))),
                (None, None) => String::new(),
            };
            let _ = writeln!(
                out,
                "game over: {}: {outcome}; {expected} at the start {}",
                scores.join(", "),
                value(r.start)
            );
        }
        (None, _) => {
            let sheets: Vec<String> = r
                .sheets
                .iter()
                .enumerate()
                .map(|(p, s)| {
                    let who = if two { format!("{} ", player(p)) } else { String::new() };
                    format!("{who}{} points so far, {} boxes open", s.scored, s.open)
                })
                .collect();
            let _ = writeln!(
                out,
                "under way: {}; {expected} now {}, at the start {}",
                sheets.join("; "),
                value(r.now),
                value(r.start)
            );
        }
    }
    // A game under way is rated on what it has given away so far.
    let so_far = if r.over() { "" } else { " so far" };
    for p in 0..r.players() {
        let who = if two { format!("{}: ", player(p)) } else { String::new() };
        let brought = if two { "their dice brought" } else { "the dice brought" };
        let _ =
            writeln!(out, "{who}{brought} {}; the decisions gave away {}", signed(r.luck_of(p)), amount(r.loss_of(p)));
        let accuracy = format!("{who}accuracy{so_far} {:.1} (best play 100)", r.accuracy_of(p));
        let whose = match r.measure {
            Measure::Points => "these rules have".to_string(),
            Measure::Reach(target) => format!("play for {target} has"),
            Measure::Win => "play against someone has".to_string(),
        };
        accuracy_line(&mut out, &accuracy, r.rating_of(p), &whose);
    }
    let mistakes = r.largest_mistakes(5);
    if mistakes.is_empty() {
        let _ = writeln!(out, "every decision was the best");
    } else {
        let _ = writeln!(out, "the largest mistakes:");
        for d in mistakes {
            let who = if two { format!(", {}", player(d.player)) } else { String::new() };
            let line = mistake_line(sheet, d, &who, &amount);
            let _ = writeln!(out, "  {line} (accuracy {:.1})", r.decision_accuracy(d));
            let Some(why) = &d.reason else { continue };
            let _ = match r.measure {
                Measure::Points => {
                    writeln!(out, "    why, in each box's expected points (the best less yours): {}", why.text)
                }
                Measure::Reach(_) | Measure::Win => {
                    let total: f64 = why.parts.iter().map(|(_, x)| x).sum();
                    let goal = if r.measure == Measure::Win { "to win" } else { "for the target" };
                    writeln!(
                        out,
                        "    beside the chance, in each box's expected points (the best {goal} less yours, \
                         {total:+.2} in all): {}",
                        why.text
                    )
                }
            };
        }
    }
    out
}

fn mistake_line(sheet: &Board, d: &Decision, who: &str, amount: &dyn Fn(f64) -> String) -> String {
    format!(
        "line {}{who}: {} with {} reroll{} left: {} gave away {} (best: {})",
        d.line,
        d.dice,
        d.rerolls,
        if d.rerolls == 1 { "" } else { "s" },
        choice_words(sheet, &d.chosen.0),
        amount(d.loss()),
        choice_words(sheet, &d.best.0)
    )
}

fn tenk_choice_words(c: &TenkChoice) -> String {
    format!("keep {} ({} points) and {}", c.keep, c.points, then_word(c.then))
}

/// A game of 10000 reviewed, in words: alone in expected banked points a
/// turn, against someone in each player's chance of winning.
fn tenk_words(r: &TenkReview) -> String {
    let mut out = String::new();
    let two = r.players() == 2;
    let player = |p: usize| format!("player {}", p + 1);
    let value = |x: f64| if two { format!("{:.2} %", 100.0 * x) } else { format!("{x:.2}") };
    let signed = |x: f64| if two { format!("{:+.2} % chance", 100.0 * x) } else { format!("{x:+.2} points") };
    let amount = |x: f64| if two { format!("{:.2} % chance", 100.0 * x.max(0.0)) } else { format!("{x:.2}") };
    match r.goal {
        Some((goal, entry)) => {
            let entry = if entry > 0 { format!("entry {entry}") } else { "no entry".to_string() };
            let _ =
                writeln!(out, "10000, two players ({}: {entry}, goal {goal}): {} throws", r.game, r.decisions.len());
        }
        None => {
            let _ = writeln!(out, "10000 alone ({}): {} throws in {} turns", r.game, r.decisions.len(), r.turns[0]);
        }
    }
    match (two, r.winner) {
        (true, Some(w)) => {
            let totals: Vec<String> = r.totals.iter().enumerate().map(|(p, t)| format!("{} {t}", player(p))).collect();
            let _ = writeln!(
                out,
                "game over: {}: {} wins; player 1's chance of winning at the start {}",
                totals.join(", "),
                player(w),
                value(r.turn_start)
            );
        }
        (true, None) => {
            let totals: Vec<String> = r.totals.iter().enumerate().map(|(p, t)| format!("{} {t}", player(p))).collect();
            let _ = writeln!(
                out,
                "under way: {} banked; player 1's chance of winning now {}, at the start {}",
                totals.join(", "),
                value(r.now),
                value(r.turn_start)
            );
        }
        (false, _) => {
            let turns = r.turns[0];
            let where_ =
                if r.between_turns { String::new() } else { format!(", {} with the turn under way", value(r.now)) };
            let _ = writeln!(
                out,
                "banked {}{where_}; expected {} at the start ({turns} turns of {} expected banked points each)",
                r.totals[0],
                value(r.start_of(0)),
                value(r.turn_start)
            );
        }
    }
    let so_far = if r.over() { "" } else { " so far" };
    for p in 0..r.players() {
        let who = if two { format!("{}: ", player(p)) } else { String::new() };
        let brought = if two { "their dice brought" } else { "the dice brought" };
        let _ = writeln!(out, "{who}{brought} {}; the keeps gave away {}", signed(r.luck_of(p)), amount(r.loss_of(p)));
        let accuracy = format!("{who}accuracy{so_far} {:.1} (best play 100)", r.accuracy_of(p));
        let whose = if two { "this two-player table has" } else { "10000 alone has" };
        accuracy_line(&mut out, &accuracy, r.rating_of(p), whose);
    }
    let mistakes = r.largest_mistakes(5);
    if !mistakes_heading(&mut out, mistakes.is_empty()) {
        return out;
    }
    for d in mistakes {
        let (Some((chosen, _)), Some((best, _))) = (d.chosen, d.best) else { continue };
        let who = if two { format!(", {}", player(d.player)) } else { String::new() };
        let _ = writeln!(
            out,
            "  line {}{who}: threw {} at turn score {}: {} gave away {} (best: {}) (accuracy {:.1})",
            d.line,
            d.dice,
            d.score,
            tenk_choice_words(&chosen),
            amount(d.loss()),
            tenk_choice_words(&best),
            r.decision_accuracy(d)
        );
        if let Some(why) = &d.reason {
            let _ = writeln!(out, "    why: {}", why.text);
        }
    }
    out
}

fn threes_keep_words(k: &ThreesKeep) -> String {
    format!("keep {} ({} points, {} dice left)", k.kept, k.points, k.dice_left)
}

/// A turn of threes reviewed, in words, in the chance of success.
fn threes_words(r: &ThreesReview) -> String {
    let mut out = String::new();
    let s = r.situation;
    let record = s.record.map_or("no record".to_string(), |r| format!("record {r}"));
    let _ = writeln!(
        out,
        "threes ({record}, {} after, ties {}, {} later players): {} rolls",
        s.after,
        ties_word(s.ties),
        model_word(s.model),
        r.decisions.len()
    );
    let chance = |x: f64| format!("{:.2} %", 100.0 * x);
    let where_ = match r.over() {
        true => format!("all five kept: total {}; the chance it succeeds {}", r.points, chance(r.now)),
        false => format!(
            "under way: {} points kept, {} dice left; the chance of success now {}",
            r.points,
            r.dice_left,
            chance(r.now)
        ),
    };
    let _ = writeln!(out, "{where_}, at the start {}", chance(r.start));
    let _ = writeln!(
        out,
        "the dice brought {:+.2} % chance; the keeps gave away {:.2} % chance",
        100.0 * r.luck(),
        100.0 * r.loss().max(0.0)
    );
    let so_far = if r.over() { "" } else { " so far" };
    let accuracy = format!("accuracy{so_far} {:.1} (best play 100)", r.accuracy());
    accuracy_line(&mut out, &accuracy, r.rating(), "threes has");
    let mistakes = r.largest_mistakes(5);
    if !mistakes_heading(&mut out, mistakes.is_empty()) {
        return out;
    }
    for d in mistakes {
        let _ = writeln!(
            out,
            "  line {}: rolled {} with {} points kept: {} gave away {:.2} % chance (best: {}) (accuracy {:.1})",
            d.line,
            d.dice,
            d.points,
            threes_keep_words(&d.chosen.0),
            100.0 * d.loss(),
            threes_keep_words(&d.best.0),
            r.decision_accuracy(d)
        );
    }
    out
}

/// The accuracy line (`accuracy`), then the rating, or that there is none
/// (`whose` has no reference players' figures: `these rules have`).
fn accuracy_line(out: &mut String, accuracy: &str, rating: Option<f64>, whose: &str) {
    let _ = match rating {
        Some(rating) => writeln!(out, "{accuracy}, rating {rating:.0} (Elo scale, random play 0)"),
        None => writeln!(out, "{accuracy}; no rating: {whose} no reference players' figures"),
    };
}

/// The heading of a 10000 or threes review's mistakes, or that every keep
/// was the best (`none`); whether any follow.
fn mistakes_heading(out: &mut String, none: bool) -> bool {
    let _ = writeln!(out, "{}", if none { "every keep was the best" } else { "the largest mistakes:" });
    !none
}

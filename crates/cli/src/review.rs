//! `reader review NAME GAME.txt`: a game of a rule set reviewed from its
//! text (what the page writes after a game): what the dice brought, what
//! the decisions gave away, and the largest mistakes.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use dice_tables_lookup::review::{game_named, parse_target, review_as, Decision, Measure, Review};
use dice_tables_reader::rule_sheet::{Board, RuleChoice};

use crate::output::Failure;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The rule set (`crag`, `generala`, ... or your own's name): its table
    /// NAME.dtab. Left out, the text's header names it (a first line `game: NAME`).
    #[arg(value_name = "NAME")]
    rule_set: String,
    /// The game's text: one decision a line, `DICE keep KEPT` or `DICE score BOX` (`-`: standard input).
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print one JSON object: the start's value, the score, the luck and
    /// the losses summed, every decision, the largest mistakes' lines.
    #[arg(long)]
    json: bool,
    /// The game was played for a final score of at least POINTS: review it
    /// in the chance of reaching them, from the rule set's target table
    /// NAME-target.dtab (the text's header may say so instead: `target: POINTS`).
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
    let (sheet, review) = review_as(&tables, &name, a.target, &text)?;
    if a.json {
        return Ok(format!("{}\n", review.to_json(&sheet)));
    }
    Ok(words(&sheet, &review))
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
    let _ = writeln!(out, "{}: {} decisions", r.rule_set, r.decisions.len());
    // Values in points, or in chance of reaching a target.
    let (value, reach): (&dyn Fn(f64) -> String, _) = match r.measure {
        Measure::Points => (&|x| format!("{x:.2}"), None),
        Measure::Reach(target) => (&|x| format!("{:.2} %", 100.0 * x), Some(target)),
    };
    // What the dice brought, and what was given away (a target's tie
    // allowance may leave a loss a rounding below 0).
    let signed = |x: f64| match reach {
        None => format!("{x:+.2} points"),
        Some(_) => format!("{:+.2} % chance", 100.0 * x),
    };
    let amount = |x: f64| match reach {
        None => format!("{x:.2}"),
        Some(_) => format!("{:.2} % chance", 100.0 * x.max(0.0)),
    };
    let expected = match reach {
        None => "expected".to_string(),
        Some(target) => format!("chance of {target} or more"),
    };
    match r.final_score() {
        Some(score) => {
            // The upper bonus beside the score where the rules have one.
            let bonus = match sheet.rules().upper_bonus {
                Some(_) => format!(" (upper bonus {})", r.bonus),
                None => String::new(),
            };
            let outcome = match (reach, r.reached()) {
                (Some(target), Some(true)) => format!(": {target} reached"),
                (Some(target), _) => format!(": short of {target}"),
                (None, _) => String::new(),
            };
            let _ = writeln!(out, "score {score}{bonus}{outcome}, {expected} at the start {}", value(r.start));
        }
        None => {
            let _ = writeln!(
                out,
                "under way: {} points so far, {} boxes open; {expected} now {}, at the start {}",
                r.scored,
                r.open,
                value(r.now),
                value(r.start)
            );
        }
    }
    let _ = writeln!(out, "the dice brought {}; the decisions gave away {}", signed(r.luck()), amount(r.loss()));
    // A game under way is rated on what it has given away so far.
    let so_far = if r.open > 0 { " so far" } else { "" };
    match r.rating() {
        Some(rating) => {
            let _ = writeln!(
                out,
                "accuracy{so_far} {:.1} (best play 100), rating {rating:.0} (Elo scale, random play 0)",
                r.accuracy()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "accuracy{so_far} {:.1} (best play 100); no rating: {} no reference players' figures",
                r.accuracy(),
                match reach {
                    None => "these rules have".to_string(),
                    Some(target) => format!("play for {target} has"),
                }
            );
        }
    }
    let mistakes = r.largest_mistakes(5);
    if mistakes.is_empty() {
        let _ = writeln!(out, "every decision was the best");
    } else {
        let _ = writeln!(out, "the largest mistakes:");
        for d in mistakes {
            let _ = writeln!(out, "  {} (accuracy {:.1})", mistake_line(sheet, d, &amount), r.decision_accuracy(d));
            match (&d.reason, reach) {
                (Some(why), None) => {
                    let _ = writeln!(out, "    why, in each box's expected points (the best less yours): {}", why.text);
                }
                (Some(why), Some(_)) => {
                    let total: f64 = why.parts.iter().map(|(_, x)| x).sum();
                    let _ = writeln!(
                        out,
                        "    beside the chance, in each box's expected points (the best for the target less yours, \
                         {total:+.2} in all): {}",
                        why.text
                    );
                }
                (None, _) => {}
            }
        }
    }
    out
}

fn mistake_line(sheet: &Board, d: &Decision, amount: &dyn Fn(f64) -> String) -> String {
    format!(
        "line {}: {} with {} reroll{} left: {} gave away {} (best: {})",
        d.line,
        d.dice,
        d.rerolls,
        if d.rerolls == 1 { "" } else { "s" },
        choice_words(sheet, &d.chosen.0),
        amount(d.loss()),
        choice_words(sheet, &d.best.0)
    )
}

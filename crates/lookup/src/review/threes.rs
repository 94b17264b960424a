//! A turn of threes reviewed from its text: each roll replayed against the
//! threes table, in the chance of success (a total below the record, or at
//! it where ties win, that the players after do not beat), with what each
//! roll brought and what each keep gave away.
//!
//! The header says where the player stands, each line optional: `record:
//! R` (the lowest total before, 0 to 30; none for the first player),
//! `after: K` (players still to play, 0 to 15; default 0), `ties: win` or
//! `lose` (default win), `model: sequential` or `independent` (how the
//! later players play; default sequential). Then one roll a line: the dice
//! rolled and the dice kept (`31324 keep 33`: at least one), five dice
//! first, then the dice left, until all five are kept.
//!
//! Before a roll the value is the chance of success with those dice to
//! throw; once the dice show, the best keep's (the best count of the
//! lowest-worth dice); after a keep, the chance with what was kept (any
//! dice kept, not only the lowest). A roll's luck is its value less the
//! value before it, a keep's loss the best keep's value less the one
//! taken's; once all five are kept, the chance that the total succeeds
//! less the start's chance is the luck less the losses, to rounding. The
//! players after have not played: a turn's outcome is that chance.

use dice_tables_reader::threes::{worth, Model, Situation, Threes, Ties, DICE, MAX_TOTAL};
use dice_tables_reader::{Dice, Game};

use super::{accuracy, header, largest, rating, Measure};
use crate::error::LookupError;
use crate::json::Json;

/// The dice kept after a roll, as the review counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreesKeep {
    /// The dice kept.
    pub kept: Dice,
    /// The points kept after it (the turn's so far).
    pub points: u8,
    /// The dice left to throw.
    pub dice_left: u8,
}

/// One roll of a reviewed turn.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreesDecision {
    /// Its line in the text (from 1).
    pub line: usize,
    /// The dice rolled, sorted.
    pub dice: Dice,
    /// The points kept before the roll.
    pub points: u8,
    /// The chance of success before the roll.
    pub before: f64,
    /// The best keep and its chance.
    pub best: (ThreesKeep, f64),
    /// The keep taken and its chance.
    pub chosen: (ThreesKeep, f64),
}

impl ThreesDecision {
    /// What the roll brought: the best keep's chance less the chance before.
    pub fn luck(&self) -> f64 {
        self.best.1 - self.before
    }

    /// What the keep gave away: the best keep's chance less the one taken's.
    pub fn loss(&self) -> f64 {
        self.best.1 - self.chosen.1
    }
}

/// A turn of threes, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreesReview {
    /// Where the player stands (the points at the turn's start: 0).
    pub situation: Situation,
    /// The chance of success at the turn's start.
    pub start: f64,
    /// Every roll, in order.
    pub decisions: Vec<ThreesDecision>,
    /// The points kept where the text stops.
    pub points: u8,
    /// The dice still to throw where the text stops (0: the turn is over).
    pub dice_left: u8,
    /// The chance of success where the text stops: once all five are
    /// kept, the chance that the total succeeds.
    pub now: f64,
}

impl ThreesReview {
    /// What the dice brought, summed.
    pub fn luck(&self) -> f64 {
        self.decisions.iter().fold(0.0, |sum, d| sum + d.luck())
    }

    /// What the keeps gave away, summed.
    pub fn loss(&self) -> f64 {
        self.decisions.iter().fold(0.0, |sum, d| sum + d.loss())
    }

    /// The turn's accuracy, 0 to 100 ([`accuracy`]), against its start.
    pub fn accuracy(&self) -> f64 {
        accuracy(self.loss(), self.start)
    }

    /// A keep's accuracy: the turn's figure had it given away what `d` did.
    pub fn decision_accuracy(&self, d: &ThreesDecision) -> f64 {
        accuracy(d.loss(), self.start)
    }

    /// The turn's rating; `None`: threes has no reference players' figures.
    pub fn rating(&self) -> Option<f64> {
        rating(Threes::ID, self.start, self.loss())
    }

    /// Whether all five dice are kept.
    pub fn over(&self) -> bool {
        self.dice_left == 0
    }

    /// The `count` largest losses, largest first (ties in turn order).
    pub fn largest_mistakes(&self, count: usize) -> Vec<&ThreesDecision> {
        largest(&self.decisions, Measure::Win.tie(), ThreesDecision::loss, count)
    }

    /// The review as JSON: where the player stands, the start's chance, the
    /// total (or the points and dice left where the text stops) and the
    /// chance now, the luck, losses, accuracy and rating, every roll and the
    /// largest mistakes' lines.
    pub fn to_json(&self) -> Json {
        let s = self.situation;
        let keep = |k: &ThreesKeep| {
            Json::object(vec![
                ("keep", Json::Str(k.kept.to_string())),
                ("points", Json::Int(k.points.into())),
                ("dice_left", Json::Int(k.dice_left.into())),
            ])
        };
        let decisions = self.decisions.iter().map(|d| {
            Json::object(vec![
                ("line", Json::Int(d.line as i64)),
                ("dice", Json::Str(d.dice.to_string())),
                ("points", Json::Int(d.points.into())),
                ("before", Json::Num(d.before)),
                ("value", Json::Num(d.best.1)),
                ("chosen", keep(&d.chosen.0)),
                ("best", keep(&d.best.0)),
                ("chosen_value", Json::Num(d.chosen.1)),
                ("luck", Json::Num(d.luck())),
                ("loss", Json::Num(d.loss())),
                ("accuracy", Json::Num(self.decision_accuracy(d))),
            ])
        });
        let mistakes = self.largest_mistakes(5).iter().map(|d| Json::Int(d.line as i64)).collect();
        let mut fields = vec![
            ("game", Json::Str(Threes::ID.into())),
            ("record", s.record.map_or(Json::Null, |r| Json::Int(r.into()))),
            ("after", Json::Int(s.after.into())),
            ("ties", Json::Str(ties_word(s.ties).into())),
            ("model", Json::Str(model_word(s.model).into())),
            ("start", Json::Num(self.start)),
        ];
        match self.over() {
            true => fields.push(("total", Json::Int(self.points.into()))),
            false => fields
                .extend([("points", Json::Int(self.points.into())), ("dice_left", Json::Int(self.dice_left.into()))]),
        }
        fields.extend(super::figures_json(self.luck(), self.loss(), self.accuracy(), self.rating()));
        fields.push(("now", Json::Num(self.now)));
        fields.extend([("decisions", Json::List(decisions.collect())), ("largest_mistakes", Json::List(mistakes))]);
        Json::object(fields)
    }
}

/// `win` or `lose`, as the header and the lookups write it.
pub fn ties_word(ties: Ties) -> &'static str {
    match ties {
        Ties::Win => "win",
        Ties::Lose => "lose",
    }
}

/// `sequential` or `independent`, as the header and the lookups write it.
pub fn model_word(model: Model) -> &'static str {
    match model {
        Model::Sequential => "sequential",
        Model::Independent => "independent",
    }
}

/// Where the player stands, from the header of `text` (see the module's
/// page); a line other than those, or a value out of range, is refused
/// naming it.
fn situation(text: &str, target: Option<u32>) -> Result<Situation, LookupError> {
    let mut s = Situation::default();
    let no_target = |target: &dyn std::fmt::Display| {
        format!(
            "threes is reviewed in the chance of success against a record, not played for {target}: write \
             record: R in the header"
        )
    };
    if let Some(target) = target {
        return Err(LookupError::GameText { line: 0, given: String::new(), why: no_target(&target) });
    }
    for h in header(text) {
        let bad = |why: String| LookupError::GameText { line: h.line, given: h.text.to_string(), why };
        let number = |max: u8| h.value.parse::<u8>().ok().filter(|v| *v <= max);
        match h.key.to_ascii_lowercase().as_str() {
            "game" => {}
            "target" => return Err(bad(no_target(&h.value))),
            "record" => {
                let max = MAX_TOTAL as u8;
                s.record =
                    Some(number(max).ok_or_else(|| bad(format!("record {:?}: a total from 0 to {max}", h.value)))?);
            }
            "after" => {
                s.after = number(15).ok_or_else(|| bad(format!("after {:?}: players after, 0 to 15", h.value)))?;
            }
            "ties" => s.ties = h.value.parse().map_err(|e: dice_tables_reader::ArgumentError| bad(e.to_string()))?,
            "model" => s.model = h.value.parse().map_err(|e: dice_tables_reader::ArgumentError| bad(e.to_string()))?,
            _ => {
                return Err(bad(format!(
                    "{} is not a header line of threes: it may say game: threes, record: R, after: K, ties: win \
                     or lose, model: sequential or independent",
                    h.key
                )))
            }
        }
    }
    Ok(s)
}

/// The threes turn `text` replayed against `threes` and reviewed (see the
/// module's page). A line that does not follow the rules (dice other than
/// those to throw, nothing kept, dice kept that were not rolled, a line
/// after all five are kept) is refused, naming it; so is a target.
pub fn review_threes(threes: &Threes, target: Option<u32>, text: &str) -> Result<ThreesReview, LookupError> {
    let situation = situation(text, target)?;
    let at = |points: u8| Situation { points, ..situation };
    let start = threes.chance(at(0), DICE as u8)?;
    let (mut before, mut points, mut left) = (start, 0u8, DICE as u8);
    let mut decisions = Vec::new();
    let example = "31324 keep 33";
    let header_lines: Vec<usize> = header(text).iter().map(|h| h.line).collect();
    for (i, raw) in text.lines().enumerate().filter(|(i, l)| !l.trim().is_empty() && !header_lines.contains(&(i + 1))) {
        let line = raw.trim();
        let bad = |why: String| LookupError::GameText { line: i + 1, given: line.to_string(), why };
        if left == 0 {
            return Err(bad(format!("the turn is over: all five dice are kept, for {points}")));
        }
        let (dice_text, kept_text) = match line.split_whitespace().collect::<Vec<_>>()[..] {
            [d, "keep", k] => (d, k),
            _ => return Err(bad(format!("write the dice rolled, then keep DICE (at least one), like {example}"))),
        };
        let dice = parse_dice(dice_text).map_err(&bad)?;
        if dice.len() != usize::from(left) {
            let why = if left == 5 { "five open the turn".to_string() } else { format!("{left} are left") };
            return Err(bad(format!("{dice_text} is {} dice: {left} are rolled ({why})", dice.len())));
        }
        let kept = parse_dice(kept_text).map_err(|why| bad(format!("keep {kept_text}: {why}")))?;
        let (have, want) = (dice.counts(), kept.counts());
        if !have.iter().zip(&want).all(|(h, w)| h >= w) {
            return Err(bad(format!("keep {kept}: {dice} does not hold them")));
        }
        let options = threes.options(at(points), dice)?;
        let best = options.iter().fold(None::<(ThreesKeep, f64)>, |best, o| {
            let k = ThreesKeep { kept: o.keep.dice, points: o.keep.points, dice_left: o.keep.dice_left };
            match best {
                Some((_, v)) if v >= o.chance => best,
                _ => Some((k, o.chance)),
            }
        });
        let best = best.expect("a roll has a keep");
        let kept_points = points + kept.faces().map(worth).sum::<u8>();
        let dice_left = left - kept.len() as u8;
        let chosen = ThreesKeep { kept, points: kept_points, dice_left };
        let value = threes.chance(at(kept_points), dice_left)?;
        decisions.push(ThreesDecision { line: i + 1, dice, points, before, best, chosen: (chosen, value) });
        (before, points, left) = (value, kept_points, dice_left);
    }
    if decisions.is_empty() {
        let why = format!("no roll: write one a line, DICE keep DICE, like {example}");
        return Err(LookupError::GameText { line: 0, given: String::new(), why });
    }
    Ok(ThreesReview { situation, start, decisions, points, dice_left: left, now: before })
}

/// `text` as 1 to 5 dice (any order), or why not.
fn parse_dice(text: &str) -> Result<Dice, String> {
    if text.is_empty() || text.len() > DICE || !text.bytes().all(|b| (b'1'..=b'6').contains(&b)) {
        return Err(format!("{text:?} is not 1 to 5 dice, each 1 to 6"));
    }
    text.parse::<Dice>().map_err(|e| e.to_string())
}

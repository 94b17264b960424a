//! A game of a rule set reviewed from its text, the lines the page writes
//! after a game (`33356 keep 333`, `33356 score chance`): each decision
//! replayed against the rule set's table, with what it gave away and what
//! the dice brought, in expected final points; or, for a game played for a
//! final score of at least a target (`--target POINTS`, or a header line
//! `target: POINTS`), in the best chance of reaching it, from the rule
//! set's target table, each mistake's reason in expected points beside the
//! chance ([`review_for_target`]); or, for a game against someone (a header
//! line `players: 2`, or lines that begin with their player's number,
//! `2: 33356 keep 333`), in each player's chance of winning against a
//! perfect opponent, from the rule set's two-player table ([`review_duel`]).
//!
//! The value of a moment is the points on the sheet so far (the upper
//! bonus left for the end) plus the table's expected points still to come
//! (the upper bonus among them until the end). Before a roll it is the
//! turn start's value, or after a keep that keep's; once the dice show,
//! the best option's. A roll's luck is its value less the value before it;
//! a decision's loss the best option's value less the one taken. The
//! values chain, so for a finished game the final score less the start's
//! value is the luck summed less the losses summed, to rounding. Against
//! someone each decision and roll is valued in its mover's chance of
//! winning: player 1's outcome (1 won, 0.5 tied, 0 lost) less player 1's
//! chance at the start is player 1's luck less player 2's, less player 1's
//! losses plus player 2's.
//!
//! A game's accuracy is `100 · exp(−4 · L / S)`: `L` what its decisions
//! gave away, `S` the start's value (the expected final score under
//! optimal play; played for a target, the chance of reaching it, so that
//! the same share of the start given away rates the same). Best play rates 100; a game that gives away a quarter of
//! what the start expects rates 100/e, about 36.8. A decision's accuracy
//! is the same figure for one of the game's `T` turns: `100 · exp(−4 · T ·
//! l / S)`, `l` what it gave away, so that a game's accuracy is the
//! geometric mean of its turns' (each turn's decisions' losses summed).
//!
//! A game's rating is on the Elo scale, fitted from the head-to-head
//! results of reference players (the table's optimal player, players
//! picking each option with a probability rising with its value, one
//! counting only the turn's points, one keeping the most alike dice, one
//! picking at random, whose rating is 0) over 10,000 games each:
//! `reference_players.tsv`, which `make reference-players` writes and
//! `make bench` reproduces. A game's rating is the players' ratings
//! interpolated at what it gave away, between the players' mean losses
//! (linear in the loss, so in the logarithm of the accuracy), held between
//! the random player's and the optimal player's. A rule set with no
//! reference figures (your own) has accuracy and no rating.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use dice_tables_lookup::review::review_rule_set;
//! use dice_tables_reader::Tables;
//! let tables = Tables::open_default()?;
//! let crag = tables.rule_sheet("crag")?;
//! // Crag: three dice, one reroll.
//! let review = review_rule_set(&crag, "466 keep 66\n566 score sixes\n")?;
//! assert_eq!(review.decisions.len(), 2);
//! assert_eq!(review.sheets[0].scored, 12);
//! # Ok(()) }
//! ```

use dice_tables_reader::rule_sheet::{Board, RuleChoice, RuleDuel, RuleSheet, RuleTarget, TurnStarts};
use dice_tables_reader::rules::SheetState;
use dice_tables_reader::Dice;

use crate::error::LookupError;
use crate::json::Json;

pub mod tenk;
pub mod threes;

/// The accuracy (0 to 100) of a game whose decisions gave away `loss`
/// where the start was worth `start`: `100 · exp(−4 · loss / start)`
/// (see the module's page).
///
/// ```
/// use dice_tables_lookup::review::accuracy;
/// assert_eq!(accuracy(0.0, 248.0), 100.0);
/// assert!((accuracy(62.0, 248.0) - 100.0 / std::f64::consts::E).abs() < 1e-12);
/// ```
pub fn accuracy(loss: f64, start: f64) -> f64 {
    // Nothing given away (a target's tie allowance may leave a loss a
    // rounding below 0), or nothing to give away (a target out of reach).
    if loss <= 0.0 || start <= 0.0 {
        return 100.0;
    }
    100.0 * (-4.0 * loss / start).exp()
}

/// The reference players' figures, one line a player of a rule set:
/// `rule_set start player games` then each of score, loss, accuracy and
/// rating with its standard error, tab-separated.
const REFERENCE_PLAYERS: &str = include_str!("reference_players.tsv");

/// The reference players of the rule set `name` whose start is worth
/// `start` (its rules: a rule set of the same name but other rules has
/// another start), each as (mean loss, rating), by loss; none if no
/// figures match.
pub fn reference_players(name: &str, start: f64) -> Vec<(String, f64, f64)> {
    let mut players: Vec<(String, f64, f64)> = REFERENCE_PLAYERS
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() == 12 && f[0] == name)
        .filter(|f| f[1].parse::<f64>().is_ok_and(|s| (s - start).abs() < 1e-6))
        .filter_map(|f| Some((f[2].to_string(), f[6].parse().ok()?, f[10].parse().ok()?)))
        .collect();
    players.sort_by(|a, b| a.1.total_cmp(&b.1).then(b.2.total_cmp(&a.2)));
    players
}

/// The rating (Elo scale, the random player's 0) of a game of the rule
/// set `name`, whose start is worth `start`, that gave away `loss`: the
/// reference players' ratings interpolated at `loss` between their mean
/// losses, held between the random player's and the optimal player's.
/// `None` where the rule set has no reference figures.
pub fn rating(name: &str, start: f64, loss: f64) -> Option<f64> {
    // Players who give away the same (in forced Yatzy the turn's points
    // alone play as the table does) share the mean of their ratings; each
    // loss's rating is no higher than a smaller loss's: the curve falls.
    let mut curve: Vec<(f64, f64, u32)> = Vec::new();
    for (_, l, r) in reference_players(name, start) {
        match curve.last_mut() {
            Some((last, mean, n)) if l == *last => {
                *n += 1;
                *mean += (r - *mean) / f64::from(*n);
            }
            _ => curve.push((l, r, 1)),
        }
    }
    let mut curve: Vec<(f64, f64)> = curve.into_iter().map(|(l, r, _)| (l, r)).collect();
    for i in 1..curve.len() {
        curve[i].1 = curve[i].1.min(curve[i - 1].1);
    }
    let (first, last) = (*curve.first()?, *curve.last()?);
    if loss <= first.0 {
        return Some(first.1);
    }
    for w in curve.windows(2) {
        let ((l0, r0), (l1, r1)) = (w[0], w[1]);
        if loss <= l1 {
            return Some(r0 + (r1 - r0) * (loss - l0) / (l1 - l0));
        }
    }
    Some(last.1)
}

/// One decision of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Its line in the text (from 1).
    pub line: usize,
    /// Who took it: 0 for player 1 (the only player of a game alone), 1
    /// for player 2. Its values are in that player's measure (against
    /// someone, their own chance of winning).
    pub player: usize,
    /// The dice showing, sorted.
    pub dice: String,
    /// Rerolls left when it was taken.
    pub rerolls: u8,
    /// The value before the roll that showed these dice: the points so
    /// far and the expected points still to come.
    pub before: f64,
    /// The best option and its value (the roll's value), the points so far included.
    pub best: (RuleChoice, f64),
    /// The option taken and its value, the points so far included.
    pub chosen: (RuleChoice, f64),
    /// Where a decision gave something away and the rule set has a parts
    /// table: why the best option is better, box by box.
    pub reason: Option<crate::reason::Reason>,
}

impl Decision {
    /// What the roll brought: its value less the value before it.
    pub fn luck(&self) -> f64 {
        self.best.1 - self.before
    }

    /// What the decision gave away: the best option's value less the one taken's.
    pub fn loss(&self) -> f64 {
        self.best.1 - self.chosen.1
    }
}

/// One player's sheet where a reviewed game's text stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetTotal {
    /// The points on the sheet, the upper bonus left out.
    pub scored: u32,
    /// The upper bonus, once the sheet is full (0 before).
    pub bonus: u32,
    /// Boxes still open.
    pub open: u32,
}

impl SheetTotal {
    /// The points on the sheet, the upper bonus once it is full.
    pub fn total(&self) -> u32 {
        self.scored + self.bonus
    }
}

/// A game of a rule set, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The rule set's name.
    pub rule_set: String,
    /// What the values count: expected final points, the chance of
    /// reaching a target, or against someone the chance of winning.
    pub measure: Measure,
    /// The value of the game's start for player 1 (the only player of a
    /// game alone): the expected final score, the best chance of reaching
    /// the target, or the first player's chance of winning.
    pub start: f64,
    /// Every decision, in order.
    pub decisions: Vec<Decision>,
    /// Each player's sheet, player 1's first: one for a game alone, two
    /// for a game against someone.
    pub sheets: Vec<SheetTotal>,
    /// Against someone, a box that won the game at once (scored with the
    /// turn's first roll: Generala's served generala): who scored it
    /// (0 for player 1) and the box's index.
    pub won_at_once: Option<(usize, usize)>,
    /// The value for player 1 where the text stops: the points so far and
    /// the expected points still to come, or the chance of reaching the
    /// target or of winning (after a keep, that keep's).
    pub now: f64,
    /// The turns a game has for each player (the boxes).
    pub turns: u32,
}

impl Review {
    /// How many play: 1, or 2 for a game against someone.
    pub fn players(&self) -> usize {
        self.sheets.len()
    }

    /// Whether the game is over: every box scored, or a box won at once.
    pub fn over(&self) -> bool {
        self.won_at_once.is_some() || self.sheets.iter().all(|s| s.open == 0)
    }

    /// The start's value for `player` (0 for player 1): against someone,
    /// player 2's chance of winning is what player 1's leaves.
    pub fn start_of(&self, player: usize) -> f64 {
        match player {
            0 => self.start,
            _ => 1.0 - self.start,
        }
    }

    /// What the dice brought `player`: the luck summed over the rolls of
    /// their turns, in their own measure.
    pub fn luck_of(&self, player: usize) -> f64 {
        summed(&self.decisions, player, Decision::luck)
    }

    /// What `player`'s decisions gave away, in their own measure.
    pub fn loss_of(&self, player: usize) -> f64 {
        summed(&self.decisions, player, Decision::loss)
    }

    /// `player`'s accuracy, 0 to 100 (see [`accuracy`]), against their own start.
    pub fn accuracy_of(&self, player: usize) -> f64 {
        accuracy(self.loss_of(player), self.start_of(player))
    }

    /// `player`'s rating on the Elo scale (see the module's page); `None`
    /// where the rule set, so measured, has no reference figures.
    pub fn rating_of(&self, player: usize) -> Option<f64> {
        // Against someone the figures are found by the first player's start
        // (the reference players played from either seat).
        let start = if self.measure == Measure::Win { self.start } else { self.start_of(player) };
        rating(&self.measure.figures_of(&self.rule_set), start, self.loss_of(player))
    }

    /// The luck summed over player 1's rolls (every roll of a game alone).
    pub fn luck(&self) -> f64 {
        self.luck_of(0)
    }

    /// The losses summed over player 1's decisions (every decision of a game alone).
    pub fn loss(&self) -> f64 {
        self.loss_of(0)
    }

    /// Player 1's accuracy, 0 to 100 (see [`accuracy`]).
    pub fn accuracy(&self) -> f64 {
        self.accuracy_of(0)
    }

    /// Player 1's rating on the Elo scale (see the module's page); `None`
    /// where the rule set, so measured, has no reference figures.
    pub fn rating(&self) -> Option<f64> {
        self.rating_of(0)
    }

    /// A decision's accuracy, 0 to 100: the game's figure for one turn
    /// giving away what `d` did, against its player's start.
    pub fn decision_accuracy(&self, d: &Decision) -> f64 {
        accuracy(f64::from(self.turns) * d.loss(), self.start_of(d.player))
    }

    /// Player 1's final score, once the game is over.
    pub fn final_score(&self) -> Option<u32> {
        self.over().then(|| self.sheets[0].total())
    }

    /// Whether a finished game played for a target reached it.
    pub fn reached(&self) -> Option<bool> {
        match self.measure {
            Measure::Reach(target) => self.final_score().map(|s| s >= target),
            Measure::Points | Measure::Win => None,
        }
    }

    /// What a finished game came to for player 1, in the measure: the
    /// final score; played for a target, 1 reached and 0 not; against
    /// someone, 1 won, 0.5 tied and 0 lost. It less the start is player
    /// 1's luck less their losses, and against someone plus player 2's
    /// losses less player 2's luck (each in their own chance).
    pub fn outcome(&self) -> Option<f64> {
        if !self.over() {
            return None;
        }
        Some(match self.measure {
            Measure::Points => f64::from(self.sheets[0].total()),
            Measure::Reach(target) => f64::from(u8::from(self.sheets[0].total() >= target)),
            Measure::Win => match (self.won_at_once, self.sheets[0].total().cmp(&self.sheets[1].total())) {
                (Some((player, _)), _) => f64::from(u8::from(player == 0)),
                (None, std::cmp::Ordering::Greater) => 1.0,
                (None, std::cmp::Ordering::Equal) => 0.5,
                (None, std::cmp::Ordering::Less) => 0.0,
            },
        })
    }

    /// The `count` largest losses, largest first (ties in game order).
    pub fn largest_mistakes(&self, count: usize) -> Vec<&Decision> {
        largest(&self.decisions, self.measure.tie(), Decision::loss, count)
    }

    /// The review as JSON: the start's value, the score (or the value
    /// where the text stops), the luck and the losses summed, every
    /// decision with its luck and loss, and the five largest mistakes (by
    /// their line). Against someone, each decision names its player (1 or
    /// 2), the sheets' points are listed player 1's first, and each
    /// player's luck, losses, accuracy and rating are under `players`.
    pub fn to_json(&self, sheet: &Board) -> Json {
        let action = |c: &RuleChoice| choice_json(sheet, c);
        let two = self.players() == 2;
        let decisions = self
            .decisions
            .iter()
            .map(|d| {
                let mut fields = vec![("line", Json::Int(d.line as i64))];
                if two {
                    fields.push(("player", Json::Int(d.player as i64 + 1)));
                }
                fields.extend([
                    ("dice", Json::Str(d.dice.clone())),
                    ("rerolls", Json::Int(d.rerolls.into())),
                    ("chosen", action(&d.chosen.0)),
                    ("best", action(&d.best.0)),
                    ("before", Json::Num(d.before)),
                    ("value", Json::Num(d.best.1)),
                    ("chosen_value", Json::Num(d.chosen.1)),
                    ("luck", Json::Num(d.luck())),
                    ("loss", Json::Num(d.loss())),
                    ("accuracy", Json::Num(self.decision_accuracy(d))),
                ]);
                if let Some(r) = &d.reason {
                    fields.push(("reason", reason_json(r)));
                }
                Json::object(fields)
            })
            .collect();
        let mistakes = self.largest_mistakes(5).iter().map(|d| Json::Int(d.line as i64)).collect();
        let mut fields = vec![("game", Json::Str(self.rule_set.clone()))];
        if let Measure::Reach(target) = self.measure {
            fields.push(("target", Json::Int(target.into())));
        }
        fields.push(("start", Json::Num(self.start)));
        let each = |f: fn(&SheetTotal) -> u32| Json::List(self.sheets.iter().map(|s| Json::Int(f(s).into())).collect());
        match (self.final_score(), two) {
            (Some(score), false) => {
                fields.push(("score", Json::Int(score.into())));
                if let Some(reached) = self.reached() {
                    fields.push(("reached", Json::Bool(reached)));
                }
            }
            (Some(_), true) => {
                fields.push(("scores", each(SheetTotal::total)));
                fields.push(("outcome", self.outcome().map_or(Json::Null, Json::Num)));
                if let Some((player, b)) = self.won_at_once {
                    let won = vec![
                        ("player", Json::Int(player as i64 + 1)),
                        ("category", Json::Str(sheet.rules().boxes[b].name.clone())),
                    ];
                    fields.push(("won_at_once", Json::object(won)));
                }
            }
            (None, false) => {
                fields.push(("open", Json::Int(self.sheets[0].open.into())));
                fields.push(("now", Json::Num(self.now)));
            }
            (None, true) => {
                fields.push(("scored", each(|s| s.scored)));
                fields.push(("open", each(|s| s.open)));
                fields.push(("now", Json::Num(self.now)));
            }
        }
        let figures = |p: usize| figures_json(self.luck_of(p), self.loss_of(p), self.accuracy_of(p), self.rating_of(p));
        match two {
            false => fields.extend(figures(0)),
            true => {
                let players = (0..2).map(|p| {
                    let mut player = vec![("player", Json::Int(p as i64 + 1)), ("start", Json::Num(self.start_of(p)))];
                    player.extend(figures(p));
                    Json::object(player)
                });
                fields.push(("players", Json::List(players.collect())));
            }
        }
        fields.extend([("decisions", Json::List(decisions)), ("largest_mistakes", Json::List(mistakes))]);
        Json::object(fields)
    }
}

/// `f` summed over `player`'s decisions (a player's luck, or losses).
fn summed<D: Mover>(decisions: &[D], player: usize, f: fn(&D) -> f64) -> f64 {
    decisions.iter().filter(|d| d.player() == player).fold(0.0, |sum, d| sum + f(d))
}

/// The `count` decisions that gave away the most (`loss`), more than a
/// tie (`tie`), largest first (ties in game order).
fn largest<D>(decisions: &[D], tie: f64, loss: fn(&D) -> f64, count: usize) -> Vec<&D> {
    let mut mistakes: Vec<&D> = decisions.iter().filter(|d| loss(d) > tie).collect();
    mistakes.sort_by(|a, b| loss(b).total_cmp(&loss(a)));
    mistakes.truncate(count);
    mistakes
}

/// A reviewed decision's player (0 for player 1), as a player's sums read it.
trait Mover {
    fn player(&self) -> usize;
}

impl Mover for Decision {
    fn player(&self) -> usize {
        self.player
    }
}

/// A reason as a review's JSON gives it: its words and its parts by name.
fn reason_json(r: &crate::reason::Reason) -> Json {
    let parts = r.parts.iter().map(|(name, x)| (name.clone().into(), Json::Num(*x))).collect();
    Json::object(vec![("text", Json::Str(r.text.clone())), ("parts", Json::Object(parts))])
}

/// A player's figures as a review's JSON gives them.
fn figures_json(luck: f64, loss: f64, accuracy: f64, rating: Option<f64>) -> Vec<(&'static str, Json)> {
    vec![
        ("luck", Json::Num(luck)),
        ("loss", Json::Num(loss)),
        ("accuracy", Json::Num(accuracy)),
        ("rating", rating.map_or(Json::Null, Json::Num)),
    ]
}

/// An option as the lookups write it: `{"keep": "66"}` or `{"category": "sixes", "points": 12, ...}`.
fn choice_json(sheet: &Board, choice: &RuleChoice) -> Json {
    match choice {
        RuleChoice::Keep(kept) => Json::object(vec![("keep", Json::Str(kept.to_string()))]),
        RuleChoice::Score(m) => {
            let mut fields = vec![
                ("category", Json::Str(sheet.rules().boxes[m.box_index].name.clone())),
                ("points", Json::Int(m.points.into())),
            ];
            if m.bonus > 0 {
                fields.push(("bonus", Json::Int(m.bonus.into())));
            }
            if m.first_roll > 0 {
                fields.push(("first_roll", Json::Int(m.first_roll.into())));
            }
            Json::object(fields)
        }
    }
}

/// What a review reads: a sheet's turn-start values under its rules (a
/// rule set's table, or a built-in game's read as its preset's), and its
/// parts table where it has one (the reasons).
pub struct ReviewSource<'a> {
    /// The sheet's values and rules.
    pub sheet: std::sync::Arc<dyn TurnStarts + 'a>,
    /// Its values box by box.
    pub parts: Option<std::sync::Arc<dice_tables_reader::rule_sheet::RuleParts>>,
    /// A built-in game's target table, opened when a game played for a
    /// target is reviewed (a rule set's is its `NAME-target.dtab`).
    pub target: Option<OpenTarget<'a>>,
    /// A built-in game's two-player table, opened when a game against
    /// someone is reviewed (a rule set's is its `NAME-duel.dtab`).
    pub duel: Option<OpenDuel<'a>>,
}

impl<'a> ReviewSource<'a> {
    /// A built-in game's `table` read as its preset's rule set's under
    /// the rules of `parts`, the preset's parts table (which gives the
    /// reasons); refused, naming the parts file, where those are not the
    /// game's own rules.
    pub fn preset<T: dice_tables_reader::rule_sheet::PresetValues + 'a>(
        tables: &dice_tables_reader::Tables,
        table: &'a T,
        parts: std::sync::Arc<dice_tables_reader::rule_sheet::RuleParts>,
        target: Option<OpenTarget<'a>>,
        duel: Option<OpenDuel<'a>>,
    ) -> Result<ReviewSource<'a>, LookupError> {
        use dice_tables_reader::rule_sheet::{parts_stem, AsRules};
        let sheet = AsRules::new(table, parts.clone()).map_err(|e| {
            LookupError::Table(e.in_file(&tables.dir().join(dice_tables_reader::file_name(&parts_stem(T::GAME)))))
        })?;
        Ok(ReviewSource { sheet: std::sync::Arc::new(sheet), parts: Some(parts), target, duel })
    }
}

/// Opens a built-in game's two-player table for a review.
pub type OpenDuel<'a> = Box<dyn Fn() -> Result<Box<dyn DuelChances + Send + Sync + 'a>, LookupError> + 'a>;

/// A built-in game's two-player table as a review of a game against
/// someone reads it, in the states of the game's preset: the mover's
/// sheet, the opponent's, and the mover's lead in points.
pub trait DuelChances {
    /// The mover's chance of winning (a tie half) at the start of their turn.
    fn chance(&self, mover: SheetState, opponent: SheetState, lead: i64) -> Result<f64, LookupError>;
    /// The mover's chance of winning after each of `legal` (the options of
    /// `dice` with `rerolls` left, as the preset's rules give them), in
    /// their order.
    fn chances(
        &self,
        mover: SheetState,
        opponent: SheetState,
        lead: i64,
        dice: Dice,
        rerolls: u8,
        legal: &[RuleChoice],
    ) -> Result<Vec<f64>, LookupError>;
}

/// Opens a built-in game's target table for a review.
pub type OpenTarget<'a> = Box<dyn Fn() -> Result<Box<dyn TargetChances + 'a>, LookupError> + 'a>;

/// A built-in game's target table as a review of a game played for a
/// target reads it, in the states of the game's preset (its rule set's
/// sheets: open boxes, upper total, boxes holding points).
pub trait TargetChances {
    /// The best chance of scoring at least `need` more points from the turn start `at`.
    fn chance(&self, at: SheetState, need: i64) -> Result<f64, LookupError>;
    /// The best chance of `need` more points after each of `legal` (the
    /// options of `dice` with `rerolls` left at turn start `at`, as the
    /// preset's rules give them), in their order.
    fn chances(
        &self,
        at: SheetState,
        dice: Dice,
        rerolls: u8,
        need: i64,
        legal: &[RuleChoice],
    ) -> Result<Vec<f64>, LookupError>;
}

/// The game `text` of `name` reviewed (see [`review_rule_set`]), with
/// the sheet it was reviewed on: a rule set's table in `tables` with its
/// parts table where there is one, or a built-in game whose games are
/// reviewed (yazy, yatzy, yahtzee, yahtzee-free, maxi-yatzy: its own table read as its
/// preset's, with the preset's parts table). A rule set with no table is
/// refused naming the games and what writes its table.
pub fn review<'a>(
    tables: &'a dice_tables_reader::Tables,
    name: &str,
    text: &str,
) -> Result<(std::sync::Arc<dyn TurnStarts + 'a>, Review), LookupError> {
    review_as(tables, name, None, text)
}

/// [`review`], the game played for a final score of at least `target`
/// where one is given (or the text's header names one, `target: N`; the
/// two must agree), reviewed in the chance of reaching it from the rule
/// set's target table ([`review_for_target`]); or a game against someone
/// (a header line `players: 2`, or lines that begin with their player's
/// number, `2: 466 keep 66`), reviewed in each player's chance of winning
/// from the rule set's two-player table ([`review_duel`]). A built-in
/// game's target and two-player tables are its own where it has them
/// (yatzy-target.dtab, yazy-duel.dtab), over its preset's options.
pub fn review_as<'a>(
    tables: &'a dice_tables_reader::Tables,
    name: &str,
    target: Option<u32>,
    text: &str,
) -> Result<(std::sync::Arc<dyn TurnStarts + 'a>, Review), LookupError> {
    let name = own_game(name, text, "rule set")?;
    let heading = header(text);
    let fields = header_fields(&heading)?;
    let target = match (target, fields.target) {
        (Some(given), Some(written)) if given != written => {
            let h = heading.iter().find(|h| h.key.eq_ignore_ascii_case("target")).expect("the header's target");
            let why = format!("the text plays for {written}, reviewed here for {given}: name one target");
            return Err(LookupError::GameText { line: h.line, given: h.text.to_string(), why });
        }
        (given, written) => given.or(written),
    };
    let numbered = text.lines().map(|l| player_written(l.trim()).0).find(Option::is_some).flatten();
    let two = fields.players == Some(2) || (fields.players.is_none() && numbered.is_some());
    if let (true, Some(target)) = (two, target) {
        let why = format!(
            "a game against someone is reviewed in each player's chance of winning, not played for {target}: \
             name no target"
        );
        return Err(LookupError::GameText { line: 0, given: String::new(), why });
    }
    let ReviewSource { sheet, parts, target: built_in_target, duel: built_in_duel } = review_source(tables, name)?;
    let review = match (target, two) {
        (None, false) => review_with_parts(&*sheet, parts.as_deref(), text)?,
        (Some(target), _) => match &built_in_target {
            Some(open) => {
                let chances = open()?;
                replay(&*sheet, &BuiltInReach { sheet: &*sheet, chances: &*chances, target }, parts.as_deref(), text)?
            }
            None => {
                let missing = |name, missing| LookupError::NoRuleTarget { name, missing };
                let chances = rule_set_only(tables, name, "played for a target", |t, n| t.rule_target(n), missing)?;
                review_for_target(&*sheet, &chances, target, parts.as_deref(), text)?
            }
        },
        (None, true) => match &built_in_duel {
            Some(open) => {
                let chances = open()?;
                replay(&*sheet, &Win(&BuiltInDuel { sheet: &*sheet, chances: &*chances }), parts.as_deref(), text)?
            }
            None => {
                let missing = |name, missing| LookupError::NoRuleDuel { name, missing };
                let duel = rule_set_only(tables, name, "played against someone", |t, n| t.rule_duel(n), missing)?;
                review_duel(&*sheet, &duel, parts.as_deref(), text)?
            }
        },
    };
    Ok((sheet, review))
}

/// A rule set's table of another kind than its own, which a review of
/// `name`'s games `played` so reads (a target table, or a two-player
/// table): a built-in game's are laid out otherwise, and refused; one
/// not written is said by `missing`, naming what writes it.
fn rule_set_only<T>(
    tables: &dice_tables_reader::Tables,
    name: &str,
    played: &str,
    open: impl Fn(&dice_tables_reader::Tables, &str) -> Result<std::sync::Arc<T>, dice_tables_reader::TableError>,
    missing: impl Fn(String, dice_tables_reader::TableError) -> LookupError,
) -> Result<std::sync::Arc<T>, LookupError> {
    if let Some(game) = crate::games::LookupInfo::find(name) {
        let why = format!(
            "{} is a built-in game: its games {played} are not reviewed here, a rule set's are \
             (a preset's, such as forced-yatzy, or your own rules' with the table for it)",
            game.game
        );
        return Err(LookupError::GameText { line: 0, given: String::new(), why });
    }
    open(tables, name).map_err(|e| match e.kind() {
        dice_tables_reader::TableErrorKind::NotFound => missing(name.to_string(), e),
        _ => LookupError::Table(e),
    })
}

/// The chance of each of `legal` (the preset's options of `dice`, in
/// their order) among a built-in `game`'s target `options` of the same
/// dice, each found by its `action` there; refused where one is not there.
pub(crate) fn legal_chances<A: Copy + PartialEq + std::fmt::Debug>(
    game: &str,
    dice: Dice,
    options: &dice_tables_reader::target::TargetChoices<A>,
    legal: &[RuleChoice],
    action: impl Fn(RuleChoice) -> A,
) -> Result<Vec<f64>, LookupError> {
    legal
        .iter()
        .map(|&choice| {
            let action = action(choice);
            options.iter().find(|o| o.action == action).map(|o| o.p).ok_or_else(|| {
                let why = format!("{game}'s target table has no option {action:?} of {dice}: not the game's own rules");
                LookupError::GameText { line: 0, given: String::new(), why }
            })
        })
        .collect()
}

/// What a review of `name`'s games reads ([`review`] reads it): a rule
/// set's table and its parts table where there is one, or a built-in game
/// whose games are reviewed (yazy, yatzy, yahtzee, yahtzee-free, maxi-yatzy), its own table
/// read as its preset's beside the preset's parts table. For a program
/// that plays or reviews many games of one rule set.
pub fn review_source<'a>(tables: &'a dice_tables_reader::Tables, name: &str) -> Result<ReviewSource<'a>, LookupError> {
    let mut sheets = crate::games::LOOKUPS.iter().filter_map(|l| match l.review {
        Some(crate::games::ReviewTables::Sheet(open)) => Some(open),
        _ => None,
    });
    let built_in = sheets.find_map(|open| open(tables, name));
    Ok(match (built_in, crate::games::LookupInfo::find(name)) {
        (Some(source), _) => source?,
        (None, Some(_)) => {
            let reviewed: Vec<&str> =
                crate::games::LOOKUPS.iter().filter(|l| l.review.is_some()).map(|l| l.game).collect();
            let why = format!(
                "{} is a built-in game whose games are not reviewed here; this review takes games of {} or of a rule \
                 set (a preset, such as crag, or your own rules)",
                name,
                reviewed.join(", ")
            );
            return Err(LookupError::GameText { line: 0, given: String::new(), why });
        }
        (None, None) => rule_set_source(tables, name)?,
    })
}

/// A game's review: a score sheet's game, or a game of 10000.
pub enum Reviewed<'a> {
    /// A score sheet's game, with the sheet it was reviewed on.
    Sheet(std::sync::Arc<dyn TurnStarts + 'a>, Review),
    /// A game of 10000, alone or against someone.
    Tenk(tenk::TenkReview),
    /// A turn of threes.
    Threes(threes::ThreesReview),
}

impl Reviewed<'_> {
    /// The review as JSON ([`Review::to_json`], [`tenk::TenkReview::to_json`]).
    pub fn to_json(&self) -> Json {
        match self {
            Reviewed::Sheet(sheet, review) => review.to_json(sheet),
            Reviewed::Tenk(review) => review.to_json(),
            Reviewed::Threes(review) => review.to_json(),
        }
    }
}

/// The game `text` of `name` reviewed, whatever the game: a score sheet's
/// ([`review_as`], `target` as it takes it), 10000's, alone (`tenk`)
/// or against someone (`duel`, `duel-cardgames`; [`tenk::review_tenk`]),
/// or a turn of threes ([`threes::review_threes`]), which have no target.
/// What every front end's review answers.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use dice_tables_lookup::review::{reviewed, Reviewed};
/// use dice_tables_reader::Tables;
/// let tables = Tables::open_default()?;
/// // 10000 alone: one turn, two throws, then banked.
/// let text = "game: 10000\n112346 keep 1 throw\n23556 keep 55 bank\n";
/// let Reviewed::Tenk(review) = reviewed(&tables, "10000", None, text)? else { panic!("a game of 10000") };
/// assert_eq!(review.totals, vec![200]);
/// let identity = review.outcome().unwrap() - review.start_of(0) - (review.luck() - review.loss());
/// assert!(identity.abs() < 1e-9);
/// # Ok(()) }
/// ```
pub fn reviewed<'a>(
    tables: &'a dice_tables_reader::Tables,
    name: &str,
    target: Option<u32>,
    text: &str,
) -> Result<Reviewed<'a>, LookupError> {
    use crate::games::ReviewTables;
    let mut kinds = crate::games::LOOKUPS.iter().filter_map(|l| match l.review {
        Some(ReviewTables::Sheet(_)) | None => None,
        other => other,
    });
    let Some(found) = kinds.find_map(|kind| match kind {
        ReviewTables::Tenk(open) => open(tables, name).map(|v| v.map(Throws::Tenk)),
        ReviewTables::Threes(open) => open(tables, name).map(|t| t.map(Throws::Threes)),
        ReviewTables::Sheet(_) => None,
    }) else {
        return review_as(tables, name, target, text).map(|(sheet, review)| Reviewed::Sheet(sheet, review));
    };
    let own = own_game(name, text, "game")?;
    match found? {
        Throws::Tenk(values) => tenk::review_tenk(own, &*values, target, text).map(Reviewed::Tenk),
        Throws::Threes(table) => threes::review_threes(table, target, text).map(Reviewed::Threes),
    }
}

/// The game `name` by its own name (a game's other name, `maxi`, is its
/// own), refused where the text's header names another (`one`: what the
/// refusal asks to name, a rule set or a game).
fn own_game<'n>(name: &'n str, text: &str, one: &str) -> Result<&'n str, LookupError> {
    let own_name = |name: &'n str| dice_tables_reader::game_named(name).map_or(name, |g| g.id);
    let own = own_name(name);
    let heading = header(text);
    let named = heading.iter().find(|h| h.key.eq_ignore_ascii_case("game"));
    if let Some(h) = named.filter(|h| dice_tables_reader::game_named(h.value).map_or(h.value, |g| g.id) != own) {
        let why = format!("the text is a game of {}, reviewed here as {own}'s: name one {one}", h.value);
        return Err(LookupError::GameText { line: h.line, given: h.text.to_string(), why });
    }
    Ok(own)
}

/// The table a game without a score sheet is reviewed on.
enum Throws<'a> {
    Tenk(crate::games::OpenTenk<'a>),
    Threes(&'a dice_tables_reader::threes::Threes),
}

/// The rule set `name`'s table and its parts table, where there is one.
fn rule_set_source<'a>(tables: &'a dice_tables_reader::Tables, name: &str) -> Result<ReviewSource<'a>, LookupError> {
    let sheet = tables.rule_sheet(name).map_err(|e| match e.kind() {
        dice_tables_reader::TableErrorKind::NotFound => {
            LookupError::NoRuleSet { given: name.to_string(), known: crate::games::games(), missing: e }
        }
        _ => LookupError::Table(e),
    })?;
    // The reasons, where the rule set has a parts table.
    let parts = match tables.rule_parts(name) {
        Ok(parts) => Some(parts),
        Err(e) if matches!(e.kind(), dice_tables_reader::TableErrorKind::NotFound) => None,
        Err(e) => return Err(LookupError::Table(e)),
    };
    Ok(ReviewSource { sheet, parts, target: None, duel: None })
}

/// The longest query string [`review_query`] reads: a game's text, each
/// line's spaces and newline escaped (Maxi Yatzy's longest games come to
/// about 2 KB).
pub const MAX_REVIEW_QUERY_BYTES: usize = 8192;

/// `reader serve`'s `GET /v1/review/NAME?game=TEXT[&target=POINTS]`: the
/// game `TEXT` (percent-encoded, lines apart by `%0A`) of rule set `name`
/// reviewed, as `reader review NAME FILE --json [--target POINTS]` prints
/// it. The query string is bounded ([`MAX_REVIEW_QUERY_BYTES`]) before
/// anything is decoded and takes `game` and `target` alone, each once.
pub fn review_query(tables: &dice_tables_reader::Tables, name: &str, qs: &str) -> Result<Json, LookupError> {
    let params = crate::query_string::parse_query_string_within(qs, MAX_REVIEW_QUERY_BYTES)?;
    let (mut text, mut target) = (None, None);
    for (param, value) in params {
        match (param.as_str(), value) {
            ("game", Some(v)) if text.is_none() => text = Some(v),
            ("target", Some(v)) if target.is_none() => {
                let bad = |why| LookupError::GameText { line: 0, given: String::new(), why };
                target = Some(parse_target(&v).map_err(bad)?);
            }
            _ => {
                let why = format!(
                    "{param}: a review takes the parameters game=TEXT (the game's lines, percent-encoded) \
                     and target=POINTS (played for a score), each once"
                );
                return Err(LookupError::GameText { line: 0, given: String::new(), why });
            }
        }
    }
    let text = text.unwrap_or_default();
    Ok(reviewed(tables, name, target, &text)?.to_json())
}

/// The rule set a game's text names in its header (a line `game: NAME`
/// among the header's lines, before any decision; blank lines aside), if
/// it has one.
///
/// ```
/// use dice_tables_lookup::review::game_named;
/// assert_eq!(game_named("game: crag\n466 keep 66\n"), Some("crag"));
/// assert_eq!(game_named("game: crag\ntarget: 30\n466 keep 66\n"), Some("crag"));
/// assert_eq!(game_named("466 keep 66\n"), None);
/// ```
pub fn game_named(text: &str) -> Option<&str> {
    header(text).into_iter().find(|h| h.key.eq_ignore_ascii_case("game")).map(|h| h.value)
}

/// One line of a game's header: `KEY: VALUE`, a word before the colon
/// (a decision's line begins with dice, or against someone a player's number).
struct HeaderLine<'a> {
    /// Its line in the text, from 1.
    line: usize,
    /// The whole line, trimmed.
    text: &'a str,
    key: &'a str,
    value: &'a str,
}

/// The header of a game's text: its first lines of the form `WORD: VALUE`.
fn header(text: &str) -> Vec<HeaderLine<'_>> {
    let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty());
    lines
        .map_while(|(line, text)| {
            let (key, value) = text.split_once(':')?;
            let key = key.trim();
            (!key.is_empty() && key.bytes().all(|b| b.is_ascii_alphabetic())).then(|| HeaderLine {
                line,
                text,
                key,
                value: value.trim(),
            })
        })
        .collect()
}

/// What a game's header says beside its name.
#[derive(Default)]
struct HeaderFields {
    /// `target: N`: played for a final score of at least N.
    target: Option<u32>,
    /// `players: N`: 1, or 2 against someone.
    players: Option<usize>,
}

/// What a header (`heading`, as [`header`] reads it) says: a line other
/// than `game:`, `target:` and `players:`, a target that is not a whole
/// number of points from 1, or players other than 1 or 2, is refused
/// naming its line.
fn header_fields(heading: &[HeaderLine<'_>]) -> Result<HeaderFields, LookupError> {
    let mut fields = HeaderFields::default();
    for h in heading {
        let bad = |why: String| LookupError::GameText { line: h.line, given: h.text.to_string(), why };
        match h.key.to_ascii_lowercase().as_str() {
            "game" => {}
            "target" => fields.target = Some(parse_target(h.value).map_err(bad)?),
            "players" => match h.value {
                "1" => fields.players = Some(1),
                "2" => fields.players = Some(2),
                _ => return Err(bad(format!("players {:?}: a game is played by 1 or 2 players", h.value))),
            },
            _ => {
                return Err(bad(format!(
                    "{} is not a header line: a game's text may begin with game: NAME, then target: POINTS \
                     or players: 2",
                    h.key
                )))
            }
        }
    }
    Ok(fields)
}

/// A target as a game's header or an option gives it: a whole number of points, 1 or more.
pub fn parse_target(given: &str) -> Result<u32, String> {
    match given.trim().parse::<u32>() {
        Ok(t) if t > 0 => Ok(t),
        _ => Err(format!("target {given:?}: a target is a whole number of points, 1 or more (target: 200)")),
    }
}

/// One line of a game's text.
enum Step<'a> {
    Keep(&'a str),
    Score(&'a str),
}

/// The game `text` of the rule set whose table is `sheet`, replayed and
/// reviewed: one decision a line (`DICE keep KEPT` or `DICE score BOX`,
/// blank lines skipped, first lines `game: NAME` a header). A line that does not follow the rules (dice that
/// do not hold what was kept, a box not open, a keep with no reroll left)
/// is refused, naming it.
pub fn review_rule_set(sheet: &RuleSheet, text: &str) -> Result<Review, LookupError> {
    review_with_parts(sheet, None, text)
}

/// [`review_rule_set`] with the rule set's parts table, where it has one:
/// each decision that gave something away then says why the best option
/// is better ([`crate::reason`]).
pub fn review_with_parts(
    sheet: &dyn TurnStarts,
    parts: Option<&dice_tables_reader::rule_sheet::RuleParts>,
    text: &str,
) -> Result<Review, LookupError> {
    replay(sheet, &Points(sheet), parts, text)
}

/// The game `text` of the rule set whose table is `sheet`, played for a
/// final score of at least `target` and reviewed in the chance of reaching
/// it, read from the rule set's target table `chances`: each moment's
/// value is the best chance from it, a roll's luck and a decision's loss
/// are in chance, and a finished game's outcome (1 reached, 0 not) less
/// the start's chance is the luck less the losses. Where a decision gave
/// chance away and `parts` is the rule set's parts table, its reason is in
/// expected points beside the chance: each box's under max-expected-score
/// play after the best option for the target and after the one taken.
pub fn review_for_target(
    sheet: &dyn TurnStarts,
    chances: &RuleTarget,
    target: u32,
    parts: Option<&dice_tables_reader::rule_sheet::RuleParts>,
    text: &str,
) -> Result<Review, LookupError> {
    same_rules(sheet, chances.rules(), "target table")?;
    replay(sheet, &Reach { chances, target }, parts, text)
}

/// Refuses a table of another kind (`kind`) whose rules are not the
/// rule set's own table's: its values would be another game's.
fn same_rules(
    sheet: &dyn TurnStarts,
    rules: &dice_tables_reader::rules::RuleSet,
    kind: &str,
) -> Result<(), LookupError> {
    if rules == sheet.rules() {
        return Ok(());
    }
    let why = format!(
        "{}'s {kind} holds other rules than its own table: write both in one generator run",
        sheet.rules().name
    );
    Err(LookupError::GameText { line: 0, given: String::new(), why })
}

/// The game `text` of the rule set whose table is `sheet`, played by two
/// players taking turns (player 1 first; a line may begin with its
/// player's number, `2: 466 keep 66`), reviewed in each player's chance of
/// winning against a perfect opponent (a tie half), read from the rule
/// set's two-player table `duel`: each decision's values are its mover's
/// chance, a roll's luck is its mover's and a decision's loss its
/// mover's. For a finished game, player 1's outcome (1 won, 0.5 tied, 0
/// lost) less player 1's chance at the start is player 1's luck less
/// player 2's, less player 1's losses plus player 2's. A box served that
/// wins at once (Generala's generala) ends the game. Where a decision gave
/// chance away and `parts` is the rule set's parts table, its reason is in
/// expected points beside the chance, as [`review_for_target`]'s.
pub fn review_duel(
    sheet: &dyn TurnStarts,
    duel: &RuleDuel,
    parts: Option<&dice_tables_reader::rule_sheet::RuleParts>,
    text: &str,
) -> Result<Review, LookupError> {
    same_rules(sheet, duel.rules(), "two-player table")?;
    replay(sheet, &Win(duel), parts, text)
}

/// What a review counts a moment's value in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Expected final points: the points on the sheet and the expected
    /// points still to come.
    Points,
    /// The best chance of a final score of at least this many points.
    Reach(u32),
    /// Against someone: the mover's chance of winning against a perfect
    /// opponent, a tie counting half.
    Win,
}

impl Measure {
    /// Losses this small are no mistake: a target table's chances are
    /// stored to within 3e-8, so options within its tie allowance are tied.
    pub fn tie(&self) -> f64 {
        match self {
            Measure::Points => 0.0,
            Measure::Reach(_) => dice_tables_reader::target::TARGET_TIE,
            // A two-player table's chances are stored to within half a
            // unit of 2^-23: two options read through different stored
            // chances may differ by a unit where they are tied.
            Measure::Win => 2.0 / f64::from(dice_tables_reader::lead_chances::UNITS),
        }
    }

    /// The name the reference players' figures go by for a rule set
    /// `name` measured so: the rule set's own, or `NAME target POINTS`.
    pub fn figures_of(&self, name: &str) -> String {
        match self {
            Measure::Points => name.to_string(),
            Measure::Reach(target) => format!("{name} target {target}"),
            Measure::Win => format!("{name} two players"),
        }
    }
}

/// One player's place in a game being replayed: their sheet, the
/// rerolls they saved and their points so far (the upper bonus left out).
#[derive(Clone, Copy, Debug)]
struct Seat {
    state: SheetState,
    saved: u32,
    scored: u32,
}

/// How a review values a game's moments, each in the mover's measure.
trait Values {
    fn measure(&self) -> Measure;
    /// How many play: each has a seat.
    fn players(&self) -> usize;
    /// The value of the turn start of `seats[mover]`.
    fn turn_start(&self, seats: &[Seat], mover: usize) -> Result<f64, LookupError>;
    /// A roll's options in the turn of `seats[mover]`, the decision first, each with its value.
    fn options(
        &self,
        seats: &[Seat],
        mover: usize,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError>;
}

/// Expected final points, from the rule set's own table.
struct Points<'s>(&'s dyn TurnStarts);

impl Values for Points<'_> {
    fn measure(&self) -> Measure {
        Measure::Points
    }

    fn players(&self) -> usize {
        1
    }

    fn turn_start(&self, seats: &[Seat], mover: usize) -> Result<f64, LookupError> {
        let Seat { state: at, saved, scored } = seats[mover];
        Ok(f64::from(scored) + self.0.turn_start_saved(at.open, at.upper, at.held, saved)?)
    }

    fn options(
        &self,
        seats: &[Seat],
        mover: usize,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
        // The options' values are the points still to come: with the points so far, the moment's.
        let Seat { state: at, saved, scored } = seats[mover];
        let options = self.0.options_saved(at.open, at.upper, at.held, saved, dice, rerolls)?.options;
        Ok(options.into_iter().map(|(c, v)| (c, f64::from(scored) + v)).collect())
    }
}

/// The chance of reaching a target, from the rule set's target table.
struct Reach<'t> {
    chances: &'t RuleTarget,
    target: u32,
}

impl Reach<'_> {
    fn need(&self, scored: u32) -> i64 {
        need(self.target, scored)
    }
}

/// The points still needed for `target`, `scored` on the sheet.
fn need(target: u32, scored: u32) -> i64 {
    i64::from(target) - i64::from(scored)
}

impl Values for Reach<'_> {
    fn measure(&self) -> Measure {
        Measure::Reach(self.target)
    }

    fn players(&self) -> usize {
        1
    }

    fn turn_start(&self, seats: &[Seat], mover: usize) -> Result<f64, LookupError> {
        let Seat { state: at, scored, .. } = seats[mover];
        Ok(self.chances.chance(at.open, at.upper, at.held, self.need(scored))?)
    }

    fn options(
        &self,
        seats: &[Seat],
        mover: usize,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
        let Seat { state: at, scored, .. } = seats[mover];
        Ok(self.chances.options(at.open, at.upper, at.held, dice, rerolls, self.need(scored))?.options)
    }
}

/// The chance of reaching a target, from a built-in game's target table
/// (`chances`), over the options of its preset's rules (`sheet`), best first.
struct BuiltInReach<'a> {
    sheet: &'a dyn TurnStarts,
    chances: &'a dyn TargetChances,
    target: u32,
}

impl Values for BuiltInReach<'_> {
    fn measure(&self) -> Measure {
        Measure::Reach(self.target)
    }

    fn players(&self) -> usize {
        1
    }

    fn turn_start(&self, seats: &[Seat], mover: usize) -> Result<f64, LookupError> {
        let Seat { state, scored, .. } = seats[mover];
        self.chances.chance(state, need(self.target, scored))
    }

    fn options(
        &self,
        seats: &[Seat],
        mover: usize,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
        let Seat { state: at, scored, .. } = seats[mover];
        ranked(self.sheet, at, dice, rerolls, |legal| {
            self.chances.chances(at, dice, rerolls, need(self.target, scored), legal)
        })
    }
}

/// The options of `dice` with `rerolls` left at turn start `at` under the
/// rules of `sheet`, each with its chance from `chances_of` (a built-in
/// game's table, given the options in the rules' order), best first.
pub fn ranked(
    sheet: &dyn TurnStarts,
    at: SheetState,
    dice: Dice,
    rerolls: u8,
    chances_of: impl FnOnce(&[RuleChoice]) -> Result<Vec<f64>, LookupError>,
) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
    let legal: Vec<RuleChoice> =
        sheet.options(at.open, at.upper, at.held, dice, rerolls)?.options.into_iter().map(|o| o.0).collect();
    let chances = chances_of(&legal)?;
    let mut options: Vec<(RuleChoice, f64)> = legal.into_iter().zip(chances).collect();
    // Best first; among options tied, the rules' order (boxes before keeps).
    options.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(options)
}

/// A two-player table as a review reads it: the mover's chance of winning
/// at a turn's start, and after each option of a roll, best first.
trait TwoPlayerChances {
    fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, LookupError>;
    fn options(
        &self,
        me: SheetState,
        opp: SheetState,
        lead: i64,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError>;
}

impl TwoPlayerChances for RuleDuel {
    fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, LookupError> {
        Ok(RuleDuel::chance(self, me, opp, lead)?)
    }

    fn options(
        &self,
        me: SheetState,
        opp: SheetState,
        lead: i64,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
        Ok(RuleDuel::options(self, me, opp, lead, dice, rerolls)?.options)
    }
}

/// A built-in game's two-player table (`chances`) over the options of its
/// preset's rules (`sheet`).
struct BuiltInDuel<'a> {
    sheet: &'a dyn TurnStarts,
    chances: &'a dyn DuelChances,
}

impl TwoPlayerChances for BuiltInDuel<'_> {
    fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, LookupError> {
        self.chances.chance(me, opp, lead)
    }

    fn options(
        &self,
        me: SheetState,
        opp: SheetState,
        lead: i64,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
        ranked(self.sheet, me, dice, rerolls, |legal| self.chances.chances(me, opp, lead, dice, rerolls, legal))
    }
}

/// The mover's chance of winning, from a two-player table.
struct Win<'d>(&'d dyn TwoPlayerChances);

impl Win<'_> {
    /// The mover's sheet, the opponent's and the mover's lead.
    fn sides(seats: &[Seat], mover: usize) -> (SheetState, SheetState, i64) {
        let (me, opp) = (seats[mover], seats[1 - mover]);
        (me.state, opp.state, i64::from(me.scored) - i64::from(opp.scored))
    }
}

impl Values for Win<'_> {
    fn measure(&self) -> Measure {
        Measure::Win
    }

    fn players(&self) -> usize {
        2
    }

    fn turn_start(&self, seats: &[Seat], mover: usize) -> Result<f64, LookupError> {
        let (me, opp, lead) = Win::sides(seats, mover);
        self.0.chance(me, opp, lead)
    }

    fn options(
        &self,
        seats: &[Seat],
        mover: usize,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Vec<(RuleChoice, f64)>, LookupError> {
        let (me, opp, lead) = Win::sides(seats, mover);
        self.0.options(me, opp, lead, dice, rerolls)
    }
}

/// A decision's line without its player's number (`2: 466 keep 66`), and the number where it has one.
fn player_written(line: &str) -> (Option<&str>, &str) {
    match line.split_once(':') {
        Some((who, rest)) if !who.trim().is_empty() && who.trim().bytes().all(|b| b.is_ascii_digit()) => {
            (Some(who.trim()), rest.trim())
        }
        _ => (None, line),
    }
}

/// The game `text` of the rule set `sheet` replayed, each moment valued by
/// `values` in the mover's measure (against someone, the players take
/// turns, player 1 first; a line may begin with its player's number, `2:`).
fn replay(
    sheet: &dyn TurnStarts,
    values: &dyn Values,
    parts: Option<&dice_tables_reader::rule_sheet::RuleParts>,
    text: &str,
) -> Result<Review, LookupError> {
    let rules = sheet.rules();
    let n = usize::from(rules.dice);
    let saving = sheet.saving() > 0;
    let players = values.players();
    let fresh = Seat { state: SheetState { open: sheet.all_open(), upper: 0, held: 0 }, saved: 0, scored: 0 };
    let mut seats = vec![fresh; players];
    let mut mover = 0;
    let start = values.turn_start(&seats, mover)?;
    let (mut before, mut rerolls) = (start, rules.rerolls);
    let mut kept: Option<Dice> = None;
    let mut won_at_once: Option<(usize, usize)> = None;
    let mut decisions = Vec::new();
    let example = format!("{} keep {}", "3".repeat(n), "3".repeat(n - 1));
    let header: Vec<usize> = header(text).iter().map(|h| h.line).collect();
    for (i, raw) in text.lines().enumerate().filter(|(i, l)| !l.trim().is_empty() && !header.contains(&(i + 1))) {
        let line = raw.trim();
        let bad = |why: String| LookupError::GameText { line: i + 1, given: line.to_string(), why };
        if let Some((player, b)) = won_at_once {
            let name = &rules.boxes[b].name;
            return Err(bad(format!("the game is over: player {} won at once with a {name} served", player + 1)));
        }
        if seats[mover].state.open == 0 {
            return Err(bad("the game is over: every box is scored".into()));
        }
        let (who, decision) = player_written(line);
        match who {
            Some(who) if players == 1 => {
                return Err(bad(format!(
                    "player {who}: this game is played alone (a game against someone begins with players: 2)"
                )))
            }
            Some(who) if who.parse() != Ok(mover + 1) => {
                return Err(bad(format!(
                    "player {who} is written, but it is player {}'s turn: the players take turns, player 1 first, \
                     each scoring one box a turn",
                    mover + 1
                )))
            }
            _ => {}
        }
        let mut words = decision.split_whitespace();
        let (dice_text, step) = match (words.next(), words.next(), words.next(), words.next()) {
            (Some(d), Some("keep"), kept, None) => (d, Step::Keep(kept.unwrap_or(""))),
            (Some(d), Some("score"), Some(b), None) => (d, Step::Score(b)),
            _ => return Err(bad(format!("write the {n} dice, then keep DICE or score BOX, like {example}"))),
        };
        let dice = parse_dice(dice_text, n).map_err(&bad)?;
        if dice.len() != n {
            return Err(bad(format!("{dice_text} is {} dice: write all {n} showing", dice.len())));
        }
        if let Some(k) = kept.filter(|k| !holds(&dice, k)) {
            return Err(bad(format!("the dice do not hold the {k} kept")));
        }
        let options = values.options(&seats, mover, dice, rerolls)?;
        let find = |want: &dyn Fn(&RuleChoice) -> bool| options.iter().find(|(c, _)| want(c)).copied();
        let chosen = match step {
            Step::Keep(k) => {
                if rerolls == 0 {
                    return Err(bad("no rerolls are left: score a box".into()));
                }
                let keep = parse_dice(k, n).map_err(|why| bad(format!("keep {k}: {why}")))?;
                if keep.len() == n {
                    return Err(bad(format!("keeping all {n} dice is scoring now: write score BOX")));
                }
                find(&|c| matches!(c, RuleChoice::Keep(x) if *x == keep))
                    .ok_or_else(|| bad(format!("{keep} is not among these dice")))?
            }
            Step::Score(name) => {
                let b = rules.boxes.iter().position(|b| b.name.eq_ignore_ascii_case(name));
                let b = b.ok_or_else(|| bad(format!("{name} is not a box: the boxes are {}", box_names(sheet))))?;
                find(&|c| matches!(c, RuleChoice::Score(m) if m.box_index == b))
                    .ok_or_else(|| bad(format!("{name} is not open (or these dice may not score it now)")))?
            }
        };
        let best = options[0];
        let state = seats[mover].state;
        let reason = match parts.filter(|_| best.1 - chosen.1 > values.measure().tie() && !saving) {
            Some(parts) => Some(crate::reason::reason(sheet, parts, state, dice, rerolls, best.0, chosen.0)?),
            None => None,
        };
        let (line, dice) = (i + 1, dice.to_string());
        decisions.push(Decision { line, player: mover, dice, rerolls, before, best, chosen, reason });
        match chosen.0 {
            RuleChoice::Keep(k) => {
                rerolls -= 1;
                kept = Some(k);
                before = chosen.1;
            }
            // Against someone, a box served that wins ends the game: the mover's chance is 1.
            RuleChoice::Score(m) if m.wins && players == 2 => {
                let seat = &mut seats[mover];
                seat.scored += m.scored();
                seat.state = rules.after_scoring(state, m.box_index, m.points);
                won_at_once = Some((mover, m.box_index));
                before = chosen.1;
            }
            RuleChoice::Score(m) => {
                let seat = &mut seats[mover];
                seat.scored += m.scored();
                seat.state = rules.after_scoring(state, m.box_index, m.points);
                if saving {
                    seat.saved = u32::from(rerolls);
                }
                // The turn passes (the first player's sheet fills first: after
                // the second's last box, the value is the first's outcome).
                mover = (mover + 1) % players;
                rerolls = (u32::from(rules.rerolls) + seats[mover].saved) as u8;
                kept = None;
                before = values.turn_start(&seats, mover)?;
            }
        }
    }
    if decisions.is_empty() {
        let why = format!("no decision: write one a line, DICE keep DICE or DICE score BOX, like {example}");
        return Err(LookupError::GameText { line: 0, given: String::new(), why });
    }
    let sheets = seats
        .iter()
        .map(|s| {
            let bonus = match (s.state.open, rules.upper_bonus) {
                (0, Some(u)) if s.state.upper >= u32::from(u.at) => u32::from(u.points),
                _ => 0,
            };
            SheetTotal { scored: s.scored, bonus, open: s.state.open.count_ones() }
        })
        .collect();
    // The value where the text stops, for player 1: against someone, what the mover's chance leaves.
    let now = if mover == 0 { before } else { 1.0 - before };
    let (rule_set, turns, measure) = (rules.name.clone(), rules.boxes.len() as u32, values.measure());
    Ok(Review { rule_set, measure, start, decisions, sheets, won_at_once, now, turns })
}

/// `text` as `n` dice (any order), or why not.
fn parse_dice(text: &str, n: usize) -> Result<Dice, String> {
    if text.len() > n || !text.bytes().all(|b| (b'1'..=b'6').contains(&b)) {
        return Err(format!("{text:?} is not up to {n} dice, each 1 to 6"));
    }
    text.parse::<Dice>().map_err(|e| e.to_string())
}

/// Whether `dice` hold every die of `kept`.
fn holds(dice: &Dice, kept: &Dice) -> bool {
    let (have, want) = (dice.counts(), kept.counts());
    have.iter().zip(&want).all(|(h, w)| h >= w)
}

fn box_names(sheet: &Board) -> String {
    sheet.rules().boxes.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ")
}

//! A game of 10000 reviewed from its text: each throw replayed against a
//! 10000 table, with what the dice brought and what each keep gave away.
//!
//! Alone (`tenk`, alias `10000`) every turn is valued in expected banked
//! points under the table's play (the table of a player on the board: it
//! banks whatever the turn holds); against someone (`duel`, or
//! `duel-cardgames` for the cardgames rules) in each player's chance of
//! winning against a perfect opponent, with the table's entry and goal.
//!
//! The text has one throw a line: the dice thrown, what was kept and
//! whether the player then banked or threw on (`112345 keep 1 throw`,
//! `2356 keep 5 bank`), or a throw that scored nothing (`2346 bust`).
//! Against someone a line may begin with its player's number (`2: 2346
//! bust`), and the header may say `players: 2`. The turn passes after a
//! bank or a bust; six dice open each turn, and after a keep the dice left
//! are thrown (six again once every die has scored).
//!
//! The values chain as a score sheet's do: before a throw, the value of
//! throwing (a turn's start: the table's value of it); once the dice show,
//! the best keep's (the better of banking and throwing on after it), or a
//! bust's; after a keep, the value of what the player then did. A throw's
//! luck is its value less the value before it, a keep's loss the best
//! keep's value less the one taken. Alone, the banked points less the
//! turns' start values summed are the luck less the losses; against
//! someone, player 1's outcome (1 won, 0 lost) less player 1's chance at
//! the start is player 1's luck less player 2's, less player 1's losses
//! plus player 2's.

use dice_tables_reader::tenk::Then;
use dice_tables_reader::Dice;

use super::{accuracy, figures_json, header, header_fields, largest, player_written, rating, summed, Measure, Mover};
use crate::error::LookupError;
use crate::json::Json;

/// A 10000 table as a review reads it: each turn from its start, in its
/// mover's measure (expected banked points this turn, or the chance of
/// winning).
pub trait TenkValues {
    /// What the values count: [`Measure::Points`] (expected banked points
    /// of a turn) or [`Measure::Win`].
    fn measure(&self) -> Measure;
    /// The goal and the entry, against someone: banking to the goal wins,
    /// and a player with nothing banked banks only from the entry.
    fn goal(&self) -> Option<(u32, u32)>;
    /// The turn of the player with `me` banked against the opponent's `opp`.
    fn turn<'s>(&'s self, me: u32, opp: u32) -> Result<Box<dyn TenkTurn + 's>, LookupError>;
}

/// One turn of a 10000 table, in its mover's measure.
pub trait TenkTurn {
    /// The value of the turn's start: six dice to throw, nothing in the turn.
    fn start(&self) -> f64;
    /// The value once a throw has busted (alone 0; against someone the
    /// opponent's turn starts with the totals unchanged).
    fn bust(&self) -> f64;
    /// The keeps of `throw` at turn score `score` (before the throw), with
    /// the value of banking and of throwing on after each; none where the
    /// throw busts.
    fn keeps(&self, throw: Dice, score: u32) -> Result<Vec<TenkKeep>, LookupError>;
}

/// A keep of a throw and the value of each thing that may follow it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TenkKeep {
    /// The dice kept and what they score.
    pub keep: Dice,
    /// Their points.
    pub points: u32,
    /// The dice to throw next (six once every die has scored).
    pub dice_left: u8,
    /// The value of banking the turn score after it; `None` where banking
    /// is not allowed (below the entry).
    pub bank: Option<f64>,
    /// The value of throwing the dice left; `None` past the turn scores
    /// the table holds.
    pub throw: Option<f64>,
}

/// What a player did after a throw: kept dice, then banked or threw on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TenkChoice {
    /// The dice kept.
    pub keep: Dice,
    /// Their points.
    pub points: u32,
    /// The dice left to throw.
    pub dice_left: u8,
    /// Banked or threw on.
    pub then: Then,
}

/// One throw of a reviewed 10000 game.
#[derive(Clone, Debug, PartialEq)]
pub struct TenkDecision {
    /// Its line in the text (from 1).
    pub line: usize,
    /// Who threw: 0 for player 1 (the only player of a game alone).
    pub player: usize,
    /// The dice thrown, sorted.
    pub dice: Dice,
    /// The turn score before the throw.
    pub score: u32,
    /// The value before the throw.
    pub before: f64,
    /// The best keep and what to do after it, with its value; `None` for
    /// a bust.
    pub best: Option<(TenkChoice, f64)>,
    /// The keep taken and its value; `None` for a bust.
    pub chosen: Option<(TenkChoice, f64)>,
    /// The value once the dice show: the best keep's, or a bust's.
    pub after: f64,
    /// Where the keep gave something away: what the dice kept gave away
    /// (`keep`: the best keep's value less the best value after the dice
    /// taken) and what banking or throwing on after them did (`bank or
    /// throw`: that less the value taken); the two add up to the loss.
    pub reason: Option<crate::reason::Reason>,
}

impl Mover for TenkDecision {
    fn player(&self) -> usize {
        self.player
    }
}

impl TenkDecision {
    /// What the throw brought: its value less the value before it.
    pub fn luck(&self) -> f64 {
        self.after - self.before
    }

    /// What the keep gave away: the best's value less the one taken's (0 on a bust).
    pub fn loss(&self) -> f64 {
        match self.chosen {
            Some((_, chosen)) => self.after - chosen,
            None => 0.0,
        }
    }
}

/// A game of 10000, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct TenkReview {
    /// The game's name (`tenk`, `duel`, `duel-cardgames`).
    pub game: String,
    /// [`Measure::Points`] (alone: expected banked points a turn) or [`Measure::Win`].
    pub measure: Measure,
    /// Against someone, the goal and the entry.
    pub goal: Option<(u32, u32)>,
    /// The value of a turn's start for player 1: alone, the expected
    /// banked points of a turn; against someone, player 1's chance of
    /// winning at the game's start.
    pub turn_start: f64,
    /// Every throw, in order.
    pub decisions: Vec<TenkDecision>,
    /// Each player's banked total, player 1's first.
    pub totals: Vec<u32>,
    /// Each player's turns begun.
    pub turns: Vec<u32>,
    /// Against someone, who banked to the goal (0 for player 1).
    pub winner: Option<usize>,
    /// Player 1's value where the text stops: alone, the banked total and
    /// the value of the turn under way; against someone, the chance of winning.
    pub now: f64,
    /// Whether the text stops at a turn's end (or, against someone, the game's).
    pub between_turns: bool,
}

impl TenkReview {
    /// How many play: 1, or 2 against someone.
    pub fn players(&self) -> usize {
        self.totals.len()
    }

    /// The start's value for `player` (0 for player 1): alone, the start
    /// values of the turns played summed; against someone, player 2's
    /// chance is what player 1's leaves.
    pub fn start_of(&self, player: usize) -> f64 {
        match (self.measure, player) {
            (Measure::Win, 0) => self.turn_start,
            (Measure::Win, _) => 1.0 - self.turn_start,
            _ => f64::from(self.turns[0]) * self.turn_start,
        }
    }

    /// What the dice brought `player`, in their own measure.
    pub fn luck_of(&self, player: usize) -> f64 {
        summed(&self.decisions, player, TenkDecision::luck)
    }

    /// What `player`'s keeps gave away, in their own measure.
    pub fn loss_of(&self, player: usize) -> f64 {
        summed(&self.decisions, player, TenkDecision::loss)
    }

    /// The luck summed over player 1's throws (every throw of a game alone).
    pub fn luck(&self) -> f64 {
        self.luck_of(0)
    }

    /// The losses summed over player 1's keeps (every keep of a game alone).
    pub fn loss(&self) -> f64 {
        self.loss_of(0)
    }

    /// `player`'s accuracy, 0 to 100 ([`accuracy`]), against their own start.
    pub fn accuracy_of(&self, player: usize) -> f64 {
        accuracy(self.loss_of(player), self.start_of(player))
    }

    /// `player`'s rating; `None` where the game, so measured, has no
    /// reference players' figures. Alone, a game has no fixed length: it
    /// is rated by what its keeps gave away per turn, as 10000 alone's
    /// reference players are (each played until it banked 10,000).
    pub fn rating_of(&self, player: usize) -> Option<f64> {
        let loss = match self.measure {
            Measure::Win => self.loss_of(player),
            _ => self.loss_of(player) / f64::from(self.turns[player].max(1)),
        };
        rating(&self.measure.figures_of(&self.game), self.turn_start, loss)
    }

    /// A throw's accuracy, 0 to 100: the game's figure for one turn of its
    /// player's giving away what `d` did.
    pub fn decision_accuracy(&self, d: &TenkDecision) -> f64 {
        let turns = f64::from(self.turns[d.player].max(1));
        accuracy(turns * d.loss(), self.start_of(d.player))
    }

    /// Whether the game is over: against someone, a player banked to the
    /// goal (a game alone has no end: it is over at any turn's end).
    pub fn over(&self) -> bool {
        match self.measure {
            Measure::Win => self.winner.is_some(),
            _ => self.between_turns,
        }
    }

    /// What the game came to for player 1, once over: alone, the banked
    /// total; against someone, 1 won and 0 lost. It less player 1's start
    /// is player 1's luck less their losses (against someone, less player
    /// 2's luck, plus player 2's losses).
    pub fn outcome(&self) -> Option<f64> {
        match (self.measure, self.winner) {
            (Measure::Win, Some(w)) => Some(f64::from(u8::from(w == 0))),
            (Measure::Win, None) => None,
            _ => self.between_turns.then(|| f64::from(self.totals[0])),
        }
    }

    /// The `count` largest losses, largest first (ties in game order).
    pub fn largest_mistakes(&self, count: usize) -> Vec<&TenkDecision> {
        largest(&self.decisions, self.measure.tie(), TenkDecision::loss, count)
    }

    /// The review as JSON, in the shape of a score sheet's review: the
    /// start's value, the outcome (or the value where the text stops), the
    /// luck, losses, accuracy and rating (against someone each player's,
    /// under `players`), every throw and the largest mistakes' lines.
    pub fn to_json(&self) -> Json {
        let two = self.players() == 2;
        let decisions = self.decisions.iter().map(|d| {
            let mut fields = vec![("line", Json::Int(d.line as i64))];
            if two {
                fields.push(("player", Json::Int(d.player as i64 + 1)));
            }
            fields.extend([
                ("dice", Json::Str(d.dice.to_string())),
                ("score", Json::Int(d.score.into())),
                ("before", Json::Num(d.before)),
                ("value", Json::Num(d.after)),
            ]);
            match (d.chosen, d.best) {
                (Some((chosen, chosen_value)), Some((best, _))) => fields.extend([
                    ("chosen", choice_json(&chosen)),
                    ("best", choice_json(&best)),
                    ("chosen_value", Json::Num(chosen_value)),
                ]),
                _ => fields.push(("bust", Json::Bool(true))),
            }
            fields.extend([
                ("luck", Json::Num(d.luck())),
                ("loss", Json::Num(d.loss())),
                ("accuracy", Json::Num(self.decision_accuracy(d))),
            ]);
            if let Some(r) = &d.reason {
                fields.push(("reason", super::reason_json(r)));
            }
            Json::object(fields)
        });
        let decisions = Json::List(decisions.collect());
        let mistakes = self.largest_mistakes(5).iter().map(|d| Json::Int(d.line as i64)).collect();
        let mut fields = vec![("game", Json::Str(self.game.clone()))];
        if let Some((goal, entry)) = self.goal {
            fields.extend([("goal", Json::Int(goal.into())), ("entry", Json::Int(entry.into()))]);
        }
        let each = |f: &dyn Fn(usize) -> u32| Json::List((0..self.players()).map(|p| Json::Int(f(p).into())).collect());
        fields.push(("start", Json::Num(self.start_of(0))));
        if !two {
            fields.extend([("turn_start", Json::Num(self.turn_start)), ("turns", Json::Int(self.turns[0].into()))]);
        }
        match (self.outcome(), two) {
            (Some(_), false) => fields.push(("score", Json::Int(self.totals[0].into()))),
            (Some(outcome), true) => fields.extend([
                ("totals", each(&|p| self.totals[p])),
                ("turns", each(&|p| self.turns[p])),
                ("outcome", Json::Num(outcome)),
            ]),
            (None, false) => {
                fields.extend([("banked", Json::Int(self.totals[0].into())), ("now", Json::Num(self.now))])
            }
            (None, true) => fields.extend([
                ("totals", each(&|p| self.totals[p])),
                ("turns", each(&|p| self.turns[p])),
                ("now", Json::Num(self.now)),
            ]),
        }
        let figures = |p: usize| figures_json(self.luck_of(p), self.loss_of(p), self.accuracy_of(p), self.rating_of(p));
        if two {
            let players = (0..2).map(|p| {
                let mut player = vec![("player", Json::Int(p as i64 + 1)), ("start", Json::Num(self.start_of(p)))];
                player.extend(figures(p));
                Json::object(player)
            });
            fields.push(("players", Json::List(players.collect())));
        } else {
            fields.extend(figures(0));
        }
        fields.extend([("decisions", decisions), ("largest_mistakes", Json::List(mistakes))]);
        Json::object(fields)
    }
}

/// A keep as the 10000 lookups write it: `{"keep": "15", "points": 150, "dice_left": 4, "then": "throw"}`.
fn choice_json(c: &TenkChoice) -> Json {
    Json::object(vec![
        ("keep", Json::Str(c.keep.to_string())),
        ("points", Json::Int(c.points.into())),
        ("dice_left", Json::Int(c.dice_left.into())),
        ("then", Json::Str(then_word(c.then).into())),
    ])
}

/// `bank` or `throw`, as a game's text and the lookups write it.
pub fn then_word(then: Then) -> &'static str {
    match then {
        Then::Bank => "bank",
        Then::Throw => "throw",
    }
}

/// One line of a 10000 game's text, its player's number taken off.
enum Throw {
    Kept { keep: Dice, then: Then },
    Bust,
}

/// The 10000 game `text` of `game` replayed against `values` and reviewed
/// (see the module's page). A line that does not follow the rules (dice
/// other than those to throw, a keep that does not score, a bank below the
/// entry, a line after the game is won) is refused, naming it; so is a
/// target, given (`target`) or in the header: 10000 is not played for one.
pub fn review_tenk(
    game: &str,
    values: &dyn TenkValues,
    target: Option<u32>,
    text: &str,
) -> Result<TenkReview, LookupError> {
    let heading = header(text);
    let fields = header_fields(&heading)?;
    let measure = values.measure();
    let players = if measure == Measure::Win { 2 } else { 1 };
    let refuse = |why: String| LookupError::GameText { line: 0, given: String::new(), why };
    if let Some(target) = target.or(fields.target) {
        let how = if players == 2 { "each player's chance of winning" } else { "expected banked points" };
        return Err(refuse(format!("a game of {game} is reviewed in {how}, not played for {target}: name no target")));
    }
    if fields.players.is_some_and(|p| p != players) {
        let how = if players == 2 {
            format!("{game} is played by two (10000 alone is tenk)")
        } else {
            format!("{game} is 10000 alone (against someone it is duel, or duel-cardgames)")
        };
        return Err(refuse(format!("players: {}: {how}", fields.players.unwrap_or(0))));
    }
    let goal = values.goal();
    let example = "112345 keep 15 throw";
    let mut totals = vec![0u32; players];
    let mut turns = vec![0u32; players];
    let mut mover = 0;
    let mut turn = values.turn(0, 0)?;
    let turn_start = turn.start();
    let (mut before, mut score, mut to_throw) = (turn_start, 0u32, 6usize);
    let mut winner: Option<usize> = None;
    let mut decisions = Vec::new();
    // Each count of dice's chance of a bust, worked out once a reason needs it.
    let mut busts = [None; 7];
    let header_lines: Vec<usize> = heading.iter().map(|h| h.line).collect();
    for (i, raw) in text.lines().enumerate().filter(|(i, l)| !l.trim().is_empty() && !header_lines.contains(&(i + 1))) {
        let line = raw.trim();
        let bad = |why: String| LookupError::GameText { line: i + 1, given: line.to_string(), why };
        if let (Some(w), Some((goal, _))) = (winner, goal) {
            return Err(bad(format!("the game is over: player {} banked {}, reaching {goal}", w + 1, totals[w])));
        }
        let (who, written) = player_written(line);
        match who {
            Some(who) if players == 1 => {
                return Err(bad(format!("player {who}: a game of {game} is played alone (against someone: duel)")))
            }
            Some(who) if who.parse() != Ok(mover + 1) => {
                return Err(bad(format!(
                    "player {who} is written, but it is player {}'s turn: the players take turns, player 1 \
                     first, each turn ending with a bank or a bust",
                    mover + 1
                )))
            }
            _ => {}
        }
        let mut words = written.split_whitespace();
        let (dice_text, step) = match (words.next(), words.next(), words.next(), words.next(), words.next()) {
            (Some(d), Some("bust"), None, None, None) => (d, Ok(Throw::Bust)),
            (Some(d), Some("keep"), Some(k), Some(then @ ("bank" | "throw")), None) => {
                let then = if then == "bank" { Then::Bank } else { Then::Throw };
                (d, parse_throw(k).map(|keep| Throw::Kept { keep, then }).map_err(|why| format!("keep {k}: {why}")))
            }
            _ => {
                return Err(bad(format!(
                    "write the dice thrown, then keep DICE bank, keep DICE throw or bust, like {example}"
                )))
            }
        };
        let dice = parse_throw(dice_text).map_err(&bad)?;
        let step = step.map_err(&bad)?;
        if dice.len() != to_throw {
            let why = if score == 0 { "six open each turn".to_string() } else { format!("{to_throw} were left") };
            return Err(bad(format!("{dice_text} is {} dice: {to_throw} are thrown ({why})", dice.len())));
        }
        if score == 0 {
            turns[mover] += 1;
        }
        let keeps = turn.keeps(dice, score)?;
        let best = best_of(&keeps);
        let after = best.map_or(turn.bust(), |(_, v)| v);
        let decision = |chosen: Option<(TenkChoice, f64)>, reason| TenkDecision {
            line: i + 1,
            player: mover,
            dice,
            score,
            before,
            best,
            chosen,
            after,
            reason,
        };
        let ended = match step {
            Throw::Bust if keeps.is_empty() => {
                decisions.push(decision(None, None));
                true
            }
            Throw::Bust => {
                let some = keeps.iter().map(|k| k.keep.to_string()).collect::<Vec<_>>().join(", ");
                return Err(bad(format!("{dice} scores (its keeps: {some}): write what was kept, like {example}")));
            }
            Throw::Kept { .. } if keeps.is_empty() => {
                return Err(bad(format!("{dice} scores nothing: it is a bust, written {dice} bust")));
            }
            Throw::Kept { keep, then } => {
                // Dice that score two ways (114444 under the cardgames
                // rules: 1500 or 1200) score the most: listed first.
                let Some(k) = keeps.iter().find(|k| k.keep == keep) else {
                    let some = keeps.iter().map(|k| k.keep.to_string()).collect::<Vec<_>>().join(", ");
                    return Err(bad(format!("keep {keep} is not a scoring keep of {dice}: its keeps are {some}")));
                };
                // (Saturating: a text may throw on far past any goal.)
                let turn_score = score.saturating_add(k.points);
                let value = match then {
                    Then::Bank => k.bank.ok_or_else(|| {
                        let entry = goal.map_or(0, |(_, entry)| entry);
                        bad(format!(
                            "banking {turn_score} is not allowed: with nothing banked a player banks from {entry}"
                        ))
                    })?,
                    Then::Throw => k.throw.ok_or_else(|| {
                        bad(format!("throwing on at a turn score of {turn_score} is past what the table holds"))
                    })?,
                };
                let choice = TenkChoice { keep, points: k.points, dice_left: k.dice_left, then };
                let reason = match after - value > measure.tie() {
                    true => reason(&mut busts, &*turn, measure, k, (choice, value), best)?,
                    false => None,
                };
                decisions.push(decision(Some((choice, value)), reason));
                match then {
                    Then::Bank => {
                        totals[mover] = totals[mover].saturating_add(turn_score);
                        before = value;
                        true
                    }
                    Then::Throw => {
                        (score, to_throw, before) = (turn_score, usize::from(k.dice_left), value);
                        false
                    }
                }
            }
        };
        if !ended {
            continue;
        }
        if goal.is_some_and(|(goal, _)| totals[mover] >= goal) {
            winner = Some(mover);
            continue;
        }
        // The turn passes (alone, the next turn is the player's own).
        let next = (mover + 1) % players;
        turn = values.turn(totals[next], totals[mover])?;
        // Alone, a turn's values start afresh; against someone the turn's
        // start is what the mover's last value leaves (1 less it).
        before = turn.start();
        (mover, score, to_throw) = (next, 0, 6);
    }
    if decisions.is_empty() {
        let why = format!(
            "no throw: write one a line, DICE keep DICE bank, DICE keep DICE throw or DICE bust, like {example}"
        );
        return Err(refuse(why));
    }
    let between_turns = score == 0;
    let now = match measure {
        Measure::Win if winner.is_some() => f64::from(u8::from(winner == Some(0))),
        Measure::Win if mover == 0 => before,
        Measure::Win => 1.0 - before,
        // Alone: the banked points and the turn under way's value.
        _ if between_turns => f64::from(totals[0]),
        _ => f64::from(totals[0]) + before,
    };
    Ok(TenkReview {
        game: game.to_string(),
        measure,
        goal,
        turn_start,
        decisions,
        totals,
        turns,
        winner,
        now,
        between_turns,
    })
}

/// Why the best keep and what follows it (`best`) is better than the keep
/// taken (`k`, then `chosen`): the keep's part, the best value after the
/// best keep less the best after the dice taken, and the part of banking
/// or throwing on after them, that less the value taken; in words, the
/// parts that gave something away, each side's throwing on with the
/// chance that its dice score nothing (the risk a bank avoids).
fn reason(
    busts: &mut [Option<f64>; 7],
    turn: &dyn TenkTurn,
    measure: Measure,
    k: &TenkKeep,
    chosen: (TenkChoice, f64),
    best: Option<(TenkChoice, f64)>,
) -> Result<Option<crate::reason::Reason>, LookupError> {
    let (Some((best, best_value)), Some(own)) = (best, best_of(std::slice::from_ref(k))) else { return Ok(None) };
    let (keep_part, then_part) = (best_value - own.1, own.1 - chosen.1);
    let amount = |x: f64| match measure {
        Measure::Win => format!("{:+.2} % chance", 100.0 * x),
        _ => format!("{x:+.2} points"),
    };
    let mut then = |c: TenkChoice| -> Result<String, LookupError> {
        Ok(match c.then {
            Then::Bank => "bank".to_string(),
            Then::Throw => {
                let dice = if c.dice_left == 1 { "die" } else { "dice" };
                let bust = match busts[usize::from(c.dice_left)] {
                    Some(bust) => bust,
                    None => *busts[usize::from(c.dice_left)].insert(bust_chance(turn, c.dice_left)?),
                };
                let bust = 100.0 * bust;
                format!("throw {} {dice} (a bust {bust:.1} %)", c.dice_left)
            }
        })
    };
    let mut words = Vec::new();
    if keep_part > measure.tie() {
        let (better, worse) = (then(best)?, then(own.0)?);
        words.push(format!(
            "keep {} and {better} rather than {} and {worse} {}",
            best.keep,
            own.0.keep,
            amount(keep_part)
        ));
    }
    if then_part > measure.tie() {
        let (better, worse) = (then(own.0)?, then(chosen.0)?);
        words.push(format!("then {better} rather than {worse} {}", amount(then_part)));
    }
    let parts = vec![("keep".to_string(), keep_part), ("bank or throw".to_string(), then_part)];
    Ok(Some(crate::reason::Reason { parts, text: words.join(", ") }))
}

/// The chance that `dice` dice thrown score nothing under the turn's rules:
/// each throw of them weighed by its chance, a bust where it has no keep.
fn bust_chance(turn: &dyn TenkTurn, dice: u8) -> Result<f64, LookupError> {
    let n = usize::from(dice);
    // Fewer than six dice are thrown only after points kept.
    let score = if n == dice_tables_reader::tenk::DICE { 0 } else { dice_tables_reader::tenk::STEP };
    let mut bust = 0.0;
    for rank in 0..dice_tables_reader::dice::multiset_count(n) {
        let throw = Dice::unrank(n, rank).expect("every rank below the count is a throw");
        if turn.keeps(throw, score)?.is_empty() {
            bust += throw.probability();
        }
    }
    Ok(bust)
}

/// The best keep of a throw and what to do after it, with its value (the
/// first of the highest, banking before throwing on); `None` for a bust.
fn best_of(keeps: &[TenkKeep]) -> Option<(TenkChoice, f64)> {
    let mut best: Option<(TenkChoice, f64)> = None;
    for k in keeps {
        for (then, value) in [(Then::Bank, k.bank), (Then::Throw, k.throw)] {
            let Some(value) = value else { continue };
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((TenkChoice { keep: k.keep, points: k.points, dice_left: k.dice_left, then }, value));
            }
        }
    }
    best
}

/// `text` as 1 to 6 dice (any order), or why not.
fn parse_throw(text: &str) -> Result<Dice, String> {
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| (b'1'..=b'6').contains(&b)) {
        return Err(format!("{text:?} is not 1 to 6 dice, each 1 to 6"));
    }
    text.parse::<Dice>().map_err(|e| e.to_string())
}

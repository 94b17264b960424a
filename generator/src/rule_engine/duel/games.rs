//! Two-player games of a rule set played with dice, to set beside the
//! exact figures ([`super::versus`]): the solve's player decides every
//! roll from its table's chances of the states its options lead to (as
//! its lookups give them), worked out again here a turn at a time with
//! the keep lattice; the max-expected-score player as the rule set's own
//! table's lookups decide ([`super::versus::Expected`]).

use std::collections::HashMap;

use rayon::prelude::*;

use super::versus::Expected;
use super::{Layer, Replay};
use crate::dice::{keep_graph, KeepGraph};
use crate::play::DiceRng;
use crate::rule_engine::NotSolved;
use dice_tables_reader::dice::{multiset_count, Dice};
use dice_tables_reader::rule_sheet::{RuleChoice, RuleDuel, TurnPlan};
use dice_tables_reader::rules::{RuleSet, SheetState};
use dice_tables_reader::TableError;

/// Every turn start's chance, as the table's lookups give it: the second
/// player's read from the table, the first player's (which the table does
/// not store) solved once from it ([`Replay`]) and kept, each rounded to
/// an `f32`: a second player's turn needs dozens, each a turn solved where
/// read through a lookup.
pub struct TurnStarts<'a> {
    table: &'a RuleDuel,
    /// Per layer: where each mover's pairs begin, and the chances (empty
    /// for the stored layers).
    firsts: Vec<(Vec<u64>, Vec<f32>)>,
}

impl<'a> TurnStarts<'a> {
    /// Solves the first player's turn starts from `table` as `open()`
    /// opens it (each stored layer read through a view of its own).
    pub fn solve(table: &'a RuleDuel, open: &dyn Fn() -> Result<RuleDuel, TableError>) -> Result<Self, NotSolved> {
        let (rules, sheets) = (table.rules(), table.sheets());
        let mut firsts = vec![(Vec::new(), Vec::new()); sheets.top() + 1];
        let replay = Replay::new(rules, sheets, open);
        let mut layer = Layer::settled(sheets);
        for (n, first) in firsts.iter_mut().enumerate().skip(1) {
            layer = replay.next(n, layer)?;
            if n.is_multiple_of(2) {
                *first = (sheets.layer_blocks(n), layer.values.iter().map(|&v| v as f32).collect());
            }
        }
        Ok(TurnStarts { table, firsts })
    }

    /// `V(me, opp, d)`: the mover's chance at a turn's start, `d` the lead
    /// with the bonuses reached counted.
    fn value(&self, me: SheetState, opp: SheetState, d: i64) -> f64 {
        let sheets = self.table.sheets();
        let (k, i) = sheets.find(me.open, me.upper, me.held).expect("a sheet of the game");
        let (l, j) = sheets.find(opp.open, opp.upper, opp.held).expect("a sheet of the game");
        if k + l == 0 {
            return f64::from(d.signum() as i32 + 1) / 2.0;
        }
        let n = k + l;
        let at = |len: usize| (d + i64::from(sheets.by_size[k][i].most) + 1).clamp(0, len as i64 - 1) as usize;
        match &self.firsts[n] {
            (block, values) if !block.is_empty() => {
                let start = (block[i] + sheets.pair_offset(n, i, j)) as usize;
                f64::from(values[start + at(sheets.pair_len(n, i, j))])
            }
            _ => {
                let row = self.table.stored_pair(n, i, j).expect("a second player's pair is stored");
                let row = row.expect("the table's chunks read");
                row[at(row.len())]
            }
        }
    }
}

/// How a seat plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The solve's decisions.
    Table,
    /// The rule set's own table's decisions: the most points on average.
    Expected,
}

/// One player's sheet and points.
#[derive(Clone, Copy)]
struct Player {
    sheet: SheetState,
    /// Points scored, each upper bonus counted once reached.
    points: i64,
}

/// What one game came to: the first player's result (1 a win, 1/2 a tie,
/// 0 a loss) and whether it ended on a box that wins at once.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// The first player's result.
    pub first: f64,
    /// Ended on a box that wins at once.
    pub at_once: bool,
}

/// A move: (box, points, extra bonus), as the rules score it.
type Scored = (usize, u16, u16);

/// The solve's player's best play of every roll of one turn.
struct TablePlan {
    /// Per rerolls left (the last: the turn's first roll), per roll by
    /// rank: its best move's value and the move (box, points, bonus).
    stops: Vec<Vec<(f64, Scored)>>,
    /// Per rerolls left after the keep, per keep (graded rank): its value.
    keeps: Vec<Vec<f64>>,
}

/// Plays games of `rules`.
pub struct Games<'a> {
    rules: &'a RuleSet,
    starts: &'a TurnStarts<'a>,
    expected: &'a Expected,
    graph: &'static KeepGraph,
    dice: usize,
    /// Per roll (by rank): its dice and face counts.
    rolls: Vec<(Dice, [u8; 6])>,
}

/// The most turns' plays one stream of games keeps.
const MOST_PLANS: usize = 20_000;

impl<'a> Games<'a> {
    /// Games of `rules` from its two-player table's turn starts and its own table.
    pub fn new(rules: &'a RuleSet, starts: &'a TurnStarts<'a>, expected: &'a Expected) -> Games<'a> {
        let dice = usize::from(rules.dice);
        let rolls = (0..multiset_count(dice))
            .map(|r| {
                let d = Dice::unrank(dice, r).expect("a rank below the count");
                (d, d.counts())
            })
            .collect();
        Games { rules, starts, expected, graph: keep_graph(dice), dice, rolls }
    }

    /// The mean of the first player's results over `games` games and its
    /// standard error, and the share of games that ended on a box that wins
    /// at once. Each block of games has its own stream of dice, so the
    /// figures do not depend on the thread count.
    pub fn play_many(&self, seats: [Seat; 2], games: u64, seed: u64) -> (f64, f64, f64) {
        const BLOCK: u64 = 1000;
        let sums = (0..games.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let mut rng = DiceRng::new(seed.wrapping_mul(0x1000_0000_0000) ^ b);
                let mut plans = (HashMap::new(), HashMap::new());
                let mut sums = (0.0, 0.0, 0u64);
                for _ in 0..BLOCK.min(games - b * BLOCK) {
                    let o = self.play(seats, &mut rng, &mut plans);
                    sums = (sums.0 + o.first, sums.1 + o.first * o.first, sums.2 + u64::from(o.at_once));
                }
                sums
            })
            .collect::<Vec<_>>();
        let (sum, squares, at_once) = sums.iter().fold((0.0, 0.0, 0), |a, s| (a.0 + s.0, a.1 + s.1, a.2 + s.2));
        let n = games as f64;
        let mean = sum / n;
        let var = (squares / n - mean * mean) * n / (n - 1.0);
        (mean, (var / n).sqrt(), at_once as f64 / n)
    }

    /// One game from the start.
    #[allow(clippy::type_complexity)]
    fn play(
        &self,
        seats: [Seat; 2],
        rng: &mut DiceRng,
        plans: &mut (HashMap<(SheetState, SheetState, i64), TablePlan>, HashMap<SheetState, TurnPlan>),
    ) -> Outcome {
        let rules = self.rules;
        let all = (1u32 << rules.boxes.len()) - 1;
        let start = Player { sheet: SheetState { open: all, upper: 0, held: 0 }, points: 0 };
        let mut players = [start; 2];
        let turns = 2 * rules.boxes.len();
        for turn in 0..turns {
            let (me, other) = (turn % 2, 1 - turn % 2);
            let (mine, theirs) = (players[me], players[other]);
            let lead = mine.points - theirs.points;
            let (scored, served) = match seats[me] {
                Seat::Table => {
                    let key = (self.canonical(mine.sheet), self.canonical(theirs.sheet), lead);
                    let fresh;
                    let plan = match plans.0.len() < MOST_PLANS || plans.0.contains_key(&key) {
                        true => plans.0.entry(key).or_insert_with(|| self.table_plan(mine.sheet, theirs.sheet, lead)),
                        false => {
                            fresh = self.table_plan(mine.sheet, theirs.sheet, lead);
                            &fresh
                        }
                    };
                    self.roll_turn(rng, |dice, rerolls| self.table_choice(plan, dice, rerolls))
                }
                Seat::Expected => {
                    let key = self.canonical(mine.sheet);
                    let plan = plans.1.entry(key).or_insert_with(|| self.expected.turn_plan(key));
                    self.roll_turn(rng, |dice, rerolls| match plan.best(dice, rerolls).expect("a box is open") {
                        RuleChoice::Keep(k) => Err(k),
                        RuleChoice::Score(m) => Ok((m.box_index, m.points, m.bonus)),
                    })
                }
            };
            let (b, p, e) = scored;
            if served && p > 0 && rules.boxes[b].wins {
                return Outcome { first: if me == 0 { 1.0 } else { 0.0 }, at_once: true };
            }
            let first_bonus = if served && p > 0 { rules.boxes[b].first_roll } else { 0 };
            let after = rules.after_scoring(mine.sheet, b, p);
            players[me] = Player {
                sheet: after,
                points: mine.points
                    + i64::from(p)
                    + i64::from(e)
                    + i64::from(first_bonus)
                    + self.crossing(mine.sheet, after),
            };
        }
        let first = match players[0].points.cmp(&players[1].points) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        Outcome { first, at_once: false }
    }

    /// A sheet with its upper total capped at the bonus's threshold (the
    /// same future, the same plans).
    fn canonical(&self, s: SheetState) -> SheetState {
        let cap = self.rules.upper_bonus.map_or(0, |b| u32::from(b.at));
        SheetState { upper: s.upper.min(cap), ..s }
    }

    /// The upper bonus scoring from `from` into `after` reaches.
    fn crossing(&self, from: SheetState, after: SheetState) -> i64 {
        self.rules
            .upper_bonus
            .filter(|b| from.upper < u32::from(b.at) && after.upper >= u32::from(b.at))
            .map_or(0, |b| i64::from(b.points))
    }

    /// One turn's rolls: fresh dice, then as long as `decide(dice, rerolls
    /// left)` keeps some (`Err(keep)`, only with a reroll left), the rest
    /// rerolled. Returns the move scored and whether it scored the turn's
    /// first roll.
    fn roll_turn(&self, rng: &mut DiceRng, mut decide: impl FnMut(Dice, u8) -> Result<Scored, Dice>) -> (Scored, bool) {
        let n = self.dice;
        let throw = |faces: &mut Vec<u8>, rng: &mut DiceRng| faces.extend((faces.len()..n).map(|_| rng.die()));
        let mut faces = Vec::with_capacity(n);
        throw(&mut faces, rng);
        let mut rerolls = self.rules.rerolls;
        loop {
            let dice = Dice::from_faces(&faces).expect("a roll of the game's dice");
            match decide(dice, rerolls) {
                Err(keep) => {
                    assert!(rerolls > 0 && keep.len() < n, "a keep of fewer dice with a reroll left");
                    faces = keep.faces().collect();
                    throw(&mut faces, rng);
                    rerolls -= 1;
                }
                Ok(m) => return (m, rerolls == self.rules.rerolls),
            }
        }
    }

    /// The solve's player's option of `dice` with `rerolls` left: its best
    /// move unless a keep of fewer dice is worth more (the first such keep
    /// in [`Dice::sub_multisets`] order).
    fn table_choice(&self, plan: &TablePlan, dice: Dice, rerolls: u8) -> Result<Scored, Dice> {
        let (mut best, m) = plan.stops[usize::from(rerolls)][dice.rank()];
        let mut keep = None;
        if rerolls > 0 {
            for k in dice.sub_multisets().filter(|k| k.len() < self.dice) {
                let v = plan.keeps[usize::from(rerolls) - 1][k.graded_rank()];
                if v > best {
                    (best, keep) = (v, Some(k));
                }
            }
        }
        keep.map_or(Ok(m), Err)
    }

    /// The solve's player's turn from `me` against `opp` at `lead` (the
    /// bonuses reached counted): each roll's best move and each keep's
    /// value, from the table's chances of the opponent's turns they lead to.
    fn table_plan(&self, me: SheetState, opp: SheetState, lead: i64) -> TablePlan {
        let rules = self.rules;
        let rerolls = usize::from(rules.rerolls);
        let allowed = rules.allowed(me.open);
        // A move's value by (box, points, bonus, first roll).
        let mut valued: HashMap<(usize, u16, u16, bool), f64> = HashMap::new();
        let mut value_of = |b: usize, p: u16, e: u16, first: bool| -> f64 {
            *valued.entry((b, p, e, first)).or_insert_with(|| {
                let scored = first && p > 0;
                if scored && rules.boxes[b].wins {
                    return 1.0;
                }
                let after = rules.after_scoring(me, b, p);
                let first_bonus = if scored { rules.boxes[b].first_roll } else { 0 };
                let d = lead + i64::from(p) + i64::from(e) + i64::from(first_bonus) + self.crossing(me, after);
                1.0 - self.starts.value(opp, after, -d)
            })
        };
        let mut stop_row = |first: bool| -> Vec<(f64, Scored)> {
            self.rolls
                .iter()
                .map(|(_, counts)| {
                    let mut best = (f64::NEG_INFINITY, (0, 0, 0));
                    rules.scores(me.open, allowed, me.held, counts, |b, p, e| {
                        let v = value_of(b, p, e, first);
                        if v > best.0 {
                            best = (v, (b, p, e));
                        }
                    });
                    best
                })
                .collect()
        };
        let later = stop_row(false);
        let first = stop_row(true);
        let mut stops = vec![later; rerolls];
        stops.push(first);
        let partial = self.graph.partial;
        let mut keeps = Vec::with_capacity(rerolls);
        let mut values = vec![0.0; self.graph.keeps()];
        for (r, s) in stops[0].iter().enumerate() {
            values[partial + r] = s.0;
        }
        let mut scratch = vec![(0.0, 0); self.graph.keeps()];
        let (mut best, mut best_keep) = (vec![0.0; self.rolls.len()], vec![0; self.rolls.len()]);
        for stop in &stops[1..] {
            self.graph.keep_values(&mut values);
            keeps.push(values[..partial].to_vec());
            // Each roll's value with a reroll more left: the best of its
            // move and its keeps.
            let stop: Vec<f64> = stop.iter().map(|s| s.0).collect();
            self.graph.best_keeps(&values, &stop, &mut scratch, &mut best, &mut best_keep);
            values[partial..].copy_from_slice(&best);
        }
        TablePlan { stops, keeps }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule_engine::duel::versus::versus_with;
    use crate::rule_sets::preset;
    use dice_tables_reader::Game;

    /// Games played with dice by the table's decisions come to its exact
    /// figures (within 4 standard errors; the dice are seeded): against
    /// itself, how often a served generala ends it, and against the
    /// max-expected-score player in each seat.
    #[test]
    fn games_played_by_the_table_come_to_its_exact_figures() {
        // ones, fours, a straight and generala.
        let rules = super::super::tests::reduced(&preset("generala").unwrap(), 1 | 1 << 3 | 1 << 6 | 1 << 9);
        let bytes = super::super::table(&rules, &mut |_, _| {}).unwrap().encode();
        let open = || RuleDuel::from_vec(bytes.clone());
        let expected = Expected::new(&rules).unwrap();
        let v = versus_with(&rules, &expected, &open, None, &mut |_, _| {}).unwrap();
        let table = open().unwrap();
        let starts = TurnStarts::solve(&table, &open).unwrap();
        let games = Games::new(&rules, &starts, &expected);
        let within = |what: &str, (share, se): (f64, f64), exact: f64| {
            assert!(se > 0.0 && (share - exact).abs() < 4.0 * se, "{what}: {share} (se {se}) against {exact}");
        };
        let n = 40_000;
        let (first, se, at_once) = games.play_many([Seat::Table; 2], n, 1);
        within("the first player's share", (first, se), v.first);
        let p = v.ends_at_once.unwrap();
        assert!(p > 0.001, "{p}");
        within("games ended on a served generala", (at_once, (p * (1.0 - p) / n as f64).sqrt()), p);
        let (first, se, _) = games.play_many([Seat::Table, Seat::Expected], n, 2);
        within("the table's player moving first", (first, se), v.table_first);
        let (first, se, _) = games.play_many([Seat::Expected, Seat::Table], n, 3);
        within("the table's player moving second", (1.0 - first, se), v.table_second);
    }
}

//! A rule set played by two players (`NAME-duel.dtab`, game id
//! `rules-duel`): the exact chance of winning against a perfect opponent,
//! a tie counting half, for every state of both sheets and every lead
//! ([`super::duel`] lays them out). The table stores the second player's
//! turn starts (the mover one box more open than the opponent); a first
//! player's turn start is one turn solved from them at lookup time, since
//! every first player's move leads to a second player's turn start.
//!
//! Leads given to lookups are the mover's points so far less the
//! opponent's, upper bonuses not counted (each sheet's upper total says
//! whether its bonus is paid).
//!
//! ```no_run
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::rules::SheetState;
//! use dice_tables_reader::Tables;
//! // `make optional-tables` writes tables/generala-duel.dtab.
//! let tables = Tables::open_default()?;
//! let duel = tables.rule_duel("generala")?;
//! let start = SheetState { open: duel.all_open(), upper: 0, held: 0 };
//! // The first player's chance of winning a whole game.
//! let p = duel.chance(start, start, 0)?;
//! assert!((p - 0.4948350).abs() < 1e-6);
//! # Ok(()) }
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::duel::Sheets;
use super::turn::{Move, RollOptions, RuleChoice};
use super::{Board, Shape};
use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind};
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::lead_chances::{decode_segment, PLANES, UNITS, VALUE_CHUNK};
use crate::rules::SheetState;

/// The game id of every rule set's two-player table.
pub const DUEL_ID: &str = "rules-duel";

/// The file stem of rule set `name`'s two-player table: `NAME-duel`.
pub fn duel_stem(name: &str) -> String {
    format!("{name}-duel")
}

/// The most chances a table may store.
const MOST_VALUES: i64 = 1 << 34;

/// A rule set's two-player table's parameters: its sheet's shape and how
/// many chances it stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelShape {
    /// The sheet's shape, as the rule set's own table has it.
    pub shape: Shape,
    /// Chances stored (the second player's turn starts, every lead).
    pub values: u64,
}

/// The sections: `rules`, the rules as canonical text; `v`, the chances
/// ([`crate::lead_chances`]).
pub const DUEL_SECTIONS: [SectionSpec<DuelShape>; 2] = [
    SectionSpec::new(0, "rules", DType::U8, Encoding::Raw, |s: &DuelShape| vec![u64::from(s.shape.rules_bytes)]),
    SectionSpec::new(1, crate::lead_chances::SECTION, DType::U8, Encoding::Zstd, |s: &DuelShape| {
        vec![s.values * PLANES as u64]
    })
    .chunked((VALUE_CHUNK * PLANES) as u64),
];

/// A rule set's two-player table.
pub struct RuleDuel {
    t: Checked<RuleDuel>,
    board: Board,
    sheets: Sheets,
    /// Per layer (boxes open on both sheets), where each mover's pairs
    /// begin in the section (stored layers only, the odd ones; the others
    /// empty): worked out once at open, where a lookup reads hundreds of pairs.
    mover_starts: Vec<Vec<u64>>,
    /// Per roll (by rank): its faces' counts and each box's points, and
    /// past the most points any box scores: worked out once, where a turn
    /// solved at lookup time scores every roll.
    rolls: Vec<([u8; 6], Vec<u16>)>,
    points_bound: usize,
}

impl std::fmt::Debug for RuleDuel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleDuel").field("rules", &self.rules.name).field("values", &self.t.params().values).finish()
    }
}

/// The sheet's rules and how states are told apart: [`Board`]'s methods
/// (`rules`, `parse_mask`, ...) are the table's.
impl std::ops::Deref for RuleDuel {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

/// Where each mover's pairs of each stored layer begin in the section,
/// and the chances stored in all.
fn mover_starts(sheets: &Sheets) -> (Vec<Vec<u64>>, u64) {
    let mut starts = vec![Vec::new(); sheets.top() + 1];
    let mut at = 0;
    for n in (1..=sheets.top()).step_by(2) {
        let blocks = sheets.layer_blocks(n);
        let (movers, end) = blocks.split_at(blocks.len() - 1);
        starts[n] = movers.iter().map(|b| at + b).collect();
        at += end[0];
    }
    (starts, at)
}

/// The rules a table carries, with its sheets: refused where they do not
/// fit a two-player table.
fn read_rules(t: &Checked<RuleDuel>) -> Result<(Board, Sheets, Vec<Vec<u64>>), TableError> {
    let p = t.params();
    let board = Board::read(t.whole(&DUEL_SECTIONS[0])?, p.shape)?;
    let bad = |why: String| TableError::section("rules", why);
    Sheets::check_size(board.rules()).map_err(bad)?;
    let sheets = Sheets::of(board.rules());
    let (starts, values) = mover_starts(&sheets);
    if values != p.values {
        let why = format!("is {}, where the rules' two-player game stores {values}", p.values);
        return Err(TableErrorKind::BadParam { name: "values", why }.into());
    }
    Ok((board, sheets, starts))
}

impl Game for RuleDuel {
    const ID: &'static str = DUEL_ID;
    const BUILT_BY: &'static [&'static str] = &["optional-tables"];
    type Params = DuelShape;
    const SECTIONS: &'static [SectionSpec<DuelShape>] = &DUEL_SECTIONS;

    fn params(header: &Header) -> Result<DuelShape, TableError> {
        crate::lead_chances::check_differences(header)?;
        let shape = Shape::from_header(header)?;
        if shape.saving > 0 {
            let why = "is given: a two-player table's rules save no rerolls".into();
            return Err(TableErrorKind::BadParam { name: "saving", why }.into());
        }
        Ok(DuelShape { shape, values: param_in(header, "values", 0..=MOST_VALUES)? as u64 })
    }

    fn header_params(p: &DuelShape) -> Vec<(&'static str, i64)> {
        let mut out = p.shape.header_params();
        out.push(("values", p.values as i64));
        out.push(("differences", crate::lead_chances::DIFFERENCES));
        out
    }

    /// The rules read and checked, the header's shape and count theirs.
    fn check_contents(t: &Checked<RuleDuel>) -> Result<(), TableError> {
        read_rules(t).map(drop)
    }

    /// The chances' pairs are the rules' (another section): each pair's
    /// values are checked as a lookup decodes them.
    fn check_chunk(_: &DuelShape, _: usize, _: u64, _: &[u8]) -> Result<(), TableError> {
        Ok(())
    }

    fn from_checked(t: Checked<RuleDuel>) -> Result<RuleDuel, TableError> {
        let (board, sheets, mover_starts) = read_rules(&t)?;
        let rules = board.rules();
        let rolls: Vec<([u8; 6], Vec<u16>)> = (0..crate::dice::multiset_count(usize::from(rules.dice)))
            .map(|r| {
                let counts = Dice::unrank(usize::from(rules.dice), r).expect("a rank below the count").counts();
                (counts, (0..rules.boxes.len()).map(|b| rules.points(b, &counts)).collect())
            })
            .collect();
        let points_bound = 1 + rolls.iter().flat_map(|r| r.1.iter()).copied().max().unwrap_or(0) as usize;
        Ok(RuleDuel { t, board, sheets, mover_starts, rolls, points_bound })
    }

    fn checked(&self) -> &Checked<RuleDuel> {
        &self.t
    }
}

/// Which turn a pair of sheets is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    /// The first player to move: stored one turn on.
    First,
    /// The second player to move: stored.
    Second,
    /// Both sheets full.
    Over,
}

impl RuleDuel {
    /// The sheets and their layout.
    pub fn sheets(&self) -> &Sheets {
        &self.sheets
    }

    /// The mover's chance of winning (a tie half) at a turn's start: the
    /// mover's sheet `me`, the opponent's `opp`, `lead` the mover's points
    /// so far less the opponent's, upper bonuses not counted.
    pub fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, Error> {
        self.turn_of(me, opp)?;
        let lookup = Lookup::new(self);
        Ok(lookup.value(me, opp, self.counted(lead, me, opp))?)
    }

    /// Every option of `dice` with `rerolls` left in the mover's turn, best
    /// first, each with the mover's chance of winning if taken: each box
    /// the dice may score, then while rerolls are left each keep of fewer
    /// dice. The roll is the turn's first when `rerolls` is all the rules give.
    pub fn options(
        &self,
        me: SheetState,
        opp: SheetState,
        lead: i64,
        dice: Dice,
        rerolls: u8,
    ) -> Result<RollOptions, Error> {
        self.check_roll(dice, rerolls, 0)?;
        if self.turn_of(me, opp)? == Turn::Over {
            return Ok(RollOptions { value: 0.0, options: Vec::new() });
        }
        let lookup = Lookup::new(self);
        let d = self.counted(lead, me, opp);
        let first = rerolls == self.rules.rerolls;
        let mut options: Vec<(RuleChoice, f64)> = Vec::new();
        for (m, v) in lookup.moves(me, opp, d, &dice.counts(), first)? {
            options.push((RuleChoice::Score(m), v));
        }
        if rerolls > 0 && !options.is_empty() {
            let keeps = self.keep_values_with(lookup.stops(me, opp, d)?.0, rerolls - 1);
            for keep in dice.sub_multisets().filter(|k| k.len() < dice.len()) {
                options.push((RuleChoice::Keep(keep), keeps[keep.graded_rank()]));
            }
        }
        options.sort_by(|a, b| b.1.total_cmp(&a.1));
        let value = options.first().map_or(0.0, |o| o.1);
        Ok(RollOptions { value, options })
    }

    /// The lead with each sheet's upper bonus counted once its total reaches it.
    fn counted(&self, lead: i64, me: SheetState, opp: SheetState) -> i64 {
        let bonus = |s: SheetState| {
            self.rules.upper_bonus.filter(|b| s.upper >= u32::from(b.at)).map_or(0, |b| i64::from(b.points))
        };
        lead + bonus(me) - bonus(opp)
    }

    /// The turn two sheets are at: an error for sheets no game reaches or
    /// in no turn order.
    fn turn_of(&self, me: SheetState, opp: SheetState) -> Result<Turn, Error> {
        for s in [me, opp] {
            self.check_upper(s.upper)?;
            if self.sheets.find(s.open, s.upper, s.held).is_none() {
                return Err(ArgumentError::from(ArgumentErrorKind::NotInSheetOrder {
                    given: format!("{:#b}", s.open),
                    next: self.rules.boxes[s.open.trailing_zeros().min(self.rules.boxes.len() as u32 - 1) as usize]
                        .name
                        .clone(),
                })
                .into());
            }
        }
        let (m, o) = (me.open.count_ones(), opp.open.count_ones());
        match (m, o) {
            (0, 0) => Ok(Turn::Over),
            _ if m == o => Ok(Turn::First),
            _ if m == o + 1 => Ok(Turn::Second),
            _ => Err(ArgumentError::from(ArgumentErrorKind::TurnOrder { mover: m, opponent: o }).into()),
        }
    }

    /// Every stored chance of layer `n` (boxes open on both sheets
    /// together; the odd layers are stored), pair after pair as
    /// [`Sheets::layer_blocks`] lays them out: what a program reading the
    /// table whole takes, where a lookup takes a pair. `None` for a layer
    /// not stored.
    pub fn stored_layer(&self, n: usize) -> Option<Result<Vec<f64>, TableError>> {
        let movers = self.mover_starts.get(n).filter(|m| !m.is_empty())?;
        let opponents = self.sheets.by_size[Sheets::sizes(n).1].len();
        let mut values = Vec::with_capacity(self.sheets.layer_len(n) as usize);
        let read =
            (0..movers.len()).try_for_each(|i| (0..opponents).try_for_each(|j| self.pair_into(n, i, j, &mut values)));
        Some(read.map(|()| values))
    }

    /// The stored chances of pair (mover `i`, opponent `j`, ranks among
    /// the sheets of their sizes) of layer `n`: at each lead from
    /// `-most(M) - 1` to `most(O) + 1`, the bonuses reached counted (see
    /// [`super::duel`]). `None` for a layer not stored or a pair not in it.
    pub fn stored_pair(&self, n: usize, i: usize, j: usize) -> Option<Result<Vec<f64>, TableError>> {
        let movers = self.mover_starts.get(n)?;
        (i < movers.len() && j < self.sheets.by_size[Sheets::sizes(n).1].len()).then(|| self.pair(n, i, j))
    }

    /// [`RuleDuel::stored_pair`] of a pair known to be stored.
    fn pair(&self, n: usize, i: usize, j: usize) -> Result<Vec<f64>, TableError> {
        let mut stored = Vec::with_capacity(self.sheets.pair_len(n, i, j));
        self.pair_into(n, i, j, &mut stored)?;
        Ok(stored)
    }

    /// [`RuleDuel::pair`] appended to `stored`.
    fn pair_into(&self, n: usize, i: usize, j: usize, stored: &mut Vec<f64>) -> Result<(), TableError> {
        let start = self.mover_starts[n][i] + self.sheets.pair_offset(n, i, j);
        let end = start + self.sheets.pair_len(n, i, j) as u64;
        let mut at = start;
        while at < end {
            // A pair's values may run over chunks: each restarts from 0.
            let c = at / VALUE_CHUNK as u64;
            let chunk = self.t.chunk(&DUEL_SECTIONS[1], c as usize)?;
            let lo = (at - c * VALUE_CHUNK as u64) as usize;
            let hi = ((end - c * VALUE_CHUNK as u64) as usize).min(chunk.len() / PLANES);
            decode_segment(chunk, lo, hi, |q| stored.push(f64::from(q) / f64::from(UNITS)))?;
            at += (hi - lo) as u64;
        }
        Ok(())
    }
}

/// A stored pair's chances by (layer, mover, opponent).
type Pairs = HashMap<(usize, usize, usize), Rc<Vec<f64>>>;

/// One lookup's reads: each stored pair decoded once, each first
/// player's turn start solved once.
struct Lookup<'a> {
    duel: &'a RuleDuel,
    pairs: RefCell<Pairs>,
    turns: RefCell<HashMap<(SheetState, SheetState, i64), f64>>,
}

impl<'a> Lookup<'a> {
    fn new(duel: &'a RuleDuel) -> Lookup<'a> {
        Lookup { duel, pairs: RefCell::default(), turns: RefCell::default() }
    }

    /// `V(me, opp, d)`, `d` the lead with the bonuses reached counted.
    fn value(&self, me: SheetState, opp: SheetState, d: i64) -> Result<f64, TableError> {
        let sheets = &self.duel.sheets;
        let not_listed = || TableError::section("rules", "list no sheet a move leads to".to_string());
        let (k, i) = sheets.find(me.open, me.upper, me.held).ok_or_else(not_listed)?;
        let (l, j) = sheets.find(opp.open, opp.upper, opp.held).ok_or_else(not_listed)?;
        if k == 0 && l == 0 {
            return Ok(match d.cmp(&0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            });
        }
        if k == l + 1 {
            let n = k + l;
            let held = self.pairs.borrow().get(&(n, i, j)).map(Rc::clone);
            let row = match held {
                Some(row) => row,
                None => {
                    let row = Rc::new(self.duel.pair(n, i, j)?);
                    self.pairs.borrow_mut().insert((n, i, j), Rc::clone(&row));
                    row
                }
            };
            let lowest = -i64::from(sheets.by_size[k][i].most) - 1;
            return Ok(row[(d - lowest).clamp(0, row.len() as i64 - 1) as usize]);
        }
        let key = (me, opp, d);
        if let Some(&v) = self.turns.borrow().get(&key) {
            return Ok(v);
        }
        // A first player's turn start: the average over the first roll of
        // its best option, from the second player's turn starts its moves
        // lead to.
        let duel = self.duel;
        let rerolls = duel.rules.rerolls;
        let (later, first) = self.stops(me, opp, d)?;
        let keeps = match rerolls {
            0 => None,
            _ => Some(duel.keep_values_with(later, rerolls - 1)),
        };
        let v = duel.turn_start_from(&first, keeps.as_deref());
        self.turns.borrow_mut().insert(key, v);
        Ok(v)
    }

    /// Every way to score `counts` with its chance ([`Lookup::scoring`]).
    fn moves(
        &self,
        me: SheetState,
        opp: SheetState,
        d: i64,
        counts: &[u8; 6],
        first: bool,
    ) -> Result<Vec<(Move, f64)>, TableError> {
        let mut moves = Vec::new();
        self.duel.board.moves(me, counts, first, &mut moves);
        moves.into_iter().map(|(m, after)| Ok((m, self.scoring(me, opp, d, &m, after)?))).collect()
    }

    /// The mover's chance after move `m` from `me` into `after`: 1 for a
    /// box that wins at once, else `1 - V` of the opponent's turn at the
    /// lead it makes (its points, bonuses, and the upper bonus if the
    /// total reaches it now).
    fn scoring(&self, me: SheetState, opp: SheetState, d: i64, m: &Move, after: SheetState) -> Result<f64, TableError> {
        if m.wins {
            return Ok(1.0);
        }
        let undecided = self.duel.rules.upper_bonus.filter(|b| me.upper < u32::from(b.at));
        let crossing = undecided.filter(|b| after.upper >= u32::from(b.at)).map_or(0, |b| i64::from(b.points));
        let lead = d + i64::from(m.scored()) + crossing;
        Ok(1.0 - self.value(opp, after, -lead)?)
    }

    /// Each roll's chance when it must score now, as the keep lattice lays
    /// the rolls out: after a reroll, and with the turn's first roll. Each
    /// way to score is valued once (by box, points and bonus) for all the
    /// rolls that score it so.
    fn stops(&self, me: SheetState, opp: SheetState, d: i64) -> Result<(Vec<f64>, Vec<f64>), TableError> {
        let duel = self.duel;
        let rules = &duel.rules;
        let allowed = rules.allowed(me.open);
        let first_counts = rules.boxes.iter().any(|b| b.first_roll > 0 || b.wins);
        // By (box, points, scored with the first roll): NaN until valued.
        let bound = duel.points_bound;
        let mut valued = vec![f64::NAN; rules.boxes.len() * bound * 2];
        let mut others: HashMap<(usize, u16, u16, bool), f64> = HashMap::new();
        let mut failed = None;
        let mut value_of = |b: usize, p: u16, e: u16, first: bool| -> f64 {
            let served = first && p > 0;
            if served && rules.boxes[b].wins {
                return 1.0;
            }
            let first_roll = if served { rules.boxes[b].first_roll } else { 0 };
            let at = (e == 0 && usize::from(p) < bound)
                .then(|| (b * bound + usize::from(p)) * 2 + usize::from(first_roll > 0));
            if let Some(v) = at.map(|at| valued[at]).filter(|v| !v.is_nan()) {
                return v;
            }
            if let Some(&v) = others.get(&(b, p, e, first_roll > 0)) {
                return v;
            }
            let m = Move { box_index: b, points: p, bonus: e, first_roll, wins: false };
            let v = match self.scoring(me, opp, d, &m, rules.after_scoring(me, b, p)) {
                Ok(v) => v,
                Err(e) => {
                    failed.get_or_insert(e);
                    return f64::NAN;
                }
            };
            match at {
                Some(at) => valued[at] = v,
                None => {
                    others.insert((b, p, e, first_roll > 0), v);
                }
            }
            v
        };
        let partial = duel.lattice.partial;
        let mut later = vec![0.0; partial + duel.rolls.len()];
        let mut first = later.clone();
        for (r, (counts, points)) in duel.rolls.iter().enumerate() {
            let (mut best, mut best_first) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
            rules.scores_given(me.open, allowed, me.held, counts, points, |b, p, e| {
                best = best.max(value_of(b, p, e, false));
                if first_counts {
                    best_first = best_first.max(value_of(b, p, e, true));
                }
            });
            later[partial + r] = best;
            first[partial + r] = if first_counts { best_first } else { best };
        }
        match failed {
            Some(e) => Err(e),
            None => Ok((later, first)),
        }
    }
}

//! What the target tables (`yazy-target`, `yatzy-target`, `yahtzee-target`)
//! share: per turn-start state S, `P*(S, n)`, the best chance over all
//! strategies of scoring at least `n` more points from the turn's start to
//! the game's end, for every `n` from 1 up; and the exact distribution of
//! the final score under max-expected-score play.
//!
//! Stored per state: `ones`, the highest `n` at which the chance rounds to
//! 1, then the chances at `n = ones + 1, ones + 2, ...` up to the last that
//! does not round to 0 (every later one is 0). A chance is stored as
//! `q = round(P x 16777215)` (within 3e-8), each as its drop `Q - q` from
//! the value before it in the same state and chunk (`Q = 16777215` before a
//! state's first value and at a chunk's start): chances never increase with
//! `n`, so drops are never negative, and small ones compress well. A chunk
//! holds the three bytes of its drops as three planes. See FORMAT.md.
//!
//! Beside them, per state, the distribution of the points still to come
//! under max-expected-score play, as its chances `P(remaining >= n)` in the
//! same layout with four bytes a value (`q = round(P x (2^32 - 1))`, within
//! 1.2e-10): what an opponent-aware player takes an opponent's future to be.

use crate::dice::Dice;
use crate::error::TableError;
use crate::five_dice::{best_values, keep_values, DICE, KEEPS, KEEP_LATTICE, PARTIAL_KEEPS, PARTIAL_KEEP_DICE};
use crate::format::{DType, Encoding};
use crate::game::{Checked, Game, SectionSpec};

/// A stored chance is `q / UNITS`, `q` in `0..=UNITS`.
pub const UNITS: u32 = (1 << 24) - 1;
/// Bytes of a stored drop, stored as that many planes per chunk.
pub const PLANES: usize = 3;

/// How a run of chances that never increase is stored: `q = round(P x
/// units)`, each as its drop from the one before in `planes` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coding {
    /// A stored chance is `q / units`, `q` in `0..=units`.
    pub units: u32,
    /// Bytes of a stored drop, stored as that many planes per chunk.
    pub planes: usize,
    /// The section numbers of the index (per state, first stored chance
    /// and `ones`) and of the drops.
    sections: [usize; 2],
}

/// `P*(S, n)`: 24 bits a chance (within 3e-8).
pub const CHANCES: Coding = Coding { units: UNITS, planes: PLANES, sections: [0, 1] };

/// `P(remaining >= n)` under max-expected-score play: 32 bits a chance
/// (within 1.2e-10), so every P(remaining = x) is within 2.4e-10.
pub const REMAINING: Coding = Coding { units: u32::MAX, planes: 4, sections: [3, 4] };
/// Chances per chunk of section `p`.
pub const VALUE_CHUNK: usize = 32768;
/// States per chunk of section `state_index`.
pub const INDEX_CHUNK: usize = 4096;
/// Options whose chances (as a lookup computes them from stored values,
/// each within 3e-8 of exact) differ by less than this are tied: the first
/// in the tie order is the decision. Exactly equal options are always tied;
/// the decision's chance is within 2e-7 of the best.
pub const TARGET_TIE: f64 = 1e-7;

/// What a target table's parameters tell its sections.
pub trait TargetParams: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// States in the table.
    fn states(&self) -> u64;
    /// Chances stored in all (header parameter `values`).
    fn values(&self) -> u64;
    /// Chances of the remaining-points distributions stored in all
    /// (header parameter `remaining`).
    fn remaining(&self) -> u64;
    /// The most points a whole game scores: the distribution's last entry.
    fn most(&self) -> u64;
}

/// The dimensions of `state_index`: per state and one more, (first stored
/// chance, `ones`).
pub fn index_dims<P: TargetParams>(p: &P) -> Vec<u64> {
    vec![p.states() + 1, 2]
}

/// The dimensions of `p`: three bytes per stored chance.
pub fn value_dims<P: TargetParams>(p: &P) -> Vec<u64> {
    vec![p.values() * PLANES as u64]
}

/// The dimensions of `remaining`: four bytes per stored chance.
pub fn remaining_dims<P: TargetParams>(p: &P) -> Vec<u64> {
    vec![p.remaining() * REMAINING.planes as u64]
}

/// The dimensions of `ev_distribution`: P(final score = s), s = 0 to the most.
pub fn distribution_dims<P: TargetParams>(p: &P) -> Vec<u64> {
    vec![p.most() + 1]
}

/// The section list every target table has, in order.
pub const fn sections<P: TargetParams>() -> [SectionSpec<P>; 5] {
    [
        SectionSpec::new(0, "state_index", DType::U32, Encoding::Zstd, index_dims::<P>)
            .chunked((INDEX_CHUNK * 2 * 4) as u64),
        SectionSpec::new(1, "p", DType::U8, Encoding::Zstd, value_dims::<P>).chunked((VALUE_CHUNK * PLANES) as u64),
        SectionSpec::new(2, "ev_distribution", DType::F64, Encoding::Raw, distribution_dims::<P>),
        SectionSpec::new(3, "remaining_index", DType::U32, Encoding::Zstd, index_dims::<P>)
            .chunked((INDEX_CHUNK * 2 * 4) as u64),
        SectionSpec::new(4, "remaining", DType::U8, Encoding::Zstd, remaining_dims::<P>)
            .chunked((VALUE_CHUNK * REMAINING.planes) as u64),
    ]
}

/// The stored chances of one state: `P*(S, n)` for every `n`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// `P*(S, n) = 1` for `n <= ones`.
    pub ones: u32,
    /// `P*(S, ones + 1 + i)`; 0 past the end.
    pub values: Vec<f64>,
}

impl Curve {
    /// `P*(S, n)`: 1 at or below `ones` (so for `n <= 0`), 0 past the stored values.
    #[inline]
    pub fn chance(&self, n: i64) -> f64 {
        let k = n - i64::from(self.ones);
        if k <= 0 {
            1.0
        } else {
            self.values.get(k as usize - 1).copied().unwrap_or(0.0)
        }
    }

    /// `chance(from + i)` for `i` in `0..len`: ones, the stored chances,
    /// then zeros, copied rather than looked up one by one.
    pub(crate) fn chances_from(&self, from: i64, len: usize) -> Vec<f64> {
        let mut out = Vec::with_capacity(len);
        let ones = (i64::from(self.ones) + 1 - from).clamp(0, len as i64) as usize;
        out.resize(ones, 1.0);
        // The first stored chance is at n = ones + 1 (index 0).
        let first = (from + ones as i64 - i64::from(self.ones) - 1).max(0) as usize;
        if first < self.values.len() {
            let take = (len - out.len()).min(self.values.len() - first);
            out.extend_from_slice(&self.values[first..first + take]);
        }
        out.resize(len, 0.0);
        out
    }

    /// For a remaining-points curve (`P(remaining >= n)`), `P(remaining = n)`.
    #[inline]
    pub fn chance_of(&self, n: i64) -> f64 {
        self.chance(n) - self.chance(n + 1)
    }

    /// The last `n` with a chance above 0 (0 when none is).
    pub fn last(&self) -> u32 {
        self.ones + self.values.len() as u32
    }
}

/// Reads state `state`'s curve (stored as `coding` says) from a target
/// table whose sections are [`sections`].
pub(crate) fn read_curve<G: Game>(
    t: &Checked<G>,
    specs: &[SectionSpec<G::Params>],
    coding: Coding,
    state: usize,
) -> Result<Curve, TableError>
where
    G::Params: TargetParams,
{
    read_curve_upto(t, specs, coding, state, u64::MAX)
}

/// State `state`'s curve as far as `n = upto`: its chances past `upto` are
/// not read, so the curve answers only for `n <= upto`.
pub(crate) fn read_curve_upto<G: Game>(
    t: &Checked<G>,
    specs: &[SectionSpec<G::Params>],
    coding: Coding,
    state: usize,
    upto: u64,
) -> Result<Curve, TableError>
where
    G::Params: TargetParams,
{
    let (index, p) = (&specs[coding.sections[0]], &specs[coding.sections[1]]);
    let values = if coding == CHANCES { t.params().values() } else { t.params().remaining() };
    let (planes, units) = (coding.planes, coding.units);
    let start = u64::from(t.u32_at(index, 2 * state)?);
    let ones = t.u32_at(index, 2 * state + 1)?;
    let end = u64::from(t.u32_at(index, 2 * state + 2)?);
    if start > end || end > values {
        let why = format!("gives state {state} chances {start}..{end}, not inside 0..{values}");
        return Err(TableError::section(index.name, why));
    }
    let end = end.min(start.saturating_add(upto.saturating_sub(u64::from(ones))));
    let mut out = Vec::with_capacity((end - start) as usize);
    let mut i = start;
    while i < end {
        // A state's chances may run over chunks: each restarts from UNITS.
        let (c, within) = ((i / VALUE_CHUNK as u64) as usize, (i % VALUE_CHUNK as u64) as usize);
        let chunk = t.chunk(p, c)?;
        let len = chunk.len() / planes;
        let last = (end - i).min((len - within) as u64) as usize;
        // The state's bytes of each plane (a missing fourth plane reads as 0).
        let plane = |b: usize| if b < planes { &chunk[b * len + within..b * len + within + last] } else { &[][..] };
        let (p0, p1, p2, p3) = (plane(0), plane(1), plane(2), plane(3));
        let mut q = i64::from(units);
        for k in 0..last {
            let high = if planes > 3 { i64::from(p3[k]) << 24 } else { 0 };
            q -= i64::from(p0[k]) | i64::from(p1[k]) << 8 | i64::from(p2[k]) << 16 | high;
            if q < 0 {
                let at = i + k as u64;
                return Err(TableError::section(p.name, format!("decodes below 0 at chance {at} (state {state})")));
            }
            out.push(q as f64 / f64::from(units));
        }
        i += last as u64;
    }
    Ok(Curve { ones, values: out })
}

/// Reads every state's curves (what [`Game::check`] adds for the target
/// tables: a drop that takes a chance below 0 is refused here rather than
/// at the lookup that meets it); with `start`, the start state's, checks
/// its remaining points' distribution against `ev_distribution`, which the
/// generator finds another way (forward through the game): within 1e-9.
pub(crate) fn check_curves<G: Game>(
    t: &Checked<G>,
    specs: &[SectionSpec<G::Params>],
    start: Option<usize>,
) -> Result<(), TableError>
where
    G::Params: TargetParams,
{
    for state in 0..t.params().states() as usize {
        read_curve(t, specs, CHANCES, state)?;
        read_curve(t, specs, REMAINING, state)?;
    }
    if let Some(start) = start {
        let remaining = read_curve(t, specs, REMAINING, start)?;
        for (s, p) in read_distribution(t, &specs[2])?.into_iter().enumerate() {
            let stored = remaining.chance_of(s as i64);
            if (stored - p).abs() > 1e-9 {
                let why = format!("gives the start P(remaining = {s}) = {stored}, not ev_distribution's {p}");
                return Err(TableError::section(specs[REMAINING.sections[1]].name, why));
            }
        }
    }
    Ok(())
}

/// Checks a chunk of an index (section `name`): every first chance at
/// most `values`, ascending, and every `ones` at most `most`.
pub(crate) fn check_index_chunk(name: &str, bytes: &[u8], values: u64, most: u64) -> Result<(), TableError> {
    let mut previous = 0u64;
    for (i, pair) in bytes.chunks_exact(8).enumerate() {
        let start = u64::from(u32::from_le_bytes(pair[..4].try_into().expect("4 bytes")));
        let ones = u64::from(u32::from_le_bytes(pair[4..].try_into().expect("4 bytes")));
        if start < previous || start > values || ones > most {
            let why = format!("entry {i} of a chunk ({start}, {ones}) is out of order or range");
            return Err(TableError::section(name, why));
        }
        previous = start;
    }
    Ok(())
}

/// The stored distribution: P(final score = s) for s = 0 to the most.
pub(crate) fn read_distribution<G: Game>(
    t: &Checked<G>,
    spec: &SectionSpec<G::Params>,
) -> Result<Vec<f64>, TableError> {
    let bytes = t.whole(spec)?;
    Ok((0..bytes.len() / 8).map(|i| crate::format::read_f64(bytes, i)).collect())
}

/// Checks `ev_distribution`: every entry in 0..=1, summing to 1 within 1e-9.
pub(crate) fn check_distribution(bytes: &[u8]) -> Result<(), TableError> {
    crate::game::check_values_in_range("ev_distribution", bytes, 1.0)?;
    let sum: f64 = (0..bytes.len() / 8).map(|i| crate::format::read_f64(bytes, i)).sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(TableError::section("ev_distribution", format!("sums to {sum}, not 1")));
    }
    Ok(())
}

/// An opponent as the opponent-aware advisor sees them: the distribution
/// of the points they still score, taken to be played for the average from
/// their state (a target table's [`remaining`](crate::sheet::SheetTarget::remaining)
/// curve), and your lead, your points so far less theirs.
///
/// The advisor plays each turn for the highest estimate, after scoring
/// `p` now into a state S', of
/// `sum over x of P(X = x) (P*(S', x - lead - p + 1) + P*(S', x - lead - p)) / 2`:
/// for each total the opponent may reach, the best chance of beating it
/// (ties half), as if you knew it. An estimate, not the exact chance of
/// winning: the opponent does not always play for the average, and you
/// cannot play for every total at once. It is exact on the last turn of a
/// game whose opponent has finished (X then is 0, or their upper bonus
/// still to come).
#[derive(Clone, Debug, PartialEq)]
pub struct Opponent {
    /// P(X = x), x = 0, 1, ... up to the last above 0.
    remaining: Vec<f64>,
    /// Your points so far less the opponent's.
    lead: i64,
}

impl Opponent {
    /// The opponent whose points still to come have the curve `remaining`
    /// (`P(X >= n)`), with your lead `lead` (taken as at most a million
    /// either way: past any game's points, the same answers).
    pub fn new(remaining: &Curve, lead: i64) -> Opponent {
        let remaining = (0..=i64::from(remaining.last())).map(|x| remaining.chance_of(x)).collect();
        Opponent { remaining, lead: lead.clamp(-MAX_LEAD, MAX_LEAD) }
    }

    /// Your points so far less the opponent's.
    pub fn lead(&self) -> i64 {
        self.lead
    }

    /// The advisor's estimate of your chance of winning (ties half) after
    /// scoring `points` now into a state whose `P*` curve is `next`.
    pub fn chance_after(&self, next: &Curve, points: i64) -> f64 {
        let behind = -self.lead - points;
        self.sum(&next.chances_from(behind, self.remaining.len() + 1))
    }

    /// `next`'s chances as [`Opponent::chance_with`] reads them, for every
    /// points now from 0 to `most`.
    pub(crate) fn against(&self, next: &Curve, most: u8) -> Against {
        let lo = -self.lead - i64::from(most);
        Against { chances: next.chances_from(lo, self.remaining.len() + usize::from(most) + 1), lo }
    }

    /// [`Opponent::chance_after`] from [`Opponent::against`]'s chances
    /// (`points` at most its `most`): the same sum, bit for bit.
    pub(crate) fn chance_with(&self, against: &Against, points: u8) -> f64 {
        let from = (-self.lead - i64::from(points) - against.lo) as usize;
        self.sum(&against.chances[from..from + self.remaining.len() + 1])
    }

    /// `sum over x of P(X = x) (c[x] + c[x + 1]) / 2`, `c[x]` the chance of
    /// scoring at least the opponent's total: a tie at `x`, a win at `x + 1`.
    fn sum(&self, c: &[f64]) -> f64 {
        let mut sum = 0.0;
        for (x, &p) in self.remaining.iter().enumerate() {
            sum += p * (c[x] + c[x + 1]);
        }
        sum * 0.5
    }
}

/// A next state's chances `P*(S', m)` over every `m` an opponent-aware
/// leaf reads, for any points scored now up to a most.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Against {
    chances: Vec<f64>,
    /// The `m` of `chances[0]`.
    lo: i64,
}

/// The largest lead an [`Opponent`] holds: more than any game scores.
const MAX_LEAD: i64 = 1_000_000;

/// What a target turn is played for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Goal {
    /// At least this many more points.
    Reach(i64),
    /// Winning against this opponent, as the advisor estimates it.
    Beat(Opponent),
}

impl Goal {
    /// The chance of scoring `points` now into a state whose curve is `next`.
    #[inline]
    pub(crate) fn after(&self, next: &Curve, points: impl Into<i64>) -> f64 {
        let points = points.into();
        match self {
            Goal::Reach(need) => next.chance(need - points),
            Goal::Beat(opponent) => opponent.chance_after(next, points),
        }
    }

    /// How far a next state's curve is read: to the need, or whole.
    pub(crate) fn upto(&self) -> u64 {
        match self {
            Goal::Reach(need) => (*need).max(0) as u64,
            Goal::Beat(_) => u64::MAX,
        }
    }
}

/// One total of a game's score curve: see [`score_curve`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveRow {
    /// The total T.
    pub score: u32,
    /// `P*(start, T)`: the best chance of a whole game scoring T or more.
    pub p_best: f64,
    /// P(final >= T) under max-expected-score play.
    pub p_ev: f64,
    /// P(final = T) under max-expected-score play.
    pub p_ev_exact: f64,
}

/// P(final >= T) for every total T from 0 to the most, from P(final = s):
/// summed from the most down (the small chances first), each capped at 1
/// (the stored distribution sums to 1 within about 4e-15). What `p_ev` is,
/// in `reader curve` and the generator's report alike.
pub fn at_least_chances(distribution: &[f64]) -> Vec<f64> {
    let mut at_least = 0.0;
    let mut tail: Vec<f64> = distribution
        .iter()
        .rev()
        .map(|&p| {
            at_least += p;
            at_least.min(1.0)
        })
        .collect();
    tail.reverse();
    tail
}

/// A whole game's score curve: for every total from 0 to the game's most,
/// the best chance of reaching it (from the start state's stored chances,
/// `start`) beside the chance max-expected-score play reaches it and scores
/// it exactly (from the stored distribution).
pub fn score_curve(start: &Curve, distribution: &[f64]) -> Vec<CurveRow> {
    let tail = at_least_chances(distribution);
    (0..distribution.len())
        .map(|s| CurveRow {
            score: s as u32,
            p_best: start.chance(s as i64),
            p_ev: tail[s],
            p_ev_exact: distribution[s],
        })
        .collect()
}

/// The last player of a two-player game, who knows the other's final
/// score, drawn from max-expected-score play: its chances of winning
/// (scoring more) and of tying, played to win and played for the average.
/// Exact, from a score curve (see [`last_player`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastPlayer {
    /// P(win) playing for the other's score + 1 (the target table).
    pub win_to_win: f64,
    /// P(win or tie) playing for the other's score (the target table); a
    /// player content with a tie plays for it.
    pub win_or_tie_to_tie: f64,
    /// P(win) playing for the average.
    pub win_for_average: f64,
    /// P(tie) playing for the average.
    pub tie_for_average: f64,
}

/// The last player's chances from a game's score curve: with the other's
/// score `s` (chance `p_ev_exact[s]`), `P*(start, s + 1)` to win,
/// `P*(start, s)` to win or tie; played for the average, `p_ev[s + 1]` and
/// `p_ev_exact[s]` (the two games independent).
pub fn last_player(rows: &[CurveRow]) -> LastPlayer {
    let at = |s: usize, f: fn(&CurveRow) -> f64| rows.get(s).map_or(0.0, f);
    let mut out = LastPlayer { win_to_win: 0.0, win_or_tie_to_tie: 0.0, win_for_average: 0.0, tie_for_average: 0.0 };
    for (s, r) in rows.iter().enumerate() {
        let p = r.p_ev_exact;
        out.win_to_win += p * at(s + 1, |r| r.p_best);
        out.win_or_tie_to_tie += p * r.p_best;
        out.win_for_average += p * at(s + 1, |r| r.p_ev);
        out.tie_for_average += p * p;
    }
    out
}

/// The chance of reaching a target once the game is over (no category
/// open, so a roll has no option): 1 when nothing more is needed, else 0.
pub fn game_over_chance(need: i64) -> f64 {
    if need <= 0 {
        1.0
    } else {
        0.0
    }
}

/// One option of a decision played to reach a target, with its chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetChoice<A> {
    /// The action: a keep, or a category to score.
    pub action: A,
    /// The best chance of scoring at least the target, counting from this
    /// decision, if the action is taken.
    pub p: f64,
    /// For a category, the points it scores now; 0 for keeps.
    pub points: u8,
}

/// Every option of a decision played to reach a target, the decision first
/// (the first in the game's tie order within [`TARGET_TIE`] of the best
/// chance), then by descending chance.
pub type TargetChoices<A> = crate::options::Options<TargetChoice<A>, 48>;

/// Ranks options pushed in tie order: the first within [`TARGET_TIE`] of the
/// highest chance is the decision.
pub(crate) fn rank<A: Copy + PartialEq>(out: &mut TargetChoices<A>) {
    let highest = out.iter().map(|c| c.p).fold(f64::NEG_INFINITY, f64::max);
    let best = out.iter().position(|c| c.p >= highest - TARGET_TIE).map(|i| out.as_slice()[i].action);
    out.rank(|c| Some(c.action) == best, |c| c.p);
}

/// A turn's keeps solved once for every decision in it: per rerolls left
/// (1, 2, ...), the chance of every partial keep and of every roll with one
/// reroll fewer, from each roll's chance with no reroll left: the keep
/// lattice of the expected-points turn with chances in place of points.
pub(crate) struct KeepLevels(Vec<[f64; KEEPS]>);

impl KeepLevels {
    /// Solves `rerolls` levels from `stop` (by roll rank).
    /// (`stop` is called through a pointer: one copy of the lattice's code
    /// serves every caller, which the WebAssembly build's size needs.)
    pub(crate) fn solve(stop: &dyn Fn(usize) -> f64, rerolls: u8) -> KeepLevels {
        let lattice = &*KEEP_LATTICE;
        let mut values = [0.0; KEEPS];
        for (roll, v) in values[PARTIAL_KEEPS..].iter_mut().enumerate() {
            *v = stop(roll);
        }
        let mut levels = Vec::with_capacity(usize::from(rerolls));
        for level in 1..=rerolls {
            if level > 1 {
                best_values(lattice, &mut values, &mut [0.0; PARTIAL_KEEPS]);
            }
            keep_values(lattice, &mut values);
            levels.push(values);
        }
        KeepLevels(levels)
    }

    /// A turn's value at its start, before the first roll, with `rerolls`
    /// rerolls to come: the keep of no dice one level above them.
    pub(crate) fn turn_start(stop: &dyn Fn(usize) -> f64, rerolls: u8) -> f64 {
        KeepLevels::solve(stop, rerolls + 1).0[usize::from(rerolls)][0]
    }

    /// The partial keeps of `dice` with `rerolls` (1 to the levels solved)
    /// left, pushed in the tie order: larger keeps first. (Keeping all five
    /// is scoring now, or deciding again with a reroll fewer: never better
    /// than the best of scoring now and these, so not an option of its own.)
    pub(crate) fn push_partial_keeps<A: Copy>(
        &self,
        out: &mut TargetChoices<A>,
        dice: Dice,
        rerolls: u8,
        keep: impl Fn(Dice) -> A,
    ) {
        let values = &self.0[usize::from(rerolls) - 1];
        let mut keeps: Vec<usize> = dice.sub_multisets().filter(|k| k.len() < DICE).map(|k| k.graded_rank()).collect();
        keeps.sort_unstable();
        keeps.reverse();
        for g in keeps {
            out.push(TargetChoice { action: keep(PARTIAL_KEEP_DICE[g]), p: values[g], points: 0 });
        }
    }
}

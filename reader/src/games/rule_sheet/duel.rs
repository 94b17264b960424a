//! The sheets of a rule set's two-player game and where a table of it
//! stores each pair's chances: what the generator's joint solve and the
//! reader's lookups share.
//!
//! A sheet's state keeps only what its future depends on: the open boxes,
//! the upper total while the upper bonus is undecided (one state once it
//! is reached or out of reach: the lead counts a bonus the moment it is
//! reached), and a closed box's holding points while an open box needs it.
//! Every upper total is a state, the ones no game reaches too (a head
//! start, a house rule).
//! `most(S)` bounds the points sheet `S` can still score, every bonus
//! included. The joint game's layer `n` pairs each mover's sheet with
//! `ceil(n/2)` boxes open with each opponent's with `floor(n/2)`, movers
//! then opponents in the order of [`Sheets::by_size`]; a pair stores the
//! mover's chance at every lead from `-most(M) - 1` to `most(O) + 1`
//! (past them the points are settled and the chance is the end's).

use std::collections::HashMap;

use super::{flag_index, held_of_flag};
use crate::dice::{multiset_count, Dice};
use crate::rules::{Joker, Order, RuleSet};

/// One sheet's state as the duel tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// The open boxes.
    pub open: u32,
    /// The upper total, capped at the bonus's threshold; the threshold
    /// itself once the bonus is decided (reached or out of reach); 0
    /// without a bonus.
    pub upper: u16,
    /// The boxes holding points that an open box needs (mask bits).
    pub held: u32,
    /// The most points the sheet can still score, every bonus included.
    pub most: u32,
}

/// Every sheet state of a rule set a game reaches, by boxes open, with
/// where each pair of them stores its leads.
#[derive(Clone, Debug)]
pub struct Sheets {
    rules: RuleSet,
    /// By boxes open: the sheets, in (open, held, upper) order.
    pub by_size: Vec<Vec<Sheet>>,
    /// By boxes open: `most + 3` summed over the sheets before each
    /// (each sheet's run of leads as a mover less the opponent's part),
    /// and `most` summed likewise (the opponent's part).
    most_before: Vec<Vec<u64>>,
    /// (open, upper, held) to the sheet's place among those of its size.
    rank: HashMap<(u32, u16, u32), u32>,
    /// The boxes the upper bonus counts.
    bonus_boxes: u32,
    /// Each box's most points in any roll, its first-roll bonus included.
    box_most: Vec<u32>,
}

/// The most states one sheet of a two-player table may have (before they
/// are listed): 2^24, past every rule set whose joint game fits.
pub const MOST_SHEETS: u64 = 1 << 24;

impl Sheets {
    /// Refuses, before listing them, rules with too many sheet states for
    /// a two-player game: one line with the count.
    pub fn check_size(rules: &RuleSet) -> Result<(), String> {
        let boxes = rules.boxes.len() as u32;
        let masks: u64 = match rules.order {
            Order::Free => 1 << boxes,
            Order::Fixed => u64::from(boxes) + 1,
        };
        let totals = rules.upper_bonus.map_or(1, |b| u64::from(b.at) + 1);
        let bound = (masks * totals) << rules.tracked_boxes().len();
        if bound > MOST_SHEETS {
            return Err(format!(
                "{}: up to {bound} states of one sheet, so about {:.0e} joint states: too many for two players \
                 (the two-player tables hold up to about 1e10)",
                rules.name,
                (bound as f64).powi(2) * 300.0 / 4.0,
            ));
        }
        Ok(())
    }

    /// Every sheet state of `rules` a game reaches ([`Sheets::check_size`]
    /// first: rules with many boxes and a bonus have too many to list).
    pub fn of(rules: &RuleSet) -> Sheets {
        let boxes = rules.boxes.len();
        let all = (1u32 << boxes) - 1;
        let totals = rules.upper_bonus.map_or(1, |b| usize::from(b.at) + 1);
        let bonus_boxes = rules.upper_bonus.map_or(0, |b| b.boxes);
        let tracked = rules.tracked_boxes();
        let mut sheets = Sheets {
            rules: rules.clone(),
            by_size: vec![Vec::new(); boxes + 1],
            most_before: Vec::new(),
            rank: HashMap::new(),
            bonus_boxes,
            box_most: (0..boxes).map(|b| box_most(rules, b) + u32::from(rules.boxes[b].first_roll)).collect(),
        };
        let masks: Vec<u32> = match rules.order {
            Order::Free => (0..=all).collect(),
            Order::Fixed => (0..=boxes).map(|first| all & !((1u32 << first) - 1)).collect(),
        };
        for open in masks {
            // Every upper total, not only those the filled boxes make: a
            // lookup may give a head start or a house rule's total.
            let uppers = vec![true; totals];
            let mut seen = Vec::new();
            for flag in 0..1usize << tracked.len() {
                let held = held_of_flag(&tracked, flag);
                if held & open != 0 {
                    continue;
                }
                for (u, _) in uppers.iter().enumerate().filter(|(_, &r)| r) {
                    let state = sheets.canonical(open, u as u32, held);
                    if !seen.contains(&state) {
                        seen.push(state);
                    }
                }
            }
            seen.sort_by_key(|&(u, h)| (flag_index(&tracked, h), u));
            for (upper, held) in seen {
                let most = sheets.most(open, upper, held);
                let size = &mut sheets.by_size[open.count_ones() as usize];
                size.push(Sheet { open, upper, held, most });
            }
        }
        for size in &sheets.by_size {
            let mut before = Vec::with_capacity(size.len() + 1);
            let mut sum = 0u64;
            for (i, s) in size.iter().enumerate() {
                before.push(sum);
                sum += u64::from(s.most);
                sheets.rank.insert((s.open, s.upper, s.held), i as u32);
            }
            before.push(sum);
            sheets.most_before.push(before);
        }
        sheets
    }

    /// The state a sheet's future depends on: its upper total (the
    /// threshold once the bonus is decided) and the boxes holding points an
    /// open box needs.
    pub fn canonical(&self, open: u32, upper: u32, held: u32) -> (u16, u32) {
        let can_add = self.rules.most_faces_make(open & self.bonus_boxes);
        let upper = match self.rules.upper_bonus {
            None => 0,
            Some(b) if upper >= u32::from(b.at) || upper + can_add < u32::from(b.at) => b.at,
            Some(_) => upper as u16,
        };
        (upper, held & self.needed(open))
    }

    /// The closed boxes whose holding points changes what the open boxes
    /// of `open` can score: those an open box needs, and the extra-bonus box.
    fn needed(&self, open: u32) -> u32 {
        let rules = &self.rules;
        let mut needed = 0;
        for b in (0..rules.boxes.len()).filter(|&b| open >> b & 1 == 1) {
            if let Some(n) = rules.boxes[b].needs {
                needed |= 1 << n;
            }
        }
        if let Some(e) = rules.extra_bonus.filter(|e| e.points > 0 && open != 0) {
            needed |= 1 << e.box_index;
        }
        needed & !open
    }

    /// The most points a sheet can still score: each open box's most
    /// (with its first-roll bonus, and an extra bonus where one can still
    /// be paid), and the upper bonus while it is undecided.
    fn most(&self, open: u32, upper: u16, held: u32) -> u32 {
        let rules = &self.rules;
        let usable = |b: usize| rules.boxes[b].needs.is_none_or(|n| open >> n & 1 == 1 || held >> n & 1 == 1);
        let extra = rules
            .extra_bonus
            .filter(|e| e.points > 0 && (open >> e.box_index & 1 == 1 || held >> e.box_index & 1 == 1))
            .map_or(0, |e| u32::from(e.points));
        let boxes: u32 = (0..rules.boxes.len())
            .filter(|&b| open >> b & 1 == 1)
            .map(|b| if usable(b) { self.box_most[b] } else { 0 } + extra)
            .sum();
        let bonus = rules.upper_bonus.filter(|b| upper < b.at).map_or(0, |b| u32::from(b.points));
        boxes + bonus
    }

    /// The sheet of (`open`, `upper`, `held`) once canonical: its size and
    /// its place among the sheets of that size.
    pub fn find(&self, open: u32, upper: u32, held: u32) -> Option<(usize, usize)> {
        let (upper, held) = self.canonical(open, upper, held);
        let rank = *self.rank.get(&(open, upper, held))?;
        Some((open.count_ones() as usize, rank as usize))
    }

    /// The pairs of layer `n` (boxes open on both sheets together): the
    /// mover's sheets' size and the opponent's.
    pub fn sizes(n: usize) -> (usize, usize) {
        (n.div_ceil(2), n / 2)
    }

    /// Where each mover's pairs begin in the layer of `n` boxes open
    /// (by the mover's rank), and past the last, the layer's length: a
    /// mover's pairs store its leads as a mover (`most + 3`) with each
    /// opponent and each opponent's own `most`.
    pub fn layer_blocks(&self, n: usize) -> Vec<u64> {
        let (k, l) = Sheets::sizes(n);
        let (movers, opponents) = (&self.by_size[k], &self.by_size[l]);
        let opponents_most = self.most_before[l][opponents.len()];
        let mut at = 0u64;
        let mut blocks: Vec<u64> = movers
            .iter()
            .map(|m| {
                let start = at;
                at += opponents.len() as u64 * (u64::from(m.most) + 3) + opponents_most;
                start
            })
            .collect();
        blocks.push(at);
        blocks
    }

    /// Where pair (mover `i`, opponent `j`) of the layer of `n` boxes open
    /// begins within the mover's pairs.
    pub fn pair_offset(&self, n: usize, i: usize, j: usize) -> u64 {
        let (k, l) = Sheets::sizes(n);
        j as u64 * (u64::from(self.by_size[k][i].most) + 3) + self.most_before[l][j]
    }

    /// How many leads pair (mover `i`, opponent `j`) of the layer of `n`
    /// boxes open stores: `-most(M) - 1` to `most(O) + 1`.
    pub fn pair_len(&self, n: usize, i: usize, j: usize) -> usize {
        let (k, l) = Sheets::sizes(n);
        (self.by_size[k][i].most + self.by_size[l][j].most + 3) as usize
    }

    /// How many leads the layer of `n` boxes open stores, in all.
    pub fn layer_len(&self, n: usize) -> u64 {
        *self.layer_blocks(n).last().expect("a layer ends")
    }

    /// The top layer: every box open on both sheets.
    pub fn top(&self) -> usize {
        2 * self.rules.boxes.len()
    }

    /// Every layer's stored leads, from both sheets full up.
    pub fn joint_states(&self) -> u64 {
        (0..=self.top()).map(|n| self.layer_len(n)).sum()
    }

    /// The game's start: every box open on both sheets.
    pub fn start(&self) -> (usize, usize) {
        let all = (1u32 << self.rules.boxes.len()) - 1;
        self.find(all, 0, 0).expect("the start is a sheet of the game")
    }
}

/// The most points box `b` scores in any roll (a joker's full value
/// included).
fn box_most(rules: &RuleSet, b: usize) -> u32 {
    let n = usize::from(rules.dice);
    let ordinary = (0..multiset_count(n))
        .map(|r| u32::from(rules.points(b, &Dice::unrank(n, r).expect("a rank below the count").counts())))
        .max()
        .unwrap_or(0);
    // A joker scores all the dice alike as if they fitted: at most their sum.
    let joker = rules.extra_bonus.filter(|e| e.joker != Joker::None);
    match joker {
        Some(_) => ordinary.max(u32::from(rules.dice) * 6),
        None => ordinary,
    }
}

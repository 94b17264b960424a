//! The brute force of any rule set played by two players, straight from
//! the rules: a recursion over both sheets, each pair of sheets solved at
//! every lead of a window at once (a lead's value as one entry of a
//! vector through the same enumeration of rolls and keeps), memoised by
//! the pair. It shares no code with the generator or the reader.
//!
//! The lead is the mover's points less the opponent's, the upper bonuses
//! left out of it: each sheet's upper total pays its own at the end. A
//! lead outside the window reads the window's end: the window is wider
//! than any lead a queried one leads to (see [`BruteDuel::new`]), so only
//! leads no query reaches read it.

use std::rc::Rc;

use rustc_hash::FxHashMap as HashMap;

use super::{BruteOption, BruteRules, Scored};

/// A sheet: open boxes, upper total, boxes holding points.
pub type Sheet = (u32, u32, u32);

/// Sorted dice packed into a number (3 bits a die), for the turn's memo.
fn packed(dice: &[u8]) -> u32 {
    dice.iter().fold(1, |p, &d| p << 3 | u32::from(d))
}

/// The two-player brute force of one rule set.
pub struct BruteDuel {
    rules: BruteRules,
    /// Leads `-span..=span`.
    span: i64,
    memo: HashMap<(Sheet, Sheet), Rc<Vec<f64>>>,
}

/// One turn's memo: each roll's and each keep's values by rerolls left.
type TurnMemo = HashMap<(u32, usize), Rc<Vec<f64>>>;

impl BruteDuel {
    /// The brute force of `rules`, answering leads up to `query` either
    /// way from sheets with up to `open` boxes open: its window reaches
    /// past them by every point those boxes (and the bonuses) can score.
    pub fn new(rules: dice_tables_reader::rules::RuleSet, query: i64, open: u32) -> BruteDuel {
        let rules = BruteRules::new(rules);
        let dice = usize::from(rules.rules.dice);
        let outcomes = Rc::clone(&rules.outcomes);
        // The most any box scores in one roll, first-roll and extra bonuses and a joker's sum included.
        let extra = rules.rules.extra_bonus.map_or(0, |e| i64::from(e.points));
        let most_box = (0..rules.rules.boxes.len())
            .map(|b| {
                let fit = outcomes[dice].iter().filter_map(|(d, _)| rules.fit(d, b)).max().unwrap_or(0);
                i64::from(fit.max(6 * dice as u32)) + i64::from(rules.rules.boxes[b].first_roll) + extra
            })
            .max()
            .unwrap_or(0);
        let bonus = rules.rules.upper_bonus.map_or(0, |u| i64::from(u.points));
        let span = query + 2 * (i64::from(open) * most_box + bonus);
        BruteDuel { rules, span, memo: HashMap::default() }
    }

    /// The mover's chance of winning, a tie half, both playing to win: the
    /// mover's sheet `me`, the opponent's `opp`, the lead `lead` (within
    /// the query the brute force was made for).
    pub fn chance(&mut self, me: Sheet, opp: Sheet, lead: i64) -> f64 {
        let row = self.row(me, opp);
        row[self.at(lead)]
    }

    /// Every option of sorted `dice` with `left` rerolls left in the
    /// mover's turn: each box the dice may score, then while rerolls are
    /// left each keep of fewer dice, with the mover's chance at `lead`.
    pub fn options(&mut self, me: Sheet, opp: Sheet, lead: i64, dice: &[u8], left: usize) -> Vec<(BruteOption, f64)> {
        let (me, opp) = (self.told_apart(me), self.told_apart(opp));
        let mut dice = dice.to_vec();
        dice.sort_unstable();
        let at = self.at(lead);
        let first = left == usize::from(self.rules.rules.rerolls);
        let mut out = Vec::new();
        for s in self.rules.scorings(me.0, me.2, &dice) {
            out.push((BruteOption::Score(s.b), self.scored(me, opp, &s, first)[at]));
        }
        if left > 0 {
            let mut turn = TurnMemo::default();
            for keep in 0u32..(1 << dice.len()) - 1 {
                let kept: Vec<u8> = (0..dice.len()).filter(|i| keep >> i & 1 == 1).map(|i| dice[i]).collect();
                if out.iter().any(|(o, _)| *o == BruteOption::Keep(kept.clone())) {
                    continue;
                }
                let v = self.keep_value(&mut turn, me, opp, &kept, left - 1)[at];
                out.push((BruteOption::Keep(kept), v));
            }
        }
        out
    }

    fn at(&self, lead: i64) -> usize {
        assert!(lead.abs() <= self.span, "lead {lead} outside the window");
        (lead + self.span) as usize
    }

    fn told_apart(&self, (open, upper, held): Sheet) -> Sheet {
        let (upper, held) = self.rules.told_apart(open, upper, held);
        (open, upper, held)
    }

    /// `V(me, opp, d)` for every lead of the window.
    fn row(&mut self, me: Sheet, opp: Sheet) -> Rc<Vec<f64>> {
        let (me, opp) = (self.told_apart(me), self.told_apart(opp));
        if let Some(row) = self.memo.get(&(me, opp)) {
            return Rc::clone(row);
        }
        let leads = -self.span..=self.span;
        let row: Vec<f64> = if me.0 == 0 && opp.0 == 0 {
            let bonus = i64::from(self.rules.upper_bonus(me.1)) - i64::from(self.rules.upper_bonus(opp.1));
            leads.map(|d| f64::from(u8::from(d + bonus > 0) * 2 + u8::from(d + bonus == 0)) / 2.0).collect()
        } else {
            let n = usize::from(self.rules.rules.dice);
            let rerolls = usize::from(self.rules.rules.rerolls);
            let outcomes = Rc::clone(&self.rules.outcomes);
            let mut turn = TurnMemo::default();
            let mut sum = vec![0.0; leads.count()];
            for (dice, p) in &outcomes[n] {
                let v = self.roll_value(&mut turn, me, opp, dice, rerolls);
                sum.iter_mut().zip(v.iter()).for_each(|(s, v)| *s += p * v);
            }
            sum
        };
        let row = Rc::new(row);
        self.memo.insert((me, opp), Rc::clone(&row));
        row
    }

    /// Scoring `s`: a box that wins at once wins; else `1 - V` of the
    /// opponent's turn at the lead it makes.
    fn scored(&mut self, me: Sheet, opp: Sheet, s: &Scored, first: bool) -> Vec<f64> {
        let len = (2 * self.span + 1) as usize;
        if first && s.holds && self.rules.rules.boxes[s.b].wins {
            return vec![1.0; len];
        }
        let now = i64::from(s.now + if first { s.first_roll } else { 0 });
        let next = (me.0 & !(1 << s.b), me.1 + s.upper, if s.holds { me.2 | 1 << s.b } else { me.2 });
        let after = self.row(opp, next);
        let span = self.span;
        (0..len as i64)
            .map(|i| {
                let lead = -((i - span) + now);
                1.0 - after[(lead + span).clamp(0, 2 * span) as usize]
            })
            .collect()
    }

    /// The best play of sorted `dice` with `left` rerolls left, per lead.
    fn roll_value(&mut self, turn: &mut TurnMemo, me: Sheet, opp: Sheet, dice: &[u8], left: usize) -> Rc<Vec<f64>> {
        let key = (packed(dice), left);
        if let Some(v) = turn.get(&key) {
            return Rc::clone(v);
        }
        let first = left == usize::from(self.rules.rules.rerolls);
        let mut best = vec![f64::NEG_INFINITY; (2 * self.span + 1) as usize];
        let max_into = |best: &mut Vec<f64>, v: &[f64]| best.iter_mut().zip(v).for_each(|(b, &v)| *b = b.max(v));
        for s in self.rules.scorings(me.0, me.2, dice) {
            let v = self.scored(me, opp, &s, first);
            max_into(&mut best, &v);
        }
        if left > 0 {
            let mut seen: Vec<Vec<u8>> = Vec::new();
            for keep in 0u32..(1 << dice.len()) - 1 {
                let kept: Vec<u8> = (0..dice.len()).filter(|i| keep >> i & 1 == 1).map(|i| dice[i]).collect();
                if seen.contains(&kept) {
                    continue;
                }
                let v = self.keep_value(turn, me, opp, &kept, left - 1);
                max_into(&mut best, &v);
                seen.push(kept);
            }
        }
        let best = Rc::new(best);
        turn.insert(key, Rc::clone(&best));
        best
    }

    /// Keeping sorted `kept` and rerolling the rest, `left` rerolls left
    /// after it: the average over the rerolled dice, per lead.
    fn keep_value(&mut self, turn: &mut TurnMemo, me: Sheet, opp: Sheet, kept: &[u8], left: usize) -> Rc<Vec<f64>> {
        // A keep holds fewer dice than a roll: their packings differ.
        let key = (packed(kept), left);
        if let Some(v) = turn.get(&key) {
            return Rc::clone(v);
        }
        let n = usize::from(self.rules.rules.dice);
        let outcomes = Rc::clone(&self.rules.outcomes);
        let mut sum = vec![0.0; (2 * self.span + 1) as usize];
        for (thrown, p) in &outcomes[n - kept.len()] {
            let mut next: Vec<u8> = kept.iter().chain(thrown).copied().collect();
            next.sort_unstable();
            let v = self.roll_value(turn, me, opp, &next, left);
            sum.iter_mut().zip(v.iter()).for_each(|(s, v)| *s += p * v);
        }
        let sum = Rc::new(sum);
        turn.insert(key, Rc::clone(&sum));
        sum
    }
}

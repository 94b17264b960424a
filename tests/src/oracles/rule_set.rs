//! An independent evaluator of any rule set of the Yahtzee family, straight
//! from the rules as the guide states them: it reads a [`RuleSet`]'s data
//! (its fields, not its scoring methods), scores sorted dice by trying
//! every subset and every assignment of faces, enumerates every keep of
//! the dice positions and every outcome of the rerolled dice, and memoises
//! turn starts in a hash map. It shares no scoring or solving code with the
//! reader or the generator, and is slow on purpose: for reduced games.

use dice_tables_reader::rules::{Joker, Kind, Order, RuleSet, Score};
use rustc_hash::FxHashMap as HashMap;

use crate::throw_outcomes;

pub mod duel;

/// A turn start: open boxes, upper total, boxes holding points, rerolls saved.
type State = (u32, u32, u32, u32);

/// Every outcome of throwing k dice with its chance, for each k.
type Outcomes = std::rc::Rc<Vec<Vec<(Vec<u8>, f64)>>>;

/// The brute force of one rule set.
pub struct BruteRules {
    rules: RuleSet,
    /// Every outcome of throwing k dice, for k = 0 to the rule set's dice.
    outcomes: Outcomes,
    /// By (turn start, rerolls saved).
    memo: HashMap<(u32, u32, u32, u32), f64>,
    /// The chance of scoring at least n more, by (turn start, n).
    reach_memo: HashMap<(u32, u32, u32, i64), f64>,
    beat_memo: HashMap<(u32, u32, u32, i64), f64>,
    /// Each turn start's parts, and whether a tie decides them.
    parts_memo: HashMap<(u32, u32, u32), (Vec<f64>, bool)>,
    /// Set when a tie between options whose parts differ was met.
    tied: bool,
}

/// What a turn is played for: the most points still to come on average,
/// or the best chance of scoring at least `n` more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The most points still to come on average.
    Points,
    /// The best chance of scoring at least this many more.
    Reach(i64),
    /// The best chance of scoring more than this many more, a tie (as
    /// many) counting half: against an opponent who has finished.
    Beat(i64),
}

/// An option of a roll: score a box (its index), or keep these dice
/// (sorted) and reroll the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BruteOption {
    /// Score box `b`.
    Score(usize),
    /// Keep these dice.
    Keep(Vec<u8>),
}

/// One turn start's memo while its parts are found: each roll's and
/// keep's parts, and each roll's value, by (dice, rerolls left).
#[derive(Default)]
struct TurnParts {
    parts: HashMap<(Vec<u8>, usize), Vec<f64>>,
    values: HashMap<(Vec<u8>, usize), f64>,
}

/// One way to score: the box, its points now (bonuses included), the points
/// it adds to the upper total, and whether it holds points afterwards.
struct Scored {
    b: usize,
    now: u32,
    /// Of `now`, the extra bonus.
    bonus: u32,
    first_roll: u32,
    upper: u32,
    holds: bool,
}

impl BruteRules {
    pub fn new(rules: RuleSet) -> BruteRules {
        let outcomes = std::rc::Rc::new((0..=usize::from(rules.dice)).map(throw_outcomes).collect());
        BruteRules {
            rules,
            outcomes,
            memo: HashMap::default(),
            reach_memo: HashMap::default(),
            beat_memo: HashMap::default(),
            parts_memo: HashMap::default(),
            tied: false,
        }
    }

    /// The face box `face` scores in, if any.
    fn face_box(&self, face: u8) -> Option<usize> {
        self.rules.boxes.iter().position(|b| b.kind == Kind::Face(face))
    }

    /// The points of sorted `dice` in box `b` by the ordinary rules, or
    /// `None` when they do not fit it (then 0, or a joker's full value).
    fn fit(&self, dice: &[u8], b: usize) -> Option<u32> {
        let n = dice.len();
        let all: u32 = dice.iter().map(|&d| u32::from(d)).sum();
        let count = |f: u8| dice.iter().filter(|&&d| d == f).count();
        let of = |score: Score, own: u32| match score {
            Score::Dice => own,
            Score::All => all,
            Score::Points(p) => u32::from(p),
        };
        // Every subset of the dice positions, as (its dice, their sum).
        let subsets = || {
            (0u32..1 << n).map(move |s| {
                let chosen: Vec<u8> = (0..n).filter(|i| s >> i & 1 == 1).map(|i| dice[i]).collect();
                let sum = chosen.iter().map(|&d| u32::from(d)).sum::<u32>();
                (chosen, sum)
            })
        };
        match &self.rules.boxes[b].kind {
            Kind::Face(f) => Some(u32::from(*f) * count(*f) as u32),
            Kind::Alike { count: c, score } => subsets()
                .filter(|(s, _)| s.len() == usize::from(*c) && s.iter().all(|&d| d == s[0]))
                .map(|(_, sum)| sum)
                .max()
                .map(|own| of(*score, own)),
            Kind::Pairs { pairs, exactly, score } => {
                let mut best = None;
                for faces in 0u32..64 {
                    let chosen: Vec<u8> = (1..=6u8).filter(|f| faces >> (f - 1) & 1 == 1).collect();
                    let ok = chosen.len() == usize::from(*pairs)
                        && chosen.iter().all(|&f| if *exactly { count(f) == 2 } else { count(f) >= 2 });
                    if ok {
                        let own = chosen.iter().map(|&f| 2 * u32::from(f)).sum::<u32>();
                        best = best.max(Some(own));
                    }
                }
                best.map(|own| of(*score, own))
            }
            Kind::Groups { sizes, more_alike, one_face, score } => {
                let mut best = None;
                for code in 0..6usize.pow(sizes.len() as u32) {
                    let faces: Vec<u8> =
                        (0..sizes.len()).map(|i| (code / 6usize.pow(i as u32) % 6) as u8 + 1).collect();
                    let distinct = faces.iter().enumerate().all(|(i, f)| !faces[..i].contains(f));
                    let fits = faces.iter().zip(sizes).all(|(&f, &s)| {
                        if *more_alike {
                            count(f) >= usize::from(s)
                        } else {
                            count(f) == usize::from(s)
                        }
                    });
                    if distinct && fits {
                        let own = faces.iter().zip(sizes).map(|(&f, &s)| u32::from(f) * u32::from(s)).sum::<u32>();
                        best = best.max(Some(own));
                    }
                }
                let needed: usize = sizes.iter().map(|&s| usize::from(s)).sum();
                if *one_face {
                    for f in 1..=6u8 {
                        if count(f) >= needed {
                            best = best.max(Some(u32::from(f) * needed as u32));
                        }
                    }
                }
                best.map(|own| of(*score, own))
            }
            Kind::Straight { runs, score } => runs
                .iter()
                .filter(|&&run| (1..=6u8).all(|f| run >> (f - 1) & 1 == 0 || count(f) > 0))
                .map(|&run| (1..=6u32).filter(|f| run >> (f - 1) & 1 == 1).sum::<u32>())
                .max()
                .map(|own| of(*score, own)),
            Kind::Chance => Some(all),
            Kind::Total { total, pair, score } => {
                let paired = (1..=6u8).any(|f| count(f) >= 2);
                (all == u32::from(*total) && (!pair || paired)).then(|| of(*score, all))
            }
        }
    }

    /// Every way to score sorted `dice` with `mask` open and `held` the
    /// boxes holding points.
    fn scorings(&self, mask: u32, held: u32, dice: &[u8]) -> Vec<Scored> {
        let rules = &self.rules;
        let is_open = |b: usize| mask >> b & 1 == 1;
        let mut open: Vec<usize> = (0..rules.boxes.len()).filter(|&b| is_open(b)).collect();
        if rules.order == Order::Fixed {
            open.truncate(1); // the next box only
        }
        let is_face = |b: usize| matches!(rules.boxes[b].kind, Kind::Face(_));
        let bonus_boxes = rules.upper_bonus.map_or(0, |u| u.boxes);
        let all_alike = dice.iter().all(|&d| d == dice[0]);
        // A further roll of all the dice alike: its bonus, and where the joker lets it go.
        let extra = rules.extra_bonus.filter(|e| all_alike && !is_open(e.box_index));
        let bonus = extra.filter(|e| held >> e.box_index & 1 == 1).map_or(0, |e| u32::from(e.points));
        let face_box = self.face_box(dice[0]);
        let face_open = face_box.is_some_and(is_open);
        let joker = extra.map(|e| e.joker).filter(|&j| j != Joker::None);
        // The joker's placement among all the open boxes, then among those
        // that may be scored now (all of them, where it leaves none).
        let all_open: Vec<usize> = (0..rules.boxes.len()).filter(|&b| is_open(b)).collect();
        let placed: Vec<usize> = match joker {
            Some(Joker::Forced) if face_open => face_box.into_iter().collect(),
            Some(Joker::Forced) if all_open.iter().any(|&b| !is_face(b)) => {
                all_open.iter().copied().filter(|&b| !is_face(b)).collect()
            }
            _ => all_open,
        };
        let placed: Vec<usize> = open.iter().copied().filter(|b| placed.contains(b)).collect();
        let allowed = if placed.is_empty() { open } else { placed };
        allowed
            .into_iter()
            .map(|b| {
                let rule = &rules.boxes[b];
                let usable = rule.needs.is_none_or(|n| held >> n & 1 == 1);
                let full_value = joker.is_some() && !is_face(b) && !face_open;
                let points = match self.fit(dice, b) {
                    _ if !usable => 0,
                    Some(p) => p,
                    None if full_value => match &rule.kind {
                        Kind::Alike { score: Score::Points(p), .. }
                        | Kind::Pairs { score: Score::Points(p), .. }
                        | Kind::Groups { score: Score::Points(p), .. }
                        | Kind::Straight { score: Score::Points(p), .. }
                        | Kind::Total { score: Score::Points(p), .. } => u32::from(*p),
                        _ => dice.iter().map(|&d| u32::from(d)).sum(),
                    },
                    None => 0,
                };
                let upper = if bonus_boxes >> b & 1 == 1 { points } else { 0 };
                Scored {
                    b,
                    now: points + bonus,
                    bonus,
                    first_roll: if points > 0 { u32::from(rule.first_roll) } else { 0 },
                    upper,
                    holds: points > 0,
                }
            })
            .collect()
    }

    /// The value of a turn start: `mask` open, `upper` the upper total
    /// (capped at the bonus's threshold), `held` the boxes holding points.
    pub fn turn_start(&mut self, mask: u32, upper: u32, held: u32) -> f64 {
        self.turn_start_saved(mask, upper, held, 0)
    }

    /// [`turn_start`](BruteRules::turn_start) with `saved` rerolls saved
    /// from earlier turns, where the rules save them: the turn may use its
    /// own and those, and scoring saves the rerolls left.
    pub fn turn_start_saved(&mut self, mask: u32, upper: u32, held: u32, saved: u32) -> f64 {
        let (upper, held) = self.told_apart(mask, upper, held);
        if mask == 0 {
            return f64::from(self.upper_bonus(upper));
        }
        if let Some(&v) = self.memo.get(&(mask, upper, held, saved)) {
            return v;
        }
        let value = self.first_roll_average(Goal::Points, (mask, upper, held, saved));
        self.memo.insert((mask, upper, held, saved), value);
        value
    }

    /// The expected final points of each box and bonus from a turn start
    /// (as [`turn_start`](BruteRules::turn_start) takes it) under this
    /// brute force's own best play (the first best option in its order:
    /// the boxes, then the keeps): each box in sheet order, then the upper
    /// bonus, the extra bonus and the first-roll bonus, each where the
    /// rules pay one. They add up to the turn start's value.
    pub fn parts(&mut self, mask: u32, upper: u32, held: u32) -> Vec<f64> {
        let (upper, held) = self.told_apart(mask, upper, held);
        let rules = &self.rules;
        let boxes = rules.boxes.len();
        let slots: Vec<&str> = [
            rules.upper_bonus.map(|_| "upper"),
            rules.extra_bonus.filter(|e| e.points > 0).map(|_| "extra"),
            rules.boxes.iter().any(|b| b.first_roll > 0).then_some("first"),
        ]
        .into_iter()
        .flatten()
        .collect();
        let slot = |name: &str| slots.iter().position(|&s| s == name).map(|i| boxes + i);
        let slot = [slot("upper"), slot("extra"), slot("first")];
        let mut parts = vec![0.0; boxes + slots.len()];
        if mask == 0 {
            if let Some(i) = slot[0] {
                parts[i] = f64::from(self.upper_bonus(upper));
            }
            return parts;
        }
        if let Some((p, tied)) = self.parts_memo.get(&(mask, upper, held)) {
            self.tied |= tied;
            return p.clone();
        }
        // Whether a tie decides this turn start's parts, apart from the
        // turn starts before it.
        let outer = std::mem::replace(&mut self.tied, false);
        let n = usize::from(self.rules.dice);
        let rerolls = usize::from(self.rules.rerolls);
        let outcomes = std::rc::Rc::clone(&self.outcomes);
        let mut turn = TurnParts::default();
        for (dice, p) in &outcomes[n] {
            let roll = self.roll_parts(&mut turn, (mask, upper, held, 0), slot, dice, rerolls);
            parts.iter_mut().zip(roll).for_each(|(a, b)| *a += p * b);
        }
        self.parts_memo.insert((mask, upper, held), (parts.clone(), self.tied));
        self.tied |= outer;
        parts
    }

    /// Whether two options tied for the best (within 1e-9) but with parts
    /// apart by more than that decide the parts of this turn start (in its
    /// turn or a later one): any best play's parts are then as right, and
    /// another solver's may differ.
    pub fn parts_tied(&mut self, mask: u32, upper: u32, held: u32) -> bool {
        self.parts(mask, upper, held);
        let (upper, held) = self.told_apart(mask, upper, held);
        mask != 0 && self.parts_memo[&(mask, upper, held)].1
    }

    /// The parts of sorted `dice` with `left` rerolls left, played as
    /// [`parts`](BruteRules::parts) plays. `slot`: where the upper, extra
    /// and first-roll bonuses' parts are.
    fn roll_parts(
        &mut self,
        turn: &mut TurnParts,
        state: State,
        slot: [Option<usize>; 3],
        dice: &[u8],
        left: usize,
    ) -> Vec<f64> {
        if let Some(p) = turn.parts.get(&(dice.to_vec(), left)) {
            return p.clone();
        }
        let options = self.options_memo(Goal::Points, state, dice, left, &mut turn.values);
        let best = options.iter().fold(None, |b: Option<&(BruteOption, f64)>, o| match b {
            Some(b) if o.1 <= b.1 => Some(b),
            _ => Some(o),
        });
        let (chosen, value) = best.expect("an open box takes every roll").clone();
        let parts = self.option_parts(turn, state, slot, dice, left, &chosen);
        for (other, v) in &options {
            if *other != chosen && (value - v).abs() < 1e-9 {
                let theirs = self.option_parts(turn, state, slot, dice, left, other);
                if parts.iter().zip(&theirs).any(|(a, b)| (a - b).abs() > 1e-9) {
                    self.tied = true;
                }
            }
        }
        turn.parts.insert((dice.to_vec(), left), parts.clone());
        parts
    }

    /// The parts of playing `option` of sorted `dice` with `left` rerolls left.
    fn option_parts(
        &mut self,
        turn: &mut TurnParts,
        state: State,
        slot: [Option<usize>; 3],
        dice: &[u8],
        left: usize,
        option: &BruteOption,
    ) -> Vec<f64> {
        let (mask, upper, held, _) = state;
        match option.clone() {
            BruteOption::Score(b) => {
                let first = left == usize::from(self.rules.rerolls);
                let s = self.scorings(mask, held, dice).into_iter().find(|s| s.b == b).expect("an option scored");
                let next_held = if s.holds { held | 1 << s.b } else { held };
                let mut parts = self.parts(mask & !(1 << s.b), upper + s.upper, next_held);
                parts[b] += f64::from(s.now - s.bonus);
                if let Some(i) = slot[1] {
                    parts[i] += f64::from(s.bonus);
                }
                if let (true, Some(i)) = (first, slot[2]) {
                    parts[i] += f64::from(s.first_roll);
                }
                parts
            }
            BruteOption::Keep(kept) => {
                // A keep's parts once a turn (a 0 before the dice tells it
                // from a roll's).
                let key = (std::iter::once(0).chain(kept.iter().copied()).collect::<Vec<u8>>(), left);
                if let Some(p) = turn.parts.get(&key) {
                    return p.clone();
                }
                let outcomes = std::rc::Rc::clone(&self.outcomes);
                let mut parts: Vec<f64> = Vec::new();
                for (thrown, p) in &outcomes[dice.len() - kept.len()] {
                    let mut next: Vec<u8> = kept.iter().chain(thrown).copied().collect();
                    next.sort_unstable();
                    let roll = self.roll_parts(turn, state, slot, &next, left - 1);
                    parts.resize(roll.len(), 0.0);
                    parts.iter_mut().zip(roll).for_each(|(a, b)| *a += p * b);
                }
                turn.parts.insert(key, parts.clone());
                parts
            }
        }
    }

    /// The best chance, from a turn start (as [`turn_start`](BruteRules::turn_start)
    /// takes it), of scoring at least `n` more points by the game's end,
    /// the bonuses included.
    pub fn reach(&mut self, mask: u32, upper: u32, held: u32, n: i64) -> f64 {
        let (upper, held) = self.told_apart(mask, upper, held);
        if n <= 0 {
            return 1.0;
        }
        if mask == 0 {
            return if n <= i64::from(self.upper_bonus(upper)) { 1.0 } else { 0.0 };
        }
        if let Some(&v) = self.reach_memo.get(&(mask, upper, held, n)) {
            return v;
        }
        let value = self.first_roll_average(Goal::Reach(n), (mask, upper, held, 0));
        self.reach_memo.insert((mask, upper, held, n), value);
        value
    }

    /// The best chance, from a turn start, of scoring more than `behind`
    /// more points by the game's end, as many counting half: the chance of
    /// winning against an opponent who has finished `behind` points ahead.
    pub fn beat(&mut self, mask: u32, upper: u32, held: u32, behind: i64) -> f64 {
        let (upper, held) = self.told_apart(mask, upper, held);
        if mask == 0 {
            let bonus = i64::from(self.upper_bonus(upper));
            return match bonus.cmp(&behind) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        if let Some(&v) = self.beat_memo.get(&(mask, upper, held, behind)) {
            return v;
        }
        let value = self.first_roll_average(Goal::Beat(behind), (mask, upper, held, 0));
        self.beat_memo.insert((mask, upper, held, behind), value);
        value
    }

    /// The upper total capped at the bonus's threshold, and the held boxes
    /// whose points matter later.
    fn told_apart(&self, mask: u32, upper: u32, held: u32) -> (u32, u32) {
        let cap = self.rules.upper_bonus.map_or(0, |u| u32::from(u.at));
        let matters: u32 = self
            .rules
            .boxes
            .iter()
            .filter_map(|b| b.needs)
            .chain(self.rules.extra_bonus.filter(|e| e.points > 0).map(|e| e.box_index))
            .fold(0, |m, b| m | 1 << b);
        (upper.min(cap), held & matters & !mask)
    }

    /// The upper bonus a finished sheet with this upper total is paid.
    fn upper_bonus(&self, upper: u32) -> u16 {
        match self.rules.upper_bonus {
            Some(u) if upper >= u32::from(u.at) => u.points,
            _ => 0,
        }
    }

    /// The average over the turn's first roll of its best play for `goal`.
    fn first_roll_average(&mut self, goal: Goal, state: State) -> f64 {
        let n = usize::from(self.rules.dice);
        let rerolls = self.turn_rerolls(state);
        let mut turn: HashMap<(Vec<u8>, usize), f64> = HashMap::default();
        let outcomes = std::rc::Rc::clone(&self.outcomes);
        outcomes[n].iter().map(|(dice, p)| p * self.roll_value(&mut turn, goal, state, dice, rerolls)).sum()
    }

    /// The rerolls a turn from `state` has: the rules' and those saved.
    fn turn_rerolls(&self, (_, _, _, saved): State) -> usize {
        usize::from(self.rules.rerolls) + saved as usize
    }

    /// What scoring `s` for `now` points with `left` rerolls left is worth
    /// for `goal` (where the rules save rerolls, the next turn has `left`
    /// saved).
    fn after(&mut self, goal: Goal, (mask, upper, held, _): State, s: &Scored, now: u32, left: usize) -> f64 {
        let next_held = if s.holds { held | 1 << s.b } else { held };
        let next = (mask & !(1 << s.b), upper + s.upper, next_held);
        let saved = if self.rules.saved_rerolls { left as u32 } else { 0 };
        match goal {
            Goal::Points => f64::from(now) + self.turn_start_saved(next.0, next.1, next.2, saved),
            Goal::Reach(n) => self.reach(next.0, next.1, next.2, n - i64::from(now)),
            Goal::Beat(b) => self.beat(next.0, next.1, next.2, b - i64::from(now)),
        }
    }

    /// Every option of sorted `dice` with `left` rerolls left at a turn
    /// start (as [`turn_start`](BruteRules::turn_start) takes it): each box
    /// the dice may score, then while rerolls are left each keep of fewer
    /// dice, with its value (this turn's points included).
    pub fn options(&mut self, mask: u32, upper: u32, held: u32, dice: &[u8], left: usize) -> Vec<(BruteOption, f64)> {
        self.options_for(Goal::Points, mask, upper, held, dice, left)
    }

    /// [`options`](BruteRules::options) with `saved` rerolls saved.
    pub fn options_saved(
        &mut self,
        (mask, upper, held, saved): State,
        dice: &[u8],
        left: usize,
    ) -> Vec<(BruteOption, f64)> {
        self.options_in(Goal::Points, (mask, upper, held, saved), dice, left)
    }

    /// [`options`](BruteRules::options) played for `goal`: each option's
    /// value its expected points, or its best chance of the need.
    pub fn options_for(
        &mut self,
        goal: Goal,
        mask: u32,
        upper: u32,
        held: u32,
        dice: &[u8],
        left: usize,
    ) -> Vec<(BruteOption, f64)> {
        self.options_in(goal, (mask, upper, held, 0), dice, left)
    }

    fn options_in(&mut self, goal: Goal, state: State, dice: &[u8], left: usize) -> Vec<(BruteOption, f64)> {
        self.options_memo(goal, state, dice, left, &mut HashMap::default())
    }

    /// [`options_in`](BruteRules::options_in) with the turn's roll values
    /// memoised in `turn` (one turn start's, for one goal).
    fn options_memo(
        &mut self,
        goal: Goal,
        state: State,
        dice: &[u8],
        left: usize,
        turn: &mut HashMap<(Vec<u8>, usize), f64>,
    ) -> Vec<(BruteOption, f64)> {
        let (mask, upper, held, saved) = state;
        let upper = upper.min(self.rules.upper_bonus.map_or(0, |u| u32::from(u.at)));
        let state = (mask, upper, held, saved);
        let mut dice = dice.to_vec();
        dice.sort_unstable();
        let first = left == self.turn_rerolls(state);
        let mut out = Vec::new();
        for s in self.scorings(mask, held, &dice) {
            let now = s.now + if first { s.first_roll } else { 0 };
            out.push((BruteOption::Score(s.b), self.after(goal, state, &s, now, left)));
        }
        if left > 0 {
            let n = dice.len();
            for keep in 0u32..(1 << n) - 1 {
                let kept: Vec<u8> = (0..n).filter(|i| keep >> i & 1 == 1).map(|i| dice[i]).collect();
                if out.iter().any(|(o, _)| *o == BruteOption::Keep(kept.clone())) {
                    continue;
                }
                let outcomes = std::rc::Rc::clone(&self.outcomes);
                let mut expected = 0.0;
                for (thrown, p) in &outcomes[n - kept.len()] {
                    let mut next: Vec<u8> = kept.iter().chain(thrown).copied().collect();
                    next.sort_unstable();
                    expected += p * self.roll_value(turn, goal, state, &next, left - 1);
                }
                out.push((BruteOption::Keep(kept), expected));
            }
        }
        out
    }

    /// The best play of sorted `dice` with `left` rerolls left.
    fn roll_value(
        &mut self,
        turn: &mut HashMap<(Vec<u8>, usize), f64>,
        goal: Goal,
        state: State,
        dice: &[u8],
        left: usize,
    ) -> f64 {
        if let Some(&v) = turn.get(&(dice.to_vec(), left)) {
            return v;
        }
        let (mask, _, held, _) = state;
        let first = left == self.turn_rerolls(state);
        let mut best = f64::NEG_INFINITY;
        for s in self.scorings(mask, held, dice) {
            let now = s.now + if first { s.first_roll } else { 0 };
            best = best.max(self.after(goal, state, &s, now, left));
        }
        if left > 0 {
            let n = dice.len();
            let mut seen: Vec<Vec<u8>> = Vec::new();
            for keep in 0u32..(1 << n) - 1 {
                let kept: Vec<u8> = (0..n).filter(|i| keep >> i & 1 == 1).map(|i| dice[i]).collect();
                if seen.contains(&kept) {
                    continue;
                }
                seen.push(kept.clone());
                let outcomes = std::rc::Rc::clone(&self.outcomes);
                let mut expected = 0.0;
                for (thrown, p) in &outcomes[n - kept.len()] {
                    let mut next: Vec<u8> = kept.iter().chain(thrown).copied().collect();
                    next.sort_unstable();
                    expected += p * self.roll_value(turn, goal, state, &next, left - 1);
                }
                best = best.max(expected);
            }
        }
        turn.insert((dice.to_vec(), left), best);
        best
    }
}

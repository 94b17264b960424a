//! A rule set of the Yahtzee family as a value: the dice, the rerolls, the
//! boxes in sheet order (each a kind from one scoring vocabulary with its
//! parameters), the upper bonus, the extra-Yahtzee bonus with its joker, and
//! the order boxes are filled in. A table carries its rule set as canonical
//! text ([`RuleSet::to_text`], read back by [`RuleSet::from_text`]), so a
//! reader answers a table of any rule set with nothing about it compiled in.
//!
//! The vocabulary (each box's `kind` and its parameters, as the rule files
//! write them):
//!
//! | kind | parameters | scores |
//! | --- | --- | --- |
//! | `face` | `face` 1-6 | the face times how many show |
//! | `alike` | `count` n, `score` | n dice of one face (or more) |
//! | `pairs` | `pairs` 2 or 3, `exactly`, `score` | that many pairs of different faces (`exactly`: no face more than twice) |
//! | `groups` | `sizes` (`[3, 2]` full house, `[3, 3]` villa, `[4, 2]` tower), `more-alike`, `one-face`, `score` | groups of different faces of those sizes (`more-alike`: a group may have more dice; `one-face`: one face showing them all counts, as five alike for a full house) |
//! | `straight` | `runs` (lists of faces), `score` | every face of one of the runs showing |
//! | `chance` | | the sum of the dice |
//! | `total` | `total`, `pair`, `score` | the dice summing to `total` (and, with `pair`, two of them alike) |
//!
//! `score` is `"dice"` (the sum of the dice that make the box: the highest
//! such), `"all"` (the sum of all the dice) or a number of points. Any box
//! may also take `first-roll` (points more when it scores points with the turn's first
//! roll, Generala's "servida"), `needs` (another box that must hold points
//! before this one can score, Generala's double generala) and `wins`
//! (scored with the turn's first roll, it wins a two-player game at once).
//!
//! ```
//! use dice_tables_reader::rules::RuleSet;
//! let text = "name = \"pig\"\ndice = 3\nrerolls = 1\n\n[[box]]\nname = \"sixes\"\nkind = \"face\"\nface = 6\n\n[[box]]\nname = \"crag\"\nkind = \"total\"\ntotal = 13\npair = true\nscore = 50\n";
//! let rules = RuleSet::from_text(text).unwrap();
//! assert_eq!(rules.points(1, &[1, 0, 0, 0, 0, 2]), 50); // 1-6-6 totals 13 with a pair
//! assert_eq!(rules.points(0, &[1, 0, 0, 0, 0, 2]), 12);
//! assert_eq!(rules.to_text(), text);
//! ```

pub mod text;

pub use text::RulesTextError;

/// Faces of a die.
pub const FACES: usize = 6;
/// The fewest and most dice a rule set rolls.
pub const DICE: std::ops::RangeInclusive<u8> = 3..=6;
/// The most rerolls a turn.
pub const MOST_REROLLS: u8 = 9;
/// The most boxes a sheet has (a mask of open boxes fits 20 bits).
pub const MOST_BOXES: usize = 20;
/// The most points a box or bonus may give.
pub const MOST_POINTS: u16 = 1000;

/// A turn start of a rule set's sheet: what is still to come depends on
/// nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SheetState {
    /// The open boxes (mask bits in sheet order).
    pub open: u32,
    /// The upper total so far (uncapped; a table caps it at the bonus's threshold).
    pub upper: u32,
    /// The boxes holding points, where that matters later (mask bits).
    pub held: u32,
}

/// How a box's points are counted when its dice fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The dice that make the box (the highest such): `3 x 5` for three fives.
    Dice,
    /// All the dice.
    All,
    /// Fixed points.
    Points(u16),
}

/// What a box scores: one kind of the vocabulary with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // each variant's doc says what its fields are
pub enum Kind {
    /// The face times how many show.
    Face(u8),
    /// `count` dice of one face, or more.
    Alike { count: u8, score: Score },
    /// `pairs` pairs of different faces; `exactly`: no face shows more than twice.
    Pairs { pairs: u8, exactly: bool, score: Score },
    /// Groups of different faces with these many dice each, largest first;
    /// `more_alike`: a group may have more; `one_face`: one face showing
    /// every group's dice counts too.
    Groups { sizes: Vec<u8>, more_alike: bool, one_face: bool, score: Score },
    /// Every face of one of the runs showing (each run as face bits, bit
    /// `f - 1` for face `f`).
    Straight { runs: Vec<u8>, score: Score },
    /// The sum of the dice.
    Chance,
    /// The dice summing to `total`; with `pair`, two of them alike.
    Total { total: u8, pair: bool, score: Score },
}

/// One box of the sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxRule {
    /// Its name, as lookups and masks write it.
    pub name: String,
    /// What it scores.
    pub kind: Kind,
    /// Points more when it scores points with the turn's first roll (0: none).
    pub first_roll: u16,
    /// The box that must hold points before this one scores (its index).
    pub needs: Option<usize>,
    /// Scored with the turn's first roll, it wins a two-player game at once.
    pub wins: bool,
}

/// The upper bonus: `points` once the `boxes` total `at` or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpperBonus {
    /// The boxes that count, as mask bits.
    pub boxes: u32,
    /// The total that earns it.
    pub at: u16,
    /// What it pays.
    pub points: u16,
}

/// Where all the dice alike may score once the box for them is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joker {
    /// The matching face's box if open; else any open box outside the
    /// faces (at full value); else any open face box.
    Forced,
    /// Any open box, at full value once the matching face's box is filled.
    Free,
    /// Only where the dice fit, as any other roll.
    None,
}

impl Joker {
    /// Its name in rule files: `forced`, `free` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Joker::Forced => "forced",
            Joker::Free => "free",
            Joker::None => "none",
        }
    }

    fn named(name: &str) -> Option<Joker> {
        [Joker::Forced, Joker::Free, Joker::None].into_iter().find(|j| j.name() == name)
    }
}

/// The extra-Yahtzee bonus: `points` for each further roll of all the dice
/// alike while `box_` holds points, and the joker for such rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraBonus {
    /// The box of all the dice alike.
    pub box_index: usize,
    /// The bonus of each further one (0: none, the joker only).
    pub points: u16,
    /// Where such a roll may score.
    pub joker: Joker,
}

/// The order boxes are filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Any open box, each turn.
    Free,
    /// Sheet order, one box a turn.
    Fixed,
}

/// A rule set of the Yahtzee family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// Its name (the table's game id).
    pub name: String,
    /// Dice rolled, 3 to 6.
    pub dice: u8,
    /// Rerolls a turn.
    pub rerolls: u8,
    /// Rerolls a turn leaves unused are saved for later turns (Maxi Yatzy's
    /// swedish rule).
    pub saved_rerolls: bool,
    /// The order boxes are filled in.
    pub order: Order,
    /// The boxes, in sheet order (mask bit `i` is box `i`).
    pub boxes: Vec<BoxRule>,
    /// The upper bonus, if any.
    pub upper_bonus: Option<UpperBonus>,
    /// The extra-Yahtzee bonus and joker, if any.
    pub extra_bonus: Option<ExtraBonus>,
}

/// Why a rule set cannot be: one thing wrong, said with the accepted form.
/// `box_index` names the box it is about, if one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// The box it is about (its index), if one.
    pub box_index: Option<usize>,
    /// The key it is about (`dice`, `count`, `upper-bonus.at`, ...).
    pub key: &'static str,
    /// What is wrong and what is accepted, one line.
    pub message: String,
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RulesError {}

/// The face counts' sum.
fn sum(counts: &[u8; FACES]) -> u16 {
    counts.iter().enumerate().map(|(f, &n)| (f as u16 + 1) * u16::from(n)).sum()
}

/// Faces from the highest down, each with how many show.
fn high(counts: &[u8; FACES]) -> impl Iterator<Item = (u8, u8)> + '_ {
    (1..=FACES as u8).rev().map(move |f| (f, counts[usize::from(f) - 1]))
}

impl Score {
    /// The points of a fit whose own dice sum to `dice`.
    fn of(self, dice: u16, counts: &[u8; FACES]) -> u16 {
        match self {
            Score::Dice => dice,
            Score::All => sum(counts),
            Score::Points(p) => p,
        }
    }
}

impl Kind {
    /// The sum of the dice that make this kind in `counts`, the highest
    /// such; `None` when they do not fit it.
    fn fit(&self, counts: &[u8; FACES]) -> Option<u16> {
        match self {
            Kind::Face(f) => Some(u16::from(*f) * u16::from(counts[usize::from(*f) - 1])),
            Kind::Alike { count, .. } => high(counts).find(|&(_, n)| n >= *count).map(|(f, _)| u16::from(f * count)),
            Kind::Pairs { pairs, exactly, .. } => {
                let faces: Vec<u8> =
                    high(counts).filter(|&(_, n)| if *exactly { n == 2 } else { n >= 2 }).map(|(f, _)| f).collect();
                (faces.len() >= usize::from(*pairs))
                    .then(|| faces[..usize::from(*pairs)].iter().map(|&f| 2 * u16::from(f)).sum())
            }
            Kind::Groups { sizes, more_alike, one_face, .. } => {
                let one = one_face.then(|| {
                    let all: u8 = sizes.iter().sum();
                    high(counts).find(|&(_, n)| n >= all).map(|(f, _)| u16::from(f) * u16::from(all))
                });
                best_groups(counts, sizes, *more_alike, 0).max(one.flatten())
            }
            Kind::Straight { runs, .. } => {
                let shown = (0..FACES).filter(|&f| counts[f] > 0).fold(0u8, |bits, f| bits | 1 << f);
                let run_sum = |run: u8| (0..FACES as u16).filter(|f| run >> f & 1 == 1).map(|f| f + 1).sum();
                runs.iter().filter(|&&run| shown & run == run).map(|&run| run_sum(run)).max()
            }
            Kind::Chance => Some(sum(counts)),
            Kind::Total { total, pair, .. } => {
                let fits = sum(counts) == u16::from(*total) && (!pair || counts.iter().any(|&n| n >= 2));
                fits.then(|| sum(counts))
            }
        }
    }

    /// How the kind's points are counted (the face kind: its dice).
    fn score(&self) -> Score {
        match self {
            Kind::Face(_) | Kind::Chance => Score::Dice,
            Kind::Alike { score, .. }
            | Kind::Pairs { score, .. }
            | Kind::Groups { score, .. }
            | Kind::Straight { score, .. }
            | Kind::Total { score, .. } => *score,
        }
    }
}

/// The most dice of groups `sizes[from..]` of different faces not in
/// `used` (face bits) make, each group's face times its size.
fn best_groups(counts: &[u8; FACES], sizes: &[u8], more_alike: bool, used: u8) -> Option<u16> {
    let Some((&size, rest)) = sizes.split_first() else { return Some(0) };
    high(counts)
        .filter(|&(f, n)| used >> (f - 1) & 1 == 0 && if more_alike { n >= size } else { n == size })
        .filter_map(|(f, _)| {
            best_groups(counts, rest, more_alike, used | 1 << (f - 1)).map(|r| r + u16::from(f) * u16::from(size))
        })
        .max()
}

impl RuleSet {
    /// The points `counts` (how many of each face show) scores in box `b`
    /// by the ordinary rules: no joker, no first-roll bonus, `needs` not
    /// asked (see [`RuleSet::scores`]).
    pub fn points(&self, b: usize, counts: &[u8; FACES]) -> u16 {
        let kind = &self.boxes[b].kind;
        kind.fit(counts).map_or(0, |dice| kind.score().of(dice, counts))
    }

    /// The points of box `b` for all the dice alike played as a joker: as
    /// if they fitted it (a straight at its points, a full house too).
    fn joker_points(&self, b: usize, counts: &[u8; FACES]) -> u16 {
        let kind = &self.boxes[b].kind;
        match (kind.fit(counts), kind.score()) {
            (Some(dice), score) => score.of(dice, counts),
            (None, Score::Points(p)) => p,
            (None, Score::All | Score::Dice) => sum(counts),
        }
    }

    /// The face of the box `b` counts, if it is a face box.
    pub fn face_of(&self, b: usize) -> Option<u8> {
        match self.boxes[b].kind {
            Kind::Face(f) => Some(f),
            _ => None,
        }
    }

    /// The most the face boxes among `boxes` (mask bits) can add to an
    /// upper total: each face times the dice (other boxes add nothing).
    pub fn most_faces_make(&self, boxes: u32) -> u32 {
        (0..self.boxes.len())
            .filter(|&b| boxes >> b & 1 == 1)
            .map(|b| u32::from(self.face_of(b).unwrap_or(0)) * u32::from(self.dice))
            .sum()
    }

    /// Which upper totals, capped at `totals - 1`, a sheet with the boxes
    /// of `open` open can have (`result[u]`): the sums the filled boxes of
    /// the upper bonus can make, each its face times 0 to all the dice.
    pub fn reachable_uppers(&self, open: u32, totals: usize) -> Vec<bool> {
        let mut reach = vec![false; totals];
        reach[0] = true;
        let filled = self.upper_bonus.map_or(0, |b| b.boxes & !open);
        for b in (0..self.boxes.len()).filter(|&b| filled >> b & 1 == 1) {
            let face = usize::from(self.face_of(b).unwrap_or(0));
            let mut next = vec![false; totals];
            for u in (0..totals).filter(|&u| reach[u]) {
                for k in 0..=usize::from(self.dice) {
                    next[(u + face * k).min(totals - 1)] = true;
                }
            }
            reach = next;
        }
        reach
    }

    /// The box of face `face`, if the sheet has one.
    fn face_box(&self, face: u8) -> Option<usize> {
        (0..self.boxes.len()).find(|&b| self.face_of(b) == Some(face))
    }

    /// Every way to score `counts` with the boxes of `mask` open, those of
    /// `allowed` (a subset: in a fixed order, the next box) to be scored
    /// now, in box order: `(box, points, bonus)`, the box's points and apart
    /// from them the extra bonus (paid while the extra-bonus box holds
    /// points). Boxes that `needs` another score only once that box holds
    /// points: `held` says which boxes hold points (mask bits). A joker's
    /// placement is among the allowed boxes (all of them, where it would
    /// leave none). First-roll points are the caller's (they depend on the
    /// roll, not the dice).
    pub fn scores(&self, mask: u32, allowed: u32, held: u32, counts: &[u8; FACES], each: impl FnMut(usize, u16, u16)) {
        self.scores_with(mask, allowed, held, counts, |b| self.points(b, counts), each)
    }

    /// [`scores`](RuleSet::scores) with each box's points for `counts`
    /// given, `points[b]` as [`points`](RuleSet::points) counts them: for a
    /// solver that scores the same roll under many states.
    pub fn scores_given(
        &self,
        mask: u32,
        allowed: u32,
        held: u32,
        counts: &[u8; FACES],
        points: &[u16],
        each: impl FnMut(usize, u16, u16),
    ) {
        self.scores_with(mask, allowed, held, counts, |b| points[b], each)
    }

    /// Whether [`scores`](RuleSet::scores) scores `counts` plainly with
    /// the boxes of `mask` open: each allowed box once, for its
    /// [`points`](RuleSet::points) where [`usable`](RuleSet::usable) and 0
    /// elsewhere, with no extra bonus. Only all the dice alike with the
    /// extra-bonus box filled score otherwise (a joker, an extra bonus).
    pub fn scores_plainly(&self, mask: u32, counts: &[u8; FACES]) -> bool {
        !self.extra_bonus.is_some_and(|e| mask >> e.box_index & 1 == 0 && counts.contains(&self.dice))
    }

    /// The boxes that may score points with the boxes of `held` holding
    /// points: every box but one that `needs` a box holding none.
    pub fn usable(&self, held: u32) -> u32 {
        (0..self.boxes.len())
            .filter(|&b| self.boxes[b].needs.is_none_or(|n| held >> n & 1 == 1))
            .fold(0, |m, b| m | 1 << b)
    }

    fn scores_with(
        &self,
        mask: u32,
        allowed: u32,
        held: u32,
        counts: &[u8; FACES],
        points_of: impl Fn(usize) -> u16,
        mut each: impl FnMut(usize, u16, u16),
    ) {
        let open = |b: usize| mask >> b & 1 == 1;
        let usable_boxes = self.usable(held);
        let usable = |b: usize| usable_boxes >> b & 1 == 1;
        if self.scores_plainly(mask, counts) {
            for b in (0..self.boxes.len()).filter(|&b| allowed >> b & 1 == 1) {
                each(b, if usable(b) { points_of(b) } else { 0 }, 0);
            }
            return;
        }
        let alike_face = counts.iter().position(|&n| n == self.dice).map(|f| f as u8 + 1);
        let extra = self.extra_bonus.filter(|e| alike_face.is_some() && !open(e.box_index));
        let bonus = extra.filter(|e| held >> e.box_index & 1 == 1).map_or(0, |e| e.points);
        let joker = extra.filter(|e| e.joker != Joker::None).zip(alike_face);
        let Some((extra, face)) = joker else {
            for b in (0..self.boxes.len()).filter(|&b| allowed >> b & 1 == 1) {
                let points = if usable(b) { points_of(b) } else { 0 };
                each(b, points, bonus);
            }
            return;
        };
        let face_box = self.face_box(face);
        let face_open = face_box.is_some_and(open);
        let other_open = (0..self.boxes.len()).any(|b| open(b) && self.face_of(b).is_none());
        let placed = (0..self.boxes.len())
            .filter(|&b| match extra.joker {
                Joker::Free | Joker::None => true,
                Joker::Forced if face_open => Some(b) == face_box,
                Joker::Forced => self.face_of(b).is_none() == other_open,
            })
            .fold(0u32, |m, b| m | 1 << b);
        let placed = if placed & allowed == 0 { allowed } else { placed & allowed };
        for b in (0..self.boxes.len()).filter(|&b| placed >> b & 1 == 1) {
            let full_value = self.face_of(b).is_none() && !face_open;
            let points = match () {
                _ if !usable(b) => 0,
                _ if full_value => self.joker_points(b, counts),
                _ => points_of(b),
            };
            each(b, points, bonus);
        }
    }

    /// The boxes a roll may be scored in with `open` the open boxes: any of
    /// them, or in a fixed order only the first.
    pub fn allowed(&self, open: u32) -> u32 {
        match self.order {
            Order::Free => open,
            Order::Fixed => open & open.wrapping_neg(),
        }
    }

    /// The turn start that scoring `points` in box `b` leads to from
    /// `from`: the box closed, its points added to the upper total where
    /// the bonus counts them (uncapped), and the box marked as holding
    /// points where that matters later ([`tracked_boxes`](RuleSet::tracked_boxes)).
    ///
    /// ```
    /// use dice_tables_reader::rules::{RuleSet, SheetState};
    /// let text = "name = \"two\"\ndice = 5\nrerolls = 2\n\n[upper-bonus]\nboxes = [\"ones\"]\nat = 3\npoints = 10\n\n[[box]]\nname = \"ones\"\nkind = \"face\"\nface = 1\n\n[[box]]\nname = \"chance\"\nkind = \"chance\"\n";
    /// let rules = RuleSet::from_text(text).unwrap();
    /// let start = SheetState { open: 0b11, upper: 0, held: 0 };
    /// assert_eq!(rules.after_scoring(start, 0, 3), SheetState { open: 0b10, upper: 3, held: 0 });
    /// assert_eq!(rules.after_scoring(start, 1, 20), SheetState { open: 0b01, upper: 0, held: 0 });
    /// ```
    pub fn after_scoring(&self, from: SheetState, b: usize, points: u16) -> SheetState {
        let counts_upper = self.upper_bonus.is_some_and(|u| u.boxes >> b & 1 == 1);
        let holds = points > 0 && self.tracks(b);
        SheetState {
            open: from.open & !(1 << b),
            upper: from.upper + if counts_upper { u32::from(points) } else { 0 },
            held: if holds { from.held | 1 << b } else { from.held },
        }
    }

    /// Whether box `b` holding points changes what later rolls score (one
    /// of [`tracked_boxes`](RuleSet::tracked_boxes)).
    pub fn tracks(&self, b: usize) -> bool {
        self.extra_bonus.is_some_and(|e| e.points > 0 && e.box_index == b)
            || self.boxes.iter().any(|x| x.needs == Some(b))
    }

    /// The boxes whose holding points changes what later rolls score, in
    /// the order a table's flags count them: the extra-bonus box (where
    /// the bonus pays points), then every box another `needs`.
    pub fn tracked_boxes(&self) -> Vec<usize> {
        let mut tracked: Vec<usize> = self.extra_bonus.iter().filter(|e| e.points > 0).map(|e| e.box_index).collect();
        for b in self.boxes.iter().filter_map(|b| b.needs) {
            if !tracked.contains(&b) {
                tracked.push(b);
            }
        }
        tracked
    }

    /// The box named `name`.
    pub fn box_named(&self, name: &str) -> Option<usize> {
        self.boxes.iter().position(|b| b.name == name)
    }

    /// Checks what a rule set must be to be solved: ranges, names, the
    /// bonuses reachable. The first thing wrong, with the accepted form.
    pub fn check(&self) -> Result<(), RulesError> {
        let wrong = |key, message: String| Err(RulesError { box_index: None, key, message });
        if !DICE.contains(&self.dice) {
            return wrong("dice", format!("dice = {} is not a number of dice 3 to 6", self.dice));
        }
        if self.rerolls > MOST_REROLLS {
            return wrong(
                "rerolls",
                format!("rerolls = {} is not a number of rerolls 0 to {MOST_REROLLS}", self.rerolls),
            );
        }
        if self.boxes.is_empty() || self.boxes.len() > MOST_BOXES {
            return wrong("box", format!("{} boxes: a sheet has 1 to {MOST_BOXES} ([[box]] tables)", self.boxes.len()));
        }
        if !valid_name(&self.name) {
            return wrong(
                "name",
                format!("name = {:?}: a name is 1 to 40 of a-z, 0-9 and -, starting with a letter", self.name),
            );
        }
        for (i, b) in self.boxes.iter().enumerate() {
            self.check_box(i, b).map_err(|(key, message)| RulesError { box_index: Some(i), key, message })?;
        }
        if let Some(bonus) = self.upper_bonus {
            self.check_upper_bonus(bonus)?;
        }
        if let Some(extra) = self.extra_bonus {
            let all_alike = matches!(self.boxes[extra.box_index].kind, Kind::Alike { count, .. } if count == self.dice);
            if !all_alike {
                return wrong(
                    "extra-bonus.box",
                    format!(
                        "extra-bonus box {:?} is not all {} dice alike: the bonus box is an alike box with count = {}",
                        self.boxes[extra.box_index].name, self.dice, self.dice
                    ),
                );
            }
            if extra.points > MOST_POINTS {
                return wrong(
                    "extra-bonus.points",
                    format!("extra-bonus points = {}: 0 to {MOST_POINTS}", extra.points),
                );
            }
        }
        Ok(())
    }

    fn check_upper_bonus(&self, bonus: UpperBonus) -> Result<(), RulesError> {
        let wrong = |key, message: String| Err(RulesError { box_index: None, key, message });
        let most = self.most_faces_make(bonus.boxes);
        if let Some(b) = (0..self.boxes.len()).find(|&b| bonus.boxes >> b & 1 == 1 && self.face_of(b).is_none()) {
            return wrong(
                "upper-bonus.boxes",
                format!("upper-bonus box {:?} is not a face box: the bonus counts face boxes", self.boxes[b].name),
            );
        }
        if bonus.at == 0 || u32::from(bonus.at) > most {
            return wrong(
                "upper-bonus.at",
                format!(
                    "upper-bonus at = {}: no sheet reaches it (its boxes make at most {most}); 1 to {most}",
                    bonus.at
                ),
            );
        }
        if bonus.points > MOST_POINTS {
            return wrong("upper-bonus.points", format!("upper-bonus points = {}: 0 to {MOST_POINTS}", bonus.points));
        }
        Ok(())
    }

    fn check_box(&self, i: usize, b: &BoxRule) -> Result<(), (&'static str, String)> {
        let dice = self.dice;
        if !valid_name(&b.name) {
            return Err(("name", format!("box name {:?}: 1 to 40 of a-z, 0-9 and -, starting with a letter", b.name)));
        }
        if self.boxes[..i].iter().any(|o| o.name == b.name) {
            return Err(("name", format!("box name {:?} is given twice: each box has a name of its own", b.name)));
        }
        let points = |score: Score| match score {
            Score::Points(p) if p > MOST_POINTS => Err(("score", format!("score = {p}: points 0 to {MOST_POINTS}"))),
            _ => Ok(()),
        };
        match &b.kind {
            Kind::Face(f) if !(1..=6).contains(f) => return Err(("face", format!("face = {f}: a face 1 to 6"))),
            Kind::Alike { count, score } => {
                if !(2..=dice).contains(count) {
                    return Err(("count", format!("count = {count}: 2 to {dice} alike, with {dice} dice")));
                }
                points(*score)?;
            }
            Kind::Pairs { pairs, score, .. } => {
                if !(2..=3).contains(pairs) || 2 * pairs > dice {
                    return Err(("pairs", format!("pairs = {pairs}: 2 or 3, at most {} with {dice} dice", dice / 2)));
                }
                points(*score)?;
            }
            Kind::Groups { sizes, score, .. } => {
                let all: u8 = sizes.iter().sum();
                if !(2..=3).contains(&sizes.len()) || sizes.iter().any(|&s| s < 2) || all > dice {
                    return Err((
                        "sizes",
                        format!("sizes = {sizes:?}: 2 or 3 groups of 2 dice or more, {dice} dice in all at most"),
                    ));
                }
                points(*score)?;
            }
            Kind::Straight { runs, score } => {
                if runs.is_empty() || runs.iter().any(|&r| r == 0 || r.count_ones() > u32::from(dice)) {
                    return Err((
                        "runs",
                        format!("runs: one or more lists of faces 1 to 6, each of {dice} faces at most"),
                    ));
                }
                points(*score)?;
            }
            Kind::Total { total, score, .. } => {
                if !(dice..=6 * dice).contains(total) {
                    return Err(("total", format!("total = {total}: {dice} to {} with {dice} dice", 6 * dice)));
                }
                points(*score)?;
            }
            Kind::Face(_) | Kind::Chance => {}
        }
        if b.first_roll > MOST_POINTS {
            return Err(("first-roll", format!("first-roll = {}: points 0 to {MOST_POINTS}", b.first_roll)));
        }
        if b.needs == Some(i) {
            return Err(("needs", format!("box {:?} needs itself: name another box", b.name)));
        }
        Ok(())
    }
}

/// A name rule files may give (a rule set's, a box's): 1 to 40 of a-z,
/// 0-9 and `-`, a letter first. A table's file is named after its rule
/// set, so such a name is also a safe file name.
pub fn valid_name(name: &str) -> bool {
    (1..=40).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl Kind {
    /// The kind's name in rule files.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Face(_) => "face",
            Kind::Alike { .. } => "alike",
            Kind::Pairs { .. } => "pairs",
            Kind::Groups { .. } => "groups",
            Kind::Straight { .. } => "straight",
            Kind::Chance => "chance",
            Kind::Total { .. } => "total",
        }
    }
}

impl Order {
    /// Its name in rule files: `free` or `fixed`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Free => "free",
            Order::Fixed => "fixed",
        }
    }

    fn named(name: &str) -> Option<Order> {
        [Order::Free, Order::Fixed].into_iter().find(|o| o.name() == name)
    }
}

#[cfg(test)]
mod tests;

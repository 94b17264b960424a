//! The options of one decision, the same shape for every game.

use std::fmt;

use arrayvec::ArrayVec;

/// Every legal option of one decision, in a fixed-capacity array (no
/// allocation), with the optimal one marked.
///
/// Each game says in what order its options come (yazy and combo: the best
/// first, then from best to worst; threes: fewest dice kept first; 10000:
/// most points first); [`best`](Options::best) is the optimal option in any
/// case, `None` only when there is nothing to decide (a yazy game that is
/// over, a 10000 throw that busts).
///
/// ```
/// # fn main() -> Result<(), dice_tables_reader::Error> {
/// use dice_tables_reader::{combo::Combo, Tables};
/// let tables = Tables::open_default()?;
/// let options = tables.get::<Combo>()?.options("66622".parse()?, 5)?;
/// let best = options.best().expect("a keep is always possible");
/// assert_eq!(best.keep.to_string(), "666");
/// assert!(options.iter().all(|o| o.ev <= best.ev));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Options<T: Copy, const N: usize> {
    items: ArrayVec<T, N>,
    best: Option<usize>,
}

impl<T: Copy, const N: usize> Options<T, N> {
    /// No options yet.
    pub(crate) fn new() -> Self {
        Options { items: ArrayVec::new(), best: None }
    }

    /// Adds an option. Each game's capacity is the most options any of its
    /// decisions has (and its content check holds a table to it).
    pub(crate) fn push(&mut self, item: T) {
        self.items.push(item);
    }

    /// Marks the option at `index` as the best.
    pub(crate) fn set_best(&mut self, index: usize) {
        debug_assert!(index < self.items.len());
        self.best = Some(index);
    }

    /// Puts the option matching `is_best` first, then the rest by
    /// descending `value`, and marks the first as the best.
    pub(crate) fn rank(&mut self, is_best: impl Fn(&T) -> bool, value: impl Fn(&T) -> f64) {
        let keys = self.items.iter().enumerate().map(|(i, o)| (is_best(o), value(o), i)).collect();
        let old = self.items.clone();
        for (slot, (_, _, i)) in self.items.iter_mut().zip(ranked(keys)) {
            *slot = old[i];
        }
        self.best = (!self.items.is_empty()).then_some(0);
    }

    /// The optimal option; `None` when there is no option.
    pub fn best(&self) -> Option<&T> {
        self.best.map(|i| &self.items[i])
    }

    /// The position of the optimal option in [`as_slice`](Options::as_slice).
    pub fn best_index(&self) -> Option<usize> {
        self.best
    }

    /// Every option, best first, then by descending `value`; options of
    /// equal value keep the game's order. What every front end lists.
    pub fn best_first(&self, value: impl Fn(&T) -> f64) -> Vec<&T> {
        let keys = self.items.iter().enumerate().map(|(i, o)| (Some(i) == self.best, value(o), i)).collect();
        ranked(keys).into_iter().map(|(_, _, i)| &self.items[i]).collect()
    }

    /// Every option, in the game's order.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// Every option, in the game's order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// How many options there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there is no option.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// Options' keys, (is the best, value, position), the best first, then by
/// descending value, ties in position order. One function for every kind
/// of option: a sort is large code, and the WebAssembly reader would carry
/// one per kind.
fn ranked(mut keys: Vec<(bool, f64, usize)>) -> Vec<(bool, f64, usize)> {
    keys.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
    keys
}

/// One legal action of a score-sheet game (yazy, yatzy, yahtzee) and the
/// expected score still to come if it is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice<A> {
    /// The action: a keep, or a category to score.
    pub action: A,
    /// Expected score still to come, counting any points it scores now.
    pub ev: f64,
    /// For a category, the points it scores now (in yahtzee, any Yahtzee
    /// bonus included); 0 for keeps.
    pub points: u8,
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a Options<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for Options<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options").field("best", &self.best).field("options", &self.as_slice()).finish()
    }
}

/// The options of a roll with rerolls left as a player meets them: scoring
/// now in any open category is one of them, beside every partial keep.
///
/// The solvers value keeping all five as "reroll none, then decide again
/// with one reroll fewer"; `at(r)` gives those options with `r` rerolls
/// left (the decision first, as each game ranks them). Here that option
/// makes way for the categories of `at(0)`, and a decision to keep all five
/// is followed down to what it comes to: a category, or, where a reroll
/// fewer loses nothing (so both are optimal), the partial keep decided
/// then, given with its value at `rerolls`.
pub(crate) fn with_scoring_now<T: Copy, A: Copy + PartialEq, E, const N: usize>(
    rerolls: u8,
    at: impl Fn(u8) -> Result<Options<T, N>, E>,
    action: impl Fn(&T) -> A,
    keeps_all: impl Fn(&T) -> bool,
    value: impl Fn(&T) -> f64,
) -> Result<Options<T, N>, E> {
    let keeps = at(rerolls)?;
    if rerolls == 0 || keeps.is_empty() {
        return Ok(keeps);
    }
    let scores = at(0)?;
    let mut r = rerolls;
    let mut decided = keeps.best().copied();
    while decided.as_ref().is_some_and(&keeps_all) {
        r -= 1;
        decided = if r == 0 { scores.best().copied() } else { at(r)?.best().copied() };
    }
    let decided = decided.map(|d| action(&d));
    let mut out = Options::new();
    for o in scores.iter().chain(keeps.iter().filter(|o| !keeps_all(o))) {
        out.push(*o);
    }
    out.rank(|o| Some(action(o)) == decided, value);
    Ok(out)
}

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
        self.items.sort_by(|a, b| is_best(b).cmp(&is_best(a)).then(value(b).total_cmp(&value(a))));
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
        let mut out: Vec<(usize, &T)> = self.items.iter().enumerate().collect();
        // A stable sort: ties keep the game's order.
        out.sort_by(|(i, a), (j, b)| {
            (Some(*j) == self.best).cmp(&(Some(*i) == self.best)).then(value(b).total_cmp(&value(a)))
        });
        out.into_iter().map(|(_, item)| item).collect()
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

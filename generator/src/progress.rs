//! A solve's progress in units a person can count. Layered solves report
//! the sheets (sets of open boxes) solved so far rather than the layer
//! number: layers are uneven (yatzy's middle layer holds 6,435 sheets, its
//! first 15), and an estimate of the time left needs work done, not steps.

/// The sheets of `boxes` boxes with `open` of them open.
pub(crate) fn sheets(boxes: usize, open: usize) -> u64 {
    (0..open).fold(1u64, |c, i| c * (boxes - i) as u64 / (i as u64 + 1))
}

/// Layers of a solve by their sizes: what `progress(done, total)` says once
/// the first `layers_done` are solved.
pub(crate) struct Layers(Vec<u64>);

impl Layers {
    /// Layers of the given sizes, in the order they are solved.
    pub(crate) fn new(sizes: impl IntoIterator<Item = u64>) -> Layers {
        Layers(sizes.into_iter().collect())
    }

    /// How many layers there are.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Reports the first `layers_done` layers solved to `progress`.
    pub(crate) fn report(&self, layers_done: usize, progress: &mut dyn FnMut(usize, usize)) {
        let done: u64 = self.0[..layers_done].iter().sum();
        let total: u64 = self.0.iter().sum();
        progress(done as usize, total as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheets_are_binomials_and_layers_add_up() {
        assert_eq!(sheets(15, 7), 6435);
        assert_eq!(sheets(20, 0), 1);
        assert_eq!((1..=11).map(|k| sheets(11, k)).sum::<u64>(), 2047);
        let layers = Layers::new((1..=4).map(|open| sheets(4, open)));
        let mut seen = Vec::new();
        for done in 0..=4 {
            layers.report(done, &mut |d, t| seen.push((d, t)));
        }
        assert_eq!(seen, [(0, 15), (4, 15), (10, 15), (14, 15), (15, 15)]);
    }
}

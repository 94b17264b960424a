//! Maxi Yatzy (the rules: the reader's `maxi` module): six dice, twenty
//! boxes, the upper bonus at `bonus_at`, and under the swedish rules the
//! rerolls a turn leaves unused saved for later turns. Both rule sets are
//! the rules engine's `maxi-yatzy` preset with their bonus and saved
//! rerolls ([`preset`]), solved a layer of open boxes at a time
//! ([`crate::rule_engine::solve_by_layer`]: with saved rerolls every
//! state's values would take 15 GB at f64); this module hands the layers
//! to the table (`table`) and the score distribution (`distribution`) as
//! Maxi's boxes number them.
//!
//! A turn-start state is (open boxes, upper total so far capped at
//! `bonus_at`, rerolls saved); the points already scored elsewhere do not
//! matter. The stored values are rounded, so the table's solve also lists
//! the decisions where the best option and the best one not tied with it
//! are close (`NearTie`); the table's builder settles those one by one
//! with the reader's own turn solve.

use dice_tables_reader::maxi::{Rules, BOXES};
use dice_tables_reader::rules::RuleSet;
use std::borrow::Cow;

pub use dice_tables_reader::maxi::reachable_capped_totals;

use crate::rule_engine::{LayerValues, Options};

pub mod distribution;
pub mod play;
pub mod table;

/// One layer of masks (the same number of boxes open), solved: every
/// mask's value for each count of saved rerolls and each upper total;
/// owned, or the rules engine's borrowed.
#[derive(Clone, Debug)]
pub struct Layer<'a> {
    /// The layer's masks, in increasing order.
    pub masks: Cow<'a, [u32]>,
    /// Counts of saved rerolls a row holds: `0..saved` (1 without saved rolls).
    pub saved: usize,
    /// Upper totals a row holds for each count: `0..=bonus_at`.
    pub totals: usize,
    /// Per (mask in `masks`, saved, upper total): the expected points still
    /// to come. A total the solve did not need may hold anything.
    pub values: Cow<'a, [f64]>,
}

impl<'a> Layer<'a> {
    /// A layer of the rules engine's solve of Maxi's boxes, with `totals`
    /// upper totals (Maxi's rule set tracks no box, so a mask's rows are
    /// its counts of saved rerolls).
    pub fn of(solved: LayerValues<'a>, totals: usize) -> Layer<'a> {
        let saved = solved.values.len() / (solved.masks.len() * totals);
        Layer { masks: solved.masks.into(), saved, totals, values: solved.values.into() }
    }

    /// The value of (the mask at `index` in `masks`, `saved` rerolls saved, upper total `u`).
    pub fn get(&self, index: usize, saved: usize, u: usize) -> f64 {
        self.values[(index * self.saved + saved) * self.totals + u.min(self.totals - 1)]
    }

    /// The values of the mask at `index`: `saved` rows of `totals`.
    pub fn row(&self, index: usize) -> &[f64] {
        &self.values[index * self.saved * self.totals..][..self.saved * self.totals]
    }

    /// The layer, owning its masks and values.
    pub fn into_owned(self) -> Layer<'static> {
        Layer { masks: self.masks.into_owned().into(), values: self.values.into_owned().into(), ..self }
    }

    /// The index of `mask` in `masks`.
    pub fn index(&self, mask: u32) -> Option<usize> {
        self.masks.binary_search(&mask).ok()
    }
}

/// A decision of a layer's mask with an option within the proof's band of
/// the best, [`BAND`], but not tied with it: (the mask's index in its
/// layer, upper total, rerolls left, roll rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NearTie {
    /// The mask's index in its layer.
    pub index: u32,
    /// The upper total.
    pub upper: u8,
    /// Rerolls left in the turn.
    pub rerolls: u8,
    /// The roll's rank among the 462 rolls of six dice.
    pub roll: u16,
}

/// How far below the best option another must be for a lookup on the
/// stored values to decide as the exact solution does: each stored value
/// lies within half a unit (8e-8) of the exact one, so two options' gap
/// moves by at most a unit, and a lookup counts gaps up to
/// [`STORED_TIE`](dice_tables_reader::sheet::STORED_TIE) as ties.
pub const BAND: f64 = dice_tables_reader::sheet::STORED_TIE + 1.0 / dice_tables_reader::maxi::UNITS_PER_POINT + 1e-8;

/// The rules engine's `maxi-yatzy` preset under `rules` (its bonus and
/// saved rerolls), played with the boxes of `universe` alone, and the map
/// from the rule set's masks back to Maxi's (its box `i` the `i`-th kept).
pub fn preset(rules: Rules, universe: u32) -> (RuleSet, impl Fn(u32) -> u32) {
    let mut preset = crate::rule_sets::preset("maxi-yatzy").expect("maxi-yatzy is a preset");
    let kept: Vec<usize> = (0..BOXES.len()).filter(|b| universe >> b & 1 == 1).collect();
    preset.boxes = kept.iter().map(|&b| preset.boxes[b].clone()).collect();
    let bonus = preset.upper_bonus.as_mut().expect("maxi-yatzy has an upper bonus");
    bonus.boxes = kept.iter().enumerate().fold(0u32, |m, (i, &b)| m | (bonus.boxes >> b & 1) << i);
    (bonus.at, bonus.points) = (u16::from(rules.bonus_at), u16::from(rules.bonus));
    preset.saved_rerolls = rules.saved_rolls;
    let widen = move |mask: u32| kept.iter().enumerate().fold(0u32, |m, (i, &b)| m | (mask >> i & 1) << b);
    (preset, widen)
}

/// Every layer of the game played with the boxes of `universe` under
/// `rules`, from none open up, every upper total solved, masks as Maxi
/// numbers its boxes (for the score distribution and tests: the whole
/// game at f64 takes 640 MB without saved rolls, 15 GB with them).
pub fn solve_layers(rules: Rules, universe: u32) -> Vec<Layer<'static>> {
    let (preset, widen) = preset(rules, universe);
    let totals = usize::from(rules.bonus_at) + 1;
    let mut layers: Vec<Layer<'static>> = Vec::new();
    let owned = |solved: LayerValues| {
        let masks: Vec<u32> = solved.masks.iter().map(|&m| widen(m)).collect();
        let layer = Layer::of(solved, totals);
        Layer { masks: masks.into(), values: layer.values.into_owned().into(), ..layer }
    };
    let simd = crate::dice::simd();
    crate::rule_engine::solve_by_layer(&preset, simd, Options::default(), &mut |_, _| {}, &mut |layer, below, _| {
        if layers.is_empty() {
            layers.push(owned(below));
        }
        layers.push(owned(layer));
    })
    .unwrap_or_else(|e| panic!("maxi-yatzy's preset solves: {}", e.0));
    layers
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_tables_reader::maxi::{parse_mask, UPPER_MASK};

    /// The value of `mask` at `u` with `saved` saved, from a whole game's layers.
    fn value(layers: &[Layer], mask: u32, saved: usize, u: usize) -> f64 {
        let layer = &layers[mask.count_ones() as usize];
        layer.get(layer.index(mask).expect("a mask of the game"), saved, u)
    }

    /// A die's expected face with `r` rerolls, kept by the threshold rule.
    fn one_die(r: usize) -> f64 {
        (0..r).fold(3.5, |e, _| (1..=6).map(|f| f64::from(f).max(e)).sum::<f64>() / 6.0)
    }

    #[test]
    fn reachable_totals_of_the_filled_upper_boxes() {
        assert_eq!(reachable_capped_totals(0, 75), 1);
        // Ones filled: 0 to 6.
        assert_eq!(reachable_capped_totals(1, 75), 0x7f);
        // Every upper box filled: the cap is reachable (six sixes alone make 36).
        let all = reachable_capped_totals(UPPER_MASK, 75);
        assert_eq!(all >> 75, 1);
        assert_eq!(all & 1 << 74, 1 << 74);
        assert_eq!(reachable_capped_totals(UPPER_MASK, 84) >> 84, 1);
    }

    #[test]
    fn chance_alone_is_worth_the_dice_kept_by_the_threshold_rule() {
        // Each die alone: with one reroll left keep 4 or more (worth 4.25),
        // with two keep 5 or more: (5 + 6 + 4 x 4.25) / 6 = 28 / 6 a die.
        let chance = parse_mask("chance").unwrap();
        let layers = solve_layers(Rules::FINNISH, chance);
        assert!((value(&layers, chance, 0, 0) - 28.0).abs() < 1e-12, "{}", value(&layers, chance, 0, 0));
        // Every upper box filled with 75 or more: the bonus too.
        assert!((value(&layers, chance, 0, 75) - 78.0).abs() < 1e-12);
    }

    #[test]
    fn sixes_alone_chases_sixes() {
        // Keep every six: P(a die ends a six) = 1 - (5/6)^3, six dice.
        let sixes = parse_mask("sixes").unwrap();
        let layers = solve_layers(Rules::FINNISH, sixes);
        let per_die = 1.0 - (5.0f64 / 6.0).powi(3);
        assert!((value(&layers, sixes, 0, 0) - 36.0 * per_die).abs() < 1e-12);
        // From 39 upper points only six sixes (36) reach 75: the same play,
        // and the bonus when every die ends a six.
        let at_39 = 36.0 * per_die + 50.0 * per_die.powi(6);
        assert!((value(&layers, sixes, 0, 39) - at_39).abs() < 1e-12, "{}", value(&layers, sixes, 0, 39));
    }

    #[test]
    fn chance_last_with_saved_rerolls_uses_them_all() {
        let universe = parse_mask("ones,chance").unwrap();
        let chance = parse_mask("chance").unwrap();
        let layers = solve_layers(Rules::SWEDISH, universe);
        assert_eq!(layers[1].saved, 3);
        for saved in 0..3 {
            let expected = 6.0 * one_die(2 + saved);
            let v = value(&layers, chance, saved, 0);
            assert!((v - expected).abs() < 1e-12, "{saved}: {v}");
        }
        assert!(value(&layers, universe, 0, 0) > 6.0 * one_die(2));
    }

    #[test]
    fn without_a_later_turn_saving_changes_nothing() {
        // One box: the only turn is the last, as without saved rolls.
        for name in ["chance", "sixes", "maxi-yatzy", "full-house"] {
            let universe = parse_mask(name).unwrap();
            let saved = value(&solve_layers(Rules::SWEDISH, universe), universe, 0, 0);
            let rules = Rules { saved_rolls: false, ..Rules::SWEDISH };
            let plain = value(&solve_layers(rules, universe), universe, 0, 0);
            assert!((saved - plain).abs() < 1e-12, "{name}: {saved} vs {plain}");
        }
    }

    #[test]
    fn proving_changes_no_value() {
        use crate::rule_engine::{solve_by_layer, Band};
        let universe = parse_mask("ones,sixes,two-pairs,chance").unwrap();
        for rules in [Rules::FINNISH, Rules::SWEDISH] {
            let (preset, _) = preset(rules, universe);
            let solve = |band: Option<Band>| {
                let mut values: Vec<f64> = Vec::new();
                let options = Options { band, ..Options::default() };
                let simd = crate::dice::simd();
                solve_by_layer(&preset, simd, options, &mut |_, _| {}, &mut |l, _, _| values.extend(l.values)).unwrap();
                values
            };
            let (plain, proved) = (solve(None), solve(Some(Band { tie: 1e-9, band: 0.5 })));
            assert!(plain.len() > 1000 && plain.iter().zip(&proved).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}

//! What every table of a rule set reads the same way: the rules it carries,
//! how its states are told apart, the arguments a lookup gives, the moves
//! of a roll and the keep lattice of the rule set's dice.

use super::turn::Move;
use super::{flag_index, Shape};
use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind};
use crate::five_dice::{best_values, keep_values, KeepLattice};
use crate::rules::{Order, RuleSet, SheetState};

/// A rule set's sheet as its tables read it.
#[derive(Debug)]
pub struct Board {
    pub(super) rules: RuleSet,
    pub(super) tracked: Vec<usize>,
    pub(super) shape: Shape,
    pub(super) lattice: KeepLattice,
    /// Each roll's chance (by rank).
    roll_probability: Vec<f64>,
}

/// The name of the section every rule-set table keeps its rules in.
const RULES_SECTION: &str = "rules";

impl Board {
    /// The rules a table carries (`text`): canonical text of a rule set
    /// this reader can answer, whose shape is the header's (`shape`).
    pub(super) fn read(text: &[u8], shape: Shape) -> Result<Board, TableError> {
        let bad = |why: String| TableError::section(RULES_SECTION, why);
        let text = std::str::from_utf8(text).map_err(|_| bad("is not UTF-8 text".into()))?;
        let rules = RuleSet::from_text(text).map_err(|e| bad(format!("do not read: {e}")))?;
        rules.check().map_err(|e| bad(format!("are not a rule set this reader answers: {e}")))?;
        if rules.to_text() != text {
            return Err(bad("are not in canonical form (as the generator writes them)".into()));
        }
        if rules.saved_rerolls && rules.boxes.iter().any(|b| b.first_roll > 0) {
            return Err(bad("save rerolls beside a first-roll bonus, which a rule-set table does not hold".into()));
        }
        if Shape::of(&rules) != shape {
            let theirs = Shape::of(&rules);
            return Err(TableErrorKind::BadHeader(format!(
                "the header's shape {shape:?} is not its rules' {theirs:?}"
            ))
            .into());
        }
        let tracked = rules.tracked_boxes();
        let lattice = KeepLattice::new(usize::from(rules.dice));
        let roll_probability = (0..crate::dice::multiset_count(lattice.dice))
            .map(|r| Dice::unrank(lattice.dice, r).expect("a rank below the count").probability())
            .collect();
        Ok(Board { rules, tracked, shape, lattice, roll_probability })
    }

    /// The rules the table was solved for.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The boxes whose holding points is part of a state (mask bits of the
    /// `held` arguments that count).
    pub fn tracked(&self) -> &[usize] {
        &self.tracked
    }

    /// Every box open.
    pub fn all_open(&self) -> u32 {
        (1u32 << self.rules.boxes.len()) - 1
    }

    /// The box names, in mask-bit order.
    pub fn box_names(&self) -> Vec<&str> {
        self.rules.boxes.iter().map(|b| b.name.as_str()).collect()
    }

    /// Where the turn start (`mask`, `upper`, `held`, `saved` rerolls
    /// saved) is stored: `None` for a mask a fixed order never reaches, or
    /// more saved than the sheet can hold.
    pub(super) fn index(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Option<usize> {
        self.shape.index_saved(mask, upper, flag_index(&self.tracked, held) as u32, saved)
    }

    /// Rerolls a turn may save for later turns (0: the rules save none).
    pub fn saving(&self) -> u8 {
        self.shape.saving
    }

    /// The rerolls saved checked: at most what the turns played could save.
    pub fn check_saved(&self, mask: u32, saved: u32) -> Result<(), ArgumentError> {
        let most = self.shape.saved_counts(mask.count_ones()) - 1;
        if saved > most {
            let (game, saves) = (self.rules.name.clone(), self.shape.saving > 0);
            return Err(ArgumentErrorKind::SavedOverRules { given: saved, most, game, saves }.into());
        }
        Ok(())
    }

    /// Parses a mask of open boxes as every score-sheet lookup does: a
    /// number, a comma list of open box names, or `all,-name,...`.
    pub fn parse_mask(&self, given: &str) -> Result<u32, ArgumentError> {
        let names: Vec<&str> = self.box_names();
        let mask = crate::five_dice::parse_mask(given, &names)?;
        if self.rules.order == Order::Fixed && self.shape.index(mask, 0, 0).is_none() {
            let next = (0..self.rules.boxes.len()).find(|&b| mask >> b & 1 == 1).unwrap_or(0);
            return Err(ArgumentErrorKind::NotInSheetOrder {
                given: given.to_string(),
                next: self.rules.boxes[next].name.clone(),
            }
            .into());
        }
        Ok(mask)
    }

    /// The `held` flags of the boxes named in `given` (a comma list; empty
    /// or `none` for none): filled boxes holding points, of those whose
    /// points matter later.
    pub fn parse_held(&self, given: &str, mask: u32) -> Result<u32, ArgumentError> {
        let names: Vec<&str> = self.tracked.iter().map(|&b| self.rules.boxes[b].name.as_str()).collect();
        let mut held = 0;
        for name in given.split(',').map(str::trim).filter(|n| !n.is_empty() && *n != "none") {
            let i = crate::five_dice::category_index(name, &names).map_err(|_| ArgumentErrorKind::NotHeldBox {
                given: name.to_string(),
                game: self.rules.name.clone(),
                boxes: names.iter().map(|n| n.to_string()).collect(),
            })?;
            let b = self.tracked[usize::from(i)];
            if mask >> b & 1 == 1 {
                return Err(ArgumentErrorKind::HeldWhileOpen { name: name.to_string() }.into());
            }
            held |= 1 << b;
        }
        Ok(held)
    }

    /// The upper total checked: at most what the rules' upper boxes make.
    pub fn check_upper(&self, upper: u32) -> Result<(), ArgumentError> {
        let most = self.rules.upper_bonus.map_or(0, |b| self.rules.most_faces_make(b.boxes));
        if upper > most {
            return Err(ArgumentErrorKind::UpperOverRules { given: upper, most, game: self.rules.name.clone() }.into());
        }
        Ok(())
    }

    /// A roll checked against the rules: as many dice as they roll, at most
    /// the rerolls they give a turn and the `saved` ones.
    pub(super) fn check_roll(&self, dice: Dice, rerolls: u8, saved: u32) -> Result<(), Error> {
        let rules = &self.rules;
        if dice.len() != usize::from(rules.dice) {
            let (game, given, dice) = (rules.name.clone(), dice.len(), rules.dice);
            return Err(ArgumentError::from(ArgumentErrorKind::DiceCount { game, given, dice }).into());
        }
        if u32::from(rerolls) > u32::from(rules.rerolls) + saved {
            let (game, max) = (rules.name.clone(), (u32::from(rules.rerolls) + saved).min(255) as u8);
            return Err(ArgumentError::from(ArgumentErrorKind::RerollsOverRules { game, given: rerolls, max }).into());
        }
        Ok(())
    }

    /// Every way to score `counts` from `from` (with the turn's `first`
    /// roll a first-roll bonus counts), each with the turn start it leads
    /// to, pushed onto `out` in box order.
    pub(super) fn moves(&self, from: SheetState, counts: &[u8; 6], first: bool, out: &mut Vec<(Move, SheetState)>) {
        let rules = &self.rules;
        rules.scores(from.open, rules.allowed(from.open), from.held, counts, |b, points, bonus| {
            // A box scratched for 0 was not scored with the first roll's dice.
            let served = first && points > 0;
            let first_roll = if served { rules.boxes[b].first_roll } else { 0 };
            let m = Move { box_index: b, points, bonus, first_roll, wins: served && rules.boxes[b].wins };
            out.push((m, rules.after_scoring(from, b, points)));
        });
    }

    /// Each roll's value when it must score now (after a reroll), as the
    /// keep lattice lays the rolls out, from `value` of each roll.
    pub(super) fn stop_values(
        &self,
        mut value: impl FnMut(Dice) -> Result<f64, TableError>,
    ) -> Result<Vec<f64>, TableError> {
        let lattice = &self.lattice;
        let rolls = crate::dice::multiset_count(lattice.dice);
        let mut values = vec![0.0; lattice.partial + rolls];
        for r in 0..rolls {
            values[lattice.partial + r] = value(Dice::unrank(lattice.dice, r).expect("a rank below the count"))?;
        }
        Ok(values)
    }

    /// Each keep's value (`values[graded rank]`) with `rerolls` rerolls
    /// left to play after it, from the rolls' values when they must score
    /// (points or chances alike: the best of a roll, the average of a keep).
    pub(super) fn keep_values_with(&self, values: Vec<f64>, rerolls: u8) -> Vec<f64> {
        self.keep_levels(values, usize::from(rerolls) + 1, None, |_| {})
    }

    /// The keeps' values level by level, `levels` of them, from the rolls'
    /// values with no reroll left (`values`, as [`Board::stop_values`] lays
    /// them out), each level's told to `each` and the last one's returned.
    /// At each level after the first a roll is worth the best of its own
    /// option and each partial keep inside it. Its own option is keeping
    /// every die (worth the level below), or where the rules save rerolls,
    /// scoring it (`own[level]`, saving the rerolls left; keeping every die
    /// never beats that).
    pub(super) fn keep_levels(
        &self,
        mut values: Vec<f64>,
        levels: usize,
        own: Option<&[Vec<f64>]>,
        mut each: impl FnMut(&[f64]),
    ) -> Vec<f64> {
        let partial = self.lattice.partial;
        let mut scratch = vec![0.0; partial];
        for level in 0..levels {
            if level > 0 {
                if let Some(own) = own {
                    values[partial..].copy_from_slice(&own[level][partial..]);
                }
                best_values(&self.lattice, &mut values, &mut scratch);
            }
            keep_values(&self.lattice, &mut values);
            each(&values[..partial]);
        }
        values
    }

    /// A turn start's value: the average over the first roll of its best
    /// option, scoring (`first`, each roll's best as [`Board::stop_values`]
    /// lays them out, on the turn's first roll) or, with rerolls, a keep of
    /// fewer dice (`keeps`, as [`Board::keep_values_with`] gives them).
    pub(super) fn turn_start_from(&self, first: &[f64], keeps: Option<&[f64]>) -> f64 {
        let partial = self.lattice.partial;
        let best = match keeps {
            None => std::borrow::Cow::Borrowed(first),
            Some(keeps) => {
                // Each roll's best of scoring and every partial keep inside
                // it, up the lattice.
                let mut values = first.to_vec();
                values[..partial].copy_from_slice(&keeps[..partial]);
                best_values(&self.lattice, &mut values, &mut vec![0.0; partial]);
                std::borrow::Cow::Owned(values)
            }
        };
        self.roll_probability.iter().zip(&best[partial..]).map(|(p, b)| p * b).fold(0.0, |total, x| total + x)
    }
}

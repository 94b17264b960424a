//! `reader lookup maxi-yatzy`.

use std::fmt::Write as _;

use clap::Args;
use dice_tables_lookup::parse::{
    parse_maxi_mask, parse_maxi_rules, parse_rerolls, parse_saved, parse_six_dice, parse_upper,
};
use dice_tables_lookup::{maxi_rules_name, LookupError, MaxiQuery, MaxiRules, Query};
use dice_tables_reader::maxi::{Maxi, MaxiAction, MaxiPreset, MaxiYatzy, MaxiYatzySwedish, BOXES, DICE};
use dice_tables_reader::{Dice, Tables};

use crate::output::{score_text, Failure};
use crate::roll::{rerolls_text, OptionRow};
use crate::{Common, GameLookup};

#[derive(Args, Debug)]
pub struct Lookup {
    /// Open boxes: a comma list of names (ones,twos,threes,fours,fives,sixes,one-pair,two-pairs,three-pairs,
    /// three-kind,four-kind,five-kind,small-straight,large-straight,full-straight,full-house,villa,tower,chance,maxi-yatzy;
    /// any case, `Full House` or `fullhouse`, `3 of a kind`), `all`, all less the filled ones (`all,-ones,-villa`),
    /// or a number 0 to 1048575 (decimal, 0x.., 0b..; bit i = box i).
    #[arg(long, value_name = "M", value_parser = parse_maxi_mask, allow_hyphen_values = true)]
    mask: u32,
    /// Upper points so far (ones to sixes; any total from the bonus's threshold up that the filled boxes
    /// can make is one state). Needed once an upper box is filled; left out, 0.
    #[arg(long, value_name = "N", value_parser = parse_upper, allow_hyphen_values = true)]
    upper: Option<u32>,
    /// Rerolls saved from earlier turns (swedish rules: two at most for each turn played); left out, 0.
    #[arg(long, value_name = "B", value_parser = parse_saved, allow_hyphen_values = true)]
    saved: Option<u32>,
    /// The six dice showing, digits 1-6 in any order (without it: the value before the roll).
    #[arg(long, value_name = "D", value_parser = parse_six_dice, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Rerolls left in this turn: its two and any saved ones still unused (default: all of them).
    #[arg(long, value_name = "R", value_parser = parse_rerolls, allow_hyphen_values = true)]
    rerolls: Option<u8>,
    /// `finnish` (bonus 50 at 75, no saved rolls; maxi-yatzy.dtab, the default) or `swedish`
    /// (bonus 100 at 84, unused rerolls saved; maxi-yatzy-swedish.dtab from `make maxi-swedish`).
    #[arg(long, value_name = "RULES", value_parser = parse_maxi_rules)]
    rules: Option<MaxiRules>,

    #[command(flatten)]
    common: Common,
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Maxi(MaxiQuery {
            mask: self.mask,
            upper: self.upper,
            saved: self.saved,
            dice: self.dice,
            rerolls: self.rerolls,
            rules: self.rules.unwrap_or(MaxiRules::Finnish),
        })
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        match self.rules {
            Some(MaxiRules::Swedish) => self.answer(tables.get::<MaxiYatzySwedish>().map_err(LookupError::from)?),
            _ => self.answer(tables.get::<MaxiYatzy>().map_err(LookupError::from)?),
        }
    }
}

impl Lookup {
    fn answer<P: MaxiPreset>(&self, table: &Maxi<P>) -> Result<String, Failure> {
        let (upper, saved) = (self.upper.unwrap_or(0), self.saved.unwrap_or(0));
        let state = table.state(self.mask, upper, saved)?;
        let mut out = String::new();
        // A preset by its name ("finnish rules"), other rules each said ("rules: bonus 100 at 84, ...").
        let rules = match maxi_rules_name(table.rules()) {
            name if name.contains(' ') => format!("rules: {name}"),
            name => format!("{name} rules"),
        };
        let _ = write!(
            out,
            "maxi-yatzy ({rules}), open: {} (mask {}), upper total {upper}",
            mask_names(self.mask),
            self.mask
        );
        if table.rules().saved_rolls {
            let _ = write!(out, ", {saved} reroll{} saved", crate::output::plural(saved));
        }
        out.push('\n');
        let Some(dice) = self.dice else {
            let ev = table.turn_start_value(state).map_err(LookupError::from)?;
            let _ = writeln!(out, "expected score still to come, before this turn's roll: {ev:.7}");
            return Ok(out);
        };
        let rerolls = self.rerolls.unwrap_or(table.rules().turn_rerolls(saved as usize) as u8);
        let options = table.options(state, dice, rerolls)?;
        let _ = writeln!(out, "dice {dice}, {}", rerolls_text(rerolls));
        let rows: Vec<OptionRow> = options
            .iter()
            .map(|o| OptionRow {
                text: match o.action {
                    MaxiAction::Keep(k) => keep_text(k),
                    MaxiAction::Score(b) => score_text(BOXES[usize::from(b)], o.points),
                },
                ev: o.ev,
            })
            .collect();
        match rows.first() {
            None => {
                let ev = table.turn_start_value(state).map_err(LookupError::from)?;
                let _ = writeln!(out, "expected score still to come: {ev:.6}");
                let _ = writeln!(out, "no box is open: the game is over");
            }
            Some(best) => {
                let _ = writeln!(out, "expected score still to come: {:.6}", best.ev);
                let _ = writeln!(out, "best: {}", best.text);
                let _ = writeln!(out, "actions, best first (expected score still to come):");
                for (i, o) in rows.iter().enumerate() {
                    let _ = writeln!(out, "{:>3}. {:<38} {:>11.6}", i + 1, o.text, o.ev);
                }
            }
        }
        Ok(out)
    }
}

/// The open boxes as a comma list ("none" for none).
fn mask_names(mask: u32) -> String {
    let names: Vec<&str> = (0..BOXES.len()).filter(|b| mask >> b & 1 == 1).map(|b| BOXES[b]).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(",")
    }
}

/// A keep of six dice for people.
fn keep_text(keep: Dice) -> String {
    match keep.len() {
        0 => "reroll all six".to_string(),
        n => format!("keep {keep}, reroll {}", DICE - n),
    }
}

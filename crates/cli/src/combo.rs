//! `reader lookup combo`.

use std::fmt::Write as _;

use clap::Args;
use dice_tables_lookup::{ComboQuery, Query};
use dice_tables_reader::combo::Combo;
use dice_tables_reader::Tables;

use crate::output::Failure;
use crate::roll::{keep_text, rerolls_text, Roll};
use crate::{Common, GameLookup};

#[derive(Args, Debug)]
pub struct Lookup {
    #[command(flatten)]
    roll: Roll,
    #[command(flatten)]
    common: Common,
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Combo(ComboQuery { dice: self.roll.dice, rerolls: self.roll.rerolls })
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        let combo = tables.get::<Combo>()?;
        let Some(dice) = self.roll.dice else {
            let ev = combo.game_start_value()?;
            let rerolls = combo.rerolls();
            return Ok(format!("combo, {rerolls} rerolls\nexpected final score, before the first roll: {ev:.6}\n"));
        };
        let rerolls = self.roll.rerolls.unwrap_or(combo.rerolls());
        let ev = combo.value(dice, rerolls)?;
        let best = combo.best_keep(dice, rerolls)?;
        let options = combo.options(dice, rerolls)?;
        let mut out = String::new();
        let _ =
            writeln!(out, "combo, dice {dice} (scores {} now), {}", combo.final_score(dice)?, rerolls_text(rerolls));
        let _ = writeln!(out, "expected final score: {ev:.6}");
        let _ = writeln!(out, "best: {}", keep_text(best));
        let _ = writeln!(out, "keeps, best first (expected final score):");
        for (i, o) in options.iter().enumerate() {
            let _ = writeln!(out, "{:>3}. {:<34} {:>11.6}", i + 1, keep_text(o.keep), o.ev);
        }
        Ok(out)
    }
}

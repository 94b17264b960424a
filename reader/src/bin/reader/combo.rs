//! `reader lookup combo`.

use std::fmt::Write as _;

use clap::Args;
use dice_tables_reader::combo::Combo;
use dice_tables_reader::{Dice, Tables};

use crate::output::{json_line, Failure, Num, StartJson};
use crate::roll::{keep_text, rerolls_text, ActionJson, OptionJson, Roll, StateJson};
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

    fn run(&self, tables: &Tables) -> Result<String, Failure> {
        let combo = tables.get::<Combo>()?;
        let json = self.common.json;
        let Some(dice) = self.roll.dice else {
            let ev = combo.game_start_value()?;
            if json {
                return Ok(json_line(&StartJson { game: "combo", ev: Num(ev) }));
            }
            let rerolls = combo.rerolls();
            return Ok(format!("combo, {rerolls} rerolls\nexpected final score, before the first roll: {ev:.6}\n"));
        };
        let rerolls = self.roll.rerolls.unwrap_or(combo.rerolls());
        let ev = combo.value(dice, rerolls)?;
        let best = combo.best_keep(dice, rerolls)?;
        let options = combo.options(dice, rerolls)?;
        if json {
            let keep = |d: Dice| ActionJson::Keep(d.to_string());
            let options = options.iter().map(|o| OptionJson { action: keep(o.keep), ev: Num(o.ev) }).collect();
            return Ok(json_line(&StateJson { game: "combo", ev: Num(ev), best: Some(keep(best)), options }));
        }
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

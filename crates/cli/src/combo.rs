//! `reader lookup combo`.

use clap::Args;
use dice_tables_lookup::{ComboQuery, Query};

use crate::roll::Roll;
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
}

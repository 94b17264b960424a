//! A solved table as every solver hands it to the writer: its sections,
//! its header's parameters and what the report says of it.

use std::time::Duration;

use crate::artifact::{self, Section};
use dice_tables_reader::Game;

/// A solved game, ready to encode.
#[derive(Debug)]
pub struct Solved {
    /// The game id.
    pub game: &'static str,
    /// The table's name: its file is `<table>.dtab` (the game id, or a rule
    /// set's name for a table of the rules engine).
    pub table: String,
    /// The rules parameters the header records, by name.
    pub params: Vec<(&'static str, i64)>,
    /// States in the table.
    pub states: u64,
    /// Time spent solving (no compression or I/O, nor `prove_time`).
    pub solve_time: Duration,
    /// Time spent proving that the stored (rounded) values lead lookups to
    /// the exact decisions, for games that store rounded values and prove it
    /// apart from solving (yatzy, yahtzee); zero otherwise.
    pub prove_time: Duration,
    /// Time spent deriving [`figures`](Solved::figures) beyond the table
    /// (the duel's exact head-to-head against the points player).
    pub figures_time: Duration,
    /// The table's sections, in the file's order.
    pub sections: Vec<Section>,
    /// Figures derived from the solution, for the report: (name, text, value).
    pub figures: Vec<Figure>,
}

/// A figure derived from a solution (the duel's first player's chance, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its JSON key.
    pub key: &'static str,
    /// The number.
    pub value: f64,
    /// A sentence for the text report.
    pub text: String,
}

impl Solved {
    /// A solved table of game `G` with `params`.
    pub fn new<G: Game>(params: &G::Params, states: u64, sections: Vec<Section>) -> Solved {
        Solved {
            game: G::ID,
            table: G::ID.to_string(),
            params: G::header_params(params),
            states,
            solve_time: Duration::ZERO,
            prove_time: Duration::ZERO,
            figures_time: Duration::ZERO,
            sections,
            figures: Vec::new(),
        }
    }

    /// The bytes of the table file.
    pub fn encode(self) -> Vec<u8> {
        artifact::encode(self.game, &self.params, self.sections)
    }

    /// The table file's encoder, to compress its chunks wherever there is a
    /// core to spare (see [`artifact::TableEncoder`]).
    pub fn encoder(self) -> artifact::TableEncoder {
        artifact::TableEncoder::new(self.game, &self.params, self.sections)
    }
}

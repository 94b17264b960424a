//! The rules parameters a run of the generator can change from the
//! command line, one field per game that has any.

/// Rules parameters that can be changed from the command line.
#[derive(Clone, Debug)]
pub struct Rules {
    /// yazy's rules.
    pub yazy: dice_tables_reader::yazy::Rules,
    /// combo's rules.
    pub combo: dice_tables_reader::combo::Rules,
    /// The entry and goal of both duel tables, where not their presets'.
    pub duel: DuelOverrides,
    /// The most categories open in a state the yatzy and yahtzee target
    /// tables hold: `None` for every state (a reduced table, for tests, holds the last turns).
    pub target_open: Option<u8>,
    /// The categories both sheets of the two-player yazy game use: all 11
    /// (2047), or fewer for a reduced game that tests solve in seconds.
    pub yazy_duel_universe: u16,
    /// The rules of the `maxi-yatzy` table (its preset: finnish).
    pub maxi: dice_tables_reader::maxi::Rules,
    /// The rules of the `maxi-yatzy-swedish` table (its preset: swedish).
    pub maxi_swedish: dice_tables_reader::maxi::Rules,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            yazy: dice_tables_reader::yazy::Rules { rerolls: 2 },
            combo: dice_tables_reader::combo::Rules { rerolls: 5 },
            duel: DuelOverrides::default(),
            target_open: None,
            yazy_duel_universe: (dice_tables_reader::yazy::MASKS - 1) as u16,
            maxi: dice_tables_reader::maxi::Rules::FINNISH,
            maxi_swedish: dice_tables_reader::maxi::Rules::SWEDISH,
        }
    }
}

/// The entry and goal set from the command line, for both duel tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DuelOverrides {
    /// The entry, where not the preset's.
    pub entry: Option<u32>,
    /// The goal, where not the preset's.
    pub goal: Option<u32>,
}

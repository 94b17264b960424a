//! Solvers for the games of dice-tables, and the writer of their table files.
//!
//! One folder per game (`src/games/<game>/`, the same folders as the
//! reader's), each with its rules at the top, all sharing the dice
//! combinatorics in [`dice`] and the file encoder in [`artifact`]. Each game
//! writes its sections against the specs of its reader module
//! (`dice_tables_reader::yazy::TURN_START`, ...), so a section's name, type
//! and shape are written once.
#![deny(missing_docs)]

use std::time::{Duration, Instant};

pub mod artifact;
pub mod cpu;
pub mod dice;
mod games;
pub mod target;

pub use games::sheet::distribution as sheet_play;
pub use games::sheet::target as sheet_target;
pub use games::sheet::{play, yahtzee, yatzy};
pub use games::yazy::target as yazy_target;
pub use games::{combo, duel, maxi, sheet, tenk, threes, yazy};

use artifact::Section;
use dice_tables_reader::Game;

/// Every game the generator solves, in the order it solves them. A new game
/// adds one line here.
pub const SOLVERS: &[Solver] = &[
    Solver { id: <dice_tables_reader::yazy::Yazy as Game>::ID, solve: yazy::solve_table, default: true },
    Solver { id: <dice_tables_reader::combo::Combo as Game>::ID, solve: combo::solve_table, default: true },
    Solver { id: <dice_tables_reader::threes::Threes as Game>::ID, solve: threes::solve_table, default: true },
    Solver { id: <dice_tables_reader::tenk::Tenk as Game>::ID, solve: tenk::solve_table, default: true },
    Solver { id: <dice_tables_reader::sheet::Yatzy as Game>::ID, solve: yatzy::solve_table, default: true },
    Solver { id: <dice_tables_reader::sheet::Yahtzee as Game>::ID, solve: yahtzee::solve_table, default: true },
    Solver {
        id: <dice_tables_reader::sheet::YahtzeeFree as Game>::ID,
        solve: yahtzee::solve_free_table,
        default: false,
    },
    Solver { id: <dice_tables_reader::duel::SeedDuel as Game>::ID, solve: duel::solve_seed_table, default: true },
    Solver {
        id: <dice_tables_reader::duel::CardgamesDuel as Game>::ID,
        solve: duel::solve_cardgames_table,
        default: true,
    },
    Solver { id: <dice_tables_reader::maxi::MaxiYatzy as Game>::ID, solve: maxi::solve_finnish_table, default: false },
    Solver {
        id: <dice_tables_reader::maxi::MaxiYatzySwedish as Game>::ID,
        solve: maxi::solve_swedish_table,
        default: false,
    },
    Solver {
        id: <dice_tables_reader::yazy_target::YazyTarget as Game>::ID,
        solve: yazy_target::solve_table,
        default: false,
    },
    Solver {
        id: <dice_tables_reader::yazy_duel::YazyDuel as Game>::ID,
        solve: yazy::duel::solve_table,
        default: false,
    },
    Solver {
        id: <dice_tables_reader::sheet::YatzyTarget as Game>::ID,
        solve: yatzy::solve_target_table,
        default: false,
    },
    Solver {
        id: <dice_tables_reader::sheet::YahtzeeTarget as Game>::ID,
        solve: yahtzee::solve_target_table,
        default: false,
    },
    Solver {
        id: <dice_tables_reader::sheet::YahtzeeFreeTarget as Game>::ID,
        solve: yahtzee::solve_free_target_table,
        default: false,
    },
];

/// One game's solver.
#[derive(Clone, Copy, Debug)]
pub struct Solver {
    /// The game id.
    pub id: &'static str,
    /// Solves every state under `rules`, calling `progress(done, total)` as it goes.
    pub solve: fn(&Rules, &mut dyn FnMut(usize, usize)) -> Solved,
    /// Whether `generator` solves it unless `--games` says otherwise (the
    /// target tables take minutes: `make target-tables` builds them; the
    /// free joker reading's yahtzee tables are for who asks).
    pub default: bool,
}

/// Rules parameters that can be changed from the command line.
#[derive(Clone, Debug)]
pub struct Rules {
    /// yazy's rules.
    pub yazy: dice_tables_reader::yazy::Rules,
    /// combo's rules.
    pub combo: dice_tables_reader::combo::Rules,
    /// The entry and goal of both duel tables, where not their presets'.
    pub duel: duel::Overrides,
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
            duel: duel::Overrides::default(),
            target_open: None,
            yazy_duel_universe: (dice_tables_reader::yazy::MASKS - 1) as u16,
            maxi: dice_tables_reader::maxi::Rules::FINNISH,
            maxi_swedish: dice_tables_reader::maxi::Rules::SWEDISH,
        }
    }
}

/// A solved game, ready to encode.
#[derive(Debug)]
pub struct Solved {
    /// The game id.
    pub game: &'static str,
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

/// The solver of a game id; `None` for a game this generator does not know.
pub fn solver(game: &str) -> Option<&'static Solver> {
    SOLVERS.iter().find(|s| s.id == game)
}

/// Solves one game, timing the solve; `progress(done, total)` is called as
/// work advances. `None` for a game this generator does not know.
///
/// The solver runs on a thread of the pool: each of its parallel steps then
/// starts there at once and ends without waking the caller, rather than
/// wait for a worker to wake and wake the caller in turn (yazy has eleven
/// such steps in 6 ms, the duel some 1,600).
pub fn solve(game: &str, rules: &Rules, mut progress: impl FnMut(usize, usize) + Send) -> Option<Solved> {
    let solver = solver(game)?;
    let start = Instant::now();
    let mut solved = rayon::scope(|_| (solver.solve)(rules, &mut progress));
    solved.solve_time = start.elapsed().saturating_sub(solved.prove_time + solved.figures_time);
    Some(solved)
}

//! Solvers for the games of dice-tables, and the writer of their table files.
//!
//! One folder per game (`src/games/<game>/`, the same folders as the
//! reader's), each with its rules at the top, all sharing the dice
//! combinatorics in [`dice`] and the file encoder in [`artifact`]. Each game
//! writes its sections against the specs of its reader module
//! (`dice_tables_reader::yazy::TURN_START`, ...), so a section's name, type
//! and shape are written once.
#![deny(missing_docs)]

use std::time::Instant;

pub mod artifact;
pub mod cpu;
pub mod dice;
mod games;
pub mod lead_chances;
pub mod play;
mod progress;
pub mod rule_engine;
pub mod rule_sets;
mod rules;
mod solved;
pub mod target;

#[cfg(feature = "example-game")]
pub use games::one_die;
pub use games::{combo, duel, maxi, sheet, tenk, threes, yazy};

pub use rules::{DuelOverrides, Rules};
pub use solved::{Figure, Solved};

use dice_tables_reader::Game;

/// Every game the generator solves, in the order it solves them. A new game
/// adds one line here.
pub const SOLVERS: &[Solver] = &[
    Solver {
        id: <dice_tables_reader::yazy::Yazy as Game>::ID,
        solve: yazy::solve_table,
        counts: "sheets",
        default: true,
    },
    Solver { id: <dice_tables_reader::combo::Combo as Game>::ID, solve: combo::solve_table, counts: "", default: true },
    Solver {
        id: <dice_tables_reader::threes::Threes as Game>::ID,
        solve: threes::solve_table,
        counts: "",
        default: true,
    },
    Solver { id: <dice_tables_reader::tenk::Tenk as Game>::ID, solve: tenk::solve_table, counts: "", default: true },
    Solver {
        id: <dice_tables_reader::sheet::Yatzy as Game>::ID,
        solve: sheet::yatzy::solve_table,
        counts: "sheets",
        default: true,
    },
    Solver {
        id: <dice_tables_reader::sheet::Yahtzee as Game>::ID,
        solve: sheet::yahtzee::solve_table,
        counts: "sheets",
        default: true,
    },
    Solver {
        id: <dice_tables_reader::sheet::YahtzeeFree as Game>::ID,
        solve: sheet::yahtzee::solve_free_table,
        counts: "sheets",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::duel::SeedDuel as Game>::ID,
        solve: duel::solve_seed_table,
        counts: "sums of both totals",
        default: true,
    },
    Solver {
        id: <dice_tables_reader::duel::CardgamesDuel as Game>::ID,
        solve: duel::solve_cardgames_table,
        counts: "sums of both totals",
        default: true,
    },
    Solver {
        id: <dice_tables_reader::maxi::MaxiYatzy as Game>::ID,
        solve: maxi::table::solve_finnish_table,
        counts: "sheets",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::maxi::MaxiYatzySwedish as Game>::ID,
        solve: maxi::table::solve_swedish_table,
        counts: "sheets",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::yazy::target::YazyTarget as Game>::ID,
        solve: yazy::target::solve_table,
        counts: "",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::yazy::duel::YazyDuel as Game>::ID,
        solve: yazy::duel::solve_table,
        counts: "pairs of sheets",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::sheet::YatzyTarget as Game>::ID,
        solve: sheet::yatzy::solve_target_table,
        counts: "sheets",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::sheet::YahtzeeTarget as Game>::ID,
        solve: sheet::yahtzee::solve_target_table,
        counts: "sheets",
        default: false,
    },
    Solver {
        id: <dice_tables_reader::sheet::YahtzeeFreeTarget as Game>::ID,
        solve: sheet::yahtzee::solve_free_target_table,
        counts: "sheets",
        default: false,
    },
    #[cfg(feature = "example-game")]
    Solver {
        id: <dice_tables_reader::one_die::OneDie as Game>::ID,
        solve: one_die::solve_table,
        counts: "",
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
    /// What `progress` counts, for people (`sheets`: sets of open boxes);
    /// empty for a solve of a step or two, which says only that it runs.
    pub counts: &'static str,
    /// Whether `generator` solves it unless `--games` says otherwise (the
    /// target tables take minutes: `make target-tables` builds them; the
    /// free joker reading's yahtzee tables are for who asks).
    pub default: bool,
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

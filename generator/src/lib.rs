//! Solvers for the games of dice-tables, and the writer of their table files.
//!
//! One module per game, each with its rules at the top, all sharing the dice
//! combinatorics in [`dice`] and the file encoder in [`artifact`].

use std::time::{Duration, Instant};

pub mod artifact;
pub mod combo;
pub mod dice;
pub mod tenk;
pub mod threes;
pub mod yazy;

use artifact::Section;

/// The games the generator knows, in the order it solves them.
pub const GAMES: &[&str] = &["yazy", "combo", "threes", "tenk"];

/// Rules parameters that can be changed from the command line.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Rerolls per yazy turn.
    pub yazy_rerolls: u8,
    /// Rerolls in a combo game.
    pub combo_rerolls: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { yazy_rerolls: 2, combo_rerolls: 5 }
    }
}

/// A solved game, ready to encode.
pub struct Solved {
    pub game: &'static str,
    pub params: Vec<(&'static str, i64)>,
    /// States in the table.
    pub states: u64,
    /// Time spent solving (no encoding, compression or I/O).
    pub solve_time: Duration,
    pub sections: Vec<Section>,
}

impl Solved {
    /// The bytes of the table file.
    pub fn encode(self) -> Vec<u8> {
        artifact::encode(self.game, &self.params, self.sections)
    }
}

/// Solves one game; `progress(done, total)` is called as work advances.
/// `None` for a game this generator does not know.
pub fn solve(game: &str, rules: &Rules, mut progress: impl FnMut(usize, usize)) -> Option<Solved> {
    let start = Instant::now();
    match game {
        "yazy" => {
            let solution = yazy::solve(rules.yazy_rerolls, &mut progress);
            let solve_time = start.elapsed();
            Some(Solved {
                game: "yazy",
                params: vec![("rerolls", i64::from(rules.yazy_rerolls))],
                states: solution.states(),
                solve_time,
                sections: solution.into_sections(),
            })
        }
        "combo" => {
            let solution = combo::solve(rules.combo_rerolls);
            let solve_time = start.elapsed();
            progress(1, 1);
            Some(Solved {
                game: "combo",
                params: vec![("rerolls", i64::from(rules.combo_rerolls))],
                states: solution.states(),
                solve_time,
                sections: solution.into_sections(),
            })
        }
        "threes" => {
            let solution = threes::solve();
            let solve_time = start.elapsed();
            progress(1, 1);
            let exceptions = solution.exceptions.len() as i64;
            Some(Solved {
                game: "threes",
                params: vec![("exceptions", exceptions)],
                states: solution.states(),
                solve_time,
                sections: solution.into_sections(),
            })
        }
        "tenk" => {
            let solution = tenk::solve();
            let solve_time = start.elapsed();
            progress(1, 1);
            Some(Solved {
                game: "tenk",
                params: vec![],
                states: solution.states(),
                solve_time,
                sections: solution.into_sections(),
            })
        }
        _ => None,
    }
}

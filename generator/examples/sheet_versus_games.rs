//! The opponent-aware advisor (the target tables' `versus` lookups) against
//! the max-expected-score player (the expected-points table's decisions)
//! at yatzy and at yahtzee under the forced joker reading: GAMES games with
//! the advisor moving second, then GAMES with it moving first, every roll
//! decided again from the tables, as `reader lookup` would decide it.
//!
//! Reported per game and seat: the advisor's wins, ties and losses, its
//! share of the games not drawn and its share with ties counted half, each
//! with its standard error; then the share over both seats. Asserted:
//! moving second at yatzy, the advisor wins more than 50.90 % of the games
//! not drawn (dlangk/yatzy's adaptive player, measured the same way, 10
//! million games) by at least 4 standard errors; at yahtzee, where no
//! rival figure is published, more than half by 4 standard errors.
//!
//! `cargo run --release -p dice-tables-generator --example sheet_versus_games [GAMES] [TABLES]`
//! (`make bench` runs it with 1,000,000 on tables/, which needs the whole
//! target tables: `make target-tables`).

use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::play::{roll_turn, DiceRng, Step};
use dice_tables_reader::sheet::{Action, ScoreSheet, SheetGame, SheetTarget, YahtzeeGame, YatzyGame, BONUS_AT};
use dice_tables_reader::{Error, Tables};
use rayon::prelude::*;

/// dlangk/yatzy's published share of the games not drawn, its adaptive
/// player moving second against the max-expected-score player.
const RIVAL_SECOND: f64 = 0.5090;

/// One player's sheet and points so far (the upper bonus not yet counted).
#[derive(Clone, Copy, Debug)]
struct Sheet {
    mask: u32,
    upper: u32,
    flag: bool,
    total: u32,
}

/// How one game ended for the advisor.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    wins: u64,
    ties: u64,
    losses: u64,
}

impl Tally {
    fn add(self, o: Tally) -> Tally {
        Tally { wins: self.wins + o.wins, ties: self.ties + o.ties, losses: self.losses + o.losses }
    }

    fn games(&self) -> u64 {
        self.wins + self.ties + self.losses
    }

    /// The share of the games not drawn, and its standard error.
    fn decided_share(&self) -> (f64, f64) {
        let n = (self.wins + self.losses) as f64;
        let p = self.wins as f64 / n;
        (p, (p * (1.0 - p) / n).sqrt())
    }

    /// Wins plus half the ties over the games, and its standard error.
    fn share(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let mean = (self.wins as f64 + 0.5 * self.ties as f64) / n;
        let squares = (self.wins as f64 + 0.25 * self.ties as f64) / n;
        (mean, ((squares - mean * mean) / (n - 1.0)).sqrt())
    }
}

/// One game from the start, the advisor in seat `advisor` (0: first).
fn play<G: SheetGame>(
    sheet: &ScoreSheet<G>,
    target: &SheetTarget<G>,
    advisor: usize,
    rng: &mut DiceRng,
) -> Result<Tally, Error> {
    let all = (1u32 << G::CATEGORIES.len()) - 1;
    let mut sheets = [Sheet { mask: all, upper: 0, flag: false, total: 0 }; 2];
    for turn in 0..2 * G::CATEGORIES.len() {
        let (me, other) = (turn % 2, 1 - turn % 2);
        let s = sheets[me];
        let state = sheet.state(s.mask, s.upper, s.flag)?;
        let (dice, c) = if me == advisor {
            let o = sheets[other];
            let lead = i64::from(s.total) - i64::from(o.total);
            let opponent = target.opponent(target.state(o.mask, o.upper, o.flag)?, lead)?;
            let versus = target.versus_turn(state, &opponent)?;
            roll_turn(rng, |dice, rerolls| step(versus.options(dice, rerolls)?.best().map(|o| o.action), rerolls))?
        } else {
            let expected = sheet.turn(state)?;
            roll_turn(rng, |dice, rerolls| step(expected.options(dice, rerolls)?.best().map(|o| o.action), rerolls))?
        };
        let mut scored = None;
        sheet.scoring().scores(s.mask, s.flag, &dice, |x| {
            if x.category == usize::from(c) {
                scored = Some(x);
            }
        });
        let x = scored.expect("the decision is a legal score");
        sheets[me] = Sheet {
            mask: s.mask & !(1 << c),
            upper: s.upper + u32::from(x.upper),
            flag: x.bonus_flag,
            total: s.total + u32::from(x.points),
        };
    }
    let bonus = u32::from(sheet.scoring().upper_bonus);
    let [mine, theirs] = [advisor, 1 - advisor].map(|p| {
        let s = sheets[p];
        s.total + if s.upper >= u32::from(BONUS_AT) { bonus } else { 0 }
    });
    Ok(match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Tally { wins: 1, ..Tally::default() },
        std::cmp::Ordering::Equal => Tally { ties: 1, ..Tally::default() },
        std::cmp::Ordering::Less => Tally { losses: 1, ..Tally::default() },
    })
}

fn step(action: Option<Action>, rerolls: u8) -> Result<Step<u8>, Error> {
    Ok(match action {
        Some(Action::Keep(keep)) if rerolls > 0 => Step::Keep(keep),
        Some(Action::Score(c)) => Step::Score(c),
        other => unreachable!("a category is open and the dice are legal, not {other:?}"),
    })
}

/// `games` games with the advisor in seat `advisor`, each block of games
/// from its own stream (so the tally does not depend on the thread count).
fn tally<G: SheetGame>(tables: &Tables, advisor: usize, games: u64, seed: u64) -> Result<Tally, Error> {
    const BLOCK: u64 = 500;
    let (sheet, target) = (tables.get::<ScoreSheet<G>>()?, tables.get::<SheetTarget<G>>()?);
    let tallies = (0..games.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let mut rng = DiceRng::new(seed.wrapping_mul(0x1000_0000_0000) ^ b);
            let mut t = Tally::default();
            for _ in 0..BLOCK.min(games - b * BLOCK) {
                t = t.add(play(sheet, target, advisor, &mut rng)?);
            }
            Ok(t)
        })
        .collect::<Result<Vec<Tally>, Error>>()?;
    Ok(tallies.into_iter().fold(Tally::default(), Tally::add))
}

/// Plays one game's two runs and reports them; true when its target holds.
fn game<G: SheetGame>(tables: &Tables, games: u64, seed: u64, rival: Option<f64>) -> Result<bool, Error> {
    let mut both = Tally::default();
    let mut ok = true;
    for (advisor, seat) in [(1, "second"), (0, "first")] {
        let start = Instant::now();
        let t = tally::<G>(tables, advisor, games, seed + advisor as u64)?;
        let ((decided, decided_se), (share, share_se)) = (t.decided_share(), t.share());
        println!(
            "{}: the advisor moving {seat}, {} games in {:.0} s: {} wins, {} ties, {} losses; \
             {:.4} % of the games not drawn (se {:.4} %), {:.4} % with ties half (se {:.4} %)",
            G::ID,
            t.games(),
            start.elapsed().as_secs_f64(),
            t.wins,
            t.ties,
            t.losses,
            100.0 * decided,
            100.0 * decided_se,
            100.0 * share,
            100.0 * share_se
        );
        if advisor == 1 {
            let bar = rival.unwrap_or(0.5);
            let margin = (decided - bar) / decided_se;
            let against = rival.map_or("one half".to_string(), |r| format!("dlangk/yatzy's {:.2} %", 100.0 * r));
            println!("  moving second: {margin:+.1} standard errors above {against} (target: at least +4)");
            ok &= margin >= 4.0;
        }
        both = both.add(t);
    }
    let (share, se) = both.share();
    println!("{}: over both seats, {:.4} % with ties half (se {:.4} %)", G::ID, 100.0 * share, 100.0 * se);
    Ok(ok)
}

fn run(games: u64, dir: &std::path::Path) -> Result<bool, Error> {
    let tables = Tables::open_dir(dir)?;
    let yatzy = game::<YatzyGame>(&tables, games, 11, Some(RIVAL_SECOND))?;
    let yahtzee = game::<YahtzeeGame>(&tables, games, 21, None)?;
    Ok(yatzy && yahtzee)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = args.next().map(std::path::PathBuf::from).unwrap_or_else(Tables::default_dir);
    match run(games, &dir) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("sheet_versus_games: a target was missed");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("sheet_versus_games: {e}");
            ExitCode::FAILURE
        }
    }
}

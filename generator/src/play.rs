//! Games played from a table's own decisions: the dice, a turn rolled out,
//! whole games of yatzy and yahtzee, and the score histogram as an SVG (the
//! check that a table's start value is what its policy scores on average).
//! Every game's simulations share it.

use std::fmt::Write as _;

use dice_tables_reader::sheet::{Action, ScoreSheet, SheetGame, State, BONUS_AT};
use dice_tables_reader::{Dice, Error};

/// splitmix64: a small, fast generator of independent-looking dice.
#[derive(Debug, Clone)]
pub struct DiceRng(u64);

impl DiceRng {
    /// A generator for one stream of games.
    pub fn new(seed: u64) -> DiceRng {
        DiceRng(seed)
    }

    /// One die, 1 to 6 (the bias of 2^64 mod 6 is below 1e-18).
    pub fn die(&mut self) -> u8 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % 6) as u8 + 1
    }
}

/// What a player does with a roll: keep these dice and reroll the rest,
/// or score the dice (in `C`, a game's way of naming the box).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<C> {
    /// Keep these dice, reroll the others.
    Keep(Dice),
    /// Score the dice showing.
    Score(C),
}

/// One turn's rolls: five fresh dice, then as long as `decide(dice,
/// rerolls left)` keeps some (it keeps only with a reroll left), the rest
/// rerolled, two rerolls at most. Returns the dice scored and the box.
pub fn roll_turn<C>(
    rng: &mut DiceRng,
    mut decide: impl FnMut(Dice, u8) -> Result<Step<C>, Error>,
) -> Result<(Dice, C), Error> {
    let mut faces: Vec<u8> = (0..5).map(|_| rng.die()).collect();
    let mut rerolls = 2;
    loop {
        let dice = Dice::from_faces(&faces).expect("five dice");
        match decide(dice, rerolls)? {
            Step::Keep(keep) => {
                assert!(rerolls > 0, "a keep with no reroll left");
                faces = keep.faces().collect();
                faces.extend((faces.len()..5).map(|_| rng.die()));
                rerolls -= 1;
            }
            Step::Score(c) => return Ok((dice, c)),
        }
    }
}

/// Plays one game from the start by the table's best actions and returns
/// its final score (the upper bonus and any Yahtzee bonuses included).
pub fn play<G: SheetGame>(sheet: &ScoreSheet<G>, rng: &mut DiceRng) -> Result<u32, Error> {
    play_by(sheet, rng, |state, _| {
        let turn = sheet.turn(state)?;
        Ok(Box::new(move |dice, rerolls| Ok(turn.options(dice, rerolls)?.best().map(|o| o.action))))
    })
}

/// The best action of each decision of one turn (`None`: no option).
pub type TurnPlay<'a> = Box<dyn Fn(Dice, u8) -> Result<Option<Action>, Error> + 'a>;

/// Plays one game from the start, each turn's decisions from `turn(state,
/// points so far)`, and returns its final score (the upper bonus and any
/// Yahtzee bonuses included). `sheet` says which states are reached.
pub fn play_by<'a, G: SheetGame>(
    sheet: &ScoreSheet<G>,
    rng: &mut DiceRng,
    mut turn: impl FnMut(State, u32) -> Result<TurnPlay<'a>, Error>,
) -> Result<u32, Error> {
    let (mut mask, mut upper, mut flag, mut total) = ((1u32 << G::CATEGORIES.len()) - 1, 0u32, false, 0u32);
    while mask != 0 {
        let best = turn(sheet.state(mask, upper, flag)?, total)?;
        let (dice, c) = roll_turn(rng, |dice, rerolls| match best(dice, rerolls)? {
            Some(Action::Keep(keep)) if rerolls > 0 => Ok(Step::Keep(keep)),
            Some(Action::Score(c)) => Ok(Step::Score(c)),
            other => unreachable!("a category is open and the dice are legal, not {other:?}"),
        })?;
        let mut scored = None;
        sheet.scoring().scores(mask, flag, &dice, |s| {
            if s.category == usize::from(c) {
                scored = Some(s);
            }
        });
        let s = scored.expect("the best action is a legal score");
        total += u32::from(s.points);
        upper += u32::from(s.upper);
        flag = s.bonus_flag;
        mask &= !(1 << c);
    }
    Ok(total + if upper >= u32::from(BONUS_AT) { u32::from(sheet.scoring().upper_bonus) } else { 0 })
}

/// The scores of `games` games, as counts by score, played from `seed` on
/// every core (each block of games from its own stream, so the result does
/// not depend on the thread count).
pub fn score_histogram<G: SheetGame>(sheet: &ScoreSheet<G>, games: u64, seed: u64) -> Result<Vec<u64>, Error> {
    histogram(games, seed, 10_000, |rng| play(sheet, rng))
}

/// The scores of `games` games that `play` plays, as counts by score, in
/// blocks of `block` games on every core, each block from its own stream
/// of `seed`: the same counts for any thread count.
pub fn histogram(
    games: u64,
    seed: u64,
    block: u64,
    play: impl Fn(&mut DiceRng) -> Result<u32, Error> + Sync,
) -> Result<Vec<u64>, Error> {
    use rayon::prelude::*;
    let blocks: Vec<Vec<u64>> = (0..games.div_ceil(block))
        .into_par_iter()
        .map(|b| {
            let mut rng = DiceRng::new(seed ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03));
            let mut counts = Vec::new();
            for _ in b * block..((b + 1) * block).min(games) {
                let score = play(&mut rng)? as usize;
                if counts.len() <= score {
                    counts.resize(score + 1, 0);
                }
                counts[score] += 1;
            }
            Ok(counts)
        })
        .collect::<Result<_, Error>>()?;
    let mut total = vec![0u64; blocks.iter().map(Vec::len).max().unwrap_or(0)];
    for counts in blocks {
        for (t, c) in total.iter_mut().zip(counts) {
            *t += c;
        }
    }
    Ok(total)
}

/// Mean, standard deviation and standard error of the mean of a histogram.
pub fn mean_sd_se(counts: &[u64]) -> (f64, f64, f64) {
    let n: u64 = counts.iter().sum();
    let (sum, sum_sq) = counts.iter().enumerate().fold((0.0, 0.0), |(s, q), (score, &c)| {
        let (x, c) = (score as f64, c as f64);
        (s + c * x, q + c * x * x)
    });
    let mean = sum / n as f64;
    let sd = (sum_sq / n as f64 - mean * mean).max(0.0).sqrt();
    (mean, sd, sd / (n as f64).sqrt())
}

/// An SVG histogram of final scores, bars of `bin` points, with the exact
/// mean (the table's start value) marked.
pub fn histogram_svg(title: &str, counts: &[u64], bin: usize, exact_mean: f64) -> String {
    let bins: Vec<u64> = counts.chunks(bin).map(|c| c.iter().sum()).collect();
    let (w, h, left, bottom) = (900.0, 420.0, 80.0, 50.0);
    let top_score = (bins.len() * bin) as f64;
    let max = bins.iter().copied().max().unwrap_or(1).max(1) as f64;
    let x = |s: f64| left + s * (w - left - 20.0) / top_score;
    let y = |n: f64| h - bottom - n / max * (h - bottom - 40.0);
    let bar_width = (w - left - 20.0) / bins.len() as f64;
    let (mean, sd, _) = mean_sd_se(counts);
    let games: u64 = counts.iter().sum();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(out, r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{title}</text>"#, w / 2.0);
    for (i, &n) in bins.iter().enumerate().filter(|(_, &n)| n > 0) {
        let top = y(n as f64);
        let _ = writeln!(
            out,
            r##"<rect x="{:.2}" y="{top:.2}" width="{:.2}" height="{:.2}" fill="#1f77b4"/>"##,
            x((i * bin) as f64),
            bar_width.max(0.5),
            h - bottom - top
        );
    }
    let axis = h - bottom;
    let _ = writeln!(out, r#"<line x1="{left}" y1="{axis}" x2="{}" y2="{axis}" stroke="black"/>"#, w - 20.0);
    let _ = writeln!(out, r#"<line x1="{left}" y1="40" x2="{left}" y2="{axis}" stroke="black"/>"#);
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let n = (tick * max).round();
        let _ = writeln!(out, r#"<text x="{}" y="{:.1}" text-anchor="end">{n}</text>"#, left - 4.0, y(n) + 4.0);
    }
    let step = if top_score > 600.0 { 100 } else { 50 };
    for s in (0..=top_score as usize).step_by(step) {
        let _ = writeln!(out, r#"<text x="{:.1}" y="{}" text-anchor="middle">{s}</text>"#, x(s as f64), axis + 16.0);
    }
    let _ = writeln!(
        out,
        r##"<line x1="{0:.1}" y1="40" x2="{0:.1}" y2="{axis}" stroke="#d62728" stroke-dasharray="4 3"/>"##,
        x(exact_mean)
    );
    let _ = writeln!(
        out,
        r##"<text x="{}" y="56" fill="#d62728">table's value {exact_mean:.4}; played: mean {mean:.4}, sd {sd:.4}, {games} games</text>"##,
        left + 10.0
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">final score ({bin}-point bins)</text>"#,
        w / 2.0,
        h - 12.0
    );
    out.push_str("</svg>\n");
    out
}

/// Prints one share of games beside its exact figure: `mean` and its
/// standard error `se` over `games` games played in `seconds`. True when
/// within 4 standard errors.
pub fn compare_share(name: &str, (mean, se): (f64, f64), exact: f64, games: u64, seconds: f64) -> bool {
    let within = (mean - exact).abs() < 4.0 * se;
    println!(
        "{name}: exact {exact:.7}; {games} games in {seconds:.1} s: {mean:.5} (se {se:.5}), {:+.2} se{}",
        (mean - exact) / se,
        if within { "" } else { ": OUTSIDE 4 standard errors" }
    );
    within
}

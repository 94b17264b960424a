//! Two-player 10000's reference players: whole games against the duel
//! table's optimal player, from a seat drawn at random, each keep's loss
//! measured against the table as `reader review duel` measures it (the
//! best keep and what follows it, banking or throwing on, against the one
//! taken). `reference-players ... duel:two` plays them.
//!
//! 10000 alone has reference players too: each plays until its banked
//! total reaches [`RACE_GOAL`], every keep measured against the tenk
//! table's expected banked points as `reader review 10000` measures it
//! (the table of a player on the board). Two players' games meet as a
//! race: the fewer turns wins. `reference-players ... tenk` plays them.

use std::collections::HashMap;

use dice_tables_reader::duel::{Duel, DuelTurn, Scoring};
use dice_tables_reader::tenk::{Phase, Tenk, Then};
use dice_tables_reader::{Dice, Error};

use crate::reference_players::{softmax_pick, Played};
use crate::Rng;

/// A 10000 reference player: how it picks a throw's keep and what follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TenkPlayer {
    /// The duel table's best keep and what follows, always.
    Optimal,
    /// The tenk table's player: the most expected banked points on the
    /// board, with nothing banked the best chance of the entry this turn
    /// (where the rules have one), banking whenever that reaches the goal.
    MaxExpectedScore,
    /// Each keep-and-then with probability proportional to `exp(p / T)`,
    /// `p` its chance of winning, `T` a chance.
    Softmax(f64),
    /// The keep scoring the most now (the fewer dice on a tie), then banks
    /// wherever banking is allowed.
    MostPointsNow,
    /// Any keep-and-then, each as likely.
    Random,
}

impl TenkPlayer {
    /// The players the figures are measured for, strongest first as expected.
    pub const ALL: [TenkPlayer; 7] = [
        TenkPlayer::Optimal,
        TenkPlayer::MaxExpectedScore,
        TenkPlayer::Softmax(0.01),
        TenkPlayer::Softmax(0.04),
        TenkPlayer::MostPointsNow,
        TenkPlayer::Softmax(0.16),
        TenkPlayer::Random,
    ];

    /// The players of 10000 alone, strongest first as expected: the
    /// softmax players' `T` in expected banked points (the tenk table's
    /// player is the optimal one, so no other plays for the most points).
    pub const ALONE: [TenkPlayer; 6] = [
        TenkPlayer::Optimal,
        TenkPlayer::Softmax(25.0),
        TenkPlayer::Softmax(100.0),
        TenkPlayer::MostPointsNow,
        TenkPlayer::Softmax(400.0),
        TenkPlayer::Random,
    ];

    /// The player's name in the figures.
    pub fn name(&self) -> String {
        match self {
            TenkPlayer::Optimal => "optimal".into(),
            TenkPlayer::MaxExpectedScore => "max expected score".into(),
            TenkPlayer::Softmax(t) => format!("softmax T={t}"),
            TenkPlayer::MostPointsNow => "most points now".into(),
            TenkPlayer::Random => "random".into(),
        }
    }
}

/// A keep and what follows it, with its chance of winning.
#[derive(Clone, Copy, Debug)]
struct Pair {
    keep: Dice,
    points: u32,
    left: u8,
    then: Then,
    p: f64,
}

/// Every keep of a throw at turn score `score` (`keeps`: its dice, their
/// points and the dice left) followed by each thing allowed after it,
/// banking first, then throwing on, each valued by `then` (the value of
/// banking or throwing on with those dice left at that turn score; `None`
/// where it is not allowed).
fn keep_pairs(
    keeps: impl Iterator<Item = (Dice, u32, u8)>,
    score: u32,
    mut then: impl FnMut(Then, u8, u32) -> Result<Option<f64>, Error>,
) -> Result<Vec<Pair>, Error> {
    let mut out: Vec<Pair> = Vec::new();
    for (keep, points, left) in keeps {
        // Dice that score two ways (114444 under the cardgames rules: 1500
        // or 1200) score the most, listed first, as a review reads them.
        if out.iter().any(|x| x.keep == keep) {
            continue;
        }
        for next in [Then::Bank, Then::Throw] {
            if let Some(p) = then(next, left, score + points)? {
                out.push(Pair { keep, points, left, then: next, p });
            }
        }
    }
    Ok(out)
}

/// Every keep of `throw` at turn score `score` followed by each thing
/// allowed after it, with the mover's chance of winning.
fn pairs<S: Scoring>(turn: &DuelTurn<'_, S>, throw: Dice, score: u32) -> Result<Vec<Pair>, Error> {
    let keeps = turn.options(throw, score)?;
    keep_pairs(keeps.iter().map(|o| (o.keep, o.points, o.dice_left)), score, |then, left, after| match then {
        Then::Bank => Ok(turn.bank(after)),
        Then::Throw => Ok(Some(turn.before_throw(left, after)?.throw)),
    })
}

/// What one game asks of a player's turn.
struct Seat<'a> {
    tenk: &'a Tenk,
    goal: u32,
    entry: u32,
    /// The mover's banked total.
    me: u32,
}

impl TenkPlayer {
    /// The pair this player takes among `pairs` (not empty) of `throw` at `score`.
    fn pick(&self, pairs: &[Pair], throw: Dice, score: u32, at: &Seat<'_>, rng: &mut Rng) -> Result<usize, Error> {
        let best = (0..pairs.len()).fold(0, |b, i| if pairs[i].p > pairs[b].p { i } else { b });
        Ok(match *self {
            TenkPlayer::Optimal => best,
            TenkPlayer::Random => rng.below(pairs.len() as u64) as usize,
            TenkPlayer::Softmax(t) => softmax_pick(pairs.iter().map(|x| x.p), pairs[best].p, t, rng),
            TenkPlayer::MostPointsNow => {
                let most = |x: &Pair| (x.points, std::cmp::Reverse(x.keep.len()), x.then == Then::Bank);
                (0..pairs.len()).max_by_key(|&i| most(&pairs[i])).expect("a keep")
            }
            TenkPlayer::MaxExpectedScore => {
                let phase = if at.me == 0 && at.entry > 0 { Phase::Opening } else { Phase::OnBoard };
                let options = at.tenk.options(throw, score, phase)?;
                let o = options.best().expect("the duel's keeps are the tenk table's");
                let then = if at.me + score + o.points >= at.goal { Then::Bank } else { o.then };
                let same = |x: &Pair| x.keep == o.keep && x.then == then;
                // Past the tenk table's turn scores its player banks.
                pairs.iter().position(same).or_else(|| pairs.iter().position(|x| x.keep == o.keep)).expect("the keep")
            }
        })
    }
}

/// One turn, dice from `dice`: each throw's keeps and what may follow
/// them (`offered`, given the throw and the turn score before it), the one
/// `pick` takes, until a bank or a bust. The points banked (0 on a bust)
/// and what the picks gave away against the best of each throw.
fn play_turn(
    dice: &mut Rng,
    mut offered: impl FnMut(Dice, u32) -> Result<Vec<Pair>, Error>,
    mut pick: impl FnMut(&[Pair], Dice, u32) -> Result<usize, Error>,
) -> Result<(u32, f64), Error> {
    let (mut n, mut s, mut loss) = (6usize, 0u32, 0.0);
    loop {
        let faces: Vec<u8> = (0..n).map(|_| dice.below(6) as u8 + 1).collect();
        let throw = Dice::from_faces(&faces).expect("1 to 6 dice");
        let pairs = offered(throw, s)?;
        if pairs.is_empty() {
            return Ok((0, loss));
        }
        let best = pairs.iter().map(|x| x.p).fold(f64::NEG_INFINITY, f64::max);
        let taken = pairs[pick(&pairs, throw, s)?];
        loss += best - taken.p;
        s += taken.points;
        n = usize::from(taken.left);
        if taken.then == Then::Bank {
            return Ok((s, loss));
        }
    }
}

/// One game under way: the totals, whose turn, the player's seat and
/// what the player's keeps have given away.
struct Game {
    totals: [u32; 2],
    mover: usize,
    seat: usize,
    loss: f64,
}

/// `games` games of `player` against the duel table's optimal player, each
/// from a seat drawn from `choices`, dice from `dice`: each game's score
/// (2 won, 0 lost) and the chance of winning the player's keeps gave away.
/// The games advance together by their totals' sum, each turn solved once
/// for all the games that reach its totals.
pub fn play_against_optimal<S: Scoring>(
    duel: &Duel<S>,
    tenk: &Tenk,
    player: TenkPlayer,
    games: usize,
    dice: &mut Rng,
    choices: &mut Rng,
) -> Result<Vec<Played>, Error> {
    let (goal, entry) = (duel.params().goal, duel.params().entry);
    let mut state: Vec<Game> =
        (0..games).map(|_| Game { totals: [0, 0], mover: 0, seat: choices.below(2) as usize, loss: 0.0 }).collect();
    let mut score = vec![0u32; games];
    let sums = (2 * goal / 50) as usize;
    let mut by_sum: Vec<Vec<usize>> = vec![Vec::new(); sums];
    by_sum[0] = (0..games).rev().collect();
    for sum in 0..sums {
        let mut turns: HashMap<(u32, u32), DuelTurn<'_, S>> = HashMap::new();
        while let Some(g) = by_sum[sum].pop() {
            let game = &mut state[g];
            let (me, opp) = (game.totals[game.mover], game.totals[1 - game.mover]);
            let turn = match turns.entry((me, opp)) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => e.insert(duel.turn(me, opp)?),
            };
            let turn = &*turn;
            let at = Seat { tenk, goal, entry, me };
            let mover = if game.mover == game.seat { player } else { TenkPlayer::Optimal };
            let (banked, loss) = play_turn(
                dice,
                |throw, s| pairs(turn, throw, s),
                |offered, throw, s| mover.pick(offered, throw, s, &at, choices),
            )?;
            if game.mover == game.seat {
                game.loss += loss;
            }
            game.totals[game.mover] += banked;
            if game.totals[game.mover] >= goal {
                score[g] = 2 * u32::from(game.mover == game.seat);
                continue;
            }
            game.mover = 1 - game.mover;
            by_sum[((game.totals[0] + game.totals[1]) / 50) as usize].push(g);
        }
    }
    Ok(state.iter().zip(score).map(|(g, score)| Played { score, loss: g.loss }).collect())
}

/// `games` games of each of `players` against the duel table's optimal
/// player, in parallel over the players (each its own dice and choices).
pub fn play_all_against_optimal<S: Scoring>(
    duel: &Duel<S>,
    tenk: &Tenk,
    players: &[TenkPlayer],
    games: usize,
    seed: u64,
) -> Result<Vec<Vec<Played>>, Error> {
    in_parallel(players, seed, |player, dice, choices| play_against_optimal(duel, tenk, player, games, dice, choices))
}

/// `play` run for each of `players`, each on its own thread with its own
/// dice and choices.
fn in_parallel(
    players: &[TenkPlayer],
    seed: u64,
    play: impl Fn(TenkPlayer, &mut Rng, &mut Rng) -> Result<Vec<Played>, Error> + Sync,
) -> Result<Vec<Vec<Played>>, Error> {
    let play = &play;
    std::thread::scope(|scope| {
        let handles: Vec<_> = players
            .iter()
            .enumerate()
            .map(|(p, &player)| {
                scope.spawn(move || {
                    let (mut dice, mut choices) = crate::reference_players::player_rngs(seed, p);
                    play(player, &mut dice, &mut choices)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a player's games")).collect()
    })
}

/// The banked total a game of 10000 alone is played to.
pub const RACE_GOAL: u32 = 10_000;

/// The most turns a game of 10000 alone is played for: a player who has
/// not reached [`RACE_GOAL`] by then is counted as taking this many.
pub const RACE_TURNS: u32 = 5_000;

/// Every keep of `throw` at turn score `score` followed by each thing
/// allowed after it, valued as `reader review 10000` values them: banking
/// the turn score after the keep, throwing on the tenk table's expected
/// banked points of the dice left (within the table's turn scores).
fn alone_pairs(tenk: &Tenk, throw: Dice, score: u32) -> Result<Vec<Pair>, Error> {
    let keeps = tenk.options(throw, score, Phase::OnBoard)?;
    keep_pairs(keeps.iter().map(|o| (o.keep, o.points, o.dice_left)), score, |then, left, after| match then {
        Then::Bank => Ok(Some(f64::from(after))),
        Then::Throw if after <= dice_tables_reader::tenk::MAX_SCORE => Ok(Some(tenk.turn_value(left, after)?)),
        Then::Throw => Ok(None),
    })
}

/// `games` games of 10000 alone by `player`, dice from `dice`: each
/// game's turns to bank [`RACE_GOAL`] (at most [`RACE_TURNS`]) as its
/// score, and what its keeps gave away per turn, in expected banked
/// points, as its loss.
pub fn play_alone(
    tenk: &Tenk,
    player: TenkPlayer,
    games: usize,
    dice: &mut Rng,
    choices: &mut Rng,
) -> Result<Vec<Played>, Error> {
    // No goal or entry reaches the tenk table's player alone.
    let at = Seat { tenk, goal: u32::MAX, entry: 0, me: 0 };
    (0..games)
        .map(|_| {
            let (mut banked, mut turns, mut loss) = (0u32, 0u32, 0.0);
            while banked < RACE_GOAL && turns < RACE_TURNS {
                turns += 1;
                let (points, lost) = play_turn(
                    dice,
                    |throw, s| alone_pairs(tenk, throw, s),
                    |offered, throw, s| player.pick(offered, throw, s, &at, choices),
                )?;
                (banked, loss) = (banked + points, loss + lost);
            }
            Ok(Played { score: turns, loss: loss / f64::from(turns) })
        })
        .collect()
}

/// `games` games of 10000 alone by each of `players`, in parallel over
/// the players (each its own dice and choices).
pub fn play_all_alone(tenk: &Tenk, players: &[TenkPlayer], games: usize, seed: u64) -> Result<Vec<Vec<Played>>, Error> {
    in_parallel(players, seed, |player, dice, choices| play_alone(tenk, player, games, dice, choices))
}

/// Games of 10000 alone (scores in turns, [`play_alone`]'s) as head to
/// head meetings score them: the fewer turns the higher.
pub fn race_scores(games: &[Vec<Played>]) -> Vec<Vec<Played>> {
    games.iter().map(|g| g.iter().map(|p| Played { score: RACE_TURNS - p.score, loss: p.loss }).collect()).collect()
}

//! The coach's reference players: whole games of a rule set played by
//! players of known kinds (the table's optimal player, players who pick
//! each option with a probability rising with its value, a player who
//! counts only this turn's points, one who keeps the most alike dice, one
//! who picks at random), each decision's loss measured against the table
//! as the review measures it; then their head-to-head results fitted to
//! ratings on the Elo scale.
//!
//! `reference-players` (`make reference-players`, run by `make bench`)
//! prints the figures; `review::reference_players_are_ordered_as_their_strength`
//! checks their order on fewer games.

use dice_tables_lookup::review::accuracy;
use dice_tables_reader::rule_sheet::TurnStarts;
use dice_tables_reader::rule_sheet::{RollOptions, RuleChoice, RuleDuel, RuleTarget, TurnPlan};
use dice_tables_reader::rules::SheetState;
use dice_tables_reader::{Dice, Error};

use crate::Rng;

/// A reference player: how it picks among a roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Player {
    /// The table's best option, always.
    Optimal,
    /// Each option with probability proportional to `exp(value / T)`,
    /// `T` in points (the table's values): small `T` plays nearly
    /// optimally, large `T` nearly at random.
    Softmax(f64),
    /// The best option for this turn's points alone: what the dice score
    /// now, the upper bonus and later turns counting for nothing.
    ThisTurnOnly,
    /// Keeps the largest group of equal dice (the higher face on a tie)
    /// while rerolls are left and they are not all alike, then scores the
    /// open box worth the most points now (the first on the sheet on a tie).
    MostAlike,
    /// Any option, each as likely.
    Random,
}

impl Player {
    /// The players the figures are measured for, strongest first as
    /// expected (the fit, not this order, decides).
    pub const ALL: [Player; 7] = [
        Player::Optimal,
        Player::Softmax(1.0),
        Player::Softmax(4.0),
        Player::ThisTurnOnly,
        Player::Softmax(16.0),
        Player::MostAlike,
        Player::Random,
    ];

    /// The player's name in the figures.
    pub fn name(&self) -> String {
        match self {
            Player::Optimal => "optimal".into(),
            Player::Softmax(t) => format!("softmax T={t}"),
            Player::ThisTurnOnly => "this turn only".into(),
            Player::MostAlike => "most alike".into(),
            Player::Random => "random".into(),
        }
    }

    /// The option this player takes among `options` (best first) of
    /// `dice` with `rerolls` left; `own` is its own plan where it has one.
    fn pick(&self, options: &RollOptions, dice: Dice, rerolls: u8, own: Option<&TurnPlan>, rng: &mut Rng) -> usize {
        let options = &options.options;
        let index_of = |want: RuleChoice| options.iter().position(|(c, _)| *c == want).expect("an option of the roll");
        match *self {
            Player::Optimal => 0,
            Player::Random => rng.below(options.len() as u64) as usize,
            Player::Softmax(t) => softmax_pick(options.iter().map(|o| o.1), options[0].1, t, rng),
            Player::ThisTurnOnly => index_of(own.and_then(|p| p.best(dice, rerolls)).expect("a box open")),
            Player::MostAlike => {
                let counts = dice.counts();
                let (face, count) = (0..6).map(|f| (f, counts[f])).max_by_key(|&(f, c)| (c, f)).expect("six faces");
                if rerolls > 0 && usize::from(count) < dice.len() {
                    let mut kept = [0u8; 6];
                    kept[face] = count;
                    return index_of(RuleChoice::Keep(Dice::from_counts(kept).expect("fewer dice than thrown")));
                }
                let score = |c: &RuleChoice| match c {
                    RuleChoice::Score(m) => Some((m.scored(), std::cmp::Reverse(m.box_index))),
                    RuleChoice::Keep(_) => None,
                };
                (0..options.len()).max_by_key(|&i| score(&options[i].0)).expect("a box open")
            }
        }
    }

    fn own_plan<S: TurnStarts + ?Sized>(
        &self,
        sheet: &S,
        s: SheetState,
        saved: u32,
    ) -> Result<Option<TurnPlan>, Error> {
        match self {
            Player::ThisTurnOnly => sheet.turn_plan_this_turn_only(s.open, s.upper, s.held, saved).map(Some),
            _ => Ok(None),
        }
    }
}

/// Uniform in [0, 1).
fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The index of one of `values` drawn with probability proportional to
/// `exp((value - best) / t)`: a softmax player's pick (`best` the largest).
pub fn softmax_pick(values: impl Iterator<Item = f64>, best: f64, t: f64, rng: &mut Rng) -> usize {
    let weights: Vec<f64> = values.map(|v| ((v - best) / t).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mut at = uniform(rng) * total;
    for (i, w) in weights.iter().enumerate() {
        if at < *w {
            return i;
        }
        at -= w;
    }
    weights.len() - 1
}

/// One game played: its final score and what its decisions gave away,
/// against the table, as the review counts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    pub score: u32,
    pub loss: f64,
}

/// A moment of a game that asks for a decision.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    /// The sheet at the turn's start.
    pub state: SheetState,
    /// Rerolls saved from earlier turns (where the rules save them).
    pub saved: u32,
    /// The dice showing.
    pub roll: Dice,
    /// Rerolls left.
    pub rerolls: u8,
    /// Whether this is the turn's first roll.
    pub turn_start: bool,
}

/// A whole game of `sheet` with dice from `dice`, each decision taken by
/// `decide`: its final score as the sheet adds it up.
pub fn play_game<S: TurnStarts + ?Sized, E>(
    sheet: &S,
    dice: &mut Rng,
    mut decide: impl FnMut(&Moment) -> Result<RuleChoice, E>,
) -> Result<u32, E> {
    let rules = sheet.rules();
    let n = usize::from(rules.dice);
    let mut state = SheetState { open: sheet.all_open(), upper: 0, held: 0 };
    let (mut saved, mut scored) = (0u32, 0u32);
    while state.open != 0 {
        let mut rerolls = (u32::from(rules.rerolls) + saved) as u8;
        let mut counts = [0u8; 6];
        throw(dice, &mut counts, n);
        let mut turn_start = true;
        loop {
            let roll = Dice::from_counts(counts).expect("the rules' dice");
            match decide(&Moment { state, saved, roll, rerolls, turn_start })? {
                RuleChoice::Keep(kept) => {
                    counts = kept.counts();
                    throw(dice, &mut counts, n - kept.len());
                    rerolls -= 1;
                    turn_start = false;
                }
                RuleChoice::Score(m) => {
                    scored += m.scored();
                    state = rules.after_scoring(state, m.box_index, m.points);
                    if sheet.saving() > 0 {
                        saved = u32::from(rerolls);
                    }
                    break;
                }
            }
        }
    }
    let bonus = rules.upper_bonus.filter(|u| state.upper >= u32::from(u.at)).map_or(0, |u| u32::from(u.points));
    Ok(scored + bonus)
}

/// `k` dice thrown with `dice`, added to `counts`.
fn throw(dice: &mut Rng, counts: &mut [u8; 6], k: usize) {
    for _ in 0..k {
        counts[dice.below(6) as usize] += 1;
    }
}

/// A moment of a game against someone, as [`play_duel`] asks for a decision.
#[derive(Clone, Copy, Debug)]
pub struct DuelMoment {
    /// The player to move: 0 for the first.
    pub mover: usize,
    /// The mover's sheet at the turn's start.
    pub me: SheetState,
    /// The opponent's sheet.
    pub opp: SheetState,
    /// The mover's points so far less the opponent's, upper bonuses left out.
    pub lead: i64,
    /// The dice showing.
    pub roll: Dice,
    /// Rerolls left.
    pub rerolls: u8,
}

/// How a game against someone ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelEnd {
    /// Each player's final points, the upper bonus counted once a sheet is full.
    pub scores: [u32; 2],
    /// The player whose box served won at once, where one did.
    pub won_at_once: Option<usize>,
}

/// A whole game of `sheet`'s rules played by two players taking turns,
/// the first first, with `dice`, each decision from `decide`: a box the
/// rules say wins at once, scored for points with the turn's first roll,
/// ends the game (worked out here from the rules, not from the move).
pub fn play_duel<S: TurnStarts + ?Sized, E>(
    sheet: &S,
    dice: &mut Rng,
    mut decide: impl FnMut(&DuelMoment) -> Result<RuleChoice, E>,
) -> Result<DuelEnd, E> {
    let rules = sheet.rules();
    let n = usize::from(rules.dice);
    let mut states = [SheetState { open: sheet.all_open(), upper: 0, held: 0 }; 2];
    let mut scored = [0u32; 2];
    let mut mover = 0;
    let mut won_at_once = None;
    'game: while states[mover].open != 0 {
        let mut rerolls = rules.rerolls;
        let mut counts = [0u8; 6];
        throw(dice, &mut counts, n);
        let mut first = true;
        loop {
            let roll = Dice::from_counts(counts).expect("the rules' dice");
            let lead = i64::from(scored[mover]) - i64::from(scored[1 - mover]);
            let (me, opp) = (states[mover], states[1 - mover]);
            match decide(&DuelMoment { mover, me, opp, lead, roll, rerolls })? {
                RuleChoice::Keep(kept) => {
                    counts = kept.counts();
                    throw(dice, &mut counts, n - kept.len());
                    rerolls -= 1;
                    first = false;
                }
                RuleChoice::Score(m) => {
                    scored[mover] += m.scored();
                    states[mover] = rules.after_scoring(me, m.box_index, m.points);
                    if first && m.points > 0 && rules.boxes[m.box_index].wins {
                        won_at_once = Some(mover);
                        break 'game;
                    }
                    break;
                }
            }
        }
        mover = 1 - mover;
    }
    let bonus = |s: &SheetState| match (s.open, rules.upper_bonus) {
        (0, Some(u)) if s.upper >= u32::from(u.at) => u32::from(u.points),
        _ => 0,
    };
    Ok(DuelEnd { scores: [0, 1].map(|p| scored[p] + bonus(&states[p])), won_at_once })
}

/// A whole game of `sheet` played with `dice`, taking the best option
/// except where `stray` (out of 100) says to take another at random (from
/// `picks`): the game's text, and its final score as the sheet adds it up.
pub fn game_text<S: TurnStarts + ?Sized>(sheet: &S, dice: &mut Rng, picks: &mut Rng, stray: u64) -> (String, u32) {
    let mut text = String::new();
    let score = play_game(sheet, dice, |m| {
        let s = m.state;
        let options = sheet.options_saved(s.open, s.upper, s.held, m.saved, m.roll, m.rerolls)?;
        let pick = if picks.below(100) < stray { picks.below(options.options.len() as u64) as usize } else { 0 };
        let choice = options.options[pick].0;
        match choice {
            RuleChoice::Keep(kept) => text.push_str(&format!("{} keep {kept}\n", m.roll)),
            RuleChoice::Score(mv) => {
                text.push_str(&format!("{} score {}\n", m.roll, sheet.rules().boxes[mv.box_index].name))
            }
        }
        Ok::<_, dice_tables_reader::Error>(choice)
    })
    .expect("the table answers every state of its game");
    (text, score)
}

/// A whole game of `sheet` played by `player`, the dice from `dice`, its
/// random choices from `choices`.
pub fn play<S: TurnStarts + ?Sized>(
    sheet: &S,
    player: Player,
    dice: &mut Rng,
    choices: &mut Rng,
) -> Result<Played, Error> {
    let (mut plans, mut loss) = (None, 0.0);
    let score = play_game(sheet, dice, |m| {
        if m.turn_start {
            let (s, saved) = (m.state, m.saved);
            plans =
                Some((sheet.turn_options_saved(s.open, s.upper, s.held, saved)?, player.own_plan(sheet, s, saved)?));
        }
        let (plan, own) = plans.as_ref().expect("a plan from the turn's start");
        let options = plan.options(m.roll, m.rerolls).expect("the rules' dice and rerolls");
        let pick = player.pick(&options, m.roll, m.rerolls, own.as_ref(), choices);
        loss += options.value - options.options[pick].1;
        Ok::<_, Error>(options.options[pick].0)
    })?;
    Ok(Played { score, loss })
}

/// Who plays a game for a target: the target table's own decisions, or a
/// reference player, each measured against the target table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ForTarget {
    /// The target table's decision, always.
    Optimal,
    /// A reference player, picking as it does in a points game (its
    /// `Optimal` is the max-expected-score player).
    Plays(Player),
}

impl ForTarget {
    /// The players the target figures are measured for: the target
    /// table's, then every reference player.
    pub fn all() -> Vec<ForTarget> {
        std::iter::once(ForTarget::Optimal).chain(Player::ALL.iter().map(|&p| ForTarget::Plays(p))).collect()
    }

    /// The player's name in the figures.
    pub fn name(&self) -> String {
        match self {
            ForTarget::Optimal => "optimal".into(),
            ForTarget::Plays(Player::Optimal) => "max expected score".into(),
            ForTarget::Plays(p) => p.name(),
        }
    }
}

/// A whole game of `sheet` played for a final score of at least `target`
/// by `player`, the dice from `dice`, its random choices from `choices`:
/// its `score` is 1 if it reached the target, else 0, and its `loss` what
/// its decisions gave away of the chance, against the target table
/// `chances` as the review counts it.
pub fn play_for_target<S: TurnStarts + ?Sized>(
    sheet: &S,
    chances: &RuleTarget,
    target: u32,
    player: ForTarget,
    dice: &mut Rng,
    choices: &mut Rng,
) -> Result<Played, Error> {
    let (mut plans, mut loss, mut scored) = (None, 0.0, 0u32);
    let score = play_game(sheet, dice, |m| {
        let s = m.state;
        if m.turn_start {
            let need = i64::from(target) - i64::from(scored);
            let points = match player {
                ForTarget::Optimal => None,
                ForTarget::Plays(p) => {
                    Some((sheet.turn_options_saved(s.open, s.upper, s.held, 0)?, p.own_plan(sheet, s, 0)?))
                }
            };
            plans = Some((chances.turn(s.open, s.upper, s.held, need)?, points));
        }
        let (turn, points) = plans.as_ref().expect("a plan from the turn's start");
        let options = turn.options(m.roll, m.rerolls).expect("the rules' dice and rerolls");
        let choice = match (player, points) {
            (ForTarget::Plays(p), Some((plan, own))) => {
                let mine = plan.options(m.roll, m.rerolls).expect("the rules' dice and rerolls");
                mine.options[p.pick(&mine, m.roll, m.rerolls, own.as_ref(), choices)].0
            }
            _ => options.options[0].0,
        };
        let chance = options.options.iter().find(|o| o.0 == choice).expect("an option of the roll").1;
        loss += options.value - chance;
        if let RuleChoice::Score(mv) = choice {
            scored += mv.scored();
        }
        Ok::<_, Error>(choice)
    })?;
    Ok(Played { score: u32::from(score >= target), loss })
}

/// `games` games for `target` of each player in `players` (each player its
/// own dice, as [`play_all`] gives them), in parallel over the players.
pub fn play_all_for_target<S: TurnStarts + ?Sized>(
    sheet: &S,
    chances: &RuleTarget,
    target: u32,
    players: &[ForTarget],
    games: usize,
    seed: u64,
) -> Result<Vec<Vec<Played>>, Error> {
    each_player(players, games, seed, |player, dice, choices| {
        play_for_target(sheet, chances, target, player, dice, choices)
    })
}

/// `games` games of each player in `players`, each played by `play` with
/// the player's own dice and choices (from `seed`), in parallel over the players.
fn each_player<P: Copy + Send + Sync>(
    players: &[P],
    games: usize,
    seed: u64,
    play: impl Fn(P, &mut Rng, &mut Rng) -> Result<Played, Error> + Sync,
) -> Result<Vec<Vec<Played>>, Error> {
    let play = &play;
    std::thread::scope(|scope| {
        let handles: Vec<_> = players
            .iter()
            .enumerate()
            .map(|(p, &player)| {
                scope.spawn(move || {
                    let (mut dice, mut choices) = player_rngs(seed, p);
                    (0..games).map(|_| play(player, &mut dice, &mut choices)).collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a player's games")).collect()
    })
}

/// The dice and the choices of the player `p`th in the list, from `seed`.
pub fn player_rngs(seed: u64, p: usize) -> (Rng, Rng) {
    let dice = Rng::new(seed ^ (p as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let choices = Rng::new(seed.wrapping_add(0xD1B5_4A32_D192_ED03).wrapping_mul(p as u64 + 3));
    (dice, choices)
}

/// A two-player table as the reference players meet it: the mover's
/// options of a roll, best first, each with its chance of winning (a tie
/// half), and the best option's chance.
pub trait DuelOptions {
    /// The mover's chance at the start of a turn.
    fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, Error>;
    /// The options of the moment `m`'s roll, best first, and the best's chance.
    fn options_of(&self, m: &DuelMoment) -> Result<(Vec<(RuleChoice, f64)>, f64), Error>;
}

impl DuelOptions for RuleDuel {
    fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, Error> {
        RuleDuel::chance(self, me, opp, lead)
    }

    fn options_of(&self, m: &DuelMoment) -> Result<(Vec<(RuleChoice, f64)>, f64), Error> {
        let options = self.options(m.me, m.opp, m.lead, m.roll, m.rerolls)?;
        Ok((options.options, options.value))
    }
}

/// A built-in game's two-player table (yazy-duel.dtab), read over its
/// preset's options as a review reads it
/// ([`ReviewSource::duel`](dice_tables_lookup::review::ReviewSource)).
pub struct BuiltInDuel<'a> {
    /// The preset's rules, which give a roll's options.
    pub sheet: &'a dyn TurnStarts,
    /// The game's own two-player table.
    pub chances: Box<dyn dice_tables_lookup::review::DuelChances + Send + Sync + 'a>,
}

impl DuelOptions for BuiltInDuel<'_> {
    fn chance(&self, me: SheetState, opp: SheetState, lead: i64) -> Result<f64, Error> {
        self.chances.chance(me, opp, lead).map_err(reader_error)
    }

    fn options_of(&self, m: &DuelMoment) -> Result<(Vec<(RuleChoice, f64)>, f64), Error> {
        let options = dice_tables_lookup::review::ranked(self.sheet, m.me, m.roll, m.rerolls, |legal| {
            self.chances.chances(m.me, m.opp, m.lead, m.roll, m.rerolls, legal)
        })
        .map_err(reader_error)?;
        let best = options.first().map_or(0.0, |o| o.1);
        Ok((options, best))
    }
}

/// A table's refusal as the reader gave it (a lookup of a table's chances
/// fails only so).
fn reader_error(e: dice_tables_lookup::LookupError) -> Error {
    use dice_tables_lookup::LookupError;
    match e {
        LookupError::Table(e) => Error::Table(e),
        LookupError::Refused(e) => Error::Argument(e),
        LookupError::Other(e) => e,
        e => panic!("a two-player table's chances refused for another reason: {e}"),
    }
}

/// A whole game of `sheet`'s rules against someone, `player` in seat
/// `seat` (0 moves first) against the two-player table's optimal player:
/// its `score` is 2 for a win, 1 for a tie and 0 for a loss, and its
/// `loss` what its decisions gave away of its chance of winning, against
/// the two-player table `duel` as the review counts it. A reference player
/// picks as it does in a game alone (its `Optimal` the max-expected-score
/// player); `ForTarget::Optimal` is the two-player table's own play.
pub fn play_against_optimal<S: TurnStarts + ?Sized>(
    sheet: &S,
    duel: &(dyn DuelOptions + Sync),
    player: ForTarget,
    seat: usize,
    dice: &mut Rng,
    choices: &mut Rng,
) -> Result<Played, Error> {
    let (mut plans, mut loss) = (None, 0.0);
    let rerolls = sheet.rules().rerolls;
    let end = play_duel(sheet, dice, |m| {
        let (options, value) = duel.options_of(m)?;
        let choice = match player {
            _ if m.mover != seat => return Ok(options[0].0),
            ForTarget::Optimal => options[0].0,
            ForTarget::Plays(p) => {
                // Its own points plan, made at the turn's first roll.
                if m.rerolls == rerolls {
                    let s = m.me;
                    plans = Some((sheet.turn_options_saved(s.open, s.upper, s.held, 0)?, p.own_plan(sheet, s, 0)?));
                }
                let (plan, own) = plans.as_ref().expect("a plan from the turn's start");
                let mine = plan.options(m.roll, m.rerolls).expect("the rules' dice and rerolls");
                mine.options[p.pick(&mine, m.roll, m.rerolls, own.as_ref(), choices)].0
            }
        };
        let chance = options.iter().find(|o| o.0 == choice).expect("an option of the roll").1;
        loss += value - chance;
        Ok::<_, Error>(choice)
    })?;
    let score = match (end.won_at_once, end.scores[seat].cmp(&end.scores[1 - seat])) {
        (Some(winner), _) => 2 * u32::from(winner == seat),
        (None, std::cmp::Ordering::Greater) => 2,
        (None, std::cmp::Ordering::Equal) => 1,
        (None, std::cmp::Ordering::Less) => 0,
    };
    Ok(Played { score, loss })
}

/// `games` games of each player in `players` against the two-player
/// table's optimal player, each in a seat drawn from its choices (each
/// player its own dice, as [`play_all`] gives them), in parallel over the players.
pub fn play_all_against_optimal<S: TurnStarts + ?Sized>(
    sheet: &S,
    duel: &(dyn DuelOptions + Sync),
    players: &[ForTarget],
    games: usize,
    seed: u64,
) -> Result<Vec<Vec<Played>>, Error> {
    each_player(players, games, seed, |player, dice, choices| {
        let seat = choices.below(2) as usize;
        play_against_optimal(sheet, duel, player, seat, dice, choices)
    })
}

/// `games` games of each player in `players` (each player its own dice),
/// in parallel over the players' games.
pub fn play_all<S: TurnStarts + ?Sized>(
    sheet: &S,
    players: &[Player],
    games: usize,
    seed: u64,
) -> Result<Vec<Vec<Played>>, Error> {
    each_player(players, games, seed, |player, dice, choices| play(sheet, player, dice, choices))
}

/// A mean and its standard error.
pub fn mean_se(xs: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let n = xs.clone().count() as f64;
    let mean = xs.clone().sum::<f64>() / n;
    let var = xs.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Each game's accuracy, as the review gives it.
pub fn accuracies(games: &[Played], start: f64) -> impl Iterator<Item = f64> + Clone + '_ {
    games.iter().map(move |g| accuracy(g.loss, start))
}

/// Ratings on the Elo scale fitted to head-to-head results.
#[derive(Clone, Debug)]
pub struct Ratings {
    /// Each player's rating, the anchor's 0.
    pub rating: Vec<f64>,
    /// Each rating's standard error (the anchor's 0): the spread of the
    /// fit over resamplings of the games.
    pub se: Vec<f64>,
    /// The largest gap between a pair's share and the fit's share, and
    /// that gap in standard errors of the share.
    pub worst_gap: (f64, f64),
}

/// The chance on the Elo scale that a player rated `d` above another wins.
pub fn elo_share(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// The shares `wins[i][j]` (of `games` meetings, a tie half) fitted by
/// maximum likelihood to ratings on the Elo scale (Bradley and Terry's
/// model: player i beats j with [`elo_share`] of the gap), `anchor`'s 0.
pub fn fit(wins: &[Vec<f64>], games: f64, anchor: usize) -> Vec<f64> {
    let p = wins.len();
    let c = std::f64::consts::LN_10 / 400.0;
    let mut r = vec![0.0; p];
    let free: Vec<usize> = (0..p).filter(|&i| i != anchor).collect();
    for _ in 0..100 {
        // Newton's step on the log-likelihood over the free ratings.
        let k = free.len();
        let mut g = vec![0.0; k];
        let mut h = vec![vec![0.0; k]; k];
        for (a, &i) in free.iter().enumerate() {
            for j in 0..p {
                if j == i {
                    continue;
                }
                let s = elo_share(r[i] - r[j]);
                g[a] += c * (wins[i][j] - games * s);
                let w = games * s * (1.0 - s) * c * c;
                h[a][a] += w;
                if let Some(b) = free.iter().position(|&f| f == j) {
                    h[a][b] -= w;
                }
            }
        }
        let step = solve(h, g);
        let mut largest = 0f64;
        for (a, &i) in free.iter().enumerate() {
            // Steps held to 400 points while far from the optimum.
            let s = step[a].clamp(-400.0, 400.0);
            r[i] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    r
}

/// `h x = g` by Gaussian elimination with partial pivoting (h positive definite here).
fn solve(mut h: Vec<Vec<f64>>, mut g: Vec<f64>) -> Vec<f64> {
    let k = g.len();
    for col in 0..k {
        let pivot = (col..k).max_by(|&a, &b| h[a][col].abs().total_cmp(&h[b][col].abs())).expect("a row");
        h.swap(col, pivot);
        g.swap(col, pivot);
        let (upper, lower) = h.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (offset, row) in lower.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            g[col + 1 + offset] -= f * g[col];
        }
    }
    let mut x = vec![0.0; k];
    for row in (0..k).rev() {
        let rest: f64 = (row + 1..k).map(|c| h[row][c] * x[c]).sum();
        x[row] = (g[row] - rest) / h[row][row];
    }
    x
}

/// Player i's wins over player j, game k of each meeting (a tie half),
/// over the games `pick` chooses.
fn wins(scores: &[Vec<Played>], pick: &[usize]) -> Vec<Vec<f64>> {
    let p = scores.len();
    let mut w = vec![vec![0.0; p]; p];
    for i in 0..p {
        for j in 0..p {
            if i != j {
                w[i][j] = pick
                    .iter()
                    .map(|&k| match scores[i][k].score.cmp(&scores[j][k].score) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .sum();
            }
        }
    }
    w
}

/// The players' ratings from their games (`games[p][k]`, game k of player
/// p meeting game k of every other), `anchor`'s 0; the errors from 100
/// resamplings of the game indices.
pub fn ratings(games: &[Vec<Played>], anchor: usize, seed: u64) -> Ratings {
    let n = games[0].len();
    let all: Vec<usize> = (0..n).collect();
    let w = wins(games, &all);
    let rating = fit(&w, n as f64, anchor);
    let mut worst_gap = (0f64, 0f64);
    for i in 0..games.len() {
        for j in 0..i {
            let s = elo_share(rating[i] - rating[j]);
            let se = (s * (1.0 - s) / n as f64).sqrt().max(0.5 / n as f64);
            let gap = (w[i][j] / n as f64 - s).abs();
            if gap > worst_gap.0 {
                worst_gap = (gap, gap / se);
            }
        }
    }
    let mut rng = Rng::new(seed);
    let resampled: Vec<Vec<f64>> = (0..100)
        .map(|_| {
            let pick: Vec<usize> = (0..n).map(|_| rng.below(n as u64) as usize).collect();
            fit(&wins(games, &pick), n as f64, anchor)
        })
        .collect();
    let se = (0..games.len())
        .map(|p| {
            let m = resampled.iter().map(|r| r[p]).sum::<f64>() / 100.0;
            (resampled.iter().map(|r| (r[p] - m).powi(2)).sum::<f64>() / 99.0).sqrt()
        })
        .collect();
    Ratings { rating, se, worst_gap }
}

/// Ratings on the Elo scale from games against one opponent, the
/// two-player table's optimal player (`games[p][k]`, each a score of 2
/// for a win and 1 for a tie, as [`play_against_optimal`] gives them):
/// each player's rating is the Elo gap its share of the points implies
/// (`400 · log10(s / (1 − s))`, the share held within half a game of 0
/// and of 1), `anchor`'s 0; the errors from 100 resamplings of each
/// player's games. One opponent: the model fits every share exactly.
pub fn ratings_against_optimal(games: &[Vec<Played>], anchor: usize, seed: u64) -> Ratings {
    let gap = |g: &[Played], pick: &mut dyn FnMut() -> usize| {
        let n = g.len();
        let points: f64 = (0..n).map(|_| f64::from(g[pick()].score)).sum();
        let share = (points / (2 * n) as f64).clamp(0.5 / n as f64, 1.0 - 0.5 / n as f64);
        400.0 * (share / (1.0 - share)).log10()
    };
    let each = |pick: &mut dyn FnMut(usize) -> usize| -> Vec<f64> {
        let gaps: Vec<f64> = games
            .iter()
            .map(|g| {
                let mut k = 0;
                gap(g, &mut || {
                    k += 1;
                    pick(k - 1)
                })
            })
            .collect();
        gaps.iter().map(|r| r - gaps[anchor]).collect()
    };
    let rating = each(&mut |k| k);
    let mut rng = Rng::new(seed);
    let n = games[0].len() as u64;
    let resampled: Vec<Vec<f64>> = (0..100).map(|_| each(&mut |_| rng.below(n) as usize)).collect();
    let se = (0..games.len())
        .map(|p| {
            let m = resampled.iter().map(|r| r[p]).sum::<f64>() / 100.0;
            (resampled.iter().map(|r| (r[p] - m).powi(2)).sum::<f64>() / 99.0).sqrt()
        })
        .collect();
    Ratings { rating, se, worst_gap: (0.0, 0.0) }
}

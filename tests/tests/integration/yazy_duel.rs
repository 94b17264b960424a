//! Two-player yazy: the generator's solve of a reduced game (both sheets
//! within three categories) against the brute force, every pair of sheets
//! and every unsettled lead.

use dice_tables_generator::yazy::duel::{most, solve, Layer};
use dice_tables_tests::BruteYazyDuel;

/// ones, full-house and yazy: small points, a fixed 25 and the rare 50.
const UNIVERSE: u16 = 1 | 1 << 8 | 1 << 10;

/// The games between fixed ways of playing: ones and full-house on both
/// sheets. Each way's decisions are the same code at any size; the brute
/// force of the advisor's (its own target solve at every decision) takes
/// minutes within three categories, seconds within two.
const VERSUS_UNIVERSE: u16 = 1 | 1 << 8;

#[test]
#[ignore = "slow: make test runs it"]
fn a_reduced_game_agrees_with_brute_force_everywhere() {
    let mut layers: Vec<Layer> = Vec::new();
    solve(UNIVERSE, 2, |_, layer| layers.push(layer.clone()));
    assert_eq!(layers.len(), 7);
    let mut brute = BruteYazyDuel::new(2);
    let mut compared = 0;
    for layer in &layers {
        for pair in &layer.pairs {
            // Every unsettled lead, and one past each end (settled).
            for d in pair.lowest() - 1..=most(pair.o) + 1 {
                let (table, exact) = (layer.value(pair, d), brute.turn_start(pair.m, pair.o, d));
                assert!((table - exact).abs() < 1e-12, "m {:#b} o {:#b} d {d}: {table} vs {exact}", pair.m, pair.o);
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// The reduced game's table, written as the generator writes it and read back.
fn reduced_table() -> dice_tables_reader::yazy::duel::YazyDuel {
    use dice_tables_reader::Game;
    let rules = dice_tables_generator::Rules { yazy_duel_universe: UNIVERSE, ..Default::default() };
    let solved = dice_tables_generator::solve("yazy-duel", &rules, |_, _| {}).expect("a solver");
    dice_tables_reader::yazy::duel::YazyDuel::from_vec(solved.encode()).expect("the table reads back")
}

/// Every mask inside the universe.
fn sheets() -> Vec<u16> {
    (0..=UNIVERSE).filter(|s| s & !UNIVERSE == 0).collect()
}

#[test]
#[ignore = "slow: make test runs it"]
fn the_table_and_its_lookups_agree_with_brute_force() {
    use dice_tables_reader::yazy::Mask;
    let table = reduced_table();
    let mut brute = BruteYazyDuel::new(2);
    let mask = |m: u16| Mask::new(u32::from(m)).unwrap();
    // Every turn start, both players' (the first player's solved from the
    // stored second player's), every unsettled lead and one past each end.
    let mut compared = 0;
    for m in sheets() {
        for o in sheets().into_iter().filter(|o| {
            let (a, b) = (m.count_ones(), o.count_ones());
            a == b || a == b + 1
        }) {
            for d in -most(m) - 1..=most(o) + 1 {
                let (p, exact) = (table.chance(mask(m), mask(o), i64::from(d)).unwrap(), brute.turn_start(m, o, d));
                assert!((p - exact).abs() < 1e-7, "m {m:#b} o {o:#b} d {d}: {p} vs {exact}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    // Every option of rolls in states of both parities.
    let rolls = ["11111", "12345", "66612", "22233", "13556"];
    for (m, o) in [(UNIVERSE, UNIVERSE), (UNIVERSE, 1 << 8 | 1 << 10), (1 | 1 << 10, 1 << 8), (1 << 10, 1 << 10)] {
        for d in [-30, -5, 0, 7, 25] {
            for roll in rolls {
                let dice: dice_tables_reader::Dice = roll.parse().unwrap();
                let faces: Vec<u8> = dice.faces().collect();
                let faces: [u8; 5] = faces.try_into().unwrap();
                for rerolls in 0..=2u8 {
                    options_agree(&table, &mut brute, (m, o, d), faces, rerolls);
                }
            }
        }
    }
}

/// The yazy-duel table where the golden two-player lookups are asked (`make
/// test`: the reduced game; `make bench`: the whole one), checked whole:
/// every chunk decoded (values in 0 to 1, none falling as the lead grows),
/// the last player's states bracketed by the yazy-target table, and random
/// states with up to 3 categories open on each sheet against the brute
/// force, every lead and every option of random rolls.
#[test]
#[ignore = "slow: make test runs it"]
fn the_table_agrees_with_the_target_table_and_brute_force() {
    use dice_tables_reader::yazy::duel::YazyDuel;
    use dice_tables_reader::yazy::target::YazyTarget;
    use dice_tables_reader::yazy::Mask;
    use dice_tables_reader::Game;
    use dice_tables_tests::{default_tables, target_tables, Rng};
    let path = target_tables().join("yazy-duel.dtab");
    dice_tables_reader::verify(&path).unwrap();
    let duel = YazyDuel::open(&path).unwrap();
    let target = YazyTarget::open(default_tables().join("yazy-target.dtab")).unwrap();
    let universe = duel.universe().bits();
    let mask = |m: u16| Mask::new(u32::from(m)).unwrap();
    // The last turn of the game: the opponent is done, one category left.
    // Played to win it is at least as good as playing to beat the
    // opponent's total, and at most that plus half the chance of tying.
    let mut bracketed = 0;
    for c in (0..11).filter(|c| universe >> c & 1 == 1) {
        let m = 1u16 << c;
        for d in -most(m) - 2..=2 {
            let p = duel.chance(mask(m), Mask::NONE, i64::from(d)).unwrap();
            let win = target.chance(mask(m), i64::from(1 - d)).unwrap();
            let tie_or_win = target.chance(mask(m), i64::from(-d)).unwrap();
            assert!(p >= win - 1e-7 && p <= (win + tie_or_win) / 2.0 + 1e-7, "{c} {d}: {p} vs {win}, {tie_or_win}");
            bracketed += 1;
        }
    }
    assert!(bracketed >= 5 * 8, "{bracketed}");
    // Random sheets of up to 3 categories each, both turn orders.
    let mut rng = Rng::new(77);
    let categories: Vec<u16> = (0..11).filter(|c| universe >> c & 1 == 1).collect();
    let sheet = |rng: &mut Rng, size: u32| {
        let mut s = 0u16;
        while s.count_ones() < size {
            s |= 1 << categories[rng.below(categories.len() as u64) as usize];
        }
        s
    };
    let mut brute = BruteYazyDuel::new(2);
    let mut compared = 0;
    for i in 0..4 {
        let size = 2 + (i % 2) as u32;
        let m = sheet(&mut rng, size);
        let o = sheet(&mut rng, size - (i / 2) as u32);
        let mut last = 0.0;
        for d in -most(m) - 1..=most(o) + 1 {
            let p = duel.chance(mask(m), mask(o), i64::from(d)).unwrap();
            let exact = brute.turn_start(m, o, d);
            assert!((p - exact).abs() < 1e-7, "m {m:#b} o {o:#b} d {d}: {p} vs {exact}");
            assert!((0.0..=1.0).contains(&p) && p >= last, "m {m:#b} o {o:#b} d {d}: {p} after {last}");
            last = p;
            compared += 1;
        }
        for _ in 0..3 {
            let d = rng.below((most(m) + most(o) + 1) as u64) as i32 - most(m);
            let faces: [u8; 5] = std::array::from_fn(|_| 1 + rng.below(6) as u8);
            for rerolls in 0..=2u8 {
                options_agree(&duel, &mut brute, (m, o, d), faces, rerolls);
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared}");
}

/// The opponent-aware advisor (the yazy-target table) at the last turn of
/// the game, the opponent done and one category left: its chance before
/// the roll and every option's of every roll within 1e-7 of the two-player
/// table's (both rounded as stored), its decision's within 2e-7 of the
/// table's best: the advisor plays the last turn exactly.
#[test]
fn the_advisor_plays_the_last_turn_as_the_two_player_table() {
    use dice_tables_reader::yazy::duel::YazyDuel;
    use dice_tables_reader::yazy::target::YazyTarget;
    use dice_tables_reader::yazy::Mask;
    use dice_tables_reader::{Dice, Game};
    use dice_tables_tests::{default_tables, target_tables, Rng};
    let duel = YazyDuel::open(target_tables().join("yazy-duel.dtab")).unwrap();
    let target = YazyTarget::open(default_tables().join("yazy-target.dtab")).unwrap();
    let universe = duel.universe().bits();
    let mut rng = Rng::new(78);
    let mut compared = 0;
    for c in (0..11).filter(|c| universe >> c & 1 == 1) {
        let m = Mask::new(1 << c).unwrap();
        for d in -most(1 << c) - 2..=2 {
            let lead = i64::from(d);
            let opponent = target.opponent(Mask::NONE, lead).unwrap();
            let (p, exact) = (target.versus_chance(m, &opponent).unwrap(), duel.chance(m, Mask::NONE, lead).unwrap());
            assert!((p - exact).abs() < 1e-7, "{m} lead {lead}: advisor {p}, table {exact}");
            let dice = Dice::from_faces(&std::array::from_fn::<u8, 5, _>(|_| 1 + rng.below(6) as u8)).unwrap();
            for rerolls in 0..=2u8 {
                let advised = target.versus_options(m, dice, rerolls, &opponent).unwrap();
                let table = duel.options(m, Mask::NONE, lead, dice, rerolls).unwrap();
                assert_eq!(advised.len(), table.len(), "{m} {dice} r{rerolls}");
                for o in advised.iter() {
                    let t = table.iter().find(|t| t.action == o.action).expect("the same options");
                    assert!(
                        (o.p - t.p).abs() < 1e-7,
                        "{m} {dice} r{rerolls} lead {lead} {:?}: {} vs {}",
                        o.action,
                        o.p,
                        t.p
                    );
                }
                let decided = advised.best().unwrap().action;
                let in_table = table.iter().find(|t| t.action == decided).unwrap().p;
                assert!(in_table >= table.best().unwrap().p - 2e-7, "{m} {dice} r{rerolls} lead {lead}: {decided:?}");
                compared += advised.len();
            }
        }
    }
    assert!(compared > 200, "{compared}");
}

/// 20,000 games of the reader's opponent-aware advisor (`yazy --advisor`:
/// the yazy-target table) against the max-expected-score player (yazy's
/// lookups), both sheets within seven categories, 10,000 with the advisor
/// in each seat: each seat's share (wins, ties half) within 4 standard
/// errors of the generator's exact evaluation of the same two players, an
/// implementation of the advisor of its own (its own unrounded `P*` and
/// distributions, over every state).
#[test]
fn the_advisor_s_games_agree_with_its_exact_evaluation() {
    use dice_tables_generator::play::{roll_turn, DiceRng, Step};
    use dice_tables_generator::yazy::expected::Expected;
    use dice_tables_generator::yazy::versus::{against_expected, Way};
    use dice_tables_reader::yazy::target::YazyTarget;
    use dice_tables_reader::yazy::{points, Action, Mask, Yazy};
    use dice_tables_reader::Game;
    use dice_tables_tests::default_tables;
    // ones, threes, fives, three-kind, full-house, straight and yazy.
    const SEVEN: u16 = 1 | 1 << 2 | 1 << 4 | 1 << 6 | 1 << 8 | 1 << 9 | 1 << 10;
    const GAMES: u64 = 10_000;
    let yazy = Yazy::open(default_tables().join("yazy.dtab")).unwrap();
    let target = YazyTarget::open(default_tables().join("yazy-target.dtab")).unwrap();
    let expected = Expected::new(2);
    let step = |action: Option<Action>| match action {
        Some(Action::Keep(keep)) => Ok(Step::Keep(keep)),
        Some(Action::Score(c)) => Ok(Step::Score(c)),
        None => unreachable!("a category is open"),
    };
    for (advisor, seed) in [(0, 41u64), (1, 42)] {
        let exact = against_expected(SEVEN, 2, Way::Advisor, advisor == 0, &expected);
        let results: Vec<f64> = (0..GAMES)
            .map(|game| {
                let mut rng = DiceRng::new(seed << 32 | game);
                let (mut sheets, mut totals) = ([Mask::new(u32::from(SEVEN)).unwrap(); 2], [0i64; 2]);
                for turn in 0..14 {
                    let (me, other) = (turn % 2, 1 - turn % 2);
                    let (dice, c) = if me == advisor {
                        let opponent = target.opponent(sheets[other], totals[me] - totals[other]).unwrap();
                        let versus = target.versus_turn(sheets[me], &opponent).unwrap();
                        roll_turn(&mut rng, |d, r| step(versus.options(d, r)?.best().map(|o| o.action)))
                    } else {
                        roll_turn(&mut rng, |d, r| step(yazy.best_action(sheets[me], d, r)?))
                    }
                    .unwrap();
                    totals[me] += i64::from(points(&dice, usize::from(c.index())));
                    sheets[me] = sheets[me].without(c);
                }
                match totals[advisor].cmp(&totals[1 - advisor]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                }
            })
            .collect();
        let n = GAMES as f64;
        let mean = results.iter().sum::<f64>() / n;
        let se = (results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt();
        assert!(se < 0.006, "se {se}");
        assert!(
            (mean - exact).abs() < 4.0 * se,
            "the advisor in seat {advisor}: {mean} over {GAMES} games (se {se}), exact {exact}"
        );
    }
}

/// The reduced game between fixed ways of playing: the table's player, the
/// best response and the opponent-aware advisor, each against the
/// max-expected-score player (yazy's table), moving first and second,
/// against the brute force.
#[test]
#[ignore = "slow: make test runs it"]
fn play_against_the_expected_player_agrees_with_brute_force() {
    use dice_tables_generator::yazy::expected::Expected;
    use dice_tables_generator::yazy::versus::{against_expected, Way};
    use dice_tables_reader::Game;
    use dice_tables_tests::{BruteVersus, BruteWay};
    let yazy = dice_tables_reader::yazy::Yazy::open(dice_tables_tests::default_tables().join("yazy.dtab")).unwrap();
    let expected = Expected::new(2);
    let mut chances = Vec::new();
    for (way, brute_way) in
        [(Way::Table, BruteWay::Table), (Way::Best, BruteWay::Best), (Way::Advisor, BruteWay::Advisor)]
    {
        let mut brute = BruteVersus::between(&yazy, brute_way, BruteWay::Expected);
        for a_first in [true, false] {
            let p = against_expected(VERSUS_UNIVERSE, 2, way, a_first, &expected);
            let exact = brute.turn_start(VERSUS_UNIVERSE, VERSUS_UNIVERSE, 0, a_first);
            assert!((p - exact).abs() < 1e-12, "{way:?} first {a_first}: {p} vs {exact}");
            chances.push(p);
        }
    }
    // The best response wins at least as often as any other player.
    for other in [0, 4] {
        assert!(chances[2] >= chances[other] - 1e-12 && chances[3] >= chances[other + 1] - 1e-12, "{chances:?}");
    }
}

/// The reduced game's advisor against the two-player table's player in
/// both seats, and against itself, against the brute force.
#[test]
#[ignore = "slow: make test runs it"]
fn the_advisor_against_the_table_and_itself_agrees_with_brute_force() {
    use dice_tables_generator::yazy::expected::Expected;
    use dice_tables_generator::yazy::versus::{advisor_against_itself, advisor_against_table};
    use dice_tables_reader::Game;
    use dice_tables_tests::{BruteVersus, BruteWay};
    let yazy = dice_tables_reader::yazy::Yazy::open(dice_tables_tests::default_tables().join("yazy.dtab")).unwrap();
    let expected = Expected::new(2);
    let mut brute = BruteVersus::between(&yazy, BruteWay::Advisor, BruteWay::Table);
    for a_first in [true, false] {
        let p = advisor_against_table(VERSUS_UNIVERSE, 2, a_first, &expected);
        let exact = brute.turn_start(VERSUS_UNIVERSE, VERSUS_UNIVERSE, 0, a_first);
        assert!((p - exact).abs() < 1e-12, "against the table, first {a_first}: {p} vs {exact}");
    }
    let p = advisor_against_itself(VERSUS_UNIVERSE, 2, &expected);
    let exact = BruteVersus::between(&yazy, BruteWay::Advisor, BruteWay::Advisor).turn_start(
        VERSUS_UNIVERSE,
        VERSUS_UNIVERSE,
        0,
        true,
    );
    assert!((p - exact).abs() < 1e-12, "against itself: {p} vs {exact}");
}

/// Every option of `faces` with `rerolls` left in state `(m, o, d)` within
/// 1e-7 of the brute force, and the decision within 2.3e-7 of the best.
fn options_agree(
    table: &dice_tables_reader::yazy::duel::YazyDuel,
    brute: &mut BruteYazyDuel,
    (m, o, d): (u16, u16, i32),
    faces: [u8; 5],
    rerolls: u8,
) {
    use dice_tables_reader::yazy::{Action, Mask};
    let mask = |m: u16| Mask::new(u32::from(m)).unwrap();
    let dice = dice_tables_reader::Dice::from_faces(&faces).unwrap();
    let options = table.options(mask(m), mask(o), i64::from(d), dice, rerolls).unwrap();
    for option in options.iter() {
        let exact = match option.action {
            Action::Score(c) => brute.score_value(m, o, d, &faces, usize::from(c.index())),
            Action::Keep(k) => brute.keep_value(m, o, d, &k.faces().collect::<Vec<_>>(), rerolls),
        };
        assert!((option.p - exact).abs() < 1e-7, "{m:#b} {o:#b} {d} {faces:?} {rerolls} {option:?}: {exact}");
    }
    let best = brute.value(m, o, d, faces, rerolls);
    let decision = options.best().expect("an open category");
    assert!(decision.p > best - 2.3e-7, "{m:#b} {o:#b} {d} {faces:?} {rerolls}: {decision:?} vs {best}");
}

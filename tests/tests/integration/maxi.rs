//! Maxi Yatzy (the rules engine's maxi-yatzy preset) against the independent evaluator: games played
//! with a few boxes (a state's value depends only on its open boxes, upper
//! total and saved rerolls, so a small game's states are the whole game's),
//! under both presets, with and without saved rolls; and the scoring of
//! every box on every roll.

use dice_tables_generator::maxi::{solve_layers, Layer};
use dice_tables_reader::maxi::{points, Rules, BOXES};
use dice_tables_reader::Dice;
use dice_tables_tests::maxi::{self as brute, BruteMaxi};
use dice_tables_tests::Rng;

#[test]
fn scoring_agrees_with_the_evaluator_on_every_roll() {
    for r in 0..dice_tables_reader::dice::multiset_count(6) {
        let dice = Dice::unrank(6, r).unwrap();
        let faces: [u8; 6] = dice.faces().collect::<Vec<u8>>().try_into().unwrap();
        for (b, name) in BOXES.iter().enumerate() {
            assert_eq!(u32::from(points(&dice.counts(), b)), brute::points(&faces, b), "{dice} in {name}");
        }
    }
}

/// A random set of `n` boxes.
fn random_boxes(rng: &mut Rng, n: u32) -> u32 {
    let mut mask = 0u32;
    while mask.count_ones() < n {
        mask |= 1 << rng.below(BOXES.len() as u64);
    }
    mask
}

/// Whether the filled upper boxes of `mask` (among the six) can make upper
/// total `u`, capped at `bonus_at`: the states a game reaches.
fn reachable(mask: u32, u: u32, bonus_at: u8) -> bool {
    let mut totals = vec![0u32];
    for face in (1..=6u32).filter(|f| mask >> (f - 1) & 1 == 0) {
        totals = totals.iter().flat_map(|t| (0..=6).map(move |n| t + n * face)).collect();
    }
    totals.iter().any(|&t| t.min(u32::from(bonus_at)) == u)
}

fn brute_for(rules: Rules, saved_rolls: bool) -> BruteMaxi {
    BruteMaxi::new(u32::from(rules.bonus_at), u32::from(rules.bonus), saved_rolls)
}

#[test]
fn turn_start_values_agree_without_saved_rolls() {
    let mut rng = Rng::new(11);
    for rules in [Rules::FINNISH, Rules { saved_rolls: false, ..Rules::SWEDISH }] {
        let mut brute = brute_for(rules, false);
        for _ in 0..3 {
            let universe = random_boxes(&mut rng, 3);
            let layers = solve_layers(rules, universe);
            let value = |mask: u32, u: usize| {
                let layer: &Layer = &layers[mask.count_ones() as usize];
                layer.get(layer.index(mask).unwrap(), 0, u)
            };
            // Every state of the small game: each subset, each upper total.
            let mut subset = universe;
            loop {
                for u in (0..=u32::from(rules.bonus_at)).filter(|&u| reachable(subset, u, rules.bonus_at)) {
                    let (ours, theirs) = (value(subset, u as usize), brute.turn_start(subset, u, 0));
                    assert!((ours - theirs).abs() < 1e-7, "{rules:?} {subset:#b} at {u}: {ours} vs {theirs}");
                }
                if subset == 0 {
                    break;
                }
                subset = (subset - 1) & universe;
            }
        }
    }
}

#[test]
#[ignore = "slow: make test runs it"]
fn turn_start_values_agree_with_saved_rolls() {
    let mut rng = Rng::new(12);
    for rules in [Rules::SWEDISH, Rules { saved_rolls: true, ..Rules::FINNISH }] {
        let mut brute = brute_for(rules, true);
        for _ in 0..2 {
            // Five boxes, so that a state with up to three open has up to four saved.
            let universe = random_boxes(&mut rng, 5);
            let layers = solve_layers(rules, universe);
            let start = layers[5].get(0, 0, 0);
            for layer in &layers[..=3] {
                for _ in 0..3 {
                    let at = rng.below(layer.masks.len() as u64) as usize;
                    let saved = rng.below(layer.saved as u64) as usize;
                    let mut u = rng.below(u64::from(rules.bonus_at) + 1) as usize;
                    while !reachable(layer.masks[at], u as u32, rules.bonus_at) {
                        u = rng.below(u64::from(rules.bonus_at) + 1) as usize;
                    }
                    let (ours, theirs) =
                        (layer.get(at, saved, u), brute.turn_start(layer.masks[at], u as u32, saved as u32));
                    let mask = layer.masks[at];
                    assert!(
                        (ours - theirs).abs() < 1e-7,
                        "{rules:?} {mask:#b} at {u}, {saved} saved: {ours} vs {theirs}"
                    );
                }
            }
            assert!(start > 0.0);
        }
    }
}

/// A random decision of the finnish game with one to three boxes open:
/// (mask, a reachable upper total, a roll, rerolls left 0 to 2).
fn random_finnish_decision(rng: &mut Rng) -> (u32, u32, Dice, u8) {
    let open = 1 + rng.below(3) as u32;
    let mask = random_boxes(rng, open);
    let mut u = rng.below(76) as u32;
    while !reachable(mask, u, 75) {
        u = rng.below(76) as u32;
    }
    let dice = Dice::unrank(6, rng.below(462) as usize).unwrap();
    (mask, u, dice, rng.below(3) as u8)
}

/// The table `make tables` writes, its lookups against the evaluator:
/// random states with up to three boxes open (the whole game's states,
/// which the evaluator solves from scratch), their turn-start values and
/// every option of random rolls with random rerolls left.
#[test]
fn the_finnish_table_agrees_with_the_evaluator() {
    use dice_tables_reader::maxi::{MaxiAction, MaxiYatzy};
    let tables = dice_tables_reader::Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let table = tables.get::<MaxiYatzy>().unwrap();
    assert_eq!(table.rules(), Rules::FINNISH);
    let start = table.turn_start_value(table.state(dice_tables_reader::maxi::ALL, 0, 0).unwrap()).unwrap();
    // jokkebk/maxiyatzy's solver prints 383.305402685.
    assert!((start - 383.305402685).abs() < 1e-6, "{start}");
    let mut brute = brute_for(Rules::FINNISH, false);
    let mut rng = Rng::new(13);
    for _ in 0..40 {
        let (mask, u, dice, rerolls) = random_finnish_decision(&mut rng);
        let state = table.state(mask, u, 0).unwrap();
        let (ours, theirs) = (table.turn_start_value(state).unwrap(), brute.turn_start(mask, u, 0));
        assert!((ours - theirs).abs() < 1e-7, "{mask:#b} at {u}: {ours} vs {theirs}");
        let faces: [u8; 6] = dice.faces().collect::<Vec<u8>>().try_into().unwrap();
        let options = table.options(state, dice, rerolls).unwrap();
        let expected = brute.options(mask, u, &faces, u32::from(rerolls));
        assert_eq!(options.len(), expected.len(), "{mask:#b} at {u}, {dice} with {rerolls}");
        for o in options.iter() {
            let key = match o.action {
                MaxiAction::Keep(k) => Ok(k.faces().collect::<Vec<u8>>()),
                MaxiAction::Score(b) => Err(usize::from(b)),
            };
            let (_, v) = expected.iter().find(|(a, _)| *a == key).expect("the evaluator has every option");
            assert!(
                (o.ev - v).abs() < 1e-7,
                "{mask:#b} at {u}, {dice} with {rerolls}, {:?}: {} vs {v}",
                o.action,
                o.ev
            );
        }
        let best = expected.iter().map(|(_, v)| *v).fold(f64::NEG_INFINITY, f64::max);
        assert!(options.best().unwrap().ev > best - 1e-7);
    }
}

/// The decision the evaluator's exact values make (see [`BruteMaxi::decision`]).
fn exact_decision(
    brute: &mut BruteMaxi,
    mask: u32,
    u: u32,
    dice: Dice,
    rerolls: u8,
) -> dice_tables_reader::maxi::MaxiAction {
    use dice_tables_reader::maxi::MaxiAction;
    let faces: [u8; 6] = dice.faces().collect::<Vec<u8>>().try_into().unwrap();
    match brute.decision(mask, u, &faces, u32::from(rerolls)) {
        Err(b) => MaxiAction::Score(b as u8),
        Ok(kept) => MaxiAction::Keep(Dice::from_faces(&kept).unwrap()),
    }
}

/// The decisions the table lists as exceptions, in states the evaluator
/// solves (up to three boxes open): a lookup follows the exact decision,
/// the evaluator's; and random decisions of such states decide as it does.
#[test]
fn the_finnish_tables_decisions_are_the_exact_ones() {
    use dice_tables_reader::maxi::MaxiYatzy;
    let tables = dice_tables_reader::Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let table = tables.get::<MaxiYatzy>().unwrap();
    let mut brute = brute_for(Rules::FINNISH, false);
    let exceptions = table.exceptions().unwrap();
    assert!(!exceptions.is_empty());
    // Exceptions begin with five boxes open: those with the fewest upper
    // boxes open are the evaluator's quickest (each upper box open
    // multiplies the states it visits).
    let mut small: Vec<_> = exceptions.iter().filter(|(s, ..)| s.mask().count_ones() <= 5).collect();
    small.sort_by_key(|(s, ..)| (s.mask() & dice_tables_reader::maxi::UPPER_MASK).count_ones());
    assert!(!small.is_empty(), "some exceptions have five boxes open or fewer");
    for &&(state, dice, rerolls, action) in small.iter().take(3) {
        let exact = exact_decision(&mut brute, state.mask(), u32::from(state.upper()), dice, rerolls);
        assert_eq!(action, exact, "{state:?} {dice} with {rerolls}");
        let best = table.options(state, dice, rerolls).unwrap().best().unwrap().action;
        assert_eq!(best, exact, "{state:?} {dice} with {rerolls}");
    }
    let mut rng = Rng::new(14);
    for _ in 0..60 {
        let (mask, u, dice, rerolls) = random_finnish_decision(&mut rng);
        let state = table.state(mask, u, 0).unwrap();
        let best = table.options(state, dice, rerolls).unwrap().best().unwrap().action;
        assert_eq!(best, exact_decision(&mut brute, mask, u, dice, rerolls), "{mask:#b} at {u}, {dice} with {rerolls}");
    }
}

/// Games played from the finnish table's own decisions score its start
/// value on average: 2,000 games, the mean within 4 standard errors
/// (`make bench` plays 200,000 of each table).
#[test]
fn games_played_from_the_finnish_table_score_its_value() {
    use dice_tables_generator::maxi::play::score_histogram;
    use dice_tables_generator::play::mean_sd_se;
    use dice_tables_reader::maxi::{MaxiYatzy, ALL};
    let tables = dice_tables_reader::Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let table = tables.get::<MaxiYatzy>().unwrap();
    let value = table.turn_start_value(table.state(ALL, 0, 0).unwrap()).unwrap();
    let counts = score_histogram(table, 2_000, 7).unwrap();
    let (mean, sd, se) = mean_sd_se(&counts);
    assert_eq!(counts.iter().sum::<u64>(), 2_000);
    assert!(sd > 0.0 && (mean - value).abs() < 4.0 * se, "mean {mean} (se {se}) against {value}");
}

/// A layer chunk's values decoded from its bytes as reader/FORMAT.md says,
/// with none of the reader's decoding: per value a length byte (row 0 the
/// bit length, later rows its zigzag step from the length above), the bits
/// below the leading one from byte 16384, zigzag deltas along the totals of
/// residuals from the extrapolation along the saved counts; units of
/// 1.6e-7 points. Returns each mask's rows of units.
fn decode_as_format_md_says(bytes: &[u8], masks: usize, rows: usize, n: usize) -> Vec<Vec<i64>> {
    let count = masks * rows * n;
    assert!(count <= 13107);
    assert!(bytes[count..16384].iter().all(|&b| b == 0), "zero between the length bytes and the bits");
    let bit = |b: usize| u64::from(bytes[16384 + b / 8] >> (b % 8) & 1);
    let (mut next_bit, mut j) = (0usize, 0usize);
    let mut out = Vec::new();
    for _ in 0..masks {
        let mut lengths = vec![0i64; n];
        let mut units: Vec<i64> = Vec::new();
        for s in 0..rows {
            let mut residual = 0i64;
            for i in 0..n {
                let byte = i64::from(bytes[j]);
                j += 1;
                lengths[i] = if s == 0 { byte } else { lengths[i] + ((byte >> 1) ^ -(byte & 1)) };
                let length = lengths[i];
                assert!((0..=40).contains(&length));
                let mut z = if length == 0 { 0u64 } else { 1 << (length - 1) };
                for b in 0..(length - 1).max(0) as usize {
                    z |= bit(next_bit + b) << b;
                }
                next_bit += (length - 1).max(0) as usize;
                let d = (z >> 1) as i64 ^ -((z & 1) as i64);
                residual += d;
                let u = |back: usize| units[(s - back) * n + i];
                let predicted = match s {
                    0 => 0,
                    1 => u(1),
                    2 => 2 * u(1) - u(2),
                    _ => 3 * u(1) - 3 * u(2) + u(3),
                };
                units.push(predicted + residual);
            }
        }
        out.push(units);
    }
    let end = 16384 * 8 + next_bit;
    assert!((end..bytes.len() * 8).all(|b| bytes[b / 8] >> (b % 8) & 1 == 0), "zero after the last value's bits");
    out
}

/// FORMAT.md's Maxi Yatzy values are what the reader reads: the first,
/// a middle and the last chunk of every layer of the finnish table,
/// decoded by [`decode_as_format_md_says`], give every mask's values as
/// `mask_values` answers them.
#[test]
fn the_finnish_tables_chunks_decode_as_format_md_says() {
    use dice_tables_reader::maxi::{Layout, MaxiYatzy, SECTIONS, UNITS_PER_POINT};
    use dice_tables_reader::Game;
    let tables = dice_tables_reader::Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let table = tables.get::<MaxiYatzy>().unwrap();
    let layout = Layout::new(table.rules());
    let mut checked = 0;
    for (section, spec) in SECTIONS.iter().take(20).enumerate() {
        let last = layout.chunks(section + 1) - 1;
        for chunk in [0, last / 2, last] {
            let (masks, place) = layout.chunk_masks(section, chunk).unwrap();
            let bytes = table.checked().chunk(spec, chunk).unwrap();
            let decoded = decode_as_format_md_says(bytes, masks.len(), place.rows, place.values);
            for (&mask, units) in masks.iter().zip(&decoded) {
                let values = table.mask_values(mask).unwrap();
                let totals = dice_tables_generator::maxi::table::stored_total_list(mask, table.rules().bonus_at);
                let read: Vec<f64> = totals.iter().map(|&u| values.get(0, u)).collect();
                let ours: Vec<f64> = units.iter().map(|&u| u as f64 / 6_250_000.0).collect();
                assert_eq!(read, ours, "mask {mask:#b} in chunk {chunk} of section {section}");
                checked += 1;
            }
        }
    }
    assert_eq!(UNITS_PER_POINT, 6_250_000.0);
    assert!(checked > 1000, "{checked} masks");
}

/// The saved counts' rows too (the swedish table is not part of `make
/// tables`): a chunk the reader's encoder writes for rows that rise by
/// less and less, as saved rerolls do, decodes as FORMAT.md says.
#[test]
fn chunks_with_saved_rows_decode_as_format_md_says() {
    use dice_tables_reader::maxi::{encode_chunk, Place};
    let mut rng = Rng::new(44);
    let (masks, rows, n) = (4, 9, 13);
    let values: Vec<Vec<i64>> = (0..masks)
        .map(|_| {
            let base: Vec<i64> = (0..n).map(|_| 1_000_000_000 + rng.below(2_000_000_000) as i64).collect();
            (0..rows)
                .flat_map(|s| {
                    let rise = (s as f64 * 0.4).tanh();
                    base.iter()
                        .map(move |&b| b + (rise * 300_000_000.0) as i64 + (s as i64 * 7919 % 1000))
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .collect();
    let place = Place { section: 0, chunk: 0, position: 0, masks, rows, values: n };
    let bytes = encode_chunk(&place, |p| values[p].clone());
    assert_eq!(decode_as_format_md_says(&bytes, masks, rows, n), values);
}

/// The final score's distribution under exact play, from the generator's
/// forward pass, against the evaluator's backward one (each decision its
/// own exact one): small games of three and four boxes, under the finnish
/// rules and swedish scoring without saved rolls.
#[test]
fn score_distributions_agree_with_the_evaluator() {
    use dice_tables_generator::maxi::distribution::score_distribution;
    let mut rng = Rng::new(15);
    for rules in [Rules::FINNISH, Rules { saved_rolls: false, ..Rules::SWEDISH }] {
        let mut brute = brute_for(rules, false);
        for boxes in [3, 3, 4] {
            // Two upper boxes at most, so the evaluator's states stay few.
            let mut universe = random_boxes(&mut rng, boxes);
            while (universe & dice_tables_reader::maxi::UPPER_MASK).count_ones() > 2 {
                universe = random_boxes(&mut rng, boxes);
            }
            let ours = score_distribution(rules, universe, 0.0, |_, _, _| {});
            let theirs = brute.remaining_distribution(universe, 0);
            assert_eq!(ours.dropped, 0.0);
            let len = ours.p.len().max(theirs.len());
            let at = |d: &[f64], s: usize| d.get(s).copied().unwrap_or(0.0);
            for s in 0..len {
                let (a, b) = (at(&ours.p, s), at(&theirs, s));
                assert!((a - b).abs() < 1e-12, "{rules:?} {universe:#b}: P({s}) {a} vs {b}");
            }
            assert!((ours.mean() - brute.turn_start(universe, 0, 0)).abs() < 1e-9);
        }
    }
}

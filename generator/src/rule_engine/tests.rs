use super::*;
use crate::rule_sets::preset;

/// Within rounding of the published figures' last digit.
fn near(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

#[test]
fn a_single_box_game_is_its_average() {
    // One box of chance with no rerolls: the average of five dice.
    let text = "name = \"one\"\ndice = 5\nrerolls = 0\n\n[[box]]\nname = \"chance\"\nkind = \"chance\"\n";
    let rules = RuleSet::from_text(text).unwrap();
    assert!(near(solve(&rules).unwrap().start(), 17.5, 1e-12));
    // Three dice, a reroll, one box of sixes: keep the sixes, reroll the rest.
    let text = "name = \"six\"\ndice = 3\nrerolls = 1\n\n[[box]]\nname = \"sixes\"\nkind = \"face\"\nface = 6\n";
    let rules = RuleSet::from_text(text).unwrap();
    assert!(near(solve(&rules).unwrap().start(), 6.0 * 3.0 * (1.0 - 25.0 / 36.0), 1e-12));
}

/// yazy's table averages a die's faces over six, the sheet tables times a
/// sixth: the two differ in rounding only, in every state.
#[test]
fn averaging_over_six_or_times_a_sixth_differs_in_rounding_only() {
    let rules = preset("yazy").unwrap();
    let times = solve(&rules).unwrap();
    let over = Options { average: Average::OverSix, ..Options::default() };
    let (over, _) = solve_with(&rules, crate::dice::simd(), over, &mut |_, _| {}).unwrap();
    let mut differ = 0;
    for mask in 0..1u32 << 11 {
        let (a, b) = (times.turn_start(mask, 0, 0).unwrap(), over.turn_start(mask, 0, 0).unwrap());
        assert!(near(a, b, 1e-9), "mask {mask:#b}: {a} vs {b}");
        differ += usize::from(a.to_bits() != b.to_bits());
    }
    assert!(differ > 0, "the conventions give other bits somewhere");
    assert!(near(times.start(), 165.7573187, 5e-8), "{}", times.start());
}

#[test]
fn yacht_dice_is_ho94949_s_figure_with_five_alike_a_full_house() {
    let start = solve(&preset("yacht-dice").unwrap()).unwrap().start();
    assert!(near(start, 191.774369, 5e-7), "{start}");
}

#[test]
fn forced_order_and_saved_rerolls() {
    // In a fixed order the only turn starts are the boxes from some box on.
    let forced = solve(&preset("forced-yatzy").unwrap()).unwrap();
    assert!(forced.turn_start(0b111, 0, 0).is_none());
    assert!(forced.turn_start(0b111 << 12, 0, 0).is_some());
    assert!(forced.start() < solve(&preset("yacht").unwrap()).unwrap().start());
    assert!(solve(&preset("maxi-yatzy-swedish").unwrap()).is_err());
}

#[test]
fn every_vector_level_gives_the_same_bits() {
    // An upper bonus (lanes over totals), a first-roll bonus and a box that
    // needs another (lanes over masks and flags).
    for name in ["yacht-dice", "generala"] {
        let rules = preset(name).unwrap();
        let levels: Vec<Solution> =
            crate::cpu::Simd::available().into_iter().map(|l| solve_on(&rules, l).unwrap()).collect();
        for other in &levels[1..] {
            assert!(levels[0].values.iter().zip(&other.values).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
        }
        // Listing near ties changes no value (generala's first-roll bonus
        // takes its own path), nor does solving only what the game reaches,
        // where it reaches.
        let band = Some(Band { tie: 1e-9, band: 1e-3 });
        let simd = crate::dice::simd();
        let (listed, near) = solve_with(&rules, simd, Options { band, ..Options::default() }, &mut |_, _| {}).unwrap();
        assert!(!near.is_empty(), "{name} has near ties");
        assert!(listed.values.iter().zip(&levels[0].values).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
        let (reached, _) =
            solve_with(&rules, simd, Options { coverage: Coverage::Reachable, ..Options::default() }, &mut |_, _| {})
                .unwrap();
        let tracked = rules.tracked_boxes();
        for mask in 0..1u32 << rules.boxes.len() {
            let reachable = rules.reachable_uppers(mask, listed.layout.totals);
            for flag in (0..1 << tracked.len()).map(|f| held_of_flag(&tracked, f)).filter(|h| h & mask == 0) {
                for upper in (0..reachable.len()).filter(|&u| reachable[u]) {
                    let (a, b) =
                        (reached.turn_start(mask, upper as u16, flag), listed.turn_start(mask, upper as u16, flag));
                    assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{name} {mask:#b} {flag} {upper}");
                }
            }
        }
    }
}

#[test]
fn reaching_a_target_with_one_box_is_the_chance_of_its_dice() {
    // One box of chance, three dice, no rerolls: P*(n) is the chance the
    // three dice sum to n or more, counted over the 216 throws.
    let text = "name = \"one\"\ndice = 3\nrerolls = 0\n\n[[box]]\nname = \"chance\"\nkind = \"chance\"\n";
    let reach = target::solve(&RuleSet::from_text(text).unwrap(), 1).unwrap();
    for n in -1..=20i64 {
        let throws = (0..216).filter(|t| i64::from(t % 6 + t / 6 % 6 + t / 36 + 3) >= n).count();
        let chance = reach.chance(1, 0, 0, n).unwrap();
        assert!(near(chance, throws as f64 / 216.0, 1e-15), "n {n}: {chance}");
    }
    // A box of sixes with a reroll: at least 12 is two sixes or more
    // after keeping every six (the best play), and the chances never rise.
    let text = "name = \"six\"\ndice = 3\nrerolls = 1\n\n[[box]]\nname = \"sixes\"\nkind = \"face\"\nface = 6\n";
    let reach = target::solve(&RuleSet::from_text(text).unwrap(), 1).unwrap();
    let sixes = |k: i32, dice: i32| -> f64 {
        // The chance of at least k sixes in `dice` throws of a die.
        (k..=dice).map(|j| binomial(dice, j) * (1.0f64 / 6.0).powi(j) * (5.0f64 / 6.0).powi(dice - j)).sum()
    };
    // Keeping the sixes: at least two in all.
    let two: f64 = (0..=3)
        .map(|first| {
            binomial(3, first)
                * (1.0f64 / 6.0).powi(first)
                * (5.0f64 / 6.0).powi(3 - first)
                * sixes((2 - first).max(0), 3 - first)
        })
        .sum();
    assert!(near(reach.chance(1, 0, 0, 12).unwrap(), two, 1e-12));
    let curve: Vec<f64> = (0..=19).map(|n| reach.chance(1, 0, 0, n).unwrap()).collect();
    assert!(curve.windows(2).all(|w| w[1] <= w[0]) && curve[19] == 0.0, "{curve:?}");
}

fn binomial(n: i32, k: i32) -> f64 {
    (0..k).map(|i| f64::from(n - i) / f64::from(i + 1)).product()
}

/// A whole solve places each layer's values where the table's layout has
/// them: read back through its index they, and its near ties, are the
/// layers' bit for bit: a free order with a tracked box and an upper
/// bonus, and a fixed order.
#[test]
fn a_solve_by_layer_is_the_whole_solve() {
    for name in ["yahtzee", "forced-yatzy"] {
        let rules = preset(name).unwrap();
        let options = Options { band: Some(Band { tie: 1e-9, band: 0.05 }), ..Options::default() };
        let simd = crate::dice::simd();
        let (whole, mut whole_near) = solve_with(&rules, simd, options, &mut |_, _| {}).unwrap();
        let (mut compared, mut layer_near) = (0, Vec::new());
        let start = solve_by_layer(&rules, simd, options, &mut |_, _| {}, &mut |layer, below, near| {
            assert_eq!(below.masks[0].count_ones() + 1, layer.masks[0].count_ones());
            let block = layer.values.len() / layer.masks.len();
            for (&mask, values) in layer.masks.iter().zip(layer.values.chunks_exact(block)) {
                for flag in 0..whole.layout.flags() {
                    let held = held_of_flag(&whole.layout.tracked, flag);
                    let totals = whole.totals(mask, held).unwrap();
                    let row = &values[flag * totals.len()..][..totals.len()];
                    assert!(row.iter().zip(totals).all(|(a, b)| a.to_bits() == b.to_bits()), "{name} {mask:#b}");
                    compared += 1;
                }
            }
            layer_near.extend(near);
        })
        .unwrap();
        assert_eq!(start.to_bits(), whole.start().to_bits());
        assert!(compared > 10, "{compared}");
        whole_near.sort_unstable();
        layer_near.sort_unstable();
        assert!(!whole_near.is_empty(), "{name}: a band this wide lists near ties");
        assert_eq!(whole_near, layer_near, "{name}");
    }
}

/// The parts pass's lanes give the same parts at every vector level: over
/// upper totals (forced Yatzy's bonus) and at a single total (Generala's
/// first-roll bonus and a box that needs another).
#[test]
fn parts_are_the_same_bits_at_every_vector_level() {
    for name in ["forced-yatzy", "generala"] {
        let solution = solve(&preset(name).unwrap()).unwrap();
        let levels: Vec<parts::Parts> =
            crate::cpu::Simd::available().into_iter().map(|l| parts::solve_on(&solution, l).unwrap()).collect();
        for other in &levels[1..] {
            assert!(levels[0].parts.iter().zip(&other.parts).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
        }
    }
}

/// Every turn start's parts add up to its value, a filled box's part is 0
/// and none is below 0: in a fixed order, with an upper bonus, a
/// first-roll bonus, a box that needs another, and an extra bonus with a joker.
#[test]
fn parts_add_up_to_every_value() {
    use dice_tables_reader::rule_sheet::part_names;
    for name in ["forced-yatzy", "generala", "crag", "yacht"] {
        let rules = preset(name).unwrap();
        let solution = solve(&rules).unwrap();
        let parts::Parts { count, parts } = parts::solve(&solution).unwrap();
        assert_eq!(count, part_names(&rules).len());
        let boxes = rules.boxes.len();
        let (mut checked, mut repeated) = (0, 0);
        let layout = &solution.layout;
        for &mask in &layout.masks {
            // The full sheet's parts are its bonus, at every total.
            let reachable =
                if mask == 0 { vec![true; layout.totals] } else { rules.reachable_uppers(mask, layout.totals) };
            let at = layout.at(mask).unwrap();
            for (i, p) in (at..at + layout.block()).zip(parts[at * count..].chunks_exact(count)) {
                let upper = (i - at) % layout.totals;
                if !reachable[upper] {
                    // A total no game reaches repeats the one below.
                    assert_eq!(p, &parts[(i - 1) * count..][..count], "{name} turn start {i}");
                    repeated += 1;
                    continue;
                }
                let (sum, value) = (p.iter().sum::<f64>(), solution.values[i]);
                assert!((sum - value).abs() < 1e-9 * value.max(1.0), "{name} turn start {i}: {sum} vs {value}");
                assert!(p.iter().all(|&x| x > -1e-12), "{name} turn start {i}: {p:?}");
                checked += 1;
            }
        }
        assert!(repeated > 0 || rules.upper_bonus.is_none(), "{name}: every total reached");
        // The start's boxes each expect some points; a filled box none.
        let all = (1u32 << boxes) - 1;
        let at = solution.layout.index(all, 0, 0).unwrap();
        assert!(parts[at * count..][..boxes].iter().all(|&x| x > 0.0), "{name}: {:?}", &parts[at * count..][..count]);
        if rules.order == Order::Free {
            let at = solution.layout.index(all & !1, 0, 0).unwrap();
            assert_eq!(parts[at * count], 0.0, "{name}: the first box filled");
        }
        assert!(checked > 500, "{name}: {checked}");
    }
    // One box of chance, no rerolls: its part is the average of five dice;
    // three dice, a reroll, one box of sixes: keep the sixes.
    let text = "name = \"six\"\ndice = 3\nrerolls = 1\n\n[[box]]\nname = \"sixes\"\nkind = \"face\"\nface = 6\n";
    let solution = solve(&RuleSet::from_text(text).unwrap()).unwrap();
    let p = parts::solve(&solution).unwrap();
    assert!(near(p.parts[p.parts.len() - 1], 6.0 * 3.0 * (1.0 - 25.0 / 36.0), 1e-12));
}

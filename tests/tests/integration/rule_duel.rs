//! Two players of any rule set: the rules engine's joint solve against the
//! brute force's recursion over both sheets
//! ([`BruteDuel`](dice_tables_tests::oracles::rule_set::duel::BruteDuel)),
//! which shares no code with it, on random states of the real games with
//! up to three boxes open on each sheet, at every lead a pair stores.

use dice_tables_generator::rule_engine::duel::{check_duel, solve, Layer, Sheets};
use dice_tables_generator::rule_sets::preset;
use dice_tables_reader::rules::{Order, RuleSet};
use dice_tables_tests::oracles::rule_set::duel::BruteDuel;
use dice_tables_tests::Rng;

/// The layers of `rules`' joint game up to `top` boxes open on both sheets.
fn bottom_layers(rules: &RuleSet, sheets: &Sheets, top: usize) -> Vec<Layer> {
    let mut layers = Vec::new();
    solve(rules, sheets, top, dice_tables_generator::dice::simd(), &mut |layer| layers.push(layer.clone()));
    layers
}

/// A random sheet of `rules` with `open` boxes open, as a game reaches it:
/// (open boxes, upper total, boxes holding points).
fn random_sheet(rules: &RuleSet, rng: &mut Rng, open: u32) -> (u32, u32, u32) {
    let boxes = rules.boxes.len() as u32;
    let mask = match rules.order {
        Order::Fixed => ((1u32 << boxes) - 1) & !((1u32 << (boxes - open)) - 1),
        Order::Free => loop {
            let m = rng.next_u64() as u32 & ((1 << boxes) - 1);
            if m.count_ones() == open {
                break m;
            }
        },
    };
    let bonus_boxes = rules.upper_bonus.map_or(0, |u| u.boxes);
    let mut upper = 0;
    let mut held = 0;
    for b in (0..rules.boxes.len()).filter(|&b| mask >> b & 1 == 0) {
        let face = rules.face_of(b).map_or(0, u32::from);
        if bonus_boxes >> b & 1 == 1 {
            upper += face * rng.below(u64::from(rules.dice) + 1) as u32;
        }
        if rng.below(2) == 1 {
            held |= 1 << b;
        }
    }
    (mask, upper, held)
}

/// The upper bonus a sheet with upper total `upper` is paid at the end.
fn bonus(rules: &RuleSet, upper: u32) -> i64 {
    rules.upper_bonus.filter(|u| upper >= u32::from(u.at)).map_or(0, |u| i64::from(u.points))
}

/// `states` random pairs of sheets of a preset, each with up to three
/// boxes open (the mover one more or as many as the opponent), at every
/// lead the pair stores and a few past them: the table's value is the
/// brute force's within 1e-9.
fn agrees_with_the_brute_force(name: &str, states: usize, seed: u64) {
    let rules = preset(name).unwrap();
    let sheets = check_duel(&rules).unwrap();
    let layers = bottom_layers(&rules, &sheets, 6);
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for _ in 0..states {
        let opp_open = rng.below(4) as u32;
        let me_open = if opp_open == 0 || rng.below(2) == 0 { opp_open + 1 } else { opp_open };
        let me_open = me_open.min(3);
        let me = random_sheet(&rules, &mut rng, me_open);
        let opp = random_sheet(&rules, &mut rng, opp_open);
        let (k, i) = sheets.find(me.0, me.1, me.2).unwrap();
        let (_, j) = sheets.find(opp.0, opp.1, opp.2).unwrap();
        let layer = &layers[(me_open + opp_open) as usize];
        let (most_me, most_opp) = (sheets.by_size[k][i].most as i64, sheets.by_size[opp_open as usize][j].most as i64);
        let counted = bonus(&rules, me.1) - bonus(&rules, opp.1);
        let query = most_me + most_opp + 10;
        let mut brute = BruteDuel::new(rules.clone(), query, me_open + opp_open);
        for lead in -most_me - 3..=most_opp + 3 {
            let table = layer.value(&sheets, i, j, lead + counted);
            let exact = brute.chance(me, opp, lead);
            assert!((table - exact).abs() < 1e-9, "{name} {me:?} {opp:?} lead {lead}: {table} against {exact}");
            compared += 1;
        }
    }
    assert!(compared > states * 20, "{name}: {compared}");
}

#[test]
fn forced_yatzy_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("forced-yatzy", 12, 11);
}

#[test]
fn generala_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("generala", 8, 12);
}

#[test]
fn yacht_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("yacht", 8, 13);
}

#[test]
fn crag_two_players_agree_with_the_brute_force() {
    agrees_with_the_brute_force("crag", 12, 14);
}

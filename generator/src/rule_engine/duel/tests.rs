use super::*;
use crate::rule_sets::preset;

/// `rules` with only the boxes of `keep` (mask bits of its sheet), each
/// reference to a box moved to its new place.
pub(super) fn reduced(rules: &RuleSet, keep: u32) -> RuleSet {
    let place = |b: usize| (keep & ((1u32 << b) - 1)).count_ones() as usize;
    let remap = |mask: u32| (0..32).filter(|&b| (keep & mask) >> b & 1 == 1).fold(0u32, |m, b| m | 1 << place(b));
    let mut r = rules.clone();
    r.boxes = rules.boxes.iter().enumerate().filter(|(b, _)| keep >> b & 1 == 1).map(|(_, b)| b.clone()).collect();
    for b in &mut r.boxes {
        b.needs = b.needs.filter(|&n| keep >> n & 1 == 1).map(place);
    }
    let most_faces = |r: &RuleSet, boxes: u32| r.most_faces_make(boxes) as u16;
    if let Some(mut u) = r.upper_bonus {
        u.boxes = remap(u.boxes);
        // Within reach of the boxes kept.
        u.at = u.at.min(most_faces(&r, u.boxes) / 2);
        r.upper_bonus = Some(u);
    }
    r.extra_bonus = r.extra_bonus.filter(|e| keep >> e.box_index & 1 == 1);
    if let Some(e) = &mut r.extra_bonus {
        e.box_index = place(e.box_index);
    }
    r.check().unwrap();
    r
}

/// Every layer of `rules`' joint game.
fn layers(rules: &RuleSet, sheets: &Sheets) -> Vec<Layer> {
    let mut out = Vec::new();
    solve(rules, sheets, 2 * rules.boxes.len(), crate::dice::simd(), &mut |layer| {
        out.push(Layer { n: layer.n, block: layer.block.clone(), values: layer.values.clone() })
    });
    out
}

#[test]
fn yazy_played_with_a_few_boxes_is_the_yazy_duel_table_s_game() {
    // ones, threes, full-house and yazy on both sheets: the rule set's
    // duel and yazy's own duel solver, pair by pair and lead by lead (they
    // average a die's faces differently: within rounding).
    let universe: u16 = 1 | 1 << 2 | 1 << 8 | 1 << 10;
    let rules = reduced(&preset("yazy").unwrap(), u32::from(universe));
    let sheets = Sheets::of(&rules);
    let ours = layers(&rules, &sheets);
    let mut theirs = Vec::new();
    crate::games::yazy::duel::solve(universe, 2, |_, layer| theirs.push(layer.clone()));
    // Box b of the reduced sheet is category `cats[b]` of yazy's.
    let cats: Vec<u16> = (0..11).filter(|c| universe >> c & 1 == 1).collect();
    let to_yazy = |open: u32| (0..cats.len()).filter(|b| open >> b & 1 == 1).fold(0u16, |m, b| m | 1 << cats[b]);
    let mut compared = 0;
    for (layer, their) in ours.iter().zip(&theirs).skip(1) {
        let (k, l) = Sheets::sizes(layer.n);
        for (i, m) in sheets.by_size[k].iter().enumerate() {
            for (j, o) in sheets.by_size[l].iter().enumerate() {
                let pair = their.pair(to_yazy(m.open), to_yazy(o.open)).unwrap();
                for d in -(m.most as i64) - 3..=o.most as i64 + 3 {
                    let (a, b) = (layer.value(&sheets, i, j, d), their.value(pair, d as i32));
                    assert!((a - b).abs() < 1e-9, "{:#b} {:#b} {d}: {a} vs {b}", m.open, o.open);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn sheets_keep_what_the_future_depends_on() {
    let generala = Sheets::of(&preset("generala").unwrap());
    // The generala box's points matter only while the double is open.
    let (generala_box, double) = (9, 10);
    let closed = ((1u32 << 11) - 1) & !(1 << generala_box);
    assert_eq!(generala.canonical(closed, 0, 1 << generala_box), (0, 1 << generala_box));
    assert_eq!(generala.canonical(closed & !(1 << double), 0, 1 << generala_box), (0, 0));
    // Most: 105 in the faces, 25 + 35 + 45 with the served bonus, 50 and 100.
    let (k, start) = generala.start();
    assert_eq!(generala.by_size[k][start].most, 105 + 25 + 35 + 45 + 50 + 100);
    let forced = Sheets::of(&preset("forced-yatzy").unwrap());
    // In sheet order, with the bonus undecided until the sixes.
    assert_eq!(forced.by_size[15].len(), 64, "a head start in the upper total");
    assert_eq!(forced.by_size[14].len(), 64, "every upper total to the threshold");
    assert!(forced.by_size[9].iter().all(|s| s.upper == 63), "the bonus decided past the sixes");
}

#[test]
fn every_vector_level_gives_the_same_bits() {
    // A served box that wins at once, a box that needs another, an upper bonus.
    for (name, keep) in [("generala", 1 | 1 << 7 | 1 << 9 | 1 << 10), ("yatzy", 0b11 | 1 << 14)] {
        let rules = reduced(&preset(name).unwrap(), keep);
        let sheets = Sheets::of(&rules);
        let solved = |simd| {
            let mut values: Vec<f64> = Vec::new();
            solve(&rules, &sheets, 2 * rules.boxes.len(), simd, &mut |layer| values.extend(&layer.values));
            values
        };
        let portable = solved(Simd::PORTABLE);
        for level in Simd::available() {
            let other = solved(level);
            assert!(portable.iter().zip(&other).all(|(a, b)| a.to_bits() == b.to_bits()), "{name} {level:?}");
        }
    }
}

#[test]
fn a_served_generala_is_a_race_whatever_the_lead() {
    // Generala alone, no rerolls: a turn serves five alike with chance
    // 6/7776 = q and wins; otherwise generala scores 0 (the roll is its
    // first and only one). The first player wins with q, else the second
    // with q, else the lead (0 for both: a tie) decides.
    let mut rules = reduced(&preset("generala").unwrap(), 1 << 9);
    rules.rerolls = 0;
    let sheets = Sheets::of(&rules);
    let all = layers(&rules, &sheets);
    let q = 6.0 / 7776.0;
    let (k, start) = sheets.start();
    let top = &all[2];
    for d in [-1000, -51, 0, 51, 1000] {
        let v = top.value(&sheets, start, start, d);
        let lead = match d.cmp(&0) {
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 1.0,
        };
        let exact = q + (1.0 - q) * (1.0 - q) * lead;
        assert!((v - exact).abs() < 1e-12, "lead {d}: {v} vs {exact}");
    }
    assert_eq!(k, 1);
}

#[test]
fn two_player_yatzy_and_yahtzee_are_refused_with_the_estimate() {
    for name in ["yatzy", "yahtzee", "maxi-yatzy"] {
        let why = check_duel(&preset(name).unwrap()).err().unwrap().0;
        assert!(why.starts_with(name) && why.contains("joint states"), "{why}");
        // Where the sheets can be listed, the whole estimate.
        assert!(name == "maxi-yatzy" || (why.contains("a file of about") && why.contains("on 2 cores")), "{why}");
    }
    let generala = preset("generala").unwrap();
    let sheets = check_duel(&generala).unwrap();
    let e = estimate(&generala, &sheets);
    assert_eq!(e.states, sheets.joint_states());
    assert!(e.states > 7e8 as u64 && e.memory < 4 << 30, "{e:?}");
    // Measured: 398 MB, about 3.5 minutes.
    assert!(e.file_bytes() > 3.98e8 && e.file_bytes() < 6e8 && e.seconds() > 120.0 && e.seconds() < 600.0, "{e:?}");
}

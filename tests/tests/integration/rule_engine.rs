//! The rule engine (one solver for any rule set of the Yahtzee family):
//! its solve of every turn start (a rule set's table) against its solve of
//! what the game reaches (yatzy's and yahtzee's tables), state by state,
//! and against the figures others published for the rule sets they solved.

use dice_tables_generator::rule_engine::solve;
use dice_tables_generator::rule_sets::preset;
use dice_tables_reader::rule_sheet::TurnStarts;
use dice_tables_reader::rules::{BoxRule, ExtraBonus, Joker as JokerRule, Kind, Order, RuleSet, Score, UpperBonus};
use dice_tables_reader::sheet::{yahtzee, Joker, Scoring, YAHTZEE_BOX, YATZY};
use dice_tables_tests::oracles::rule_set::BruteRules;
use dice_tables_tests::Rng;

/// Every turn start the game reaches: every mask, both states of the
/// yahtzee box where it is filled, every upper total the filled upper
/// boxes can make (capped at 63): the engine's value over every turn start
/// is the one the game's table holds (solved over the reachable ones, in
/// other lanes), bit for bit.
/// Returns the game's start value.
fn agrees_everywhere(name: &str, scoring: &Scoring) -> f64 {
    let engine = solve(&preset(name).unwrap()).unwrap();
    let own = dice_tables_generator::sheet::solve(name, &mut |_, _| {});
    let boxes = scoring.categories.len();
    let mut compared = 0;
    for mask in 0..1u32 << boxes {
        let reachable = reachable_totals(!mask & 0b11_1111);
        for flag in 0..own.flags {
            if flag == 1 && mask >> YAHTZEE_BOX & 1 == 1 {
                continue; // the box is open: it holds nothing yet
            }
            let held = if flag == 1 { 1 << YAHTZEE_BOX } else { 0 };
            for upper in (0..=63u16).filter(|&u| reachable >> u & 1 == 1) {
                let (a, b) =
                    (engine.turn_start(mask, upper, held).unwrap(), own.get(mask as usize, flag, upper.into()));
                // The same arithmetic in the same order: the same bits.
                assert_eq!(a.to_bits(), b.to_bits(), "{name} mask {mask:#b} flag {flag} upper {upper}: {a} vs {b}");
                compared += 1;
            }
        }
    }
    assert!(compared > 100_000, "{name}: {compared}");
    engine.start()
}

/// Within the last digit of a figure published to seven decimals.
fn published(name: &str, start: f64, figure: f64) {
    assert!((start - figure).abs() < 5e-8, "{name}: {start} against the published {figure}");
}

/// The upper totals, capped at 63, that the filled upper boxes (bits) can
/// make with five dice: bit `u` of the result.
fn reachable_totals(filled: u32) -> u128 {
    let mut reach: u128 = 1;
    for face in (0..6).filter(|f| filled >> f & 1 == 1) {
        reach = (0..=5).fold(0, |next, count| next | reach << (count * (face + 1)));
    }
    (reach & ((1 << 63) - 1)) | u128::from(reach >> 63 != 0) << 63
}

/// The published optimal expected scores, to their last digit: yatzy
/// 248.4399894 (precisit/yatzy-solver; dlangk/yatzy's 248.44014 in f32),
/// yahtzee 254.5877287 under the forced joker and 254.5896095 under the
/// free one, and precisit's 253.9702412 without the joker and 245.8707745
/// without the extra-Yahtzee bonus (Verhoeff's and Glenn's 245.87).
#[test]
#[ignore = "slow: make test runs it"]
fn yatzy_and_yahtzee_tables_are_their_presets_in_every_state_and_the_published_figures() {
    published("yatzy", agrees_everywhere("yatzy", &YATZY), 248.4399894);
    published("yahtzee", agrees_everywhere("yahtzee", &yahtzee(Joker::Forced)), 254.5877287);
    published("yahtzee-free", agrees_everywhere("yahtzee-free", &yahtzee(Joker::Free)), 254.5896095);
    for (name, figure) in [("yahtzee-no-joker", 253.9702412), ("yahtzee-no-bonus", 245.8707745)] {
        published(name, solve(&preset(name).unwrap()).unwrap().start(), figure);
    }
}

/// A random turn start of `rules` with at most `most_open` boxes open
/// (the boxes from some box on, in a fixed order): (mask, upper, held).
pub(crate) fn random_state(rules: &RuleSet, rng: &mut Rng, most_open: u32) -> (u32, u16, u32) {
    let boxes = rules.boxes.len() as u32;
    let open = 1 + rng.below(u64::from(most_open.min(boxes))) as u32;
    let mask = match rules.order {
        Order::Fixed => ((1u32 << open) - 1) << (boxes - open),
        Order::Free => {
            let mut m = 0u32;
            while m.count_ones() < open {
                m |= 1 << rng.below(u64::from(boxes));
            }
            m
        }
    };
    let upper = rules.upper_bonus.map_or(0, |b| rng.below(u64::from(b.at) + 1) as u16);
    let held = (0..boxes).filter(|&b| mask >> b & 1 == 0 && rng.below(2) == 0).fold(0, |h, b| h | 1 << b);
    (mask, upper, held)
}

/// The engine and the brute force on `count` random states of `rules`.
fn agree_with_brute_force(rules: &RuleSet, rng: &mut Rng, count: usize, most_open: u32) {
    let engine = solve(rules).unwrap();
    let mut brute = BruteRules::new(rules.clone());
    for _ in 0..count {
        let (mask, upper, held) = random_state(rules, rng, most_open);
        let (a, b) = (engine.turn_start(mask, upper, held).unwrap(), brute.turn_start(mask, upper.into(), held));
        assert!(
            (a - b).abs() < 1e-7,
            "{} mask {mask:#b} upper {upper} held {held:#b}: {a} vs {b}\n{}",
            rules.name,
            rules.to_text()
        );
    }
}

/// A rule set drawn at random from the vocabulary: 3 to 5 dice, 0 to 2
/// rerolls, 3 to 5 boxes of any kind and score, the bonuses and the order
/// at random. `None` when the draw is not a rule set (its check refuses it).
pub(crate) fn random_rules(rng: &mut Rng, i: usize) -> Option<RuleSet> {
    let dice = 3 + rng.below(3) as u8;
    let score = |rng: &mut Rng| match rng.below(3) {
        0 => Score::Dice,
        1 => Score::All,
        _ => Score::Points(1 + rng.below(60) as u16),
    };
    let mut boxes = Vec::new();
    for b in 0..3 + rng.below(3) as usize {
        let kind = match rng.below(7) {
            0 => Kind::Face(1 + rng.below(6) as u8),
            1 => Kind::Alike { count: 2 + rng.below(u64::from(dice) - 1) as u8, score: score(rng) },
            2 => Kind::Pairs { pairs: 2, exactly: rng.below(2) == 0, score: score(rng) },
            3 => Kind::Groups {
                sizes: if dice >= 5 { vec![3, 2] } else { vec![2, 2] },
                more_alike: rng.below(2) == 0,
                one_face: rng.below(2) == 0,
                score: score(rng),
            },
            4 => {
                let len = 3 + rng.below(u64::from(dice) - 2) as u32;
                let from = rng.below(u64::from(7 - len)) as u32;
                Kind::Straight { runs: vec![(((1u32 << len) - 1) << from) as u8], score: score(rng) }
            }
            5 => Kind::Chance,
            _ => Kind::Total {
                total: dice + rng.below(u64::from(5 * dice) + 1) as u8,
                pair: rng.below(2) == 0,
                score: score(rng),
            },
        };
        let first_roll = if rng.below(4) == 0 { 5 } else { 0 };
        let needs = (b > 0 && rng.below(6) == 0).then_some(0);
        boxes.push(BoxRule { name: format!("b{b}"), kind, first_roll, needs, wins: false });
    }
    let faces: u32 = (0..boxes.len()).filter(|&b| matches!(boxes[b].kind, Kind::Face(_))).fold(0, |m, b| m | 1 << b);
    let most: u32 = (0..boxes.len())
        .filter(|b| faces >> b & 1 == 1)
        .map(|b| match boxes[b].kind {
            Kind::Face(f) => u32::from(f) * u32::from(dice),
            _ => 0,
        })
        .sum();
    let upper_bonus = (faces != 0 && rng.below(2) == 0).then(|| UpperBonus {
        boxes: faces,
        at: 1 + rng.below(u64::from(most)) as u16,
        points: 35,
    });
    let extra_bonus = (rng.below(3) == 0).then(|| {
        boxes.push(BoxRule {
            name: "all-alike".into(),
            kind: Kind::Alike { count: dice, score: Score::Points(50) },
            first_roll: 0,
            needs: None,
            wins: false,
        });
        let joker = [JokerRule::Forced, JokerRule::Free, JokerRule::None][rng.below(3) as usize];
        ExtraBonus { box_index: boxes.len() - 1, points: [0, 100][rng.below(2) as usize], joker }
    });
    let order = if rng.below(5) == 0 { Order::Fixed } else { Order::Free };
    let rules = RuleSet {
        name: format!("random-{i}"),
        dice,
        rerolls: rng.below(3) as u8,
        saved_rerolls: false,
        order,
        boxes,
        upper_bonus,
        extra_bonus,
    };
    rules.check().ok()?;
    // What the table would carry reads back to the same rules.
    assert_eq!(RuleSet::from_text(&rules.to_text()).unwrap(), rules);
    Some(rules)
}

/// `rules` on a sheet of 4 of its boxes drawn at random (the extra-bonus
/// box and the boxes the drawn ones need kept with them; the upper bonus
/// over the face boxes kept, its threshold lowered to what they can make):
/// the same scoring rules in a game small enough for the brute force.
pub(crate) fn reduced(rules: &RuleSet, rng: &mut Rng) -> RuleSet {
    let n = rules.boxes.len();
    let mut keep: u32 = rules.extra_bonus.map_or(0, |e| 1 << e.box_index);
    while keep.count_ones() < 4.min(n as u32) {
        keep |= 1 << rng.below(n as u64);
        for b in 0..n {
            if keep >> b & 1 == 1 {
                keep |= rules.boxes[b].needs.map_or(0, |t| 1 << t);
            }
        }
    }
    let kept: Vec<usize> = (0..n).filter(|b| keep >> b & 1 == 1).collect();
    let new_index = |b: usize| kept.iter().position(|&k| k == b).expect("kept");
    let boxes = kept
        .iter()
        .map(|&b| BoxRule { needs: rules.boxes[b].needs.map(new_index), ..rules.boxes[b].clone() })
        .collect::<Vec<_>>();
    let faces =
        |mask: u32| kept.iter().enumerate().filter(|(_, &b)| mask >> b & 1 == 1).fold(0u32, |m, (i, _)| m | 1 << i);
    let upper_bonus = rules.upper_bonus.and_then(|u| {
        let boxes_kept = faces(u.boxes);
        let most: u32 = (0..boxes.len())
            .filter(|b| boxes_kept >> b & 1 == 1)
            .map(|b| match boxes[b].kind {
                Kind::Face(f) => u32::from(f) * u32::from(rules.dice),
                _ => 0,
            })
            .sum();
        (boxes_kept != 0).then(|| UpperBonus { boxes: boxes_kept, at: u.at.min(most as u16), points: u.points })
    });
    let extra_bonus = rules.extra_bonus.map(|e| ExtraBonus { box_index: new_index(e.box_index), ..e });
    let reduced = RuleSet { name: format!("{}-reduced", rules.name), boxes, upper_bonus, extra_bonus, ..rules.clone() };
    reduced.check().unwrap_or_else(|e| panic!("{}: {e}", reduced.name));
    reduced
}

/// Every preset the engine solves, each on two sheets of 4 of its boxes
/// drawn at random, and 20 rule sets drawn at random from the vocabulary:
/// on random turn starts (up to 3 boxes open; 2 with six dice), the engine's value is the
/// brute force's (which shares no scoring or solving code with it) within
/// 1e-7. (The whole presets' every state is their tables', above; saved
/// rerolls are held to maxi.rs's brute force.)
#[test]
#[ignore = "slow: make test runs it"]
fn presets_and_random_rule_sets_agree_with_brute_force() {
    let mut rng = Rng::new(61);
    for (name, _) in dice_tables_generator::rule_sets::PRESETS {
        let rules = preset(name).unwrap();
        if rules.saved_rerolls {
            continue; // saved rerolls: maxi.rs's brute force, which saves them
        }
        // Six dice: the brute force's throws cost 462 outcomes each.
        let most_open = if rules.dice > 5 { 2 } else { 3 };
        for _ in 0..2 {
            agree_with_brute_force(&reduced(&rules, &mut rng), &mut rng, 2, most_open);
        }
    }
    let mut drawn = 0;
    let mut i = 0;
    while drawn < 20 {
        i += 1;
        if let Some(rules) = random_rules(&mut rng, i) {
            agree_with_brute_force(&rules, &mut rng, 3, 3);
            drawn += 1;
        }
    }
}

/// 8 rule sets drawn at random from the vocabulary, saving rerolls (no
/// first-roll bonus: the engine refuses one with saving), on sheets of 4
/// of their boxes: their tables, read back by the reader, agree with the
/// brute force (which saves rerolls itself) on random turn starts with up
/// to 3 boxes open at every count saved the turns played allow, within
/// 1e-7; and a roll's options with every count of rerolls left the turn has.
#[test]
#[ignore = "slow: make test runs it"]
fn random_rule_sets_that_save_rerolls_agree_with_brute_force() {
    use dice_tables_reader::rule_sheet::RuleSheet;
    use dice_tables_reader::{Dice, Game};
    let mut rng = Rng::new(6163);
    let (mut drawn, mut i) = (0, 0);
    while drawn < 8 {
        i += 1;
        let Some(mut rules) = random_rules(&mut rng, i) else { continue };
        rules.saved_rerolls = true;
        rules.rerolls = rules.rerolls.max(1);
        for b in &mut rules.boxes {
            b.first_roll = 0;
        }
        if rules.check().is_err() {
            continue;
        }
        let rules = reduced(&rules, &mut rng);
        let table = dice_tables_generator::rule_engine::table(&solve(&rules).unwrap()).encode();
        let sheet = RuleSheet::from_vec(table).unwrap();
        let mut brute = BruteRules::new(rules.clone());
        let boxes = rules.boxes.len() as u32;
        for _ in 0..3 {
            let (mask, upper, held) = random_state(&rules, &mut rng, 3);
            let most = u32::from(rules.rerolls) * (boxes - mask.count_ones());
            for saved in 0..=most {
                let a = sheet.turn_start_saved(mask, upper.into(), held, saved).unwrap();
                let b = brute.turn_start_saved(mask, upper.into(), held, saved);
                let context = format!("{} mask {mask:#b} upper {upper} held {held:#b} saved {saved}", rules.name);
                assert!((a - b).abs() < 1e-7, "{context}: {a} vs {b}\n{}", rules.to_text());
            }
            let saved = rng.below(u64::from(most) + 1) as u32;
            let rolls = dice_tables_reader::dice::multiset_count(rules.dice.into()) as u64;
            let dice = Dice::unrank(rules.dice.into(), rng.below(rolls) as usize).unwrap();
            let faces: Vec<u8> = dice.faces().collect();
            for left in 0..=u32::from(rules.rerolls) + saved {
                let ours = sheet.options_saved(mask, upper.into(), held, saved, dice, left as u8).unwrap();
                let theirs = brute.options_saved((mask, upper.into(), held, saved), &faces, left as usize);
                let best = theirs.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
                let context = format!("{} mask {mask:#b} saved {saved}: {dice}, {left} left", rules.name);
                assert!((ours.value - best).abs() < 1e-7, "{context}: {} vs {best}", ours.value);
                assert_eq!(ours.options.len(), theirs.len(), "{context}");
            }
        }
        drawn += 1;
    }
}

/// The chance of reaching a target (`rule_engine::target`) against the
/// brute force's, which plays every turn for that chance itself: on random
/// turn starts with up to 2 boxes open (each preset of at most five dice
/// reduced to 4 of its boxes, and 10 rule sets drawn at random), at n = 0,
/// 1 and 5 more drawn up to 400, within 1e-8 (the chances
/// dropped below 1e-10 cost at most that a box).
#[test]
#[ignore = "slow: make test runs it"]
fn chances_of_reaching_a_target_agree_with_brute_force() {
    let mut rng = Rng::new(2061);
    let agree = |rules: &RuleSet, rng: &mut Rng| {
        let engine = dice_tables_generator::rule_engine::target::solve(rules, 2).unwrap();
        let mut brute = BruteRules::new(rules.clone());
        for _ in 0..2 {
            let (mask, upper, held) = random_state(rules, rng, 2);
            // Mostly where two boxes' points are; one far past them.
            let mut ns = vec![0, 1];
            ns.extend((0..5).map(|k| 2 + rng.below(if k < 4 { 120 } else { 400 }) as i64));
            for n in ns {
                let (a, b) = (engine.chance(mask, upper, held, n).unwrap(), brute.reach(mask, upper.into(), held, n));
                assert!(
                    (a - b).abs() < 1e-8,
                    "{} mask {mask:#b} upper {upper} held {held:#b} n {n}: {a} vs {b}\n{}",
                    rules.name,
                    rules.to_text()
                );
            }
        }
    };
    for (name, _) in dice_tables_generator::rule_sets::PRESETS {
        let rules = preset(name).unwrap();
        if rules.saved_rerolls || rules.dice > 5 {
            continue; // no target table saves rerolls; six dice cost the brute force too much here
        }
        agree(&reduced(&rules, &mut rng), &mut rng);
    }
    let mut drawn = 0;
    let mut i = 0;
    while drawn < 10 {
        i += 1;
        if let Some(rules) = random_rules(&mut rng, 100 + i) {
            agree(&rules, &mut rng);
            drawn += 1;
        }
    }
}

/// Whole small games played to reach a target: at the start every chance
/// is in [0, 1] and none rises with the target, and playing for each
/// target at once does at least as well as the expected-score play does:
/// summed over every target, the chances are at least the start value
/// (which is that play's chances summed). The figures of README.
#[test]
#[ignore = "slow: make test runs it"]
fn whole_games_played_to_reach_a_target_beat_the_average_play_at_each_target() {
    for name in ["forced-yatzy", "crag", "generala", "yacht"] {
        let rules = preset(name).unwrap();
        let all = (1u32 << rules.boxes.len()) - 1;
        let started = std::time::Instant::now();
        let reach = dice_tables_generator::rule_engine::target::solve(&rules, rules.boxes.len()).unwrap();
        let took = started.elapsed();
        let start = solve(&rules).unwrap().start();
        let curve: Vec<f64> = (1..).map(|n| reach.chance(all, 0, 0, n).unwrap()).take_while(|&p| p > 0.0).collect();
        assert!(curve.iter().all(|p| (0.0..=1.0).contains(p)), "{name}");
        assert!(curve.windows(2).all(|w| w[1] <= w[0]), "{name}: a chance rises with the target");
        let sum: f64 = curve.iter().sum();
        assert!(sum >= start - 1e-6, "{name}: {sum} summed against the start value {start}");
        eprintln!(
            "{name}: {} chances in {took:?}; P(150+) {:.4}, P(200+) {:.4}; summed {sum:.3} against {start:.3}",
            reach.len(),
            curve[149],
            curve[199]
        );
    }
}

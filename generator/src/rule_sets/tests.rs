use super::*;
use dice_tables_reader::rules::FACES;

/// Every roll of `n` dice, with its face counts.
fn rolls(n: usize) -> Vec<(dice_tables_reader::Dice, [u8; FACES])> {
    crate::dice::multisets(n).into_iter().map(|d| (d, d.counts())).collect()
}

#[test]
fn every_preset_reads_and_its_canonical_text_reads_back_the_same_through_both_readers() {
    for (name, text) in PRESETS {
        let rules = read(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rules.name, *name);
        let canonical = rules.to_text();
        assert_eq!(RuleSet::from_text(&canonical).unwrap(), rules, "{name}");
        assert_eq!(read(&canonical).unwrap(), rules, "{name}");
    }
}

#[test]
fn the_presets_score_as_the_games_solved_today() {
    use dice_tables_reader::sheet::{yahtzee, Joker, YATZY};
    // yatzy and yahtzee (both joker readings): every way to score every
    // roll, for every third mask and both states of the yahtzee box.
    for (name, scoring) in
        [("yatzy", YATZY), ("yahtzee", yahtzee(Joker::Forced)), ("yahtzee-free", yahtzee(Joker::Free))]
    {
        let rules = preset(name).unwrap();
        let boxes = rules.boxes.len();
        let extra = rules.extra_bonus.map(|e| e.box_index);
        for mask in (1..1u32 << boxes).step_by(3) {
            for held in [false, true] {
                if held && extra.is_none_or(|b| mask >> b & 1 == 1) {
                    continue;
                }
                for (dice, counts) in rolls(5) {
                    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                    let held_bits = extra.filter(|_| held).map_or(0, |b| 1 << b);
                    rules.scores(mask, mask, held_bits, &counts, |b, p, bonus| ours.push((b, p + bonus)));
                    scoring.scores(mask, held, &dice, |s| theirs.push((s.category, u16::from(s.points))));
                    assert_eq!(ours, theirs, "{name} mask {mask:#b} held {held} {counts:?}");
                }
            }
        }
    }
    // yazy and Maxi Yatzy: every box of every roll.
    let yazy = preset("yazy").unwrap();
    for (dice, counts) in rolls(5) {
        for b in 0..yazy.boxes.len() {
            let theirs = dice_tables_reader::yazy::points(&dice, b);
            assert_eq!(yazy.points(b, &counts), u16::from(theirs), "yazy box {b} {counts:?}");
        }
    }
    for name in ["maxi-yatzy", "maxi-yatzy-swedish"] {
        let maxi = preset(name).unwrap();
        assert_eq!(maxi.boxes.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), dice_tables_reader::maxi::BOXES);
        for (_, counts) in rolls(6) {
            for b in 0..maxi.boxes.len() {
                let theirs = dice_tables_reader::maxi::points(&counts, b);
                assert_eq!(maxi.points(b, &counts), u16::from(theirs), "{name} box {b} {counts:?}");
            }
        }
    }
    // Their sheets and bonuses.
    let names = |r: &RuleSet| r.boxes.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&preset("yatzy").unwrap()), dice_tables_reader::sheet::YATZY_CATEGORIES);
    assert_eq!(names(&preset("yahtzee").unwrap()), dice_tables_reader::sheet::YAHTZEE_CATEGORIES);
    assert_eq!(names(&yazy), dice_tables_reader::yazy::CATEGORIES);
    let bonus = |name: &str| preset(name).unwrap().upper_bonus.map(|b| (b.boxes, b.at, b.points));
    assert_eq!(bonus("yatzy"), Some((0b11_1111, 63, 50)));
    assert_eq!(bonus("yahtzee"), Some((0b11_1111, 63, 35)));
    assert_eq!(bonus("maxi-yatzy"), Some((0b11_1111, 75, 50)));
    assert_eq!(bonus("maxi-yatzy-swedish"), Some((0b11_1111, 84, 100)));
    assert!(preset("maxi-yatzy-swedish").unwrap().saved_rerolls);
    assert_eq!(bonus("yazy"), None);
}

fn counts(dice: &str) -> [u8; FACES] {
    let mut c = [0u8; FACES];
    dice.bytes().for_each(|d| c[usize::from(d - b'1')] += 1);
    c
}

/// The points of `dice` in the box `name` of preset `game`.
fn score(game: &str, name: &str, dice: &str) -> u16 {
    let rules = preset(game).unwrap();
    rules.points(rules.box_named(name).unwrap_or_else(|| panic!("{game} has no {name}")), &counts(dice))
}

#[test]
fn the_new_presets_score_their_rules_examples() {
    // Crag: 1-6-6, 3-5-5 and 5-4-4 are crags (and thirteens); the straights.
    for crag in ["166", "355", "445"] {
        assert_eq!(score("crag", "crag", crag), 50, "{crag}");
        assert_eq!(score("crag", "thirteen", crag), 26, "{crag}");
    }
    assert_eq!(score("crag", "crag", "256"), 0);
    assert_eq!(score("crag", "thirteen", "256"), 26);
    assert_eq!(score("crag", "odd-straight", "135"), 20);
    assert_eq!(score("crag", "even-straight", "246"), 20);
    assert_eq!(score("crag", "three-kind", "444"), 25);
    // Yacht: the full house all the dice, five alike not one; four of a kind those four.
    assert_eq!(score("yacht", "full-house", "22666"), 22);
    assert_eq!(score("yacht", "full-house", "66666"), 0);
    assert_eq!(score("yacht", "four-kind", "66663"), 24);
    assert_eq!(score("yacht", "little-straight", "12345"), 30);
    assert_eq!(score("yacht", "big-straight", "23456"), 30);
    // Yacht Dice: four of a kind all five dice; straights of four and five.
    assert_eq!(score("yacht-dice", "four-kind", "66663"), 27);
    assert_eq!(score("yacht-dice", "full-house", "66666"), 30);
    assert_eq!(score("yacht-dice", "small-straight", "34561"), 15);
    assert_eq!(score("yacht-dice", "large-straight", "34562"), 30);
    // Generala: poker with four or five alike; servida 5 more; the double
    // generala only while the generala box holds points.
    assert_eq!(score("generala", "four-kind", "33333"), 40);
    assert_eq!(score("generala", "full-house", "33355"), 30);
    assert_eq!(score("generala", "straight", "23456"), 20);
    let generala = preset("generala").unwrap();
    let first = |name| generala.boxes[generala.box_named(name).unwrap()].first_roll;
    assert_eq!([first("straight"), first("full-house"), first("four-kind"), first("generala")], [5, 5, 5, 0]);
    let double = generala.box_named("double-generala").unwrap();
    let in_double = |held| {
        let mut points = None;
        generala.scores(1 << double, 1 << double, held, &counts("44444"), |_, p, _| points = Some(p));
        points
    };
    assert_eq!(in_double(1 << generala.box_named("generala").unwrap()), Some(100));
    assert_eq!(in_double(0), Some(0));
    // Forced Yatzy: Yatzy's boxes in fixed order.
    let forced = preset("forced-yatzy").unwrap();
    assert_eq!(forced.order, dice_tables_reader::rules::Order::Fixed);
    assert_eq!(forced.boxes, preset("yatzy").unwrap().boxes);
    // Yahtzee without the joker: a further yahtzee scores its dice where
    // they fit, 100 more while the yahtzee box holds 50; without the bonus, nothing more.
    for (game, want) in [("yahtzee-no-joker", vec![(8, 100), (12, 125)]), ("yahtzee-no-bonus", vec![(8, 0), (12, 25)])]
    {
        let rules = preset(game).unwrap();
        let mut seen = Vec::new();
        rules.scores(1 << 8 | 1 << 12, 1 << 8 | 1 << 12, 1 << 11, &counts("55555"), |b, p, bonus| {
            seen.push((b, p + bonus))
        });
        assert_eq!(seen, want, "{game}");
    }
}

#[test]
fn a_rule_file_s_mistakes_name_their_line() {
    let err = |text: &str| read(text).unwrap_err().to_string();
    let head = "name = \"mine\"\ndice = 5\nrerolls = 2\n";
    assert_eq!(
        err(&format!("{head}\n[[box]]\nname = \"c\"\nkind = \"chance\"\nscore = 1.5\n")),
        "line 8: a fraction is not taken here: a string in quotes, a whole number, true, false or a [list]"
    );
    assert!(err(&format!("{head}[[box]\n")).starts_with("line 4: not TOML: "), "{}", err(&format!("{head}[[box]\n")));
    assert_eq!(
        err(&format!("{head}\n[[box]]\nname = \"f\"\nkind = \"face\"\nface = 7\n")),
        "line 8: face = 7: face takes a whole number 1 to 6"
    );
    assert_eq!(
        err(&format!("{head}\n[[box]]\nname = \"c\"\nkind = \"chance\"\n\n[[box]]\nname = \"c\"\nkind = \"chance\"\n")),
        "line 10: box name \"c\" is given twice: each box has a name of its own"
    );
    assert_eq!(err(head), "line 1: no [[box]] table: a sheet has 1 to 20 boxes");
    assert_eq!(
        err(&format!("{head}\n[extra-bonus]\nbox = \"c\"\npoints = 100\n\n[[box]]\nname = \"c\"\nkind = \"chance\"\n")),
        "line 6: extra-bonus box \"c\" is not all 5 dice alike: the bonus box is an alike box with count = 5"
    );
}

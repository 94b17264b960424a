use super::*;

fn counts(dice: &str) -> [u8; FACES] {
    let mut c = [0u8; FACES];
    dice.bytes().for_each(|d| c[usize::from(d - b'1')] += 1);
    c
}

/// A rule set of `dice` dice with one box of each given body (the lines
/// after `kind = ...`), named b0, b1, ...
fn sheet(dice: u8, boxes: &[&str]) -> RuleSet {
    let mut text = format!("name = \"t\"\ndice = {dice}\nrerolls = 2\n");
    for (i, body) in boxes.iter().enumerate() {
        text.push_str(&format!("\n[[box]]\nname = \"b{i}\"\n{body}\n"));
    }
    RuleSet::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn score(body: &str, dice: &str) -> u16 {
    sheet(dice.len() as u8, &[body]).points(0, &counts(dice))
}

#[test]
fn every_kind_on_hand_picked_rolls() {
    // The face times how many show.
    assert_eq!(score("kind = \"face\"\nface = 3", "33135"), 9);
    // n alike: those dice (the highest), all the dice, or points.
    assert_eq!(score("kind = \"alike\"\ncount = 2\nscore = \"dice\"", "55213"), 10);
    assert_eq!(score("kind = \"alike\"\ncount = 2\nscore = \"dice\"", "55663"), 12);
    assert_eq!(score("kind = \"alike\"\ncount = 3\nscore = \"all\"", "44415"), 18);
    assert_eq!(score("kind = \"alike\"\ncount = 3\nscore = \"all\"", "44215"), 0);
    assert_eq!(score("kind = \"alike\"\ncount = 4\nscore = \"dice\"", "66666"), 24); // yacht's four of a kind
    assert_eq!(score("kind = \"alike\"\ncount = 4\nscore = \"all\"", "66663"), 27); // yacht-dice's
    assert_eq!(score("kind = \"alike\"\ncount = 5\nscore = 50", "22222"), 50);
    assert_eq!(score("kind = \"alike\"\ncount = 6\nscore = 100", "222222"), 100);
    // Pairs of different faces, the highest; exactly twice, or more.
    assert_eq!(score("kind = \"pairs\"\npairs = 2\nscore = \"dice\"", "21335"), 0);
    assert_eq!(score("kind = \"pairs\"\npairs = 2\nscore = \"dice\"", "213355"), 16);
    assert_eq!(score("kind = \"pairs\"\npairs = 2\nscore = \"dice\"", "22335"), 10);
    assert_eq!(score("kind = \"pairs\"\npairs = 2\nscore = \"dice\"", "22225"), 0);
    assert_eq!(score("kind = \"pairs\"\npairs = 2\nscore = \"dice\"", "222335"), 10);
    assert_eq!(score("kind = \"pairs\"\npairs = 3\nexactly = true\nscore = \"all\"", "225566"), 26);
    assert_eq!(score("kind = \"pairs\"\npairs = 3\nexactly = true\nscore = \"all\"", "222255"), 0);
    // Groups: full house, villa, tower; more alike; one face.
    let full_house = "kind = \"groups\"\nsizes = [3, 2]\nscore = \"all\"";
    assert_eq!(score(full_house, "33555"), 21);
    assert_eq!(score(full_house, "55555"), 0);
    assert_eq!(score("kind = \"groups\"\nsizes = [3, 2]\none-face = true\nscore = \"all\"", "55555"), 25);
    assert_eq!(score("kind = \"groups\"\nsizes = [2, 3]\nscore = 25", "22666"), 25);
    assert_eq!(score("kind = \"groups\"\nsizes = [3, 2]\nmore-alike = true\nscore = \"dice\"", "344666"), 26);
    assert_eq!(score("kind = \"groups\"\nsizes = [3, 2]\nmore-alike = true\nscore = \"dice\"", "444466"), 24);
    assert_eq!(score("kind = \"groups\"\nsizes = [3, 3]\nscore = \"all\"", "222555"), 21);
    assert_eq!(score("kind = \"groups\"\nsizes = [4, 2]\nscore = \"all\"", "336666"), 30);
    assert_eq!(score("kind = \"groups\"\nsizes = [4, 2]\nscore = \"all\"", "366666"), 0);
    // Straights: any run showing.
    let small = "kind = \"straight\"\nruns = [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]\nscore = 30";
    assert_eq!(score(small, "13426"), 30);
    assert_eq!(score(small, "13526"), 0);
    assert_eq!(score("kind = \"straight\"\nruns = [[1, 2, 3, 4, 5, 6]]\nscore = \"dice\"", "123456"), 21);
    assert_eq!(score("kind = \"straight\"\nruns = [[1, 3, 5]]\nscore = 20", "531"), 20);
    assert_eq!(score("kind = \"straight\"\nruns = [[2, 4, 6]]\nscore = 20", "246"), 20);
    // Chance, and a total (crag's thirteen and crag).
    assert_eq!(score("kind = \"chance\"", "12366"), 18);
    assert_eq!(score("kind = \"total\"\ntotal = 13\nscore = 26", "166"), 26);
    assert_eq!(score("kind = \"total\"\ntotal = 13\nscore = 26", "256"), 26);
    assert_eq!(score("kind = \"total\"\ntotal = 13\npair = true\nscore = 50", "355"), 50);
    assert_eq!(score("kind = \"total\"\ntotal = 13\npair = true\nscore = 50", "256"), 0);
}

#[test]
fn a_box_that_needs_another_scores_only_once_it_holds_points() {
    let rules = sheet(
        5,
        &["kind = \"alike\"\ncount = 5\nscore = 50", "kind = \"alike\"\ncount = 5\nscore = 100\nneeds = \"b0\""],
    );
    let all = |held| {
        let mut seen = Vec::new();
        rules.scores(0b10, 0b10, held, &counts("44444"), |b, p, bonus| seen.push((b, p + bonus)));
        seen
    };
    assert_eq!(all(0b01), [(1, 100)]);
    assert_eq!(all(0b00), [(1, 0)]);
}

#[test]
fn the_canonical_text_reads_back_to_the_same_rules() {
    let text = "name = \"crag-like\"\ndice = 4\nrerolls = 1\norder = \"fixed\"\n\n\
        [upper-bonus]\nboxes = [\"sixes\"]\nat = 18\npoints = 7\n\n\
        [extra-bonus]\nbox = \"three\"\npoints = 10\njoker = \"free\"\n\n\
        [[box]]\nname = \"sixes\"\nkind = \"face\"\nface = 6\n\n\
        [[box]]\nname = \"three\"\nkind = \"alike\"\ncount = 4\nscore = 25\nfirst-roll = 5\nwins = true\n\n\
        [[box]]\nname = \"odd\"\nkind = \"straight\"\nruns = [[1, 3, 5]]\nscore = \"dice\"\nneeds = \"three\"\n\n\
        [[box]]\nname = \"house\"\nkind = \"groups\"\nsizes = [2, 2]\nmore-alike = true\none-face = true\nscore = \"all\"\n";
    let rules = RuleSet::from_text(text).unwrap();
    assert_eq!(rules.order, Order::Fixed);
    assert_eq!(rules.boxes[1].first_roll, 5);
    assert_eq!(rules.boxes[2].needs, Some(1));
    assert_eq!(RuleSet::from_text(&rules.to_text()).unwrap(), rules);
}

#[test]
fn a_wrong_rule_names_its_line_and_the_accepted_form() {
    let base = "name = \"x\"\ndice = 5\nrerolls = 2\n\n[[box]]\nname = \"ones\"\nkind = \"face\"\nface = 1\n";
    let err = |extra: &str| RuleSet::from_text(&format!("{base}{extra}")).unwrap_err().to_string();
    assert_eq!(err("\n[[box]]\nname = \"x\"\nkind = \"triple\""), "line 12: kind = \"triple\" is not a box kind: the kinds are face, alike, pairs, groups, straight, chance, total");
    assert_eq!(
        err("\n[[box]]\nname = \"x\"\nkind = \"alike\"\ncount = 6\nscore = 5"),
        "line 13: count = 6: count takes a whole number 2 to 5"
    );
    assert_eq!(
        err("\n[upper-bonus]\nboxes = [\"ones\"]\nat = 6\npoints = 35"),
        "line 12: upper-bonus at = 6: no sheet reaches it (its boxes make at most 5); 1 to 5"
    );
    assert_eq!(
        err("\n[[box]]\nname = \"ones\"\nkind = \"chance\""),
        "line 11: box name \"ones\" is given twice: each box has a name of its own"
    );
    assert_eq!(
        err("colour = 3"),
        "line 9: a [[box]] takes no key \"colour\": its keys are name, kind, face, first-roll, needs, wins"
    );
    assert_eq!(
        RuleSet::from_text("name = \"x\"\ndice = 7\nrerolls = 2\n").unwrap_err().to_string(),
        "line 2: dice = 7: dice takes a whole number 3 to 6"
    );
    assert_eq!(
        err("\n[[box]]\nname = \"y\"\nkind = \"alike\"\ncount = 2\nscore = \"most\""),
        "line 14: score = \"most\": \"dice\" (the dice that make the box), \"all\" (all the dice) or points 0 to 1000"
    );
}

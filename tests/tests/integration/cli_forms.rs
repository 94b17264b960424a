//! What a new player, a Python programmer and a reader in another language
//! tripped on, one test each: the command line's forms and
//! messages, the answers' shape, and the library's errors.

use std::process::Output;

use dice_tables_lookup::{Arg, Query, Terms};
use dice_tables_tests::{default_tables, run, scratch};
use serde_json::Value;

fn lookup(game: &str, args: &[&str]) -> Output {
    let mut all = vec!["lookup", game];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--tables", default_tables().to_str().unwrap()]);
    run("reader", &all, &[])
}

fn json(game: &str, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let o = lookup(game, &all);
    assert!(o.status.success(), "{game} {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn refused(game: &str, args: &[&str]) -> String {
    let o = lookup(game, args);
    assert_eq!(o.status.code(), Some(2), "{game} {args:?}: {}", String::from_utf8_lossy(&o.stdout));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// `duel-cardgames` is a game name: `duel --rules cardgames`.
#[test]
fn duel_cardgames_is_accepted_where_it_is_listed() {
    let named = json("duel-cardgames", &["--me", "0", "--opp", "0", "--dice", "155", "--score", "300"]);
    let ruled = json("duel", &["--rules", "cardgames", "--me", "0", "--opp", "0", "--dice", "155", "--score", "300"]);
    assert_eq!(named, ruled);
    assert_eq!(named["rules"], "cardgames");
    let help = run("reader", &["lookup", "duel-cardgames", "--help"], &[]);
    assert!(help.status.success() && String::from_utf8_lossy(&help.stdout).contains("--me"));
    let q = Query::from_args("duel-cardgames", &[("me", Arg::Int(0)), ("opp", Arg::Int(0))]).unwrap();
    assert_eq!(q.table(), "duel-cardgames");
    let e =
        Query::from_args("duel-cardgames", &[("me", Arg::Int(0)), ("opp", Arg::Int(0)), ("rules", Arg::Text("seed"))]);
    assert!(e.unwrap_err().to_string().contains("duel-cardgames is duel with --rules=cardgames"));
}

/// The filled boxes (`all,-ones`), names as people write them, dice
/// with spaces or commas.
#[test]
fn states_are_entered_as_players_write_them() {
    let plain = json(
        "yahtzee",
        &[
            "--mask",
            "twos,threes,fours,fives,sixes,three-kind,chance",
            "--upper",
            "0",
            "--dice",
            "33356",
            "--rerolls",
            "1",
        ],
    );
    for (mask, dice) in [
        ("all,-ones,-four-kind,-full house,-small_straight,-Large Straight,-yahtzee", "3 3 3 5 6"),
        ("Twos,THREES,fours,fives,sixes,3-kind,chance", "3,3,3,5,6"),
        ("twos,threes,fours,fives,sixes,three-of-a-kind,Chance", " 3,3 3,5,6 "),
    ] {
        assert_eq!(
            json("yahtzee", &["--mask", mask, "--upper", "0", "--dice", dice, "--rerolls", "1"]),
            plain,
            "{mask}"
        );
    }
    assert_eq!(
        json("yatzy", &["--mask", "all,-fullhouse,-2 pairs", "--upper", "0"]),
        json("yatzy", &["--mask", "all,-full-house,-two-pairs", "--upper", "0"])
    );
    assert!(refused("yahtzee", &["--mask", "all,ones", "--upper", "0"])
        .contains("after all: name each filled category after a minus"));
    assert!(refused("yahtzee", &["--mask", "ones,-twos", "--upper", "0"]).contains("names a filled category"));
    assert_eq!(
        json("threes", &["--dice", "3,1,6", "--points", "0"]),
        json("threes", &["--dice", "316", "--points", "0"])
    );
}

/// A Yahtzee bonus is reported apart from the box's points.
#[test]
fn yahtzee_bonuses_are_reported_apart() {
    let args = ["--mask", "sixes,chance", "--upper", "0", "--yahtzee-bonus", "--dice", "66666", "--rerolls", "0"];
    let answer = json("yahtzee", &args);
    assert_eq!(answer["best"], serde_json::json!({"category": "sixes", "points": 30, "bonus": 100}));
    let text = String::from_utf8_lossy(&lookup("yahtzee", &args).stdout).into_owned();
    assert!(text.contains("score sixes for 30 + 100 bonus points"), "{text}");
    let plain = json("yahtzee", &["--mask", "sixes,chance", "--upper", "0", "--dice", "66665", "--rerolls", "0"]);
    assert_eq!(plain["best"]["bonus"], 0);
    // yatzy and yazy have no bonus field.
    let yatzy = json("yatzy", &["--mask", "sixes,chance", "--upper", "0", "--dice", "66666", "--rerolls", "0"]);
    assert!(yatzy["best"].get("bonus").is_none());
}

/// Keep lists are best first in 10000 and two-player 10000, ties in the
/// game's order.
#[test]
fn keep_lists_are_best_first_everywhere() {
    for (game, args, value) in [
        ("tenk", vec!["--dice", "1255", "--score", "500", "--opening"], "p"),
        ("tenk", vec!["--dice", "115", "--score", "300"], "ev"),
        ("duel", vec!["--me", "2500", "--opp", "4000", "--dice", "1255", "--score", "300"], "p"),
        ("duel", vec!["--me", "0", "--opp", "0", "--dice", "155236", "--rules", "cardgames"], "p"),
    ] {
        let answer = json(game, &args);
        let options = answer["options"].as_array().unwrap();
        let best: Vec<&Value> = options.iter().take(1).collect();
        assert_eq!(best[0]["keep"], answer["best"]["keep"], "{game} {args:?}");
        let values: Vec<f64> = options.iter().skip(1).map(|o| o[value].as_f64().unwrap()).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{game} {args:?}: {values:?}");
    }
    let text = String::from_utf8_lossy(&lookup("tenk", &["--dice", "1255", "--score", "500", "--opening"]).stdout)
        .into_owned();
    let keeps: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("keep ")).collect();
    assert!(keeps[0].contains("<- best") && keeps[2].contains("keep 55") && keeps[3].contains("keep 1 "), "{text}");
}

/// Too many dice: the game's own limit.
#[test]
fn too_many_dice_names_the_game_s_limit() {
    assert!(refused("threes", &["--dice", "3132456"]).contains("7 dice given: a threes throw is 1 to 5 dice"));
    assert!(refused("yazy", &["--mask", "all", "--dice", "1234566"]).contains("7 dice given: exactly five digits 1-6"));
    assert!(refused("tenk", &["--dice", "1234566"]).contains("7 dice given: a 10000 throw is 1 to 6 dice"));
}

/// Any upper total from 63 up that the filled boxes can make is the
/// capped state, 63 itself included.
#[test]
fn upper_totals_from_63_up_are_one_state() {
    // threes, fours and sixes filled: 65 at most, 63 itself cannot be made.
    let mask = "ones,twos,fives,three-kind,four-kind,full-house,small-straight,large-straight,yahtzee,chance";
    let at = |upper: &str| json("yahtzee", &["--mask", mask, "--upper", upper]);
    assert_eq!(at("63"), at("65"));
    assert_eq!(at("64"), at("65"));
    let e = refused("yahtzee", &["--mask", mask, "--upper", "106"]);
    assert!(e.contains("any of 63 to 105 for 63 and above"), "{e}");
    let e = refused("yahtzee", &["--mask", "all,-ones", "--upper", "6"]);
    assert!(e.contains("give only totals they can make, at most 5"), "{e}");
}

/// Impossible threes states, symlink loops, hostile values in clap's
/// prefix, one keep style, the help's list.
#[test]
fn the_small_things_of_round_two() {
    let e = refused("threes", &["--remaining", "5", "--points", "4"]);
    assert!(e.contains("points 4 with 5 dice remaining cannot happen"), "{e}");
    let e = refused("threes", &["--remaining", "4", "--points", "3"]);
    assert!(e.contains("one kept die is worth 0 (a three), 1, 2, 4, 5 or 6, never 3"), "{e}");
    assert!(lookup("threes", &["--remaining", "3", "--points", "3"]).status.success());

    let dir = scratch("symlink-loop");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let o = run("reader", &["lookup", "yazy", "--mask", "all", "--tables", a.to_str().unwrap()], &[]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(e.contains("cannot be opened") && !e.contains("does not exist"), "{e}");

    let hostile = "x".repeat(100_000);
    let e = refused("yazy", &["--mask", &hostile]);
    assert!(e.len() < 400, "{} characters", e.len());

    let yazy = String::from_utf8_lossy(&lookup("yazy", &["--mask", "all", "--dice", "12345", "--rerolls", "2"]).stdout)
        .into_owned();
    let yahtzee = String::from_utf8_lossy(
        &lookup("yahtzee", &["--mask", "all", "--upper", "0", "--dice", "12345", "--rerolls", "2"]).stdout,
    )
    .into_owned();
    // With rerolls left, scoring now is named as the box, not as keeping all five.
    assert!(
        yazy.contains("best: score straight for 40 points")
            && yahtzee.contains("best: score large-straight for 40 points"),
        "{yazy}{yahtzee}"
    );
    assert!(!yazy.contains("reroll none") && !yahtzee.contains("reroll none") && !yazy.contains("stop rerolling"));
    let json = String::from_utf8_lossy(
        &lookup("yazy", &["--mask", "all", "--dice", "66666", "--rerolls", "2", "--json"]).stdout,
    )
    .into_owned();
    assert!(
        json.contains(r#""best":{"category":"yazy","points":50}"#) && !json.contains(r#"{"keep":"66666"}"#),
        "{json}"
    );

    // Each game's flags are its registry entry's arguments, under every name of the game.
    for lookup in dice_tables_lookup::LOOKUPS {
        for name in std::iter::once(&lookup.game).chain(lookup.aliases) {
            let help = String::from_utf8_lossy(&run("reader", &["lookup", name, "--help"], &[]).stdout).into_owned();
            for a in lookup.arguments {
                let flag = match a.value {
                    Some(value) => format!("--{} <{value}>", a.name),
                    None => format!("--{} ", a.name),
                };
                assert!(help.contains(&flag), "{name}: no {flag} in {help}");
            }
        }
    }
    let e = refused("duel-cardgames", &["--me", "0", "--opp", "0", "--rules", "seed"]);
    assert!(e.contains("duel-cardgames is duel with --rules=cardgames"), "{e}");
    let e = refused("yazy", &["--mask", "all", "--dice", "1234"]);
    assert!(
        e.starts_with("reader: invalid value '1234' for '--dice <D>': 4 dice given")
            && e.ends_with("(see reader lookup yazy --help)\n"),
        "{e}"
    );
    for game in ["yazy", "yatzy", "yahtzee"] {
        let help = String::from_utf8_lossy(&run("reader", &["lookup", game, "--help"], &[]).stdout).into_owned();
        assert!(!help.contains("yahtzee, chance"), "{help}");
        let list = help.split("comma list of names (").nth(1).unwrap().split(';').next().unwrap();
        assert!(!list.contains(' '), "{game}: {list:?}");
    }
}

/// Each front end names the arguments in its own terms, from one message.
#[test]
fn messages_name_arguments_in_each_front_end_s_terms() {
    let e =
        Query::from_args("yahtzee", &[("mask", Arg::Text("all")), ("upper", Arg::Int(0)), ("rerolls", Arg::Int(1))])
            .unwrap()
            .check()
            .unwrap_err();
    assert!(e.to_string().starts_with("--rerolls=1 needs --dice: "));
    assert!(e.message(Terms::Python).starts_with("rerolls=1 needs dice: "));
    assert!(e.message(Terms::Http).starts_with("rerolls=1 needs dice: "));
    let e = Query::from_args("yahtzee", &[]).unwrap_err();
    assert_eq!(
        e.message(Terms::Python),
        "yahtzee lookups need mask (the arguments are mask, upper, yahtzee_bonus, dice, rerolls, need, joker, opp_mask, \
         opp_upper, opp_yahtzee_bonus, me, opp)"
    );
    let e = Query::from_args("yahtzee", &[("mask", Arg::Text("all,-ones"))]).unwrap().check().unwrap_err();
    assert_eq!(
        e.message(Terms::Python),
        "yahtzee lookups need upper once an upper box is filled: give the points ones to sixes hold so far (left out, it is 0)"
    );
    let e = Query::from_args(
        "yahtzee",
        &[("mask", Arg::Text("all")), ("upper", Arg::Int(0)), ("yahtzee-bonus", Arg::Flag(true))],
    )
    .unwrap()
    .answer(&dice_tables_reader::Tables::open_dir(default_tables()).unwrap())
    .unwrap_err();
    let drop = |terms| e.message(terms).split_once(": ").map(|(_, why)| why.to_string());
    assert_eq!(drop(Terms::CommandLine).as_deref(), Some("drop --yahtzee-bonus or close yahtzee in the mask"));
    assert_eq!(drop(Terms::Python).as_deref(), Some("drop yahtzee_bonus or close yahtzee in the mask"));
    assert_eq!(drop(Terms::Http).as_deref(), Some("drop yahtzee-bonus or close yahtzee in the mask"));
}

/// What `main` prints for a returned error is readable.
#[test]
fn errors_returned_from_main_read_as_messages() {
    let e = dice_tables_reader::Tables::open_dir("/no/such/dir").unwrap_err();
    let shown = format!("{e:?}");
    // The library's message names where it looked and how to give another
    // directory, as the command line's does.
    assert_eq!(
        shown,
        "/no/such/dir: no tables directory here (the directory given): give the directory the generator wrote the tables into, or set DICE_TABLES to it"
    );
    assert!(!shown.contains("TableErrorInner"), "{shown}");
    let detailed = format!("{e:#?}");
    assert!(detailed.contains("NoTablesDirectory") && detailed.contains("Given"), "{detailed}");
    let e: dice_tables_reader::Error = e.into();
    assert!(format!("{e:?}").starts_with("/no/such/dir: no tables directory here"), "{e:?}");
}

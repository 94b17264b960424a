//! What the programs print, word for word, where it was wrong: one point
//! is a point, a chance is never -0, a chart written to a file is said in
//! one line instead of the whole table, and a joker reading is named.

use dice_tables_tests::{default_tables, run, scratch, target_tables};

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn one_point_is_a_point() {
    let tables = default_tables().to_str().unwrap();
    let yazy = stdout(&run(
        "reader",
        &["lookup", "yazy", "--mask", "ones", "--dice", "12345", "--rerolls", "0", "--tables", tables],
        &[],
    ));
    assert!(yazy.contains("best: score ones for 1 point\n") && !yazy.contains("1 points"), "{yazy}");
    let yatzy = stdout(&run(
        "reader",
        &["lookup", "yatzy", "--mask", "ones", "--upper", "0", "--dice", "12345", "--rerolls", "0", "--tables", tables],
        &[],
    ));
    assert!(yatzy.contains("score ones for 1 point ") && !yatzy.contains("1 points"), "{yatzy}");
    let fifty = stdout(&run(
        "reader",
        &["lookup", "yazy", "--mask", "yazy", "--dice", "66666", "--rerolls", "0", "--tables", tables],
        &[],
    ));
    assert!(fifty.contains("score yazy for 50 points"), "{fifty}");
}

#[test]
fn the_generator_reports_no_negative_zero() {
    let dir = scratch("wording-report");
    let report = stdout(&run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy-target"], &[]));
    // No yazy game scores 500 (at most 330): both chances are 0.
    assert!(report.contains("P*(start, 500) 0.0000000 vs 0.0000000"), "{report}");
    assert!(!report.contains("-0.0"), "{report}");
}

#[test]
fn a_chart_written_is_one_line() {
    let dir = scratch("wording-curve");
    let svg = dir.join("yazy.svg");
    let tables = default_tables().to_str().unwrap();
    let out = stdout(&run("reader", &["curve", "yazy", "--svg", svg.to_str().unwrap(), "--tables", tables], &[]));
    assert_eq!(out, format!("wrote the yazy chart to {} (281 totals)\n", svg.display()));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // Asked for the table as well, it is printed.
    let csv =
        stdout(&run("reader", &["curve", "yazy", "--csv", "--svg", svg.to_str().unwrap(), "--tables", tables], &[]));
    assert_eq!(csv.lines().count(), 282);
}

#[test]
fn joker_readings_are_named() {
    let dir = scratch("wording-joker");
    let free = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yahtzee-free"], &[]);
    stdout(&free);
    let forced = default_tables().join("yahtzee.dtab");
    let info = stdout(&run("reader", &["info", forced.to_str().unwrap()], &[]));
    assert!(info.contains("rules:   joker=forced exceptions=0\n"), "{info}");
    let verified = stdout(&run("reader", &["verify", dir.to_str().unwrap()], &[]));
    assert!(verified.contains("yahtzee-free.dtab (yahtzee-free joker=free exceptions="), "{verified}");
    assert!(!verified.contains("joker=1") && !info.contains("joker=0"));

    // Both readings in one directory, a lookup choosing by name.
    std::fs::copy(&forced, dir.join("yahtzee.dtab")).unwrap();
    let d = dir.to_str().unwrap();
    let ask = |extra: &[&str]| {
        let mut args = vec!["lookup", "yahtzee", "--mask", "all", "--json", "--tables", d];
        args.extend_from_slice(extra);
        run("reader", &args, &[])
    };
    assert_eq!(stdout(&ask(&[])), "{\"game\":\"yahtzee\",\"ev\":254.5877287}\n");
    assert_eq!(stdout(&ask(&["--joker", "forced"])), "{\"game\":\"yahtzee\",\"ev\":254.5877287}\n");
    assert_eq!(stdout(&ask(&["--joker", "free"])), "{\"game\":\"yahtzee\",\"joker\":\"free\",\"ev\":254.5896095}\n");
    // Missing, the free table is refused in one line naming its make target.
    let tables = default_tables().to_str().unwrap();
    for (extra, target) in [(&[][..], "yahtzee-free"), (&["--need", "100"][..], "yahtzee-free-target")] {
        let mut args = vec!["lookup", "yahtzee", "--mask", "all", "--joker", "free", "--tables", tables];
        args.extend_from_slice(extra);
        let out = run("reader", &args, &[]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{e}");
        assert!(e.contains(&format!("build it with `make {target}`")) && e.lines().count() == 1, "{e}");
    }
    // A table of the other reading under a reading's name is refused.
    std::fs::copy(dir.join("yahtzee-free.dtab"), dir.join("yahtzee.dtab")).unwrap();
    let out = ask(&[]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("holds a yahtzee-free table, not a yahtzee table"), "{e}");
}

/// With ones to sixes all open the upper total can only be 0: it may be
/// left out; once one is filled it is needed.
#[test]
fn the_upper_total_is_needed_only_once_an_upper_box_is_filled() {
    let tables = default_tables().to_str().unwrap();
    for game in ["yatzy", "yahtzee"] {
        let left_out = stdout(&run("reader", &["lookup", game, "--mask", "all", "--json", "--tables", tables], &[]));
        let given = stdout(&run(
            "reader",
            &["lookup", game, "--mask", "all", "--upper", "0", "--json", "--tables", tables],
            &[],
        ));
        assert_eq!(left_out, given);
        let out = run("reader", &["lookup", game, "--mask", "all,-ones", "--tables", tables], &[]);
        assert_eq!(out.status.code(), Some(2));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(&format!("{game} lookups need --upper once an upper box is filled")), "{said}");
    }
}

/// A roll with no category open (the game is over) is worth what the turn
/// start of its state is: the upper bonus still to come once earned (50 in
/// yatzy at an upper total of 63), and played for a target the turn start's
/// chance, where the roll answered 0 before.
#[test]
fn a_finished_game_s_roll_is_worth_its_turn_start() {
    let value = |tables: &std::path::Path, args: &[&str]| -> serde_json::Value {
        let mut all =
            vec!["lookup", "yatzy", "--mask", "0", "--upper", "63", "--json", "--tables", tables.to_str().unwrap()];
        all.extend_from_slice(args);
        serde_json::from_str(&stdout(&run("reader", &all, &[]))).unwrap()
    };
    let sheet = default_tables();
    assert_eq!(value(sheet, &[])["ev"], 50.0);
    assert_eq!(value(sheet, &["--dice", "12345", "--rerolls", "0"])["ev"], 50.0);
    let target = target_tables();
    for need in ["10", "50", "51"] {
        let start = value(target, &["--need", need])["p"].clone();
        let roll = value(target, &["--need", need, "--dice", "12345", "--rerolls", "1"]);
        assert_eq!(roll["p"], start, "need {need}: {roll}");
        assert_eq!(roll["options"], serde_json::json!([]));
    }
    assert_eq!(value(target, &["--need", "50"])["p"], 1.0);
}

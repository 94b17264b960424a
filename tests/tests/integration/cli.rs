//! The `reader` and `generator` command lines: output shapes and bad input.

use dice_tables_tests::{default_tables, run, scratch};
use std::process::Output;

fn lookup(args: &[&str]) -> Output {
    let mut all = vec!["lookup"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--tables", default_tables().to_str().unwrap()]);
    run("reader", &all, &[])
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// One line on stderr, naming the problem; no panic; the given exit status.
fn assert_one_line_error(o: &Output, status: i32, mentions: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(status), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("reader: ") || err.starts_with("generator: "), "{err}");
    assert!(err.contains(mentions), "{err:?} should mention {mentions:?}");
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{err}");
    assert!(o.stdout.is_empty(), "printed on error: {}", stdout(o));
}

#[test]
fn turn_start_json() {
    let o = lookup(&["yazy", "--mask", "2047", "--json"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with("{\"game\":\"yazy\",\"ev\":165.757318"), "{text}");
    assert!(!text.contains("best"));
}

#[test]
fn state_json_has_best_and_ranked_options() {
    let o = lookup(&["yazy", "--mask", "all", "--dice", "62451", "--rerolls", "2", "--json"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with("{\"game\":\"yazy\",\"ev\":163.6206"), "{text}");
    assert!(text.contains("\"best\":{\"keep\":\"245\"}"), "{text}");
    assert!(text.contains("\"options\":[{\"action\":{\"keep\":\"245\"},\"ev\":163.6206"), "{text}");
    // 2 x 2 x 2 x 2 x 2 distinct sub-multisets of five distinct faces, "" among
    // them, but keeping all five, which is scoring now in one of the 11 boxes.
    assert_eq!(text.matches("\"keep\":").count(), 31 + 1);
    assert!(text.contains("{\"keep\":\"\"}") && !text.contains("{\"keep\":\"12456\"}"));
    assert_eq!(text.matches("\"category\":").count(), 11);

    let o = lookup(&["yazy", "--mask", "0b11000000000", "--dice", "33333", "--rerolls", "0", "--json"]);
    let text = stdout(&o);
    assert!(text.contains("\"best\":{\"category\":\"yazy\",\"points\":50}"), "{text}");
    assert!(text.contains("{\"action\":{\"category\":\"straight\",\"points\":0}"), "{text}");
    assert_eq!(text.matches("\"category\":").count(), 3);
}

#[test]
fn text_output_for_a_person() {
    let o = lookup(&["yazy", "--mask", "0x7ff", "--dice", "12456", "--rerolls", "2"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("dice 12456, 2 rerolls left"), "{text}");
    assert!(text.contains("best: keep "), "{text}");
    assert_eq!(text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count(), 31 + 11);

    let o = lookup(&["yazy", "--mask", "ones,yazy", "--dice", "11111", "--rerolls", "0"]);
    let text = stdout(&o);
    assert!(text.contains("best: score yazy for 50 points"), "{text}");
}

#[test]
fn masks_in_every_form_agree() {
    let forms = ["1029", "0x405", "0b10000000101", "ones,threes,yazy", "yazy,threes,ones"];
    let outputs: Vec<String> = forms.iter().map(|m| stdout(&lookup(&["yazy", "--mask", m, "--json"]))).collect();
    assert!(outputs.iter().all(|o| o == &outputs[0] && o.contains("\"ev\":")), "{outputs:?}");
}

#[test]
fn tables_dir_from_the_environment() {
    let dir = default_tables().to_str().unwrap();
    let o = run("reader", &["lookup", "yazy", "--mask", "all", "--json"], &[("DICE_TABLES", dir)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("165.757318"));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["yazy", "--mask", "3", "--dice", "1245"], "five digits"),
        (&["yazy", "--mask", "3", "--dice", "124566"], "five digits"),
        (&["yazy", "--mask", "3", "--dice", "1234567"], "1-6"),
        (&["yazy", "--mask", "3", "--dice", "12457"], "'7' is not a die"),
        (&["yazy", "--mask", "3", "--dice", "1a345"], "1-6"),
        (&["yazy", "--mask", "2048"], "0 to 2047"),
        (&["yazy", "--mask", "-1"], "0 to 2047"),
        (&["yazy", "--mask", "0x1000"], "0 to 2047"),
        (&["yazy", "--mask", "ones,chance"], "unknown category \"chance\""),
        (&["yazy", "--mask", ""], "categor"),
        (&["yazy", "--mask", "3", "--dice", "12345", "--rerolls", "3"], "0 to 2"),
        (&["yazy", "--mask", "3", "--dice", "12345", "--rerolls", "-1"], "0 to 2"),
        (&["yazy", "--mask", "3", "--rerolls", "1"], "--dice"),
        (&["yazy", "--dice", "12345"], "--mask"),
        (&["farkle", "--mask", "3"], "the games are yazy"),
    ];
    for (args, mentions) in cases {
        let o = lookup(args);
        assert_one_line_error(&o, 2, mentions);
    }
}

#[test]
fn missing_tables() {
    let o = run("reader", &["lookup", "yazy", "--mask", "3", "--tables", "/no/such/dir"], &[]);
    assert_one_line_error(&o, 1, "/no/such/dir");
    let empty = scratch("empty-tables");
    let o = run("reader", &["lookup", "yazy", "--mask", "3", "--tables", empty.to_str().unwrap()], &[]);
    assert_one_line_error(&o, 1, "make tables");
    let o = run("reader", &["verify", empty.to_str().unwrap()], &[]);
    assert_one_line_error(&o, 1, "no tables");
}

#[test]
fn verify_and_info() {
    let dir = default_tables();
    let o = run("reader", &["verify", dir.to_str().unwrap()], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with("ok "), "{}", stdout(&o));
    let o = run("reader", &["info", dir.join("yazy.dtab").to_str().unwrap()], &[]);
    assert!(o.status.success());
    let text = stdout(&o);
    for s in ["turn_start", "category_points", "best_keep", "keep_value", "rerolls=2", "16 of 215040 bytes"] {
        assert!(text.contains(s), "{text}");
    }
}

#[test]
fn generator_bad_usage() {
    let o = run("generator", &["--games", "chess"], &[]);
    assert_one_line_error(&o, 2, "unknown game \"chess\"");
    let o = run("generator", &["--threads", "0"], &[]);
    assert_one_line_error(&o, 2, "--threads");
    let o = run("generator", &["--yazy-rerolls", "x"], &[]);
    assert_one_line_error(&o, 2, "--yazy-rerolls");
}

/// Not on a terminal (a build server's log), a long solve says it is alive:
/// a progress line every --progress-every seconds (10 by default), saying
/// what it counts.
#[test]
fn generator_progress_lines_off_a_terminal() {
    let dir = scratch("progress-lines");
    let o = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yatzy", "--progress-every", "0.01"], &[]);
    assert!(o.status.success());
    let said = String::from_utf8_lossy(&o.stderr);
    let counted = |l: &str| {
        let Some(rest) = l.strip_prefix("generator: solving yatzy: ") else { return false };
        let words: Vec<&str> = rest.split(' ').collect();
        words.len() >= 5 && words[0].parse::<u32>().is_ok() && words[1..4] == ["of", "32767", "sheets"]
    };
    assert!(said.lines().any(counted), "{said}");
    assert!(said.lines().all(|l| l.starts_with("generator: ")) && !said.contains('\r'), "{said}");
    let o = run("generator", &["--out", dir.to_str().unwrap(), "--progress-every", "0"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("0.01 to 3600"));
}

#[test]
fn generator_json_report() {
    let dir = scratch("json-report");
    let o = run("generator", &["--out", dir.to_str().unwrap(), "--json", "--games", "yazy"], &[]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1);
    for key in ["\"game\":\"yazy\"", "\"states\":1548288", "\"solve_ms\":", "\"bytes\":", "\"blake3\":\""] {
        assert!(text.contains(key), "{text}");
    }
    // Quiet when not on a terminal: a progress line only every 10 s.
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    // No temporary file is left behind.
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names, vec!["yazy.dtab".to_string()]);
}

/// `generator --print-rules`: a preset's rules in their canonical form (its
/// own words first, as comments), which the reader reads back; a rule file
/// of one's own checked, a mistake said in one line naming the file's line
/// (exit 2, nothing written).
#[test]
fn generator_prints_rule_sets_and_refuses_a_wrong_file_by_its_line() {
    let o = run("generator", &["--print-rules", "generala"], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("# Generala (Argentina, Uruguay)"), "{text}");
    let rules = dice_tables_reader::rules::RuleSet::from_text(&text).unwrap();
    assert_eq!(rules.boxes.len(), 11);
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n") + "\n", rules.to_text());
    let dir = scratch("print-rules");
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "name = \"mine\"\ndice = 5\nrerolls = 2\n\n[[box]]\nname = \"x\"\nkind = \"alike\"\ncount = 6\nscore = 5\n",
    )
    .unwrap();
    let o = run("generator", &["--print-rules", file.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("generator: {} line 8: count = 6: count takes a whole number 2 to 5\n", file.display())
    );
    assert!(o.stdout.is_empty());
    let o = run("generator", &["--print-rules", "yahtzee-house"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the presets are yazy, yatzy, yahtzee"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "nothing written");
}

//! The defects a first-time user found, one test each: closed
//! pipes, FIFOs and endless files, messages and exit codes, and the small
//! things.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use dice_tables_tests::{bin, default_tables, run, scratch};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs a binary with its standard output going to `out`; fails the test
/// (instead of hanging it) if the program does not end within a minute.
fn run_to(name: &str, args: &[&str], out: Stdio) -> Output {
    let mut child = Command::new(bin(name))
        .args(args)
        .env_remove("DICE_TABLES")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("{name} {args:?} did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// A pipe whose reading end is already closed: every write fails with EPIPE.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer.into()
}

fn dev_full() -> Stdio {
    std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap().into()
}

fn tables_arg() -> &'static str {
    default_tables().to_str().unwrap()
}

fn table_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

/// Defect 1: A closed pipe ends output quietly; /dev/full is one line and status 3.
#[test]
fn closed_pipes_and_full_disks() {
    let lookup = ["lookup", "yazy", "--mask", "all", "--dice", "12456", "--tables", tables_arg()];
    let o = run_to("reader", &lookup, closed_pipe());
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
    let o = run_to("reader", &lookup, dev_full());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(stderr(&o), "reader: cannot write the output: No space left on device (os error 28)\n");

    // The generator still writes every table.
    for (out, status) in [(closed_pipe(), 0), (dev_full(), 3)] {
        let dir = scratch(&format!("pipe-{status}"));
        // No progress line however long a busy machine takes: only the error's.
        let o = run_to("generator", &["--out", dir.to_str().unwrap(), "--progress-every", "3600"], out);
        assert_eq!(o.status.code(), Some(status), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), usize::from(status != 0), "{}", stderr(&o));
        let names = [
            "combo.dtab",
            "duel-cardgames.dtab",
            "duel.dtab",
            "tenk.dtab",
            "threes.dtab",
            "yahtzee.dtab",
            "yatzy.dtab",
            "yazy.dtab",
        ];
        assert_eq!(table_names(&dir), names);
        let o = run("reader", &["verify", dir.to_str().unwrap()], &[]);
        assert!(o.status.success(), "{}", stdout(&o));
    }
}

/// Defects 2 and 3: A FIFO, a device, an endless or huge file: refused at once,
/// status 1, without reading them.
#[test]
fn fifos_devices_and_huge_files_are_refused_without_blocking() {
    let dir = scratch("fifo");
    let fifo = dir.join("yazy.dtab");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (d, f) = (dir.to_str().unwrap(), fifo.to_str().unwrap());
    for args in [
        &["lookup", "yazy", "--mask", "all", "--tables", d][..],
        &["verify", d],
        &["verify", f],
        &["info", f],
        &["info", "/dev/zero"],
    ] {
        let o = run_to("reader", args, Stdio::piped());
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        // `verify` lists each file's failure on stdout, then sums up on stderr.
        let said = stdout(&o) + &stderr(&o);
        assert!(
            said.contains("yazy.dtab: not a regular file") || said.contains("/dev/zero: not a regular file"),
            "{args:?}: {said}"
        );
    }
    // An 8 GB file (sparse: it takes no disk) is judged by its first bytes.
    let huge = dir.join("huge.dtab");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(8 << 30).unwrap();
    for args in [&["info", huge.to_str().unwrap()][..], &["verify", huge.to_str().unwrap()]] {
        let o = run_to("reader", args, Stdio::piped());
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains("not a dice-tables file") || stdout(&o).contains("not a dice-tables file"));
    }
}

/// Defects 4, 5 and 7: The table directory: a file, a missing directory, `verify --tables`.
#[test]
fn table_directory_messages_and_statuses() {
    let file = default_tables().join("yazy.dtab");
    let o = run("reader", &["lookup", "yazy", "--mask", "all", "--tables", file.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a file: give the directory that holds the tables"), "{}", stderr(&o));
    // A missing directory and a missing table are both "a missing table": 1.
    let o = run("reader", &["lookup", "yazy", "--mask", "all", "--tables", "/no/such/dir"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let empty = scratch("no-tables");
    let o = run("reader", &["lookup", "yazy", "--mask", "all", "--tables", empty.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = run("reader", &["info", "/no/such/file.dtab"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // verify takes --tables as its help says.
    let o = run("reader", &["verify", "--tables", tables_arg()], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // One line a table in the directory (the test tables leave out the
    // yatzy and yahtzee target tables, the free joker reading's two,
    // two-player yazy's and the swedish Maxi Yatzy's).
    let tables = std::fs::read_dir(default_tables())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "dtab"))
        .count();
    assert!(tables >= dice_tables_reader::GAMES.len() - 6);
    assert_eq!(stdout(&o).lines().count(), tables);
}

/// Defect 6: `ev` is the state's value under optimal play; the throw's value has its own field.
#[test]
fn tenk_state_json_values_the_state() {
    let o = run(
        "reader",
        &["lookup", "tenk", "--remaining", "1", "--score", "30000", "--json", "--tables", tables_arg()],
        &[],
    );
    assert_eq!(stdout(&o), "{\"game\":\"tenk\",\"ev\":30000,\"throw\":10025,\"bank\":true}\n");
}

/// Defect 8: A file whose game does not match its name.
#[test]
fn verify_flags_a_table_under_another_games_name() {
    let dir = scratch("misnamed");
    std::fs::copy(default_tables().join("yazy.dtab"), dir.join("combo.dtab")).unwrap();
    let o = run("reader", &["verify", dir.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("combo.dtab: holds a yazy table, not a combo table"), "{}", stdout(&o));
    // Any other name is not a game's: only the contents are checked.
    std::fs::rename(dir.join("combo.dtab"), dir.join("spare.dtab")).unwrap();
    assert!(run("reader", &["verify", dir.to_str().unwrap()], &[]).status.success());
}

/// Defect 9: One style: ranges as people write them, the subcommand's help, the file
/// named in table errors, what is wrong with a number.
#[test]
fn one_style_for_every_error() {
    let t = tables_arg();
    let o =
        run("reader", &["lookup", "yazy", "--mask", "all", "--dice", "12345", "--rerolls", "3", "--tables", t], &[]);
    assert_eq!(stderr(&o), "reader: rerolls 3 is out of range: this yazy table allows 0 to 2\n");
    let o = run("reader", &["lookup", "yazy", "--mask", "4096", "--tables", t], &[]);
    assert!(
        stderr(&o).contains("0 to 2047") && stderr(&o).ends_with("(see reader lookup yazy --help)\n"),
        "{}",
        stderr(&o)
    );
    let o = run("reader", &["lookup", "10000", "--remaining", "9"], &[]);
    assert!(
        stderr(&o).contains("1 to 6") && stderr(&o).ends_with("(see reader lookup tenk --help)\n"),
        "{}",
        stderr(&o)
    );
    let o = run("reader", &["verify", "--bogus"], &[]);
    assert!(stderr(&o).ends_with("(see reader verify --help)\n"), "{}", stderr(&o));
    for (args, wanted) in [
        (&["--threads", "-1"][..], "threads \"-1\" is not a whole number 1 to 1024"),
        (&["--threads", "0"], "threads \"0\" is not a whole number 1 to 1024"),
        (&["--yazy-rerolls", "21"], "rerolls \"21\" is not a whole number 0 to 20"),
    ] {
        let o = run("generator", args, &[]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(wanted), "{args:?}: {}", stderr(&o));
    }
    // A damaged table: the error names the file.
    let dir = scratch("damaged-named");
    let mut bytes = std::fs::read(default_tables().join("threes.dtab")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(dir.join("threes.dtab"), bytes).unwrap();
    let o = run("reader", &["lookup", "threes", "--remaining", "5", "--tables", dir.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&format!("{}: ", dir.join("threes.dtab").display())), "{}", stderr(&o));
}

/// Defect 10: Refused up front, with nothing written.
#[test]
fn contradictions_are_refused_before_any_work() {
    let dir = scratch("up-front");
    let out = dir.to_str().unwrap();
    let manifest = dir.join("no-such-dir").join("m.b3");
    for args in [
        &["--out", out, "--games", "combo", "--yazy-rerolls", "3"][..],
        &["--out", out, "--games", "yazy", "--combo-rerolls", "3"],
        &["--out", out, "--manifest", manifest.to_str().unwrap()],
        &["--out", out, "--manifest", out],
        &["--out", out, "--games", "yazy", "--score-distribution"],
        &["--out", out, "--games", "maxi-yatzy-swedish", "--score-distribution"],
        &["--out", out, "--games", "maxi-yatzy", "--saved-rolls", "yes", "--score-distribution"],
    ] {
        let o = run("generator", args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
        assert!(table_names(&dir).is_empty(), "{args:?} wrote {:?}", table_names(&dir));
    }
    let o = run("reader", &["lookup", "threes", "--points", "29", "--dice", "66666", "--tables", tables_arg()], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("points 29 with 5 dice thrown cannot happen"), "{}", stderr(&o));
    // Reachable: two dice kept before, worth 12 at most.
    let o = run("reader", &["lookup", "threes", "--points", "12", "--dice", "666", "--tables", tables_arg()], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Defect 11: The small things.
#[test]
fn small_things() {
    let t = tables_arg();
    let o = run("reader", &["verify", t], &[]);
    assert!(stdout(&o).contains("(tenk, ") && !stdout(&o).contains("(tenk ,"), "{}", stdout(&o));
    let o = run("reader", &["lookup", "threes", "--dice", "31324", "--record", "8", "--tables", t], &[]);
    let text = stdout(&o);
    assert!(text.contains("1 point,") && text.contains("1 die left") && !text.contains("1 points"), "{text}");
    assert!(!text.contains("1 dice"), "{text}");
    for game in ["yazy", "combo", "threes", "tenk"] {
        let help = stdout(&run("reader", &["lookup", game, "--help"], &[]));
        assert!(!help.contains("[default:") && !help.contains(", four-kind"), "{game}: {help}");
    }
    // --score defaults to 0.
    let o = run("reader", &["lookup", "tenk", "--remaining", "6", "--json", "--tables", t], &[]);
    assert!(stdout(&o).starts_with("{\"game\":\"tenk\",\"ev\":590.657752747376"), "{}", stderr(&o));
    // Exact expected totals are printed in full.
    let o = run(
        "reader",
        &["lookup", "threes", "--remaining", "3", "--objective", "expected", "--json", "--tables", t],
        &[],
    );
    let ev: f64 =
        stdout(&o).trim().strip_prefix("{\"game\":\"threes\",\"ev\":").unwrap().trim_end_matches('}').parse().unwrap();
    assert_eq!(stdout(&o).len() - "{\"game\":\"threes\",\"ev\":}\n".len(), format!("{ev}").len());
    assert_eq!(format!("{ev:.6}"), "5.233796");
    assert!(format!("{ev}").len() > 12, "{ev}");
}

//! A generator killed mid-write leaves the old table intact (never a partial
//! file under the table's name), and the next run cleans up after it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dice_tables_reader::Table;
use dice_tables_tests::{bin, run, scratch};

#[test]
fn killing_the_generator_mid_write_leaves_the_old_table() {
    let dir = scratch("kill");
    let out = run("generator", &["--out", dir.to_str().unwrap()], &[]);
    assert!(out.status.success());
    let old = std::fs::read(dir.join("yazy.dtab")).unwrap();

    // A second run with different rules, paused after writing its temporary file.
    let mut child = Command::new(bin("generator"))
        .args(["--out", dir.to_str().unwrap(), "--yazy-rerolls", "1"])
        .env("DICE_TABLES_PAUSE_MID_WRITE_MS", "60000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let temp = dir.join(format!(".yazy.dtab.tmp.{}", child.id()));
    let start = Instant::now();
    while !temp.exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "the generator never started writing");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    // The table under its own name is the old one, whole and valid.
    assert_eq!(std::fs::read(dir.join("yazy.dtab")).unwrap(), old);
    Table::open(dir.join("yazy.dtab")).unwrap();
    let o = run("reader", &["verify", dir.to_str().unwrap()], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));

    // The next run replaces the table and removes the dead run's temporary file.
    let out = run("generator", &["--out", dir.to_str().unwrap(), "--yazy-rerolls", "1"], &[]);
    assert!(out.status.success());
    assert!(!temp.exists(), "stale temporary file left behind");
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(names.iter().all(|n| n.ends_with(".dtab") && !n.starts_with('.')), "{names:?}");
    let new = Table::open(dir.join("yazy.dtab")).unwrap();
    assert_eq!(new.header().param("rerolls"), Some(1));
}

/// A program holding the old table keeps reading it after the generator
/// replaces the file: the rename leaves the mapped inode alive.
#[test]
fn an_open_table_survives_replacement() {
    let dir = scratch("replace");
    assert!(run("generator", &["--out", dir.to_str().unwrap()], &[]).status.success());
    let yazy = dice_tables_reader::yazy::Yazy::open(dir.join("yazy.dtab")).unwrap();
    let before = yazy.turn_start_value(dice_tables_reader::yazy::Mask::ALL);
    assert!(run("generator", &["--out", dir.to_str().unwrap(), "--yazy-rerolls", "0"], &[]).status.success());
    assert_eq!(yazy.turn_start_value(dice_tables_reader::yazy::Mask::ALL), before);
    assert_eq!(yazy.rerolls(), 2);
}

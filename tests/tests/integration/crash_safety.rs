//! A writer killed mid-write leaves the old table intact (never a partial
//! file under the table's name), and the next generator run cleans up after
//! it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dice_tables_reader::{Game, Table};
use dice_tables_tests::{run, scratch};

#[test]
fn killing_a_writer_mid_write_leaves_the_old_table() {
    let dir = scratch("kill");
    let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy"], &[]);
    assert!(out.status.success());
    let old = std::fs::read(dir.join("yazy.dtab")).unwrap();
    let other = scratch("kill-new-rules");
    assert!(run("generator", &["--out", other.to_str().unwrap(), "--games", "yazy", "--yazy-rerolls", "1"], &[])
        .status
        .success());
    let new = other.join("yazy.dtab");
    let new_len = std::fs::metadata(&new).unwrap().len();

    // The generator's own writer, stalled for good after half the new table.
    let mut child = Command::new(env!("CARGO_BIN_EXE_stalled-write"))
        .args([dir.to_str().unwrap(), "yazy.dtab", new.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let temp = dir.join(format!(".yazy.dtab.tmp.{}", child.id()));
    let start = Instant::now();
    while std::fs::metadata(&temp).map_or(true, |m| m.len() < new_len / 2) {
        assert!(start.elapsed() < Duration::from_secs(60), "the writer never got half way");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(temp.exists(), "the killed writer's temporary file");

    // The table under its own name is the old one, whole and valid.
    assert_eq!(std::fs::read(dir.join("yazy.dtab")).unwrap(), old);
    Table::open(dir.join("yazy.dtab")).unwrap();
    let o = run("reader", &["verify", dir.to_str().unwrap()], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));

    // The next run replaces the table and removes the dead run's temporary file.
    let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy", "--yazy-rerolls", "1"], &[]);
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
    assert!(run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy"], &[]).status.success());
    let yazy = dice_tables_reader::yazy::Yazy::open(dir.join("yazy.dtab")).unwrap();
    let before = yazy.turn_start_value(dice_tables_reader::yazy::Mask::ALL).unwrap();
    assert!(run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy", "--yazy-rerolls", "0"], &[])
        .status
        .success());
    assert_eq!(yazy.turn_start_value(dice_tables_reader::yazy::Mask::ALL).unwrap(), before);
    assert_eq!(yazy.rerolls(), 2);
}

/// A mapped table is shared only into tables that made the same promise
/// (mapped over the same directory): never into a set opened safely, where
/// it would outlive the promise of `Tables::map_dir`.
#[test]
fn a_mapped_table_is_not_shared_into_safely_opened_tables() {
    use dice_tables_reader::{yazy::Yazy, Tables};
    let dir = dice_tables_tests::default_tables();
    // SAFETY: the test's own scratch tables, which nothing changes while it runs.
    let mapped = unsafe { Tables::map_dir(dir) }.unwrap();
    mapped.get::<Yazy>().unwrap();
    assert!(!Tables::open_dir(dir).unwrap().share_from(&mapped, Yazy::ID), "into tables read into memory");
    assert!(!Tables::in_memory(dir).share_from(&mapped, Yazy::ID), "into tables in memory");
    let elsewhere = scratch("mapped-elsewhere");
    // SAFETY: an empty scratch directory: no file in it to change.
    let mapped_elsewhere = unsafe { Tables::map_dir(&elsewhere) }.unwrap();
    assert!(!mapped_elsewhere.share_from(&mapped, Yazy::ID), "into tables mapping another directory");
    // SAFETY: as `mapped`.
    let mapped_again = unsafe { Tables::map_dir(dir) }.unwrap();
    assert!(mapped_again.share_from(&mapped, Yazy::ID), "into tables mapping the same directory");
    // Tables read into memory share as before.
    let loaded = Tables::open_dir(dir).unwrap();
    loaded.get::<Yazy>().unwrap();
    assert!(Tables::in_memory(dir).share_from(&loaded, Yazy::ID));
}

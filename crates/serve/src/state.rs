//! The tables a server answers from: every file read whole into memory and
//! checked before it is served, so that nothing done to the files later
//! (truncated, overwritten, bytes flipped) changes an answer or crashes the
//! process until the next reload; what each file was when it was read, so
//! that health can tell when the file on disk no longer holds a table that
//! could be served.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use dice_tables_lookup::{Json, LookupError};
use dice_tables_reader::rule_sheet::RuleTable;
use dice_tables_reader::{file_name, format, read_table_file, TableError, TableErrorKind, Tables, GAMES};

/// What a server serves: one [`Tables`] held in memory, and for every game
/// this reader knows, its table's status.
#[derive(Debug)]
pub struct Served {
    dir: PathBuf,
    /// The games served (`reader serve --games`); `None` for every one.
    games: Option<Vec<&'static str>>,
    tables: Tables,
    /// Per [`GAMES`] entry.
    status: Vec<Status>,
    /// The rule sets' tables found in the directory (`NAME.dtab` holding a
    /// rule set's table, NAME not a game's), each served or why not.
    rule_sets: Vec<(String, Status)>,
    /// Per [`GAMES`] entry: the last look at the file on disk, when it was
    /// not the file that was read (see [`Served::health`]); shared with the
    /// threads that check changed files.
    on_disk: Arc<Mutex<Vec<Option<DiskLook>>>>,
}

/// The last look at a file on disk: its metadata, and whether it could be
/// served (`None` while a thread checks it).
type DiskLook = (DiskKey, Option<Result<(), String>>);

/// A table's status in a [`Served`].
#[derive(Clone, Debug)]
pub enum Status {
    /// Served from memory.
    Served(Arc<Loaded>),
    /// Not served: why, in one line that names the file only.
    Missing(String),
}

/// A table read into memory: what `/v1/info` says of it.
#[derive(Debug)]
pub struct Loaded {
    /// The header's rules parameters.
    pub rules: Vec<(String, i64)>,
    /// The file's length.
    pub bytes: u64,
    /// The blake3 of the whole file, as `tables/checksums.b3` lists it.
    pub blake3: String,
    disk: DiskKey,
}

/// What changed in a reload, per table: for the log.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Read and served.
    Served {
        /// Its bytes equal those of the copy served before.
        same: bool,
    },
    /// The file failed; the copy read before is still served.
    Kept(String),
    /// The file failed and there is no copy to serve.
    Missing(String),
}

/// Identifies a file's contents as far as its metadata can: a file written
/// in place or replaced by a rename changes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DiskKey {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    inode: (u64, u64, i64, i64),
}

impl DiskKey {
    fn of(meta: &std::fs::Metadata) -> DiskKey {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        DiskKey {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            inode: (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec()),
        }
    }
}

impl Served {
    /// Reads every table of `dir` into memory and checks it whole. With
    /// `previous`, a table whose file now fails keeps being served from the
    /// previous copy. Never fails: a table that cannot be served is listed
    /// with why.
    pub fn load(dir: &Path, previous: Option<&Served>) -> (Served, Vec<(String, Change)>) {
        Served::load_games(dir, previous.and_then(|p| p.games.clone()), previous)
    }

    /// [`load`](Served::load) of the tables of `games` only (ids; `None`
    /// for every game): the others are neither read nor served.
    pub fn load_games(
        dir: &Path,
        games: Option<Vec<&'static str>>,
        previous: Option<&Served>,
    ) -> (Served, Vec<(String, Change)>) {
        // No directory: a table's message names its file only.
        let tables = Tables::in_memory("");
        let mut changes = Vec::new();
        let status = GAMES
            .iter()
            .enumerate()
            .map(|(i, game)| {
                if games.as_ref().is_some_and(|list| !list.contains(&game.id)) {
                    return Status::Missing("not served here (reader serve --games leaves it out)".to_string());
                }
                let file = file_name(game.id);
                let path = dir.join(&file);
                let before = previous.and_then(|p| match &p.status[i] {
                    Status::Served(loaded) => Some((p, loaded)),
                    Status::Missing(_) => None,
                });
                let (status, change) = match read_and_check(&path, |bytes| game.load_into(&tables, bytes)) {
                    Ok(loaded) => {
                        let same = before.is_some_and(|(_, old)| old.blake3 == loaded.blake3);
                        (Status::Served(Arc::new(loaded)), Change::Served { same })
                    }
                    Err(why) => match before {
                        Some((p, old)) if tables.share_from(&p.tables, game.id) => {
                            (Status::Served(Arc::clone(old)), Change::Kept(why))
                        }
                        _ => (Status::Missing(why.clone()), Change::Missing(why)),
                    },
                };
                changes.push((file, change));
                status
            })
            .collect();
        let rule_sets = load_rule_sets(dir, &tables, previous, &mut changes);
        let on_disk = Arc::new(Mutex::new((0..GAMES.len() + rule_sets.len()).map(|_| None).collect()));
        (Served { dir: dir.to_path_buf(), games, tables, status, rule_sets, on_disk }, changes)
    }

    /// The games served when `reader serve --games` chose some.
    pub fn games(&self) -> Option<&[&'static str]> {
        self.games.as_deref()
    }

    /// The tables, for lookups: holds only what is served.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The directory the tables are read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The status of the table `id` (`None` for an id this reader does not know).
    pub fn status(&self, id: &str) -> Option<&Status> {
        GAMES.iter().position(|g| g.id == id).map(|i| &self.status[i])
    }

    /// How many tables are served, and their bytes in all.
    pub fn served(&self) -> (usize, u64) {
        let rule_sets = self.rule_sets.iter().map(|(_, s)| s);
        self.status.iter().chain(rule_sets).fold((0, 0), |(n, bytes), s| match s {
            Status::Served(l) => (n + 1, bytes + l.bytes),
            Status::Missing(_) => (n, bytes),
        })
    }

    /// Whether every table that is served could be served again from its
    /// file (what a reload or a restart would read): for each, the file's
    /// metadata is compared with the file read; a changed file is read and
    /// checked whole, once per change, on a thread of its own, so that
    /// health answers at once however big the file: the second part names
    /// the files still being checked (no problem yet: the copy served is
    /// sound), and a later call says what the check found. `Err` lists what
    /// is wrong in one line. No table served at all is unhealthy too.
    pub fn health(&self) -> (Result<(), String>, Vec<String>) {
        let mut problems = Vec::new();
        let mut checking = Vec::new();
        {
            let mut on_disk = self.on_disk.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            for (i, status) in self.status.iter().chain(self.rule_sets.iter().map(|(_, s)| s)).enumerate() {
                let Status::Served(loaded) = status else { continue };
                let file = file_name(self.table_name(i));
                let path = self.dir.join(&file);
                let key = match std::fs::metadata(&path) {
                    Ok(meta) => DiskKey::of(&meta),
                    Err(e) => {
                        let why = table_message(TableError::from(TableErrorKind::from(e)), &path);
                        problems.push(on_disk_problem(&file, &why));
                        continue;
                    }
                };
                if key == loaded.disk {
                    continue;
                }
                if !matches!(&on_disk[i], Some((seen, _)) if *seen == key) {
                    on_disk[i] = Some((key, None));
                    if let Err(e) = self.check_in_background(i, key, path) {
                        on_disk[i] = Some((key, Some(Err(format!("cannot start a thread to check it: {e}")))));
                    }
                }
                match &on_disk[i] {
                    Some((_, None)) => checking.push(file),
                    Some((_, Some(Err(why)))) => problems.push(on_disk_problem(&file, why)),
                    _ => {}
                }
            }
        }
        if self.served().0 == 0 {
            problems.push(format!("no table is served from {}: run `make tables`, then SIGHUP", self.dir_name()));
        }
        match problems.is_empty() {
            true => (Ok(()), checking),
            false => (Err(problems.join("; ")), checking),
        }
    }

    /// The name of served table `i`: a [`GAMES`] entry's id, then the rule sets'.
    fn table_name(&self, i: usize) -> &str {
        match GAMES.get(i) {
            Some(game) => game.id,
            None => &self.rule_sets[i - GAMES.len()].0,
        }
    }

    /// Reads and checks the file of served table `i` ([`table_name`](Served::table_name))
    /// whole on a thread of its own, and records what it found under `key`
    /// (unless the file changed again meanwhile: then a newer check has its place).
    fn check_in_background(&self, i: usize, key: DiskKey, path: PathBuf) -> std::io::Result<()> {
        let on_disk = Arc::clone(&self.on_disk);
        let game = GAMES.get(i);
        let rule_set = self.table_name(i).to_string();
        let check = move || {
            let result = read_and_check(&path, |bytes| match game {
                Some(game) => {
                    let header = dice_tables_reader::verify_bytes(bytes)?;
                    match header.game == game.id {
                        true => Ok(()),
                        false => Err(TableErrorKind::WrongGame { found: header.game, expected: game.id }.into()),
                    }
                }
                None => RuleTable::check(&rule_set, bytes).map(drop),
            })
            .map(drop);
            let mut on_disk = on_disk.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if matches!(&on_disk[i], Some((seen, None)) if *seen == key) {
                on_disk[i] = Some((key, Some(result)));
            }
        };
        std::thread::Builder::new().name("health-check".into()).spawn(check).map(drop)
    }

    /// `/v1/info`'s tables: every table this reader knows, with its rules,
    /// size and blake3 when served, else why not.
    pub fn info(&self) -> Json {
        let list = GAMES
            .iter()
            .zip(&self.status)
            .map(|(game, status)| {
                let mut fields =
                    vec![("game", Json::Str(game.id.to_string())), ("file", Json::Str(file_name(game.id)))];
                match status {
                    Status::Served(l) => {
                        let value =
                            |n: &str, v: i64| game.param_value_name(n, v).map_or(Json::Int(v), |s| Json::Str(s.into()));
                        let rules = l.rules.iter().map(|(n, v)| (n.clone().into(), value(n, *v))).collect();
                        fields.push(("rules", Json::Object(rules)));
                        fields.push(("bytes", Json::Int(l.bytes as i64)));
                        fields.push(("blake3", Json::Str(l.blake3.clone())));
                    }
                    Status::Missing(why) => fields.push(("error", Json::Str(why.clone()))),
                }
                Json::object(fields)
            })
            .collect::<Vec<Json>>();
        let rule_sets = self.rule_sets.iter().map(|(name, status)| {
            let mut fields = vec![
                ("game", Json::Str(name.clone())),
                ("file", Json::Str(file_name(name))),
                ("rule_set", Json::Bool(true)),
            ];
            match status {
                Status::Served(l) => {
                    // What a client needs to ask it: the boxes by name, the dice and rerolls.
                    if let Some(table) = self.tables.rule_table_held(name) {
                        fields.extend(dice_tables_lookup::rule_table_info(&table));
                    }
                    fields.push(("bytes", Json::Int(l.bytes as i64)));
                    fields.push(("blake3", Json::Str(l.blake3.clone())));
                }
                Status::Missing(why) => fields.push(("error", Json::Str(why.clone()))),
            }
            Json::object(fields)
        });
        Json::List(list.into_iter().chain(rule_sets).collect())
    }

    /// The directory's last component, for messages that must not show
    /// where the server's files live.
    fn dir_name(&self) -> String {
        self.dir.file_name().map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
    }
}

/// Every rule set's table in `dir` (a file `NAME.dtab`, NAME of a rule
/// set's form and no game's), read, checked whole and put into `tables`;
/// each one's status, in name order, with its change for the log. With
/// `previous`, a rule set whose file now fails, or is gone, keeps being
/// served from the previous copy, as a game's table does.
fn load_rule_sets(
    dir: &Path,
    tables: &Tables,
    previous: Option<&Served>,
    changes: &mut Vec<(String, Change)>,
) -> Vec<(String, Status)> {
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".dtab").map(str::to_string))
            .filter(|n| dice_tables_lookup::is_rule_set_name(n) && !GAMES.iter().any(|g| g.id == n))
            .collect(),
        Err(_) => Vec::new(),
    };
    let served_before = |name: &str| {
        previous?.rule_sets.iter().find(|(n, _)| n == name).and_then(|(_, status)| match status {
            Status::Served(loaded) => Some(loaded),
            Status::Missing(_) => None,
        })
    };
    if let Some(p) = previous {
        names.extend(p.rule_sets.iter().map(|(n, _)| n.clone()).filter(|n| served_before(n).is_some()));
    }
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let file = file_name(&name);
            let load = |bytes: Vec<u8>| {
                tables.put_rule_table(RuleTable::check(&name, bytes)?);
                Ok(())
            };
            let before = served_before(&name);
            let (status, change) = match read_and_check(&dir.join(&file), load) {
                Ok(loaded) => {
                    let same = before.is_some_and(|old| old.blake3 == loaded.blake3);
                    (Status::Served(Arc::new(loaded)), Change::Served { same })
                }
                Err(why) => match (before, previous) {
                    (Some(old), Some(p)) if tables.share_from(&p.tables, &name) => {
                        (Status::Served(Arc::clone(old)), Change::Kept(why))
                    }
                    _ => (Status::Missing(why.clone()), Change::Missing(why)),
                },
            };
            changes.push((file, change));
            (name, status)
        })
        .collect()
}

/// Reads a table file, then `load` checks its bytes: the [`Loaded`] facts,
/// or why not in one line naming the file only.
fn read_and_check(path: &Path, load: impl FnOnce(Vec<u8>) -> Result<(), TableError>) -> Result<Loaded, String> {
    let (bytes, meta) = read_table_file(path).map_err(|e| table_message(e, path))?;
    let header = format::parse_header(&bytes).map_err(|e| table_message(e, path))?;
    let rules = header.params.into_iter().map(|p| (p.name, p.value)).collect();
    let loaded = Loaded {
        rules,
        bytes: bytes.len() as u64,
        blake3: blake3::hash(&bytes).to_hex().to_string(),
        disk: DiskKey::of(&meta),
    };
    load(bytes).map_err(|e| table_message(e, path))?;
    Ok(loaded)
}

/// A table's error as every front end words it, naming the file only.
fn table_message(e: TableError, path: &Path) -> String {
    LookupError::Table(e.in_file(path).with_file_name_only()).to_string()
}

fn on_disk_problem(file: &str, why: &str) -> String {
    format!("{file} on disk cannot be served ({why}); the copy read before is still served")
}

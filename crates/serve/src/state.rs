//! The tables a server answers from: every file read whole into memory and
//! checked before it is served, so that nothing done to the files later
//! (truncated, overwritten, bytes flipped) changes an answer or crashes the
//! process until the next reload; what each file was when it was read, so
//! that health can tell when the file on disk no longer holds a table that
//! could be served.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use dice_tables_lookup::{Json, LookupError};
use dice_tables_reader::{file_name, format, read_table_file, TableError, TableErrorKind, Tables, GAMES};

/// What a server serves: one [`Tables`] held in memory, and for every game
/// this reader knows, its table's status.
#[derive(Debug)]
pub struct Served {
    dir: PathBuf,
    tables: Tables,
    /// Per [`GAMES`] entry.
    status: Vec<Status>,
    /// Per [`GAMES`] entry: the last look at the file on disk, when it was
    /// not the file that was read (see [`Served::health`]).
    on_disk: Mutex<Vec<Option<DiskLook>>>,
}

/// The last look at a file on disk: its metadata, and whether it could be served.
type DiskLook = (DiskKey, Result<(), String>);

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
        // No directory: a table's message names its file only.
        let tables = Tables::in_memory("");
        let mut changes = Vec::new();
        let status = GAMES
            .iter()
            .enumerate()
            .map(|(i, game)| {
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
        let on_disk = Mutex::new(GAMES.iter().map(|_| None).collect());
        (Served { dir: dir.to_path_buf(), tables, status, on_disk }, changes)
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
        self.status.iter().fold((0, 0), |(n, bytes), s| match s {
            Status::Served(l) => (n + 1, bytes + l.bytes),
            Status::Missing(_) => (n, bytes),
        })
    }

    /// Whether every table that is served could be served again from its
    /// file (what a reload or a restart would read): for each, the file's
    /// metadata is compared with the file read; a changed file is read and
    /// checked whole (once per change). `Err` lists what is wrong in one
    /// line. No table served at all is unhealthy too.
    pub fn health(&self) -> Result<(), String> {
        let mut problems = Vec::new();
        let mut on_disk = self.on_disk.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for (i, game) in GAMES.iter().enumerate() {
            let Status::Served(loaded) = &self.status[i] else { continue };
            let file = file_name(game.id);
            let path = self.dir.join(&file);
            let key = match std::fs::metadata(&path) {
                Ok(meta) => DiskKey::of(&meta),
                Err(e) => {
                    problems
                        .push(on_disk_problem(&file, &table_message(TableError::from(TableErrorKind::from(e)), &path)));
                    continue;
                }
            };
            if key == loaded.disk {
                continue;
            }
            let looked = match &on_disk[i] {
                Some((seen, result)) if *seen == key => result.clone(),
                _ => {
                    let result = read_and_check(&path, |bytes| {
                        let header = dice_tables_reader::verify_bytes(bytes)?;
                        match header.game == game.id {
                            true => Ok(()),
                            false => Err(TableErrorKind::WrongGame { found: header.game, expected: game.id }.into()),
                        }
                    })
                    .map(drop);
                    on_disk[i] = Some((key, result.clone()));
                    result
                }
            };
            if let Err(why) = looked {
                problems.push(on_disk_problem(&file, &why));
            }
        }
        if self.served().0 == 0 {
            problems.push(format!("no table is served from {}: run `make tables`, then SIGHUP", self.dir_name()));
        }
        match problems.is_empty() {
            true => Ok(()),
            false => Err(problems.join("; ")),
        }
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
            .collect();
        Json::List(list)
    }

    /// The directory's last component, for messages that must not show
    /// where the server's files live.
    fn dir_name(&self) -> String {
        self.dir.file_name().map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
    }
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

//! One entry point for programs that use several games: a directory of
//! tables, each opened and verified the first time it is asked for.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::error::{TableError, TableErrorKind, TablesFrom};
use crate::game::{file_name, Game, GameInfo, View};
use crate::registry::GAMES;
use crate::table::{Pieces, Table};

/// The environment variable naming the tables directory.
pub const TABLES_ENV: &str = "DICE_TABLES";

/// Who named `dir`: [`Tables::default_dir`]'s answer is the environment's
/// or the default; any other directory was given.
fn named_by(dir: &Path) -> TablesFrom {
    match std::env::var_os(TABLES_ENV) {
        _ if dir != Tables::default_dir() => TablesFrom::Given,
        Some(env) if !env.is_empty() => TablesFrom::Environment,
        _ => TablesFrom::Default,
    }
}

/// How a [`Tables`] holds the bytes of the files it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Holding {
    /// Read into the process's memory ([`Tables::open_dir`]): the file can
    /// be truncated, overwritten or deleted afterwards without changing an
    /// answer. About 7 MB for every default table.
    #[default]
    Loaded,
    /// Memory-mapped ([`Tables::map_dir`], an `unsafe` opt-in): nothing is
    /// copied, and pages are shared with every other process reading the
    /// same file. The file must never change in place while mapped (replace
    /// it by renaming a new file over it): a truncated mapped file kills the
    /// process with SIGBUS on the next read of a page past the new end.
    Mapped,
    /// Only what was put in with [`GameInfo::load_into`](crate::GameInfo::load_into)
    /// or [`Tables::share_from`] ([`Tables::in_memory`]): nothing is ever
    /// read from the directory, and a game not put in is not there.
    InMemory,
}

/// A directory of tables (`yazy.dtab`, `combo.dtab`, ...), each game's file
/// opened and verified on first use and then shared.
///
/// ```
/// # fn main() -> Result<(), dice_tables_reader::Error> {
/// use dice_tables_reader::{tenk::Tenk, yazy::{Mask, Yazy}, Tables};
/// let tables = Tables::open_dir(Tables::default_dir())?;
/// let yazy = tables.get::<Yazy>()?;
/// assert!((yazy.turn_start_value(Mask::ALL)? - 165.7573187).abs() < 1e-6);
/// assert_eq!(tables.get::<Tenk>()?.bank_threshold(6), Some(18100));
/// # Ok(()) }
/// ```
pub struct Tables {
    dir: PathBuf,
    holding: Holding,
    opened: Vec<OnceLock<View>>,
    /// Tables of rule sets ([`RuleTable`](crate::rule_sheet::RuleTable)),
    /// by their files' stems: any number, each file `<stem>.dtab`.
    #[cfg(not(feature = "solitaire-only"))]
    rule_tables: std::sync::Mutex<Vec<(String, crate::rule_sheet::RuleTable)>>,
}

impl Tables {
    /// The tables in `dir`, each read whole into memory and verified when
    /// first asked for ([`Holding::Loaded`]): no later change to a file can
    /// change an answer or crash the program. An error when `dir` is not a
    /// directory.
    pub fn open_dir(dir: impl Into<PathBuf>) -> Result<Tables, TableError> {
        Tables::held(dir.into(), Holding::Loaded)
    }

    /// The tables in `dir`, each memory-mapped when first asked for
    /// ([`Holding::Mapped`]): nothing is copied, and the pages are shared
    /// with every process reading the same files. An error when `dir` is
    /// not a directory.
    ///
    /// # Safety
    ///
    /// As [`Table::map`](crate::Table::map): no table file in `dir` may
    /// change in place (be written into or truncated) while these tables
    /// live; replace a file by renaming a new one over it.
    ///
    /// ```compile_fail
    /// // Mapping is an opt-in that names its contract: without `unsafe`
    /// // it does not compile.
    /// let tables = dice_tables_reader::Tables::map_dir("tables");
    /// ```
    pub unsafe fn map_dir(dir: impl Into<PathBuf>) -> Result<Tables, TableError> {
        Tables::held(dir.into(), Holding::Mapped)
    }

    /// The tables in `dir`, held as `holding` says (the caller answers for
    /// [`Holding::Mapped`]'s contract).
    fn held(dir: PathBuf, holding: Holding) -> Result<Tables, TableError> {
        let not_a_dir =
            |kind, why| Err(TableError::from(TableErrorKind::Io(std::io::Error::new(kind, why))).in_file(&dir));
        match std::fs::metadata(&dir) {
            Ok(meta) if meta.is_dir() => Ok(Tables::empty(dir, holding)),
            Ok(_) => not_a_dir(std::io::ErrorKind::NotADirectory, "not a directory: give the directory of the tables"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(TableError::from(TableErrorKind::NoTablesDirectory { from: named_by(&dir), variable: TABLES_ENV })
                    .in_file(&dir))
            }
            Err(e) => Err(TableError::from(TableErrorKind::Io(e)).in_file(&dir)),
        }
    }

    /// Tables that never read `dir` ([`Holding::InMemory`]): a program
    /// puts each game in itself ([`GameInfo::load_into`](crate::GameInfo::load_into),
    /// [`share_from`](Tables::share_from)), as `reader serve` does to
    /// decide when files are read.
    pub fn in_memory(dir: impl Into<PathBuf>) -> Tables {
        Tables::empty(dir.into(), Holding::InMemory)
    }

    fn empty(dir: PathBuf, holding: Holding) -> Tables {
        Tables {
            dir,
            holding,
            opened: GAMES.iter().map(|_| OnceLock::new()).collect(),
            #[cfg(not(feature = "solitaire-only"))]
            rule_tables: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// [`Tables::open_dir`] of [`Tables::default_dir`].
    pub fn open_default() -> Result<Tables, TableError> {
        Tables::open_dir(Tables::default_dir())
    }

    /// Where tables are looked for by default: `$DICE_TABLES` when set and
    /// not empty, else `./tables` (what `make tables` writes).
    pub fn default_dir() -> PathBuf {
        match std::env::var_os(TABLES_ENV) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => PathBuf::from("tables"),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How the files' bytes are held.
    pub fn holding(&self) -> Holding {
        self.holding
    }

    /// The path of game `G`'s table file.
    pub fn path_of<G: Game>(&self) -> PathBuf {
        self.dir.join(G::file_name())
    }

    /// Game `G`'s table, opened and verified on the first call. A failure
    /// is not remembered: a later call tries the file again.
    pub fn get<G: Game>(&self) -> Result<&G, TableError> {
        let game = self.opened(G::ID)?.downcast_ref::<G>();
        Ok(game.expect("each registry slot holds the game of its id"))
    }

    /// The view of game `id`, its file opened and checked on the first call.
    fn opened(&self, id: &str) -> Result<&View, TableError> {
        let i = GAMES.iter().position(|g| g.id == id).ok_or_else(|| crate::registry::unknown_game(id))?;
        let (info, slot) = (&GAMES[i], &self.opened[i]);
        if let Some(view) = slot.get() {
            return Ok(view);
        }
        let path = self.dir.join(file_name(id));
        let expect = |h: &crate::format::Header| info.check_header(h);
        let table = match self.holding {
            // SAFETY: only `map_dir`, which is unsafe, makes mapped tables:
            // its caller keeps the files unchanged while these tables live.
            Holding::Mapped => unsafe { Table::map_expecting(&path, &expect)? },
            Holding::Loaded => Table::open_expecting(&path, &expect)?,
            Holding::InMemory => return Err(TableError::from(TableErrorKind::NotFound).in_file(&path)),
        };
        let _ = slot.set((info.view)(table).map_err(|e| e.in_file(&path))?);
        Ok(slot.get().expect("set just now, or by another thread"))
    }

    /// The table of the rule set `name` (`crag`: the file `crag.dtab`),
    /// opened and verified on the first call, as [`get`](Tables::get) does
    /// for the games this reader knows. A name that is not a rule set's
    /// ([`valid_name`](crate::rules::valid_name)) is not looked for; a
    /// file whose rules name another rule set is refused.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn rule_sheet(&self, name: &str) -> Result<Arc<crate::rule_sheet::RuleSheet>, TableError> {
        use crate::rule_sheet::{RuleSheet, RuleTable};
        let open = |path: &Path| self.open_rule_table::<RuleSheet>(path).map(|s| RuleTable::Sheet(Arc::new(s)));
        let sheet = self.rule_table(name, name, open)?;
        self.of_kind(name, sheet, crate::rule_sheet::ID, RuleTable::sheet)
    }

    /// The two-player table of the rule set `name` (`generala`: the file
    /// `generala-duel.dtab`), opened and verified on the first call as
    /// [`rule_sheet`](Tables::rule_sheet) opens its own table.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn rule_duel(&self, name: &str) -> Result<Arc<crate::rule_sheet::RuleDuel>, TableError> {
        use crate::rule_sheet::{duel_stem, RuleDuel, RuleTable};
        let open = |path: &Path| self.open_rule_table::<RuleDuel>(path).map(|t| RuleTable::Duel(Arc::new(t)));
        let stem = duel_stem(name);
        let table = self.rule_table(name, &stem, open)?;
        self.of_kind(&stem, table, crate::rule_sheet::DUEL_ID, RuleTable::duel)
    }

    /// The target table of the rule set `name` (`crag`: the file
    /// `crag-target.dtab`), opened and verified on the first call as
    /// [`rule_sheet`](Tables::rule_sheet) opens its own table.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn rule_target(&self, name: &str) -> Result<Arc<crate::rule_sheet::RuleTarget>, TableError> {
        use crate::rule_sheet::{target_stem, RuleTable, RuleTarget};
        let open = |path: &Path| self.open_rule_table::<RuleTarget>(path).map(|t| RuleTable::Target(Arc::new(t)));
        let stem = target_stem(name);
        let table = self.rule_table(name, &stem, open)?;
        self.of_kind(&stem, table, crate::rule_sheet::TARGET_ID, RuleTable::target)
    }

    /// The parts table of the rule set `name` (`yacht`: the file
    /// `yacht-parts.dtab`, its values box by box), opened and verified on
    /// the first call as [`rule_sheet`](Tables::rule_sheet) opens its own table.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn rule_parts(&self, name: &str) -> Result<Arc<crate::rule_sheet::RuleParts>, TableError> {
        use crate::rule_sheet::{parts_stem, RuleParts, RuleTable};
        let open = |path: &Path| self.open_rule_table::<RuleParts>(path).map(|t| RuleTable::Parts(Arc::new(t)));
        let stem = parts_stem(name);
        let table = self.rule_table(name, &stem, open)?;
        self.of_kind(&stem, table, crate::rule_sheet::PARTS_ID, RuleTable::parts)
    }

    /// The table held under file stem `stem` as the kind `pick` takes:
    /// refused as another game's when it is another kind (rule set
    /// `crag-parts`'s own table asked for where `crag`'s parts table is held).
    #[cfg(not(feature = "solitaire-only"))]
    fn of_kind<T>(
        &self,
        stem: &str,
        table: crate::rule_sheet::RuleTable,
        expected: &'static str,
        pick: impl FnOnce(crate::rule_sheet::RuleTable) -> Option<T>,
    ) -> Result<T, TableError> {
        let found = table.id();
        pick(table).ok_or_else(|| {
            TableError::from(TableErrorKind::WrongGame { found: found.into(), expected })
                .in_file(&self.dir.join(file_name(stem)))
        })
    }

    /// The rule-set table of file stem `stem` (of rule set `name`), held
    /// or opened by `open` and held from then on.
    #[cfg(not(feature = "solitaire-only"))]
    fn rule_table(
        &self,
        name: &str,
        stem: &str,
        open: impl FnOnce(&Path) -> Result<crate::rule_sheet::RuleTable, TableError>,
    ) -> Result<crate::rule_sheet::RuleTable, TableError> {
        let path = self.dir.join(file_name(stem));
        if !crate::rules::valid_name(name) {
            return Err(TableError::from(TableErrorKind::NotFound).in_file(&path));
        }
        if let Some((_, table)) = self.rule_tables_held().iter().find(|(n, _)| n == stem) {
            return Ok(table.clone());
        }
        let table = open(&path)?.named(stem).map_err(|e| e.in_file(&path))?;
        Ok(self.put_rule_table(table))
    }

    /// A rule-set table's file opened as these tables hold their files.
    #[cfg(not(feature = "solitaire-only"))]
    fn open_rule_table<G: Game>(&self, path: &Path) -> Result<G, TableError> {
        match self.holding {
            // SAFETY: only `map_dir`, which is unsafe, makes mapped tables:
            // its caller keeps the files unchanged while these tables live.
            Holding::Mapped => unsafe { G::map(path) },
            Holding::Loaded => G::open(path),
            Holding::InMemory => Err(TableError::from(TableErrorKind::NotFound).in_file(path)),
        }
    }

    /// Puts a rule set's table into these tables under its rules' name
    /// (what [`rule_sheet`](Tables::rule_sheet) then answers), unless one of
    /// that name is there already (then that one stays); returns the one
    /// held.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn put_rule_sheet(
        &self,
        sheet: crate::rule_sheet::RuleSheet,
    ) -> Result<Arc<crate::rule_sheet::RuleSheet>, TableError> {
        use crate::rule_sheet::RuleTable;
        let name = sheet.rules().name.clone();
        let held = self.put_rule_table(RuleTable::Sheet(Arc::new(sheet)));
        self.of_kind(&name, held, crate::rule_sheet::ID, RuleTable::sheet)
    }

    /// Puts a rule set's table (its own, its target or its two-player table) into these
    /// tables under its file's stem, unless one is there already (then that
    /// one stays); returns the one held.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn put_rule_table(&self, table: crate::rule_sheet::RuleTable) -> crate::rule_sheet::RuleTable {
        let mut held = self.rule_tables_held();
        let stem = table.stem();
        if let Some((_, kept)) = held.iter().find(|(n, _)| *n == stem) {
            return kept.clone();
        }
        held.push((stem, table.clone()));
        table
    }

    /// The stems of the rule-set tables' files opened (or put in) so far:
    /// a rule set's name for its own table, `NAME-target` for its target table.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn rule_table_names(&self) -> Vec<String> {
        self.rule_tables_held().iter().map(|(n, _)| n.clone()).collect()
    }

    /// The rule-set table of file stem `stem`, when held.
    #[cfg(not(feature = "solitaire-only"))]
    pub fn rule_table_held(&self, stem: &str) -> Option<crate::rule_sheet::RuleTable> {
        self.rule_tables_held().iter().find(|(n, _)| n == stem).map(|(_, t)| t.clone())
    }

    #[cfg(not(feature = "solitaire-only"))]
    fn rule_tables_held(&self) -> std::sync::MutexGuard<'_, Vec<(String, crate::rule_sheet::RuleTable)>> {
        // A panic elsewhere while the list was held leaves it whole: every
        // change is one push.
        self.rule_tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether the table of game `id` has been opened (or put in).
    pub fn is_open(&self, id: &str) -> bool {
        self.slot(id).is_some_and(|slot| slot.get().is_some())
    }

    /// Shares the opened table of game `id` of `other`, or its rule-set
    /// table of file stem `id` (no copy, nothing read): for a program that reopens its tables
    /// and keeps the ones that fail to reopen. False when `other` has no
    /// such table open, this one already has it, or `other` maps its files
    /// while this one does not map the same directory: a mapped table stays
    /// valid only while the promise of [`Tables::map_dir`] holds, and a set
    /// opened safely made no such promise.
    pub fn share_from(&self, other: &Tables, id: &str) -> bool {
        let mapped_here = self.holding == Holding::Mapped && self.dir == other.dir;
        if other.holding == Holding::Mapped && !mapped_here {
            return false;
        }
        #[cfg(not(feature = "solitaire-only"))]
        if self.slot(id).is_none() {
            let Some(table) = other.rule_table_held(id) else { return false };
            let mut held = self.rule_tables_held();
            if held.iter().any(|(n, _)| n == id) {
                return false;
            }
            held.push((id.to_string(), table));
            return true;
        }
        match (self.slot(id), other.slot(id).and_then(|s| s.get())) {
            (Some(slot), Some(game)) => slot.set(Arc::clone(game)).is_ok(),
            _ => false,
        }
    }

    /// The registry slot of game `id`: `None` for a game outside the registry.
    fn slot(&self, id: &str) -> Option<&OnceLock<View>> {
        GAMES.iter().position(|g| g.id == id).map(|i| &self.opened[i])
    }
}

impl GameInfo {
    /// Opens this game's table in `tables` ([`Tables::get`]), for a program
    /// that opens every table at start.
    pub fn open_in(&self, tables: &Tables) -> Result<(), TableError> {
        tables.opened(self.id).map(drop)
    }

    /// Builds this game's view over a table file's bytes, runs every check
    /// ([`Game::check`]: every chunk decoded and verified now, so no lookup
    /// meets a damaged chunk later) and puts it into `tables`, unless
    /// `tables` already holds this game (then nothing changes; see
    /// [`Tables::is_open`]).
    pub fn load_into(&self, tables: &Tables, bytes: Vec<u8>) -> Result<(), TableError> {
        let table = Table::from_vec_expecting(bytes, &|h| self.check_header(h))?;
        self.put_into(tables, (self.checked_view)(table)?);
        Ok(())
    }

    /// Builds this game's view over a file read in pieces (its header and
    /// small sections checked; each other chunk when a lookup first reads
    /// it) and puts it into `tables`, unless `tables` already holds this
    /// game. Fails with [`Needed`](crate::TableErrorKind::Needed) while a
    /// chunk the view checks is not supplied: supply it and call again.
    pub fn pieces_into(&self, tables: &Tables, pieces: &Arc<Pieces>) -> Result<(), TableError> {
        let table = Table::from_pieces_expecting(Arc::clone(pieces), &|h| self.check_header(h))?;
        self.put_into(tables, (self.view)(table)?);
        Ok(())
    }

    fn put_into(&self, tables: &Tables, view: View) {
        if let Some(slot) = tables.slot(self.id) {
            let _ = slot.set(view);
        }
    }
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opened: Vec<&str> =
            GAMES.iter().zip(&self.opened).filter(|(_, slot)| slot.get().is_some()).map(|(g, _)| g.id).collect();
        f.debug_struct("Tables")
            .field("dir", &self.dir)
            .field("holding", &self.holding)
            .field("opened", &opened)
            .finish()
    }
}

//! The registry of games: every game this reader knows, by id, and the
//! checks that open any table by the game its header names.

use crate::format;
use crate::game::{file_name, GameInfo};
#[cfg(not(feature = "solitaire-only"))]
use crate::games::maxi;
use crate::games::{combo, duel, sheet, tenk, threes, yazy};
use crate::table::Table;
use crate::{TableError, TableErrorKind};

/// Every game this reader knows: the registry behind [`Tables`](crate::Tables) and
/// `reader verify`. A new game adds one line here.
pub const GAMES: &[GameInfo] = &[
    GameInfo::of::<yazy::Yazy>(),
    GameInfo::of::<combo::Combo>(),
    GameInfo::of::<threes::Threes>(),
    GameInfo::of::<tenk::Tenk>(),
    GameInfo::of::<sheet::Yatzy>(),
    GameInfo::of::<sheet::Yahtzee>(),
    GameInfo::of::<sheet::YahtzeeFree>(),
    GameInfo::of::<duel::SeedDuel>(),
    GameInfo::of::<duel::CardgamesDuel>(),
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<maxi::MaxiYatzy>(),
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<maxi::MaxiYatzySwedish>(),
    // Two-player yazy and the target tables are left out of the static
    // site's WebAssembly module, whose page neither plays two-player yazy
    // yet nor fetches a target table, and must load within its 1.5 MB
    // budget (`make site` sets this cfg; the npm package's module has them).
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<yazy::target::YazyTarget>(),
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<yazy::duel::YazyDuel>(),
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<sheet::YatzyTarget>(),
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<sheet::YahtzeeTarget>(),
    #[cfg(not(feature = "solitaire-only"))]
    GameInfo::of::<sheet::YahtzeeFreeTarget>(),
    #[cfg(feature = "example-game")]
    GameInfo::of::<crate::games::one_die::OneDie>(),
];

/// The entry of every rule set's table ([`RuleSheet`](crate::rule_sheet::RuleSheet)):
/// not in [`GAMES`], whose games each have one table of their own name, but
/// what a header of game `rules` is opened and checked as.
#[cfg(not(feature = "solitaire-only"))]
pub const RULE_SETS: GameInfo = GameInfo::of::<crate::games::rule_sheet::RuleSheet>();

/// The entry of every rule set's target table ([`RuleTarget`](crate::rule_sheet::RuleTarget)),
/// as [`RULE_SETS`] is of its own table.
#[cfg(not(feature = "solitaire-only"))]
pub const RULE_TARGETS: GameInfo = GameInfo::of::<crate::games::rule_sheet::RuleTarget>();

/// The entry of every rule set's two-player table ([`RuleDuel`](crate::rule_sheet::RuleDuel)),
/// as [`RULE_SETS`] is of its own table.
#[cfg(not(feature = "solitaire-only"))]
pub const RULE_DUELS: GameInfo = GameInfo::of::<crate::games::rule_sheet::RuleDuel>();

/// The entry of every rule set's parts table ([`RuleParts`](crate::rule_sheet::RuleParts)),
/// as [`RULE_SETS`] is of its own table.
#[cfg(not(feature = "solitaire-only"))]
pub const RULE_PARTS: GameInfo = GameInfo::of::<crate::games::rule_sheet::RuleParts>();

/// The registry entry of a game by its id or another name (`10000` for
/// `tenk`).
pub fn game_named(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.id == name || g.aliases.contains(&name))
}

/// The registry entry of the game a header names: an error for a game this
/// reader does not know.
fn game_of(header: &format::Header) -> Result<&'static GameInfo, TableError> {
    let id = &header.game;
    #[cfg(not(feature = "solitaire-only"))]
    if let Some(rule_table) = [&RULE_SETS, &RULE_TARGETS, &RULE_DUELS, &RULE_PARTS].into_iter().find(|g| g.id == *id) {
        return Ok(rule_table);
    }
    Ok(GAMES.iter().find(|g| g.id == *id).ok_or_else(|| unknown_game(id))?)
}

/// A game outside the registry.
#[cold]
pub(crate) fn unknown_game(id: &str) -> TableErrorKind {
    TableErrorKind::UnknownGame { found: id.to_string(), known: GAMES.iter().map(|g| g.id).collect() }
}

/// Runs every check of the game a table's header names ([`Game::check`](crate::Game::check)):
/// every chunk decoded, its checksum verified and its contents checked.
pub fn check_table(table: Table) -> Result<(), TableError> {
    game_of(table.header())?.check(table)
}

/// Opens any table and runs every check of its game, the header's before
/// anything is decompressed: what `reader verify` does for each file. A
/// file named after a game (`combo.dtab`) must hold that game, since that
/// is where lookups of the game look.
pub fn verify(path: impl AsRef<std::path::Path>) -> Result<format::Header, TableError> {
    let path = path.as_ref();
    let named = path.file_name().and_then(|n| n.to_str()).and_then(|n| GAMES.iter().find(|g| file_name(g.id) == n));
    let table = Table::open_expecting(path, &|h| {
        if let Some(g) = named.filter(|g| g.id != h.game) {
            return Err(TableErrorKind::WrongGame { found: h.game.clone(), expected: g.id }.into());
        }
        game_of(h)?.check_header(h)
    })?;
    let header = table.header().clone();
    check_table(table).map_err(|e| e.in_file(path))?;
    Ok(header)
}

/// Verifies a table already read into memory and runs every check of its
/// game, the header's before anything is decompressed.
pub fn verify_bytes(bytes: Vec<u8>) -> Result<format::Header, TableError> {
    let table = Table::from_vec_expecting(bytes, &|h| game_of(h)?.check_header(h))?;
    let header = table.header().clone();
    check_table(table)?;
    Ok(header)
}

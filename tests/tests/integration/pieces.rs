//! Tables read in pieces (what a browser does over HTTP range requests):
//! the header at once, each chunk when a lookup first needs it. Every
//! golden lookup gets the answer on file, fetching only the chunks asked
//! for, each once; bytes that are not the chunk asked for are refused and
//! change nothing; a header that is damaged is refused from the first bytes.

use std::collections::HashSet;
use std::sync::Arc;

use dice_tables_lookup::LookupError;
use dice_tables_reader::format::PREAMBLE_LEN;
use dice_tables_reader::{game_named, Pieces, TableError, TableErrorKind as Kind, Tables};
use dice_tables_tests::{default_tables, golden_query, target_tables};
use serde_json::Value;

/// A file read in pieces: its bytes stand in for the server, and every range fetched is kept.
struct Served {
    file: Vec<u8>,
    pieces: Arc<Pieces>,
    fetched: Vec<(u64, u64)>,
}

impl Served {
    fn open(path: &std::path::Path) -> Served {
        let file = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let len = file.len() as u64;
        let first = Pieces::prefix_len(&file[..PREAMBLE_LEN], len).unwrap();
        let pieces = Arc::new(Pieces::new(file[..first].to_vec(), len).unwrap());
        Served { file, pieces, fetched: vec![(0, first as u64)] }
    }

    /// Gives the chunk an error asked for; false for any other error.
    fn supply(&mut self, e: &TableError) -> bool {
        let &Kind::Needed { offset, len, .. } = e.kind() else { return false };
        assert!(e.to_string().contains("not fetched yet"), "{e}");
        let at = offset as usize;
        self.pieces.supply(offset, self.file[at..at + len as usize].to_vec()).unwrap();
        self.fetched.push((offset, len));
        true
    }

    /// These pieces (none supplied yet) naming themselves `name` where a chunk is needed.
    fn named(mut self, name: &str) -> Served {
        let len = self.file.len() as u64;
        let first = self.fetched[0].1 as usize;
        self.pieces = Arc::new(Pieces::new(self.file[..first].to_vec(), len).unwrap().named(name));
        self
    }

    fn fetched_len(&self) -> u64 {
        self.fetched.iter().map(|(_, len)| len).sum()
    }
}

/// Opens `id`'s table in pieces into `tables`, supplying what opening reads.
fn open_in(tables: &Tables, id: &str, dir: &std::path::Path) -> Served {
    let mut served = Served::open(&dir.join(format!("{id}.dtab")));
    let info = game_named(id).unwrap();
    while let Err(e) = info.pieces_into(tables, &served.pieces) {
        assert!(served.supply(&e), "{id}: {e}");
    }
    assert!(tables.is_open(id));
    served
}

/// Asks `lookups` of `tables`, supplying chunks as they are needed; every answer the one on file.
fn ask_all(tables: &Tables, served: &mut [Served], game: &str, lookups: &[&Value]) {
    for lookup in lookups {
        let game = lookup["game"].as_str().unwrap_or(game);
        let query = lookup["query"].as_object().unwrap();
        let asked = golden_query(game, query).unwrap();
        let answer = loop {
            match asked.answer(tables) {
                Ok(answer) => break answer,
                Err(LookupError::Table(e)) => {
                    let Kind::Needed { game: id, .. } = e.kind() else { panic!("{game} {query:?}: {e}") };
                    let file = served.iter_mut().find(|s| s.pieces.name() == id).unwrap();
                    assert!(file.supply(&e));
                }
                Err(e) => panic!("{game} {query:?}: {e}"),
            }
        };
        assert_eq!(serde_json::from_str::<Value>(&answer.to_string()).unwrap(), lookup["answer"], "{game} {query:?}");
    }
}

fn golden(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_golden_lookup_gets_its_answer_from_a_table_read_in_pieces() {
    let tables = Tables::in_memory("(pieces)");
    let ids =
        ["yazy", "yazy-target", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames", "maxi-yatzy"];
    let mut served: Vec<Served> = ids.into_iter().map(|id| open_in(&tables, id, default_tables())).collect();
    for game in dice_tables_tests::games() {
        let file = golden(&format!("{game}.json"));
        let lookups: Vec<&Value> = file["lookups"].as_array().unwrap().iter().collect();
        ask_all(&tables, &mut served, game, &lookups);
    }
    // The two-player and target lookups, from the reduced tables.
    let targets = Tables::in_memory("(pieces)");
    let mut reduced: Vec<Served> = ["yatzy-target", "yahtzee-target", "yazy-duel"]
        .into_iter()
        .map(|id| open_in(&targets, id, target_tables()))
        .collect();
    let file = golden("target.json");
    ask_all(&targets, &mut reduced, "", &file["lookups"].as_array().unwrap().iter().collect::<Vec<_>>());
    let file = golden("yazy-duel.json");
    ask_all(&targets, &mut reduced, "yazy", &file["lookups"].as_array().unwrap().iter().collect::<Vec<_>>());
    for s in served.iter().chain(&reduced) {
        let game = &s.pieces.header().game;
        // Each range fetched once: a chunk supplied is kept.
        assert_eq!(s.fetched.iter().collect::<HashSet<_>>().len(), s.fetched.len(), "{game}: a range fetched twice");
        assert_eq!(s.fetched_len() - s.fetched[0].1, s.pieces.supplied_len(), "{game}");
        assert!(s.fetched_len() <= s.file.len() as u64, "{game}");
    }
    // The big table: a few hundred lookups all over it fetch well under half.
    let maxi = served.iter().find(|s| s.pieces.header().game == "maxi-yatzy").unwrap();
    assert!(maxi.fetched_len() < maxi.file.len() as u64 / 2, "{} of {}", maxi.fetched_len(), maxi.file.len());
}

/// A rule set's two-player table read in pieces under its file's stem
/// (every rule set's two-player table has the game id `rules-duel`, so the
/// stem tells a reader of several which file a chunk is of): its header
/// and rules read first, every chunk after asked by that name, and every
/// golden two-player lookup of forced Yatzy gets the answer on file.
#[test]
fn a_rule_set_s_two_player_table_read_in_pieces_answers_every_golden_lookup() {
    use dice_tables_reader::rule_sheet::RuleTable;
    use dice_tables_reader::Table;
    let stem = "forced-yatzy-duel";
    let mut served = Served::open(&target_tables().join(format!("{stem}.dtab"))).named(stem);
    assert_eq!(served.pieces.header().game, "rules-duel");
    let table = loop {
        let opened = Table::from_pieces(Arc::clone(&served.pieces)).and_then(RuleTable::from_table);
        match opened.and_then(|t| t.named(stem)) {
            Ok(table) => break table,
            Err(e) => {
                assert!(matches!(e.kind(), Kind::Needed { game, .. } if game == stem), "{e}");
                assert!(served.supply(&e));
            }
        }
    };
    // Opened under another stem, its rules (forced-yatzy's) are refused in one line.
    let elsewhere = Table::from_pieces(Arc::clone(&served.pieces)).and_then(RuleTable::from_table).unwrap();
    let why = elsewhere.named("yacht-duel").unwrap_err().to_string();
    assert!(why.contains("rename the file forced-yatzy-duel.dtab"), "{why}");
    let tables = Tables::in_memory("(pieces)");
    tables.put_rule_table(table);
    let file = golden("rule-set-duel.json");
    let lookups: Vec<&Value> = file["lookups"].as_array().unwrap().iter().collect();
    let mut served = [served];
    ask_all(&tables, &mut served, "forced-yatzy", &lookups);
    let [served] = served;
    assert!(served.fetched.len() > 2 && served.fetched_len() <= served.file.len() as u64);
    assert_eq!(served.fetched.iter().collect::<HashSet<_>>().len(), served.fetched.len(), "a range fetched twice");
}

#[test]
fn bytes_that_are_not_the_chunk_asked_for_are_refused() {
    let tables = Tables::in_memory("(pieces)");
    let mut served = open_in(&tables, "yatzy", default_tables());
    let yatzy = tables.get::<dice_tables_reader::Yatzy>().unwrap();
    let start = yatzy.state(0x7fff, 0, false).unwrap();
    let e = match yatzy.turn_start_value(start) {
        Err(dice_tables_reader::Error::Table(e)) => e,
        other => panic!("a chunk not supplied was read: {other:?}"),
    };
    let &Kind::Needed { offset, len, ref game } = e.kind() else { panic!("{e}") };
    assert_eq!(game, "yatzy");
    let at = offset as usize;
    let right = served.file[at..at + len as usize].to_vec();
    let mut flipped = right.clone();
    flipped[len as usize / 2] ^= 0x10;
    let refused = |bytes: Vec<u8>, at: u64| served.pieces.supply(at, bytes).unwrap_err();
    assert!(matches!(refused(flipped, offset).kind(), Kind::SectionChecksum { .. } | Kind::BadSection { .. }));
    assert!(refused(right[1..].to_vec(), offset).to_string().contains("not the"), "a short chunk");
    assert!(refused(right.clone(), offset + 1).to_string().contains("no chunk of the file is stored from byte"));
    // Nothing refused was kept: still needed, then answered once given.
    assert!(
        matches!(yatzy.turn_start_value(start), Err(dice_tables_reader::Error::Table(ref e)) if matches!(e.kind(), Kind::Needed { .. }))
    );
    assert!(served.supply(&e));
    assert!((yatzy.turn_start_value(start).unwrap() - 248.4399894).abs() < 1e-6);
}

#[test]
fn a_damaged_or_short_header_is_refused_from_the_first_bytes() {
    let file = std::fs::read(default_tables().join("yazy.dtab")).unwrap();
    let len = file.len() as u64;
    let first = Pieces::prefix_len(&file[..PREAMBLE_LEN], len).unwrap();
    let mut damaged = file[..first].to_vec();
    damaged[first - 3] ^= 1;
    assert!(matches!(Pieces::new(damaged, len).unwrap_err().kind(), Kind::HeaderChecksum));
    assert!(matches!(Pieces::new(file[..first - 1].to_vec(), len).unwrap_err().kind(), Kind::Truncated { .. }));
    assert!(matches!(Pieces::new(file[..first].to_vec(), len - 1).unwrap_err().kind(), Kind::Truncated { .. }));
    assert!(matches!(Pieces::new(file[..first].to_vec(), len + 64).unwrap_err().kind(), Kind::TrailingBytes { .. }));
    // A header longer than the format allows is refused from the preamble.
    let mut huge = file[..PREAMBLE_LEN].to_vec();
    huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Pieces::prefix_len(&huge, u64::MAX).unwrap_err().kind(), Kind::Limit { .. }));
    // A table of another game is refused by the game it is opened as.
    let pieces = Arc::new(Pieces::new(file[..first].to_vec(), len).unwrap());
    let e = game_named("combo").unwrap().pieces_into(&Tables::in_memory("(pieces)"), &pieces).unwrap_err();
    assert!(matches!(e.kind(), Kind::WrongGame { .. }), "{e}");
}

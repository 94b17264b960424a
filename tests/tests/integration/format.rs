//! Damaged and hostile files: every one is refused with a typed error, never
//! a panic, and never opens to answer differently.

use dice_tables_generator::artifact::{encode, Section};
use dice_tables_reader::format::{self, Encoding, Header, PREAMBLE_LEN};
use dice_tables_reader::yazy::Yazy;
use dice_tables_reader::{verify_bytes, Game, Table, TableError, TableErrorKind as Kind};
use dice_tables_tests::{default_tables, run, scratch, Rng};

fn original() -> Vec<u8> {
    std::fs::read(default_tables().join("yazy.dtab")).unwrap()
}

fn header_end(file: &[u8]) -> usize {
    PREAMBLE_LEN + u32::from_le_bytes(file[12..16].try_into().unwrap()) as usize
}

/// Re-encodes a changed header of the same length and re-signs it, as a
/// hostile writer would.
fn with_header(file: &[u8], change: impl FnOnce(&mut Header)) -> Vec<u8> {
    let mut header = format::parse_header(file).unwrap();
    change(&mut header);
    let bytes = bincode::serde::encode_to_vec(&header, format::header_config()).unwrap();
    assert_eq!(bytes.len(), header_end(file) - PREAMBLE_LEN, "same-length changes only");
    let mut out = file.to_vec();
    out[16..48].copy_from_slice(blake3::hash(&bytes).as_bytes());
    out[PREAMBLE_LEN..header_end(file)].copy_from_slice(&bytes);
    out
}

#[track_caller]
fn refuse(bytes: Vec<u8>) -> TableError {
    match verify_bytes(bytes) {
        Ok(_) => panic!("a damaged file opened"),
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
            e
        }
    }
}

#[test]
fn the_original_opens() {
    Yazy::from_table(Table::from_vec(original()).unwrap()).unwrap();
}

#[test]
fn wrong_magic_and_version() {
    let mut f = original();
    f[0] = b'X';
    assert!(matches!(refuse(f).kind(), Kind::BadMagic));
    for version in [1u32, 3] {
        let mut f = original();
        f[8..12].copy_from_slice(&version.to_le_bytes());
        assert!(matches!(refuse(f).kind(), Kind::UnsupportedVersion { found, .. } if *found == version));
    }
}

/// Flips every byte of the preamble and header in turn; each must be refused.
fn flip_every_header_byte(f: &[u8]) -> usize {
    let end = header_end(f);
    for i in 0..end {
        let mut g = f.to_vec();
        g[i] ^= 0x55;
        refuse(g);
    }
    end
}

/// Flips one random bit in each of `n` copies, somewhere after the header:
/// each is refused, or (a bit zstd ignores) decodes to exactly the same
/// sections, so it cannot answer differently.
fn flip_random_body_bits(f: &[u8], n: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let start = header_end(f);
    let original = Table::from_vec(f.to_vec()).unwrap();
    let decoded = |t: &Table| -> Vec<Vec<u8>> {
        t.header().sections.iter().map(|s| t.section(&s.name).unwrap().unwrap()).collect()
    };
    for _ in 0..n {
        let mut g = f.to_vec();
        let i = start + rng.below((f.len() - start) as u64) as usize;
        let bit = rng.below(8);
        g[i] ^= 1 << bit;
        if verify_bytes(g.clone()).is_ok() {
            let same = decoded(&Table::from_vec(g).unwrap()) == decoded(&original);
            assert!(same, "flipping bit {bit} of byte {i} opened with other contents");
        } else {
            refuse(g);
        }
    }
    n
}

/// Every header byte flipped, 300 random body bits, about a hundred
/// truncations and two appends: each refused. Returns the cases tried.
fn damage_sweep(f: &[u8], seed: u64) -> usize {
    let mut cases = flip_every_header_byte(f) + flip_random_body_bits(f, 300, seed);
    for len in (0..f.len()).step_by(f.len() / 101).chain([f.len() - 1]) {
        refuse(f[..len].to_vec());
        cases += 1;
    }
    for extra in [1usize, 64] {
        let mut g = f.to_vec();
        g.extend(std::iter::repeat_n(0u8, extra));
        refuse(g);
        cases += 1;
    }
    cases
}

#[test]
fn every_header_byte_flip_is_caught() {
    let cases = flip_every_header_byte(&original());
    eprintln!("header and directory flips tried and caught: {cases}");
}

#[test]
fn body_flips_truncation_and_appended_bytes_are_caught() {
    let f = original();
    let start = header_end(&f);
    let mut cases = flip_random_body_bits(&f, 200, 99);
    for len in (0..f.len()).step_by(f.len() / 97).chain([0, 1, 47, 48, start - 1, start, f.len() - 1]) {
        refuse(f[..len].to_vec());
        cases += 1;
    }
    for extra in [1usize, 7, 64, 4096] {
        let mut g = f.clone();
        g.extend(std::iter::repeat_n(0xAB, extra));
        assert!(matches!(refuse(g).kind(), Kind::TrailingBytes { .. }));
        cases += 1;
    }
    eprintln!("body, truncation and append cases tried and caught: {cases}");
}

#[test]
fn absurd_lengths_are_refused_before_use() {
    let f = original();
    let mut g = f.clone();
    g[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(refuse(g).kind(), Kind::Limit { what: "header length", .. }));

    // Sections: turn_start, category_points, best_keep, keep_value.
    let e = refuse(with_header(&f, |h| h.sections[3].stored_len = 1 << 60));
    assert!(matches!(e.kind(), Kind::BadSection { .. }), "{e}");
    let e = refuse(with_header(&f, |h| h.sections[3].chunks[0].stored_len = 1 << 60));
    assert!(matches!(e.kind(), Kind::BadSection { .. }), "{e}");
    let e = refuse(with_header(&f, |h| h.sections[3].offset = u64::MAX - 63));
    assert!(matches!(e.kind(), Kind::BadSection { .. }), "{e}");
    let e = refuse(with_header(&f, |h| h.sections[2].dims = vec![1 << 30, 1 << 30, 1 << 30]));
    assert!(e.to_string().contains("declares more than"), "{e}");
    let e = refuse(with_header(&f, |h| h.sections[2].chunk_len = 1 << 25));
    assert!(e.to_string().contains("more than 16777216"), "{e}");
    let e = refuse(with_header(&f, |h| h.sections[2].chunk_len = 100_000));
    assert!(e.to_string().contains("do not cover"), "{e}");
    // Chunks that cover the section, but not the game's: refused before use.
    let e = refuse(with_header(&f, |h| h.sections[2].chunk_len = 64_513));
    assert!(e.to_string().contains("is in chunks of 64513 bytes, but a yazy table has 64512"), "{e}");
    let e = refuse(with_header(&f, |h| {
        h.sections[0].dtype = format::DType::U32;
        h.sections[0].dims = vec![4096];
    }));
    assert!(e.to_string().contains("is u32 [4096], but a yazy table with these rules has f64 [2048]"), "{e}");
    let e = refuse(with_header(&f, |h| h.params[0].value = 3));
    assert!(e.to_string().contains("with these rules has"), "{e}");
    let e = refuse(with_header(&f, |h| h.params[0].value = -1));
    assert!(matches!(e.kind(), Kind::BadParam { .. }), "{e}");
    let e = refuse(with_header(&f, |h| h.game = "yazz".into()));
    assert!(matches!(e.kind(), Kind::UnknownGame { .. }), "{e}");
    let e = refuse(with_header(&f, |h| h.sections.swap(0, 1)));
    assert!(matches!(e.kind(), Kind::BadSection { .. }), "{e}");
}

/// A chunk that would decompress to a gigabyte: refused once it passes its
/// declared size, never inflated.
#[test]
fn a_decompression_bomb_is_refused_without_inflating_it() {
    let f = original();
    let header = format::parse_header(&f).unwrap();
    let s = header.section("keep_value").unwrap().clone();
    let first = s.chunks[0].stored_len as usize;
    // 1 GiB of zeros compresses to a few tens of kilobytes.
    let bomb = {
        let mut enc = zstd::stream::Encoder::new(Vec::new(), 19).unwrap();
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..1024 {
            std::io::Write::write_all(&mut enc, &zeros).unwrap();
        }
        enc.finish().unwrap()
    };
    assert!(bomb.len() < first, "bomb {} bytes", bomb.len());
    // In place of the first chunk, zero-padded to its stored length.
    let mut g = f.clone();
    let at = s.offset as usize;
    g[at..at + first].fill(0);
    g[at..at + bomb.len()].copy_from_slice(&bomb);
    // Refused before inflating: the zero padding after the frame is not
    // part of a one-frame chunk (and the frame alone decodes past the size).
    let refused = |e: String| e.contains("chunk 0 does not decompress") || e.contains("after its zstd frame");
    let e = refuse(g.clone());
    assert!(refused(e.to_string()), "{e}");
    // A lookup that reads that chunk fails the same way; one that does not still answers.
    let yazy = Yazy::from_vec(g).unwrap();
    let mask = dice_tables_reader::yazy::Mask::new(1).unwrap();
    let e = yazy.value(mask, "12345".parse().unwrap(), 1).unwrap_err();
    assert!(refused(e.to_string()), "{e}");
    assert!(yazy.value(mask, "12345".parse().unwrap(), 0).is_ok());
}

/// The table re-encoded with section `name`'s decoded bytes changed, every
/// checksum recomputed: what a hostile writer could produce.
fn resigned(table: &Table, name: &str, change: &dyn Fn(&mut Vec<u8>)) -> Vec<u8> {
    let params: Vec<(&str, i64)> = table.header().params.iter().map(|p| (p.name.as_str(), p.value)).collect();
    resigned_with(table, &params, &|section, bytes| {
        if section == name {
            change(bytes)
        }
    })
}

/// The table re-encoded with header `params` and each section's decoded
/// bytes passed through `change(name, bytes)`; a one-dimensional section
/// takes the length of its new bytes.
fn resigned_with(table: &Table, params: &[(&str, i64)], change: &dyn Fn(&str, &mut Vec<u8>)) -> Vec<u8> {
    let sections = table
        .header()
        .sections
        .iter()
        .map(|e| {
            let mut bytes = table.section(&e.name).unwrap().unwrap();
            change(&e.name, &mut bytes);
            let mut dims = e.dims.clone();
            if dims.len() == 1 && e.dtype.size() * dims[0] != bytes.len() as u64 {
                dims[0] = bytes.len() as u64 / e.dtype.size();
            }
            // An empty section is stored raw; filled, it takes its spec's
            // encoding (zstd for every section that is empty in a shipped table).
            let encoding = if e.stored_len == 0 && !bytes.is_empty() { Encoding::Zstd } else { e.encoding };
            let section = Section::new(&e.name, e.dtype, dims, encoding, bytes);
            // The game's chunk length, also where one chunk holds it all.
            if e.chunks.len() > 1 || Some(e.chunk_len) > e.decoded_len() {
                section.chunked(e.chunk_len as usize)
            } else {
                section
            }
        })
        .collect();
    encode(&table.header().game, params, sections)
}

/// A file whose checksums were all recomputed over impossible actions still
/// cannot send a lookup out of bounds.
#[test]
fn signed_but_impossible_actions_are_refused() {
    let table = Table::from_vec(original()).unwrap();
    let rebuild = |name: &str, change: &dyn Fn(&mut Vec<u8>)| resigned(&table, name, change);
    // The untouched rebuild opens and verifies: the rebuild itself is faithful.
    verify_bytes(rebuild("none", &|_| {})).unwrap();
    let e = refuse(rebuild("best_keep", &|b| b[252 * 5 + 17] = 230));
    assert!(e.to_string().contains("not a legal keep"), "{e}");
    // Keep 209 is "6666": not a keep of the roll 11111 (rank 0) under mask 1.
    let e = refuse(rebuild("best_keep", &|b| b[252] = 209));
    assert!(e.to_string().contains("not a legal keep"), "{e}");
    // In a later chunk too (mask 1500), and a lookup reading it is refused.
    let bad = rebuild("best_keep", &|b| b[1500 * 252] = 209);
    let e = refuse(bad.clone());
    assert!(e.to_string().contains("for mask 1500 and roll 0, which is not a legal keep"), "{e}");
    let yazy = Yazy::from_vec(bad).unwrap();
    let mask = dice_tables_reader::yazy::Mask::new(1500).unwrap();
    assert!(yazy.best_action(mask, "11111".parse().unwrap(), 1).unwrap_err().to_string().contains("not a legal keep"));
    let e = refuse(rebuild("turn_start", &|b| b[8..16].copy_from_slice(&f64::NAN.to_le_bytes())));
    assert!(e.to_string().contains("turn_start"), "{e}");
}

#[test]
fn reader_verify_flags_a_damaged_file() {
    let dir = scratch("damaged");
    let mut f = original();
    let last = f.len() - 10;
    f[last] ^= 0xFF;
    std::fs::write(dir.join("yazy.dtab"), f).unwrap();
    let o = run("reader", &["verify", dir.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("FAILED") && (out.contains("checksum") || out.contains("decompress")), "{out}");
    // The damage is in the last chunk of keep_value: two rerolls left, masks
    // 1792 to 2047. A lookup that reads it fails; lookups read only the
    // chunks they need, so one that does not still answers.
    let d = dir.to_str().unwrap();
    let o =
        run("reader", &["lookup", "yazy", "--mask", "2047", "--dice", "12345", "--rerolls", "2", "--tables", d], &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("keep_value") && err.contains("regenerate"), "{err}");
    let o = run("reader", &["lookup", "yazy", "--mask", "3", "--dice", "12345", "--rerolls", "2", "--tables", d], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Apps embed a table with `include_bytes!`: the same checks, from a static slice.
#[test]
fn opens_from_static_bytes() {
    let bytes: &'static [u8] = Box::leak(original().into_boxed_slice());
    let yazy = Yazy::from_table(Table::from_static(bytes).unwrap()).unwrap();
    let v = yazy.turn_start_value(dice_tables_reader::yazy::Mask::ALL).unwrap();
    assert!((v - 165.7573187).abs() < 1e-6);
    let mut damaged = original();
    damaged[100] ^= 1;
    assert!(Table::from_static(Box::leak(damaged.into_boxed_slice())).is_err());
}

/// The same damage to a combo table: every header byte, random body bytes
/// (all of its sections are raw, so only checksums stand guard), truncation.
#[test]
fn combo_damage_is_caught() {
    let f = std::fs::read(default_tables().join("combo.dtab")).unwrap();
    dice_tables_reader::combo::Combo::from_table(Table::from_vec(f.clone()).unwrap()).unwrap();
    let mut cases = flip_every_header_byte(&f) + flip_random_body_bits(&f, 300, 5);
    for len in (0..f.len()).step_by(97) {
        refuse(f[..len].to_vec());
        cases += 1;
    }
    eprintln!("combo damage cases tried and caught: {cases}");
}

/// The same damage to the threes table, and re-signed files holding chances
/// outside 0..=1 or exceptions that name no decision.
#[test]
fn threes_damage_is_caught() {
    let f = std::fs::read(default_tables().join("threes.dtab")).unwrap();
    let table = Table::from_vec(f.clone()).unwrap();
    dice_tables_reader::threes::Threes::from_table(Table::from_vec(f.clone()).unwrap()).unwrap();
    let mut cases = damage_sweep(&f, 11);
    Table::from_vec(resigned(&table, "none", &|_| {})).unwrap();
    let nan = f32::NAN.to_bits().to_le_bytes();
    let e = refuse(resigned(&table, "chance", &|b| b[400..404].copy_from_slice(&nan)));
    assert!(e.to_string().contains("chance"), "{e}");
    let e = refuse(resigned(&table, "chance", &|b| b[8..12].copy_from_slice(&1.5f32.to_le_bytes())));
    assert!(e.to_string().contains("outside 0 to 1"), "{e}");
    let e = refuse(resigned(&table, "expected", &|b| b[8..16].copy_from_slice(&(-1.0f64).to_le_bytes())));
    assert!(e.to_string().contains("expected"), "{e}");
    // Exceptions: (key = state * 252 + roll rank, keep count). State 5 is
    // (ties win, independent, 0 after, record 0, points 0, 5 dice).
    let with_exceptions = |list: &[(u32, u8)]| {
        resigned_with(&table, &[("exceptions", list.len() as i64)], &|name, bytes| match name {
            "exception_key" => *bytes = list.iter().flat_map(|k| k.0.to_le_bytes()).collect(),
            "exception_keep" => *bytes = list.iter().map(|k| k.1).collect(),
            _ => {}
        })
    };
    let threes = |bytes| dice_tables_reader::threes::Threes::from_table(Table::from_vec(bytes).unwrap()).unwrap();
    // A legal exception is honoured: roll 66666 (rank 251) at the start, keep 5.
    let t = threes(with_exceptions(&[(5 * 252 + 251, 5)]));
    let s = dice_tables_reader::threes::Situation::default();
    let s = dice_tables_reader::threes::Situation {
        model: dice_tables_reader::threes::Model::Independent,
        record: Some(0),
        ..s
    };
    assert_eq!(t.options(s, "66666".parse().unwrap()).unwrap().best().unwrap().keep.count, 5);
    for bad in [
        vec![(5 * 252 + 251, 6)],                 // keep more dice than thrown
        vec![(5 * 252 + 251, 0)],                 // keep none
        vec![(4 * 252 + 126, 1)],                 // 4 dice have 126 rolls
        vec![(5 * 252 + 9, 1), (5 * 252 + 3, 1)], // not sorted
        vec![(5 * 252 + 3, 1), (5 * 252 + 3, 1)], // repeated
        vec![(u32::MAX, 1)],                      // no such state
    ] {
        let e = refuse(with_exceptions(&bad));
        assert!(e.to_string().contains("exception"), "{e}");
        cases += 1;
    }
    cases += 3;
    eprintln!("threes damage cases tried and caught: {cases}");
}

/// The same damage to the 10000 table, and re-signed files whose keeps are
/// not parts of their throw or score impossible points.
#[test]
fn tenk_damage_is_caught() {
    let f = std::fs::read(default_tables().join("tenk.dtab")).unwrap();
    let table = Table::from_vec(f.clone()).unwrap();
    dice_tables_reader::tenk::Tenk::from_table(Table::from_vec(f.clone()).unwrap()).unwrap();
    let mut cases = damage_sweep(&f, 13);
    Table::from_vec(resigned(&table, "none", &|_| {})).unwrap();
    // Keep 923 is six 6s: not a part of throw 1 (a single 1).
    let e = refuse(resigned(&table, "option_keep", &|b| b[0..2].copy_from_slice(&923u16.to_le_bytes())));
    assert!(e.to_string().contains("option_keep"), "{e}");
    let e = refuse(resigned(&table, "option_keep", &|b| b[0..2].copy_from_slice(&0u16.to_le_bytes())));
    assert!(e.to_string().contains("option_keep"), "{e}");
    let e = refuse(resigned(&table, "option_points", &|b| b[0..2].copy_from_slice(&75u16.to_le_bytes())));
    assert!(e.to_string().contains("option_points"), "{e}");
    let e = refuse(resigned(&table, "option_first", &|b| b[40..44].copy_from_slice(&u32::MAX.to_le_bytes())));
    assert!(e.to_string().contains("option_first"), "{e}");
    let e = refuse(resigned(&table, "reach", &|b| b[0..8].copy_from_slice(&f64::NAN.to_le_bytes())));
    assert!(e.to_string().contains("reach"), "{e}");
    cases += 5;
    eprintln!("tenk damage cases tried and caught: {cases}");
}

/// The duel table under the same damage, and re-signed files with a chance
/// outside 0 to 1, a keep list that is not the throw's, or rules no duel has.
#[test]
fn duel_damage_is_caught() {
    use dice_tables_reader::duel::{CardgamesDuel, SeedDuel};
    let f = std::fs::read(default_tables().join("duel.dtab")).unwrap();
    SeedDuel::from_table(Table::from_vec(f.clone()).unwrap()).unwrap();
    let mut cases = damage_sweep(&f, 19);
    let table = Table::from_vec(f).unwrap();
    verify_bytes(resigned(&table, "none", &|_| {})).unwrap();
    for bad in [1.5, -0.25, f64::NAN] {
        let e = refuse(resigned(&table, "win", &|b| b[8 * 777..8 * 778].copy_from_slice(&bad.to_le_bytes())));
        assert!(e.to_string().contains("win") && e.to_string().contains("outside 0 to 1"), "{e}");
    }
    let e = refuse(resigned(&table, "option_keep", &|b| b[0..2].copy_from_slice(&923u16.to_le_bytes())));
    assert!(e.to_string().contains("option_keep"), "{e}");
    let e = refuse(resigned(&table, "option_points", &|b| b[0..2].copy_from_slice(&8050u16.to_le_bytes())));
    assert!(e.to_string().contains("option_points"), "{e}");
    // Banking from a score past the goal, from 0, and below the entry on 0.
    for (at, bad) in [(2 * (3 * 200 + 7), 201u16), (2 * (3 * 200 + 7) + 1, 0), (0, 5)] {
        let e = refuse(resigned(&table, "bank_from", &|b| b[2 * at..2 * at + 2].copy_from_slice(&bad.to_le_bytes())));
        assert!(e.to_string().contains("bank_from") && e.to_string().contains("outside"), "{e}");
    }
    for (params, says) in [
        (&[("goal", 10_025), ("entry", 1000)][..], "not a multiple of 50"),
        (&[("goal", 10_000), ("entry", 10_050)], "entry"),
        (&[("goal", 0), ("entry", 0)], "goal"),
        (&[("goal", 40_000), ("entry", 0)], "goal"),
        (&[("entry", 1000)], "goal"),
    ] {
        let e = refuse(resigned_with(&table, params, &|_, _| {}));
        assert!(e.to_string().contains(says), "{params:?}: {e}");
    }
    // A duel table is not a duel-cardgames table.
    let f = std::fs::read(default_tables().join("duel.dtab")).unwrap();
    let e = CardgamesDuel::from_vec(f).unwrap_err();
    assert!(e.to_string().contains("duel-cardgames"), "{e}");
    cases += 14;
    eprintln!("duel damage cases tried and caught: {cases}");
}

/// The same damage to the yahtzee table, and re-signed yatzy files whose
/// turn-start values or exceptions are impossible.
#[test]
fn sheet_damage_is_caught() {
    let f = std::fs::read(default_tables().join("yahtzee.dtab")).unwrap();
    dice_tables_reader::Yahtzee::from_table(Table::from_vec(f.clone()).unwrap()).unwrap();
    let mut cases = flip_every_header_byte(&f) + flip_random_body_bits(&f, 60, 17);
    for len in (0..f.len()).step_by(f.len() / 40) {
        refuse(f[..len].to_vec());
        cases += 1;
    }
    let f = std::fs::read(default_tables().join("yatzy.dtab")).unwrap();
    let table = Table::from_vec(f).unwrap();
    verify_bytes(resigned(&table, "none", &|_| {})).unwrap();
    // A value's top byte plane set: far above the most a game scores.
    let e = refuse(resigned(&table, "turn_start", &|b| b[4 * 128] = 0xFF));
    assert!(e.to_string().contains("outside 0 to"), "{e}");
    // A byte past a chunk's values (set 0 has one reachable total: row 0's
    // five planes take 5 * 128 bytes).
    let e = refuse(resigned(&table, "turn_start", &|b| b[5 * 128 + 3] = 1));
    assert!(e.to_string().contains("past its values"), "{e}");
    // Exceptions: out of order, of no reachable state, naming no action of their decision.
    let params: Vec<(&str, i64)> = table.header().params.iter().map(|p| (p.name.as_str(), p.value)).collect();
    let swap_first_two = |name: &str, b: &mut Vec<u8>| {
        let width = if name == "exception_key" {
            4
        } else if name == "exception_action" {
            1
        } else {
            return;
        };
        let (first, second) = b.split_at_mut(width);
        first.swap_with_slice(&mut second[..width]);
    };
    let e = refuse(resigned_with(&table, &params, &swap_first_two));
    assert!(e.to_string().contains("not above the one before"), "{e}");
    let e = refuse(resigned(&table, "exception_key", &|b| b[..4].copy_from_slice(&0u32.to_le_bytes())));
    assert!(e.to_string().contains("no decision of a state the game can reach"), "{e}");
    let e = refuse(resigned(&table, "exception_action", &|b| b[0] = 253));
    assert!(e.to_string().contains("which that decision does not have"), "{e}");
    cases += 6;
    eprintln!("yatzy and yahtzee damage cases tried and caught: {cases}");
}

/// FORMAT.md bounds a 10000 table's keep count K before anything is
/// decompressed: 923 throws of 1 to 6 dice, at most 32 keeps each.
#[test]
fn a_keep_count_past_the_bound_is_refused_from_the_header() {
    let file = std::fs::read(dice_tables_tests::default_tables().join("tenk.dtab")).unwrap();
    let k = 923 * 32 + 1;
    let over = with_header(&file, |h| {
        for s in h.sections.iter_mut().filter(|s| s.name == "option_keep" || s.name == "option_points") {
            s.dims = vec![k];
            s.chunk_len = k * 2;
        }
    });
    let e = refuse(over);
    assert!(matches!(e.kind(), Kind::Limit { value, max: 29536, .. } if *value == k), "{e}");
}

/// The target tables: yazy-target and a reduced yatzy-target take the same
/// damage sweep; re-signed ones with an index out of order, a drop below
/// 0 or a distribution not summing to 1 are refused by `verify`, and a
/// lookup meeting such a drop answers with an error, never a panic.
#[test]
fn target_damage_is_caught() {
    let f = std::fs::read(default_tables().join("yazy-target.dtab")).unwrap();
    let mut cases = damage_sweep(&f, 23);
    let dir = scratch("reduced-target");
    let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yatzy-target", "--target-open", "2"], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let reduced = std::fs::read(dir.join("yatzy-target.dtab")).unwrap();
    cases += damage_sweep(&reduced, 24);
    for f in [f, reduced] {
        let table = Table::from_vec(f).unwrap();
        verify_bytes(resigned(&table, "none", &|_| {})).unwrap();
        // The first state with chances stored, and where they start.
        let index = table.section("state_index").unwrap().unwrap();
        let entry = |i: usize| u32::from_le_bytes(index[8 * i..8 * i + 4].try_into().unwrap());
        let state = (0..index.len() / 8 - 1).find(|&i| entry(i + 1) > entry(i)).unwrap();
        let e = refuse(resigned(&table, "state_index", &|b| {
            b[8 * state..8 * state + 4].copy_from_slice(&u32::MAX.to_le_bytes())
        }));
        assert!(e.to_string().contains("out of order or range"), "{e}");
        // A drop of the whole unit at the first chance, then another: below 0.
        let at = entry(state) as usize;
        let e = refuse(resigned(&table, "p", &|b| {
            let plane = b.len().min(3 * 32768) / 3;
            for i in [at, at + 1] {
                for (k, byte) in [0xFFu8, 0xFF, 0xFF].into_iter().enumerate() {
                    b[k * plane + i] = byte;
                }
            }
        }));
        assert!(e.to_string().contains("decodes below 0"), "{e}");
        let e = refuse(resigned(&table, "ev_distribution", &|b| b[..8].copy_from_slice(&0.5f64.to_le_bytes())));
        assert!(e.to_string().contains("sums to"), "{e}");
        cases += 3;
    }
    eprintln!("target table damage cases tried and caught: {cases}");
}

/// Two-player yazy (a reduced game: its layout is the whole table's over
/// fewer masks) takes the same damage sweep; re-signed files whose values
/// fall with the lead or rise above 1, or whose parameters disagree with
/// the layout, are refused by `verify`, and a lookup opened lazily over
/// such a file answers with an error, never a panic.
#[test]
fn yazy_duel_damage_is_caught() {
    use dice_tables_reader::yazy::duel::YazyDuel;
    use dice_tables_reader::yazy::Mask;
    let universe = "ones,threes,full-house,straight,yazy".parse::<Mask>().unwrap();
    let rules = dice_tables_generator::Rules { yazy_duel_universe: universe.bits(), ..Default::default() };
    let f = dice_tables_generator::solve("yazy-duel", &rules, |_, _| {}).unwrap().encode();
    let mut cases = damage_sweep(&f, 41);
    let table = Table::from_vec(f).unwrap();
    verify_bytes(resigned(&table, "none", &|_| {})).unwrap();
    // Plane b of value j of the one chunk (28,560 values).
    let set = |b: &mut Vec<u8>, j: usize, z: u32| {
        let len = b.len() / 3;
        for k in 0..3 {
            b[k * len + j] = (z >> (8 * k)) as u8;
        }
    };
    // The first pair's second value far below its first (an odd zigzag
    // code is a negative step), then two huge rises: above 1.
    let falling = resigned(&table, "v", &|b| set(b, 1, 0xFF_FFFF));
    let above = resigned(&table, "v", &|b| {
        set(b, 1, 0xFF_FFFE);
        set(b, 2, 0xFF_FFFE)
    });
    for bad in [falling, above] {
        let e = refuse(bad.clone());
        assert!(e.to_string().contains("falling with the lead or above 1"), "{e}");
        let lazy = YazyDuel::from_vec(bad).unwrap();
        // The first pair: the mover has ones open, the opponent nothing.
        let e = lazy.chance(Mask::new(1).unwrap(), Mask::NONE, 0).unwrap_err();
        assert!(e.to_string().contains("falling with the lead or above 1"), "{e}");
        cases += 2;
    }
    let params: Vec<(&str, i64)> = table.header().params.iter().map(|p| (p.name.as_str(), p.value)).collect();
    let with = |name: &str, value: i64| -> Vec<(&str, i64)> {
        params.iter().map(|&(n, v)| (n, if n == name { value } else { v })).collect()
    };
    let values = params.iter().find(|p| p.0 == "values").unwrap().1;
    for (changed, says) in [
        (with("values", values + 1), "values"),
        (with("universe", 0), "universe"),
        (with("universe", 2048), "universe"),
        (with("universe", 2047), "values"),
        (with("differences", 2), "differences"),
    ] {
        let e = refuse(resigned_with(&table, &changed, &|_, _| {}));
        assert!(e.to_string().contains(says), "{changed:?}: {e}");
        cases += 1;
    }
    eprintln!("yazy-duel damage cases tried and caught: {cases}");
}

/// The same damage to a rule set's target table (yacht's, reduced to the
/// last three turns), and re-signed files whose rules are not canonical
/// text, whose chances drop below 0, or whose index runs backward.
#[test]
fn rule_target_damage_is_caught() {
    use dice_tables_generator::rule_engine::{self, target};
    use dice_tables_reader::rule_sheet::{RuleSheet, RuleTarget};
    let rules = dice_tables_generator::rule_sets::preset("yacht").unwrap();
    let solution = rule_engine::solve(&rules).unwrap();
    let sheet = RuleSheet::from_vec(rule_engine::table(&solution).encode()).unwrap();
    let reach = target::solve(&rules, 3).unwrap();
    let f = target::table(&reach, &sheet, 3).unwrap().encode();
    let table = Table::from_vec(f.clone()).unwrap();
    RuleTarget::check(Table::from_vec(f.clone()).unwrap()).unwrap();
    let mut cases = damage_sweep(&f, 61);
    Table::from_vec(resigned(&table, "none", &|_| {})).unwrap();
    // Rules that are not text, or not the canonical text a rule set is
    // written as: refused before any lookup.
    let text = rules.to_text();
    let e = refuse(resigned(&table, "rules", &|b| b[3] = 0xff));
    assert!(e.to_string().contains("rules"), "{e}");
    let loose = text.replacen("rerolls = 2", "rerolls  2", 1).replacen(" = ", "=", 1);
    let e = refuse(resigned(&table, "rules", &|b| *b = loose.clone().into_bytes()));
    assert!(e.to_string().contains("rules"), "{e}");
    // A drop past the start: the first stored chance of a state decodes below 0.
    let e = refuse(resigned(&table, "p", &|b| {
        let chunk = b.len().min(98304);
        b[..chunk].fill(0xff);
    }));
    assert!(e.to_string().contains("below 0"), "{e}");
    // An index that runs backward.
    let e = refuse(resigned(&table, "state_index", &|b| b[8..12].copy_from_slice(&u32::MAX.to_le_bytes())));
    assert!(e.to_string().contains("state_index"), "{e}");
    cases += 4;
    eprintln!("rule target damage cases tried and caught: {cases}");
}

/// A rule set's parts table (forced Yatzy's): every header byte flipped,
/// random body bits, truncations and appended bytes are refused; so is a
/// table whose parts are coded otherwise (`differences` other than 1, or
/// none: an older generator's), in one line naming it.
#[test]
fn rule_parts_damage_is_caught() {
    use dice_tables_generator::rule_engine::{self, parts};
    let rules = dice_tables_generator::rule_sets::preset("forced-yatzy").unwrap();
    let f = parts::table(&rule_engine::solve(&rules).unwrap()).unwrap().encode();
    let table = Table::from_vec(f.clone()).unwrap();
    verify_bytes(f.clone()).unwrap();
    let mut cases = damage_sweep(&f, 62);
    let params: Vec<(&str, i64)> = table.header().params.iter().map(|p| (p.name.as_str(), p.value)).collect();
    let other: Vec<(&str, i64)> = params.iter().map(|&(n, v)| (n, if n == "differences" { 0 } else { v })).collect();
    let none: Vec<(&str, i64)> = params.iter().copied().filter(|p| p.0 != "differences").collect();
    for changed in [other, none] {
        let e = refuse(resigned_with(&table, &changed, &|_, _| {}));
        assert!(e.to_string().contains("differences"), "{changed:?}: {e}");
        cases += 1;
    }
    eprintln!("rule parts damage cases tried and caught: {cases}");
}

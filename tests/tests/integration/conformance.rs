//! A table written byte by byte from reader/FORMAT.md alone (not through the
//! generator's encoder, nor bincode) opens in the reader and answers with the
//! values written into it; and the generator's encoder, given the same
//! sections, writes the very same bytes.

use dice_tables_generator::artifact::{encode, Section};
use dice_tables_reader::format::{DType, Encoding};
use dice_tables_reader::yazy::{Action, Category, Mask, Yazy};
use dice_tables_reader::{Dice, Game};

/// The writer FORMAT.md describes: fixed-width little-endian integers,
/// strings and lists with a u64 length, enums as u32, blake3 as 32 bytes.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn string(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

/// One section as FORMAT.md lists it: name, dtype number, dims, encoding
/// number, decoded bytes per chunk, and its decoded bytes.
struct Spec {
    name: &'static str,
    dtype: u32,
    dims: Vec<u64>,
    zstd: bool,
    chunk_len: usize,
    decoded: Vec<u8>,
    /// Bytes stored after each chunk's own (empty for a valid table).
    after_each_chunk: Vec<u8>,
}

/// The file: preamble, header, then the sections at the first multiple of
/// 64 at or after the previous end, zeros between, ending where the last
/// section ends.
fn write_file(game: &str, params: &[(&str, i64)], specs: &[Spec]) -> Vec<u8> {
    // Per section, its chunks: each decoded piece and what is stored for it.
    let chunks: Vec<Vec<(&[u8], Vec<u8>)>> = specs
        .iter()
        .map(|s| {
            s.decoded
                .chunks(s.chunk_len.max(1))
                .map(|piece| {
                    let mut stored = if s.zstd { zstd::bulk::compress(piece, 19).unwrap() } else { piece.to_vec() };
                    stored.extend_from_slice(&s.after_each_chunk);
                    (piece, stored)
                })
                .collect()
        })
        .collect();
    let stored: Vec<Vec<u8>> = chunks.iter().map(|c| c.iter().flat_map(|(_, data)| data.clone()).collect()).collect();
    let header = |offsets: &[u64], file_len: u64| {
        let mut h = Bytes::default();
        h.string(game);
        h.u64(params.len() as u64);
        for (name, value) in params {
            h.string(name);
            h.0.extend_from_slice(&value.to_le_bytes());
        }
        h.u64(file_len);
        h.u64(specs.len() as u64);
        for (((s, data), offset), pieces) in specs.iter().zip(&stored).zip(offsets).zip(&chunks) {
            h.string(s.name);
            h.u32(s.dtype);
            h.u64(s.dims.len() as u64);
            for &d in &s.dims {
                h.u64(d);
            }
            h.u32(u32::from(s.zstd));
            h.u64(*offset);
            h.u64(data.len() as u64);
            h.u64(if s.decoded.is_empty() { 0 } else { s.chunk_len as u64 });
            h.u64(pieces.len() as u64);
            for (piece, stored) in pieces {
                h.u64(stored.len() as u64);
                h.0.extend_from_slice(blake3::hash(piece).as_bytes());
            }
        }
        h.0
    };
    // The header's length does not depend on the offsets (fixed-width integers).
    let header_len = header(&vec![0; specs.len()], 0).len() as u64;
    let mut offsets = Vec::new();
    let mut end = 48 + header_len;
    for data in &stored {
        let offset = end.div_ceil(64) * 64;
        offsets.push(offset);
        end = offset + data.len() as u64;
    }
    let header = header(&offsets, end);
    let mut file = Bytes::default();
    file.0.extend_from_slice(b"DICETBL\0");
    file.u32(2);
    file.u32(header.len() as u32);
    file.0.extend_from_slice(blake3::hash(&header).as_bytes());
    file.0.extend_from_slice(&header);
    for (data, offset) in stored.iter().zip(&offsets) {
        file.0.resize(*offset as usize, 0);
        file.0.extend_from_slice(data);
    }
    file.0.resize(end as usize, 0);
    file.0
}

/// The made-up table's turn-start value of mask `m`: 0 with no category
/// open (FORMAT.md requires it), else ten points an open category and a half.
fn made_up_turn_start(m: u32) -> f64 {
    if m == 0 {
        0.0
    } else {
        f64::from(m.count_ones()) * 10.0 + 0.5
    }
}

/// A made-up yazy table with one reroll: every number chosen here, so the
/// reader's answers can be predicted from FORMAT.md's formulas.
fn made_up_yazy() -> Vec<Spec> {
    let turn_start: Vec<u8> = (0..2048u32).flat_map(|m| made_up_turn_start(m).to_le_bytes()).collect();
    let category_points: Vec<u8> = (0..252 * 11).map(|i| ((i / 11 + i % 11) % 50) as u8).collect();
    // With the reroll left: keep all five (254), or nothing when no category is open (255).
    let best_keep: Vec<u8> =
        (0..2048u32).flat_map(|m| std::iter::repeat_n(if m == 0 { 255 } else { 254 }, 252)).collect();
    // Keep values at [0][block][byte][keep][mask in block]: K = keep * 1000 + mask.
    let mut keep_value = vec![0u8; 8 * 4 * 210 * 256];
    for mask in 0..2048usize {
        for keep in 0..210usize {
            let k = (keep * 1000 + mask) as u32;
            for byte in 0..4 {
                keep_value[((mask / 256 * 4 + byte) * 210 + keep) * 256 + mask % 256] = (k >> (8 * byte)) as u8;
            }
        }
    }
    vec![
        Spec {
            name: "turn_start",
            dtype: 4,
            dims: vec![2048],
            zstd: false,
            chunk_len: 16384,
            decoded: turn_start,
            after_each_chunk: vec![],
        },
        Spec {
            name: "category_points",
            dtype: 0,
            dims: vec![252, 11],
            zstd: false,
            chunk_len: 2772,
            decoded: category_points,
            after_each_chunk: vec![],
        },
        Spec {
            name: "best_keep",
            dtype: 0,
            dims: vec![1, 2048, 252],
            zstd: true,
            chunk_len: 64512,
            decoded: best_keep,
            after_each_chunk: vec![],
        },
        Spec {
            name: "keep_value",
            dtype: 0,
            dims: vec![1, 8, 4, 210, 256],
            zstd: true,
            chunk_len: 215040,
            decoded: keep_value,
            after_each_chunk: vec![],
        },
    ]
}

#[test]
fn a_table_written_from_the_spec_opens_and_answers() {
    let specs = made_up_yazy();
    let file = write_file("yazy", &[("rerolls", 1)], &specs);
    let yazy = Yazy::from_vec(file.clone()).expect("the hand-written table opens");
    assert_eq!(yazy.rerolls(), 1);
    assert_eq!(yazy.turn_start_value(Mask::ALL).unwrap(), 110.5);
    let points = |rank: usize, c: usize| ((rank + c) % 50) as f64;
    for (mask, dice) in
        [(Mask::ALL, "12456"), ("threes,yazy".parse().unwrap(), "33333"), (Mask::new(1024).unwrap(), "11111")]
    {
        let dice: Dice = dice.parse().unwrap();
        // V(m, d, 0) = max over open c of category_points[d][c] + turn_start[m without c],
        // the first such c in mask-bit order being the best category.
        let worth =
            |c: u8| points(dice.rank(), usize::from(c)) + made_up_turn_start(u32::from(mask.bits()) & !(1 << c));
        let mut c = mask.bits().trailing_zeros() as u8;
        for other in (0..11u8).filter(|&o| mask.bits() >> o & 1 == 1) {
            if worth(other) > worth(c) {
                c = other;
            }
        }
        let want = worth(c);
        assert_eq!(yazy.value(mask, dice, 0).unwrap(), want, "{mask} {dice}");
        assert_eq!(yazy.best_action(mask, dice, 0).unwrap(), Some(Action::Score(Category::new(c).unwrap())));
        assert_eq!(yazy.options(mask, dice, 0).unwrap().len(), mask.bits().count_ones() as usize);
        // With the reroll left: best_keep says keep all five, which is
        // scoring now, worth the same.
        assert_eq!(yazy.best_action(mask, dice, 1).unwrap(), Some(Action::Score(Category::new(c).unwrap())));
        assert_eq!(yazy.value(mask, dice, 1).unwrap(), want);
        // A partial keep is worth K / 65536 from its block's four byte planes.
        let options = yazy.options(mask, dice, 1).unwrap();
        let keep: Dice = dice.faces().take(2).map(|f| char::from(b'0' + f)).collect::<String>().parse().unwrap();
        let listed = options.iter().find(|o| o.action == Action::Keep(keep)).unwrap();
        let k = keep.graded_rank() as f64 * 1000.0 + f64::from(mask.bits());
        assert_eq!(listed.ev, k / 65536.0, "{mask} keep {keep}");
    }
    assert_eq!(yazy.value(Mask::NONE, "12345".parse().unwrap(), 0).unwrap(), 0.0);
    // Every chunk verifies, as `reader verify` checks them.
    dice_tables_reader::verify_bytes(file.clone()).unwrap();

    // The generator's encoder writes the same bytes for the same sections.
    let sections = specs
        .into_iter()
        .map(|s| {
            let dtype = [DType::U8, DType::U16, DType::U32, DType::F32, DType::F64][s.dtype as usize];
            let chunk_len = s.chunk_len;
            Section::new(s.name, dtype, s.dims, if s.zstd { Encoding::Zstd } else { Encoding::Raw }, s.decoded)
                .chunked(chunk_len)
        })
        .collect();
    assert!(encode("yazy", &[("rerolls", 1)], sections) == file, "the encoder and FORMAT.md disagree");
}

/// The same file with a byte of any one field changed is refused: the
/// hand-written layout is what the reader checks, not merely what it accepts.
#[test]
fn the_spec_rules_are_enforced_on_the_hand_written_table() {
    let specs = made_up_yazy();
    let good = write_file("yazy", &[("rerolls", 1)], &specs);
    // A parameter the game does not have.
    assert!(Yazy::from_vec(write_file("yazy", &[("rerolls", 1), ("bonus", 35)], &specs)).is_err());
    // A parameter given twice.
    assert!(Yazy::from_vec(write_file("yazy", &[("rerolls", 1), ("rerolls", 1)], &specs)).is_err());
    // A missing parameter: no default is assumed.
    assert!(Yazy::from_vec(write_file("yazy", &[], &specs)).is_err());
    // A stored byte of a raw chunk changed: its checksum catches it.
    let mut flipped = good.clone();
    let turn_start = &dice_tables_reader::format::parse_header(&good).unwrap().sections[0];
    flipped[turn_start.offset as usize + 100] ^= 1;
    assert!(dice_tables_reader::verify_bytes(flipped).unwrap_err().to_string().contains("checksum"));
    // A section stored with another encoding than the spec's.
    let mut raw = made_up_yazy();
    raw[2].zstd = false;
    let e = Yazy::from_vec(write_file("yazy", &[("rerolls", 1)], &raw)).unwrap_err();
    assert!(e.to_string().contains("stored raw, but a yazy table stores it zstd"), "{e}");
    // Sections out of the spec's order.
    let mut swapped = made_up_yazy();
    swapped.swap(0, 1);
    assert!(Yazy::from_vec(write_file("yazy", &[("rerolls", 1)], &swapped)).is_err());
    // Chunks that do not cover the section in whole elements.
    let mut odd = made_up_yazy();
    odd[0].chunk_len = 1001;
    let e = Yazy::from_vec(write_file("yazy", &[("rerolls", 1)], &odd)).unwrap_err();
    assert!(e.to_string().contains("do not cover"), "{e}");
    // Chunks that do, but are not the game's: lookups read chunks by position.
    let mut other = made_up_yazy();
    other[3].chunk_len = 4096;
    let e = Yazy::from_vec(write_file("yazy", &[("rerolls", 1)], &other)).unwrap_err();
    assert!(e.to_string().contains("is in chunks of 4096 bytes, but a yazy table has 215040"), "{e}");
    // Bytes after the end.
    let mut longer = good.clone();
    longer.push(0);
    assert!(Yazy::from_vec(longer).is_err());
    // A zstd chunk is one frame: an empty frame after it is refused.
    let mut two_frames = made_up_yazy();
    two_frames[2].after_each_chunk = zstd::bulk::compress(&[], 19).unwrap();
    let e = dice_tables_reader::verify_bytes(write_file("yazy", &[("rerolls", 1)], &two_frames)).unwrap_err();
    assert!(e.to_string().contains("bytes after its zstd frame: a chunk is one frame"), "{e}");
    // turn_start[0] (no category open) is 0.
    let mut start = made_up_yazy();
    start[0].decoded[..8].copy_from_slice(&1.0f64.to_le_bytes());
    let e = dice_tables_reader::verify_bytes(write_file("yazy", &[("rerolls", 1)], &start)).unwrap_err();
    assert!(e.to_string().contains("mask 0 (no category open), which must be 0"), "{e}");
    Yazy::from_vec(good).unwrap();
}

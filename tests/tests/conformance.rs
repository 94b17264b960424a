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
/// number, and its decoded bytes.
struct Spec {
    name: &'static str,
    dtype: u32,
    dims: Vec<u64>,
    zstd: bool,
    decoded: Vec<u8>,
}

/// The file: preamble, header, then the sections at the first multiple of
/// 64 at or after the previous end, zeros between, ending where the last
/// section ends.
fn write_file(game: &str, params: &[(&str, i64)], specs: &[Spec]) -> Vec<u8> {
    let stored: Vec<Vec<u8>> = specs
        .iter()
        .map(|s| if s.zstd { zstd::bulk::compress(&s.decoded, 19).unwrap() } else { s.decoded.clone() })
        .collect();
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
        for ((s, data), offset) in specs.iter().zip(&stored).zip(offsets) {
            h.string(s.name);
            h.u32(s.dtype);
            h.u64(s.dims.len() as u64);
            for &d in &s.dims {
                h.u64(d);
            }
            h.u32(u32::from(s.zstd));
            h.u64(*offset);
            h.u64(data.len() as u64);
            h.0.extend_from_slice(blake3::hash(&s.decoded).as_bytes());
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
    file.u32(1);
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

/// A made-up yazy table with no rerolls: every number chosen here, so the
/// reader's answers can be predicted from FORMAT.md's formulas.
fn made_up_yazy() -> Vec<Spec> {
    let turn_start: Vec<u8> =
        (0..2048u32).flat_map(|m| (f64::from(m.count_ones()) * 10.0 + 0.5).to_le_bytes()).collect();
    let category_points: Vec<u8> = (0..252 * 11).map(|i| ((i / 11 + i % 11) % 50) as u8).collect();
    // The lowest open category, 255 when none is open.
    let best_category: Vec<u8> = (0..2048u32)
        .flat_map(|m| std::iter::repeat_n(if m == 0 { 255 } else { m.trailing_zeros() as u8 }, 252))
        .collect();
    vec![
        Spec { name: "turn_start", dtype: 4, dims: vec![2048], zstd: false, decoded: turn_start },
        Spec { name: "category_points", dtype: 0, dims: vec![252, 11], zstd: false, decoded: category_points },
        Spec { name: "best_category", dtype: 0, dims: vec![2048, 252], zstd: true, decoded: best_category },
        Spec { name: "best_keep", dtype: 0, dims: vec![0, 2048, 252], zstd: false, decoded: vec![] },
        Spec { name: "keep_value", dtype: 0, dims: vec![0, 4, 210, 2048], zstd: false, decoded: vec![] },
    ]
}

#[test]
fn a_table_written_from_the_spec_opens_and_answers() {
    let specs = made_up_yazy();
    let file = write_file("yazy", &[("rerolls", 0)], &specs);
    let yazy = Yazy::from_vec(file.clone()).expect("the hand-written table opens");
    assert_eq!(yazy.rerolls(), 0);
    assert_eq!(yazy.turn_start_value(Mask::ALL), 110.5);
    let points = |rank: usize, c: usize| ((rank + c) % 50) as f64;
    for (mask, dice) in
        [(Mask::ALL, "12456"), ("threes,yazy".parse().unwrap(), "33333"), (Mask::new(1024).unwrap(), "11111")]
    {
        let dice: Dice = dice.parse().unwrap();
        let c = mask.bits().trailing_zeros() as u8;
        let rest = mask.bits() & !(1 << c);
        // V(m, d, 0) = category_points[d][c] + turn_start[m without c], c = best_category[m][d].
        let want = points(dice.rank(), usize::from(c)) + f64::from(rest.count_ones()) * 10.0 + 0.5;
        assert_eq!(yazy.value(mask, dice, 0).unwrap(), want, "{mask} {dice}");
        assert_eq!(yazy.best_action(mask, dice, 0).unwrap(), Some(Action::Score(Category::new(c).unwrap())));
        assert_eq!(yazy.options(mask, dice, 0).unwrap().len(), mask.bits().count_ones() as usize);
    }
    assert_eq!(yazy.value(Mask::NONE, "12345".parse().unwrap(), 0).unwrap(), 0.0);

    // The generator's encoder writes the same bytes for the same sections.
    let sections = specs
        .into_iter()
        .map(|s| {
            let dtype = [DType::U8, DType::U16, DType::U32, DType::F32, DType::F64][s.dtype as usize];
            Section::new(s.name, dtype, s.dims, if s.zstd { Encoding::Zstd } else { Encoding::Raw }, s.decoded)
        })
        .collect();
    assert!(encode("yazy", &[("rerolls", 0)], sections) == file, "the encoder and FORMAT.md disagree");
}

/// The same file with a byte of any one field changed is refused: the
/// hand-written layout is what the reader checks, not merely what it accepts.
#[test]
fn the_spec_rules_are_enforced_on_the_hand_written_table() {
    let specs = made_up_yazy();
    let good = write_file("yazy", &[("rerolls", 0)], &specs);
    // A parameter the game does not have.
    assert!(Yazy::from_vec(write_file("yazy", &[("rerolls", 0), ("bonus", 35)], &specs)).is_err());
    // A parameter given twice.
    assert!(Yazy::from_vec(write_file("yazy", &[("rerolls", 0), ("rerolls", 0)], &specs)).is_err());
    // A missing parameter: no default is assumed.
    assert!(Yazy::from_vec(write_file("yazy", &[], &specs)).is_err());
    // A section stored with another encoding than the spec's.
    let mut raw = made_up_yazy();
    raw[2].zstd = false;
    let e = Yazy::from_vec(write_file("yazy", &[("rerolls", 0)], &raw)).unwrap_err();
    assert!(e.to_string().contains("stored raw, but a yazy table stores it zstd"), "{e}");
    // Sections out of the spec's order.
    let mut swapped = made_up_yazy();
    swapped.swap(0, 1);
    assert!(Yazy::from_vec(write_file("yazy", &[("rerolls", 0)], &swapped)).is_err());
    // Bytes after the end.
    let mut longer = good.clone();
    longer.push(0);
    assert!(Yazy::from_vec(longer).is_err());
    Yazy::from_vec(good).unwrap();
}

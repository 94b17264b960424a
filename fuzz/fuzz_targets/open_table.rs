//! Any bytes opened as a table of each game: a typed error, or a table whose
//! lookups each answer or report a damaged chunk; never a panic, a hang or an
//! allocation beyond the game's own dimensions. The same bytes read in
//! pieces too, each chunk supplied when a lookup asks for it.
#![no_main]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

use dice_tables_reader::combo::Combo;
use dice_tables_reader::duel::{CardgamesDuel, Duel, Scoring, SeedDuel};
use dice_tables_reader::maxi::{self, Maxi, MaxiPreset, MaxiYatzy, MaxiYatzySwedish};
use dice_tables_reader::sheet::{ScoreSheet, SheetGame};
use dice_tables_reader::tenk::{Phase, Tenk};
use dice_tables_reader::threes::{Situation, Threes};
use dice_tables_reader::yazy::{Mask, Yazy};
use std::sync::Arc;

use dice_tables_lookup::{LookupError, Query};
use dice_tables_reader::{Dice, Game, Pieces, TableError, TableErrorKind, Tables};
use dice_tables_reader::{Yahtzee, Yatzy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Everything `reader verify` checks.
    let _ = dice_tables_reader::verify_bytes(data.to_vec());
    let five: Dice = "12456".parse().unwrap();
    if let Ok(yazy) = Yazy::from_vec(data.to_vec()) {
        for mask in [Mask::ALL, "ones,yazy".parse().unwrap()] {
            let _ = yazy.turn_start_value(mask);
            for r in 0..=yazy.rerolls() {
                let _ = (yazy.value(mask, five, r), yazy.best_action(mask, five, r), yazy.options(mask, five, r));
            }
        }
    }
    if let Ok(combo) = Combo::from_vec(data.to_vec()) {
        let _ = combo.game_start_value();
        for r in 0..=combo.rerolls() {
            let _ = (combo.value(five, r), combo.best_keep(five, r), combo.options(five, r));
        }
    }
    if let Ok(threes) = Threes::from_vec(data.to_vec()) {
        let s = Situation { record: Some(8), after: 3, ..Situation::default() };
        for d in 0..=5 {
            let _ = threes.chance(s, d);
        }
        for roll in ["31324", "66666", "3", "12"] {
            let _ = threes.options(s, roll.parse().unwrap());
            let _ = threes.expected_options(0, roll.parse().unwrap());
        }
    }
    if let Ok(tenk) = Tenk::from_vec(data.to_vec()) {
        for d in 1..=6 {
            let _ = (tenk.turn_value(d, 500), tenk.reach(d, 500));
            tenk.bank_threshold(d);
        }
        for throw in ["1", "155", "123456", "223346", "666666"] {
            let _ = tenk.options(throw.parse().unwrap(), 300, Phase::OnBoard);
            let _ = tenk.options(throw.parse().unwrap(), 950, Phase::Opening);
        }
    }
    if let Ok(yatzy) = Yatzy::from_vec(data.to_vec()) {
        sheet_lookups(&yatzy, &[32767, 1, 0b100_0000_0111_1111]);
    }
    if let Ok(yahtzee) = Yahtzee::from_vec(data.to_vec()) {
        sheet_lookups(&yahtzee, &[8191, 4096, 0b111_1100_0000]);
    }
    if let Ok(duel) = SeedDuel::from_vec(data.to_vec()) {
        duel_lookups(&duel);
    }
    if let Ok(duel) = CardgamesDuel::from_vec(data.to_vec()) {
        duel_lookups(&duel);
    }
    if let Ok(maxi) = MaxiYatzy::from_vec(data.to_vec()) {
        maxi_lookups(&maxi);
    }
    if let Ok(maxi) = MaxiYatzySwedish::from_vec(data.to_vec()) {
        maxi_lookups(&maxi);
    }
    in_pieces(data);
});

/// The bytes read in pieces as the game their header names: opened, then a
/// few lookups through the lookup layer, each chunk supplied from the bytes
/// when asked for (a bounded number of times).
fn in_pieces(data: &[u8]) {
    let len = data.len() as u64;
    let Ok(first) = Pieces::prefix_len(data, len) else { return };
    let Ok(pieces) = Pieces::new(data[..first].to_vec(), len) else { return };
    let Some(info) = dice_tables_reader::game_named(&pieces.header().game) else { return };
    let pieces = Arc::new(pieces);
    let supply = |e: &TableError| match *e.kind() {
        TableErrorKind::Needed { offset, len, .. } => {
            let at = offset as usize;
            pieces.supply(offset, data[at..at + len as usize].to_vec()).is_ok()
        }
        _ => false,
    };
    let tables = Tables::in_memory("(pieces)");
    let mut opened = false;
    for _ in 0..64 {
        match info.pieces_into(&tables, &pieces) {
            Ok(()) => opened = true,
            Err(e) if supply(&e) => continue,
            Err(_) => {}
        }
        break;
    }
    if !opened {
        return;
    }
    let queries: &[(&str, &str)] = &[
        ("yazy", "mask=all&dice=12456&rerolls=2"),
        ("combo", "dice=12456&rerolls=3"),
        ("threes", "dice=31324&after=3"),
        ("tenk", "dice=155&score=300"),
        ("yatzy", "mask=all&upper=0&dice=11666&rerolls=1"),
        ("yahtzee", "mask=all&upper=0&dice=55555&rerolls=0"),
        ("duel", "me=2500&opp=4000&dice=155&score=300"),
        ("maxi-yatzy", "mask=all&upper=0&dice=134566&rerolls=2"),
    ];
    for (game, query) in queries {
        let Ok(query) = Query::from_query_string(game, query) else { continue };
        for _ in 0..64 {
            match query.answer(&tables) {
                Err(LookupError::Table(e)) if supply(&e) => continue,
                _ => break,
            }
        }
    }
}

/// Turn starts and a roll's options, with every count of rerolls a turn
/// from a few states can hold, and the exceptions listed.
fn maxi_lookups<P: MaxiPreset>(t: &Maxi<P>) {
    let six: Dice = "134566".parse().unwrap();
    for (mask, upper, saved) in [(maxi::ALL, 0, 0), (1 << 18, 0, 2), (0b11 << 18 | 1, 5, 4)] {
        let Ok(state) = t.state(mask, upper, saved) else { continue };
        let _ = t.turn_start_value(state);
        for r in 0..=t.rules().turn_rerolls(saved as usize) as u8 {
            let _ = t.options(state, six, r);
        }
    }
    let _ = t.exceptions();
}

/// Turn starts, a throw's keeps, a state before a throw, and a whole turn,
/// at a few pairs of totals.
fn duel_lookups<S: Scoring>(duel: &Duel<S>) {
    let goal = duel.params().goal;
    for (me, opp) in [(0, 0), (goal.saturating_sub(50), 0), (0, goal.saturating_sub(50)), (2500, 4000)] {
        let _ = duel.win_chance(me, opp);
        for (throw, score) in [("155", 300), ("123456", 0), ("2346", 50), ("1", 9950)] {
            let _ = duel.options(me, opp, throw.parse().unwrap(), score);
        }
        let _ = duel.before_throw(me, opp, 3, 300);
        if let Ok(turn) = duel.turn(me, opp) {
            let _ = (turn.bust(), turn.bank(1000), turn.before_throw(6, 0));
        }
    }
}

/// Turn starts, every option of a few rolls, and a whole turn, in a few states.
fn sheet_lookups<G: SheetGame>(t: &ScoreSheet<G>, masks: &[u32]) {
    for &mask in masks {
        for (upper, flag) in [(0, false), (63, true), (105, false)] {
            let Ok(state) = t.state(mask, upper, flag) else { continue };
            let _ = t.turn_start_value(state);
            for roll in ["12345", "66666", "11223"] {
                for rerolls in 0..=2 {
                    let _ = t.options(state, roll.parse().unwrap(), rerolls);
                }
            }
            if let Ok(turn) = t.turn(state) {
                let _ = turn.options("44444".parse().unwrap(), 2);
            }
        }
    }
}

//! The reader's argument parsers on any string: a value or a one-line
//! message, never a panic.
#![no_main]

use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::yazy::Category;
use dice_tables_reader::Dice;
use libfuzzer_sys::fuzz_target;

/// The reader command line's parsers, compiled from its source as they are.
#[path = "../../src/bin/reader/args.rs"]
mod cli;

fn one_line<T>(r: Result<T, String>) {
    if let Err(msg) = r {
        assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    one_line(cli::parse_mask(s));
    one_line(cli::parse_five_dice(s));
    one_line(cli::parse_throw(s));
    one_line(cli::parse_rerolls(s));
    one_line(cli::parse_points(s));
    one_line(cli::parse_record(s));
    one_line(cli::parse_after(s));
    one_line(cli::parse_remaining(s));
    one_line(cli::parse_tenk_throw(s));
    one_line(cli::parse_tenk_remaining(s));
    one_line(cli::parse_score(s));
    one_line(cli::parse_ties(s));
    one_line(cli::parse_model(s));
    one_line(cli::parse_yatzy_mask(s));
    one_line(cli::parse_yahtzee_mask(s));
    one_line(cli::parse_total(s));
    one_line(cli::parse_upper(s));
    let _ = s.parse::<Dice>().map(|d| (d.rank(), d.graded_rank(), d.to_string()));
    let _ = s.parse::<Category>();
    let _ = s.parse::<Ties>();
    let _ = s.parse::<Model>();
});

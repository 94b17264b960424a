//! The lookups' argument parsers on any string, and whole lookups built
//! from any arguments: a value or a one-line message, never a panic.
#![no_main]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

use dice_tables_lookup::Query;
use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::yazy::Category;
use dice_tables_reader::Dice;
use libfuzzer_sys::fuzz_target;

/// The lookups' parsers, as the command line and the Python package use them.
use dice_tables_lookup::parse as cli;

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
    one_line(cli::parse_objective(s));
    one_line(cli::parse_duel_rules(s));
    // A whole lookup as the HTTP server reads it: GAME?QUERY-STRING.
    let (game, qs) = s.split_once('?').unwrap_or((s, ""));
    one_line(Query::from_query_string(game, qs).and_then(|q| q.check()).map_err(|e| e.to_string()));
    let _ = s.parse::<Dice>().map(|d| (d.rank(), d.graded_rank(), d.to_string()));
    let _ = s.parse::<Category>();
    let _ = s.parse::<Ties>();
    let _ = s.parse::<Model>();
});

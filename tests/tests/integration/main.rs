//! The end-to-end tests as one test binary, a module per area (the tables
//! each module needs are generated once for all of them). What needs the
//! machine to itself runs as a binary of its own: `serve_flood.rs`,
//! `serve_ops.rs`.

mod c_api;
mod cli;
mod cli_forms;
mod cli_io;
mod combo;
mod conformance;
mod crash_safety;
mod duel;
mod format;
mod golden;
mod manifest;
mod maxi;
mod pieces;
mod readme;
mod release;
mod review;
mod rule_duel;
mod rule_engine;
mod rule_parts;
mod rule_tables;
mod serve;
mod sheet;
mod sheet_target;
mod tenk;
mod tenk_review;
mod threes;
mod threes_review;
mod wording;
mod yazy;
mod yazy_duel;
mod yazy_target;

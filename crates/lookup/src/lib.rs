//! Lookups as the front ends ask them: `reader lookup G ... --json`,
//! `reader serve`, the Python package, the WebAssembly module and any other
//! program that speaks in arguments and JSON. (Apps that call the game
//! views of `dice-tables-reader` directly do not need this crate.)
//!
//! A [`Query`] is one game's lookup with its arguments parsed; its
//! [`answer`](Query::answer) is the JSON the command line prints, as a
//! [`Json`] tree. [`Query::from_args`] builds a query from named arguments
//! (the command line's flags without their dashes), refusing bad ones with
//! a [`LookupError`] that holds what was given and what is accepted, so
//! every front end accepts and refuses the same things, each naming the
//! arguments in its own [`Terms`].
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use dice_tables_lookup::{Arg, Query};
//! use dice_tables_reader::Tables;
//! let tables = Tables::open_default()?;
//! let query = Query::from_args("yazy", &[("mask", Arg::Text("all")), ("dice", Arg::Ints(&[1, 2, 4, 5, 6])), ("rerolls", Arg::Int(2))])?;
//! let answer = query.answer(&tables)?;
//! assert_eq!(answer.get("best").unwrap().to_string(), r#"{"keep":"245"}"#);
//! # Ok(()) }
//! ```
//!
//! Features (both off by default, so that the WebAssembly module stays
//! small): `text`, the answers as text for people (`Query::text`, what
//! `reader lookup` prints without `--json`) and the arguments' help;
//! `values`, whole tables' values ([`GameTable::values`], Python's
//! `values()`).
#![deny(missing_docs)]

mod args;
mod checks;
mod curve;
mod error;
mod games;
mod json;
pub mod parse;
mod queries;
mod query;
mod query_string;
#[cfg(not(feature = "solitaire-only"))]
pub mod reason;
mod reply;
#[cfg(not(feature = "solitaire-only"))]
pub mod review;
#[cfg(feature = "text")]
mod text;
mod values;

pub use args::Arg;
pub use curve::{curve, curve_games, curve_json, curve_rows};
pub use error::{directory_error, LookupError, Terms};
#[cfg(not(feature = "solitaire-only"))]
pub use games::rule_sheet::{is_rule_set_name, rule_table_info, LOOKUP as RULE_SET_LOOKUP};
pub use games::{maxi_rules_name, table_named, tables_with_values, Argument, GameTable, LookupInfo, LOOKUPS};
pub use json::Json;
#[cfg(feature = "example-game")]
pub use queries::OneDieQuery;
#[cfg(not(feature = "solitaire-only"))]
pub use queries::RuleSetQuery;
pub use queries::{
    ComboQuery, DuelQuery, DuelRules, MaxiQuery, MaxiRules, Query, SheetQuery, TenkQuery, ThreesQuery, ToMove,
    YazyQuery,
};
pub use query_string::{parse_query_string, MAX_QUERY_BYTES, MAX_QUERY_PARAMS};
pub use values::StoredValues;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_of_a_game_is_the_readers() {
        for lookup in LOOKUPS {
            let reader = dice_tables_reader::game_named(lookup.game).expect("a table of the game's id");
            assert!(lookup.aliases.starts_with(reader.aliases), "{}: {:?}", lookup.game, lookup.aliases);
            for name in lookup.aliases {
                let table = dice_tables_reader::game_named(name).map(|g| g.id);
                assert!(table == Some(lookup.game) || table == Some(name), "{name}: {table:?}");
                assert_eq!(LookupInfo::find(name).map(|l| l.game), Some(lookup.game));
            }
        }
        assert_eq!(dice_tables_reader::game_named("maxi").map(|g| g.id), Some("maxi-yatzy"));
        assert_eq!(curve_games(), ["yazy", "yatzy", "yahtzee"]);
        let with_values = ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames"];
        assert_eq!(tables_with_values(), if cfg!(feature = "values") { &with_values[..] } else { &[] });
    }

    #[test]
    fn every_argument_is_named_once_and_explained() {
        for lookup in LOOKUPS {
            let mut names: Vec<&str> = lookup.arguments.iter().map(|a| a.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), lookup.arguments.len(), "{}: an argument twice", lookup.game);
            // Words for people are in builds with the feature `text` (the command line's).
            let for_people = |words: &str| if cfg!(feature = "text") { words.ends_with('.') } else { words.is_empty() };
            assert!(for_people(lookup.about), "{}", lookup.game);
            for a in lookup.arguments {
                let help = lookup.help(a);
                assert!(for_people(&help) && !help.contains("{mask}"), "{} --{}: {help}", lookup.game, a.name);
                if a.help.contains("{mask}") && cfg!(feature = "text") {
                    assert!(help.contains(&lookup.categories.join(",")), "{help}");
                }
            }
            // A game's tables: its own first; several only told apart by rules.
            assert_eq!(lookup.tables.first().map(|t| t.id), Some(lookup.game));
            assert!(lookup.tables.iter().all(|t| t.rules.is_some() == (lookup.tables.len() > 1)), "{}", lookup.game);
            assert!(lookup.tables.iter().all(|t| dice_tables_reader::game_named(t.id).is_some()));
            let (required, optional) = (lookup.required(), lookup.optional());
            assert_eq!(required.len() + optional.len(), lookup.arguments.len());
        }
    }

    #[test]
    fn arguments_in_every_form_parse_alike() {
        let text = Query::from_args("yazy", &[("mask", Arg::Text("ones,yazy")), ("dice", Arg::Text("12456"))]).unwrap();
        let ints = Query::from_args("yazy", &[("mask", Arg::Ints(&[0, 10])), ("dice", Arg::Ints(&[1, 2, 4, 5, 6]))]);
        let names = Query::from_args("yazy", &[("mask", Arg::Names(&["ones", "yazy"])), ("dice", Arg::Text("12456"))]);
        let number = Query::from_args("yazy", &[("mask", Arg::Int(1025)), ("dice", Arg::Text("12456"))]);
        assert_eq!(ints.unwrap(), text);
        assert_eq!(names.unwrap(), text);
        assert_eq!(number.unwrap(), text);
        let bonus = |v| {
            Query::from_args("yahtzee", &[("mask", Arg::Text("all")), ("upper", Arg::Int(0)), ("yahtzee_bonus", v)])
        };
        for (v, set) in
            [(Arg::Flag(true), true), (Arg::Text(""), true), (Arg::Text("false"), false), (Arg::Flag(false), false)]
        {
            let Query::Yahtzee(q) = bonus(v).unwrap() else { panic!("yahtzee") };
            assert_eq!(q.yahtzee_bonus, set);
        }
        assert!(matches!(Query::from_args("10000", &[]).unwrap(), Query::Tenk(_)));
        assert!(matches!(
            Query::from_args("tenk2", &[("me", Arg::Int(0)), ("opp", Arg::Int(0))]).unwrap(),
            Query::Duel(_)
        ));
    }

    #[test]
    fn a_preset_table_refuses_the_other_rules() {
        let refusal = |game, rules| {
            let query =
                Query::from_args(game, &[("rules", Arg::Text(rules)), ("me", Arg::Int(0)), ("opp", Arg::Int(0))]);
            query.and_then(|q| q.check()).unwrap_err().message(Terms::CommandLine)
        };
        assert_eq!(
            refusal("duel-cardgames", "seed"),
            "duel-cardgames is duel with --rules=cardgames: drop --rules=seed, or ask duel"
        );
        let maxi =
            Query::from_args("maxi-yatzy-swedish", &[("rules", Arg::Text("finnish")), ("mask", Arg::Text("all"))]);
        assert_eq!(
            maxi.and_then(|q| q.check()).unwrap_err().message(Terms::CommandLine),
            "maxi-yatzy-swedish is maxi-yatzy with --rules=swedish: drop --rules=finnish, or ask maxi-yatzy"
        );
    }

    #[test]
    fn a_missing_table_names_the_command_that_writes_it() {
        let dir = std::env::temp_dir().join(format!("dice-tables-missing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tables = dice_tables_reader::Tables::open_dir(&dir).unwrap();
        let ask = |game, args: &[(&str, Arg<'_>)]| Query::from_args(game, args).unwrap().answer(&tables).unwrap_err();
        // make tables writes it, but generator's default set does not: the message names the game.
        let maxi = ask("maxi-yatzy", &[("mask", Arg::Text("all"))]).to_string();
        assert!(maxi.ends_with("run `make tables` (or `generator --games maxi-yatzy`) to write it"), "{maxi}");
        let combo = ask("combo", &[]).to_string();
        assert!(combo.ends_with("run `make tables` (or `generator --games combo`) to write it"), "{combo}");
        let need = ask("yazy", &[("mask", Arg::Text("all")), ("need", Arg::Int(200))]).to_string();
        assert!(need.contains("build it with `make yazy-target` (or `generator --games yazy-target`"), "{need}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn query_strings_decode_and_are_bounded() {
        let pairs = parse_query_string("mask=ones%2Cyazy&dice=12456&opening&x=a+b&&").unwrap();
        let want = [("mask", Some("ones,yazy")), ("dice", Some("12456")), ("opening", None), ("x", Some("a b"))];
        let got: Vec<(&str, Option<&str>)> = pairs.iter().map(|(n, v)| (n.as_str(), v.as_deref())).collect();
        assert_eq!(got, want);
        assert_eq!(
            Query::from_query_string("yazy", "mask=all&dice=12456&rerolls=2").unwrap(),
            Query::from_args(
                "yazy",
                &[("mask", Arg::Text("all")), ("dice", Arg::Text("12456")), ("rerolls", Arg::Int(2))]
            )
            .unwrap()
        );
        for bad in ["mask=%", "mask=%4", "mask=%zz", "mask=%ff", &"a=1&".repeat(17), &"x".repeat(MAX_QUERY_BYTES + 1)] {
            let msg = parse_query_string(bad).unwrap_err().to_string();
            assert!(!msg.contains('\n') && msg.len() < 200, "{bad:?}: {msg}");
        }
        // Any bytes: an answer or one line, never a panic.
        let mut x = 0x9e3779b97f4a7c15u64;
        for _ in 0..20_000 {
            let len = (x % 40) as usize;
            let s: String = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let alphabet = b"%&=+abcdemaskiruols0123456789,xZ\xff";
                    alphabet[(x % alphabet.len() as u64) as usize] as char
                })
                .collect();
            for game in ["yazy", "duel", "threes"] {
                if let Err(e) = Query::from_query_string(game, &s).and_then(|q| q.check()) {
                    assert!(!e.to_string().contains('\n'));
                }
            }
        }
    }

    #[test]
    fn bad_arguments_get_one_line_that_says_why() {
        type Case<'a> = (&'a str, Vec<(&'a str, Arg<'a>)>, &'a str);
        let cases: Vec<Case> = vec![
            ("Chess!", vec![], "no game \"Chess!\": the games are yazy, combo"),
            ("yazy", vec![], "yazy lookups need --mask"),
            ("yazy", vec![("mask", Arg::Text("all")), ("colour", Arg::Int(1))], "yazy has no argument \"colour\""),
            ("yazy", vec![("mask", Arg::Ints(&[11]))], "mask category number 11 is not 0 to 10"),
            ("yazy", vec![("mask", Arg::Text("all")), ("dice", Arg::Ints(&[1, 2, 3, 4, 17]))], "die 17 is not a face"),
            ("yazy", vec![("mask", Arg::Text("all")), ("dice", Arg::Ints(&[1, 2, 3, 4, 7]))], "7"),
            ("yazy", vec![("mask", Arg::Flag(true))], "--mask takes a value"),
            ("tenk", vec![("opening", Arg::Text("maybe"))], "--opening takes no value"),
            ("tenk", vec![("score", Arg::Int(3)), ("score", Arg::Int(3))], "--score is given more than once"),
            (
                "duel",
                vec![("me", Arg::Int(0)), ("opp", Arg::Int(0)), ("rules", Arg::Text("house"))],
                "rules \"house\" is not seed or cardgames",
            ),
            ("threes", vec![("objective", Arg::Text("lose"))], "objective \"lose\" is not win or expected"),
        ];
        for (game, args, want) in cases {
            let msg = Query::from_args(game, &args).unwrap_err().to_string();
            assert!(msg.contains(want) && !msg.contains('\n'), "{game} {args:?}: {msg}");
        }
        // A name of a rule set's form is looked for as its table when answered.
        let chess = Query::from_args("chess", &[]).unwrap();
        let msg = chess.answer(&dice_tables_reader::Tables::in_memory("tables")).unwrap_err().to_string();
        assert!(msg.starts_with("no game \"chess\" (the games are yazy, combo"), "{msg}");
        assert!(msg.contains("nor a rule set's table") && !msg.contains('\n'), "{msg}");
    }
}

//! `reader lookup GAME --ARGS`: each game's subcommand is built from the
//! lookup layer's registry (its names, its arguments and their help), and
//! its answer is the lookup layer's, as JSON or as text. Nothing here
//! names a game.

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{value_parser, Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};
use dice_tables_lookup::{is_rule_set_name, LookupError, LookupInfo, Query, LOOKUPS, RULE_SET_LOOKUP};

use crate::directory::tables;
use crate::output::Failure;

/// A lookup as the command line gave it.
#[derive(Debug)]
pub struct GameArgs {
    /// The game as it was named: another name can name its rules
    /// (`duel-cardgames` is `duel --rules cardgames`).
    name: String,
    /// Each argument given: its value's text, or `None` for a flag.
    given: Vec<(&'static str, Option<String>)>,
    json: bool,
    tables: Option<PathBuf>,
}

/// The subcommand `name` (the game's id, or `hidden`, another of its names).
fn game_command(lookup: &'static LookupInfo, name: impl Into<clap::builder::Str>, hidden: bool) -> Command {
    // clap's help drops the final full stop of a one-line help, as rustdoc's derive does.
    let line = |s: &str| s.strip_suffix('.').unwrap_or(s).to_string();
    let mut command = Command::new(name).about(line(lookup.about)).hide(hidden);
    for a in lookup.arguments {
        let arg = Arg::new(a.name).long(a.name).help(line(&lookup.help(a)));
        command = command.arg(match a.value {
            Some(value) => arg.value_name(value).required(a.required).allow_hyphen_values(true),
            None => arg.action(ArgAction::SetTrue),
        });
    }
    command
        .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("Print one JSON object instead of text"))
        .arg(
            Arg::new("tables")
                .long("tables")
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help("Directory holding the tables (default: `$DICE_TABLES`, else ./tables)"),
        )
}

impl Subcommand for GameArgs {
    /// A subcommand for every game of the registry, and a hidden one for
    /// each of its other names (which clap would not tell apart as aliases).
    fn augment_subcommands(mut command: Command) -> Command {
        // Any other name is a rule set's table (`reader lookup crag`).
        command = command.allow_external_subcommands(true).after_help(
            "Any other NAME looks up the table of a rule set NAME.dtab in the tables directory (`make tables` writes \
             the presets', `generator --rules FILE.toml` your own; `reader verify` lists what the directory holds), \
             with the arguments `reader lookup NAME --help` lists; `reader lookup --table FILE.dtab ...` looks up a \
             table file wherever it is.",
        );
        for lookup in LOOKUPS {
            command = command.subcommand(game_command(lookup, lookup.game, false));
            for alias in lookup.aliases {
                command = command.subcommand(game_command(lookup, alias, true));
            }
        }
        command
    }

    fn augment_subcommands_for_update(command: Command) -> Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        LookupInfo::find(name).is_some() || is_rule_set_name(name)
    }
}

impl FromArgMatches for GameArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = matches.subcommand() else {
            return Err(clap::Error::new(ErrorKind::MissingSubcommand));
        };
        let (lookup, external);
        let sub = match LookupInfo::find(name) {
            Some(found) => {
                lookup = found;
                sub
            }
            // A rule set's table: its arguments parsed as `reader lookup rules`'s.
            None if is_rule_set_name(name) => {
                lookup = &RULE_SET_LOOKUP;
                let given = sub.get_many::<std::ffi::OsString>("").into_iter().flatten().cloned();
                let words = std::iter::once(std::ffi::OsString::from(name)).chain(given);
                external = game_command(lookup, name.to_string(), false)
                    .bin_name(format!("reader lookup {name}"))
                    .try_get_matches_from(words)?;
                &external
            }
            None => return Err(clap::Error::new(ErrorKind::InvalidSubcommand)),
        };
        let given = lookup
            .arguments
            .iter()
            .filter_map(|a| match a.value {
                Some(_) => sub.get_one::<String>(a.name).map(|v| (a.name, Some(v.clone()))),
                None => sub.get_flag(a.name).then_some((a.name, None)),
            })
            .collect();
        Ok(GameArgs {
            name: name.to_string(),
            given,
            json: sub.get_flag("json"),
            tables: sub.get_one::<PathBuf>("tables").cloned(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The arguments parsed and checked (before any table is opened), then the
/// answer as JSON (the same as every front end's) or as text.
pub fn run(g: &GameArgs) -> Result<String, Failure> {
    let args: Vec<(&str, dice_tables_lookup::Arg<'_>)> = g
        .given
        .iter()
        .map(|(name, value)| {
            (*name, value.as_deref().map_or(dice_tables_lookup::Arg::Flag(true), dice_tables_lookup::Arg::Text))
        })
        .collect();
    let query = Query::from_args(&g.name, &args).map_err(|e| refused(&g.name, e))?;
    query.check()?;
    let tables = tables(g.tables.clone())?;
    if g.json {
        return Ok(format!("{}\n", query.answer(&tables)?));
    }
    Ok(query.text(&tables)?)
}

/// A value that does not parse, said as clap says it of any other flag
/// (the value shown by its first 40 characters), with the help to see.
fn refused(name: &str, e: LookupError) -> Failure {
    let (LookupError::BadValue { argument, given, why }, Some(lookup)) = (&e, LookupInfo::find(name)) else {
        return e.into();
    };
    let value = lookup.arguments.iter().find(|a| a.name == *argument).and_then(|a| a.value).unwrap_or("VALUE");
    let shown = if given.chars().count() > 40 {
        format!("{}...", given.chars().take(40).collect::<String>())
    } else {
        given.clone()
    };
    Failure::Usage(format!(
        "invalid value '{shown}' for '--{argument} <{value}>': {why} (see reader lookup {} --help)",
        lookup.game
    ))
}

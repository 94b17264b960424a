//! Named arguments as front ends give them, and their taking: each once,
//! none unknown, each parsed as the command line parses it.

use crate::error::LookupError;
use crate::games::arguments::Argument;

/// An argument's value as a front end has it. Text is parsed exactly as
/// the command line parses it; the other forms are what programs hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// Text, as on the command line (`"12456"`, `"all"`, `"2"`).
    Text(&'a str),
    /// A whole number.
    Int(i64),
    /// Dice as their faces (`[1, 2, 4, 5, 6]`), or a mask as the numbers
    /// of its open categories (bit positions: `[0, 10]` is ones and yazy).
    Ints(&'a [i64]),
    /// A mask as category names (`["ones", "yazy"]`).
    Names(&'a [&'a str]),
    /// A flag that takes no value, set or not (`opening`, `yahtzee-bonus`).
    Flag(bool),
}

/// A parser of an argument's text.
pub(crate) type Parser<T> = fn(&str) -> Result<T, String>;

/// Named arguments being taken by a game's query: each once, none unknown.
pub(crate) struct Args<'a> {
    game: &'static str,
    arguments: &'static [Argument],
    given: Vec<(String, Arg<'a>)>,
}

impl<'a> Args<'a> {
    /// `args` taken by game `game`, whose arguments are `arguments` (its
    /// registry entry's).
    pub(crate) fn new(
        game: &'static str,
        arguments: &'static [Argument],
        args: &[(&str, Arg<'a>)],
    ) -> Result<Args<'a>, LookupError> {
        let mut given: Vec<(String, Arg<'a>)> = Vec::with_capacity(args.len());
        for (given_name, value) in args {
            // Python's keywords spell the flags' dashes as underscores.
            let name = given_name.replace('_', "-");
            if !arguments.iter().any(|a| a.name == name) {
                let (given, accepted) = (given_name.to_string(), accepted(arguments));
                return Err(LookupError::UnknownArgument { game, given, accepted });
            }
            if given.iter().any(|(n, _)| *n == name) {
                return Err(LookupError::Repeated { argument: name });
            }
            given.push((name, *value));
        }
        let args = Args { game, arguments, given };
        match arguments.iter().find(|a| a.required && args.arg(a.name).is_none()) {
            Some(missing) => Err(args.missing(missing.name)),
            None => Ok(args),
        }
    }

    pub(crate) fn arg(&self, name: &str) -> Option<Arg<'a>> {
        self.given.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// The value of `name` parsed from its text form by `parse`.
    pub(crate) fn value<T>(&self, name: &'static str, parse: Parser<T>) -> Result<Option<T>, LookupError> {
        self.value_with(name, &[], parse)
    }

    /// As [`value`](Args::value), with `categories` naming a mask's
    /// category numbers.
    pub(crate) fn value_with<T>(
        &self,
        name: &'static str,
        categories: &[&'static str],
        parse: Parser<T>,
    ) -> Result<Option<T>, LookupError> {
        let Some(arg) = self.arg(name) else { return Ok(None) };
        let text = match arg {
            Arg::Text(s) => s.to_string(),
            Arg::Int(i) => i.to_string(),
            Arg::Names(names) => names.join(","),
            Arg::Ints(ints) if categories.is_empty() => dice_text(name, ints)?,
            Arg::Ints(ints) => mask_text(ints, categories)?,
            Arg::Flag(_) => return Err(LookupError::NeedsValue { argument: name }),
        };
        parse(&text).map(Some).map_err(|why| LookupError::BadValue { argument: name, given: text, why })
    }

    /// A required argument's value (its presence was checked by [`Args::new`]).
    pub(crate) fn required_with<T>(
        &self,
        name: &'static str,
        categories: &[&'static str],
        parse: Parser<T>,
    ) -> Result<T, LookupError> {
        self.value_with(name, categories, parse)?.ok_or_else(|| self.missing(name))
    }

    pub(crate) fn missing(&self, argument: &'static str) -> LookupError {
        LookupError::MissingArgument { game: self.game, argument, accepted: accepted(self.arguments) }
    }

    /// A flag that takes no value.
    pub(crate) fn flag(&self, name: &'static str) -> Result<bool, LookupError> {
        match self.arg(name) {
            None => Ok(false),
            Some(Arg::Flag(b)) => Ok(b),
            Some(Arg::Text("" | "true" | "1")) | Some(Arg::Int(1)) => Ok(true),
            Some(Arg::Text("false" | "0")) | Some(Arg::Int(0)) => Ok(false),
            Some(_) => Err(LookupError::TakesNoValue { argument: name }),
        }
    }
}

/// A game's arguments, the required first.
fn accepted(arguments: &'static [Argument]) -> Vec<&'static str> {
    let (required, optional): (Vec<&Argument>, Vec<&Argument>) = arguments.iter().partition(|a| a.required);
    required.into_iter().chain(optional).map(|a| a.name).collect()
}

/// Dice given as faces, as the text the parsers read: each a digit.
pub(crate) fn dice_text(name: &'static str, faces: &[i64]) -> Result<String, LookupError> {
    faces
        .iter()
        .map(|&f| match u32::try_from(f).ok().and_then(|f| char::from_digit(f, 10)) {
            Some(c) => Ok(c),
            None => Err(LookupError::NotAFace { argument: name, given: f }),
        })
        .collect()
}

/// A mask given as category numbers, as the text the parsers read: names.
pub(crate) fn mask_text(numbers: &[i64], categories: &[&'static str]) -> Result<String, LookupError> {
    if numbers.is_empty() {
        return Ok("none".to_string());
    }
    let names = numbers.iter().map(|&i| match usize::try_from(i).ok().and_then(|i| categories.get(i)) {
        Some(name) => Ok(*name),
        None => Err(LookupError::CategoryNumber { given: i, categories: categories.to_vec() }),
    });
    Ok(names.collect::<Result<Vec<&str>, LookupError>>()?.join(","))
}

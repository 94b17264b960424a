//! [`Query`]'s methods: one game's lookup, built from named arguments or a
//! query string and answered as JSON.

use crate::args::{Arg, Args};
use crate::error::LookupError;
use crate::games::{games, GameQuery, LookupInfo, Yahtzee, Yatzy};
use crate::json::Json;
use crate::queries::Query;
use crate::query_string::parse_query_string;

impl Query {
    /// The lookup of game `game` with a URL query string's arguments
    /// ([`parse_query_string`]; a name alone is a flag).
    pub fn from_query_string(game: &str, qs: &str) -> Result<Query, LookupError> {
        let pairs = parse_query_string(qs)?;
        let args: Vec<(&str, Arg<'_>)> =
            pairs.iter().map(|(n, v)| (n.as_str(), v.as_deref().map_or(Arg::Flag(true), Arg::Text))).collect();
        Query::from_args(game, &args)
    }

    /// The lookup of game `game` (its id, as `reader lookup` names it, or
    /// another name) with `args`: the command line's flags without their
    /// dashes (underscores also accepted), each once. Errors name what was
    /// wrong and the accepted form.
    pub fn from_args(game: &str, args: &[(&str, Arg<'_>)]) -> Result<Query, LookupError> {
        let Some(info) = LookupInfo::find(game) else {
            #[cfg(not(feature = "solitaire-only"))]
            if crate::games::rule_sheet::is_rule_set_name(game) {
                let rules = &crate::games::rule_sheet::LOOKUP;
                return (rules.parse)(game, &Args::new(rules.game, rules.arguments, args)?);
            }
            return Err(LookupError::UnknownGame { given: game.to_string(), known: games() });
        };
        (info.parse)(game, &Args::new(info.game, info.arguments, args)?)
    }

    /// The game's query: the one place a query's game is told apart.
    fn with_game<R>(&self, f: impl FnOnce(&dyn GameQuery) -> R) -> R {
        match self {
            Query::Yazy(q) => f(q),
            Query::Combo(q) => f(q),
            Query::Threes(q) => f(q),
            Query::Tenk(q) => f(q),
            Query::Yatzy(q) => f(&Yatzy(q)),
            Query::Yahtzee(q) => f(&Yahtzee(q)),
            Query::Duel(q) => f(q),
            Query::Maxi(q) => f(q),
            #[cfg(feature = "example-game")]
            Query::OneDie(q) => f(q),
            #[cfg(not(feature = "solitaire-only"))]
            Query::RuleSet(q) => f(q),
        }
    }

    /// The game's registry entry: its names and arguments.
    pub fn lookup(&self) -> &'static LookupInfo {
        self.with_game(|g| g.lookup())
    }

    /// The game, as `reader lookup` names it.
    pub fn game(&self) -> &'static str {
        self.lookup().game
    }

    /// The id of the table the answer reads (`duel-cardgames` for a duel
    /// lookup under the cardgames rules; else the game's own).
    pub fn table(&self) -> std::borrow::Cow<'static, str> {
        self.with_game(|g| g.table())
    }

    /// Whether the arguments go together (`--rerolls` needs `--dice`, a
    /// throw is `--dice` or `--remaining`, ...): what can be said without
    /// the tables. [`answer`](Query::answer) checks it first.
    pub fn check(&self) -> Result<(), LookupError> {
        self.with_game(|g| g.check())
    }

    /// The answer's value (its `ev` or `p`) without the rest: where the
    /// value is stored (yazy, combo) no options are built.
    pub fn value(&self, tables: &dice_tables_reader::Tables) -> Result<f64, LookupError> {
        self.check()?;
        if let Some(value) = self.with_game(|g| g.stored_value(tables)) {
            return value;
        }
        let answer = self.answer(tables)?;
        match answer.get("ev").or_else(|| answer.get("p")) {
            Some(Json::Num(v)) => Ok(*v),
            _ => Err(LookupError::NoValue { game: self.game(), answer: answer.to_string() }),
        }
    }

    /// The answer from `tables`: exactly what `reader lookup ... --json`
    /// prints (see README.md for each game's fields), or why there is none.
    pub fn answer(&self, tables: &dice_tables_reader::Tables) -> Result<Json, LookupError> {
        self.check()?;
        self.with_game(|g| g.reply(tables)).map(|r| r.json())
    }

    /// The answer from `tables` as text for people: what `reader lookup`
    /// prints without `--json`, written from the same values as
    /// [`answer`](Query::answer)'s JSON.
    #[cfg(feature = "text")]
    pub fn text(&self, tables: &dice_tables_reader::Tables) -> Result<String, LookupError> {
        self.check()?;
        self.with_game(|g| g.reply(tables)).map(|r| r.text())
    }
}

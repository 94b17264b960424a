//! Two-player 10000: the chance of winning, under the seed's rules
//! (`duel`) or a common online Farkle's (`duel-cardgames`).

use super::tenk::{bust, keep_fields, then_name};
use super::{GameQuery, LookupInfo};
use crate::answer::{text, Answer};
use crate::args::Args;
use crate::checks::check_throw;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_duel_rules, parse_score, parse_tenk_remaining, parse_tenk_throw, parse_total};
use crate::queries::Query;
use crate::queries::{DuelQuery, DuelRules};
use dice_tables_reader::duel::{CardgamesDuel, Duel, DuelOption, Scoring, SeedDuel};
use dice_tables_reader::{Game, Tables};

/// The name under which a duel lookup reads the cardgames table: `duel`
/// with `rules` cardgames.
const CARDGAMES_DUEL: &str = CardgamesDuel::ID;

const ALIASES: [&str; 3] = super::joined(SeedDuel::ALIASES, &[CARDGAMES_DUEL]);

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: SeedDuel::ID,
    aliases: &ALIASES,
    required: &["me", "opp"],
    optional: &["dice", "remaining", "score", "rules"],
    categories: &[],
    parse,
    curve: None,
};

fn parse(named: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Duel(DuelQuery {
        me: a.required_with("me", &[], parse_total)?,
        opp: a.required_with("opp", &[], parse_total)?,
        dice: a.value("dice", parse_tenk_throw)?,
        remaining: a.value("remaining", parse_tenk_remaining)?,
        score: a.value("score", parse_score)?.unwrap_or(0),
        rules: match (named, a.value("rules", parse_duel_rules)?) {
            (CARDGAMES_DUEL, Some(DuelRules::Seed)) => return Err(LookupError::SeedRulesForCardgames),
            (CARDGAMES_DUEL, _) => DuelRules::Cardgames,
            (_, rules) => rules.unwrap_or(DuelRules::Seed),
        },
    }))
}

impl GameQuery for DuelQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> &'static str {
        match self.rules {
            DuelRules::Seed => SeedDuel::ID,
            DuelRules::Cardgames => CardgamesDuel::ID,
        }
    }

    /// At most one of a throw and the dice to throw, and points scored
    /// this turn only with one of them.
    fn check(&self) -> Result<(), LookupError> {
        check_throw(self.dice, self.remaining, true)?;
        if self.dice.is_none() && self.remaining.is_none() && self.score != 0 {
            return Err(LookupError::ScoreWithoutThrow { score: self.score });
        }
        Ok(())
    }

    fn answer(&self, tables: &Tables) -> Answer {
        match self.rules {
            DuelRules::Seed => answer_with(tables.get::<SeedDuel>()?, self),
            DuelRules::Cardgames => answer_with(tables.get::<CardgamesDuel>()?, self),
        }
    }
}

fn answer_with<S: Scoring>(duel: &Duel<S>, q: &DuelQuery) -> Answer {
    let (me, opp, score) = (q.me, q.opp, q.score);
    let head = || vec![("game", text(SeedDuel::ID)), ("rules", text(S::NAME))];
    if let Some(n) = q.remaining {
        let state = duel.before_throw(me, opp, n, score)?;
        let mut fields = head();
        fields.extend([
            ("p", Json::Num(state.p())),
            ("throw", Json::Num(state.throw)),
            ("bank", state.bank.map_or(Json::Null, Json::Num)),
            ("best", text(then_name(state.best))),
        ]);
        return Ok(Json::object(fields));
    }
    let Some(throw) = q.dice else {
        let mut fields = head();
        fields.push(("p", Json::Num(duel.win_chance(me, opp)?)));
        return Ok(Json::object(fields));
    };
    let options = duel.options(me, opp, throw, score)?;
    let Some(best) = options.best() else {
        let mut fields = head();
        fields.push(("p", Json::Num(duel.turn(me, opp)?.bust())));
        return Ok(bust(fields));
    };
    let fields = |o: &DuelOption| keep_fields(o.keep, o.points, o.dice_left, o.then);
    let list = options.best_first(|o| o.p).into_iter().map(|o| {
        let mut f = fields(o);
        f.push(("p", Json::Num(o.p)));
        Json::object(f)
    });
    let mut out = head();
    out.extend([
        ("p", Json::Num(best.p)),
        ("best", Json::object(fields(best))),
        ("options", Json::List(list.collect())),
    ]);
    Ok(Json::object(out))
}

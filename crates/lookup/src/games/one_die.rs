//! one-die, the smallest game (the reader's `one_die`): its lookup, to test
//! that a game reaches every front end through its registry lines alone.

use super::arguments::for_people;
use super::{Argument, GameQuery, GameTable, LookupInfo};
use crate::args::Args;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_in_range, parse_rerolls};
use crate::queries::{OneDieQuery, Query};
use crate::reply::{text, Replied, Reply};
use crate::values::{read_values, section};
use dice_tables_reader::one_die::{Face, OneDie, FACE_VALUE};
use dice_tables_reader::{Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: OneDie::ID,
    aliases: OneDie::ALIASES,
    about: for_people(
        "one-die: the expected score of a face and whether to throw again, or the value before the roll.",
    ),
    arguments: &[
        Argument::optional("face", "F", "The face showing, 1 to 6 (without it: the value before the roll)."),
        Argument::optional("rerolls", "R", "Rerolls left: 0 to the table's (default: all of them)."),
    ],
    tables: &[GameTable {
        id: OneDie::ID,
        rules: None,
        values: read_values(|tables| section::<OneDie>(tables, &FACE_VALUE, vec!["rerolls", "face"])),
    }],
    categories: &[],
    parse,
    curve: None,
    review: None,
};

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    let face = a.value("face", |s| parse_in_range(s, "face", 1..=6))?;
    Ok(Query::OneDie(OneDieQuery { face: face.and_then(Face::new), rerolls: a.value("rerolls", parse_rerolls)? }))
}

impl GameQuery for OneDieQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        (OneDie::ID).into()
    }

    fn check(&self) -> Result<(), LookupError> {
        Ok(())
    }

    fn reply(&self, tables: &Tables) -> Replied {
        let table = tables.get::<OneDie>()?;
        let rerolls = self.rerolls.unwrap_or(table.rerolls());
        let reply = match self.face {
            None => OneDieReply { ev: table.game_start_value()?, rerolls, face: None },
            Some(face) => OneDieReply {
                ev: table.value(face, rerolls)?,
                rerolls,
                face: Some((face, table.reroll(face, rerolls)?)),
            },
        };
        Ok(Box::new(reply))
    }
}

/// A one-die answer: the value before the roll, or a face's with whether
/// to throw again.
// The rerolls are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct OneDieReply {
    ev: f64,
    rerolls: u8,
    face: Option<(Face, bool)>,
}

impl Reply for OneDieReply {
    fn json(&self) -> Json {
        let mut fields = vec![("game", text(OneDie::ID)), ("ev", Json::Num(self.ev))];
        if let Some((_, reroll)) = self.face {
            fields.push(("best", text(if reroll { "reroll" } else { "stop" })));
        }
        Json::object(fields)
    }

    #[cfg(feature = "text")]
    fn text(&self) -> String {
        let (ev, left) = (self.ev, crate::text::rerolls_text(self.rerolls));
        match self.face {
            None => format!("one-die, {left}\nexpected score, before the roll: {ev:.6}\n"),
            Some((face, reroll)) => {
                let best = if reroll { "throw again" } else { "stop" };
                format!("one-die, face {}, {left}\nexpected score: {ev:.6}\nbest: {best}\n", face.get())
            }
        }
    }
}

//! The games a lookup can ask, with their other names and arguments.

use crate::error::LookupError;

/// The games a query names, with their other names and their arguments
/// (the command line's flags without dashes; the first ones are required).
pub const LOOKUPS: &[LookupInfo] = &[
    LookupInfo {
        game: "yazy",
        aliases: &[],
        required: &["mask"],
        optional: &["dice", "rerolls", "need", "opp-mask", "me", "opp", "advisor"],
    },
    LookupInfo { game: "combo", aliases: &[], required: &[], optional: &["dice", "rerolls"] },
    LookupInfo {
        game: "threes",
        aliases: &[],
        required: &[],
        optional: &["dice", "remaining", "points", "record", "after", "ties", "model", "objective"],
    },
    LookupInfo {
        game: "tenk",
        aliases: &["10000"],
        required: &[],
        optional: &["dice", "remaining", "score", "opening"],
    },
    LookupInfo {
        game: "yatzy",
        aliases: &[],
        required: &["mask"],
        optional: &["upper", "dice", "rerolls", "need", "opp-mask", "opp-upper", "me", "opp"],
    },
    LookupInfo {
        game: "yahtzee",
        aliases: &[],
        required: &["mask"],
        optional: &[
            "upper",
            "yahtzee-bonus",
            "dice",
            "rerolls",
            "need",
            "joker",
            "opp-mask",
            "opp-upper",
            "opp-yahtzee-bonus",
            "me",
            "opp",
        ],
    },
    LookupInfo {
        game: "duel",
        aliases: &["10000-duel", "tenk2", CARDGAMES_DUEL],
        required: &["me", "opp"],
        optional: &["dice", "remaining", "score", "rules"],
    },
    LookupInfo {
        game: "maxi-yatzy",
        aliases: &["maxi", "maxiyatzy", SWEDISH_MAXI],
        required: &["mask"],
        optional: &["upper", "saved", "dice", "rerolls", "rules"],
    },
];

/// The name under which a Maxi Yatzy lookup reads the swedish table:
/// `maxi-yatzy` with `rules` swedish.
pub(crate) const SWEDISH_MAXI: &str = "maxi-yatzy-swedish";

/// The name under which a duel lookup reads the cardgames table: `duel`
/// with `rules` cardgames.
pub(crate) const CARDGAMES_DUEL: &str = "duel-cardgames";

/// A game's lookup: its name, other names and arguments.
#[derive(Clone, Copy, Debug)]
pub struct LookupInfo {
    /// The game, as `reader lookup` names it.
    pub game: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// The arguments every lookup of it needs.
    pub required: &'static [&'static str],
    /// The arguments it may have.
    pub optional: &'static [&'static str],
}

impl LookupInfo {
    /// The game named `name` (its id or another name).
    pub fn find(name: &str) -> Option<&'static LookupInfo> {
        LOOKUPS.iter().find(|l| l.game == name || l.aliases.contains(&name))
    }

    pub(crate) fn has(&self, arg: &str) -> bool {
        self.required.contains(&arg) || self.optional.contains(&arg)
    }

    /// Its arguments, the required first.
    pub(crate) fn arguments(&self) -> Vec<&'static str> {
        self.required.iter().chain(self.optional).copied().collect()
    }
}

/// Every game a lookup can ask.
pub(crate) fn games() -> Vec<&'static str> {
    LOOKUPS.iter().map(|l| l.game).collect()
}

/// The registry's entry of the table `id` (what a table's bytes are opened
/// as), or [`LookupError::UnknownGame`] naming every table this build reads.
pub fn table_named(id: &str) -> Result<&'static dice_tables_reader::GameInfo, LookupError> {
    dice_tables_reader::game_named(id).ok_or_else(|| LookupError::UnknownGame {
        given: id.to_string(),
        known: dice_tables_reader::GAMES.iter().map(|g| g.id).collect(),
    })
}

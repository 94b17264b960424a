//! A lookup's arguments as every front end names and explains them: the
//! command line's flags and help, HTTP's parameters, Python's keywords.
//! Each game lists its own in its file; the ones several games share are here.

/// One argument of a game's lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Argument {
    /// Its name: the command line's flag without its dashes, HTTP's
    /// parameter, Python's keyword (its dashes as underscores).
    pub name: &'static str,
    /// Whether every lookup of the game needs it.
    pub required: bool,
    /// Its value's placeholder in the help (`M`, `D`); `None` for a flag,
    /// which is given or not.
    pub value: Option<&'static str>,
    /// What it is, for people: the command line's help (empty in builds
    /// without the feature `text`). `{mask}` stands for the forms a mask of
    /// the game's boxes takes ([`LookupInfo::help`](super::LookupInfo::help)
    /// writes them).
    pub help: &'static str,
}

impl Argument {
    /// An argument every lookup of the game needs.
    pub(crate) const fn required(name: &'static str, value: &'static str, help: &'static str) -> Argument {
        Argument { name, required: true, value: Some(value), help: for_people(help) }
    }

    /// An argument with a value, which a lookup may leave out.
    pub(crate) const fn optional(name: &'static str, value: &'static str, help: &'static str) -> Argument {
        Argument { name, required: false, value: Some(value), help: for_people(help) }
    }

    /// A flag: given or not.
    pub(crate) const fn flag(name: &'static str, help: &'static str) -> Argument {
        Argument { name, required: false, value: None, help: for_people(help) }
    }
}

/// Words for people (help, a game's line): in builds with the feature
/// `text`; else empty, and left out of the build (the WebAssembly
/// module's, whose size budget they would cost).
pub(crate) const fn for_people(words: &'static str) -> &'static str {
    if cfg!(feature = "text") {
        words
    } else {
        ""
    }
}

/// The five dice showing (yazy, combo, yatzy, yahtzee).
pub(crate) const FIVE_DICE: Argument = Argument::optional(
    "dice",
    "D",
    "The five dice showing, digits 1-6 in any order, spaces or commas between them allowed (without it: the value before the roll).",
);

/// Rerolls left after a roll of five dice.
pub(crate) const REROLLS_LEFT: Argument = Argument::optional(
    "rerolls",
    "R",
    "Rerolls left after this roll: 0 to 2 (0 to 5 for combo with the default rules; default: all of them).",
);

/// The forms a mask of `categories` takes, for the help: the names in
/// mask-bit order, `all` less some, or the number.
pub(crate) fn mask_forms(categories: &[&str]) -> String {
    let (first, last) = (categories.first().unwrap_or(&""), categories.last().unwrap_or(&""));
    let max = (1u64 << categories.len()) - 1;
    format!(
        "a comma list of names ({}; any case, `full house` or `fullhouse`, `3-kind` or `three-of-a-kind`), `all`, \
         all less the filled ones (`all,-{first},-{last}`), or a number 0 to {max} (decimal, 0x.., 0b..; bit i = \
         the i-th name of that list)",
        categories.join(",")
    )
}

//! What every game's rendering shares: JSON numbers, percentages, and the
//! failures a lookup can end in.

use serde::{Serialize, Serializer};

use dice_tables_reader::{ArgumentError, Error, TableError, TableErrorKind};

/// What went wrong, with the exit status it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage: exit 2.
    Usage(String),
    /// A bad or missing table: exit 1.
    Table(String),
}

impl From<ArgumentError> for Failure {
    fn from(e: ArgumentError) -> Failure {
        Failure::Usage(e.to_string())
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        match e {
            Error::Table(e) => e.into(),
            Error::Argument(e) => e.into(),
            _ => Failure::Usage(e.to_string()),
        }
    }
}

impl From<TableError> for Failure {
    /// The library's message, with what a person at this terminal can do about it.
    fn from(e: TableError) -> Failure {
        let hint = match e.kind() {
            TableErrorKind::NotFound => ": run `make tables` (or `generator --out DIR`) to write it",
            TableErrorKind::Io(_) | TableErrorKind::NotRegularFile => "",
            _ => "; regenerate it with `make tables`",
        };
        Failure::Table(format!("{e}{hint}"))
    }
}

/// A number in JSON as Rust prints it (the shortest form that reads back
/// the same f64, never an exponent, integers without ".0"); `null` if not
/// finite, which no verified table holds.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

impl Num {
    /// A chance or total rounded to 10 significant digits: the threes table
    /// stores chances as f32, about 7 digits from the nearer of 0 and 1.
    pub fn rounded(v: f64) -> Num {
        Num(format!("{v:.9e}").parse().unwrap_or(v))
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.0.is_finite() {
            return serializer.serialize_none();
        }
        let raw = serde_json::value::RawValue::from_string(format!("{}", self.0)).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

/// A value in JSON under the key that says what it is: `"p"` for a chance,
/// `"ev"` for an expected score or total. Flattened into its object.
#[derive(Serialize, Debug)]
pub struct Value {
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<Num>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ev: Option<Num>,
}

impl Value {
    /// `"p": v` when `chance`, else `"ev": v`.
    pub fn new(chance: bool, v: Num) -> Value {
        if chance {
            Value { p: Some(v), ev: None }
        } else {
            Value { p: None, ev: Some(v) }
        }
    }
}

/// `{"game":..,"ev":..}`: a value before any dice are shown.
#[derive(Serialize, Debug)]
pub struct StartJson {
    pub game: &'static str,
    pub ev: Num,
}

/// One JSON object and a newline.
pub fn json_line(value: &impl Serialize) -> String {
    let mut line = serde_json::to_string(value).expect("lookup JSON serialises");
    line.push('\n');
    line
}

/// A chance as a percentage for people.
pub fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if pct != 0.0 && pct < 1e-4 {
        format!("{pct:.3e} %")
    } else {
        format!("{pct:.6} %")
    }
}

/// "s" unless there is one.
pub fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// "1 die left", "3 dice left".
pub fn dice_left_text(n: u8) -> String {
    format!("{n} {} left", if n == 1 { "die" } else { "dice" })
}

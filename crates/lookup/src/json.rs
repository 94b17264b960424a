//! The answers' JSON: a small ordered tree, written compactly with every
//! number in Rust's shortest form that reads back as the same f64.

use std::borrow::Cow;
use std::fmt;

/// A JSON value as a lookup answers it: object keys keep their order, and
/// whole numbers (points, dice left) are kept apart from real ones (chances,
/// expected scores) so that every language reads each as what it is.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A real number, written as the shortest decimal that reads back as
    /// the same f64 (never with an exponent; `null` if not finite, which no
    /// verified table holds).
    Num(f64),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Json>),
    /// An object, its keys in order (the answers' keys are fixed names;
    /// a table's rules parameters are named by the table).
    Object(Vec<(Cow<'static, str>, Json)>),
}

impl Json {
    /// An object of fixed keys, in order.
    pub fn object(fields: Vec<(&'static str, Json)>) -> Json {
        Json::Object(fields.into_iter().map(|(k, v)| (Cow::Borrowed(k), v)).collect())
    }

    /// The value under `key` of an object; `None` for a missing key or a
    /// value that is not an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl serde::Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Int(i) => serializer.serialize_i64(*i),
            Json::Num(v) if v.is_finite() => serializer.serialize_f64(*v),
            Json::Num(_) => serializer.serialize_unit(),
            Json::Str(s) => serializer.serialize_str(s),
            Json::List(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, value) in fields {
                    map.serialize_entry(key.as_ref(), value)?;
                }
                map.end()
            }
        }
    }
}

/// serde_json's compact output, with each real number in Rust's shortest
/// form that reads back as the same f64 and never an exponent (`2`, not
/// `2.0`; `0.000000025`, not `2.5e-8`): the form the answers have always
/// been documented and golden-filed in.
struct ShortestDecimal;

impl serde_json::ser::Formatter for ShortestDecimal {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, value: f64) -> std::io::Result<()> {
        write!(writer, "{value}")
    }
}

impl fmt::Display for Json {
    /// Compact JSON, no spaces (what `reader lookup ... --json` prints).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(256);
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, ShortestDecimal);
        serde::Serialize::serialize(self, &mut serializer).map_err(|_| fmt::Error)?;
        // serde_json writes valid UTF-8.
        f.write_str(std::str::from_utf8(&out).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn writes_compact_json_with_shortest_numbers() {
        let j = Json::object(vec![
            ("game", Json::Str("a\"b\\c\n\u{1}".into())),
            ("ev", Json::Num(2.0)),
            ("p", Json::Num(0.1 + 0.2)),
            ("tiny", Json::Num(2.5e-8)),
            ("nan", Json::Num(f64::NAN)),
            ("n", Json::Int(-3)),
            ("list", Json::List(vec![Json::Bool(true), Json::Null, Json::List(vec![])])),
        ]);
        assert_eq!(
            j.to_string(),
            r#"{"game":"a\"b\\c\n\u0001","ev":2,"p":0.30000000000000004,"tiny":0.000000025,"nan":null,"n":-3,"list":[true,null,[]]}"#
        );
        assert_eq!(j.get("n"), Some(&Json::Int(-3)));
        assert_eq!(j.get("none"), None);
    }
}

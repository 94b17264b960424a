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

impl fmt::Display for Json {
    /// Compact JSON, no spaces (what `reader lookup ... --json` prints),
    /// each real number in Rust's shortest form that reads back as the same
    /// f64 and never with an exponent (`2`, not `2.0`; `0.000000025`, not
    /// `2.5e-8`): the form the answers have always been documented and
    /// golden-filed in.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Int(i) => write!(f, "{i}"),
            Json::Num(v) if v.is_finite() => write!(f, "{v}"),
            Json::Num(_) => f.write_str("null"),
            Json::Str(s) => write_string(f, s),
            Json::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Object(fields) => {
                f.write_str("{")?;
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A JSON string: quotes, backslashes and control characters escaped
/// (`\n` and the like where JSON has a short form, else `\u00XX`), every
/// other character as it is.
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    let mut plain = 0;
    for (i, c) in s.char_indices() {
        let short = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            c if c < ' ' => "",
            _ => continue,
        };
        f.write_str(&s[plain..i])?;
        if short.is_empty() {
            write!(f, "\\u{:04x}", u32::from(c))?;
        } else {
            f.write_str(short)?;
        }
        plain = i + c.len_utf8();
    }
    f.write_str(&s[plain..])?;
    f.write_str("\"")
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

//! Rule sets of the Yahtzee family as data: the presets (`rules/*.toml`,
//! each game's rules in a few lines at its top) and users' own rule files,
//! read by a TOML crate into the reader's [`RuleSet`] so that every refusal
//! names the file's line and the accepted form.

use dice_tables_reader::rules::text::{Document, Section, Value};
use dice_tables_reader::rules::{RuleSet, RulesTextError};
use toml::de::{DeTable, DeValue};

/// The presets, by name: each a rule file in `generator/rules/`.
pub const PRESETS: &[(&str, &str)] = &[
    ("yazy", include_str!("../rules/yazy.toml")),
    ("yatzy", include_str!("../rules/yatzy.toml")),
    ("yahtzee", include_str!("../rules/yahtzee.toml")),
    ("yahtzee-free", include_str!("../rules/yahtzee-free.toml")),
    ("yahtzee-no-joker", include_str!("../rules/yahtzee-no-joker.toml")),
    ("yahtzee-no-bonus", include_str!("../rules/yahtzee-no-bonus.toml")),
    ("forced-yatzy", include_str!("../rules/forced-yatzy.toml")),
    ("maxi-yatzy", include_str!("../rules/maxi-yatzy.toml")),
    ("maxi-yatzy-swedish", include_str!("../rules/maxi-yatzy-swedish.toml")),
    ("yacht", include_str!("../rules/yacht.toml")),
    ("yacht-dice", include_str!("../rules/yacht-dice.toml")),
    ("generala", include_str!("../rules/generala.toml")),
    ("crag", include_str!("../rules/crag.toml")),
];

/// The preset named `name`.
pub fn preset(name: &str) -> Option<RuleSet> {
    let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
    Some(read(text).unwrap_or_else(|e| panic!("the preset {name} reads: {e}")))
}

/// A rule file's text as a rule set, checked; the first thing wrong names
/// its line.
pub fn read(text: &str) -> Result<RuleSet, RulesTextError> {
    RuleSet::from_document(&document(text)?)
}

/// The 1-based line of byte `at` in `text`.
fn line_at(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].bytes().filter(|&b| b == b'\n').count() + 1
}

/// A TOML file as a rule document: its top-level keys, its `[tables]`
/// and its `[[box]]` tables, each key with its line.
fn document(text: &str) -> Result<Document, RulesTextError> {
    let parsed = DeTable::parse(text).map_err(|e| RulesTextError {
        line: e.span().map_or(1, |s| line_at(text, s.start)),
        message: format!("not TOML: {}", e.message().lines().next().unwrap_or("").trim()),
    })?;
    let mut doc = Document { top: Section { line: 1, entries: Vec::new() }, ..Document::default() };
    for (key, value) in parsed.get_ref() {
        let (key, line) = (key.get_ref().to_string(), line_at(text, key.span().start));
        match value.get_ref() {
            DeValue::Table(table) => {
                doc.tables.push((key, section(text, table, line)?));
            }
            DeValue::Array(items) if key == "box" => {
                for item in items {
                    let DeValue::Table(table) = item.get_ref() else {
                        return Err(RulesTextError { line, message: "box is a list of [[box]] tables".into() });
                    };
                    let header = line_at(text, item.span().start);
                    doc.boxes.push(section(text, table, header)?);
                }
            }
            v => doc.top.entries.push((key, plain(v, line)?, line)),
        }
    }
    Ok(doc)
}

fn section(text: &str, table: &DeTable<'_>, line: usize) -> Result<Section, RulesTextError> {
    let mut entries = Vec::new();
    for (key, value) in table {
        let at = line_at(text, key.span().start);
        entries.push((key.get_ref().to_string(), plain(value.get_ref(), at)?, at));
    }
    entries.sort_by_key(|(_, _, line)| *line);
    Ok(Section { line, entries })
}

/// A value rule files take: a string, a whole number, true or false, or a
/// list of them.
fn plain(v: &DeValue<'_>, line: usize) -> Result<Value, RulesTextError> {
    let refuse = |what: &str| RulesTextError {
        line,
        message: format!("{what} is not taken here: a string in quotes, a whole number, true, false or a [list]"),
    };
    Ok(match v {
        DeValue::String(s) => Value::Str(s.to_string()),
        DeValue::Integer(n) => {
            Value::Int(i64::from_str_radix(n.as_str(), n.radix()).map_err(|_| refuse("a number this large"))?)
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Array(items) => Value::List(items.iter().map(|i| plain(i.get_ref(), line)).collect::<Result<_, _>>()?),
        DeValue::Float(_) => return Err(refuse("a fraction")),
        DeValue::Datetime(_) => return Err(refuse("a date")),
        DeValue::Table(_) => return Err(refuse("a table")),
    })
}

#[cfg(test)]
mod tests;

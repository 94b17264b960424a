//! Rule sets as text: the canonical form a table carries (TOML, written by
//! [`RuleSet::to_text`] in one fixed layout) and the reading of a rule
//! document into a [`RuleSet`], every error naming its line.
//!
//! A document reaches [`RuleSet::from_document`] already parsed, from this
//! module's small reader of the canonical layout or from any TOML parser
//! (the generator reads users' files with a TOML crate), so that both say
//! the same things about the same rules.

use super::{BoxRule, ExtraBonus, Joker, Kind, Order, RuleSet, RulesError, Score, UpperBonus, FACES};
use std::fmt::Write as _;

/// A value of a rule document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// An array.
    List(Vec<Value>),
}

/// A table of a rule document: its keys in order, each with its value and
/// line (1-based), and the line of its header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// The header's line (the document's first line for the top level).
    pub line: usize,
    /// `(key, value, line)`.
    pub entries: Vec<(String, Value, usize)>,
}

/// A rule document: the top-level keys, the `[upper-bonus]` and
/// `[extra-bonus]` tables, and the `[[box]]` tables in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    /// The keys before any table.
    pub top: Section,
    /// `[name]` tables.
    pub tables: Vec<(String, Section)>,
    /// `[[box]]` tables.
    pub boxes: Vec<Section>,
}

/// A rule document that is not a rule set: the line and what is wrong
/// there, with the accepted form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesTextError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong and what is accepted, one line.
    pub message: String,
}

impl std::fmt::Display for RulesTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RulesTextError {}

/// A section being read: each key taken once, the rest refused.
struct Reader<'a> {
    section: &'a Section,
    what: &'static str,
    taken: Vec<&'static str>,
}

type Read<T> = Result<T, RulesTextError>;

impl<'a> Reader<'a> {
    fn new(section: &'a Section, what: &'static str) -> Self {
        Reader { section, what, taken: Vec::new() }
    }

    fn err<T>(&self, line: usize, message: String) -> Read<T> {
        Err(RulesTextError { line, message })
    }

    fn get(&mut self, key: &'static str) -> Option<&'a (String, Value, usize)> {
        self.taken.push(key);
        self.section.entries.iter().find(|(k, _, _)| k == key)
    }

    fn int(&mut self, key: &'static str, range: std::ops::RangeInclusive<i64>) -> Read<Option<i64>> {
        match self.get(key) {
            None => Ok(None),
            Some((_, Value::Int(n), _)) if range.contains(n) => Ok(Some(*n)),
            Some((_, v, line)) => self.err(
                *line,
                format!("{key} = {}: {} takes a whole number {} to {}", show(v), key, range.start(), range.end()),
            ),
        }
    }

    fn required_int(&mut self, key: &'static str, range: std::ops::RangeInclusive<i64>) -> Read<i64> {
        let line = self.section.line;
        let what = self.what;
        match self.int(key, range.clone())? {
            Some(n) => Ok(n),
            None => {
                self.err(line, format!("{what} has no {key}: add {key} = N ({} to {})", range.start(), range.end()))
            }
        }
    }

    fn flag(&mut self, key: &'static str) -> Read<bool> {
        match self.get(key) {
            None => Ok(false),
            Some((_, Value::Bool(b), _)) => Ok(*b),
            Some((_, v, line)) => self.err(*line, format!("{key} = {}: {key} takes true or false", show(v))),
        }
    }

    fn text(&mut self, key: &'static str) -> Read<Option<(&'a str, usize)>> {
        match self.get(key) {
            None => Ok(None),
            Some((_, Value::Str(s), line)) => Ok(Some((s.as_str(), *line))),
            Some((_, v, line)) => self.err(*line, format!("{key} = {}: {key} takes a string in quotes", show(v))),
        }
    }

    fn required_text(&mut self, key: &'static str, form: &str) -> Read<(&'a str, usize)> {
        let (line, what) = (self.section.line, self.what);
        match self.text(key)? {
            Some(t) => Ok(t),
            None => self.err(line, format!("{what} has no {key}: add {key} = {form}")),
        }
    }

    /// The keys not taken: refused, naming those that are.
    fn done(self) -> Read<()> {
        match self.section.entries.iter().find(|(k, _, _)| !self.taken.contains(&k.as_str())) {
            None => Ok(()),
            Some((k, _, line)) => {
                let mut known: Vec<&str> = self.taken.clone();
                known.dedup();
                self.err(*line, format!("{} takes no key {k:?}: its keys are {}", self.what, known.join(", ")))
            }
        }
    }
}

/// A value as a rule file writes it.
fn show(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("{s:?}"),
        Value::Int(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::List(items) => format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(", ")),
    }
}

/// The vocabulary's kinds, as the refusal of an unknown one lists them.
const KINDS: &str = "face, alike, pairs, groups, straight, chance, total";

impl RuleSet {
    /// Reads the canonical text a table carries (or any rule file in its
    /// layout: see [`Document`] for other TOML).
    pub fn from_text(text: &str) -> Result<RuleSet, RulesTextError> {
        RuleSet::from_document(&parse(text)?)
    }

    /// The rule set a document describes, checked ([`RuleSet::check`]);
    /// the first thing wrong names its line.
    pub fn from_document(doc: &Document) -> Result<RuleSet, RulesTextError> {
        let mut top = Reader::new(&doc.top, "the rules");
        let name = top.required_text("name", "\"my-game\"")?.0.to_string();
        let dice = top.required_int("dice", 3..=6)? as u8;
        let rerolls = top.required_int("rerolls", 0..=i64::from(super::MOST_REROLLS))? as u8;
        let saved_rerolls = top.flag("saved-rerolls")?;
        let order = match top.text("order")? {
            None => Order::Free,
            Some((o, line)) => Order::named(o)
                .ok_or_else(|| RulesTextError { line, message: format!("order = {o:?}: \"free\" or \"fixed\"") })?,
        };
        top.done()?;
        if doc.boxes.is_empty() {
            return Err(RulesTextError {
                line: doc.top.line,
                message: "no [[box]] table: a sheet has 1 to 20 boxes".into(),
            });
        }
        let names: Vec<&str> = doc
            .boxes
            .iter()
            .map(|b| {
                b.entries.iter().find(|(k, _, _)| k == "name").map_or("", |(_, v, _)| match v {
                    Value::Str(s) => s.as_str(),
                    _ => "",
                })
            })
            .collect();
        let box_named = |name: &str, line: usize| {
            names.iter().position(|n| *n == name).ok_or_else(|| RulesTextError {
                line,
                message: format!("no box is named {name:?}: the boxes are {}", names.join(", ")),
            })
        };
        let boxes = doc.boxes.iter().map(|s| read_box(s, dice, &box_named)).collect::<Read<Vec<BoxRule>>>()?;
        let mut rules =
            RuleSet { name, dice, rerolls, saved_rerolls, order, boxes, upper_bonus: None, extra_bonus: None };
        for (table, section) in &doc.tables {
            match table.as_str() {
                "upper-bonus" => rules.upper_bonus = Some(read_upper_bonus(section, &box_named)?),
                "extra-bonus" => rules.extra_bonus = Some(read_extra_bonus(section, &box_named)?),
                other => {
                    return Err(RulesTextError {
                        line: section.line,
                        message: format!("no table [{other}]: the tables are [upper-bonus], [extra-bonus] and [[box]]"),
                    })
                }
            }
        }
        rules.check().map_err(|e| RulesTextError { line: line_of(doc, &e), message: e.message })?;
        Ok(rules)
    }

    /// The canonical text: TOML in one fixed layout (the top keys, the
    /// bonuses, then the boxes in order; only what differs from the
    /// defaults), which [`RuleSet::from_text`] reads back to the same rules.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "name = {:?}\ndice = {}\nrerolls = {}", self.name, self.dice, self.rerolls);
        if self.saved_rerolls {
            out.push_str("saved-rerolls = true\n");
        }
        if self.order != Order::Free {
            let _ = writeln!(out, "order = {:?}", self.order.name());
        }
        let quoted = |mask: u32| {
            let names: Vec<String> = (0..self.boxes.len())
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| format!("{:?}", self.boxes[b].name))
                .collect();
            format!("[{}]", names.join(", "))
        };
        if let Some(b) = self.upper_bonus {
            let _ = writeln!(out, "\n[upper-bonus]\nboxes = {}\nat = {}\npoints = {}", quoted(b.boxes), b.at, b.points);
        }
        if let Some(e) = self.extra_bonus {
            let name = &self.boxes[e.box_index].name;
            let _ =
                writeln!(out, "\n[extra-bonus]\nbox = {name:?}\npoints = {}\njoker = {:?}", e.points, e.joker.name());
        }
        for b in &self.boxes {
            let _ = writeln!(out, "\n[[box]]\nname = {:?}\nkind = {:?}", b.name, b.kind.name());
            write_kind(&mut out, &b.kind);
            if b.first_roll > 0 {
                let _ = writeln!(out, "first-roll = {}", b.first_roll);
            }
            if let Some(n) = b.needs {
                let _ = writeln!(out, "needs = {:?}", self.boxes[n].name);
            }
            if b.wins {
                out.push_str("wins = true\n");
            }
        }
        out
    }
}

/// The line a check's error is about: its key's, else its box's header.
fn line_of(doc: &Document, e: &RulesError) -> usize {
    let find = |section: &Section, key: &str| section.entries.iter().find(|(k, _, _)| k == key).map(|(_, _, l)| *l);
    if let Some(b) = e.box_index {
        let section = &doc.boxes[b];
        return find(section, e.key).unwrap_or(section.line);
    }
    match e.key.split_once('.') {
        Some((table, key)) => {
            doc.tables.iter().find(|(t, _)| t == table).map_or(doc.top.line, |(_, s)| find(s, key).unwrap_or(s.line))
        }
        None if e.key == "box" => doc.boxes.get(super::MOST_BOXES).map_or(doc.top.line, |s| s.line),
        None => find(&doc.top, e.key).unwrap_or(doc.top.line),
    }
}

fn write_score(out: &mut String, score: Score) {
    let _ = match score {
        Score::Dice => writeln!(out, "score = \"dice\""),
        Score::All => writeln!(out, "score = \"all\""),
        Score::Points(p) => writeln!(out, "score = {p}"),
    };
}

fn write_kind(out: &mut String, kind: &Kind) {
    let flag = |out: &mut String, key: &str, on: bool| {
        if on {
            let _ = writeln!(out, "{key} = true");
        }
    };
    match kind {
        Kind::Face(f) => {
            let _ = writeln!(out, "face = {f}");
        }
        Kind::Alike { count, score } => {
            let _ = writeln!(out, "count = {count}");
            write_score(out, *score);
        }
        Kind::Pairs { pairs, exactly, score } => {
            let _ = writeln!(out, "pairs = {pairs}");
            flag(out, "exactly", *exactly);
            write_score(out, *score);
        }
        Kind::Groups { sizes, more_alike, one_face, score } => {
            let sizes: Vec<String> = sizes.iter().map(u8::to_string).collect();
            let _ = writeln!(out, "sizes = [{}]", sizes.join(", "));
            flag(out, "more-alike", *more_alike);
            flag(out, "one-face", *one_face);
            write_score(out, *score);
        }
        Kind::Straight { runs, score } => {
            let runs: Vec<String> = runs
                .iter()
                .map(|r| {
                    let faces: Vec<String> =
                        (0..FACES).filter(|f| r >> f & 1 == 1).map(|f| (f + 1).to_string()).collect();
                    format!("[{}]", faces.join(", "))
                })
                .collect();
            let _ = writeln!(out, "runs = [{}]", runs.join(", "));
            write_score(out, *score);
        }
        Kind::Chance => {}
        Kind::Total { total, pair, score } => {
            let _ = writeln!(out, "total = {total}");
            flag(out, "pair", *pair);
            write_score(out, *score);
        }
    }
}

fn read_score(r: &mut Reader<'_>) -> Read<Score> {
    match r.get("score") {
        None => r.err(r.section.line, format!("{} has no score: add score = \"dice\", \"all\" or points", r.what)),
        Some((_, Value::Str(s), _)) if s == "dice" => Ok(Score::Dice),
        Some((_, Value::Str(s), _)) if s == "all" => Ok(Score::All),
        Some((_, Value::Int(p), _)) if (0..=i64::from(super::MOST_POINTS)).contains(p) => Ok(Score::Points(*p as u16)),
        Some((_, v, line)) => r.err(
            *line,
            format!(
                "score = {}: \"dice\" (the dice that make the box), \"all\" (all the dice) or points 0 to {}",
                show(v),
                super::MOST_POINTS
            ),
        ),
    }
}

/// A list of faces 1-6 as face bits.
fn faces_of(v: &Value) -> Option<u8> {
    let Value::List(items) = v else { return None };
    items.iter().try_fold(0u8, |bits, f| match f {
        Value::Int(n) if (1..=6).contains(n) && bits >> (n - 1) & 1 == 0 => Some(bits | 1 << (n - 1)),
        _ => None,
    })
}

fn read_box(s: &Section, dice: u8, box_named: &dyn Fn(&str, usize) -> Read<usize>) -> Read<BoxRule> {
    let mut r = Reader::new(s, "a [[box]]");
    let name = r.required_text("name", "\"chance\"")?.0.to_string();
    let (kind_name, kind_line) = r.required_text("kind", &format!("one of {KINDS}"))?;
    let d = i64::from(dice);
    let kind = match kind_name {
        "face" => Kind::Face(r.required_int("face", 1..=6)? as u8),
        "alike" => Kind::Alike { count: r.required_int("count", 2..=d)? as u8, score: read_score(&mut r)? },
        "pairs" => Kind::Pairs {
            pairs: r.required_int("pairs", 2..=3)? as u8,
            exactly: r.flag("exactly")?,
            score: read_score(&mut r)?,
        },
        "groups" => {
            let sizes = match r.get("sizes") {
                Some((_, Value::List(items), line)) => {
                    let sizes: Option<Vec<u8>> = items
                        .iter()
                        .map(|v| match v {
                            Value::Int(n) if (2..=d).contains(n) => Some(*n as u8),
                            _ => None,
                        })
                        .collect();
                    let mut sizes = sizes.ok_or_else(|| RulesTextError {
                        line: *line,
                        message: format!("sizes: a list of group sizes 2 to {dice}, like [3, 2] for a full house"),
                    })?;
                    sizes.sort_unstable_by(|a, b| b.cmp(a));
                    sizes
                }
                Some((_, v, line)) => return r.err(*line, format!("sizes = {}: a list like [3, 2]", show(v))),
                None => return r.err(s.line, "a groups box has no sizes: add sizes = [3, 2] (a full house)".into()),
            };
            Kind::Groups {
                sizes,
                more_alike: r.flag("more-alike")?,
                one_face: r.flag("one-face")?,
                score: read_score(&mut r)?,
            }
        }
        "straight" => {
            let runs = match r.get("runs") {
                Some((_, Value::List(items), line)) => {
                    items.iter().map(faces_of).collect::<Option<Vec<u8>>>().ok_or_else(|| RulesTextError {
                        line: *line,
                        message:
                            "runs: a list of lists of different faces 1-6, like [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]]"
                                .into(),
                    })?
                }
                Some((_, v, line)) => {
                    return r.err(*line, format!("runs = {}: a list like [[1, 2, 3, 4, 5]]", show(v)))
                }
                None => return r.err(s.line, "a straight box has no runs: add runs = [[1, 2, 3, 4, 5]]".into()),
            };
            Kind::Straight { runs, score: read_score(&mut r)? }
        }
        "chance" => Kind::Chance,
        "total" => Kind::Total {
            total: r.required_int("total", d..=6 * d)? as u8,
            pair: r.flag("pair")?,
            score: read_score(&mut r)?,
        },
        other => return r.err(kind_line, format!("kind = {other:?} is not a box kind: the kinds are {KINDS}")),
    };
    let first_roll = r.int("first-roll", 0..=i64::from(super::MOST_POINTS))?.unwrap_or(0) as u16;
    let needs = match r.text("needs")? {
        Some((n, line)) => Some(box_named(n, line)?),
        None => None,
    };
    let wins = r.flag("wins")?;
    r.done()?;
    Ok(BoxRule { name, kind, first_roll, needs, wins })
}

fn read_upper_bonus(s: &Section, box_named: &dyn Fn(&str, usize) -> Read<usize>) -> Read<UpperBonus> {
    let mut r = Reader::new(s, "[upper-bonus]");
    let boxes = match r.get("boxes") {
        Some((_, Value::List(items), line)) => items.iter().try_fold(0u32, |mask, v| match v {
            Value::Str(name) => Ok(mask | 1 << box_named(name, *line)?),
            other => Err(RulesTextError {
                line: *line,
                message: format!("boxes: {} is not a box's name in quotes", show(other)),
            }),
        })?,
        Some((_, v, line)) => {
            return r.err(*line, format!("boxes = {}: a list of box names, like [\"ones\", \"twos\"]", show(v)))
        }
        None => return r.err(s.line, "[upper-bonus] has no boxes: add boxes = [\"ones\", ...]".into()),
    };
    let at = r.required_int("at", 1..=1000)? as u16;
    let points = r.required_int("points", 0..=i64::from(super::MOST_POINTS))? as u16;
    r.done()?;
    Ok(UpperBonus { boxes, at, points })
}

fn read_extra_bonus(s: &Section, box_named: &dyn Fn(&str, usize) -> Read<usize>) -> Read<ExtraBonus> {
    let mut r = Reader::new(s, "[extra-bonus]");
    let (name, line) = r.required_text("box", "\"yahtzee\"")?;
    let box_index = box_named(name, line)?;
    let points = r.int("points", 0..=i64::from(super::MOST_POINTS))?.unwrap_or(0) as u16;
    let joker = match r.text("joker")? {
        None => Joker::None,
        Some((j, line)) => Joker::named(j).ok_or_else(|| RulesTextError {
            line,
            message: format!("joker = {j:?}: \"forced\", \"free\" or \"none\""),
        })?,
    };
    r.done()?;
    Ok(ExtraBonus { box_index, points, joker })
}

/// Reads a rule document in the canonical layout: `key = value` lines
/// (strings in double quotes, whole numbers, true or false, lists of
/// them), `[table]` and `[[box]]` headers, blank lines and `#` comments.
/// Other TOML (inline tables, dotted keys, multi-line strings) is for a
/// TOML parser to read into a [`Document`].
pub fn parse(text: &str) -> Result<Document, RulesTextError> {
    let mut doc = Document { top: Section { line: 1, entries: Vec::new() }, ..Document::default() };
    enum At {
        Top,
        Table(usize),
        Box(usize),
    }
    let mut at = At::Top;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if let Some(name) = l.strip_prefix("[[").and_then(|r| r.strip_suffix("]]")) {
            if name.trim() != "box" {
                return Err(RulesTextError {
                    line,
                    message: format!("[[{name}]]: the only list of tables is [[box]]"),
                });
            }
            doc.boxes.push(Section { line, entries: Vec::new() });
            at = At::Box(doc.boxes.len() - 1);
            continue;
        }
        if let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let name = name.trim().to_string();
            if doc.tables.iter().any(|(t, _)| *t == name) {
                return Err(RulesTextError { line, message: format!("[{name}] is given twice") });
            }
            doc.tables.push((name, Section { line, entries: Vec::new() }));
            at = At::Table(doc.tables.len() - 1);
            continue;
        }
        let Some((key, value)) = l.split_once('=') else {
            return Err(RulesTextError { line, message: format!("{l:?}: a line is key = value, [table] or [[box]]") });
        };
        let key = key.trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(RulesTextError { line, message: format!("{key:?} is not a key: letters, digits and -") });
        }
        let value = parse_value(value.trim()).map_err(|why| RulesTextError { line, message: why })?;
        let section = match at {
            At::Top => &mut doc.top,
            At::Table(t) => &mut doc.tables[t].1,
            At::Box(b) => &mut doc.boxes[b],
        };
        if section.entries.iter().any(|(k, _, _)| k == key) {
            return Err(RulesTextError { line, message: format!("{key} is given twice in one table") });
        }
        section.entries.push((key.to_string(), value, line));
    }
    Ok(doc)
}

/// One value of a line: the whole of `s` (a trailing `# comment` aside).
fn parse_value(s: &str) -> Result<Value, String> {
    let (value, rest) = value_prefix(s)?;
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with('#') {
        Ok(value)
    } else {
        Err(format!("{s:?}: one value a line (a string in quotes, a number, true, false or a list)"))
    }
}

/// A value at the start of `s`, and what follows it.
fn value_prefix(s: &str) -> Result<(Value, &str), String> {
    let bad = || format!("{s:?} is not a value: a string in quotes, a whole number, true, false or a [list]");
    if let Some(rest) = s.strip_prefix('"') {
        let end = rest.find('"').ok_or_else(bad)?;
        let text = &rest[..end];
        if text.contains('\\') {
            return Err(format!("{s:?}: strings here have no escapes"));
        }
        return Ok((Value::Str(text.to_string()), &rest[end + 1..]));
    }
    if let Some(mut rest) = s.strip_prefix('[') {
        let mut items = Vec::new();
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix(']') {
                return Ok((Value::List(items), after));
            }
            let (item, after) = value_prefix(rest)?;
            items.push(item);
            rest = after.trim_start();
            if let Some(after) = rest.strip_prefix(',') {
                rest = after;
            } else if !rest.starts_with(']') {
                return Err(bad());
            }
        }
    }
    for (word, b) in [("true", true), ("false", false)] {
        if let Some(rest) = s.strip_prefix(word) {
            return Ok((Value::Bool(b), rest));
        }
    }
    let digits = s.find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '+')).unwrap_or(s.len());
    let n: i64 = s[..digits].parse().map_err(|_| bad())?;
    Ok((Value::Int(n), &s[digits..]))
}

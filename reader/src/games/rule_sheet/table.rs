//! A rule set's tables as a directory holds them: `NAME.dtab` (its
//! expected scores, [`RuleSheet`]), `NAME-target.dtab` (played to reach
//! a target, [`RuleTarget`]), `NAME-duel.dtab` (played by two players,
//! [`RuleDuel`]) and `NAME-parts.dtab` (its values box by box, [`RuleParts`]), NAME the rule set's name in the rules each carries. Which one a file is, its header says.

use std::sync::Arc;

use super::{duel_stem, parts_stem, Board, RuleDuel, RuleParts, RuleSheet, RuleTarget, DUEL_ID, PARTS_ID, TARGET_ID};
use crate::error::{TableError, TableErrorKind};
use crate::game::{file_name, Game};
use crate::table::Table;

/// The file stem of rule set `name`'s target table: `NAME-target`.
pub fn target_stem(name: &str) -> String {
    format!("{name}-target")
}

/// One table of a rule set.
#[derive(Clone, Debug)]
pub enum RuleTable {
    /// Its expected scores (`NAME.dtab`).
    Sheet(Arc<RuleSheet>),
    /// Played to reach a target (`NAME-target.dtab`).
    Target(Arc<RuleTarget>),
    /// Played by two players (`NAME-duel.dtab`).
    Duel(Arc<RuleDuel>),
    /// Its values in parts, box by box (`NAME-parts.dtab`).
    Parts(Arc<RuleParts>),
}

impl RuleTable {
    /// The sheet's rules and states, as both tables read them.
    pub fn board(&self) -> &Board {
        match self {
            RuleTable::Sheet(s) => s,
            RuleTable::Target(t) => t,
            RuleTable::Duel(d) => d,
            RuleTable::Parts(p) => p,
        }
    }

    /// The table, when it is a [`RuleSheet`].
    pub fn sheet(self) -> Option<Arc<RuleSheet>> {
        if let RuleTable::Sheet(t) = self {
            Some(t)
        } else {
            None
        }
    }

    /// The table, when it is a [`RuleTarget`].
    pub fn target(self) -> Option<Arc<RuleTarget>> {
        if let RuleTable::Target(t) = self {
            Some(t)
        } else {
            None
        }
    }

    /// The table, when it is a [`RuleDuel`].
    pub fn duel(self) -> Option<Arc<RuleDuel>> {
        if let RuleTable::Duel(t) = self {
            Some(t)
        } else {
            None
        }
    }

    /// The table, when it is a [`RuleParts`].
    pub fn parts(self) -> Option<Arc<RuleParts>> {
        if let RuleTable::Parts(t) = self {
            Some(t)
        } else {
            None
        }
    }

    /// The game id its file's header carries: which kind of table it is.
    pub fn id(&self) -> &'static str {
        match self {
            RuleTable::Sheet(_) => super::ID,
            RuleTable::Target(_) => TARGET_ID,
            RuleTable::Duel(_) => DUEL_ID,
            RuleTable::Parts(_) => PARTS_ID,
        }
    }

    /// The stem of the table's file name: the rule set's name, with
    /// `-target` for its target table.
    pub fn stem(&self) -> String {
        match self {
            RuleTable::Sheet(s) => s.rules().name.clone(),
            RuleTable::Target(t) => target_stem(&t.rules().name),
            RuleTable::Duel(d) => duel_stem(&d.rules().name),
            RuleTable::Parts(p) => parts_stem(&p.rules().name),
        }
    }

    /// A file's bytes as the rule-set table its header names, checked
    /// whole (every chunk): refused when the rules it carries are another
    /// rule set's than the file's stem `stem` says.
    pub fn check(stem: &str, bytes: Vec<u8>) -> Result<RuleTable, TableError> {
        let table = Table::from_vec(bytes)?;
        let found = match table.header().game.as_str() {
            TARGET_ID => RuleTable::Target(Arc::new(RuleTarget::check(table)?)),
            DUEL_ID => RuleTable::Duel(Arc::new(RuleDuel::check(table)?)),
            PARTS_ID => RuleTable::Parts(Arc::new(RuleParts::check(table)?)),
            _ => RuleTable::Sheet(Arc::new(RuleSheet::check(table)?)),
        };
        found.named(stem)
    }

    /// An opened table as the rule-set table its header names (its header
    /// and rules checked, as [`Game::from_table`] checks them).
    pub fn from_table(table: Table) -> Result<RuleTable, TableError> {
        Ok(match table.header().game.as_str() {
            TARGET_ID => RuleTable::Target(Arc::new(RuleTarget::from_table(table)?)),
            DUEL_ID => RuleTable::Duel(Arc::new(RuleDuel::from_table(table)?)),
            PARTS_ID => RuleTable::Parts(Arc::new(RuleParts::from_table(table)?)),
            _ => RuleTable::Sheet(Arc::new(RuleSheet::from_table(table)?)),
        })
    }

    /// Whether a header is a rule-set table's (either kind).
    pub fn is_rule_table(header: &crate::format::Header) -> bool {
        [super::ID, TARGET_ID, DUEL_ID, PARTS_ID].contains(&header.game.as_str())
    }

    /// This table, when its file's stem is `stem`: refused, naming the
    /// file it should have, when its rules are another rule set's (for a
    /// table opened by [`from_table`](RuleTable::from_table), as
    /// [`check`](RuleTable::check) refuses it).
    pub fn named(self, stem: &str) -> Result<RuleTable, TableError> {
        if self.stem() != stem {
            let found = &self.board().rules().name;
            let why = format!("are rule set {found}'s: rename the file {}", file_name(&self.stem()));
            return Err(TableErrorKind::BadSection { name: "rules".into(), why }.into());
        }
        Ok(self)
    }
}

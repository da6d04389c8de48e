//! What a port did ([`crate::fix::port`]), for people: `schema-lint port`'s standard error and
//! `schema-lint proxy`'s log.

use crate::fix::port::{Meaning, Ported};
use std::fmt::Write as _;

/// One line per change and per finding left, then the counts.
#[must_use]
pub fn human(ported: &Ported, client: &str) -> String {
    let mut out = String::new();
    for c in &ported.changes {
        let tool = c
            .tool
            .as_deref()
            .map(|t| format!(" (tool `{t}`)"))
            .unwrap_or_default();
        let meaning = match c.meaning {
            Meaning::Kept => "kept",
            Meaning::Changed => "changed",
        };
        let _ = writeln!(
            out,
            "{meaning}: {} {}: {}{tool}",
            c.rule, c.pointer, c.change
        );
        for differs in &c.differs {
            let _ = writeln!(out, "  differs: {differs}");
        }
    }
    for left in &ported.left {
        let _ = writeln!(out, "left: {left}");
    }
    let changed = ported
        .changes
        .iter()
        .filter(|c| c.meaning == Meaning::Changed)
        .count();
    let _ = writeln!(
        out,
        "Ported for {client}: {} change(s), {} kept, {changed} changed; {} left",
        ported.changes.len(),
        ported.changes.len() - changed,
        ported.left.len()
    );
    out
}

//! `schema-lint rules` and `schema-lint rule CODE`.

use crate::rules::RuleMeta;
use std::fmt::Write;

/// The rule table, one row per rule.
#[must_use]
pub fn table(rules: &[&RuleMeta]) -> String {
    let mut out = String::new();
    let name_width = rules.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:<6} {:<name_width$} {:<12} {:<8} {:<9} summary",
        "code", "name", "category", "severity", "fix"
    );
    for r in rules {
        let _ = writeln!(
            out,
            "{:<6} {:<name_width$} {:<12} {:<8} {:<9} {}",
            r.code,
            r.name,
            r.category.to_string(),
            r.severity.to_string(),
            r.fix.to_string(),
            r.summary
        );
    }
    out
}

/// The rules as a JSON array of `{code, name, summary, category, severity, fix}`.
#[must_use]
pub fn json(rules: &[&RuleMeta]) -> String {
    let mut text = serde_json::to_string_pretty(rules).unwrap_or_default();
    text.push('\n');
    text
}

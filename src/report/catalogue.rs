//! `schema-lint rules` and `schema-lint rule CODE`.

use crate::diagnostic::meta::{Category, RuleMeta};
use std::fmt::Write;

/// Where the rule docs live: `helpUri` in SARIF, `codeDescription` in the language server.
const RULE_DOCS: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/rules/");

/// Where the README tells what the audit reports, for its verdict (SL600), which has no rule doc.
const AUDIT_DOCS: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/main/README.md#auditing-captured-calls"
);

/// The page of a rule's documentation: `rules/<CODE>.md` in the repository, or the README's
/// audit section for the audit's verdict, which is no rule of the catalogue.
#[must_use]
pub fn docs_url(rule: &RuleMeta) -> String {
    if crate::rules::docs::doc_for(rule).is_none() && rule.category == Category::Audit {
        return AUDIT_DOCS.to_owned();
    }
    format!("{RULE_DOCS}{}.md", rule.code)
}

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

/// The rule table of the README (Markdown), one row per rule.
#[must_use]
pub fn markdown(rules: &[&RuleMeta]) -> String {
    let mut out = String::from(
        "| code | name | category | severity | fix | summary |\n|---|---|---|---|---|---|\n",
    );
    for r in rules {
        let default = if r.default_enabled {
            ""
        } else {
            " (off by default)"
        };
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {}{default} |",
            r.code, r.name, r.category, r.severity, r.fix, r.summary
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

//! Rule metadata: what `schema-lint rules` lists and every diagnostic names. Each rule's metadata
//! is declared once, in the header of its doc (`rules/<CODE>.md`), and generated from there by
//! `build.rs` into the statics below (`SL201`, ..., and [`ALL`] in code order).

use super::Severity;
use serde::Serialize;
use std::fmt;

/// The family a rule belongs to (the hundreds of its code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// `SL1xx`: the JSON document itself.
    Document,
    /// `SL2xx`: `$id`, `$anchor` and the URIs they declare.
    Identifiers,
    /// `SL3xx`: `$ref` and `$dynamicRef`.
    References,
    /// `SL4xx`: `$schema`, dialects and their keywords.
    Dialect,
    /// `SL5xx`: MCP tool schemas.
    Mcp,
    /// `SL6xx`: captured MCP traffic (`schema-lint audit`).
    Audit,
    /// `SL9xx`: the tool itself (a fix that failed its proof).
    Tool,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Document => "document",
            Category::Identifiers => "identifiers",
            Category::References => "references",
            Category::Dialect => "dialect",
            Category::Mcp => "mcp",
            Category::Audit => "audit",
            Category::Tool => "tool",
        })
    }
}

/// Whether a rule can offer a fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FixAvailability {
    /// The rule never offers a fix.
    None,
    /// Some findings come with a fix.
    Sometimes,
    /// Every finding comes with a fix.
    Always,
}

impl fmt::Display for FixAvailability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FixAvailability::None => "none",
            FixAvailability::Sometimes => "sometimes",
            FixAvailability::Always => "always",
        })
    }
}

/// What `schema-lint rules` lists; the rule's doc in `rules/<CODE>.md` repeats it in its header.
#[derive(Debug, Serialize)]
pub struct RuleMeta {
    /// The rule's code (`SL201`).
    pub code: &'static str,
    /// The rule's kebab-case name (`parse-error`).
    pub name: &'static str,
    /// One sentence saying what the rule reports.
    pub summary: &'static str,
    /// The family the rule belongs to.
    pub category: Category,
    /// The severity of its findings unless a target or the rule itself says otherwise.
    pub severity: Severity,
    /// Whether its findings come with fixes.
    pub fix: FixAvailability,
    /// Whether the rule runs without `--select` naming it.
    pub default_enabled: bool,
}

include!(concat!(env!("OUT_DIR"), "/rule_meta.rs"));

/// SL100, reported when a file cannot be read or parsed.
pub use self::SL100 as PARSE_ERROR;
/// SL901, reported by the fix loop when a fix fails its proof.
pub use self::SL901 as FIX_NOT_VERIFIED;

/// The rule with this code (any case) or name.
#[must_use]
pub fn find(code_or_name: &str) -> Option<&'static RuleMeta> {
    ALL.iter()
        .copied()
        .find(|m| m.code.eq_ignore_ascii_case(code_or_name) || m.name == code_or_name)
}

//! Rule metadata: what `schema-lint rules` lists and every diagnostic names. Each rule's metadata
//! is declared once, in the header of its doc (`rules/<CODE>.md`), and generated from there by
//! `build.rs` into the statics below (`SL201`, ..., and [`ALL`] in code order), among it where the
//! rule lints ([`Scope`]), which dispatch reads so that no rule checks it itself.

use super::breaks::Client;
use super::target::Target;
use super::Severity;
use crate::schema::units::Role;
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
    /// `SL7xx`: what hosts and model providers accept of a tool's schema.
    Providers,
    /// `SL8xx`: what changed between two versions (`schema-lint diff`).
    Diff,
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
            Category::Providers => "providers",
            Category::Diff => "diff",
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
    /// Where the rule lints: for which targets (at what severity), which schemas, about which
    /// clients.
    #[serde(skip)]
    pub scope: Scope,
}

/// Where a rule lints, from the `Targets: … · Roles: … · Clients: …` line of its doc's header
/// (every target at the rule's severity, every role and every client where the line is absent).
/// Dispatch runs a rule only on a schema in its scope.
#[derive(Debug)]
pub struct Scope {
    /// The targets the rule lints for, each with the rule's severity there.
    pub targets: &'static [TargetSeverity],
    /// The schemas it looks at: a tool's input or output schema, or a schema file.
    pub roles: &'static [Role],
    /// The clients its findings are about: it runs when one of them is selected.
    pub clients: &'static [Client],
    /// Whether its findings of one class in several tools of a `tools/list` document are one
    /// finding, with every tool as a related place (`Grouped: listing`): one root cause, such
    /// as a server that stamps a dialect on every schema, is reported once.
    pub grouped: bool,
}

/// The severity of a rule's findings for one target, before the clients they break decide
/// ([`super::severity::decide`]).
#[derive(Debug)]
pub struct TargetSeverity {
    /// The target.
    pub target: Target,
    /// The rule's severity for it.
    pub severity: Severity,
}

impl RuleMeta {
    /// The rule's severity for `target`, or `None` where it does not lint for that target.
    #[must_use]
    pub fn severity_for(&self, target: Target) -> Option<Severity> {
        self.scope
            .targets
            .iter()
            .find(|t| t.target == target)
            .map(|t| t.severity)
    }

    /// Whether the rule lints a schema of `role` for `target`, with the clients `clients`
    /// selected.
    #[must_use]
    pub fn applies(&self, target: Target, role: Role, clients: &[Client]) -> bool {
        self.severity_for(target).is_some()
            && self.scope.roles.contains(&role)
            && self.scope.clients.iter().any(|c| clients.contains(c))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_comes_from_the_doc_header() {
        let default = &Client::DEFAULT;
        // `Targets: mcp-2025-06-18, mcp-2025-11-25, mcp-2026-07-28 (warning) · Roles: output, schema`
        assert_eq!(
            SL501.severity_for(Target::Mcp20251125),
            Some(Severity::Error)
        );
        assert_eq!(
            SL501.severity_for(Target::Mcp20260728),
            Some(Severity::Warning)
        );
        assert_eq!(SL501.severity_for(Target::JsonSchema), None);
        assert!(SL501.applies(Target::Mcp20251125, Role::OutputSchema, default));
        assert!(SL501.applies(Target::Mcp20251125, Role::Schema, default));
        assert!(!SL501.applies(Target::Mcp20251125, Role::InputSchema, default));
        assert!(!SL501.applies(Target::JsonSchema, Role::Schema, default));
        // `Targets: mcp · Roles: input`
        assert!(SL507.applies(Target::Mcp20260728, Role::InputSchema, default));
        assert!(!SL507.applies(Target::Mcp20260728, Role::OutputSchema, default));
        // `Clients: ts-sdk-v1`: silent for a run that selects only other clients.
        assert!(SL502.applies(Target::Mcp20250618, Role::OutputSchema, default));
        assert!(!SL502.applies(
            Target::Mcp20250618,
            Role::OutputSchema,
            &[Client::PythonSdk]
        ));
        // No scope line: every target at the rule's severity, every role, every client.
        for target in [Target::JsonSchema, Target::Mcp20251125] {
            assert_eq!(SL201.severity_for(target), Some(SL201.severity));
            for role in [Role::Schema, Role::InputSchema, Role::OutputSchema] {
                assert!(SL201.applies(target, role, &[Client::JsonschemaRs]));
            }
        }
    }

    #[test]
    fn no_mcp_rule_lints_plain_json_schema() {
        for meta in ALL
            .iter()
            .filter(|m| matches!(m.category, Category::Mcp | Category::Providers))
        {
            assert_eq!(meta.severity_for(Target::JsonSchema), None, "{}", meta.code);
        }
    }
}

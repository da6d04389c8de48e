//! Targets: which clients and protocol revision a schema is linted for, and so which rules lint
//! it and at what severity (each rule's [`super::meta::Scope`]).

use clap::ValueEnum;
use serde::Deserialize;
use std::fmt;

/// The clients and protocol revision a schema is linted for; it decides which rules apply and
/// at what severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ValueEnum, Deserialize)]
pub enum Target {
    /// MCP protocol revision 2025-06-18
    #[value(name = "mcp-2025-06-18")]
    #[serde(rename = "mcp-2025-06-18")]
    Mcp20250618,
    /// MCP protocol revision 2025-11-25 (the default for `tools/list` documents)
    #[value(name = "mcp-2025-11-25")]
    #[serde(rename = "mcp-2025-11-25")]
    Mcp20251125,
    /// MCP protocol revision 2026-07-28
    #[value(name = "mcp-2026-07-28")]
    #[serde(rename = "mcp-2026-07-28")]
    Mcp20260728,
    /// Plain JSON Schema, no MCP rules (the default for schema files)
    #[value(name = "json-schema")]
    #[serde(rename = "json-schema")]
    JsonSchema,
}

impl Target {
    /// Whether the MCP output-schema rules apply.
    #[must_use]
    pub fn is_mcp(self) -> bool {
        self != Target::JsonSchema
    }

    /// Whether the revision requires `"type": "object"` at the root of output schemas.
    #[must_use]
    pub fn requires_object_root(self) -> bool {
        matches!(self, Target::Mcp20250618 | Target::Mcp20251125)
    }

    /// Whether the revision's `tools/list` result types the root `required` of a tool's input
    /// schema (an array of names), which its SDK clients check before they use any tool: the
    /// 2025 revisions. The clients of 2026-07-28 read a listing where it is not (measured).
    #[must_use]
    pub fn types_input_required(self) -> bool {
        matches!(self, Target::Mcp20250618 | Target::Mcp20251125)
    }

    /// The target of an MCP protocol revision (`2025-11-25` -> `mcp-2025-11-25`).
    #[must_use]
    pub fn of_protocol(revision: &str) -> Option<Self> {
        match revision {
            "2025-06-18" => Some(Target::Mcp20250618),
            "2025-11-25" => Some(Target::Mcp20251125),
            "2026-07-28" => Some(Target::Mcp20260728),
            _ => None,
        }
    }

    /// The name used on the command line, in configuration and in reports (`mcp-2025-11-25`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Target::Mcp20250618 => "mcp-2025-06-18",
            Target::Mcp20251125 => "mcp-2025-11-25",
            Target::Mcp20260728 => "mcp-2026-07-28",
            Target::JsonSchema => "json-schema",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

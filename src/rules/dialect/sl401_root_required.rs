//! SL401 on the root `required` of a tool's input schema that is not an array: part of the
//! `tools/list` shape of the 2025 revisions, which the SDK clients check before they use any
//! tool, so what it costs is the whole listing, not the schema (measured by the listing tier:
//! `testdata/engines/listings/sl401-required-*.json`).

use crate::diagnostic::breaks::{self, classes};
use crate::diagnostic::target::Target;
use crate::diagnostic::Diagnostic;
use crate::rules::UnitContext;
use crate::schema::units::Role;
use crate::syntax::document::{Node, NodeKind};

/// The value of the failure at `tokens` (below the resource at `base_pointer`, whose node is
/// `root`) where it is the root `required` of a tool's input schema, linted for an MCP target,
/// and not an array (a draft-04 `[]` or a name given twice fails the meta-schema too, and is a
/// list the clients read).
pub(super) fn value<'n>(
    cx: &UnitContext<'_>,
    base_pointer: &str,
    tokens: &[String],
    root: &'n Node,
) -> Option<&'n Node> {
    let at_root = tokens.len() == 1 && tokens[0] == "required" && base_pointer == cx.unit.pointer;
    if !at_root || cx.unit.role != Role::InputSchema || !cx.target.is_mcp() {
        return None;
    }
    root.pointer("/required").filter(|v| v.as_array().is_none())
}

/// The finding on such a `value`: its class by spelling, `null` (as some Python servers write a
/// tool without arguments; the Python clients take it) or anything else (a string, measured;
/// they refuse it too), with `note`, what the meta-schema says. On 2026-07-28, whose clients
/// read the listing all the same (measured), no class: the note says what the clients of the
/// 2025 revisions do, and the rule's severity stays.
pub(super) fn finding(
    cx: &UnitContext<'_>,
    found: Diagnostic,
    note: &str,
    value: &Node,
) -> Diagnostic {
    let (class, help) = match &value.kind {
        NodeKind::Null => (
            classes::SL401_ROOT_REQUIRED,
            "Remove `\"required\": null`: the tool requires no argument; where it does, \
             `required` lists their names in an array"
                .to_owned(),
        ),
        NodeKind::String(name) => (
            classes::SL401_ROOT_REQUIRED_OTHER,
            format!(
                "Write `{}`: `required` lists the names of the required arguments in an array",
                serde_json::json!([name.as_str()])
            ),
        ),
        _ => (
            classes::SL401_ROOT_REQUIRED_OTHER,
            "Write the names of the required arguments in an array".to_owned(),
        ),
    };
    let found = found.help(help);
    if cx.target.types_input_required() {
        return found
            .note(format!(
                "{note}; the 2025 revisions' `tools/list` result lists a tool's required \
                 arguments in an array, which the clients check before they use any tool"
            ))
            .class(class);
    }
    debug_assert_eq!(cx.target, Target::Mcp20260728);
    let clients = breaks::describe(class.breaks, None);
    let clients = clients
        .strip_prefix("Measured on the engines of the MCP clients: ")
        .unwrap_or(&clients);
    found.note(format!(
        "{note}. The SDK clients of 2026-07-28 read the listing all the same (measured), but on \
         the 2025-11-25 sessions a server may still serve, {clients}"
    ))
}

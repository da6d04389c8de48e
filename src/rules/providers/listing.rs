//! What the provider rules share of a `tools/list` document: a tool's own object (its `name`,
//! its `description`) beside the input schema the rule lints, every tool of the listing (for the
//! limits a provider counts across one request), the server name a host puts before the tool's,
//! and the edits their fixes make.

use crate::rules::UnitContext;
use crate::syntax::document::{escape_pointer_token, Member, Node};

/// A JSON-pointer token for `key`.
#[must_use]
pub fn escape(key: &str) -> String {
    escape_pointer_token(key)
}

/// The tool whose input schema the unit is: the object that holds `inputSchema`, with its
/// pointer.
#[must_use]
pub fn tool<'a>(cx: &UnitContext<'a>) -> Option<(&'a Node, &'a str)> {
    let pointer = cx.unit.pointer.strip_suffix("/inputSchema")?;
    Some((cx.root.pointer(pointer)?, pointer))
}

/// The `tools` array of the unit's `tools/list` document (`{"tools": [...]}` or a JSON-RPC
/// response carrying one).
#[must_use]
pub fn tools(root: &Node) -> &[Node] {
    root.get("tools")
        .or_else(|| root.get("result")?.get("tools"))
        .and_then(Node::as_array)
        .unwrap_or(&[])
}

/// The index, in the listing, of the unit's tool.
#[must_use]
pub fn tool_index(cx: &UnitContext<'_>) -> Option<usize> {
    let pointer = cx.unit.pointer.strip_suffix("/inputSchema")?;
    pointer.rsplit('/').next()?.parse().ok()
}

pub use crate::rules::analysis::node::opening;
pub use crate::rules::edits::members::removal_span;

/// Where and what to insert so that `"key": value` (`member`, already written) follows
/// `members[i]`, laid out like the members around it: before the next member's key with the
/// same separator, or after the last one with the separator that precedes it.
#[must_use]
pub fn insert_after(
    text: &str,
    object: &Node,
    members: &[Member],
    i: usize,
    member: &str,
) -> (usize, String) {
    let this = &members[i];
    if let Some(next) = members.get(i + 1) {
        let between = &text[this.value.span.end..next.key_span.start];
        let separator = between.trim_start().strip_prefix(',').unwrap_or(" ");
        return (next.key_span.start, format!("{member},{separator}"));
    }
    let before = if let Some(p) = i.checked_sub(1) {
        let between = &text[members[p].value.span.end..this.key_span.start];
        between.trim_start().strip_prefix(',').unwrap_or(" ")
    } else {
        let leading = &text[object.span.start + 1..this.key_span.start];
        if leading.contains('\n') {
            leading
        } else {
            " "
        }
    };
    (this.value.span.end, format!(",{before}{member}"))
}

//! Small readings of one subschema's node that rules of several families share: where its
//! opening brace is, and what its `type` names.

use crate::syntax::document::{Node, NodeKind};
use crate::syntax::source::Span;

/// The one-byte span of an object's opening brace (the whole node for other values).
#[must_use]
pub fn opening(node: &Node) -> Span {
    match node.kind {
        NodeKind::Object(_) | NodeKind::Array(_) => Span::new(node.span.start, node.span.start + 1),
        _ => node.span,
    }
}

/// The `type` keyword's names (one string or an array of strings); `None` without a `type`.
#[must_use]
pub fn type_names(node: &Node) -> Option<Vec<&str>> {
    let t = node.get("type")?;
    match &t.kind {
        NodeKind::String(s) => Some(vec![s.as_str()]),
        NodeKind::Array(items) => Some(items.iter().filter_map(Node::as_str).collect()),
        _ => Some(Vec::new()),
    }
}

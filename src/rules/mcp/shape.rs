//! What the MCP tool-schema rules (`SL5xx`) share: what a schema's `type` allows, whether a
//! subschema accepts objects only (on the unit's tree, [`crate::rules::analysis::tree`]), and the
//! `"type": "object"` fix of the root rules (SL501 for output schemas, SL507 for input schemas).

use crate::diagnostic::breaks::{self, Class};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::tree::Tree;
use crate::rules::UnitContext;
use crate::syntax::document::{Member, Node};
use crate::syntax::source::Span;

pub use crate::rules::analysis::node::{opening, type_names};

/// The members of the root `properties` of the unit's schema, where it is an object.
pub fn root_properties<'a>(cx: &'a UnitContext<'_>) -> Option<&'a [Member]> {
    cx.subschemas
        .first()
        .and_then(|root| root.node.get("properties"))
        .and_then(|p| p.as_object())
}

/// Whether the schema's `type` allows objects (no `type` allows everything).
#[must_use]
pub fn may_be_object(node: &Node) -> bool {
    type_names(node).is_none_or(|t| t.contains(&"object"))
}

/// How many members of the object are named `key`.
#[must_use]
pub fn count_members(node: &Node, key: &str) -> usize {
    node.as_object()
        .map_or(0, |m| m.iter().filter(|m| m.key == key).count())
}

pub use crate::rules::edits::members::removal_span;

/// Sets the note and the engine tier's class of a finding that the listing tier measured on
/// 2025-11-25 sessions. Where the target restricts what this finding is about (`restricted`,
/// the 2025 revisions), the class: its measured breaks decide the client note and the
/// severity. Where it does not (2026-07-28), no class, so the rule's severity for the target
/// stays; the note says what the 2025 clients that still read the listing do, as measured.
#[must_use]
pub fn measured(
    diagnostic: Diagnostic,
    restricted: bool,
    note: &str,
    class: Class,
    advice: &str,
) -> Diagnostic {
    if restricted {
        diagnostic.note(note).class(class)
    } else {
        let clients = breaks::describe(class.breaks, None);
        let clients = clients
            .strip_prefix("Measured on the engines of the MCP clients: ")
            .unwrap_or(&clients);
        diagnostic.note(format!(
            "2026-07-28 allows it, but a client of the 2025 revisions still reads this listing: \
             {note}. Measured on 2025-11-25 sessions: {clients}. {advice}"
        ))
    }
}

/// Keywords that show the author meant a root without `type` to be an object.
pub const OBJECT_KEYWORDS: [&str; 4] = [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
];

/// Whether subschema `i` accepts objects only: it says `"type": "object"`, its `$ref`s lead to
/// such subschemas, every branch of its `anyOf`/`oneOf` does, or a branch of its `allOf` does.
/// `seen` breaks reference cycles (a cycle proves nothing).
pub fn object_only(tree: &Tree<'_>, i: usize, seen: &mut Vec<usize>) -> bool {
    if seen.contains(&i) {
        return false;
    }
    seen.push(i);
    let node = tree.subs[i].node;
    let proven = node.get("type").and_then(Node::as_str) == Some("object")
        || {
            let refs = tree.refs_of(i);
            !refs.is_empty()
                && refs
                    .iter()
                    .all(|t| t.is_some_and(|t| object_only(tree, t, seen)))
        }
        || ["anyOf", "oneOf"].iter().any(|k| {
            let branches = tree.children_under(i, k);
            let declared = node
                .get(k)
                .and_then(Node::as_array)
                .map_or(0, <[Node]>::len);
            !branches.is_empty()
                && branches.len() == declared
                && branches.iter().all(|&b| object_only(tree, b, seen))
        })
        || tree
            .children_under(i, "allOf")
            .iter()
            .any(|&b| object_only(tree, b, seen));
    seen.pop();
    proven
}

/// Why the unit's root, an object schema without `type`, accepts objects only (its `$ref` or
/// every branch of its union says so), in words; `None` when that cannot be shown.
#[must_use]
pub fn object_only_root(cx: &UnitContext<'_>, root: &Node) -> Option<String> {
    object_only(cx.tree(), 0, &mut Vec::new()).then(|| {
        ["anyOf", "oneOf", "allOf"]
            .iter()
            .find(|k| root.get(k).is_some())
            .map_or_else(
                || "its `$ref` leads to an object".to_owned(),
                |k| format!("every instance its `{k}` accepts is an object"),
            )
    })
}

/// The fix that adds `"type": "object"` to a root without `type` (`members` its members, at
/// least one), as its first member.
#[must_use]
pub fn add_object_type(
    cx: &UnitContext<'_>,
    root: &Node,
    members: &[Member],
    applicability: Applicability,
) -> Option<Fix> {
    let first = members.first()?;
    Some(Fix {
        title: "Add `\"type\": \"object\"` to the root".to_owned(),
        applicability,
        edits: vec![insert_type(cx, root, members, first)],
        moves: Vec::new(),
    })
}

/// The fix that writes `"type": ["object"]` as `"type": "object"`, which validates exactly the
/// same values, when `member` is such a `type`.
#[must_use]
pub fn single_object_type(cx: &UnitContext<'_>, member: &Member) -> Option<Fix> {
    let only_object = member
        .value
        .as_array()
        .is_some_and(|a| a.len() == 1 && a[0].as_str() == Some("object"));
    only_object.then(|| Fix {
        title: "Replace `[\"object\"]` with `\"object\"`".to_owned(),
        applicability: Applicability::Safe,
        edits: vec![Edit {
            file: cx.file.id,
            span: member.value.span,
            content: "\"object\"".to_owned(),
        }],
        moves: Vec::new(),
    })
}

/// `"type": "object"` as the root's first member, laid out like the members already there.
fn insert_type(cx: &UnitContext<'_>, root: &Node, members: &[Member], first: &Member) -> Edit {
    let text = cx.text();
    let leading = &text[root.span.start + 1..first.key_span.start];
    let colon = &text[first.key_span.end..first.value.span.start];
    let separator = if leading.contains('\n') {
        leading
    } else {
        members.get(1).map_or(" ", |second| {
            let between = &text[first.value.span.end..second.key_span.start];
            between
                .trim_start()
                .strip_prefix(',')
                .filter(|s| !s.contains('\n'))
                .unwrap_or(" ")
        })
    };
    Edit {
        file: cx.file.id,
        span: Span::new(first.key_span.start, first.key_span.start),
        content: format!("\"type\"{colon}\"object\",{separator}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::fix::{apply_edits, Edit};
    use crate::syntax::document::parse;
    use crate::syntax::source::FileId;

    fn remove(text: &str, key: &str) -> String {
        let root = parse(text).unwrap();
        let members = root.as_object().unwrap();
        let i = members.iter().position(|m| m.key == key).unwrap();
        let edit = Edit {
            file: FileId(0),
            span: removal_span(&root, members, i),
            content: String::new(),
        };
        apply_edits(text, &[&edit]).unwrap()
    }

    #[test]
    fn removes_a_member_in_the_files_style() {
        assert_eq!(remove(r#"{"a": 1, "b": 2}"#, "a"), r#"{"b": 2}"#);
        assert_eq!(remove(r#"{"a": 1, "b": 2}"#, "b"), r#"{"a": 1}"#);
        assert_eq!(
            remove("{\n  \"a\": 1,\n  \"b\": 2\n}", "b"),
            "{\n  \"a\": 1\n}"
        );
        assert_eq!(
            remove("{\r\n  \"a\": 1,\r\n  \"b\": 2,\r\n  \"c\": 3\r\n}", "b"),
            "{\r\n  \"a\": 1,\r\n  \"c\": 3\r\n}"
        );
        assert_eq!(remove("{ \"a\": 1 }", "a"), "{}");
    }
}

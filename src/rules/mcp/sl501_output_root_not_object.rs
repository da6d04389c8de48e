//! SL501 output-root-not-object: an output schema whose root is not `"type": "object"`, which
//! MCP requires through 2025-11-25.

use super::shape::{self as mcp, Tree};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL501 as META;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::settings::target::Target;
use crate::syntax::document::{Member, Node, NodeKind};
use crate::syntax::source::Span;

pub struct OutputRootNotObject;

const NOTE: &str = "MCP 2025-06-18 and 2025-11-25 restrict output schemas to `\"type\": \"object\"` at the \
     root. The TS v1 client parses `tools/list` with `type: z.literal(\"object\")` and the Python client \
     on a 2025 session with `type: Literal[\"object\"]`: one such schema fails the whole listing, and \
     every tool of the server is lost (typescript-sdk #1149, fastmcp #2455)";

const WRAP_HELP: &str = "Wrap the output in an object, `{\"type\": \"object\", \"properties\": {\"result\": ...}, \
     \"required\": [\"result\"]}`, as the Python SDK and the TS v2 server do for non-object results";

/// Keywords that show the author meant the root to be an object.
const OBJECT_KEYWORDS: [&str; 4] = [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
];

impl Rule for OutputRootNotObject {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn severity(&self, target: Target) -> Option<Severity> {
        if target.requires_object_root() {
            Some(META.severity)
        } else {
            // 2026-07-28 allows any root, but the clients of the 2025 revisions still read the
            // listing: a server that serves both loses every tool for them.
            (target == Target::Mcp20260728).then_some(Severity::Warning)
        }
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        if !mcp::applies(cx) {
            return;
        }
        let Some(root) = cx.subschemas.first().map(|s| s.node) else {
            return;
        };
        let pointer = &cx.unit.pointer;
        let members = match &root.kind {
            NodeKind::Object(members) => members,
            NodeKind::Bool(b) => {
                out.push(
                    Diagnostic::new(
                        &META,
                        cx.file.id,
                        root.span,
                        format!("Output schema is the boolean `{b}`, not an object schema"),
                    )
                    .label("not `{\"type\": \"object\"}`")
                    .help(WRAP_HELP)
                    .note(note(cx.target))
                    .pointer(pointer.clone()),
                );
                return;
            }
            _ => return,
        };
        match root.member("type") {
            Some(m) if m.value.as_str() == Some("object") => {}
            Some(m) => out.push(wrong_type(cx, m)),
            None => out.push(missing_type(cx, root, members)),
        }
    }
}

/// `"type"` is there but is not the string `"object"`.
fn wrong_type(cx: &UnitContext<'_>, m: &Member) -> Diagnostic {
    let shown = m.value.to_value().to_string();
    let diagnostic = Diagnostic::new(
        &META,
        cx.file.id,
        m.value.span,
        format!("Output schema root has `\"type\": {shown}` instead of `\"type\": \"object\"`"),
    )
    .label("must be the string `\"object\"`")
    .note(note(cx.target))
    .pointer(format!("{}/type", cx.unit.pointer));
    let only_object = m
        .value
        .as_array()
        .is_some_and(|a| a.len() == 1 && a[0].as_str() == Some("object"));
    if only_object {
        // `["object"]` validates exactly what `"object"` does.
        diagnostic
            .help("Write the type as the string `\"object\"`: the clients compare it literally")
            .fix(Fix {
                title: "Replace `[\"object\"]` with `\"object\"`".to_owned(),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    file: cx.file.id,
                    span: m.value.span,
                    content: "\"object\"".to_owned(),
                }],
                moves: Vec::new(),
            })
    } else if m
        .value
        .as_array()
        .is_some_and(|a| a.iter().any(|t| t.as_str() == Some("object")))
    {
        diagnostic.help(
            "Keep only `\"object\"`: the 2025 revisions allow nothing else at the root; put a value \
             that may be null in a property instead",
        )
    } else {
        diagnostic.help(WRAP_HELP)
    }
}

/// No `"type"` at the root.
fn missing_type(cx: &UnitContext<'_>, root: &Node, members: &[Member]) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        &META,
        cx.file.id,
        mcp::opening(root),
        "Output schema root has no `\"type\": \"object\"`",
    )
    .label("no `type` in this object")
    .note(note(cx.target))
    .pointer(cx.unit.pointer.clone());
    // Every instance the root accepts is an object already (its `$ref` or every branch of its
    // union says so): `"type": "object"` beside it validates exactly the same values.
    let proven = object_only(&Tree::new(cx), 0, &mut Vec::new()).then(|| {
        let how = ["anyOf", "oneOf", "allOf"]
            .iter()
            .find(|k| root.get(k).is_some())
            .map_or_else(
                || "its `$ref` leads to an object".to_owned(),
                |k| format!("every instance its `{k}` accepts is an object"),
            );
        (how, Applicability::Safe)
    });
    let keyword = OBJECT_KEYWORDS
        .iter()
        .find(|k| root.get(k).is_some())
        .map(|k| (format!("it has `{k}`"), Applicability::Unsafe));
    match (proven.or(keyword), members.first()) {
        (Some((reason, applicability)), Some(first)) => diagnostic
            .help(format!(
                "The root is meant to be an object ({reason}): add `\"type\": \"object\"`"
            ))
            .fix(Fix {
                title: "Add `\"type\": \"object\"` to the root".to_owned(),
                applicability,
                edits: vec![insert_type(cx, root, members, first)],
                moves: Vec::new(),
            }),
        _ => diagnostic.help(WRAP_HELP),
    }
}

/// The note: what the 2025 revisions require, and on 2026-07-28 who still reads them.
fn note(target: Target) -> String {
    if target.requires_object_root() {
        NOTE.to_owned()
    } else {
        format!(
            "2026-07-28 allows any root, but a client of the 2025 revisions still reads this \
             listing: {NOTE}. A server that also serves 2025 sessions should keep an object root"
        )
    }
}

/// Whether subschema `i` accepts objects only: it says `"type": "object"`, its `$ref`s lead to
/// such subschemas, every branch of its `anyOf`/`oneOf` does, or a branch of its `allOf` does.
/// `seen` breaks reference cycles (a cycle proves nothing).
fn object_only(tree: &Tree<'_, '_>, i: usize, seen: &mut Vec<usize>) -> bool {
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

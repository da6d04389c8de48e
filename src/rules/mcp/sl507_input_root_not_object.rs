//! SL507 input-root-not-object: an input schema whose root is not `"type": "object"`, which
//! every MCP revision requires and the SDK clients check when they read `tools/list`.

use super::shape as mcp;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::{SL507 as META, SL704, SL707, SL708};
use crate::diagnostic::Diagnostic;
use crate::rules::edits::inline::inline_root_ref;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{Member, Node, NodeKind};

pub struct InputRootNotObject;

const NOTE: &str = "Every MCP revision restricts input schemas to `\"type\": \"object\"` at the root (tool \
     arguments are a JSON object), and the SDK clients parse `tools/list` by that rule (the TS clients \
     with `type: z.literal(\"object\")`, the Python client with `type: Literal[\"object\"]`)";

const HELP: &str =
    "Make the root `{\"type\": \"object\", \"properties\": {...}}`: tool arguments are always \
     a JSON object, so describe each argument as a property";

/// Keywords through which a root without `type` may still reject every object: where one is
/// there, only a proof that the root accepts objects only makes the fix safe.
const MAY_EXCLUDE_OBJECTS: [&str; 9] = [
    "$ref",
    "$dynamicRef",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "const",
    "enum",
];

impl Rule for InputRootNotObject {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.subschemas.first().map(|s| s.node) else {
            return;
        };
        let diagnostic = match &root.kind {
            NodeKind::Object(members) => match root.member("type") {
                Some(m) if m.value.as_str() == Some("object") => return,
                Some(m) => wrong_type(cx, m),
                None => missing_type(cx, root, members),
            },
            NodeKind::Bool(b) => boolean(cx, root, *b),
            _ => return,
        };
        out.push(diagnostic);
    }
}

/// `"type"` is there but is not the string `"object"`.
fn wrong_type(cx: &UnitContext<'_>, m: &Member) -> Diagnostic {
    let shown = m.value.to_value().to_string();
    let diagnostic = cx
        .report(
            m.value.span,
            format!("Input schema root has `\"type\": {shown}` instead of `\"type\": \"object\"`"),
        )
        .label("must be the string `\"object\"`")
        .note(NOTE)
        .pointer(format!("{}/type", cx.unit.pointer))
        .class(classes::SL507_OTHER_TYPE);
    match mcp::single_object_type(cx, m) {
        Some(fix) => diagnostic
            .help("Write the type as the string `\"object\"`: the clients compare it literally")
            .fix(fix),
        None => diagnostic.help(HELP),
    }
}

/// No `"type"` at the root.
fn missing_type(cx: &UnitContext<'_>, root: &Node, members: &[Member]) -> Diagnostic {
    let diagnostic = cx
        .report(
            mcp::opening(root),
            "Input schema root has no `\"type\": \"object\"`",
        )
        .label("no `type` in this object")
        .note(NOTE)
        .pointer(cx.unit.pointer.clone())
        .class(classes::SL507_MISSING_TYPE);
    // Arguments are always an object: where the root accepts objects (it says nothing that
    // could reject them all, or it provably accepts objects only), the type restates it.
    let reason = mcp::object_only_root(cx, root).or_else(|| {
        (!MAY_EXCLUDE_OBJECTS.iter().any(|k| root.get(k).is_some()))
            .then(|| "tool arguments are always an object".to_owned())
    });
    if members.is_empty() {
        return diagnostic
            .help("Write `{\"type\": \"object\"}`: a tool without arguments takes an empty object")
            .fix(replace_root(cx, root, "{}"));
    }
    let Some(reason) = reason else {
        return diagnostic.help(HELP);
    };
    if root.get("$ref").is_some() {
        if let Some(fix) = inline_root_ref(cx).filter(|_| !hides_refs_from_gemini(cx)) {
            return diagnostic
                .help(
                    "Write the object schema the root `$ref` names at the root, in place of the \
                     reference: it validates the same arguments, and no host sees a `type` \
                     beside a `$ref` (which gemini-cli refuses) or a root `anyOf` (which Claude \
                     Code drops)",
                )
                .fix(fix);
        }
    }
    match type_fix(cx, root, members) {
        Some(fix) => diagnostic
            .help(format!(
                "Add `\"type\": \"object\"` to the root ({reason}): it validates the same arguments"
            ))
            .fix(fix),
        None => diagnostic.help(
            "Write the object the root `$ref` names at the root, with `\"type\": \"object\"`: \
             gemini-cli refuses a `type` beside a `$ref` (SL708) and Claude Code drops a tool \
             whose root `$ref` moved into an `anyOf` (SL704)",
        ),
    }
}

/// Whether SL707's clients (Gemini's `parameters`) are selected and the object the root's `$ref`
/// names holds references itself: SL707 does not look under `$defs`, so written out at the
/// root those references would be findings the proof counts as new (SL707's own fix, which
/// inlines every reference, is what Gemini needs there).
fn hides_refs_from_gemini(cx: &UnitContext<'_>) -> bool {
    if !SL707.scope.clients.iter().any(|c| cx.clients.contains(c)) {
        return false;
    }
    let tree = cx.tree();
    let Some(&Some(target)) = tree.refs_of(0).first() else {
        return false;
    };
    let span = cx.subschemas[target].node.span;
    cx.subschemas.iter().enumerate().any(|(i, s)| {
        i != 0
            && !tree.refs_of(i).is_empty()
            && span.start <= s.node.span.start
            && s.node.span.end <= span.end
    })
}

/// The `"type": "object"` fix for a root without `type` that accepts objects only (and whose
/// `$ref`, if it holds one, cannot be inlined). Where SL708's clients are selected (gemini-cli,
/// a default host, refuses a `type` beside a `$ref`), the root's `$ref` moves into a
/// one-branch `anyOf`, unless SL704's are selected too (Claude Code, a default host, drops a
/// tool with a root `anyOf`): then no edit short of inlining passes the proof, and none is
/// offered.
fn type_fix(cx: &UnitContext<'_>, root: &Node, members: &[Member]) -> Option<Fix> {
    let fix = mcp::add_object_type(cx, root, members, Applicability::Safe)?;
    let selected = |meta: &RuleMeta| meta.scope.clients.iter().any(|c| cx.clients.contains(c));
    let Some(r) = members.iter().find(|m| m.key == "$ref") else {
        return Some(fix);
    };
    if !selected(&SL708) {
        return Some(fix);
    }
    let wraps = root.get("anyOf").is_none() && mcp::count_members(root, "$ref") == 1;
    (wraps && !selected(&SL704)).then(|| wrap_root_ref(cx, r, fix))
}

/// The type fix, with the root's `$ref` moved into a one-branch `anyOf`, which applies the
/// reference to the same instance, so the root validates the same arguments in every draft (the
/// type now applies beside it in draft-07 too, where the reference already accepts objects
/// only).
fn wrap_root_ref(cx: &UnitContext<'_>, r: &Member, mut fix: Fix) -> Fix {
    let text = cx.text();
    let colon = &text[r.key_span.end..r.value.span.start];
    let reference = &text[r.value.span.start..r.value.span.end];
    "Add `\"type\": \"object\"` to the root and move its `$ref` into an `anyOf`"
        .clone_into(&mut fix.title);
    fix.edits.push(Edit {
        file: cx.file.id,
        span: crate::syntax::source::Span::new(r.key_span.start, r.value.span.end),
        content: format!("\"anyOf\"{colon}[{{\"$ref\"{colon}{reference}}}]"),
    });
    fix
}

/// A boolean root.
fn boolean(cx: &UnitContext<'_>, root: &Node, value: bool) -> Diagnostic {
    let diagnostic = cx
        .report(
            root.span,
            format!("Input schema is the boolean `{value}`, not an object schema"),
        )
        .label("not `{\"type\": \"object\"}`")
        .note(NOTE)
        .pointer(cx.unit.pointer.clone())
        .class(classes::SL507_BOOLEAN_ROOT);
    if value {
        // `true` accepts every argument object, as `{"type": "object"}` does.
        diagnostic
            .help(
                "Write `{\"type\": \"object\"}`: it accepts every argument object, as `true` does",
            )
            .fix(replace_root(cx, root, "true"))
    } else {
        diagnostic.help(HELP)
    }
}

/// The fix that writes the root `{}` or `true` as `{"type": "object"}`: arguments are always an
/// object, so it accepts the same arguments.
fn replace_root(cx: &UnitContext<'_>, root: &Node, shown: &str) -> Fix {
    Fix {
        title: format!("Replace `{shown}` with `{{\"type\": \"object\"}}`"),
        applicability: Applicability::Safe,
        edits: vec![Edit {
            file: cx.file.id,
            span: root.span,
            content: "{\"type\": \"object\"}".to_owned(),
        }],
        moves: Vec::new(),
    }
}

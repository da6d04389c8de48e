//! SL709 bedrock-tool-spec: what Amazon Bedrock's Converse API refuses in a tool's `toolSpec`
//! beyond its schema's root (that one is SL507's): an empty description, and integer bounds
//! beyond 32 bits.

use super::listing;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL709 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{Member, Node, NodeKind};

pub struct BedrockToolSpec;

/// The keywords whose integer values Bedrock converts to 32-bit integers.
const BOUNDS: [&str; 11] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
];

impl Rule for BedrockToolSpec {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        if let Some(d) = empty_description(cx) {
            out.push(d);
        }
        for sub in cx.subschemas {
            let Some(members) = sub.node.as_object() else {
                continue;
            };
            for (i, m) in members.iter().enumerate() {
                if BOUNDS.contains(&m.key.as_str()) && beyond_i32(&m.value) {
                    out.push(integer_bound(cx, sub.node, members, i, m, &sub.pointer));
                }
            }
        }
    }
}

/// The tool's `"description": ""`.
fn empty_description(cx: &UnitContext<'_>) -> Option<Diagnostic> {
    let (tool, pointer) = listing::tool(cx)?;
    let member = tool.member("description")?;
    (member.value.as_str() == Some("")).then(|| {
        cx.report(
            member.value.span,
            "Tool description is empty, which Bedrock refuses",
        )
        .label("Bedrock: at least one character, or no description")
        .help(
            "Describe what the tool does and when to use it (a model picks tools by their \
             descriptions): a docstring in Python, `description` in the TS SDK's `registerTool`",
        )
        .pointer(format!("{pointer}/description"))
        .class(classes::SL709_EMPTY_DESCRIPTION)
    })
}

/// A bound beyond what a 32-bit integer holds.
fn integer_bound(
    cx: &UnitContext<'_>,
    node: &Node,
    members: &[Member],
    i: usize,
    m: &Member,
    pointer: &str,
) -> Diagnostic {
    let key = m.key.as_str();
    let shown = match &m.value.kind {
        NodeKind::Number(n) => n.as_str(),
        _ => "",
    };
    cx.report(
        m.value.span,
        format!("`{key}` is `{shown}`, beyond the 32-bit integers Bedrock converts bounds to"),
    )
    .label("outside -2147483648..=2147483647")
    .help(format!(
        "Remove the bound, or bring it within 32 bits: a bound this large rarely means more than \
         \"any\" (zod 4 writes ±9007199254740991, `Number.MAX_SAFE_INTEGER`, for `z.int()`; give \
         the field a `.min()`/`.max()` of its own). Removing `{key}` accepts values beyond it, \
         which the server then checks itself"
    ))
    .pointer(format!("{pointer}/{}", listing::escape(key)))
    .class(classes::SL709_INTEGER_BOUND)
    .fix(Fix {
        title: format!("Remove `{key}`"),
        applicability: Applicability::Unsafe,
        edits: vec![Edit {
            file: cx.file.id,
            span: listing::removal_span(node, members, i),
            content: String::new(),
        }],
        moves: Vec::new(),
    })
}

/// Whether a number is an integer literal outside the 32-bit range.
fn beyond_i32(value: &Node) -> bool {
    let NodeKind::Number(n) = &value.kind else {
        return false;
    };
    let digits = n.strip_prefix('-').unwrap_or(n);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    match n.parse::<i64>() {
        Ok(v) => i32::try_from(v).is_err(),
        Err(_) => true,
    }
}

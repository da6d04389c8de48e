//! SL705 anthropic-strict-unsupported: what Anthropic's strict tools (structured outputs) do
//! not support in a tool's input schema: recursion, external `$ref`s, numeric and length
//! constraints, array constraints beyond `minItems` 0 or 1, `additionalProperties` other than
//! `false`.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL705 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::tree::Tree;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{is_within, Member, NodeKind};

pub struct AnthropicStrictUnsupported;

/// Constraints strict mode does not support (`minItems` only above 1, see [`unsupported`]).
const CONSTRAINTS: [&str; 10] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
];

impl Rule for AnthropicStrictUnsupported {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let tree = cx.tree();
        for (i, sub) in cx.subschemas.iter().enumerate() {
            let Some(members) = sub.node.as_object() else {
                continue;
            };
            let found: Vec<&Member> = members.iter().filter(|m| unsupported(m)).collect();
            if let Some(first) = found.first() {
                out.push(constraints(cx, &found, first, &sub.pointer));
            }
            if let Some(m) = sub.node.member("additionalProperties") {
                if m.value.as_bool() != Some(false) {
                    out.push(additional(cx, m, &sub.pointer));
                }
            }
            if let Some(m) = sub.node.member("$ref") {
                match m.value.as_str() {
                    Some(r) if !r.starts_with('#') => out.push(external(cx, m, r, &sub.pointer)),
                    Some(r) if recursive(tree, i) => {
                        out.push(recursion(cx, m, r, &sub.pointer));
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Whether a member is a constraint strict mode refuses (`minItems` 0 and 1 it takes; a
/// `uniqueItems: false` says nothing).
fn unsupported(m: &Member) -> bool {
    match m.key.as_str() {
        "minItems" => !matches!(&m.value.kind, NodeKind::Number(n) if n == "0" || n == "1"),
        "uniqueItems" => m.value.as_bool() == Some(true),
        k => CONSTRAINTS.contains(&k),
    }
}

fn constraints(
    cx: &UnitContext<'_>,
    found: &[&Member],
    first: &Member,
    pointer: &str,
) -> Diagnostic {
    let names: Vec<String> = found.iter().map(|m| format!("`{}`", m.key)).collect();
    let (names, verb) = if names.len() == 1 {
        (names[0].clone(), "is")
    } else {
        (names.join(", "), "are")
    };
    let mut d = cx
        .report(
            first.key_span,
            format!("{names} {verb} not supported by Anthropic's strict tools"),
        )
        .label("strict mode compiles no numeric, length or array bounds")
        .help(
            "Check the bound in the tool and say it in the description: Anthropic's SDKs move \
             such constraints into the description when they make a schema strict",
        )
        .pointer(format!("{pointer}/{}", first.key))
        .class(classes::SL705_CONSTRAINT);
    for m in &found[1..] {
        d = d.related(cx.file.id, m.key_span, format!("`{}` too", m.key));
    }
    d
}

fn additional(cx: &UnitContext<'_>, m: &Member, pointer: &str) -> Diagnostic {
    let shown = match &m.value.kind {
        NodeKind::Bool(true) => "`true`".to_owned(),
        _ => "a schema".to_owned(),
    };
    cx.report(
        m.key_span,
        format!("`additionalProperties` is {shown}, which Anthropic's strict tools do not support"),
    )
    .label("strict mode takes `false` only")
    .help(
        "Declare every key as a property and close the object with `\"additionalProperties\": \
         false` (for a map of arbitrary keys, an array of key-value objects)",
    )
    .pointer(format!("{pointer}/additionalProperties"))
    .class(classes::SL705_ADDITIONAL_PROPERTIES)
}

fn external(cx: &UnitContext<'_>, m: &Member, r: &str, pointer: &str) -> Diagnostic {
    cx.report(
        m.value.span,
        format!("`$ref` `{r}` leaves the schema, which Anthropic's strict tools do not support"),
    )
    .label("strict mode resolves local `#...` references only")
    .help("Put the referenced schema in the tool's own `$defs` and refer to it as `#/$defs/...`")
    .pointer(format!("{pointer}/$ref"))
    .class(classes::SL705_EXTERNAL_REF)
}

fn recursion(cx: &UnitContext<'_>, m: &Member, r: &str, pointer: &str) -> Diagnostic {
    cx.report(
        m.value.span,
        format!("`$ref` `{r}` makes the schema recursive, which Anthropic's strict tools do not support"),
    )
    .label("leads back to a schema that holds it")
    .help(
        "Unroll the recursion to the depth the tool needs (a tree of two or three levels), or \
         take the nested part as a JSON string the tool parses",
    )
    .pointer(format!("{pointer}/$ref"))
    .class(classes::SL705_RECURSION)
}

/// Whether the references of subschema `i` lead, through subschemas and further references,
/// back to `i` itself: a recursive schema.
fn recursive(tree: &Tree<'_>, i: usize) -> bool {
    let subs = tree.subs;
    let mut seen = vec![false; subs.len()];
    let mut stack: Vec<usize> = tree.refs_of(i).iter().flatten().copied().collect();
    while let Some(t) = stack.pop() {
        if std::mem::replace(&mut seen[t], true) {
            continue;
        }
        // Everything at or below `t` applies once `t` does.
        for (d, sub) in subs.iter().enumerate() {
            if !is_within(&sub.pointer, &subs[t].pointer) {
                continue;
            }
            if d == i {
                return true;
            }
            stack.extend(tree.refs_of(d).iter().flatten().copied());
        }
    }
    false
}

//! SL706 request-limits: a listing whose tools, offered together as Anthropic strict tools, go
//! past the limits of one request: 20 strict tools, 24 optional parameters, 16 parameters with
//! union types, counted across every tool of the listing.

use super::listing;
use crate::diagnostic::breaks::{classes, Class};
use crate::diagnostic::meta::SL706 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{Node, NodeKind};
use crate::syntax::source::Span;

pub struct RequestLimits;

const STRICT_TOOLS: usize = 20;
const OPTIONAL: usize = 24;
const UNIONS: usize = 16;

/// What the listing holds, in listing order: each counted item's tool and span.
#[derive(Default)]
struct Counts {
    /// Each tool with an input schema: its index and the span of its name (or its brace).
    tools: Vec<(usize, Span)>,
    /// Each optional parameter.
    optional: Vec<Parameter>,
    /// Each parameter whose type is a union (`anyOf`, `oneOf`, a type array).
    unions: Vec<Parameter>,
}

/// A parameter that a limit counts.
struct Parameter {
    /// The index of its tool in the listing.
    tool: usize,
    /// Its key's span.
    key: Span,
    /// Its schema's span.
    value: Span,
    /// Its name.
    name: String,
}

impl Rule for RequestLimits {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(me) = listing::tool_index(cx) else {
            return;
        };
        let counts = cx.memo.get_or_make("SL706", || count(cx.root));
        if let Some(&(tool, span)) = counts.tools.get(STRICT_TOOLS) {
            if tool == me {
                out.push(
                    report(
                        cx,
                        span,
                        format!(
                            "This tool makes {} tools in the listing ({} in all), over the \
                             {STRICT_TOOLS} strict tools Anthropic takes in one request",
                            STRICT_TOOLS + 1,
                            counts.tools.len()
                        ),
                        classes::SL706_STRICT_TOOLS,
                        span,
                    )
                    .label("the first tool over the limit")
                    .help(
                        "Offer fewer tools at once (split the server, or let the host's tool \
                         search load them on demand), or let the host send them non-strict",
                    ),
                );
            }
        }
        for (items, limit, what, class) in [
            (
                &counts.optional,
                OPTIONAL,
                "optional parameters",
                classes::SL706_OPTIONAL_PARAMETERS,
            ),
            (
                &counts.unions,
                UNIONS,
                "parameters with a union type",
                classes::SL706_UNION_PARAMETERS,
            ),
        ] {
            let Some(p) = items.get(limit).filter(|p| p.tool == me) else {
                continue;
            };
            out.push(
                report(
                    cx,
                    p.key,
                    format!(
                        "`{}` makes {} {what} in the listing ({} in all), over the {limit} \
                         Anthropic's strict tools take in one request",
                        p.name,
                        limit + 1,
                        items.len()
                    ),
                    class,
                    p.value,
                )
                .label("the first one over the limit")
                .help(
                    "Make fewer parameters optional or union-typed across the tools (required \
                     where the tool always needs them, one type where one will do), or offer \
                     fewer tools at once",
                ),
            );
        }
    }
}

fn report(cx: &UnitContext<'_>, span: Span, message: String, class: Class, at: Span) -> Diagnostic {
    let pointer = cx
        .root
        .pointer_to(at)
        .unwrap_or_else(|| cx.unit.pointer.clone());
    cx.report(span, message).pointer(pointer).class(class)
}

/// Counts what the limits count across every tool's input schema.
fn count(root: &Node) -> Counts {
    let mut counts = Counts::default();
    for (t, tool) in listing::tools(root).iter().enumerate() {
        let Some(schema) = tool.get("inputSchema") else {
            continue;
        };
        let span = tool
            .get("name")
            .map_or_else(|| listing::opening(tool), |n| n.span);
        counts.tools.push((t, span));
        walk(schema, t, &mut counts, 0);
    }
    counts
}

/// Visits the subschemas of `node` (through the keywords that hold schemas, never through
/// `const`, `enum`, `default` or `examples`), counting the parameters of each object.
fn walk(node: &Node, tool: usize, counts: &mut Counts, depth: usize) {
    if depth > 64 {
        return;
    }
    let Some(members) = node.as_object() else {
        return;
    };
    let required: Vec<&str> = node
        .get("required")
        .and_then(Node::as_array)
        .map(|r| r.iter().filter_map(Node::as_str).collect())
        .unwrap_or_default();
    if let Some(properties) = node.get("properties").and_then(Node::as_object) {
        for p in properties {
            let parameter = || Parameter {
                tool,
                key: p.key_span,
                value: p.value.span,
                name: p.key.to_string(),
            };
            if !required.contains(&p.key.as_str()) {
                counts.optional.push(parameter());
            }
            if is_union(&p.value) {
                counts.unions.push(parameter());
            }
        }
    }
    for m in members {
        match m.key.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                for sub in m.value.as_object().unwrap_or(&[]) {
                    walk(&sub.value, tool, counts, depth + 1);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for sub in m.value.as_array().unwrap_or(&[]) {
                    walk(sub, tool, counts, depth + 1);
                }
            }
            "items" | "additionalProperties" | "not" | "if" | "then" | "else" | "contains" => {
                match &m.value.kind {
                    NodeKind::Array(subs) => {
                        for sub in subs {
                            walk(sub, tool, counts, depth + 1);
                        }
                    }
                    _ => walk(&m.value, tool, counts, depth + 1),
                }
            }
            _ => {}
        }
    }
}

/// Whether a parameter's schema is a union: `anyOf`, `oneOf`, or a `type` array of more than
/// one type.
fn is_union(node: &Node) -> bool {
    node.get("anyOf").is_some()
        || node.get("oneOf").is_some()
        || node
            .get("type")
            .and_then(Node::as_array)
            .is_some_and(|t| t.len() > 1)
}

//! SL505 closed-output-object: `additionalProperties: false` (or `unevaluatedProperties:
//! false`) on an object of an output schema, so any field the server adds later breaks every
//! validating client.

use super::shape as mcp;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL505 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;

pub struct ClosedOutputObject;

const KEYWORDS: [&str; 2] = ["additionalProperties", "unevaluatedProperties"];

impl Rule for ClosedOutputObject {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let tree = cx.tree();
        // Where a subschema sits under `oneOf`, `not`, `if` or `contains` (directly or through a
        // `$ref`), opening an object can reject results that pass today (two `oneOf` branches
        // matching, a `not` that now matches): no fix anywhere in such a schema.
        let fixable_here = !cx
            .subschemas
            .iter()
            .any(|s| matches!(s.keyword, Some("oneOf" | "not" | "if" | "contains")));
        for (i, sub) in cx.subschemas.iter().enumerate() {
            let Some(members) = sub.node.as_object() else {
                continue;
            };
            // Under `not`, `if`, `contains` or `propertyNames` a closed object is a condition,
            // not the shape of the output; before 2019-09 a `$ref` hides the keywords beside it.
            let ref_hides_siblings = sub.node.get("$ref").is_some()
                && matches!(sub.draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7);
            if ref_hides_siblings
                || tree
                    .keywords_above(i)
                    .any(|k| matches!(k, "not" | "if" | "propertyNames" | "contains"))
            {
                continue;
            }
            for keyword in KEYWORDS {
                let Some(index) = members.iter().rposition(|m| m.key == keyword) else {
                    continue;
                };
                let member = &members[index];
                if member.value.as_bool() != Some(false) {
                    continue;
                }
                let diagnostic = cx.report(member.value.span,
                    format!("Output object is closed with `\"{keyword}\": false`"),
                )
                .label("rejects any field not declared today")
                .help(format!(
                    "Remove `\"{keyword}\": false` so that new fields can be added without breaking clients"
                ))
                .note(
                    "Clients validate `structuredContent` against the output schema: once the server returns \
                     one more field (a new SDK, a richer upstream), every validating client (Ajv in the TS \
                     clients, `jsonschema` in Python) rejects every call (QuantConnect mcp-server #58); the output \
                     the schema declares today passes. The TS v1 server (zod 4) adds `additionalProperties: \
                     false` to every `z.object`",
                )
                .pointer(format!("{}/{keyword}", sub.pointer))
                .class(classes::SL505_CLOSED);
                let fixable = fixable_here && mcp::count_members(sub.node, keyword) == 1;
                out.push(if fixable {
                    diagnostic.fix(Fix {
                        title: format!("Remove `\"{keyword}\": false`"),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit {
                            file: cx.file.id,
                            span: mcp::removal_span(sub.node, members, index),
                            content: String::new(),
                        }],
                        moves: Vec::new(),
                    })
                } else {
                    diagnostic
                });
            }
        }
    }
}

//! SL502 boolean-property-schema: `true` or `false` as a property schema in the root
//! `properties` of an output schema, which the TS v1 client refuses.

use super::shape as mcp;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL502 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{escape_pointer_token, NodeKind};

pub struct BooleanPropertySchema;

const NOTE: &str = "The TS v1 client parses `tools/list` with `properties: z.record(z.string(), \
     AssertObjectSchema)` at the root of every output schema";

impl Rule for BooleanPropertySchema {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(properties) = mcp::root_properties(cx) else {
            return;
        };
        for member in properties {
            let NodeKind::Bool(value) = member.value.kind else {
                continue;
            };
            let (replacement, meaning) = if value {
                ("{}", "allows any value")
            } else {
                ("{\"not\": {}}", "forbids the property")
            };
            let diagnostic = cx
                .report(
                    member.value.span,
                    format!("Property `{}` has the boolean schema `{value}`", member.key),
                )
                .label(format!(
                    "{meaning}, but the TS v1 client wants an object here"
                ))
                .help(format!(
                    "Write `{replacement}`: the same schema as `{value}`, as an object"
                ))
                .pointer(format!(
                    "{}/properties/{}",
                    cx.unit.pointer,
                    escape_pointer_token(&member.key)
                ))
                .fix(Fix {
                    title: format!("Replace `{value}` with `{replacement}`"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: cx.file.id,
                        span: member.value.span,
                        content: replacement.to_owned(),
                    }],
                    moves: Vec::new(),
                });
            out.push(mcp::measured(
                diagnostic,
                cx.target.requires_object_root(),
                NOTE,
                classes::SL502_BOOLEAN_PROPERTY,
                "A server that also serves 2025 sessions should write the schema as an object",
            ));
        }
    }
}

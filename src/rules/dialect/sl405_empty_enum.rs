//! SL405 empty-enum: `"enum": []`, which draft-06 and later allow and Ajv refuses.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL405 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;

pub struct EmptyEnum;

impl Rule for EmptyEnum {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            // Draft-04's meta-schema requires an item: SL401 reports it there.
            if sub.draft == Draft::Draft4 {
                continue;
            }
            let Some(member) = sub.node.member("enum") else {
                continue;
            };
            if member.value.as_array().is_none_or(|a| !a.is_empty()) {
                continue;
            }
            out.push(
                cx.report(member.value.span,
                    "`enum` is empty, so no value is valid",
                )
                .label("no value is allowed")
                .help(
                    "List the allowed values; to allow nothing, write `false` (or `\"not\": {}`) \
                     for the subschema",
                )
                .note(format!(
                    "{} allows an empty `enum`, which no instance matches; draft-04 required an item",
                    sub.draft
                ))
                .class(classes::SL405_EMPTY)
                .pointer(format!("{}/enum", sub.pointer)),
            );
        }
    }
}

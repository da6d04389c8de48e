//! SL404 nested-schema-keyword: `$schema` in a subschema that is not the root of a schema
//! resource, where clients disagree on what it does.

use super::ancestry::{is_resource_root, Ancestry};
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL404 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;

pub struct NestedSchemaKeyword;

const NOTE: &str =
    "JSON Schema allows `$schema` only at the root of a schema resource (draft-07: only \
at the document root), and engines differ on one elsewhere: some keep the dialect in force, some \
apply part of the named dialect's rules to the subschema";

impl Rule for NestedSchemaKeyword {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let subs = cx.subschemas;
        if !subs.iter().skip(1).any(|s| s.node.get("$schema").is_some()) {
            return;
        }
        let ancestry = Ancestry::of(cx.unit.draft, subs);
        for (i, sub) in subs.iter().enumerate() {
            let (Some(parent), Some(members)) = (ancestry.parent[i], sub.node.as_object()) else {
                continue;
            };
            let Some(at) = members.iter().rposition(|m| m.key == "$schema") else {
                continue;
            };
            if is_resource_root(sub.node, subs[parent].draft) {
                continue;
            }
            let member = &members[at];
            let in_force = sub.draft;
            let named = member.value.as_str().and_then(Draft::from_schema_uri);
            // Redundant when every client already reads the subschema in the dialect it names:
            // the walk's dialect (Ajv's view) and the one engines that honour a nested `$schema`
            // carried down to the parent agree with it.
            let redundant = named == Some(in_force)
                && ancestry.engine[parent] == Some(in_force)
                && members.iter().filter(|m| m.key == "$schema").count() == 1;
            let (message, label, help) = if redundant {
                (
                    "Redundant `$schema` in a subschema that has no `$id` of its own".to_owned(),
                    format!("repeats {in_force}, the dialect in force"),
                    format!("Remove it: every client already reads this subschema in {in_force}"),
                )
            } else {
                let asks = named.map_or_else(|| "an unknown dialect".to_owned(), |d| d.to_string());
                (
                    format!(
                        "`$schema` asks for {asks} in a subschema that has no `$id` of its own, and only some clients switch"
                    ),
                    format!("asks for {asks} here; Ajv stays in {in_force}"),
                    format!(
                        "To switch dialect here for every client, give the subschema its own `$id` \
                         (an embedded resource); otherwise remove `$schema` and write the subschema in {in_force}"
                    ),
                )
            };
            let diagnostic = cx
                .report(member.key_span, message)
                .label(label)
                .help(help)
                .note(NOTE)
                .class(if redundant {
                    classes::SL404_REDUNDANT
                } else if named.is_some_and(|d| {
                    in_force == Draft::Draft202012
                        && super::sl402_unknown_dialect::reads_the_same_in_2020_12(sub.node, d)
                }) {
                    // Nothing in the subschema means something else in the two dialects.
                    classes::SL404_SAME_MEANING
                } else {
                    classes::SL404_MEANING_DIFFERS
                })
                .pointer(format!("{}/$schema", sub.pointer));
            out.push(if redundant {
                diagnostic.fix(Fix {
                    title: "Remove the redundant `$schema`".to_owned(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: cx.file.id,
                        span: crate::rules::edits::defs_fix::delete_member(members, at, sub.node),
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

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
                out.extend(
                    embedded(cx, sub, &members[at], subs[parent].draft)
                        .or_else(|| not_a_uri(cx, sub, &members[at])),
                );
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
                } else if named
                    .is_some_and(|d| in_force == Draft::Draft202012 && reads_the_same(sub.node, d))
                    || uses_no_differing_keyword(sub.node)
                {
                    // Nothing in the subschema means something else in the two dialects: only
                    // a value that is no URI breaks a client.
                    if is_uri(&member.value) {
                        classes::SL404_SAME_MEANING
                    } else {
                        classes::SL404_NOT_A_URI
                    }
                } else if ref_with_siblings(sub.node) {
                    classes::SL404_REF_SIBLINGS
                } else if dependencies_only(sub.node) {
                    classes::SL404_DEPENDENCIES
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

/// Whether `node` has a `$ref` beside keywords that validate: draft-07 ignores them, 2020-12
/// applies them, and the clients that stay in the root's 2020-12 apply them (measured: the TS
/// and Python clients reject what the draft-07 reading accepts; the crate does not).
fn ref_with_siblings(node: &crate::syntax::document::Node) -> bool {
    const NOT_VALIDATING: [&str; 6] =
        ["$ref", "$schema", "$comment", "$id", "$defs", "definitions"];
    node.get("$ref").is_some()
        && node.as_object().is_some_and(|members| {
            members
                .iter()
                .any(|m| !NOT_VALIDATING.contains(&m.key.as_str()))
        })
}

/// Whether `dependencies` is what differs in `node` (no `$ref`, no tuple): every client gives
/// the draft-07 verdicts there, Ajv and Python reading `dependencies` in 2020-12 too (measured).
fn dependencies_only(node: &crate::syntax::document::Node) -> bool {
    node.get("dependencies").is_some()
        && node.get("$ref").is_none()
        && node.get("additionalItems").is_none()
        && node
            .get("items")
            .and_then(crate::syntax::document::Node::as_array)
            .is_none()
}

/// Whether `node`, a subschema that names `draft`, means the same in 2020-12: SL402's test for
/// draft-06 and draft-07; for draft-04, draft-06's, without the keywords draft-04 reads
/// otherwise or does not have (measured: a nested draft-04 `$schema` over `type` breaks nothing).
fn reads_the_same(node: &crate::syntax::document::Node, draft: Draft) -> bool {
    use super::sl402_respell::reads_the_same_in_2020_12;
    const DRAFT4_DIFFERS: [&str; 6] = [
        "exclusiveMinimum",
        "exclusiveMaximum",
        "const",
        "contains",
        "propertyNames",
        "examples",
    ];
    match draft {
        Draft::Draft4 => {
            reads_the_same_in_2020_12(node, Draft::Draft6) && !mentions(node, &DRAFT4_DIFFERS)
        }
        _ => reads_the_same_in_2020_12(node, draft),
    }
}

/// Whether `node` uses no keyword whose meaning differs between any two dialects (nor an array
/// `items`, nor a `$ref` with siblings): whatever dialect its `$schema` names (an unknown one
/// included), every client reads it the same (measured: `type` and `maxLength` under a nested
/// draft-04 or draft-07 `$schema`).
fn uses_no_differing_keyword(node: &crate::syntax::document::Node) -> bool {
    use super::sl402_respell::{DIFFERING, NOT_IN_DRAFT6};
    const DRAFT4_DIFFERS: [&str; 6] = [
        "exclusiveMinimum",
        "exclusiveMaximum",
        "const",
        "contains",
        "propertyNames",
        "examples",
    ];
    !mentions(node, &DIFFERING)
        && !mentions(node, &NOT_IN_DRAFT6)
        && !mentions(node, &DRAFT4_DIFFERS)
        && !mentions(node, &["$ref", "items"])
}

/// Whether any object in `node` has one of `keys`.
fn mentions(node: &crate::syntax::document::Node, keys: &[&str]) -> bool {
    use crate::syntax::document::NodeKind;
    match &node.kind {
        NodeKind::Object(members) => members
            .iter()
            .any(|m| keys.contains(&m.key.as_str()) || mentions(&m.value, keys)),
        NodeKind::Array(items) => items.iter().any(|n| mentions(n, keys)),
        _ => false,
    }
}

/// Whether a `$schema` value is an absolute URI, as every meta-schema's `format: uri` wants it.
fn is_uri(value: &crate::syntax::document::Node) -> bool {
    value
        .as_str()
        .is_some_and(|v| fluent_uri::Uri::parse(v).is_ok())
}

/// The `$schema` of an embedded resource that is not a URI (`draft-07`): the engines ignore the
/// dialect it cannot name, but Python's `jsonschema` with its format extras checks the value
/// against the meta-schema's `format: uri` and refuses the schema (measured).
fn not_a_uri(
    cx: &UnitContext<'_>,
    sub: &crate::schema::walk::Subschema<'_>,
    member: &crate::syntax::document::Member,
) -> Option<Diagnostic> {
    if is_uri(&member.value) || member.value.as_str().is_none() {
        return None;
    }
    Some(
        cx.report(
            member.value.span,
            "`$schema` of an embedded resource is not a URI".to_owned(),
        )
        .label("names no dialect: not an absolute URI")
        .help(
            "Write the meta-schema's URI (`https://json-schema.org/draft/2020-12/schema`, \
             `http://json-schema.org/draft-07/schema#`), or remove `$schema` to keep the dialect \
             around it",
        )
        .note(
            "Every meta-schema says `$schema` is a URI (`format: uri`); engines that do not \
             check formats ignore a dialect they cannot name",
        )
        .class(classes::SL404_NOT_A_URI)
        .pointer(format!("{}/$schema", sub.pointer)),
    )
}

/// An embedded resource (a subschema with its own `$id`) that names another dialect than the
/// one around it and uses a keyword whose meaning differs between the two: JSON Schema reads it
/// in its own dialect, and so does the Rust crate, but the Python clients and TS v2's Ajv read it
/// in the dialect around it and refuse a draft-07 tuple there (measured:
/// `mix-embedded-draft7-tuple`). Reported only where the resource sits in a 2020-12 schema,
/// which is what the case measures.
fn embedded(
    cx: &UnitContext<'_>,
    sub: &crate::schema::walk::Subschema<'_>,
    member: &crate::syntax::document::Member,
    around: Draft,
) -> Option<Diagnostic> {
    let named = member.value.as_str().and_then(Draft::from_schema_uri)?;
    if around != Draft::Draft202012 || named == around || reads_the_same(sub.node, named) {
        return None;
    }
    Some(
        cx.report(
            member.value.span,
            format!(
                "Embedded resource declares {named} inside a {around} schema and uses keywords \
                 {around} reads otherwise; some clients read it in {around}"
            ),
        )
        .label(format!("{named}, in a {around} schema"))
        .help(format!(
            "Write the resource in {around} (a tuple's `items` array is `prefixItems`), or move it \
             to a file of its own"
        ))
        .note(
            "JSON Schema reads an embedded resource in the dialect its `$schema` names, as the \
             Rust crate does; the Python clients and TS v2's Ajv read it in the dialect of the \
             document around it",
        )
        .class(classes::SL404_EMBEDDED_RESOURCE)
        .pointer(format!("{}/$schema", sub.pointer)),
    )
}

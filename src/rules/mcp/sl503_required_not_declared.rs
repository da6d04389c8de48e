//! SL503 required-not-declared: a `required` name that no `properties` or `patternProperties`
//! of the object declares; an error where `additionalProperties: false` then forbids it.

use super::shape as mcp;
use crate::diagnostic::meta::SL503 as META;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::document::Node;
use std::collections::HashMap;

pub struct RequiredNotDeclared;

/// Which names an object's property keywords declare.
struct Declared<'n> {
    names: Vec<&'n str>,
    patterns: Vec<&'n str>,
}

impl<'n> Declared<'n> {
    fn of(nodes: impl IntoIterator<Item = &'n Node>) -> Self {
        let mut names = Vec::new();
        let mut patterns = Vec::new();
        for node in nodes {
            let keys = |k: &str| {
                node.get(k)
                    .and_then(Node::as_object)
                    .into_iter()
                    .flatten()
                    .map(|m| m.key.as_str())
            };
            names.extend(keys("properties"));
            patterns.extend(keys("patternProperties"));
        }
        Self { names, patterns }
    }

    /// Whether `name` is declared. A pattern the engine cannot compile might match: it counts.
    fn covers(
        &self,
        name: &str,
        cache: &mut HashMap<String, Option<jsonschema::Validator>>,
    ) -> bool {
        self.names.contains(&name)
            || self.patterns.iter().any(|p| {
                let validator = cache.entry((*p).to_owned()).or_insert_with(|| {
                    jsonschema::options()
                        .should_validate_formats(false)
                        .build(&serde_json::json!({ "type": "string", "pattern": p }))
                        .ok()
                });
                validator
                    .as_ref()
                    .is_none_or(|v| v.is_valid(&serde_json::Value::from(name)))
            })
    }
}

impl Rule for RequiredNotDeclared {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let tree = cx.tree();
        let mut cache = HashMap::new();
        for (i, sub) in cx.subschemas.iter().enumerate() {
            let Some(required) = sub.node.get("required").and_then(Node::as_array) else {
                continue;
            };
            // Under `not` or `if` a `required` is a condition, not a promise about the output;
            // before 2019-09 a `$ref` makes the engines ignore every keyword beside it.
            let ref_hides_siblings = sub.node.get("$ref").is_some()
                && matches!(sub.draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7);
            if ref_hides_siblings
                || tree
                    .keywords_above(i)
                    .any(|k| matches!(k, "not" | "if" | "propertyNames"))
                || !mcp::may_be_object(sub.node)
            {
                continue;
            }
            let local = Declared::of([sub.node]);
            let closed =
                sub.node.get("additionalProperties").and_then(Node::as_bool) == Some(false);
            let own_shape =
                sub.node.get("properties").is_some() || sub.node.get("patternProperties").is_some();
            // A bare `required` (say, in a `oneOf` branch) constrains a shape declared elsewhere.
            let group = if closed || !own_shape || has_open_additional(sub.node) {
                None
            } else {
                tree.same_instance(i)
                    .map(|members| Declared::of(members.into_iter().map(|m| tree.subs[m].node)))
            };
            for (n, item) in required.iter().enumerate() {
                let Some(name) = item.as_str() else { continue };
                if local.covers(name, &mut cache) {
                    continue;
                }
                let pointer = format!("{}/required/{n}", sub.pointer);
                if closed {
                    out.push(forbidden(cx, item, name, pointer, sub.node));
                } else if let Some(group) = &group {
                    if !group.covers(name, &mut cache) {
                        out.push(undeclared(cx, item, name, pointer));
                    }
                }
            }
        }
    }
}

/// Whether `additionalProperties` is a schema that says something, so undeclared names are
/// typed by it on purpose.
fn has_open_additional(node: &Node) -> bool {
    node.get("additionalProperties")
        .and_then(Node::as_object)
        .is_some_and(|m| !m.is_empty())
}

fn undeclared(cx: &UnitContext<'_>, item: &Node, name: &str, pointer: String) -> Diagnostic {
    cx.report(item.span,
        format!("Required property `{name}` is not declared in `properties`"),
    )
    .label("required but never described")
    .help(format!(
        "Declare `{name}` in `properties`, or fix the spelling of the `required` entry"
    ))
    .note(
        "Clients validate `structuredContent` against the output schema (the TS clients with Ajv, the \
         Python client with `jsonschema`): a required name that no property declares is usually a typo or \
         a renamed field, so every result that lacks it fails validation, and its value is never described",
    )
    .pointer(pointer)
}

fn forbidden(
    cx: &UnitContext<'_>,
    item: &Node,
    name: &str,
    pointer: String,
    node: &Node,
) -> Diagnostic {
    let mut diagnostic = cx.report(item.span,
        format!(
            "Required property `{name}` is forbidden by `additionalProperties: false`: no object validates"
        ),
    )
    .severity(Severity::Error)
    .label("required here")
    .help(format!(
        "Declare `{name}` in `properties`, or remove it from `required`"
    ))
    .note(
        "`additionalProperties: false` rejects every property that `properties` and `patternProperties` do \
         not declare, and `required` rejects objects without it: every result fails validation in every \
         client that checks `structuredContent` (Ajv in the TS clients, `jsonschema` in Python)",
    )
    .pointer(pointer);
    if let Some(m) = node.member("additionalProperties") {
        diagnostic = diagnostic.related(cx.file.id, m.value.span, "closes the object");
    }
    diagnostic
}

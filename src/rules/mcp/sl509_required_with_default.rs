//! SL509 required-with-default: an output schema's property that is `required` and has a
//! `default`. zod writes a `.default()` field so in an output schema (`io: "output"`): the value
//! is always there once zod has parsed it. But the TypeScript SDK server checks the handler's
//! result with zod and sends the result the handler returned, so a field the handler leaves out
//! is missing on the wire, and every SDK client rejects the call (measured).

use super::shape as mcp;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL509 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::document::Node;

pub struct RequiredWithDefault;

impl Rule for RequiredWithDefault {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        // Most output schemas have no `default`: the tree and the generator are only worked
        // out for those that do.
        if !cx
            .subschemas
            .iter()
            .any(|s| s.node.get("default").is_some())
        {
            return;
        }
        let tree = cx.tree();
        let made_by = cx.generator();
        for (i, sub) in cx.subschemas.iter().enumerate() {
            let (Some(required), Some(properties)) = (
                sub.node.get("required").and_then(Node::as_array),
                sub.node
                    .get("properties")
                    .filter(|p| p.as_object().is_some()),
            ) else {
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
            for (n, item) in required.iter().enumerate() {
                let Some(name) = item.as_str() else { continue };
                let Some(property) = properties.member(name) else {
                    continue;
                };
                let Some(default) = property.value.member("default") else {
                    continue;
                };
                let pointer = format!("{}/required/{n}", sub.pointer);
                out.push(
                    cx.report(
                        item.span,
                        format!("Output property `{name}` is required and has a `default`"),
                    )
                    .label("required, so a result without it fails validation")
                    .related(
                        cx.file.id,
                        default.key_span,
                        "a default: the field may be left out",
                    )
                    .help(format!(
                        "{}. {}",
                        help(made_by, name),
                        crate::rules::analysis::generator::ignore_marker(
                            made_by,
                            "SL509",
                            "once the server always sends it",
                        )
                    ))
                    .note(NOTE)
                    .class(classes::SL509_REQUIRED_DEFAULT)
                    .depends_on_output()
                    .pointer(pointer),
                );
            }
        }
    }
}

const NOTE: &str = "A `default` says the value may be left out; `required` says every result \
                    holds it. The clients check `structuredContent` against `required` only: a \
                    server that leaves the field out when it is empty (the TypeScript SDK \
                    server checks the handler's result with zod, which fills the default in, \
                    and sends the result as the handler returned it) has every such call \
                    rejected";

/// The change to make, in the terms of the generator that wrote the schema.
fn help(made_by: Option<Generator>, name: &str) -> String {
    match made_by {
        Some(Generator::Zod) => format!(
            "zod writes a `.default()` field as required in an output schema: add `.optional()` \
             after the `.default(...)` of `{name}` (`z.array(z.string()).default([]).optional()` \
             keeps the default and drops `{name}` from `required`), or have the handler always \
             return `{name}` (the server sends the handler's result, not what zod parsed)"
        ),
        Some(Generator::Pydantic) => format!(
            "Pydantic makes a field with a default required only in a serialization schema \
             with `json_schema_serialization_defaults_required=True`: remove that setting from \
             the model's `model_config`, or always send `{name}` (no `exclude_defaults`, \
             `exclude_unset` or `exclude_none` when the result is dumped, no `CallToolResult` \
             whose `structured_content` leaves it out)"
        ),
        _ => format!(
            "Remove `{name}` from `required`, or make the server always send it; a schema \
             generator that writes both says what it fills in, not what the server sends"
        ),
    }
}

//! SL711 array-without-items: an array schema in a tool's input schema that says nothing of its
//! items, which VS Code's Copilot chat refuses (SL701 reports it for the strict mode of `openai-strict`).

use super::listing;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL711 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{Node, NodeKind};

pub struct ArrayWithoutItems;

impl Rule for ArrayWithoutItems {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        // `items: {}` marks every item evaluated, which an `unevaluatedItems` of this subschema
        // or of one that applies it would see: there, only a human can say what the items are.
        let unevaluated = cx
            .subschemas
            .iter()
            .any(|s| s.node.get("unevaluatedItems").is_some());
        for sub in cx.subschemas {
            let Some(members) = sub.node.as_object() else {
                continue;
            };
            let Some(i) = members.iter().position(|m| m.key == "type") else {
                continue;
            };
            let ty = &members[i].value;
            if !says_array(ty) || sub.node.get("items").is_some() {
                continue;
            }
            let diagnostic = cx
                .report(
                    ty.span,
                    "Array schema has no `items`, which VS Code's Copilot chat refuses",
                )
                .label("an array of what?")
                .pointer(format!("{}/type", sub.pointer))
                .class(classes::SL711_ARRAY_WITHOUT_ITEMS);
            let tuple = sub.node.get("prefixItems").is_some();
            let help = match written_by(cx.generator(), tuple) {
                Some(how) => format!("Say what the items are. {how}"),
                None => HELP.to_owned(),
            };
            let diagnostic = if unevaluated || cx.live() {
                diagnostic.help(help)
            } else {
                let (at, content) =
                    listing::insert_after(cx.text(), sub.node, members, i, "\"items\": {}");
                diagnostic
                    .help(format!(
                        "{help}; `\"items\": {{}}` says \"any items\", which is what the array \
                         accepts now"
                    ))
                    .fix(Fix {
                        title: "Add `\"items\": {}`".to_owned(),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: cx.file.id,
                            span: crate::syntax::source::Span::new(at, at),
                            content,
                        }],
                        moves: Vec::new(),
                    })
            };
            out.push(diagnostic);
        }
    }
}

const HELP: &str = "Say what the items are (`\"items\": {\"type\": \"string\"}`) where the \
     server declares the parameter: in mcp-go, `mcp.WithArray(name, mcp.WithStringItems())`; in a \
     hand-written schema, an `items` beside `\"type\": \"array\"`";

/// What the generator the schema shows writes for an array, measured: zod 4.6.7 writes
/// `"items": {}` for `z.array(z.any())` and `z.array(z.unknown())`, Pydantic 2.14.4 for a bare
/// `list`, `list[Any]` and `tuple`; neither writes an array without `items`. schemars 1.2.3
/// writes a Rust tuple as `prefixItems` without `items`, and gives `Vec<T>` and `[T; N]` their
/// `items` (`tests/integration/generators/schemars`, run by `generators.sh`).
fn written_by(made_by: Option<Generator>, tuple: bool) -> Option<&'static str> {
    match made_by? {
        Generator::Zod => Some(
            "zod wrote the rest of this schema, and it gives every array `items` (`z.array(z.any())` \
             writes `\"items\": {}`): this array was written by hand in the server, or its schema \
             edited after zod; declare it with `z.array(z.string())` (or the item type it takes)",
        ),
        Generator::Pydantic => Some(
            "Pydantic wrote the rest of this schema, and it gives every array `items` (a bare \
             `list` writes `\"items\": {}`): this array was written by hand in the server, or its \
             schema edited after Pydantic; declare the field as `list[str]` (or the item type it \
             takes)",
        ),
        Generator::Schemars if tuple => Some(
            "schemars wrote this schema, and it writes a Rust tuple (`(u32, u32)`) as \
             `prefixItems` without `items`: declare the field as an array (`[u32; 2]`) when the \
             items share a type, or as a struct with named fields",
        ),
        Generator::Schemars => Some(
            "schemars wrote the rest of this schema, and it gives every `Vec<T>` and `[T; N]` \
             `items`: this array was written by hand in the server, or its schema edited after \
             schemars; declare the field as `Vec<String>` (or the item type it takes)",
        ),
    }
}

/// Whether a `type` value names `array` (alone or among others).
fn says_array(ty: &Node) -> bool {
    match &ty.kind {
        NodeKind::String(s) => s == "array",
        NodeKind::Array(items) => items.iter().any(|t| t.as_str() == Some("array")),
        _ => false,
    }
}

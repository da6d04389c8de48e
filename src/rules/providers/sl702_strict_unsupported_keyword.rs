//! SL702 strict-unsupported-keyword: a keyword or `format` of a tool's input schema that `OpenAI`
//! strict mode does not support (`allOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
//! `dependentSchemas`, `patternProperties`; formats outside its list), and a root that is not
//! an object. A root `anyOf`, `oneOf` or `allOf` is SL704's (root-combinator), which names
//! `openai-strict` among the clients that refuse it: one cause, one finding.

use super::strict;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL702 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::walk::Subschema;
use crate::syntax::document::{Member, Node};
use crate::syntax::source::Span;

const NOTE: &str = "OpenAI strict mode (`strict: true` on a function tool, the default of the Responses API, and \
     what the OpenAI Agents SDK asks for MCP tools) supports a subset of JSON Schema: a root object, \
     `anyOf` below it, `$ref`/`$defs`, `enum`/`const`, and for strings `pattern` and nine formats; any other \
     keyword makes the request fail with HTTP 400, for every call that offers the tool";

/// The keywords strict mode refuses, with what to write instead.
const UNSUPPORTED: [(&str, &str); 8] = [
    (
        "allOf",
        "Merge the branches into one schema (their `properties` and `required` side by side)",
    ),
    (
        "not",
        "Remove it and check the condition in the tool's code; describe it in `description`",
    ),
    (
        "if",
        "Remove the conditional and check it in the tool's code, or split the tool in two",
    ),
    (
        "then",
        "Remove the conditional and check it in the tool's code, or split the tool in two",
    ),
    (
        "else",
        "Remove the conditional and check it in the tool's code, or split the tool in two",
    ),
    (
        "dependentRequired",
        "Remove it and check in the tool's code which keys go together; say so in `description`",
    ),
    (
        "dependentSchemas",
        "Remove it and check the dependent keys in the tool's code; say so in `description`",
    ),
    (
        "patternProperties",
        "List the keys as `properties`, or take an array of `{\"key\", \"value\"}` objects",
    ),
];

pub struct StrictUnsupportedKeyword;

impl Rule for StrictUnsupportedKeyword {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        check(cx, out);
    }
}

/// The combinators SL704 reports at the root, for every client that refuses them there
/// (`openai-strict` among them, and SL704 runs whenever SL702 does).
const ROOT_COMBINATORS: [&str; 3] = ["anyOf", "oneOf", "allOf"];

/// Reports the keywords and formats strict mode refuses, and the root's shape.
fn check(cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(root) = cx.subschemas.first() else {
        return;
    };
    if let Some(d) = root_shape(cx, root) {
        out.push(d);
    }
    for (i, sub) in cx.subschemas.iter().enumerate() {
        let Some(members) = sub.node.as_object() else {
            continue;
        };
        for (index, member) in members.iter().enumerate() {
            if i == 0 && ROOT_COMBINATORS.contains(&member.key.as_str()) {
                continue;
            }
            if let Some((_, instead)) = UNSUPPORTED.iter().find(|(k, _)| member.key == *k) {
                out.push(keyword(cx, sub, member, instead));
            } else if member.key == "format" {
                if let Some(d) = format(cx, sub, members, index) {
                    out.push(d);
                }
            }
        }
    }
}

fn keyword(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    member: &Member,
    instead: &str,
) -> Diagnostic {
    cx.report(
        member.key_span,
        format!("`{}` is not supported by OpenAI strict mode", member.key),
    )
    .label("not in strict mode's subset")
    .note(NOTE)
    .class(classes::SL702_KEYWORD)
    .help(format!(
        "{instead}: the server keeps checking the arguments as it does today"
    ))
    .pointer(format!("{}/{}", sub.pointer, member.key))
}

fn format(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    index: usize,
) -> Option<Diagnostic> {
    let member = &members[index];
    let name = member.value.as_str()?;
    // The last `format` is the one that counts; an earlier duplicate is reported with it.
    if strict::FORMATS.contains(&name) || members[index + 1..].iter().any(|m| m.key == "format") {
        return None;
    }
    let diagnostic = cx
        .report(
            member.value.span,
            format!(
                "`\"format\": \"{name}\"` is not one of the formats OpenAI strict mode supports"
            ),
        )
        .label("not a strict-mode format")
        .class(classes::SL702_FORMAT)
        .note(format!(
            "{NOTE}. The formats it supports: {}",
            strict::FORMATS.join(", ")
        ))
        .help(format_help(name, cx.generator()))
        .pointer(format!("{}/format", sub.pointer));
    let duplicated = members.iter().filter(|m| m.key == "format").count() > 1;
    match drop_format(cx, sub.node, members, index, name) {
        Some(fix) if !duplicated => Some(diagnostic.fix(fix)),
        _ => Some(diagnostic),
    }
}

fn format_help(name: &str, made_by: Option<Generator>) -> String {
    let how = match (made_by, name) {
        (Some(Generator::Zod), "uri") => {
            "zod wrote this schema: `z.string().url()` writes `format: \"uri\"`; use `z.string()` (with \
             `.describe(\"a URL\")`) and check the URL in the handler"
        }
        (Some(Generator::Pydantic), _) => {
            "Pydantic writes formats for its special types (`AnyUrl`, `FilePath`): declare the parameter as \
             `str` and validate it in the tool"
        }
        (Some(Generator::Schemars), _) => {
            "schemars writes formats for Rust number types (`uint32`): drop them with a transform in the \
             schema settings (schemars 1.x `SchemaSettings::with_transform`)"
        }
        _ => "Drop the `format` and check the value in the tool",
    };
    format!("{how}; say what the value is in `description`")
}

/// The unsafe fix that removes the `format` and says it in `description` instead: strict mode
/// accepts the schema, and stops checking the format, so values it used to refuse pass.
fn drop_format(
    cx: &UnitContext<'_>,
    node: &Node,
    members: &[Member],
    index: usize,
    name: &str,
) -> Option<Fix> {
    let said = format!("Format: {name}.");
    let mut edits = Vec::new();
    match node.get("description").map(|d| (d, d.as_str())) {
        Some((d, Some(text))) => {
            let joined = if text.is_empty() {
                said
            } else {
                format!("{text} ({})", said.trim_end_matches('.'))
            };
            edits.push(Edit {
                file: cx.file.id,
                span: d.span,
                content: serde_json::to_string(&joined).ok()?,
            });
            edits.push(Edit {
                file: cx.file.id,
                span: crate::rules::mcp::shape::removal_span(node, members, index),
                content: String::new(),
            });
        }
        Some((_, None)) => return None,
        None => {
            // The `format` member becomes the `description` member, in place.
            let member = &members[index];
            let colon = &cx.text()[member.key_span.end..member.value.span.start];
            edits.push(Edit {
                file: cx.file.id,
                span: Span::new(member.key_span.start, member.value.span.end),
                content: format!(
                    "\"description\"{colon}{}",
                    serde_json::to_string(&said).ok()?
                ),
            });
        }
    }
    Some(Fix {
        title: format!("Move `\"format\": \"{name}\"` into `description`"),
        applicability: Applicability::Unsafe,
        edits,
        moves: Vec::new(),
    })
}

/// A root that is not `"type": "object"`. A root with a combinator is SL704's, whose help (one
/// object for the arguments) also gives it the type.
fn root_shape(cx: &UnitContext<'_>, root: &Subschema<'_>) -> Option<Diagnostic> {
    if ROOT_COMBINATORS.iter().any(|k| root.node.get(k).is_some()) {
        return None;
    }
    let t = root.node.get("type");
    if t.and_then(Node::as_str) == Some("object") {
        return None;
    }
    let message = match t {
        Some(t) => format!(
            "Input schema root has `\"type\": {}`; OpenAI strict mode requires `\"type\": \"object\"`",
            t.to_value()
        ),
        None => "Input schema root has no `\"type\": \"object\"`, which OpenAI strict mode requires".to_owned(),
    };
    let span = match &root.node.kind {
        crate::syntax::document::NodeKind::Object(_) => strict::anchor(root.node),
        _ => root.node.span,
    };
    Some(
        cx.report(span, message)
            .label("must be `\"type\": \"object\"`")
            .note(NOTE)
            .class(classes::SL702_ROOT_NOT_OBJECT)
            .help("Make the root `{\"type\": \"object\", \"properties\": {...}}`: tool arguments are a JSON object")
            .pointer(format!("{}/type", root.pointer)),
    )
}

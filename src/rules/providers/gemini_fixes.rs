//! The fixes of SL707 that rewrite one schema object for Gemini's `parameters` field: a `const`
//! string as a one-value `enum`, a type array as `anyOf` or as `nullable`, a string `enum`'s
//! missing type, and a field Gemini does not know moved into `description`.

use super::gemini::FIELDS;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::rules::edits::members::removal_span;
use crate::rules::UnitContext;
use crate::syntax::document::{Member, Node};
use crate::syntax::source::Span;

/// Fields that only name or comment the schema: dropping them moves nothing into the
/// description.
const SILENT: [&str; 4] = ["$schema", "$id", "$comment", "$anchor"];

/// Fields whose removal cannot be written as text for the model: they hold the structure of the
/// value (references and combinators), so no fix drops them.
const STRUCTURAL: [&str; 11] = [
    "$ref",
    "$defs",
    "definitions",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$dynamicRef",
    "dependentSchemas",
    "unevaluatedProperties",
];

/// The help and fix for a field Gemini does not know (`m`, a member of `node`): `const` of a
/// string becomes a one-value `enum` (Safe), `oneOf` becomes `anyOf` (Unsafe: a value matching
/// two branches now passes), and any other field but a structural one is moved into
/// `description` (Unsafe: the schema accepts more).
pub fn for_unknown(
    cx: &UnitContext<'_>,
    node: &Node,
    members: &[Member],
    m: &Member,
) -> Option<(String, Fix)> {
    let key = m.key.as_str();
    if key == "const" && node.get("enum").is_none() {
        if let Some(value) = m.value.as_str() {
            let literal = serde_json::to_string(value).ok()?;
            let colon = &cx.text()[m.key_span.end..m.value.span.start];
            return Some((
                "Write the `const` as a one-value `enum`: it accepts the same value".to_owned(),
                Fix {
                    title: "Replace `const` with a one-value `enum`".to_owned(),
                    applicability: Applicability::Safe,
                    edits: vec![edit(
                        cx,
                        Span::new(m.key_span.start, m.value.span.end),
                        format!("\"enum\"{colon}[{literal}]"),
                    )],
                    moves: Vec::new(),
                },
            ));
        }
    }
    if key == "oneOf" && node.get("anyOf").is_none() {
        return Some((
            "Write `oneOf` as `anyOf`, which Gemini reads (a value that matches two branches \
             then passes too)"
                .to_owned(),
            Fix {
                title: "Replace `oneOf` with `anyOf`".to_owned(),
                applicability: Applicability::Unsafe,
                edits: vec![edit(cx, m.key_span, "\"anyOf\"".to_owned())],
                moves: Vec::new(),
            },
        ));
    }
    if STRUCTURAL.contains(&key) {
        return None;
    }
    into_description(cx, node, members, m)
}

/// Removes `m` from `node`, and writes what it said into the schema's `description` (an
/// existing one gains a sentence), except for fields that only name the schema. Unsafe: the
/// schema then accepts what the field rejected.
pub fn into_description(
    cx: &UnitContext<'_>,
    node: &Node,
    members: &[Member],
    m: &Member,
) -> Option<(String, Fix)> {
    let key = m.key.as_str();
    let at = members.iter().position(|x| std::ptr::eq(x, m))?;
    let silent = is_silent(key);
    let said = format!("{key}: {}", m.value.to_value());
    let description = members.iter().rev().find(|x| x.key == "description");
    let mut edits = Vec::new();
    match (silent, description) {
        (true, _) => edits.push(edit(cx, removal_span(node, members, at), String::new())),
        // A description that is no string has no room for the words: the field goes alone.
        (false, Some(d)) if d.value.as_str().is_none() => {
            edits.push(edit(cx, removal_span(node, members, at), String::new()));
        }
        (false, Some(d)) => {
            let old = d.value.as_str().unwrap_or_default();
            let stop = if old.trim_end().ends_with(['.', '!', '?', ')']) || old.is_empty() {
                ""
            } else {
                "."
            };
            let new = format!("{}{stop} ({said})", old.trim_end())
                .trim_start()
                .to_owned();
            edits.push(edit(cx, d.value.span, literal(&new)));
            edits.push(edit(cx, removal_span(node, members, at), String::new()));
        }
        // Two fields moved into a description that is not there yet would write it twice: the
        // first one writes it, the next ones follow once it is there (the fix loop re-lints).
        (false, None)
            if members[..at]
                .iter()
                .any(|x| moves_into_description(node, x)) =>
        {
            return None;
        }
        (false, None) => {
            let colon = &cx.text()[m.key_span.end..m.value.span.start];
            edits.push(edit(
                cx,
                Span::new(m.key_span.start, m.value.span.end),
                format!("\"description\"{colon}{}", literal(&format!("({said})"))),
            ));
        }
    }
    let (help, title) = if silent {
        (
            format!("Remove `{key}`: Gemini does not know it (it only names the schema)"),
            format!("Remove `{key}`"),
        )
    } else {
        (
            format!(
                "Remove `{key}` and say it in `description` for the model (the schema then \
                 accepts what `{key}` refused: check the arguments in the server)"
            ),
            format!("Move `{key}` into `description`"),
        )
    };
    Some((
        help,
        Fix {
            title,
            applicability: Applicability::Unsafe,
            edits,
            moves: Vec::new(),
        },
    ))
}

fn is_silent(key: &str) -> bool {
    SILENT.contains(&key) || key.starts_with("x-")
}

/// Whether the fixes move member `m` of `node` into a description: a field Gemini does not
/// know whose fix is no other than that, or a string `format` it does not take.
fn moves_into_description(node: &Node, m: &Member) -> bool {
    let key = m.key.as_str();
    if key == "format" {
        return node.get("type").and_then(Node::as_str) == Some("string")
            && m.value
                .as_str()
                .is_some_and(|f| !super::gemini::STRING_FORMATS.contains(&f));
    }
    let other_fix = (key == "const" && m.value.as_str().is_some() && node.get("enum").is_none())
        || (key == "oneOf" && node.get("anyOf").is_none());
    !FIELDS.contains(&key) && !is_silent(key) && !STRUCTURAL.contains(&key) && !other_fix
}

/// The help and fix for a type array `m` of `node`: one type written alone (Safe), several
/// without `null` as an `anyOf` of one type each (Safe: JSON Schema reads both alike), one type
/// with `null` as that type and `"nullable": true` (Unsafe, see the doc: a JSON Schema validator
/// ignores `nullable` and then rejects `null`).
pub fn for_type_array(cx: &UnitContext<'_>, node: &Node, m: &Member) -> Option<(String, Fix)> {
    let names: Vec<&str> = m
        .value
        .as_array()?
        .iter()
        .map(Node::as_str)
        .collect::<Option<_>>()?;
    let mut distinct: Vec<&str> = Vec::new();
    for n in &names {
        if !distinct.contains(n) {
            distinct.push(n);
        }
    }
    let nullable = distinct.contains(&"null");
    let others: Vec<&str> = distinct.iter().copied().filter(|n| *n != "null").collect();
    let colon = &cx.text()[m.key_span.end..m.value.span.start];
    match (others.as_slice(), nullable) {
        ([one], false) => Some((
            format!("Write the type as `\"{one}\"`: a one-name list means the same"),
            Fix {
                title: format!("Replace `[\"{one}\"]` with `\"{one}\"`"),
                applicability: Applicability::Safe,
                edits: vec![edit(cx, m.value.span, literal(one))],
                moves: Vec::new(),
            },
        )),
        ([one], true) => {
            let has_nullable = node.get("nullable").is_some();
            let content = if has_nullable {
                literal(one)
            } else {
                format!("{}, \"nullable\"{colon}true", literal(one))
            };
            Some((
                format!(
                    "Write `\"type\": \"{one}\", \"nullable\": true`, Gemini's way of saying it \
                     (a JSON Schema validator ignores `nullable` and then refuses `null`)"
                ),
                Fix {
                    title: format!(
                        "Replace the type list with `\"{one}\"` and `\"nullable\": true`"
                    ),
                    applicability: Applicability::Unsafe,
                    edits: vec![edit(cx, m.value.span, content)],
                    moves: Vec::new(),
                },
            ))
        }
        (several, false) if several.len() > 1 && node.get("anyOf").is_none() => {
            let branches: Vec<String> = several
                .iter()
                .map(|t| format!("{{\"type\"{colon}{}}}", literal(t)))
                .collect();
            Some((
                "Write the types as an `anyOf` of one type each: it accepts the same values"
                    .to_owned(),
                Fix {
                    title: "Replace the type list with an `anyOf`".to_owned(),
                    applicability: Applicability::Safe,
                    edits: vec![edit(
                        cx,
                        Span::new(m.key_span.start, m.value.span.end),
                        format!("\"anyOf\"{colon}[{}]", branches.join(", ")),
                    )],
                    moves: Vec::new(),
                },
            ))
        }
        _ => None,
    }
}

/// The help and fix for a schema without `type` whose `enum` holds strings only: `"type":
/// "string"` before the enum, which accepts the same values (Safe).
pub fn add_string_type(
    cx: &UnitContext<'_>,
    node: &Node,
    members: &[Member],
) -> Option<(String, Fix)> {
    let values = node.get("enum")?.as_array()?;
    if values.is_empty() || values.iter().any(|v| v.as_str().is_none()) {
        return None;
    }
    let m = members.iter().find(|m| m.key == "enum")?;
    let colon = &cx.text()[m.key_span.end..m.value.span.start];
    Some((
        "Add `\"type\": \"string\"`: every value of the `enum` is a string, so it accepts the \
         same values"
            .to_owned(),
        Fix {
            title: "Add `\"type\": \"string\"`".to_owned(),
            applicability: Applicability::Safe,
            edits: vec![edit(
                cx,
                Span::new(m.key_span.start, m.key_span.start),
                format!("\"type\"{colon}\"string\", "),
            )],
            moves: Vec::new(),
        },
    ))
}

fn literal(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn edit(cx: &UnitContext<'_>, span: Span, content: String) -> Edit {
    Edit {
        file: cx.file.id,
        span,
        content,
    }
}

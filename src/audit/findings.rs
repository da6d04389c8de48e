//! The audit's findings beyond the four targets: `SL601` to `SL607`, per call.

use super::decision::{is_result_wrapper, Target};
use super::Finding;
use crate::diagnostic::meta::{self, RuleMeta};
use serde_json::Value;

fn rule(code: &str) -> &'static RuleMeta {
    meta::find(code).unwrap_or(&meta::PARSE_ERROR)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The findings `SL601` to `SL604` for one call (SL605: [`format_disagreements`]).
pub(super) fn findings(
    body: &Value,
    schema: Option<&Value>,
    protocol: Option<&str>,
    is_error: bool,
    target: Target,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let content = body.get("structuredContent");
    if schema.is_some() && !is_error && content.is_none() {
        out.push(Finding {
            rule: rule("SL601"),
            message: "The tool declares an output schema but the result has no `structuredContent`"
                .to_owned(),
            pointer: None,
            format: None,
        });
    }
    if let Some(c) = content.filter(|c| !c.is_object()) {
        if protocol.is_some_and(|p| p.starts_with("2025-")) {
            out.push(Finding {
                rule: rule("SL602"),
                message: format!(
                    "`structuredContent` is {}, but protocol {} requires an object",
                    if c.is_null() {
                        "`null`".to_owned()
                    } else {
                        format!("{} {}", article(kind(c)), kind(c))
                    },
                    protocol.unwrap_or_default()
                ),
                pointer: None,
                format: None,
            });
        }
        if protocol == Some("2026-07-28") && !has_text_fallback(body, c) {
            out.push(Finding {
                rule: rule("SL604"),
                message: format!(
                    "`structuredContent` is {} {} with no TextContent carrying its JSON",
                    article(kind(c)),
                    kind(c)
                ),
                pointer: None,
                format: None,
            });
        }
    }
    if let Some(c) = content.filter(|c| !is_error && c.is_object()) {
        if let Some(text) = differing_text(body, c) {
            out.push(Finding {
                rule: rule("SL607"),
                message: format!(
                    "The text content (`{text}`) is not `structuredContent` as JSON: hosts that pass only `structuredContent` to the model (Claude Code, Codex) and hosts that pass only the text (gemini-cli, opencode, Kimi Code, Open WebUI) show it different things"
                ),
                pointer: None,
                format: None,
            });
        }
    }
    if let (Some(schema), Some(Value::Object(c))) = (schema, content) {
        let wrapped_content = c.len() == 1 && c.contains_key("result");
        let declares_result = schema
            .get("properties")
            .and_then(|p| p.get("result"))
            .is_some();
        if is_result_wrapper(schema) && !wrapped_content {
            out.push(Finding {
                rule: rule("SL603"),
                message: "The output schema is a `{\"result\": ...}` wrapper but `structuredContent` is not".to_owned(),
                pointer: None,
                format: None,
            });
        } else if wrapped_content && !declares_result && target != Target::LegacyWrapper {
            out.push(Finding {
                rule: rule("SL603"),
                message: "`structuredContent` is a `{\"result\": ...}` wrapper but the output schema is not".to_owned(),
                pointer: None,
                format: None,
            });
        }
    }
    out
}

/// SL603, the legacy case: a `.meta({ id })` tool's result sent as the `{"result": ...}` wrapper
/// on 2025-11-25, which every SDK client validates as it is against a schema that describes the
/// inside (measured: each rejects it).
pub(super) fn legacy_wrapper_rejected() -> Finding {
    Finding {
        rule: rule("SL603"),
        message: "`structuredContent` is the legacy `{\"result\": ...}` wrapper of a `.meta({ id })` tool, but the output schema describes what is inside: every client validates the wrapper as it is and rejects the result (ts-sdk-v1, ts-sdk-v2, python-sdk, python-sdk-v1, gemini-cli)".to_owned(),
        pointer: None,
        format: None,
    }
}

/// SL606: an error result (`isError: true`) whose `structuredContent` fails the output schema.
pub(super) fn error_result_fails_schema() -> Finding {
    Finding {
        rule: rule("SL606"),
        message: "The error result's `structuredContent` fails the output schema: ts-sdk-v1 validates it and throws -32602, so the tool's error never reaches the model, and gemini-cli (through the TS SDK 1.x client it bundles) hands the model that -32602 instead; ts-sdk-v2 and python-sdk pass error results on unvalidated".to_owned(),
        pointer: None,
        format: None,
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The start of the first text of `content` when some text says something and none is `c` as
/// JSON, nor the value of a `{"result": value}` wrapper (`None` then, or when there is no text
/// to show: hosts that pass only the text then fall back to `structuredContent`).
fn differing_text(body: &Value, c: &Value) -> Option<String> {
    let blocks = body.get("content")?.as_array()?;
    let texts: Vec<&str> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .filter(|t| !t.trim().is_empty())
        .collect();
    let first = texts.first()?;
    // A `{"result": value}` wrapper (the Python SDK's for a scalar or a list, the legacy
    // envelope) whose text is the value as JSON shows every host the same data.
    let inner = c
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get("result"));
    if has_text_fallback(body, c)
        || inner.is_some_and(|v| has_text_fallback(body, v) || is_sdk_rendering(blocks, v))
    {
        return None;
    }
    let mut shown: String = first.chars().take(40).collect();
    if shown.len() < first.len() {
        shown.push('…');
    }
    Some(shown.replace('`', "'").replace(['\n', '\r'], " "))
}

/// Whether `blocks` are the text the Python SDK's `MCPServer` (and `FastMCP`, `mcp` 1.x) writes
/// for a function's return value `value`, which it sends as `{"result": value}`: its
/// `_convert_to_content` gives a string as it is (`-> str`), a list or a tuple as the texts of
/// its items one after another (`-> list[str]`: a block per item), `None` as nothing, and
/// anything else as JSON (measured on `mcp` 2.3.0, `tests/integration/audit.sh`). Every host
/// then shows the model the same data.
fn is_sdk_rendering(blocks: &[Value], value: &Value) -> bool {
    fn pieces<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
        match value {
            Value::Null => {}
            Value::Array(items) => items.iter().for_each(|item| pieces(item, out)),
            other => out.push(other),
        }
    }
    let mut expected = Vec::new();
    pieces(value, &mut expected);
    blocks.len() == expected.len()
        && blocks.iter().zip(expected).all(|(block, piece)| {
            let text = (block.get("type").and_then(Value::as_str) == Some("text"))
                .then(|| block.get("text").and_then(Value::as_str))
                .flatten();
            text.is_some_and(|text| match piece {
                Value::String(s) => text == s,
                other => serde_json::from_str::<Value>(text).is_ok_and(|parsed| &parsed == other),
            })
        })
}

/// Whether `content` holds a `TextContent` whose text is `c` as JSON.
fn has_text_fallback(body: &Value, c: &Value) -> bool {
    body.get("content")
        .and_then(Value::as_array)
        .is_some_and(|blocks| {
            blocks.iter().any(|b| {
                b.get("type").and_then(Value::as_str) == Some("text")
                    && b.get("text")
                        .and_then(Value::as_str)
                        .and_then(|t| serde_json::from_str::<Value>(t).ok())
                        .is_some_and(|parsed| &parsed == c)
            })
        })
}

/// The article before a format's name as it is read: `an email`, `an ipv6`, `a uri`, `a uuid`.
fn format_article(format: &str) -> &'static str {
    if format.starts_with(['a', 'e', 'i', 'o']) {
        "an"
    } else {
        "a"
    }
}

/// SL605 for each `format` of a result that the Python client accepts (it does not assert
/// `format`) and the TS clients reject (Ajv with ajv-formats asserts it): one finding per field,
/// wherever the `format` sits: beside `type`, through `$ref` and `allOf` (whose failures are
/// the field's own), or in a branch of `anyOf` or `oneOf` (Pydantic's `Optional[datetime]`:
/// `{"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}`), where the
/// branch that the value fails only by its formats is the one the Python client took.
pub(super) fn format_disagreements(ts: &jsonschema::Validator, instance: &Value) -> Vec<Finding> {
    let mut fields = Vec::new();
    for e in ts.iter_errors(instance) {
        if let Some(found) = format_only(std::slice::from_ref(&e)) {
            fields.extend(found);
        }
    }
    let mut seen = std::collections::HashSet::new();
    fields.retain(|field| seen.insert(field.clone()));
    fields
        .into_iter()
        .filter_map(|(pointer, format)| {
            let value = instance.pointer(&pointer)?;
            Some(Finding {
                rule: rule("SL605"),
                message: format!(
                    "`{}` is {value}, not {} `{format}` for the TypeScript clients, which assert `format` and \
                     reject this result; the Python client, which does not, accepts it",
                    if pointer.is_empty() { "(root)" } else { &pointer },
                    format_article(&format)
                ),
                pointer: Some(pointer),
                format: Some(format),
            })
        })
        .collect()
}

/// The fields and formats that `errors` come to when each of them is a `format` failure, or an
/// `anyOf`/`oneOf` of which some branch fails by formats alone (the first such branch); `None`
/// when one of them fails otherwise.
fn format_only(errors: &[jsonschema::ValidationError<'_>]) -> Option<Vec<(String, String)>> {
    use jsonschema::error::ValidationErrorKind as Kind;
    let mut out = Vec::new();
    for e in errors {
        match e.kind() {
            Kind::Format { format } => {
                out.push((e.instance_path().as_str().to_owned(), format.clone()));
            }
            Kind::AnyOf { context } | Kind::OneOfNotValid { context } => {
                out.extend(context.iter().find_map(|branch| format_only(branch))?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod sl607_tests {
    use super::differing_text;
    use serde_json::json;

    #[test]
    fn the_text_must_carry_the_structured_content_or_a_wrappers_value() {
        let body = |text: &str, c: serde_json::Value| json!({"content": [{"type": "text", "text": text}], "structuredContent": c});
        let c = json!({"items": [1, 2]});
        let same = body("{\n  \"items\": [1, 2]\n}", c.clone());
        assert_eq!(
            differing_text(&same, &c),
            None,
            "formatting does not matter"
        );
        let summary = body("2 items", c.clone());
        assert_eq!(differing_text(&summary, &c).as_deref(), Some("2 items"));
        let wrapped = json!({"result": 17});
        assert_eq!(differing_text(&body("17", wrapped.clone()), &wrapped), None);
        assert_eq!(
            differing_text(&body("seventeen", wrapped.clone()), &wrapped).as_deref(),
            Some("seventeen")
        );
        // What the Python SDK writes for `-> str`, `-> list[str]`, `-> list[float]` and
        // `-> tuple[str, int]` (mcp 2.3.0's `MCPServer`): not reported.
        let sdk = |texts: &[&str], result: serde_json::Value| {
            let blocks: Vec<serde_json::Value> = texts
                .iter()
                .map(|t| json!({"type": "text", "text": t}))
                .collect();
            let c = json!({"result": result});
            differing_text(&json!({"content": blocks, "structuredContent": c}), &c)
        };
        assert_eq!(sdk(&["Hello, Ann"], json!("Hello, Ann")), None);
        assert_eq!(sdk(&["{\"a\": 1}"], json!("{\"a\": 1}")), None);
        assert_eq!(sdk(&["a", "b c"], json!(["a", "b c"])), None);
        assert_eq!(sdk(&["16.0", "17.0"], json!([16.0, 17.0])), None);
        assert_eq!(sdk(&["x", "1"], json!(["x", 1])), None);
        assert_eq!(sdk(&["a", "b", "c"], json!([["a", "b"], null, "c"])), None);
        // Not what the SDK writes: a text missing, another text, another order.
        assert_eq!(sdk(&["a"], json!(["a", "b"])).as_deref(), Some("a"));
        assert_eq!(sdk(&["b", "a"], json!(["a", "b"])).as_deref(), Some("b"));
        assert_eq!(
            sdk(&["Hello"], json!("Hello, Ann")).as_deref(),
            Some("Hello")
        );
        assert_eq!(
            sdk(&["2 items"], json!(["a", "b"])).as_deref(),
            Some("2 items")
        );
        let blank = body("  ", c.clone());
        assert_eq!(differing_text(&blank, &c), None, "no text: hosts fall back");
        let long = body(&format!("`{}`\nmore", "x".repeat(60)), c.clone());
        let shown = differing_text(&long, &c).unwrap();
        assert!(shown.starts_with("'xxx") && shown.ends_with('…'), "{shown}");
    }
}

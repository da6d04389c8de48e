//! Where to validate a call's `structuredContent`: the design document's
//! `structured_content_target`, exactly, with the audit record checked against its schema by the
//! `jsonschema` crate.
//!
//! *The design document* is the document the product was specified from. For the audit it gives
//! the audit record schema ([`RECORD_SCHEMA`]), the explicit capture form (JSON Lines of
//! `{"record": {...}, "body": {...}}`), and *the decision*: its function
//! `structured_content_target`, which picks the layer each call is validated at and which
//! [`structured_content_target`] here reproduces.

use serde::Serialize;
use serde_json::{json, Value};
use std::sync::LazyLock;

/// The layer a call's `structuredContent` is validated at, or why it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// `structuredContent` itself is the output.
    ValidateRoot,
    /// A legacy `{"result": {...}}` envelope on 2025-11-25 for a `.meta({ id })` tool: the
    /// inside of `result` is the output.
    LegacyWrapper,
    /// No `structuredContent`, or not an object.
    Missing,
    /// The audit record itself is malformed (no tool, an unknown or absent protocol).
    Schema,
}

impl Target {
    /// The name reports use for it (`validate_root`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Target::ValidateRoot => "validate_root",
            Target::LegacyWrapper => "legacy_wrapper",
            Target::Missing => "missing",
            Target::Schema => "schema",
        }
    }
}

/// The audit record schema of the design document, verbatim.
pub static RECORD_SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "required": ["tool", "protocol", "metaIdTool"],
        "properties": {
            "tool": {"type": "string", "minLength": 1},
            "protocol": {"enum": ["2025-11-25", "2026-07-28"]},
            "metaIdTool": {"type": "boolean"}
        }
    })
});

static RECORD_VALIDATOR: LazyLock<Option<jsonschema::Validator>> =
    LazyLock::new(|| jsonschema::validator_for(&RECORD_SCHEMA).ok());

/// Whether `record` passes the audit record schema.
#[must_use]
pub fn record_is_valid(record: &Value) -> bool {
    RECORD_VALIDATOR
        .as_ref()
        .is_some_and(|v| v.is_valid(record))
}

/// Why `record` fails the audit record schema, in plain words, or `None` when it passes:
/// `protocol 2025-06-18 is not one the audit's decision covers (it knows 2025-11-25
/// and 2026-07-28), so the call was not validated (target `schema`)`. `explicit`: the record was
/// written as such (the explicit form), not built from the traffic.
#[must_use]
pub fn explain_record(record: &Value, explicit: bool) -> Option<String> {
    if record_is_valid(record) {
        return None;
    }
    let properties = RECORD_SCHEMA["properties"].as_object();
    let known: Vec<&str> = RECORD_SCHEMA["properties"]["protocol"]["enum"]
        .as_array()
        .map(|e| e.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut why: Vec<String> = Vec::new();
    let Some(fields) = record.as_object() else {
        return Some(format!(
            "the audit record {record} is not an object, so the call was not validated (target \
             `schema`)"
        ));
    };
    match fields.get("tool") {
        Some(Value::String(t)) if !t.is_empty() => {}
        Some(Value::String(_)) => why.push("the tool name is empty".to_owned()),
        Some(other) => why.push(format!("the tool name is {other}, not a string")),
        None if explicit => why.push("the record names no tool".to_owned()),
        None => why.push("the request names no tool".to_owned()),
    }
    match fields.get("protocol") {
        Some(Value::String(p)) if known.contains(&p.as_str()) => {}
        Some(p) => why.push(format!(
            "protocol {} is not one the audit's decision covers (it knows {})",
            p.as_str().map_or_else(|| p.to_string(), str::to_owned),
            known.join(" and ")
        )),
        None if explicit => {
            why.push("the record has no protocol (`--protocol` sets one)".to_owned());
        }
        None => why.push(
            "the capture gives no protocol for the call (no protocol in the request's `_meta`, \
             no `initialize` result before it; `--protocol` sets one)"
                .to_owned(),
        ),
    }
    match fields.get("metaIdTool") {
        Some(Value::Bool(_)) => {}
        Some(other) => why.push(format!("`metaIdTool` is {other}, not a boolean")),
        None => why.push("the record has no `metaIdTool`".to_owned()),
    }
    let extra: Vec<&str> = fields
        .keys()
        .filter(|k| !properties.is_some_and(|p| p.contains_key(*k)))
        .map(String::as_str)
        .collect();
    if !extra.is_empty() {
        why.push(format!(
            "the record has {} the record schema does not allow: {}",
            if extra.len() == 1 { "a key" } else { "keys" },
            extra.join(", ")
        ));
    }
    if why.is_empty() {
        why.push(format!(
            "the audit record {record} does not match the record schema"
        ));
    }
    Some(format!("{}{NOT_VALIDATED}", why.join("; ")))
}

/// How [`explain_record`] ends its reasons (the JSON keeps it; the human report drops it).
pub const NOT_VALIDATED: &str = ", so the call was not validated (target `schema`)";

/// The decision, in the design document's order: a record that fails its schema -> `schema`; no
/// object `structuredContent` -> `missing`; a `.meta({ id })` tool on 2025-11-25 whose content is
/// exactly `{"result": {...}}` -> `legacy_wrapper`; everything else -> `validate_root`.
#[must_use]
pub fn structured_content_target(record: &Value, body: &Value) -> Target {
    if !record_is_valid(record) {
        return Target::Schema;
    }
    let Some(content) = body.get("structuredContent").and_then(Value::as_object) else {
        return Target::Missing;
    };
    let meta_id = record.get("metaIdTool").and_then(Value::as_bool) == Some(true);
    if meta_id && record.get("protocol").and_then(Value::as_str) == Some("2025-11-25") {
        let wrapped = content.len() == 1 && content.get("result").is_some_and(Value::is_object);
        return if wrapped {
            Target::LegacyWrapper
        } else {
            Target::ValidateRoot
        };
    }
    Target::ValidateRoot
}

/// Whether a tool's output schema shows `.meta({ id })`: a root `$id`, or a root `$ref` into its
/// own `$defs`/`definitions`.
#[must_use]
pub fn is_meta_id_schema(schema: &Value) -> bool {
    schema.get("$id").is_some_and(Value::is_string)
        || schema
            .get("$ref")
            .and_then(Value::as_str)
            .is_some_and(|r| r.starts_with("#/$defs/") || r.starts_with("#/definitions/"))
}

/// Whether a schema is the `{"result": ...}` envelope: one property, `result`, required.
#[must_use]
pub fn is_result_wrapper(schema: &Value) -> bool {
    let props = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    props.is_some_and(|p| p.len() == 1 && p.contains_key("result"))
        && required.is_some_and(|r| r.iter().any(|x| x == "result"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(protocol: &str, meta: bool) -> Value {
        json!({"tool": "get_report", "protocol": protocol, "metaIdTool": meta})
    }

    #[test]
    fn the_design_document_samples() {
        let root = json!({"structuredContent": {"region": "apac", "count": 42}});
        let legacy = json!({"structuredContent": {"result": {"region": "apac", "count": 42}}});
        let r = record("2025-11-25", true);
        assert_eq!(structured_content_target(&r, &root), Target::ValidateRoot);
        assert_eq!(
            structured_content_target(&r, &legacy),
            Target::LegacyWrapper
        );
        // Plain tools never take the legacy path.
        assert_eq!(
            structured_content_target(&record("2025-11-25", false), &legacy),
            Target::ValidateRoot
        );
        // 2026-07-28 does not unwrap again.
        assert_eq!(
            structured_content_target(&record("2026-07-28", true), &legacy),
            Target::ValidateRoot
        );
    }

    #[test]
    fn every_branch() {
        let body = json!({"structuredContent": {"a": 1}});
        assert_eq!(
            structured_content_target(
                &json!({"tool": "", "protocol": "2025-11-25", "metaIdTool": true}),
                &body
            ),
            Target::Schema
        );
        assert_eq!(
            structured_content_target(
                &json!({"tool": "t", "protocol": "2025-06-18", "metaIdTool": true}),
                &body
            ),
            Target::Schema
        );
        assert_eq!(
            structured_content_target(&json!({"tool": "t", "metaIdTool": true}), &body),
            Target::Schema
        );
        assert_eq!(
            structured_content_target(
                &json!({"tool": "t", "protocol": "2025-11-25", "metaIdTool": "yes"}),
                &body
            ),
            Target::Schema
        );
        assert_eq!(
            structured_content_target(
                &json!({"tool": "t", "protocol": "2025-11-25", "metaIdTool": true, "x": 1}),
                &body
            ),
            Target::Schema
        );
        let r = record("2025-11-25", true);
        assert_eq!(structured_content_target(&r, &json!({})), Target::Missing);
        assert_eq!(
            structured_content_target(&r, &json!({"structuredContent": [1]})),
            Target::Missing
        );
        assert_eq!(
            structured_content_target(&r, &json!({"structuredContent": {"result": 5}})),
            Target::ValidateRoot
        );
        assert_eq!(
            structured_content_target(&r, &json!({"structuredContent": {"result": {}, "x": 1}})),
            Target::ValidateRoot
        );
    }

    #[test]
    fn why_a_record_fails_in_plain_words() {
        let explain = |r: Value| explain_record(&r, false);
        assert_eq!(explain(record("2025-11-25", true)), None);
        assert_eq!(
            explain(record("2025-06-18", false)).as_deref(),
            Some(
                "protocol 2025-06-18 is not one the audit's decision covers (it knows \
                 2025-11-25 and 2026-07-28), so the call was not validated (target `schema`)"
            )
        );
        assert_eq!(
            explain(json!({"tool": "t", "metaIdTool": false})).as_deref(),
            Some(
                "the capture gives no protocol for the call (no protocol in the request's \
                 `_meta`, no `initialize` result before it; `--protocol` sets one), so the call \
                 was not validated (target `schema`)"
            )
        );
        assert_eq!(
            explain_record(&json!({"protocol": 7, "metaIdTool": "yes", "x": 1}), true).as_deref(),
            Some(
                "the record names no tool; protocol 7 is not one the audit's decision \
                 covers (it knows 2025-11-25 and 2026-07-28); `metaIdTool` is \"yes\", not a \
                 boolean; the record has a key the record schema does not allow: x, so the call \
                 was not validated (target `schema`)"
            )
        );
        assert_eq!(
            explain_record(&json!({"tool": "", "protocol": "2026-07-28"}), true).as_deref(),
            Some(
                "the tool name is empty; the record has no `metaIdTool`, so the call was not \
                 validated (target `schema`)"
            )
        );
        assert!(explain(json!([1])).unwrap().contains("is not an object"));
    }

    #[test]
    fn meta_id_and_wrapper_shapes() {
        assert!(is_meta_id_schema(&json!({"$id": "x", "type": "object"})));
        assert!(is_meta_id_schema(
            &json!({"$ref": "#/definitions/Report", "definitions": {}})
        ));
        assert!(!is_meta_id_schema(&json!({"type": "object"})));
        assert!(is_result_wrapper(
            &json!({"type": "object", "properties": {"result": {}}, "required": ["result"]})
        ));
        assert!(!is_result_wrapper(
            &json!({"type": "object", "properties": {"result": {}}})
        ));
    }
}

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

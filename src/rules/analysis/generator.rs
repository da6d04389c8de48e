//! Which generator wrote a schema, recognised from its shape, so that a finding's help can say
//! what to change in the server's code rather than in the JSON it never edits by hand.
//!
//! The signs are those the generators leave on every schema they write (measured on the Python
//! SDK and the TypeScript SDK servers, see MCP.md; schemars from its documented output, its enums
//! checked with schemars 1.2.3):
//! - Pydantic (the Python SDK, FastMCP): a `title` on every property, the field name in title
//!   case (`"at"` -> `"At"`, `"wind_speed"` -> `"Wind Speed"`), `<fn>Output` wrappers, models in
//!   `$defs`, optional fields as `anyOf [..., {"type": "null"}]`; never a `$schema`;
//! - zod (`z.toJSONSchema`, as the TypeScript SDK servers call it): a draft-07 (TS v1) or
//!   2020-12 (TS v2) `$schema` with `additionalProperties: false` on every object and no titles,
//!   or the root `$ref` to `#/definitions/<id>` that `.meta({ id })` makes;
//! - schemars (the Rust SDK): the integer and float formats it writes for Rust types (`uint32`,
//!   `int64`, `double`, ...), or a 2020-12 `$schema` with a root `title` and nullable types
//!   spelled `"type": [..., "null"]`.
//!
//! A schema that shows none of these, or the signs of two, is recognised as nothing: the
//! findings keep their generic help.

use crate::schema::walk::Subschema;
use crate::syntax::document::{Node, NodeKind};

/// A generator of JSON Schema that MCP servers use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// Pydantic, through the Python SDK or `FastMCP`.
    Pydantic,
    /// zod, through the TypeScript SDK servers.
    Zod,
    /// schemars, through the Rust SDK.
    Schemars,
}

/// How to write `"x-schema-lint-ignore": ["<code>"]` into a field's schema from the server's
/// code, for a finding that no change to the schema clears (it depends on the values the server
/// sends), `when` the author may (`once the server always sends it`): in the terms of the generator that wrote it, or of both Pydantic and zod where none
/// is recognised (measured with Pydantic 2.14.4 and zod 4.6.7, each writing the member into the
/// field's schema as given).
#[must_use]
pub fn ignore_marker(made_by: Option<Generator>, code: &str, when: &str) -> String {
    let pydantic = format!("`Field(json_schema_extra={{\"x-schema-lint-ignore\": [\"{code}\"]}})`");
    let zod = format!("`.meta({{ \"x-schema-lint-ignore\": [\"{code}\"] }})`");
    match made_by {
        Some(Generator::Pydantic) => format!(
            "To mark the field {when}, declare it with {pydantic}: \
             Pydantic writes that member into its schema"
        ),
        Some(Generator::Zod) => format!(
            "To mark the field {when}, add {zod} to its zod \
             schema: zod writes that member into its schema"
        ),
        _ => format!(
            "To mark the field {when}, write \
             `\"x-schema-lint-ignore\": [\"{code}\"]` into its schema: from Pydantic with {pydantic} on \
             the field, from zod with {zod} on its schema"
        ),
    }
}

/// The formats schemars writes for Rust's integer and float types (`u32` -> `uint32`).
pub const SCHEMARS_FORMATS: [&str; 12] = [
    "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint",
    "float", "double",
];

const DRAFT_07: [&str; 2] = [
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
];
const DRAFT_2020_12: [&str; 2] = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
];

/// The generator whose signs the schema (its subschemas, root first) bears, if exactly one.
#[must_use]
pub fn detect(subs: &[Subschema<'_>]) -> Option<Generator> {
    let root = subs.first()?.node;
    let found: Vec<Generator> = [
        (Generator::Pydantic, is_pydantic(root, subs)),
        (Generator::Zod, is_zod(root, subs)),
        (Generator::Schemars, is_schemars(root, subs)),
    ]
    .into_iter()
    .filter_map(|(g, yes)| yes.then_some(g))
    .collect();
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// Pydantic's title for a field: `wind_speed` -> `Wind Speed`.
fn pydantic_title(field: &str) -> String {
    field
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase()
                    .chain(chars.flat_map(char::to_lowercase))
                    .collect()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The members of the `properties` objects of the schema.
fn properties<'a>(subs: &'a [Subschema<'a>]) -> impl Iterator<Item = (&'a str, &'a Node)> + 'a {
    subs.iter()
        .filter_map(|s| s.node.get("properties")?.as_object())
        .flatten()
        .map(|m| (m.key.as_str(), &m.value))
}

fn is_pydantic(root: &Node, subs: &[Subschema<'_>]) -> bool {
    if root.get("$schema").is_some() {
        return false;
    }
    let mut titled = 0;
    for (key, value) in properties(subs) {
        match value.get("title").and_then(Node::as_str) {
            Some(title) if title == pydantic_title(key) => titled += 1,
            // A field whose type is a model (`Wind`, `Wind | None`) carries the model's title,
            // not one of its own.
            None if refers_to_model(value) => {}
            _ => return false,
        }
    }
    titled > 0
}

/// `{"$ref": ...}`, or `anyOf`/`oneOf` branches one of which is.
fn refers_to_model(value: &Node) -> bool {
    value.get("$ref").is_some()
        || ["anyOf", "oneOf"].iter().any(|k| {
            value
                .get(k)
                .and_then(Node::as_array)
                .is_some_and(|branches| branches.iter().any(|b| b.get("$ref").is_some()))
        })
}

fn is_zod(root: &Node, subs: &[Subschema<'_>]) -> bool {
    let schema = root.get("$schema").and_then(Node::as_str);
    let draft7 = schema.is_some_and(|s| DRAFT_07.contains(&s));
    // `.meta({ id })` on the root: `{"$schema": ..., "$ref": "#/definitions/<id>", "definitions": ...}`.
    if draft7
        && root
            .get("$ref")
            .and_then(Node::as_str)
            .is_some_and(|r| r.starts_with("#/definitions/"))
        && root.get("type").is_none()
    {
        return true;
    }
    if !(draft7 || schema.is_some_and(|s| DRAFT_2020_12.contains(&s))) {
        return false;
    }
    // zod writes no format for a number: `z.uint32()`, `z.int32()` and `z.float64()` are bounds
    // (zod 4.6.7); schemars' `uint32` beside a closed object is a `#[serde(deny_unknown_fields)]`
    // struct.
    let number_formats = subs.iter().any(|s| {
        s.node
            .get("format")
            .and_then(Node::as_str)
            .is_some_and(|f| SCHEMARS_FORMATS.contains(&f))
    });
    if number_formats {
        return false;
    }
    // The TS v2 server wraps a non-object output in an open `{"result": ...}` of its own.
    let wrapper = |n: &Node| {
        std::ptr::eq(n, root)
            && n.get("properties")
                .and_then(Node::as_object)
                .is_some_and(|p| p.len() == 1 && p[0].key == "result")
    };
    let objects: Vec<&Node> = subs
        .iter()
        .map(|s| s.node)
        .filter(|n| n.get("properties").is_some() && !wrapper(n))
        .collect();
    !objects.is_empty()
        && objects
            .iter()
            .all(|n| n.get("additionalProperties").and_then(Node::as_bool) == Some(false))
        && !subs.iter().any(|s| s.node.get("title").is_some())
}

fn is_schemars(root: &Node, subs: &[Subschema<'_>]) -> bool {
    // schemars names the dialect at the root of every schema it writes, and the Rust SDK keeps
    // it (rmcp 3.11.0 strips only the root's `title` and `description`); a hand-written schema in
    // OpenAPI's style uses `int32` too, without a `$schema`.
    let schema = root.get("$schema").and_then(Node::as_str);
    let integer_formats = schema.is_some()
        && subs.iter().any(|s| {
            s.node
                .get("format")
                .and_then(Node::as_str)
                .is_some_and(|f| SCHEMARS_FORMATS.contains(&f))
        });
    if integer_formats {
        return true;
    }
    let nullable_array = subs
        .iter()
        .any(|s| match s.node.get("type").map(|t| &t.kind) {
            Some(NodeKind::Array(items)) => items.iter().any(|i| i.as_str() == Some("null")),
            _ => false,
        });
    schema.is_some_and(|s| DRAFT_2020_12.contains(&s))
        && root.get("title").is_some()
        && nullable_array
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::dialect::Draft;
    use crate::schema::walk::walk;
    use crate::syntax::document::parse;

    fn detected(text: &str) -> Option<Generator> {
        let root = parse(text).unwrap();
        detect(&walk(&root, "", Draft::Draft202012))
    }

    #[test]
    fn pydantic_models_and_wrappers() {
        // Pydantic 2 for a model with a `datetime`, a `time`, an optional nested model and
        // a camel-case field (`Forecast.model_json_schema()`), and the Python SDK's `<fn>Output`
        // wrapper for `-> int`.
        let model = r##"{"$defs": {"Wind": {"properties": {"speed_kmh": {"title": "Speed Kmh", "type": "number"}}, "required": ["speed_kmh"], "title": "Wind", "type": "object"}}, "properties": {"at": {"format": "date-time", "title": "At", "type": "string"}, "opens": {"format": "time", "title": "Opens", "type": "string"}, "wind": {"anyOf": [{"$ref": "#/$defs/Wind"}, {"type": "null"}], "default": null}, "wind_speed": {"title": "Wind Speed", "type": "number"}, "userID": {"title": "Userid", "type": "integer"}}, "required": ["at", "opens", "wind_speed", "userID"], "title": "Forecast", "type": "object"}"##;
        assert_eq!(detected(model), Some(Generator::Pydantic));
        let retitled = model.replace("\"Wind Speed\"", "\"Speed of the wind\"");
        assert_eq!(
            detected(&retitled),
            None,
            "a title Pydantic would not write"
        );
        let wrapper = r#"{"properties": {"result": {"title": "Result", "type": "integer"}}, "required": ["result"], "title": "get_temperatureOutput", "type": "object"}"#;
        assert_eq!(detected(wrapper), Some(Generator::Pydantic));
        let with_ref = r##"{"$defs": {"Wind": {"properties": {"speed": {"title": "Speed", "type": "number"}}, "title": "Wind", "type": "object"}}, "properties": {"wind": {"$ref": "#/$defs/Wind"}}, "required": ["wind"], "title": "Report", "type": "object"}"##;
        assert_eq!(detected(with_ref), Some(Generator::Pydantic));
    }

    #[test]
    fn zod_as_the_typescript_servers_write_it() {
        // TS v1 server (zod 4, draft-07) and TS v2 server (2020-12).
        let v1 = r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"temperature": {"type": "number"}, "at": {"type": "string", "format": "date-time"}}, "required": ["temperature", "at"], "additionalProperties": false}"#;
        assert_eq!(detected(v1), Some(Generator::Zod));
        let v2 = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"region": {"type": "string"}, "inner": {"type": "object", "properties": {"n": {"type": "number"}}, "additionalProperties": false}}, "required": ["region"], "additionalProperties": false}"#;
        assert_eq!(detected(v2), Some(Generator::Zod));
        let meta_id = r##"{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/Report", "definitions": {"Report": {"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"], "additionalProperties": false}}}"##;
        assert_eq!(detected(meta_id), Some(Generator::Zod));
        // The TS v2 server's own `{"result": ...}` wrapper around a zod array (mcp-ts-v2-tools).
        let wrapped = r##"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"result": {"type": "array", "items": {"$ref": "#/properties/result/$defs/Reading"}, "$defs": {"Reading": {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}, "value": {"type": "number"}}, "required": ["at", "value"], "additionalProperties": false}}}}, "required": ["result"]}"##;
        assert_eq!(detected(wrapped), Some(Generator::Zod));
        // One open object is not zod's.
        let open = v2.replacen(", \"additionalProperties\": false}", "}", 1);
        assert_eq!(detected(&open), None);
    }

    #[test]
    fn schemars_formats_and_nullable_types() {
        let reading = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Reading", "type": "object", "properties": {"count": {"type": "integer", "format": "uint32", "minimum": 0}, "note": {"type": ["string", "null"]}}, "required": ["count"]}"#;
        assert_eq!(detected(reading), Some(Generator::Schemars));
        let nullable = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Note", "type": "object", "properties": {"text": {"type": ["string", "null"]}}}"#;
        assert_eq!(detected(nullable), Some(Generator::Schemars));
        // schemars 1.2.3 for a `#[serde(deny_unknown_fields)]` struct, as rmcp 3.11.0 lists it
        // (no root title): closed like zod's objects, but zod writes no number formats.
        let strict = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "additionalProperties": false, "properties": {"count": {"format": "uint32", "minimum": 0, "type": "integer"}, "name": {"type": "string"}}, "required": ["name", "count"], "type": "object"}"#;
        assert_eq!(detected(strict), Some(Generator::Schemars));
        // zod 4.6.7, `z.toJSONSchema(z.strictObject({ n: z.uint32() }))`.
        let zod = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 4294967295}}, "required": ["n"], "additionalProperties": false}"#;
        assert_eq!(detected(zod), Some(Generator::Zod));
    }

    #[test]
    fn typeless_roots_as_the_generators_write_them() {
        // `model_json_schema()` of a recursive model (Pydantic 2.14.4).
        let recursive = r##"{"$defs": {"Node": {"properties": {"name": {"title": "Name", "type": "string"}, "children": {"default": [], "items": {"$ref": "#/$defs/Node"}, "title": "Children", "type": "array"}}, "required": ["name"], "title": "Node", "type": "object"}}, "$ref": "#/$defs/Node"}"##;
        assert_eq!(detected(recursive), Some(Generator::Pydantic));
        // zod 4.6.7, `z.toJSONSchema(z.object({...}).meta({ id: "Report" }))` (2020-12).
        let meta_id = r##"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/Report", "$defs": {"Report": {"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"], "additionalProperties": false}}}"##;
        assert_eq!(detected(meta_id), Some(Generator::Zod));
        // schemars 1.2.3, `schema_for!` of an untagged Rust enum of two structs.
        let untagged = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Untagged", "anyOf": [{"type": "object", "properties": {"radius": {"type": "number", "format": "double"}}, "required": ["radius"]}, {"type": "object", "properties": {"side": {"type": "number", "format": "double"}}, "required": ["side"]}]}"#;
        assert_eq!(detected(untagged), Some(Generator::Schemars));
    }

    #[test]
    fn hand_written_schemas_are_nobodys() {
        assert_eq!(
            detected(
                r#"{"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}}"#
            ),
            None
        );
        assert_eq!(detected(r#"{"type": "object"}"#), None);
        // OpenAPI's style: `int32` without a `$schema`.
        assert_eq!(
            detected(
                r#"{"type": "object", "properties": {"n": {"type": "integer", "format": "int32"}}}"#
            ),
            None
        );
        assert_eq!(detected("true"), None);
        assert_eq!(pydantic_title("wind_speed"), "Wind Speed");
        assert_eq!(pydantic_title("at"), "At");
    }
}

//! What Gemini's two schema fields take, shared by SL707 (`parameters`, an `OpenAPI` 3.0 subset)
//! and SL708 (`parametersJsonSchema`, a JSON Schema subset), and by their fixes.

/// The fields of Gemini's `Schema` (the `parameters` field of a function declaration).
pub const FIELDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// The formats Gemini takes on a string.
pub const STRING_FORMATS: [&str; 2] = ["enum", "date-time"];

/// The fields of [`FIELDS`] whose values Gemini reads as schemas.
pub const SCHEMA_FIELDS: [&str; 3] = ["properties", "items", "anyOf"];

/// The keywords `parametersJsonSchema` takes, as Google documents them, with `$schema` and
/// `$comment` (which only name and comment a schema) and `default` (which the API's own error
/// names among the keywords it knows).
pub const JSON_KEYWORDS: [&str; 24] = [
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "$schema",
    "$comment",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
    "default",
];

/// The keywords of [`JSON_KEYWORDS`] whose values hold schemas.
pub const JSON_SCHEMA_KEYWORDS: [&str; 7] = [
    "$defs",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
];

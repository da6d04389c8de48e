//! Prints a `tools/list` document whose tools' input schemas are written by schemars for pairs
//! of Rust types: `bad_X` is the shape a finding's help starts from, `fixed_X` the change that
//! help names. Each schema is made as rmcp 3.11.0's `schema_for_input` makes a tool's input
//! schema (`SchemaSettings::draft2020_12()`, the root schema of the type, without the root's
//! `title` and `description`). Every struct has a
//! `u32` field, which schemars writes as `"format": "uint32"`: that is how schema-lint tells
//! schemars wrote the schema (`rules::analysis::generator`).
#![allow(dead_code)]

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

fn input_schema<T: JsonSchema>() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut schema = serde_json::to_value(schema).expect("a schema is JSON");
    // rmcp's `schema_for_input` drops the root's title and description.
    let root = schema
        .as_object_mut()
        .expect("a struct's schema is an object");
    root.remove("title");
    root.remove("description");
    schema
}

// SL707 `$ref`/`$defs`: a nested struct goes into `$defs`; `#[schemars(inline)]` writes it in place.
#[derive(Deserialize, JsonSchema)]
struct Address {
    street: String,
    number: u32,
}
#[derive(Deserialize, JsonSchema)]
struct BadNested {
    address: Address,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
#[schemars(inline)]
struct InlineAddress {
    street: String,
    number: u32,
}
#[derive(Deserialize, JsonSchema)]
struct FixedNested {
    address: InlineAddress,
    count: u32,
}

// SL707 `additionalProperties`: `#[serde(deny_unknown_fields)]`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BadStrict {
    name: String,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
struct FixedStrict {
    name: String,
    count: u32,
}

// SL707 type array: an `Option<T>` field.
#[derive(Deserialize, JsonSchema)]
struct BadOption {
    note: Option<String>,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
struct FixedOption {
    #[schemars(with = "String")]
    #[serde(default)]
    note: Option<String>,
    count: u32,
}

// SL707 boolean schema: a `serde_json::Value` field.
#[derive(Deserialize, JsonSchema)]
struct BadValue {
    payload: Value,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
struct FixedValue {
    payload: InlinePayload,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
#[schemars(inline)]
struct InlinePayload {
    kind: String,
}

// SL707 `format: uri`: `#[schemars(url)]`.
#[derive(Deserialize, JsonSchema)]
struct BadUrl {
    #[schemars(url)]
    homepage: String,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
struct FixedUrl {
    /// The home page, a URL.
    homepage: String,
    count: u32,
}

// SL708 `pattern`, `minLength`, `maxLength`: schemars' `regex` and `length` attributes.
#[derive(Deserialize, JsonSchema)]
struct BadBounds {
    #[schemars(regex(pattern = r"^[a-z]+$"), length(min = 1, max = 32))]
    slug: String,
    count: u32,
}
#[derive(Deserialize, JsonSchema)]
struct FixedBounds {
    /// Lower-case letters only, 1 to 32 of them.
    slug: String,
    count: u32,
}

// `x-schema-lint-ignore` written by schemars' `extend`: the same field as `BadBounds`, its
// SL708 silenced where schemars writes its schema.
#[derive(Deserialize, JsonSchema)]
struct FixedIgnored {
    #[schemars(
        regex(pattern = r"^[a-z]+$"),
        length(min = 1, max = 32),
        extend("x-schema-lint-ignore" = ["SL708"])
    )]
    slug: String,
    count: u32,
}

// SL708 cycle: a struct that holds itself through a required field.
#[derive(Deserialize, JsonSchema)]
struct BadCycle {
    name: String,
    count: u32,
    parent: Box<BadCycle>,
}
#[derive(Deserialize, JsonSchema)]
struct FixedCycle {
    name: String,
    count: u32,
    parent: Option<Box<FixedCycle>>,
}

// SL711: a tuple is `prefixItems` without `items`; a fixed-size array and a `Vec` have `items`.
#[derive(Deserialize, JsonSchema)]
struct BadTuple {
    range: (u32, u32),
}
#[derive(Deserialize, JsonSchema)]
struct FixedTuple {
    range: [u32; 2],
    tags: Vec<String>,
}

fn main() {
    let tools: Vec<Value> = [
        ("bad_nested", input_schema::<BadNested>()),
        ("fixed_nested", input_schema::<FixedNested>()),
        ("bad_strict", input_schema::<BadStrict>()),
        ("fixed_strict", input_schema::<FixedStrict>()),
        ("bad_option", input_schema::<BadOption>()),
        ("fixed_option", input_schema::<FixedOption>()),
        ("bad_value", input_schema::<BadValue>()),
        ("fixed_value", input_schema::<FixedValue>()),
        ("bad_url", input_schema::<BadUrl>()),
        ("fixed_url", input_schema::<FixedUrl>()),
        ("bad_bounds", input_schema::<BadBounds>()),
        ("fixed_bounds", input_schema::<FixedBounds>()),
        ("bad_ignored", input_schema::<BadBounds>()),
        ("fixed_ignored", input_schema::<FixedIgnored>()),
        ("bad_cycle", input_schema::<BadCycle>()),
        ("fixed_cycle", input_schema::<FixedCycle>()),
        ("bad_tuple", input_schema::<BadTuple>()),
        ("fixed_tuple", input_schema::<FixedTuple>()),
    ]
    .into_iter()
    .map(|(name, schema)| json!({"name": name, "inputSchema": schema}))
    .collect();
    let list = json!({"tools": tools});
    println!("{}", serde_json::to_string_pretty(&list).expect("JSON"));
}

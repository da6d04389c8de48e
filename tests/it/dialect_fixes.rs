//! SL402's fix of a draft-06/07 `$schema` on an MCP target respells what 2020-12 spells otherwise
//! (a tuple's `items` array as `prefixItems`, `dependencies` as `dependentRequired` or
//! `dependentSchemas`) and removes the stamp: checked with the `jsonschema`
//! crate on generated instances, the draft-07 original read as draft-07 and the fixed schema read
//! as 2020-12 (MCP's default, the crate's too) accept exactly the same instances. Where the
//! respelling is not exact, no fix is offered.

use proptest::prelude::*;
use schema_lint::engine::lint_loaded;
use schema_lint::fix::fix_run;
use schema_lint::settings::target::Target;
use schema_lint::settings::Settings;
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::load_source;
use serde_json::{json, Value};

fn settings() -> Settings {
    Settings {
        target: Some(Target::Mcp20251125),
        ..Settings::default()
    }
}

/// The text `--fix --unsafe-fixes` writes for `text`, a schema file linted for MCP.
fn fixed(text: &str) -> String {
    let source = SourceFile::new(FileId(0), "schema.json".into(), None, text, true);
    let settings = settings();
    let run = lint_loaded(vec![load_source(source, true)], &settings);
    let outcome = fix_run(run, &settings, schema_lint::fix::Offer::UNSAFE, &|_| Ok(()));
    outcome.run.files[0].file.text.to_string()
}

/// Instances that reach what the schema distinguishes: arrays of numbers and strings of 0 to 4
/// elements, objects with some of the property names the schema uses, values of every type.
fn instances() -> impl Strategy<Value = Value> {
    let names = ["point", "billing", "card", "cvv", "number", "x"];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        proptest::sample::select(vec!["", "m", "visa"]).prop_map(|s| json!(s)),
        proptest::sample::select(vec![0.0, 1.5, -2.0]).prop_map(|n| json!(n)),
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(names.to_vec()), inner), 0..5)
                .prop_map(|kv| Value::Object(
                    kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
        ]
    })
}

/// Asserts that `before`, read as the draft its `$schema` names, and `after`, read as 2020-12,
/// accept the same generated instances; returns how many of them each accepted.
fn same_instances(before: &Value, after: &Value) -> usize {
    assert!(after.get("$schema").is_none());
    let a = jsonschema::validator_for(before).unwrap();
    let b = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(after)
        .unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 4000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5140_2007),
        ..ProptestConfig::default()
    });
    let accepted = std::cell::Cell::new(0);
    runner
        .run(&instances(), |i| {
            let verdict = a.is_valid(&i);
            prop_assert_eq!(verdict, b.is_valid(&i), "instance {}", i);
            accepted.set(accepted.get() + usize::from(verdict));
            Ok(())
        })
        .unwrap();
    accepted.get()
}

const TUPLE: &str = r##"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "point": {
      "type": "array",
      "items": [{"type": "number"}, {"type": "number"}]
    },
    "card": {"$ref": "#/definitions/card"}
  },
  "dependencies": {"billing": ["card"]},
  "definitions": {
    "card": {"type": "object", "dependencies": {"cvv": {"required": ["number"]}}}
  }
}
"##;

/// Only the keys change, and the stamp goes: the `#/definitions/...` reference is left alone.
#[test]
fn a_draft_07_tuple_is_respelled_and_the_stamp_removed() {
    let after = fixed(TUPLE);
    let expected = TUPLE
        .replace(
            "  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n",
            "",
        )
        .replace("\"items\": [", "\"prefixItems\": [")
        .replace(
            "\"dependencies\": {\"billing\"",
            "\"dependentRequired\": {\"billing\"",
        )
        .replace(
            "\"dependencies\": {\"cvv\"",
            "\"dependentSchemas\": {\"cvv\"",
        );
    assert_eq!(after, expected);
    let (before, after): (Value, Value) = (
        serde_json::from_str(TUPLE).unwrap(),
        serde_json::from_str(&after).unwrap(),
    );
    let accepted = same_instances(&before, &after);
    assert!(accepted > 200, "only {accepted} generated instances valid");
    // What the respelled keywords decide, refused on both sides.
    let (a, b) = (
        jsonschema::validator_for(&before).unwrap(),
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&after)
            .unwrap(),
    );
    for refused in [
        json!({"point": [1, "x"]}),
        json!({"point": ["x"]}),
        json!({"billing": "x"}),
        json!({"card": {"cvv": "1"}}),
    ] {
        assert!(!a.is_valid(&refused) && !b.is_valid(&refused), "{refused}");
    }
}

/// Where the respelling would not be exact, or not read alike by an engine that reads the
/// result as draft-07, the stamp stays: a `$ref` into the tuple (its pointer would change),
/// `dependencies` mixing names and schemas, a keyword 2020-12 reads otherwise (`format`), an
/// embedded `$schema` below a tuple, a tuple with `additionalItems` (2020-12's `items`, which a
/// draft-07 reader applies to every element), a `type` beside a `$ref` that its target does not
/// have (draft-07 ignores it, 2020-12 applies it).
#[test]
fn no_fix_where_the_respelling_is_not_exact() {
    for schema in [
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"p": {"items": [{"type": "number"}]}, "q": {"$ref": "#/properties/p/items/0"}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"p": {"items": [{"type": "string", "format": "date"}]}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"p": {"$id": "https://example.com/p", "$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "number"}]}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"p": {"items": [{"type": "number"}], "additionalItems": {"type": "string"}}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"p": {"$ref": "#/definitions/p", "type": "string"}},
            "definitions": {"p": {"type": "integer"}}
        }),
    ] {
        let text = serde_json::to_string_pretty(&schema).unwrap();
        let after = fixed(&text);
        assert!(
            after.contains("draft-07/schema#") && !after.contains("prefixItems"),
            "{after}"
        );
    }
}

/// A schema that means the same in 2020-12 as written loses its stamp and nothing else.
#[test]
fn a_schema_that_reads_the_same_only_loses_its_stamp() {
    let text = "{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"type\": \"object\",\n  \"properties\": {\"a\": {\"type\": \"string\"}}\n}\n";
    assert_eq!(
        fixed(text),
        "{\n  \"type\": \"object\",\n  \"properties\": {\"a\": {\"type\": \"string\"}}\n}\n"
    );
}

/// A `type` beside a `$ref` whose target has that `type` (as SL501's fix writes `"type":
/// "object"` beside a root `$ref`) means nothing more in 2020-12: the stamp goes.
#[test]
fn a_type_beside_a_ref_to_that_type_is_no_obstacle() {
    let text = "{\n  \"type\": \"object\",\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"$ref\": \"#/definitions/Out\",\n  \"definitions\": {\"Out\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}}\n}\n";
    let after = fixed(text);
    assert_eq!(
        after,
        text.replace(
            "  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n",
            ""
        )
    );
    let (before, after): (Value, Value) = (
        serde_json::from_str(text).unwrap(),
        serde_json::from_str(&after).unwrap(),
    );
    same_instances(&before, &after);
}

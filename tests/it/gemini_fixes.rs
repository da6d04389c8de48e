//! The fixes of SL707 and SL708 keep their word about meaning, checked with the `jsonschema`
//! crate on generated instances: a Safe fix's schema accepts exactly the instances the original
//! accepts, and the `nullable` fix (Unsafe) is shown to accept less under JSON Schema (`null`).

use proptest::prelude::*;
use schema_lint::engine::lint_loaded;
use schema_lint::fix::fix_run;
use schema_lint::settings::Settings;
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::load_source;
use serde_json::{json, Value};

/// The settings of a run for the client the rule `code` is about (and no other).
fn settings(code: &str) -> Settings {
    let client = if code == "SL707" {
        "gemini"
    } else {
        "gemini-jsonschema"
    };
    Settings {
        clients: schema_lint::settings::clients::parse(&[client])
            .unwrap()
            .clients,
        ..Settings::default()
    }
}

/// The text `--fix` (and `--unsafe-fixes` where `unsafe_fixes`) writes for `text`.
fn fixed(text: &str, code: &str, unsafe_fixes: bool) -> String {
    let source = SourceFile::new(FileId(0), "tools.json".into(), None, text, true);
    let settings = settings(code);
    let run = lint_loaded(vec![load_source(source, true)], &settings);
    let outcome = fix_run(
        run,
        &settings,
        schema_lint::fix::Offer {
            unsafe_fixes,
            follow_on: false,
        },
        &|_| Ok(()),
    );
    outcome.run.files[0].file.text.to_string()
}

fn listing(schema: &Value) -> String {
    serde_json::to_string_pretty(&json!({"tools": [{"name": "t", "inputSchema": schema}]})).unwrap()
}

fn input_schema(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap();
    v["tools"][0]["inputSchema"].clone()
}

/// The strings and numbers a schema names (property names, enum values, type names), from
/// which instances are built: values that reach every branch the schema distinguishes.
fn atoms(schema: &Value, strings: &mut Vec<String>, numbers: &mut Vec<f64>) {
    match schema {
        Value::String(s) => strings.push(s.clone()),
        Value::Number(n) => numbers.extend(n.as_f64()),
        Value::Array(items) => items.iter().for_each(|i| atoms(i, strings, numbers)),
        Value::Object(m) => {
            for (k, v) in m {
                strings.push(k.clone());
                atoms(v, strings, numbers);
            }
        }
        _ => {}
    }
}

fn instances(schema: &Value) -> impl Strategy<Value = Value> {
    let mut strings = vec![String::new(), "x".to_owned()];
    let mut numbers = vec![0.0, 1.0, -1.5, 1e10];
    atoms(schema, &mut strings, &mut numbers);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        proptest::sample::select(strings.clone()).prop_map(Value::String),
        proptest::sample::select(numbers).prop_map(|n| json!(n)),
        any::<i8>().prop_map(|n| json!(n)),
    ];
    leaf.prop_recursive(4, 32, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(strings.clone()), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Asserts that `before` and `after` accept the same generated instances (`cases` of them).
fn same_instances(before: &Value, after: &Value, cases: u32) {
    let a = jsonschema::validator_for(before).unwrap();
    let b = jsonschema::validator_for(after).unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6e31_0707),
        ..ProptestConfig::default()
    });
    let mut both = serde_json::Map::new();
    both.insert("a".into(), before.clone());
    both.insert("b".into(), after.clone());
    runner
        .run(&instances(&Value::Object(both)), |i| {
            prop_assert_eq!(a.is_valid(&i), b.is_valid(&i), "instance {}", i);
            Ok(())
        })
        .unwrap();
}

/// The safe fixes of SL707: the `$ref`s written out (with annotations beside one), the `const`
/// as an `enum`, a type list without `null` as an `anyOf`, a string enum's type.
#[test]
fn the_safe_fixes_of_sl707_accept_the_same_instances() {
    let schema = json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "const": "meeting"},
            "when": {"$ref": "#/$defs/Slot", "description": "When"},
            "many": {"type": "array", "items": {"$ref": "#/$defs/Slot"}},
            "either": {"type": ["string", "integer"]},
            "mode": {"enum": ["a", "b"]}
        },
        "required": ["kind", "when"],
        "$defs": {
            "Slot": {
                "type": "object",
                "properties": {"start": {"$ref": "#/$defs/Start"}, "room": {"type": "integer"}},
                "required": ["start"]
            },
            "Start": {"type": "string", "minLength": 2}
        }
    });
    let text = fixed(&listing(&schema), "SL707", false);
    let after = input_schema(&text);
    assert!(!text.contains("$ref") && !text.contains("$defs") && !text.contains("const"));
    assert_eq!(
        after["properties"]["either"]["anyOf"],
        json!([{"type": "string"}, {"type": "integer"}])
    );
    assert_eq!(after["properties"]["mode"]["type"], "string");
    same_instances(&schema, &after, 2000);
}

/// A recursive schema keeps its `$ref`s: nothing finite writes it out.
#[test]
fn recursive_references_are_not_inlined() {
    let schema = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
    });
    let text = listing(&schema);
    assert_eq!(fixed(&text, "SL707", true).matches("$ref").count(), 2);
}

/// `["T", "null"]` as `"type": "T", "nullable": true` keeps Gemini's reading (`nullable` is its
/// "may be null"), but a JSON Schema validator ignores `nullable`: the fixed schema refuses
/// `null`, which the original accepted, so the fix is Unsafe and `--fix` leaves it.
#[test]
fn the_nullable_fix_accepts_less_under_json_schema() {
    let schema = json!({"type": "object", "properties": {"room": {"type": ["string", "null"]}}});
    let text = listing(&schema);
    assert_eq!(fixed(&text, "SL707", false), text, "Safe fixes leave it");
    let after = input_schema(&fixed(&text, "SL707", true));
    assert_eq!(
        after["properties"]["room"],
        json!({"type": "string", "nullable": true})
    );
    let (before, after) = (
        jsonschema::validator_for(&schema).unwrap(),
        jsonschema::validator_for(&after).unwrap(),
    );
    let null_room = json!({"room": null});
    assert!(before.is_valid(&null_room));
    assert!(!after.is_valid(&null_room));
    for same in [json!({}), json!({"room": "a"}), json!({"room": 1})] {
        assert_eq!(before.is_valid(&same), after.is_valid(&same), "{same}");
    }
}

/// SL708's fix of keywords beside a `$ref`: a one-branch `anyOf` from 2019-09 on, their removal
/// in draft-07 (where they were ignored); both accept the same instances.
#[test]
fn the_ref_sibling_fixes_of_sl708_accept_the_same_instances() {
    for schema in [
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"o": {"$ref": "#/$defs/O", "type": "object", "required": ["a"], "description": "d"}},
            "$defs": {"O": {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"o": {"type": "string", "$ref": "#/definitions/O", "minLength": 3}},
            "definitions": {"O": {"type": "object", "properties": {"a": {"type": "integer"}}}}
        }),
    ] {
        let text = fixed(&listing(&schema), "SL708", false);
        let after = input_schema(&text);
        let o = &after["properties"]["o"];
        assert!(
            o.get("anyOf").is_some() || o.as_object().unwrap().len() == 1,
            "{o}"
        );
        same_instances(&schema, &after, 2000);
    }
}

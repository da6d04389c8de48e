//! Properties of `schema::compat` on generated pairs of schemas: it never panics; every breaking
//! finding carries a counterexample that the `jsonschema` crate finds valid under one version
//! and invalid under the other; and when it calls every change compatible for a role, no
//! generated instance contradicts it (valid under OLD and not under NEW, for a consumer), but
//! for the documented policy on properties declared in open objects.

use proptest::prelude::*;
use schema_lint::schema::compat::{compare, Role, Side, Verdict};
use serde_json::{json, Map, Value};

fn leaf_schema() -> impl Strategy<Value = Value> {
    let types = prop::sample::subsequence(
        vec![
            "string", "integer", "number", "boolean", "null", "object", "array",
        ],
        1..3,
    );
    (
        prop::option::of(types),
        prop::option::of(prop::sample::subsequence(
            vec![json!("a"), json!("b"), json!(1), json!(null)],
            1..3,
        )),
        prop::option::of(0_u64..4),
        prop::option::of(0_u64..4),
        prop::option::of(-2_i64..3),
        prop::option::of(prop::sample::select(vec!["^a", "^[0-9]+$", "b"])),
        prop::option::of(prop::sample::select(vec!["email", "date"])),
    )
        .prop_map(
            |(types, enumeration, min_len, max_items, maximum, pattern, format)| {
                let mut m = Map::new();
                if let Some(t) = types {
                    m.insert(
                        "type".into(),
                        if t.len() == 1 { json!(t[0]) } else { json!(t) },
                    );
                }
                if let Some(e) = enumeration {
                    m.insert("enum".into(), json!(e));
                }
                if let Some(n) = min_len {
                    m.insert("minLength".into(), json!(n));
                }
                if let Some(n) = max_items {
                    m.insert("maxItems".into(), json!(n));
                }
                if let Some(n) = maximum {
                    m.insert("maximum".into(), json!(n));
                }
                if let Some(p) = pattern {
                    m.insert("pattern".into(), json!(p));
                }
                if let Some(f) = format {
                    m.insert("format".into(), json!(f));
                }
                Value::Object(m)
            },
        )
}

fn schema() -> impl Strategy<Value = Value> {
    leaf_schema().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (
                prop::collection::btree_map(
                    prop::sample::select(vec!["a", "b", "c"]),
                    inner.clone(),
                    0..3
                ),
                prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 0..2),
                prop::option::of(any::<bool>()),
            )
                .prop_map(|(props, required, closed)| {
                    let mut m = Map::new();
                    m.insert("type".into(), json!("object"));
                    m.insert("properties".into(), json!(props));
                    if !required.is_empty() {
                        m.insert("required".into(), json!(required));
                    }
                    if let Some(closed) = closed {
                        m.insert("additionalProperties".into(), json!(!closed));
                    }
                    Value::Object(m)
                }),
            inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|b| json!({"anyOf": b})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|b| json!({"oneOf": b})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|b| json!({"allOf": b})),
            inner
                .clone()
                .prop_map(|x| json!({"anyOf": [x, {"type": "null"}]})),
            inner.clone().prop_map(|x| json!({"not": x})),
            (
                inner,
                prop::sample::select(vec![
                    json!({"minimum": 1}),
                    json!({"exclusiveMinimum": 0}),
                    json!({"multipleOf": 2}),
                    json!({"const": "a"}),
                    json!({"uniqueItems": true}),
                    json!({"minItems": 1}),
                ])
            )
                .prop_map(|(x, extra)| {
                    let mut x = x;
                    if let (Some(m), Some(e)) = (x.as_object_mut(), extra.as_object()) {
                        m.extend(e.clone());
                    }
                    x
                }),
        ]
    })
}

fn instance() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(null)),
        any::<bool>().prop_map(Value::from),
        (-3_i64..5).prop_map(Value::from),
        Just(json!(0.5)),
        prop::sample::select(vec![
            "",
            "a",
            "b",
            "ab",
            "12",
            "a@b.c",
            "2024-01-01",
            "aaaa"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec!["a", "b", "c", "d"]).prop_map(str::to_owned),
                inner,
                0..3
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}

/// `schema` without the `n`-th keyword that constrains (in document order, counted through
/// subschemas), or as it is when it has fewer.
fn without_keyword(schema: &Value, n: &mut usize) -> Value {
    const DROPPABLE: &[&str] = &[
        "type",
        "enum",
        "const",
        "required",
        "minLength",
        "maxItems",
        "minItems",
        "maximum",
        "minimum",
        "exclusiveMinimum",
        "multipleOf",
        "pattern",
        "format",
        "uniqueItems",
        "additionalProperties",
    ];
    match schema {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                if DROPPABLE.contains(&k.as_str()) {
                    if *n == 0 {
                        *n = usize::MAX;
                        continue;
                    }
                    *n = n.saturating_sub(1);
                    out.insert(k.clone(), v.clone());
                } else if matches!(k.as_str(), "properties") {
                    let props = v.as_object().map(|p| {
                        p.iter()
                            .map(|(name, s)| (name.clone(), without_keyword(s, n)))
                            .collect::<Map<_, _>>()
                    });
                    out.insert(k.clone(), props.map_or(v.clone(), Value::Object));
                } else if let Value::Array(items) = v {
                    out.insert(
                        k.clone(),
                        Value::Array(items.iter().map(|s| without_keyword(s, n)).collect()),
                    );
                } else {
                    out.insert(k.clone(), without_keyword(v, n));
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn breaking_is_proven_and_compatible_is_not_contradicted(
        old in schema(),
        new in schema(),
        instances in prop::collection::vec(instance(), 24),
        producer in any::<bool>(),
        derived in prop::option::of(0_usize..12),
    ) {
        // Often NEW is OLD with one keyword dropped (or, for a producer, the other way round):
        // pairs whose changes are mostly compatible, where a wrong 'compatible' would show.
        let (old, new) = match derived {
            Some(mut n) if producer => (without_keyword(&old, &mut n), old),
            Some(mut n) => {
                let dropped = without_keyword(&old, &mut n);
                (old, dropped)
            }
            None => (old, new),
        };
        let role = if producer { Role::Producer } else { Role::Consumer };
        let found = compare(&old, &new, role, "", "");
        let (o, n) = (validator(&old), validator(&new));
        for f in &found {
            prop_assert_eq!(f.verdict == Verdict::Breaking, f.counterexample.is_some(), "{:?}", f);
            if let Some(c) = &f.counterexample {
                let (keep, other) = match c.valid_under { Side::Old => (&o, &n), Side::New => (&n, &o) };
                prop_assert!(keep.is_valid(&c.instance) && !other.is_valid(&c.instance), "{:?}", f);
            }
        }
        // Every change compatible (or none at all): no instance may break the role. A property
        // declared in an open object is compatible by policy, not by proof (an instance that
        // sent the name undeclared with another value breaks): such pairs are left out.
        let by_policy = found.iter().any(|f| f.kind == "property-added");
        if !by_policy && found.iter().all(|f| f.verdict == Verdict::Compatible) {
            for i in &instances {
                let broken = if producer {
                    n.is_valid(i) && !o.is_valid(i)
                } else {
                    o.is_valid(i) && !n.is_valid(i)
                };
                prop_assert!(!broken, "{} is a counterexample to {:?} for {} -> {}", i, found, old, new);
            }
        }
    }
}

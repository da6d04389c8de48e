use super::*;
use serde_json::json;

fn kinds(old: &Value, new: &Value, role: Role) -> Vec<(&'static str, Verdict)> {
    compare(old, new, role, "", "")
        .into_iter()
        .map(|f| (f.kind, f.verdict))
        .collect()
}

/// Every counterexample separates the two versions the way it says.
fn proven(old: &Value, new: &Value, role: Role) -> Vec<Finding> {
    let found = compare(old, new, role, "", "");
    let v = witness::Validators::new(old, new).unwrap();
    for f in &found {
        if let Some(c) = &f.counterexample {
            assert!(v.separates(&c.instance, c.valid_under), "{f:?}");
        }
        assert_eq!(
            f.verdict == Verdict::Breaking,
            f.counterexample.is_some(),
            "{f:?}"
        );
    }
    found
}

#[test]
fn required_added_breaks_callers_and_is_proven() {
    let old = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]});
    let new = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a", "b"]});
    let found = proven(&old, &new, Role::Consumer);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, "required-added");
    assert_eq!(found[0].new_pointer.as_deref(), Some("/required/1"));
    assert_eq!(
        found[0].counterexample.as_ref().unwrap().instance,
        json!({"a": "a"})
    );
    // The other way round, for a reader of what a server sends.
    assert_eq!(
        kinds(&new, &old, Role::Producer),
        [("required-removed", Verdict::Breaking)]
    );
    assert_eq!(
        kinds(&new, &old, Role::Consumer),
        [("required-removed", Verdict::Compatible)]
    );
}

#[test]
fn narrowing_and_widening_by_role() {
    let cases = [
        (
            json!({"type": ["string", "null"]}),
            json!({"type": "string"}),
            "type-narrowed",
        ),
        (
            json!({"type": "number"}),
            json!({"type": "integer"}),
            "type-narrowed",
        ),
        (
            json!({"enum": ["a", "b"]}),
            json!({"enum": ["a"]}),
            "enum-value-removed",
        ),
        (
            json!({"type": "integer", "maximum": 100}),
            json!({"type": "integer", "maximum": 50}),
            "bound-tightened",
        ),
        (
            json!({"type": "integer"}),
            json!({"type": "integer", "exclusiveMinimum": 0}),
            "bound-tightened",
        ),
        (
            json!({"type": "string", "maxLength": 10}),
            json!({"type": "string", "maxLength": 3}),
            "bound-tightened",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}}),
            json!({"type": "array", "items": {"type": "string"}, "minItems": 1}),
            "bound-tightened",
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "pattern": "^[0-9]+$"}),
            "pattern-added",
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "format": "email"}),
            "format-added",
        ),
        (
            json!({"type": "object", "properties": {"a": {}}}),
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            "additional-properties-changed",
        ),
        (
            json!({"type": "array", "items": {"type": "number"}}),
            json!({"type": "array", "items": {"type": "integer"}}),
            "type-narrowed",
        ),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!({"type": "string"}),
            "null-removed",
        ),
    ];
    for (old, new, kind) in cases {
        let found = proven(&old, &new, Role::Consumer);
        assert_eq!(
            found
                .iter()
                .map(|f| (f.kind, f.verdict))
                .collect::<Vec<_>>(),
            [(kind, Verdict::Breaking)],
            "{old} -> {new}"
        );
        // Reversed, the same change is compatible for a consumer and breaking for a producer.
        let back = proven(&new, &old, Role::Producer);
        assert!(
            back.iter().any(|f| f.verdict == Verdict::Breaking),
            "{new} -> {old}: {back:?}"
        );
        let back = proven(&new, &old, Role::Consumer);
        assert!(
            back.iter().all(|f| f.verdict == Verdict::Compatible),
            "{new} -> {old}: {back:?}"
        );
    }
}

#[test]
fn follows_local_refs_and_names_the_def() {
    let old = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "required": ["p"],
        "$defs": {"P": {"type": "object", "properties": {"n": {"type": "integer"}}}}});
    let new = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "required": ["p"],
        "$defs": {"P": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}});
    let found = proven(&old, &new, Role::Consumer);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].new_pointer.as_deref(), Some("/$defs/P/required/0"));
    assert_eq!(found[0].instance_pointer.as_deref(), Some("/p"));
    assert_eq!(
        found[0].counterexample.as_ref().unwrap().instance,
        json!({"p": {}})
    );
}

#[test]
fn recursive_refs_end() {
    let tree = |t: &str| json!({"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "properties": {"v": {"type": t}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}});
    let found = proven(&tree("number"), &tree("integer"), Role::Consumer);
    assert!(found
        .iter()
        .any(|f| f.kind == "type-narrowed" && f.verdict == Verdict::Breaking));
}

#[test]
fn what_cannot_be_shown_is_a_warning_never_a_pass() {
    // `not` is not reasoned about; here it changes nothing that matters for a consumer's
    // values, so no counterexample exists, and the change is a warning.
    let old = json!({"type": "string", "not": {"const": "x"}});
    let new = json!({"type": "string", "not": {"enum": ["x", "y", 7]}});
    let found = proven(&old, &new, Role::Consumer);
    assert_eq!(
        found
            .iter()
            .map(|f| (f.kind, f.verdict))
            .collect::<Vec<_>>(),
        [("unsupported-change", Verdict::Unproven)]
    );
    assert!(found[0].message.starts_with("cannot prove compatible"));
    // A looser pattern: no counterexample either way for a consumer, and no proof: a warning.
    let found = proven(
        &json!({"pattern": "^[a-z]+$"}),
        &json!({"pattern": "^[a-z0-9]+$"}),
        Role::Consumer,
    );
    assert_eq!(found[0].verdict, Verdict::Unproven);
}

#[test]
fn annotations_alone_change_nothing() {
    let old = json!({"type": "object", "description": "old", "properties": {"a": {"type": "string", "title": "A"}}});
    let new = json!({"type": "object", "description": "new", "properties": {"a": {"type": "string", "title": "B", "examples": ["x"]}}});
    assert!(compare(&old, &new, Role::Both, "", "").is_empty());
}

#[test]
fn tools_matched_by_name() {
    let old = json!({"tools": [
        {"name": "a", "description": "Adds", "inputSchema": {"type": "object", "properties": {"x": {"type": "number"}}}},
        {"name": "b", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"r": {"type": "string"}}, "required": ["r"]}},
        {"name": "gone", "inputSchema": {"type": "object"}}]});
    let new = json!({"result": {"tools": [
        {"name": "b", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"r": {"type": ["string", "null"]}}, "required": ["r"]}},
        {"name": "a", "description": "Adds two numbers", "inputSchema": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
        {"name": "c", "inputSchema": {"type": "object"}}]}});
    let found = tools::compare_tools(&old, &new);
    let got: Vec<_> = found
        .iter()
        .map(|f| (f.tool.as_deref().unwrap(), f.kind, f.verdict))
        .collect();
    assert_eq!(
        got,
        [
            ("a", "description-changed", Verdict::Warning),
            ("a", "required-added", Verdict::Breaking),
            ("b", "null-added", Verdict::Breaking),
            ("gone", "tool-removed", Verdict::Breaking),
            ("c", "tool-added", Verdict::Compatible),
        ]
    );
    assert_eq!(
        found[2].new_pointer.as_deref(),
        Some("/result/tools/0/outputSchema/properties/r/type")
    );
    assert_eq!(
        found[2].counterexample.as_ref().unwrap().instance,
        json!({"r": null})
    );
}

#[test]
fn a_ref_written_alike_is_followed_to_its_changed_target() {
    // SchemaStore's tsconfig.json (#5873): the `$ref`s of an `anyOf` are the same text, the
    // definition one names gained `minLength`.
    // There the other branches accept any object, so no counterexample exists: a warning.
    // With a branch that does not, the proof is found.
    let doc = |files: &Value, path: Value| {
        json!({"allOf": [{"anyOf": [{"$ref": "#/definitions/files"}, {"$ref": "#/definitions/refs"}]}],
        "definitions": {"files": files,
            "refs": {"properties": {"references": {"type": "array", "items": {"properties": {"path": path}}}}}}})
    };
    let verdicts = |files: Value| {
        let old = doc(&files, json!({"type": "string"}));
        let new = doc(&files, json!({"type": "string", "minLength": 1}));
        let found = proven(&old, &new, Role::Consumer);
        found
            .iter()
            .map(|f| (f.kind, f.verdict))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        verdicts(json!({"properties": {"files": {"type": "array"}}})),
        [("bound-tightened", Verdict::Unproven)]
    );
    assert_eq!(
        verdicts(json!({"required": ["files"]})),
        [("bound-tightened", Verdict::Breaking)]
    );
    // The same under a keyword the walk does not reason about: a warning, not a silent pass.
    let doc = |path: Value| json!({"not": {"$ref": "#/definitions/p"}, "definitions": {"p": path}});
    let found = compare(
        &doc(json!({"type": "string"})),
        &doc(json!({"type": "integer"})),
        Role::Consumer,
        "",
        "",
    );
    assert_eq!(
        found.iter().map(|f| f.kind).collect::<Vec<_>>(),
        ["unsupported-change"]
    );
}

#[test]
fn items_and_refs_with_siblings_written_alike_are_followed() {
    let doc = |step: Value| {
        json!({"type": "object", "properties": {
        "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}, "minItems": 1},
        "first": {"$ref": "#/$defs/step", "type": "object"}},
        "$defs": {"step": step}})
    };
    let old = doc(json!({"type": "object", "properties": {"run": {"type": "string"}}}));
    let new = doc(
        json!({"type": "object", "properties": {"run": {"type": "string"}}, "required": ["run"]}),
    );
    let found = proven(&old, &new, Role::Consumer);
    let got: Vec<_> = found
        .iter()
        .map(|f| {
            (
                f.kind,
                f.verdict,
                f.instance_pointer.as_deref().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(got, [("required-added", Verdict::Breaking, "/first")]);
}

#[test]
fn a_value_that_is_not_a_schema_is_never_a_silent_pass() {
    let found = compare(
        &json!({"type": "object"}),
        &json!(5),
        Role::Consumer,
        "",
        "",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].kind, found[0].verdict),
        ("not-a-schema", Verdict::Unproven)
    );
    assert!(
        found[0].message.contains("NEW does not compile"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_property_declared_in_an_open_object_is_compatible_under_one_of_too() {
    let doc = |props: Value| json!({"oneOf": [{"type": "object", "properties": props}, {"type": "string"}]});
    let old = doc(json!({"a": {"type": "string"}}));
    let new = doc(json!({"a": {"type": "string"}, "b": {"type": "boolean"}}));
    let found = proven(&old, &new, Role::Consumer);
    let got: Vec<_> = found.iter().map(|f| (f.kind, f.verdict)).collect();
    assert_eq!(got, [("property-added", Verdict::Compatible)]);
    // A change of a branch's own keyword has no known direction under oneOf: proven or not.
    let new = doc(json!({"a": {"type": "string", "maxLength": 2}}));
    let found = proven(&old, &new, Role::Consumer);
    assert_eq!(
        found
            .iter()
            .map(|f| (f.kind, f.verdict))
            .collect::<Vec<_>>(),
        [("bound-tightened", Verdict::Breaking)]
    );
}

#[test]
fn all_of_entries_added_narrow_and_editor_keywords_validate_nothing() {
    let old = json!({"allOf": [{"type": "object"}], "markdownDescription": "old"});
    let new = json!({"allOf": [{"type": "object"}, {"required": ["id"]}], "markdownDescription": "new", "x-order": 3});
    let found = proven(&old, &new, Role::Consumer);
    let got: Vec<_> = found.iter().map(|f| (f.kind, f.verdict)).collect();
    assert_eq!(got, [("all-of-entry-added", Verdict::Breaking)]);
    let back = proven(&new, &old, Role::Consumer);
    assert_eq!(
        back.iter().map(|f| (f.kind, f.verdict)).collect::<Vec<_>>(),
        [("all-of-entry-removed", Verdict::Compatible)]
    );
}

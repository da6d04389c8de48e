//! SL305 against the engine tier's cases (`testdata/engines/cases/sl305-*.json`), which the
//! general test of `tests/it/engines.rs` lints with the default selection, where SL305 is off: here
//! each is linted with SL305 selected and must be reported with its class; where the fix is
//! offered, `--fix` applies it, nothing of SL305 is left, and the fixed schema gives every
//! instance of the case the verdict the case expects (the `jsonschema` crate), so the move kept
//! every reference bound where it was.

use schema_lint::engine::{lint_loaded, lint_source};
use schema_lint::fix::{fix_run, Offer};
use schema_lint::settings::Settings;
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::load_source;
use serde_json::Value;
use std::path::Path;

/// The cases whose fix is refused, with the reason the help gives.
const REFUSED: &[(&str, &str)] = &[(
    "sl305-in-embedded-resource",
    "it lies in a subschema with a `$id` of its own",
)];

fn selected() -> Settings {
    let mut settings = Settings::default();
    settings.selection.extend_select = vec!["SL305".to_owned()];
    settings
}

fn source(text: &str) -> SourceFile {
    SourceFile::new(FileId(0), "case.json".into(), None, text, true)
}

fn cases() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/engines/cases");
    let mut cases: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("sl305-")
        })
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let case = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (name, case)
        })
        .collect();
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    cases
}

fn verdicts(schema: &Value, case: &Value) -> Vec<bool> {
    let validator = jsonschema::validator_for(schema).expect("the schema compiles");
    case["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| validator.is_valid(&i["data"]))
        .collect()
}

#[test]
fn every_case_is_reported_and_fixed_without_changing_a_verdict() {
    let cases = cases();
    assert!(cases.len() >= 6, "only {} SL305 cases", cases.len());
    for (name, case) in cases {
        let class = case["class"].as_str().unwrap();
        let text = serde_json::to_string_pretty(&case["schema"]).unwrap();
        let settings = selected();
        let found = lint_source(source(&text), &settings, true).diagnostics;
        let ours: Vec<_> = found.iter().filter(|d| d.rule.code == "SL305").collect();
        assert!(
            ours.iter().any(|d| d.class == Some(class)),
            "{name}: no SL305 finding of class `{class}`"
        );
        assert!(
            ours.iter().all(|d| d.breaks.is_empty()),
            "{name}: SL305 claims a client breaks"
        );
        let wanted: Vec<bool> = case["instances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["valid"].as_bool().unwrap())
            .collect();
        assert_eq!(verdicts(&case["schema"], &case), wanted, "{name}: the case");
        let run = lint_loaded(vec![load_source(source(&text), true)], &settings);
        let outcome = fix_run(run, &settings, Offer::SAFE, &|_| Ok(()));
        let fixed = outcome.run.files[0].file.text.to_string();
        let left = outcome
            .run
            .diagnostics()
            .iter()
            .filter(|d| d.rule.code == "SL305")
            .count();
        if let Some((_, reason)) = REFUSED.iter().find(|(n, _)| *n == name) {
            assert_eq!(fixed, text, "{name}: the fix must be refused");
            assert!(
                ours.iter()
                    .all(|d| d.fix.is_none()
                        && d.help.as_deref().is_some_and(|h| h.contains(reason))),
                "{name}: the help must say `{reason}`"
            );
            continue;
        }
        assert_ne!(fixed, text, "{name}: no fix was applied");
        assert_eq!(
            left, 0,
            "{name}: SL305 findings are left after --fix:\n{fixed}"
        );
        assert!(
            outcome.rejected.is_empty(),
            "{name}: {:?}",
            outcome.rejected
        );
        let schema: Value = serde_json::from_str(&fixed).unwrap();
        assert_eq!(
            verdicts(&schema, &case),
            wanted,
            "{name}: the fixed schema changes a verdict:\n{fixed}"
        );
    }
}

#[test]
fn off_by_default() {
    for (name, case) in cases() {
        let text = serde_json::to_string_pretty(&case["schema"]).unwrap();
        let found = lint_source(source(&text), &Settings::default(), true).diagnostics;
        assert!(
            !found.iter().any(|d| d.rule.code == "SL305"),
            "{name}: SL305 reported without being selected"
        );
    }
}

#[test]
fn out_of_scope_references_are_left_alone() {
    let schema = r##"{
  "$id": "https://example.com/tool.json",
  "type": "object",
  "properties": {
    "a": {"$anchor": "a", "type": "string"},
    "b": {"$ref": "#a"},
    "c": {"$ref": "https://example.com/tool.json#/properties/a"},
    "d": {"$ref": "#"},
    "e": {"$ref": "#/$defs/e"},
    "f": {"$ref": "#/definitions/f"},
    "g": {"$ref": "#/properties/nothing"},
    "h": {"const": {"$ref": "#/properties/a"}}
  },
  "$defs": {"e": {"type": "integer"}},
  "definitions": {"f": {"type": "null"}}
}"##;
    let found = lint_source(source(schema), &selected(), true).diagnostics;
    let ours: Vec<_> = found
        .iter()
        .filter(|d| d.rule.code == "SL305")
        .map(|d| &d.message)
        .collect();
    assert!(ours.is_empty(), "{ours:?}");
}

/// A schema with more targets than one fix moves: each finding's fix moves at most 64
/// subschemas (every finding holds its fix, so one fix for all would be held once per target),
/// and `--fix` still moves them all, pass after pass.
#[test]
fn many_targets_are_moved_in_bounded_fixes() {
    let mut properties = serde_json::Map::new();
    for i in 0..150 {
        properties.insert(
            format!("p{i}"),
            serde_json::json!({"type": "integer", "minimum": i}),
        );
        properties.insert(
            format!("r{i}"),
            serde_json::json!({"$ref": format!("#/properties/p{i}")}),
        );
    }
    let schema = serde_json::json!({"type": "object", "properties": properties});
    let text = serde_json::to_string_pretty(&schema).unwrap();
    let settings = selected();
    let found = lint_source(source(&text), &settings, true).diagnostics;
    assert_eq!(found.len(), 150);
    for d in &found {
        let fix = d.fix.as_ref().expect("every target can move");
        assert!(
            fix.moves.len() <= 64,
            "{} moves in one fix",
            fix.moves.len()
        );
    }
    let run = lint_loaded(vec![load_source(source(&text), true)], &settings);
    let outcome = fix_run(run, &settings, Offer::SAFE, &|_| Ok(()));
    assert!(outcome.rejected.is_empty(), "{:?}", outcome.rejected);
    assert!(outcome.run.diagnostics().is_empty());
    let fixed: Value = serde_json::from_str(&outcome.run.files[0].file.text).unwrap();
    assert_eq!(fixed["$defs"].as_object().unwrap().len(), 150);
    let wanted = [true, false];
    let case = serde_json::json!({"instances": [
        {"data": {"r149": 149, "r0": 0}}, {"data": {"r149": 148}}
    ]});
    assert_eq!(verdicts(&fixed, &case), wanted);
    assert_eq!(verdicts(&schema, &case), wanted);
}

//! `schema-lint diff` on the fixture pairs of `testdata/diff/<case>/`: `old.json`, `new.json`, an
//! optional `args` (one argument a line, after `diff old.json new.json`), and beside them
//! `expected.json`, the exit code and the JSON output (`SCHEMA_LINT_BLESS=1` writes it). Every
//! breaking finding carries a counterexample, which this test checks again on both versions with
//! the `jsonschema` crate (formats asserted); `tests/integration/diff.sh` checks the same with
//! Python's `jsonschema`.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/diff");
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn run(case: &Path) -> Value {
    let mut args = vec![
        "diff".to_owned(),
        "old.json".to_owned(),
        "new.json".to_owned(),
        "--output-format".to_owned(),
        "json".to_owned(),
    ];
    if let Ok(extra) = std::fs::read_to_string(case.join("args")) {
        args.extend(extra.lines().map(str::to_owned));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(&args)
        .current_dir(case)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout: Value = serde_json::from_slice(&out.stdout).unwrap();
    json!({"exit": out.status.code(), "output": stdout})
}

/// The schema a finding is about, in one version: the whole file, or the tool's schema
/// (`true` where the tool has none).
fn schema_of(document: &Value, finding: &Value) -> Value {
    let Some(tool) = finding["tool"].as_str() else {
        return document.clone();
    };
    let tools = document
        .get("tools")
        .or_else(|| document.pointer("/result/tools"))
        .and_then(Value::as_array)
        .unwrap();
    let tool = tools.iter().find(|t| t["name"] == tool);
    let schema = finding["schema"].as_str().unwrap();
    tool.and_then(|t| t.get(schema))
        .cloned()
        .unwrap_or(Value::Bool(true))
}

fn valid(schema: &Value, instance: &Value) -> bool {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
        .is_valid(instance)
}

#[test]
fn fixture_pairs_match_their_expected_output() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let got = run(&case);
        let expected_path = case.join("expected.json");
        if bless {
            let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
            std::fs::write(&expected_path, text).unwrap();
        } else if !expected_path.exists() || read_json(&expected_path) != got {
            failures.push(format!(
                "{}: got\n{}",
                case.display(),
                serde_json::to_string_pretty(&got).unwrap()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_counterexample_separates_the_two_versions() {
    let mut proofs = 0;
    for case in cases() {
        let expected = read_json(&case.join("expected.json"));
        let (old, new) = (
            read_json(&case.join("old.json")),
            read_json(&case.join("new.json")),
        );
        let findings = expected["output"]["findings"].as_array().unwrap();
        let breaking = findings.iter().any(|f| f["verdict"] == "breaking");
        assert_eq!(
            expected["exit"],
            json!(i32::from(breaking)),
            "{}",
            case.display()
        );
        for f in findings {
            let proof = &f["counterexample"];
            if f["kind"] == "tool-removed" || f["kind"] == "file-removed" {
                assert!(proof.is_null());
                continue;
            }
            assert_eq!(
                f["verdict"] == "breaking",
                !proof.is_null(),
                "{}: {f}",
                case.display()
            );
            if proof.is_null() {
                continue;
            }
            let (a, b) = (schema_of(&old, f), schema_of(&new, f));
            let instance = &proof["instance"];
            let (keep, other) = if proof["valid_under"] == "old" {
                (a, b)
            } else {
                (b, a)
            };
            assert!(valid(&keep, instance), "{}: {f}", case.display());
            assert!(!valid(&other, instance), "{}: {f}", case.display());
            proofs += 1;
        }
    }
    assert!(
        proofs >= 20,
        "only {proofs} counterexamples in the fixtures"
    );
}

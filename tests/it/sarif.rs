//! Our SARIF output validates against the official SARIF 2.1.0 JSON Schema (pinned in
//! `testdata/sarif/`, from the OASIS standard), with formats asserted, over fixtures with plain
//! findings, parse errors, and fixes that span files.

use std::path::Path;
use std::process::Command;

fn sarif_for(dir: &str) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(["--output-format", "sarif", "."])
        .current_dir(root.join(dir))
        .output()
        .expect("the binary runs");
    assert!(out.status.code().is_some_and(|c| c <= 2), "{dir}: crashed");
    serde_json::from_slice(&out.stdout).expect("SARIF output is JSON")
}

#[test]
fn sarif_output_follows_the_official_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("testdata/sarif/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    let mut results = 0;
    let mut fixes = 0;
    for dir in [
        "testdata/cli/format-sarif/files",
        "testdata/cli/fix-two-files/files",
        "testdata/cli/fix-defs-mode/files",
        "testdata/cli/bom-crlf-unicode/files",
        "testdata/cli/clean/files",
    ] {
        let log = sarif_for(dir);
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{dir}: SARIF is invalid:\n{}",
            errors.join("\n")
        );
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert!(rules
            .iter()
            .all(|r| r["helpUri"].is_string() && r["fullDescription"]["text"].is_string()));
        let found = run["results"].as_array().unwrap();
        // Only the rules that have a result are listed, each once.
        for rule in rules {
            assert!(
                found.iter().any(|r| r["ruleId"] == rule["id"]),
                "{dir}: {} is listed without a result",
                rule["id"]
            );
        }
        for result in found {
            results += 1;
            let index = usize::try_from(result["ruleIndex"].as_u64().unwrap()).unwrap();
            assert_eq!(rules[index]["id"], result["ruleId"]);
            fixes += usize::from(result.get("fixes").is_some());
        }
    }
    assert!(
        results >= 15 && fixes >= 5,
        "{results} results, {fixes} with fixes"
    );
}

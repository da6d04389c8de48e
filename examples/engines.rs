//! The engine tier's Rust side (`tests/integration/engines.sh` runs it):
//!
//! - `cargo run --example engines -- cases` prints every case as one JSON array: the files of
//!   `testdata/engines/cases/` (`{class, about, schema, before?, instances?}`, named by their
//!   file stem), each `json bad` example of `rules/*.md` (`doc/SL201-1`, ...) and each bad
//!   fixture of `testdata/rules/<CODE>/` (named by its `engine-key=` option, the doc example's
//!   name it had before it moved there, or `rules/<CODE>/<name>`); an example that is a
//!   `tools/list` gives one case per tool output schema, the earlier tools' schemas as
//!   `before`, as a client meets them;
//! - `cargo run --example engines -- run CASES.json` runs each case through the `jsonschema`
//!   crate (the version this crate pins, without its network features) as a Rust client would,
//!   `jsonschema::validator_for(&schema)` then `is_valid` per instance, and prints
//!   `{"jsonschema-rs": {case: result}}` in the form the other engines use.

use serde_json::{json, Map, Value};
use std::path::Path;

#[path = "../tests/it/common/rule_fixtures.rs"]
mod rule_fixtures;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = match args.first().map(String::as_str) {
        Some("cases") => Value::Array(cases(root)),
        Some("run") if args.len() == 2 => {
            let text = std::fs::read_to_string(&args[1]).unwrap_or_else(|e| fail(&e.to_string()));
            let cases: Vec<Value> =
                serde_json::from_str(&text).unwrap_or_else(|e| fail(&e.to_string()));
            let results: Map<String, Value> = cases.iter().map(|c| (name(c), run(c))).collect();
            json!({ "jsonschema-rs": results })
        }
        _ => fail("usage: engines cases | engines run CASES.json"),
    };
    println!("{out}");
}

fn fail(message: &str) -> ! {
    eprintln!("engines: {message}");
    std::process::exit(2)
}

fn name(case: &Value) -> String {
    case["name"].as_str().unwrap_or_default().to_owned()
}

/// Every case, sorted by name.
fn cases(root: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    let dir = root.join("testdata/engines/cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| fail(&e.to_string()));
        let mut case: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        case["name"] = Value::String(stem.into_owned());
        out.push(case);
    }
    for (code, doc) in schema_lint::rules::docs::docs() {
        let bad = schema_lint::rules::docs::examples(doc)
            .into_iter()
            .filter(|e| e.kind == schema_lint::rules::docs::ExampleKind::Bad)
            .filter(|e| !e.options.iter().any(|o| o == "audit" || o == "server"))
            // A client reads JSON, never a `.jsonc` file: those examples are schema-lint's own.
            .filter(|e| !e.options.iter().any(|o| o == "jsonc"));
        for (n, example) in bad.enumerate() {
            push_example(&mut out, &format!("doc/{code}-{}", n + 1), &example.text);
        }
    }
    // The bad fixtures of the rules' folders, under the name each was observed by.
    for fixture in rule_fixtures::all() {
        if fixture.kind == rule_fixtures::Kind::Bad && !fixture.options.iter().any(|o| o == "audit")
        {
            push_example(&mut out, &fixture.engine_key, &fixture.text);
        }
    }
    out.sort_by_key(name);
    out
}

/// A bad example (of a doc or a fixture folder) as a case named `name`: an example that is a
/// `tools/list` gives one case per tool output schema, the earlier tools' schemas as `before`.
fn push_example(out: &mut Vec<Value>, name: &str, text: &str) {
    // SL100's examples do not parse: there is no schema to give an engine.
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    match tools_of(&value) {
        Some(tools) => {
            let mut before = Vec::new();
            for tool in tools {
                let Some(schema) = tool.get("outputSchema") else {
                    continue;
                };
                let tool_name = tool["name"].as_str().unwrap_or("?");
                out.push(json!({
                    "name": format!("{name}/{tool_name}"),
                    "schema": schema,
                    "before": before.clone(),
                }));
                before.push(schema.clone());
            }
        }
        None => out.push(json!({ "name": name, "schema": value })),
    }
}

/// The tools of a `tools/list` document (or of the JSON-RPC response holding one).
fn tools_of(value: &Value) -> Option<&Vec<Value>> {
    value
        .get("tools")
        .or_else(|| value.get("result")?.get("tools"))?
        .as_array()
}

/// One case through the `jsonschema` crate.
fn run(case: &Value) -> Value {
    let schema = &case["schema"];
    let validator = match jsonschema::validator_for(schema) {
        Ok(v) => v,
        Err(e) => {
            // An identifier the crate cannot parse is a schema error, not a missing target.
            let kind = match e.kind() {
                jsonschema::error::ValidationErrorKind::Referencing(
                    referencing::Error::InvalidUri(_)
                    | referencing::Error::InvalidAnchor { .. }
                    | referencing::Error::UnknownSpecification { .. },
                ) => "schema",
                jsonschema::error::ValidationErrorKind::Referencing(_) => "reference",
                _ => "schema",
            };
            return json!({"compile": "error", "kind": kind, "error": first_line(&e.to_string())});
        }
    };
    let mut result = json!({"compile": "ok"});
    if let Some(instances) = case
        .get("instances")
        .and_then(Value::as_array)
        .filter(|i| !i.is_empty())
    {
        let verdicts: Vec<&str> = instances
            .iter()
            .map(|i| {
                if validator.is_valid(&i["data"]) {
                    "valid"
                } else {
                    "invalid"
                }
            })
            .collect();
        result["instances"] = json!(verdicts);
    }
    result
}

/// The first line of an error, at most 300 characters.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() <= 300 {
        line.to_owned()
    } else {
        let cut: String = line.chars().take(297).collect();
        format!("{cut}...")
    }
}

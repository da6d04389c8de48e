//! JSONC files (`.jsonc`): read with their comments and trailing commas, found by folder walks,
//! fixed without losing a comment, and their `schema-lint-ignore` comments honoured (with a
//! reason) or reported (SL103).

use crate::common::{lint_in, Scratch, BIN};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// The codes and pointers of a run's JSON report.
fn findings(stdout: &str) -> Vec<(String, String)> {
    let report: Value = serde_json::from_str(stdout).expect("a JSON report");
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["pointer"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

const TOOLS: &str = r#"// The listing our server sends, kept as JSONC.
{
  "tools": [
    {
      "name": "get_weather",
      "inputSchema": {"type": "object"},
      /* schema-lint-ignore SL201: the Python SDK is our only client; renamed in v2 */
      "outputSchema": {
        "$id": "get_weather:output",
        "type": "object",
      },
    },
    {
      "name": "get_forecast",
      "inputSchema": {"type": "object"},
      "outputSchema": {"$id": "get_forecast:output", "type": "object"}, // schema-lint-ignore SL201
    },
  ],
}
"#;

#[test]
fn a_walk_reads_jsonc_files_and_their_suppressions() {
    let dir = Scratch::new("jsonc-walk");
    dir.write("tools/listing.jsonc", TOOLS);
    let ran = lint_in(&dir.path, &[".", "--output-format", "json"], LIMIT);
    assert_eq!(ran.exit(), 1, "{ran:#?}");
    let found = findings(&ran.stdout);
    // The first tool's SL201 is suppressed by a comment with a reason; the second's is not, as
    // its comment gives none, and SL103 says so.
    assert!(
        found.contains(&("SL201".to_owned(), "/tools/1/outputSchema/$id".to_owned())),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|(c, p)| c == "SL201" && p.starts_with("/tools/0/")),
        "{found:?}"
    );
    assert_eq!(
        found.iter().filter(|(c, _)| c == "SL103").count(),
        1,
        "{found:?}"
    );
    // The same listing as JSON is a parse error: comments are JSONC's only.
    let plain = Scratch::new("jsonc-as-json");
    plain.write("tools/listing.json", TOOLS);
    let ran = lint_in(&plain.path, &[".", "--output-format", "concise"], LIMIT);
    assert_eq!(ran.exit(), 2, "{ran:#?}");
    assert!(
        ran.stdout.contains("SL100") && ran.stdout.contains("Comments are not allowed in JSON"),
        "{ran:#?}"
    );
}

#[test]
fn fix_keeps_every_comment_and_trailing_comma() {
    let dir = Scratch::new("jsonc-fix");
    let text = "{\n  // Our report: the id is fixed by schema-lint.\n  \"$id\": \"urn:my_tool:report\", /* kept */\n  \"type\": \"object\",\n}\n";
    let path = dir.write("report.schema.jsonc", text);
    let ran = lint_in(&dir.path, &["--fix", "report.schema.jsonc"], LIMIT);
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text.replace("urn:my_tool:report", "urn:my-tool:report")
    );
}

#[test]
fn standard_input_is_jsonc_by_its_given_name() {
    let text = "{\n  \"$id\": \"my_tool:output\", // schema-lint-ignore SL201: read by our own service\n  \"type\": \"object\",\n}\n";
    let run = |name: &str| {
        let mut child = Command::new(BIN)
            .args(["-", "--stdin-filename", name, "--output-format", "concise"])
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run("output.schema.jsonc");
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run("output.schema.json");
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("SL100"), "{out}");
}

#[test]
fn a_suppression_covers_what_follows_and_nothing_else() {
    let dir = Scratch::new("jsonc-scope");
    // Two nested ids with fragments (SL202): the comment before `a` covers `a` and what is
    // below it, not `b`; a comment that ends an object covers nothing (SL103).
    dir.write(
        "s.schema.jsonc",
        r##"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "properties": {
    // schema-lint-ignore id-has-fragment: anchors of the old generator
    "a": {"properties": {"x": {"$id": "#x"}}},
    "b": {"$id": "#b"}
    // schema-lint-ignore SL202: too late, nothing follows
  }
}
"##,
    );
    let ran = lint_in(
        &dir.path,
        &["s.schema.jsonc", "--output-format", "json"],
        LIMIT,
    );
    assert_eq!(ran.exit(), 1, "{ran:#?}");
    let found = findings(&ran.stdout);
    let codes: Vec<(&str, &str)> = found
        .iter()
        .map(|(c, p)| (c.as_str(), p.as_str()))
        .collect();
    assert!(codes.contains(&("SL202", "/properties/b/$id")), "{codes:?}");
    assert!(
        !codes.iter().any(|(_, p)| p.starts_with("/properties/a")),
        "{codes:?}"
    );
    assert!(codes.iter().any(|(c, _)| *c == "SL103"), "{codes:?}");
}

/// The `jsonc` example of docs/configuration.md: its suppressions hold, and without them its
/// findings are there.
#[test]
fn the_example_of_the_configuration_page_holds() {
    let page = include_str!("../../docs/configuration.md");
    let start = page.find("```jsonc\n").expect("a jsonc example") + "```jsonc\n".len();
    let example = &page[start..start + page[start..].find("```").unwrap()];
    let dir = Scratch::new("jsonc-doc");
    dir.write("report.schema.jsonc", example);
    let ran = lint_in(
        &dir.path,
        &["report.schema.jsonc", "--output-format", "json"],
        LIMIT,
    );
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert!(findings(&ran.stdout).is_empty(), "{ran:#?}");
    let bare: String = example
        .lines()
        .map(|l| l.find("//").map_or(l, |at| &l[..at]))
        .collect::<Vec<_>>()
        .join("\n");
    dir.write("bare.schema.jsonc", &bare);
    let ran = lint_in(
        &dir.path,
        &["bare.schema.jsonc", "--output-format", "json"],
        LIMIT,
    );
    let codes: Vec<String> = findings(&ran.stdout).into_iter().map(|(c, _)| c).collect();
    assert!(
        codes.contains(&"SL203".to_owned()) && codes.contains(&"SL201".to_owned()),
        "{codes:?}"
    );
}

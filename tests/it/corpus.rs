//! The official JSON-Schema-Test-Suite (vendored in `testdata/jsts`, one schema per file): every
//! schema there is valid in its draft, so no rule may call one invalid: no error-severity
//! finding, except where a valid schema is one that default MCP clients cannot use: it needs a
//! document they do not hold (a `$ref` to the suite's remotes or to a meta-schema a client does
//! not ship, a custom meta-schema as `$schema`), or Ajv refuses it (`"enum": []`, a `$id` in an
//! unknown keyword that a subschema declares too, an anchor Ajv reads twice or finds invalid, a
//! `$ref` Ajv resolves against the `$id` beside it in draft-07 or a `$dynamicRef` to a plain
//! `$anchor` that Ajv binds to the root), or the regex engine of a client refuses a
//! `pattern` (SL406: `\p{Letter}` in Python's `re`). The engine
//! tier measured those failures, and an error says that a default MCP client breaks. Portability warnings may fire; they are counted. A
//! missing corpus fails the tests: they never pass without reading it.

/// Whether a finding says that default MCP clients cannot use a valid schema.
fn clients_cannot_use(d: &schema_lint::diagnostic::Diagnostic) -> bool {
    d.class.is_some_and(|c| {
        c == "SL303/remote"
            || c.starts_with("SL303/meta-schema:")
            || c == "SL402/unknown"
            || c == "SL405/empty"
            || c == "SL204/in-unknown-keyword"
            || c == "SL204/duplicate-anchor"
            || c == "SL205/ajv-only"
            || c.starts_with("SL207/")
            || c == "SL302/dynamic-to-anchor"
            || c.starts_with("SL406/")
    })
}

use schema_lint::engine::lint_source;
use schema_lint::schema::dialect::Draft;
use schema_lint::settings::Settings;
use schema_lint::syntax::source::{FileId, SourceFile};
use std::path::Path;

/// The vendored corpus folder; panics when it is not there.
fn corpus() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsts");
    assert!(
        dir.join("manifest.json").is_file(),
        "the JSON-Schema-Test-Suite corpus is missing: {} has no manifest.json \
         (it is vendored in the repository; restore testdata/jsts)",
        dir.display()
    );
    dir
}

#[test]
fn test_suite_schemas_draw_no_finding() {
    let root = corpus();
    let mut linted = 0;
    let mut findings = Vec::new();
    let mut warnings = 0;
    for (folder, draft) in [
        ("draft4", Draft::Draft4),
        ("draft6", Draft::Draft6),
        ("draft7", Draft::Draft7),
        ("draft2019-09", Draft::Draft201909),
        ("draft2020-12", Draft::Draft202012),
    ] {
        let mut entries: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        let settings = Settings {
            default_draft: draft,
            ..Settings::default()
        };
        for path in entries {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            let file = SourceFile::new(FileId(0), name.clone(), Some(path), &text, true);
            let result = lint_source(file, &settings, true);
            for d in &result.diagnostics {
                if d.severity == schema_lint::diagnostic::Severity::Error && !clients_cannot_use(d)
                {
                    findings.push(format!("{name}: {} {}", d.rule.code, d.message));
                } else {
                    warnings += 1;
                }
            }
            linted += 1;
        }
    }
    eprintln!("{linted} corpus schemas linted, {warnings} warnings");
    assert!(linted > 1700, "only {linted} corpus files");
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// The same schemas linted as MCP 2026-07-28 output schemas, every rule on: that revision takes
/// any 2020-12 schema, so the MCP rules may warn (a closed object, a boolean property) but must
/// call none of them broken.
#[test]
fn test_suite_schemas_as_mcp_outputs_draw_no_error() {
    let root = corpus();
    let mut linted = 0;
    let mut custom_dialects = 0;
    let mut errors = Vec::new();
    for (folder, draft) in [
        ("draft4", Draft::Draft4),
        ("draft6", Draft::Draft6),
        ("draft7", Draft::Draft7),
        ("draft2019-09", Draft::Draft201909),
        ("draft2020-12", Draft::Draft202012),
    ] {
        let mut settings = Settings {
            default_draft: draft,
            target: Some(schema_lint::settings::target::Target::Mcp20260728),
            ..Settings::default()
        };
        settings.selection.select = Some(vec!["ALL".to_owned()]);
        let mut entries: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            let file = SourceFile::new(FileId(0), name.clone(), Some(path), &text, true);
            // A suite schema whose `$schema` is a custom meta-schema (the vocabulary and
            // format-assertion tests) would truly be refused as an MCP output schema: the TS v2
            // client accepts only the five standard dialects. SL402 says so, as an error.
            let custom_dialect = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v.get("$schema").and_then(|s| s.as_str().map(str::to_owned)))
                .is_some_and(|s| {
                    schema_lint::schema::dialect::Draft::from_schema_uri(&s).is_none()
                });
            let result = lint_source(file, &settings, true);
            errors.extend(
                result
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == schema_lint::diagnostic::Severity::Error)
                    .filter(|d| !(custom_dialect && d.rule.code == "SL402"))
                    .filter(|d| !clients_cannot_use(d))
                    .map(|d| format!("{name}: {} {}", d.rule.code, d.message)),
            );
            custom_dialects += usize::from(custom_dialect);
            linted += 1;
        }
    }
    assert!(linted > 1700, "only {linted} corpus files");
    assert_eq!(
        custom_dialects, 6,
        "the suite has six schemas with a custom meta-schema"
    );
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

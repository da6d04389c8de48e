//! Every rule has a doc in `rules/` (whose header declares its metadata), and every `json bad`
//! example triggers exactly its rule while every `json good` example triggers nothing.

use schema_lint::diagnostic::meta;
use schema_lint::engine::{lint_loaded, lint_source};
use schema_lint::fix::fix_run;
use schema_lint::rules;
use schema_lint::rules::docs::{self, Example, ExampleKind};
use schema_lint::settings::{FixIdMode, Settings};
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::load_source;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Settings an example asks for with words after its kind (`fix-id=defs`).
fn settings_for(example: &Example) -> (Settings, bool) {
    let mut settings = Settings::default();
    let mut allow_unsafe = false;
    for option in &example.options {
        match option.as_str() {
            "fix-id=defs" => settings.fix_id = FixIdMode::Defs,
            "unsafe" => allow_unsafe = true,
            "fix" | "audit" => {}
            o if o.starts_with("also=") => {}
            o if o.starts_with("target=") => {
                let name = &o["target=".len()..];
                settings.target = Some(
                    <schema_lint::settings::target::Target as clap::ValueEnum>::from_str(
                        name, false,
                    )
                    .unwrap_or_else(|e| {
                        panic!("bad target `{name}` at line {}: {e}", example.line)
                    }),
                );
            }
            o if o.starts_with("select=") => {
                settings.selection.extend_select =
                    o["select=".len()..].split(',').map(str::to_owned).collect();
            }
            other => panic!("unknown example option `{other}` at line {}", example.line),
        }
    }
    (settings, allow_unsafe)
}

fn source(text: &str) -> SourceFile {
    SourceFile::new(FileId(0), "example.json".into(), None, text, true)
}

fn codes_for(text: &str, settings: &Settings) -> BTreeSet<&'static str> {
    let linted = lint_source(source(text), settings, true);
    linted.diagnostics.iter().map(|d| d.rule.code).collect()
}

/// The findings `schema-lint audit` reports for a capture.
fn audit_codes(capture: &str) -> BTreeSet<&'static str> {
    let audit = schema_lint::audit::audit(capture, &schema_lint::audit::Options::default());
    assert!(
        audit.input_errors.is_empty(),
        "the capture does not parse: {:?}",
        audit.input_errors
    );
    assert!(!audit.calls.is_empty(), "the capture holds no call");
    audit
        .calls
        .iter()
        .flat_map(|c| c.findings.iter().map(|f| f.rule.code))
        .collect()
}

/// The text and the findings left after `--fix` on one file, SL901 included.
fn fixed(text: &str, settings: &Settings, allow_unsafe: bool) -> (String, BTreeSet<&'static str>) {
    let run = lint_loaded(vec![load_source(source(text), true)], settings);
    let mut outcome = fix_run(run, settings, allow_unsafe, &|_| Ok(()));
    schema_lint::report::attach_rejections(&mut outcome);
    let codes = outcome
        .run
        .diagnostics()
        .iter()
        .map(|d| d.rule.code)
        .collect();
    (outcome.run.files[0].file.text.to_string(), codes)
}

/// The rules reported elsewhere than by linting a schema: SL100 by the loader, `SL6xx` by the
/// audit, SL901 by the fix loop. Every other doc must have a rule that lints.
const REPORTED_ELSEWHERE: &[&str] = &[
    "SL100", "SL601", "SL602", "SL603", "SL604", "SL605", "SL901",
];

#[test]
fn every_doc_has_its_sections_and_a_rule_that_reports_it() {
    let linting: BTreeSet<&str> = rules::all().iter().map(|r| r.meta().code).collect();
    for meta in meta::ALL {
        let doc =
            docs::doc_for(meta).unwrap_or_else(|| panic!("{} has no doc in rules/", meta.code));
        for section in [
            "## What it does",
            "## Why is this bad",
            "## Example",
            "## Fix safety",
        ] {
            assert!(
                doc.contains(section),
                "rules/{}.md lacks `{section}`",
                meta.code
            );
        }
        assert!(
            linting.contains(meta.code) != REPORTED_ELSEWHERE.contains(&meta.code),
            "rules/{}.md: a rule is implemented by `impl Rule` in src/rules/<family>/, or reported \
             elsewhere (and listed in REPORTED_ELSEWHERE), never both nor neither",
            meta.code
        );
    }
    // Each rule's `meta()` is the metadata its doc declares, and the registry is in code order.
    let codes: Vec<&str> = rules::all().iter().map(|r| r.meta().code).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(codes, sorted);
    for rule in rules::all() {
        assert!(std::ptr::eq(
            rule.meta(),
            meta::find(rule.meta().code).unwrap()
        ));
    }
}

#[test]
fn every_doc_belongs_to_a_rule_and_every_file_is_embedded() {
    let embedded: BTreeSet<&str> = docs::DOCS.iter().map(|(c, _)| *c).collect();
    let registered: BTreeSet<&str> = meta::ALL.iter().map(|m| m.code).collect();
    assert_eq!(embedded, registered);
    let on_disk: BTreeSet<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))
            .unwrap()
            .map(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .trim_end_matches(".md")
                    .to_owned()
            })
            .collect();
    assert_eq!(
        on_disk,
        registered.iter().map(|s| (*s).to_owned()).collect()
    );
}

#[test]
fn doc_examples_trigger_exactly_their_rule() {
    let mut checked = 0;
    for (code, doc) in docs::DOCS {
        let examples = docs::examples(doc);
        assert!(
            examples.iter().any(|e| e.kind == ExampleKind::Bad)
                && examples.iter().any(|e| e.kind == ExampleKind::Good),
            "rules/{code}.md needs a `json bad` and a `json good` example"
        );
        let mut last_bad: Option<&Example> = None;
        for example in &examples {
            let (settings, allow_unsafe) = settings_for(example);
            let found = if example.options.iter().any(|o| o == "audit") {
                audit_codes(&example.text)
            } else {
                codes_for(&example.text, &settings)
            };
            match example.kind {
                // `json bad fix`: a finding whose fix `--fix` must refuse (SL901).
                ExampleKind::Bad if example.options.iter().any(|o| o == "fix") => {
                    let (text, left) = fixed(&example.text, &settings, allow_unsafe);
                    assert!(
                        left.contains(code) && text == example.text,
                        "rules/{code}.md:{}: --fix must refuse this example's fix and change nothing; left {left:?}",
                        example.line
                    );
                    last_bad = None;
                }
                ExampleKind::Bad => {
                    // `also=SL301` names findings the example triggers by nature besides its own.
                    let mut wanted = BTreeSet::from([*code]);
                    for o in &example.options {
                        if let Some(list) = o.strip_prefix("also=") {
                            wanted.extend(
                                list.split(',')
                                    .map(|c| meta::find(c).expect("a known code").code),
                            );
                        }
                    }
                    assert_eq!(
                        found, wanted,
                        "rules/{code}.md:{}: the bad example must trigger exactly {wanted:?}",
                        example.line
                    );
                    last_bad = Some(example);
                }
                ExampleKind::Good => assert!(
                    found.is_empty(),
                    "rules/{code}.md:{}: the good example triggers {found:?}",
                    example.line
                ),
                ExampleKind::Fixed => {
                    let bad = last_bad.unwrap_or_else(|| {
                        panic!(
                            "rules/{code}.md:{}: a `fixed` block must follow a `bad` one",
                            example.line
                        )
                    });
                    let (text, left) = fixed(&bad.text, &settings, allow_unsafe);
                    assert_eq!(
                        text, example.text,
                        "rules/{code}.md:{}: the fixed example is not what --fix makes of the bad one",
                        example.line
                    );
                    assert!(
                        left.is_empty(),
                        "rules/{code}.md:{}: after the fix, {left:?} remain",
                        example.line
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 2 * docs::DOCS.len());
}

#[test]
fn fixable_rules_show_their_fix() {
    for meta in meta::ALL {
        let doc = docs::doc_for(meta).unwrap();
        let has_fixed = docs::examples(doc)
            .iter()
            .any(|e| e.kind == ExampleKind::Fixed);
        let fixable = meta.fix != meta::FixAvailability::None;
        assert_eq!(
            has_fixed, fixable,
            "rules/{}.md: a fixable rule shows a `json fixed` example, others none",
            meta.code
        );
    }
}

/// The README's rule table is generated from the rules' metadata: this test fails when it is
/// out of date, and `SCHEMA_LINT_BLESS=1 cargo test --test rule_docs` writes it anew.
#[test]
fn readme_rule_table_is_generated_from_the_metadata() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let header = "| code | name | category | severity | fix | summary |\n";
    let start = readme.find(header).expect("README.md has the rule table");
    let end = readme[start..]
        .find("\n\n")
        .map_or(readme.len(), |n| start + n + 1);
    let table = schema_lint::report::catalogue::markdown(meta::ALL);
    if readme[start..end] == table {
        return;
    }
    if std::env::var_os("SCHEMA_LINT_BLESS").is_some() {
        std::fs::write(
            path,
            format!("{}{table}{}", &readme[..start], &readme[end..]),
        )
        .unwrap();
    } else {
        panic!(
            "README.md's rule table is out of date: run `SCHEMA_LINT_BLESS=1 cargo test --test \
             rule_docs`\n--- expected\n{table}"
        );
    }
}

/// What a user sees of one example: the full human report, and for a `bad` example the text
/// `--fix` makes of it and the report after the fix.
fn snapshot_of(example: &Example) -> String {
    let (settings, allow_unsafe) = settings_for(example);
    let style = schema_lint::report::Style {
        color: false,
        width: 100,
        quiet: false,
    };
    if example.options.iter().any(|o| o == "audit") {
        let audit =
            schema_lint::audit::audit(&example.text, &schema_lint::audit::Options::default());
        return format!(
            "-- schema-lint audit\n{}",
            schema_lint::report::audit::human(&audit, "example.jsonl", false)
        );
    }
    let human = |run: &schema_lint::Run| {
        schema_lint::report::render(run, schema_lint::report::OutputFormat::Human, style)
    };
    let run = lint_loaded(vec![load_source(source(&example.text), true)], &settings);
    let mut out = format!("-- schema-lint example.json\n{}", human(&run));
    if example.kind == ExampleKind::Bad {
        let mut outcome = fix_run(run, &settings, allow_unsafe, &|_| Ok(()));
        schema_lint::report::attach_rejections(&mut outcome);
        let text = &outcome.run.files[0].file.text;
        if **text == example.text {
            out.push_str("-- --fix changes nothing\n");
        } else {
            let _ = write!(out, "-- --fix writes\n{text}");
        }
        let _ = write!(out, "-- then reports\n{}", human(&outcome.run));
    }
    out
}

/// Per rule, the full human output of every example of its doc and the text `--fix` makes of
/// each bad one, in `testdata/rules/<CODE>.txt`. `SCHEMA_LINT_BLESS=1 cargo test --test
/// rule_docs` writes them anew; review their diff like code.
#[test]
fn rule_snapshots() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules");
    std::fs::create_dir_all(&dir).unwrap();
    let mut stale = Vec::new();
    for (code, doc) in docs::DOCS {
        let mut actual = String::new();
        for example in docs::examples(doc) {
            if example.kind == ExampleKind::Fixed {
                continue;
            }
            let kind = if example.kind == ExampleKind::Bad {
                "bad"
            } else {
                "good"
            };
            let title = std::iter::once(kind)
                .chain(example.options.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(
                actual,
                "==== rules/{code}.md:{} json {title}\n{}{}",
                example.line,
                example.text,
                snapshot_of(&example)
            );
        }
        let path = dir.join(format!("{code}.txt"));
        if bless {
            std::fs::write(&path, &actual).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
            stale.push(format!("testdata/rules/{code}.txt"));
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (run `SCHEMA_LINT_BLESS=1 cargo test --test rule_docs` and review the diff): {}",
        stale.join(", ")
    );
}

/// A doc's scope line (`Targets: … · Roles: … · Clients: …`, after the `Category:` line) is
/// metadata: the embedded doc, which `schema-lint rule` prints and SARIF carries, is the file
/// without it, and a rule without one lints every target.
#[test]
fn the_scope_line_is_metadata_not_prose() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let mut scoped = 0;
    for meta in meta::ALL {
        let file = std::fs::read_to_string(format!("{dir}/{}.md", meta.code)).unwrap();
        let served = docs::doc_for(meta).unwrap();
        let line = file.lines().nth(4).filter(|l| {
            ["Targets: ", "Roles: ", "Clients: "]
                .iter()
                .any(|k| l.starts_with(k))
        });
        if let Some(line) = line {
            scoped += 1;
            assert!(
                !served.contains(line),
                "{}: the scope line is served",
                meta.code
            );
            assert_eq!(served, file.replacen(&format!("{line}\n\n"), "", 1));
        } else {
            assert_eq!(served, file, "{}", meta.code);
            for target in [
                schema_lint::settings::target::Target::JsonSchema,
                schema_lint::settings::target::Target::Mcp20251125,
            ] {
                assert_eq!(
                    meta.severity_for(target),
                    Some(meta.severity),
                    "{}",
                    meta.code
                );
            }
        }
    }
    assert!(scoped >= 8, "the MCP rules declare their scope");
}

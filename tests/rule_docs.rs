//! Every rule has a doc in `rules/` whose header agrees with its metadata, and every `json bad`
//! example triggers exactly its rule while every `json good` example triggers nothing.

use schema_lint::docs::{self, Example, ExampleKind};
use schema_lint::fixer::fix_run;
use schema_lint::lint::{lint_loaded, lint_source, load_source, FixIdMode, Settings};
use schema_lint::rules;
use schema_lint::source::{FileId, SourceFile};
use std::collections::BTreeSet;

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
                    <schema_lint::target::Target as clap::ValueEnum>::from_str(name, false)
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

#[test]
fn every_rule_has_a_doc_whose_header_agrees() {
    for meta in rules::all_meta() {
        let doc =
            docs::doc_for(meta).unwrap_or_else(|| panic!("{} has no doc in rules/", meta.code));
        let header = docs::header(doc).unwrap_or_else(|e| panic!("rules/{}.md: {e}", meta.code));
        assert_eq!(header.code, meta.code);
        assert_eq!(header.name, meta.name, "{}", meta.code);
        assert_eq!(header.category, meta.category.to_string(), "{}", meta.code);
        assert_eq!(header.severity, meta.severity.to_string(), "{}", meta.code);
        assert_eq!(header.fix, meta.fix.to_string(), "{}", meta.code);
        assert_eq!(header.summary, meta.summary, "{}", meta.code);
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
    }
}

#[test]
fn every_doc_belongs_to_a_rule_and_every_file_is_embedded() {
    let embedded: BTreeSet<&str> = docs::DOCS.iter().map(|(c, _)| *c).collect();
    let registered: BTreeSet<&str> = rules::all_meta().iter().map(|m| m.code).collect();
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
                                    .map(|c| rules::find_meta(c).expect("a known code").code),
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
    for meta in rules::all_meta() {
        let doc = docs::doc_for(meta).unwrap();
        let has_fixed = docs::examples(doc)
            .iter()
            .any(|e| e.kind == ExampleKind::Fixed);
        let fixable = meta.fix != rules::FixAvailability::None;
        assert_eq!(
            has_fixed, fixable,
            "rules/{}.md: a fixable rule shows a `json fixed` example, others none",
            meta.code
        );
    }
}

#[test]
fn readme_rule_table_matches_the_registry() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for meta in rules::all_meta() {
        let row = format!("| {} | `{}` |", meta.code, meta.name);
        let line = readme
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("README.md has no rule table row starting `{row}`"));
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells[3], meta.category.to_string(), "{line}");
        assert_eq!(cells[4], meta.severity.to_string(), "{line}");
        assert_eq!(cells[5], meta.fix.to_string(), "{line}");
        assert_eq!(cells[6], meta.summary, "{line}");
    }
}

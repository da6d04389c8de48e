//! Every rule has a doc in `rules/` whose header agrees with its metadata, and every `json bad`
//! example triggers exactly its rule while every `json good` example triggers nothing.

use schema_lint::docs::{self, ExampleKind};
use schema_lint::lint::{lint_source, Settings};
use schema_lint::rules;
use schema_lint::source::{FileId, SourceFile};
use std::collections::BTreeSet;

fn codes_for(text: &str) -> BTreeSet<&'static str> {
    let file = SourceFile::new(FileId(0), "example.json".into(), None, text, true);
    let linted = lint_source(file, &Settings::default(), true);
    linted.diagnostics.iter().map(|d| d.rule.code).collect()
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
        for example in examples {
            let found = codes_for(&example.text);
            match example.kind {
                ExampleKind::Bad => assert_eq!(
                    found,
                    BTreeSet::from([*code]),
                    "rules/{code}.md:{}: the bad example must trigger exactly {code}",
                    example.line
                ),
                ExampleKind::Good => assert!(
                    found.is_empty(),
                    "rules/{code}.md:{}: the good example triggers {found:?}",
                    example.line
                ),
                ExampleKind::Fixed => {}
            }
            checked += 1;
        }
    }
    assert!(checked >= 2 * docs::DOCS.len());
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

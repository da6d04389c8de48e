//! The whole pipeline on a set of files, with the promises `--fix` makes checked: what the
//! fuzzer runs on every input and the property tests on every generated run. A broken promise
//! is a panic with the reason.

#![allow(dead_code, reason = "each user of the checks takes a part of them")]

use schema_lint::diagnostic::fix::{apply_edits, Edit};
use schema_lint::engine::{lint_loaded, Run};
use schema_lint::fix::{fix_run, FixOutcome, Offer};
use schema_lint::report::{self, OutputFormat, Style};
use schema_lint::schema::dialect::Draft;
use schema_lint::settings::target::Target;
use schema_lint::settings::{FixIdMode, Settings};
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::{load_source, LintedFile};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The knobs of a run, from the generator or from a hash of fuzz bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Knobs {
    pub default_draft: u8,
    pub fix_id_defs: bool,
    pub target: u8,
    pub unsafe_fixes: bool,
}

#[must_use]
pub fn settings(k: Knobs) -> Settings {
    Settings {
        default_draft: match k.default_draft % 4 {
            0 => Draft::Draft202012,
            1 => Draft::Draft7,
            2 => Draft::Draft4,
            _ => Draft::Draft201909,
        },
        fix_id: if k.fix_id_defs {
            FixIdMode::Defs
        } else {
            FixIdMode::Underscore
        },
        target: match k.target % 4 {
            0 => None,
            1 => Some(Target::Mcp20250618),
            2 => Some(Target::Mcp20260728),
            _ => Some(Target::JsonSchema),
        },
        ..Settings::default()
    }
}

/// Where a generated file lives: a path (never read or written: the text is given) that gives
/// it a `file://` URI, so that relative references between the files resolve.
fn path_of(name: &str) -> PathBuf {
    PathBuf::from("/schema-lint-gen").join(name)
}

/// Loads texts as the CLI would have read them (a byte order mark is set aside).
#[must_use]
pub fn load(files: &[(String, String)]) -> Vec<LintedFile> {
    files
        .iter()
        .enumerate()
        .map(|(i, (name, text))| {
            let file = SourceFile::new(FileId(i), name.clone(), Some(path_of(name)), text, true);
            load_source(file, true)
        })
        .collect()
}

/// Every output format and the fix reports render (no panic on any span or text).
fn render(run: &Run) {
    for format in [
        OutputFormat::Human,
        OutputFormat::Concise,
        OutputFormat::Json,
        OutputFormat::Github,
        OutputFormat::Sarif,
        OutputFormat::Junit,
    ] {
        let text = report::render(run, format, Style::default());
        if format == OutputFormat::Json || format == OutputFormat::Sarif {
            assert!(
                serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                "{format:?} output is not JSON"
            );
        }
    }
    let _ = report::statistics(run);
}

/// The stored text of each file after the fix loop (the byte order mark put back).
fn texts(outcome: &FixOutcome) -> Vec<(String, String)> {
    outcome
        .run
        .files
        .iter()
        .map(|f| {
            let bytes = schema_lint::fix::write::stored_bytes(&f.file, &f.file.text);
            (
                f.file.name.clone(),
                String::from_utf8(bytes).expect("the fixed text is UTF-8"),
            )
        })
        .collect()
}

/// The fixed texts are exactly the original ones with the applied fixes' edits, pass by pass:
/// nothing outside an edit's range changed.
fn replay_edits(original: &[(String, String)], outcome: &FixOutcome) {
    let mut current: Vec<String> = outcome.original.iter().map(ToString::to_string).collect();
    let passes = outcome
        .applied
        .iter()
        .map(|a| a.pass + 1)
        .max()
        .unwrap_or(0);
    for pass in 0..passes {
        let mut by_file: BTreeMap<FileId, Vec<&Edit>> = BTreeMap::new();
        for a in outcome.applied.iter().filter(|a| a.pass == pass) {
            for e in &a.edits {
                by_file.entry(e.file).or_default().push(e);
            }
        }
        for (file, edits) in by_file {
            current[file.0] = apply_edits(&current[file.0], &edits)
                .unwrap_or_else(|e| panic!("pass {pass}: the applied edits do not apply: {e}"));
        }
    }
    for (i, f) in outcome.run.files.iter().enumerate() {
        assert_eq!(
            current[i], *f.file.text,
            "`{}` differs from its original with the applied edits",
            original[i].0
        );
    }
}

/// Findings per rule code in each file.
/// Findings per rule and file. The three rules that say a reference leads nowhere (SL301 not a
/// URI, SL302 nothing there, SL303 remote) count as one: a fix may move an already unresolvable
/// reference from one to another (a repaired base turns a missing relative file into a remote
/// one), which verification allows, as the repair issue asks.
fn counts(run: &Run) -> Vec<BTreeMap<&'static str, usize>> {
    run.files
        .iter()
        .map(|f| {
            let mut c = BTreeMap::new();
            for d in &f.diagnostics {
                let code = match d.rule.code {
                    "SL301" | "SL302" | "SL303" => "SL301-SL303",
                    code => code,
                };
                *c.entry(code).or_default() += 1;
            }
            c
        })
        .collect()
}

/// Runs the pipeline on `files` and checks its promises. `idempotent`: a second `--fix` over
/// the result changes nothing (checked when the first loop converged, rather than ran out of
/// passes).
///
/// # Panics
/// When a promise is broken, with the reason.
pub fn check(files: &[(String, String)], knobs: Knobs, idempotent: bool) {
    let settings = settings(knobs);
    let run = lint_loaded(load(files), &settings);
    render(&run);
    let before = counts(&run);
    let mut outcome = fix_run(
        run,
        &settings,
        Offer {
            unsafe_fixes: knobs.unsafe_fixes,
            follow_on: false,
        },
        &|_| Ok(()),
    );
    replay_edits(files, &outcome);
    let fixed = texts(&outcome);
    let after = counts(&outcome.run);
    for (i, f) in outcome.run.files.iter().enumerate() {
        let name = &files[i].0;
        if *f.file.text == *outcome.original[i] {
            continue;
        }
        // A changed file parses strictly, keeps its byte order mark, and has no finding of a
        // rule it did not have as many of before.
        assert!(f.root().is_some(), "the fixed `{name}` does not parse");
        assert_eq!(
            fixed[i].1.starts_with('\u{feff}'),
            files[i].1.starts_with('\u{feff}'),
            "`{name}`: byte order mark"
        );
        for (code, n) in &after[i] {
            assert!(
                *n <= before[i].get(code).copied().unwrap_or(0),
                "the fixed `{name}` has a new {code}: {:#?}",
                f.diagnostics
            );
        }
    }
    schema_lint::fix::rejections::attach_rejections(&mut outcome);
    render(&outcome.run);
    let _ = report::applied_fixes(&outcome);
    if idempotent && outcome.converged {
        let again = fix_run(
            lint_loaded(load(&fixed), &settings),
            &settings,
            Offer {
                unsafe_fixes: knobs.unsafe_fixes,
                follow_on: false,
            },
            &|_| Ok(()),
        );
        let titles: Vec<&str> = again.applied.iter().map(|a| a.title.as_str()).collect();
        assert!(
            again.applied.is_empty(),
            "a second --fix applied {titles:?} to:\n{fixed:#?}"
        );
    }
}

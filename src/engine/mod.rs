//! The engine: read, parse, find the schemas, run the rules. Each file is linted on its own
//! (in parallel); output order does not depend on scheduling. A check run streams
//! ([`stream`]); `--fix` and `--diff` keep every file ([`lint_loaded`]).

mod dispatch;
mod group;
mod held;
mod project;
mod stream;

use crate::diagnostic::meta::PARSE_ERROR;
use crate::diagnostic::Diagnostic;
use crate::index::{IndexInput, RunIndex};
use crate::rules::{Current, RunView};
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile, Span};
use crate::workspace::reloads::{reload, reread, Reloaded};
use crate::workspace::{load_source, Input, LintedFile, Reloads, State};
use dispatch::lint_document;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

pub use held::HeldRun;

/// The result of a run over many files.
#[derive(Debug, Default, Clone)]
pub struct Run {
    /// Every file that was read, in discovery order (ids index this list); files that hold no
    /// schema are kept with no diagnostics.
    pub files: Vec<LintedFile>,
    /// Identifiers and references of every schema of the run.
    pub index: RunIndex,
    /// What the run could not do in full, one line each (a context walk stopped at its bound).
    pub notes: Vec<String>,
}

impl Run {
    /// Every diagnostic of the run, sorted by path, position and code.
    #[must_use]
    pub fn diagnostics(&self) -> Vec<&Diagnostic> {
        let mut all: Vec<&Diagnostic> = self.files.iter().flat_map(|f| &f.diagnostics).collect();
        all.sort_by(|a, b| {
            let (fa, fb) = (
                &self.files[a.file.0].file.name,
                &self.files[b.file.0].file.name,
            );
            fa.cmp(fb).then_with(|| a.sort_key().cmp(&b.sort_key()))
        });
        all
    }

    /// Whether any file could not be read or parsed.
    #[must_use]
    pub fn has_load_errors(&self) -> bool {
        self.files.iter().any(LintedFile::failed)
    }

    /// How many files held something to lint (or failed to load).
    #[must_use]
    pub fn linted_count(&self) -> usize {
        self.files.iter().filter(|f| f.is_linted()).count()
    }

    /// The file with id `id`: its name, path and text (empty if the run let the text go).
    #[must_use]
    pub fn source(&self, id: FileId) -> &SourceFile {
        &self.files[id.0].file
    }
}

/// Lints everything `paths` names. `stdin_name` names the `-` path in the output.
#[must_use]
pub fn run(paths: &[PathBuf], stdin_name: Option<&str>, settings: &Settings) -> Run {
    run_with(paths, stdin_name, Vec::new(), settings)
}

/// Lints everything `paths` names, and the documents of `extra` beside them (what live servers
/// advertised).
#[must_use]
pub fn run_with(
    paths: &[PathBuf],
    stdin_name: Option<&str>,
    extra: Vec<Input>,
    settings: &Settings,
) -> Run {
    crate::workspace::pool::run(|| stream::run_in_pool(paths, stdin_name, extra, settings))
}

/// Lints everything `paths` names, and the documents of `extra` beside them, keeping every file
/// whatever the memory budget says: the run `--fix` and `--diff` work on.
#[must_use]
pub fn run_held(
    paths: &[PathBuf],
    stdin_name: Option<&str>,
    extra: Vec<Input>,
    settings: &Settings,
) -> HeldRun {
    crate::workspace::pool::run(|| stream::held_in_pool(paths, stdin_name, extra, settings))
}

/// Indexes loaded files (as [`load_source`] and [`crate::workspace::load_input`] give them:
/// every text and tree held) and runs the rules over them. Files keep their load diagnostics;
/// any earlier lint diagnostics are replaced.
#[must_use]
pub fn lint_loaded(files: Vec<LintedFile>, settings: &Settings) -> HeldRun {
    crate::workspace::pool::run(|| HeldRun::new(lint_loaded_in_pool(files, settings)))
}

fn lint_loaded_in_pool(files: Vec<LintedFile>, settings: &Settings) -> Run {
    let index = index_of(&files, settings);
    lint_indexed(files, index, settings)
}

/// Runs the rules again over the files of `run` that `which` accepts, against the run's index,
/// which must be up to date with its files (the language server, after an edit: the changed file
/// and the files tied to it); every other file keeps its findings. Released files are read
/// again, as in a streaming run.
#[must_use]
pub fn relint(run: Run, settings: &Settings, which: &(dyn Fn(FileId) -> bool + Sync)) -> Run {
    let Run {
        files,
        index,
        notes,
    } = run;
    let mut run =
        crate::workspace::pool::run(|| lint_indexed_only(files, index, settings, Some(which)));
    run.notes = notes;
    run
}

/// Lints `files`, which are the files of `before` with those of `changed` changed (a batch of
/// fixes applied), indexing them again but running the rules again only over the changed files
/// and the files a reference ties to them, before or after the change: every other file keeps
/// its findings, which the change cannot alter. Should a changed file no longer declare the
/// same resources and anchors (a renamed `$id`), every file is linted again: a reference
/// elsewhere may now find it, or no longer.
#[must_use]
pub fn lint_changed(
    before: &Run,
    files: Vec<LintedFile>,
    changed: &BTreeSet<FileId>,
    settings: &Settings,
) -> HeldRun {
    crate::workspace::pool::run(|| {
        let index = index_of(&files, settings);
        let own = |f: &LintedFile| index_of(std::slice::from_ref(f), settings);
        let everything = changed.iter().any(|id| {
            let (old, new) = (before.files.get(id.0), files.get(id.0));
            old.zip(new)
                .is_none_or(|(old, new)| !own(old).same_declarations(&own(new)))
        });
        let mut tied = before.index.tied_to(changed);
        tied.extend(index.tied_to(changed));
        tied.extend(changed);
        let which = |f: FileId| everything || tied.contains(&f);
        HeldRun::new(lint_indexed_only(files, index, settings, Some(&which)))
    })
}

/// The index of the schemas of `files`.
fn index_of(files: &[LintedFile], settings: &Settings) -> RunIndex {
    let inputs: Vec<IndexInput<'_>> = files
        .iter()
        .filter_map(|f| {
            let root = f.root()?;
            let kind = f.schema_kind()?;
            Some(IndexInput {
                file: f.file.id,
                path: f.file.path.as_deref(),
                name: &f.file.name,
                root,
                kind,
            })
        })
        .collect();
    RunIndex::build(&inputs, settings.default_draft)
}

/// Runs the rules over indexed files, reading released ones again one at a time.
pub(super) fn lint_indexed(files: Vec<LintedFile>, index: RunIndex, settings: &Settings) -> Run {
    lint_indexed_only(files, index, settings, None)
}

/// What [`lint_indexed`] finds in one file: `None` for a file it leaves as it was.
type Found = Option<(Vec<Diagnostic>, Option<Arc<String>>)>;

fn lint_indexed_only(
    mut files: Vec<LintedFile>,
    index: RunIndex,
    settings: &Settings,
    which: Option<&(dyn Fn(FileId) -> bool + Sync)>,
) -> Run {
    let reloads = Reloads::new(files.len());
    let linted = |f: &LintedFile| {
        which.is_none_or(|which| which(f.file.id))
            && f.schema_kind().is_some()
            && !f.settled()
            && !f.is_context()
    };
    // A released file that another linted file references is read again once, for both.
    let shared = index.files_referenced_from(|id| files.get(id.0).is_some_and(linted));
    let lint_one = |f: &LintedFile| -> Found {
        if which.is_some_and(|which| !which(f.file.id)) {
            return None;
        }
        let Some(kind) = f.schema_kind().filter(|_| !f.settled() && !f.is_context()) else {
            return Some((Vec::new(), None));
        };
        let held;
        let (file, root, reread) = match &f.state {
            State::Parsed { root, .. } => (&f.file, &**root, None),
            State::Released { .. } if shared.contains(&f.file.id) => {
                let Some(tree) = reloads.get(f) else {
                    return Some((vec![changed(&f.file)], None));
                };
                (tree.file, tree.root, Some(Arc::clone(&tree.file.text)))
            }
            State::Released { .. } => {
                let Some(Reloaded { text, root }) = reload(f) else {
                    return Some((vec![changed(&f.file)], None));
                };
                held = (
                    SourceFile {
                        text: Arc::clone(&text),
                        ..f.file.clone()
                    },
                    root,
                );
                (&held.0, &*held.1, Some(text))
            }
            State::Failed | State::NotSchema { .. } => return Some((Vec::new(), None)),
        };
        let view = RunView {
            index: &index,
            files: &files,
            current: Some(Current { file, root, kind }),
            reloads: Some(&reloads),
        };
        let mut out = Vec::new();
        lint_document(&view, file, root, kind, settings, &mut out);
        // A released file keeps its text only when there is a finding to show in it.
        let text = reread.filter(|_| !out.is_empty());
        Some((out, text))
    };
    // Largest first, one file per task, as the files were read: split evenly, a few large files
    // linted again here left one thread linting the last of them alone for a tenth of a check.
    let size = |f: &LintedFile| f.released().map_or(f.file.text.len(), |p| p.bytes());
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(size(&files[i])));
    let mut found: Vec<(usize, Found)> = order
        .into_par_iter()
        .with_max_len(1)
        .map(|i| (i, lint_one(&files[i])))
        .collect();
    found.sort_unstable_by_key(|(i, _)| *i);
    reloads.release();
    for (f, (_, found)) in files.iter_mut().zip(found) {
        let Some((diagnostics, text)) = found else {
            continue;
        };
        if f.root().is_none() && f.released().is_none() {
            continue;
        }
        if diagnostics
            .first()
            .is_some_and(|d| d.rule.code == PARSE_ERROR.code)
        {
            // Changed between the two reads of a streaming run.
            f.state = State::Failed;
        }
        if let Some(text) = text {
            f.file.text = text;
        }
        f.diagnostics = diagnostics;
    }
    restore_texts(&mut files);
    Run {
        files,
        index,
        notes: Vec::new(),
    }
}

/// Reads again the text of released files that a finding shows without being theirs: a related
/// label, or a fix's edit, in another file.
fn restore_texts(files: &mut [LintedFile]) {
    let mut wanted: Vec<usize> = files
        .iter()
        .flat_map(|f| &f.diagnostics)
        .flat_map(|d| {
            let edits = d.fix.iter().flat_map(|fix| &fix.edits).map(|e| e.file);
            d.related.iter().map(|l| l.file).chain(edits)
        })
        .map(|id| id.0)
        .filter(|&i| {
            files
                .get(i)
                .is_some_and(|f| f.released().is_some() && f.file.text.is_empty())
        })
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    for i in wanted {
        if let Some(text) = reread(&files[i]) {
            files[i].file.text = text;
        }
    }
}

/// The SL100 finding of a file that changed between the two reads of a streaming run.
fn changed(file: &SourceFile) -> Diagnostic {
    Diagnostic::new(
        &PARSE_ERROR,
        file.id,
        Span::new(0, 0),
        "The file changed (or went away) while it was being linted: run again".to_owned(),
    )
    .label("here")
}

/// Lints one file on its own (a run of one), as editors and the doc-example tests do.
#[must_use]
pub fn lint_source(file: SourceFile, settings: &Settings, report_parse_errors: bool) -> LintedFile {
    let loaded = load_source(file, report_parse_errors);
    let mut run = lint_loaded(vec![loaded], settings).into_run();
    run.files.remove(0)
}

#[cfg(test)]
mod tests {
    use super::stream::{index_part, keep_or_release};
    use super::*;
    use crate::workspace::discover::Candidate;
    use crate::workspace::{load_input, Input};

    /// A fresh folder holding `files` (name, text).
    fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("schema-lint-lint-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        dir
    }

    fn streaming() -> Settings {
        Settings {
            memory_budget: Some(0),
            ..Settings::default()
        }
    }

    #[test]
    fn streaming_keeps_only_the_texts_findings_need() {
        let dir = scratch(
            "keep",
            &[
                ("a.json", r#"{"$id": "tool_a:output", "type": "object"}"#),
                ("b.json", r#"{"type": "object"}"#),
                ("package.json", r#"{"name": "x"}"#),
            ],
        );
        let run = run(std::slice::from_ref(&dir), None, &streaming());
        let by_name = |n: &str| run.files.iter().find(|f| f.file.name.ends_with(n)).unwrap();
        assert!(run.files.iter().all(|f| f.root().is_none()));
        assert_eq!(by_name("a.json").diagnostics.len(), 1);
        assert!(
            !by_name("a.json").file.text.is_empty(),
            "a finding's file keeps its text"
        );
        assert!(by_name("b.json").file.text.is_empty());
        assert!(by_name("package.json").file.text.is_empty());
        assert!(!run.has_load_errors());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn clean_self_contained_files_are_linted_once() {
        let dir = scratch(
            "settled",
            &[
                (
                    "a.json",
                    r##"{"$defs": {"x": {"type": "string"}}, "properties": {"v": {"$ref": "#/$defs/x"}}}"##,
                ),
                (
                    "b.json",
                    r#"{"properties": {"w": {"$ref": "a.json#/$defs/x"}, "z": {"$ref": "a.json#/$defs/nope"}}}"#,
                ),
                ("c.json", r#"{"$id": "tool_c:output", "type": "object"}"#),
                (
                    "d.json",
                    r##"{"$defs": {"y": {"type": "integer"}}, "items": {"$ref": "#/$defs/y"}}"##,
                ),
            ],
        );
        let run = run(std::slice::from_ref(&dir), None, &streaming());
        let by_name = |n: &str| run.files.iter().find(|f| f.file.name.ends_with(n)).unwrap();
        // Linted once, on its own: no finding, and no other file references it.
        assert!(by_name("d.json").settled());
        assert!(by_name("d.json").diagnostics.is_empty());
        // `b.json` references it: linted again with the whole run in view.
        assert!(!by_name("a.json").settled());
        // A reference into another file waits for the whole index, and still reaches `a.json`.
        let b = by_name("b.json");
        assert!(!b.settled());
        let codes: Vec<_> = b.diagnostics.iter().map(|d| d.rule.code).collect();
        assert_eq!(codes, ["SL302"], "{:?}", b.diagnostics);
        // A file with a finding is linted again with the whole run in view (its fix may need it).
        let c = by_name("c.json");
        assert!(!c.settled());
        assert_eq!(c.diagnostics.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_settled_file_that_another_file_references_is_linted_again() {
        // Clean on its own; SL403 reports its `$defs` only once a reference lands inside.
        let dir = scratch(
            "tied-to-others",
            &[
                (
                    "a.json",
                    r#"{"$schema": "http://json-schema.org/draft-07/schema#", "$defs": {"x": {"type": "string"}}}"#,
                ),
                (
                    "b.json",
                    r#"{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"w": {"$ref": "a.json#/$defs/x"}}}"#,
                ),
            ],
        );
        let codes = |run: &Run| -> Vec<(String, &'static str)> {
            run.diagnostics()
                .iter()
                .map(|d| (run.source(d.file).name.clone(), d.rule.code))
                .collect()
        };
        let whole = run(std::slice::from_ref(&dir), None, &Settings::default());
        let streaming = run(std::slice::from_ref(&dir), None, &streaming());
        assert!(codes(&whole)
            .iter()
            .any(|(n, c)| n.ends_with("a.json") && *c == "SL403"));
        assert_eq!(codes(&whole), codes(&streaming));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_fix_reads_again_only_the_files_references_tie_to_its_file() {
        let dir = scratch(
            "around",
            &[
                ("a.json", r#"{"$id": "tool_a:output", "type": "object"}"#),
                (
                    "b.json",
                    r#"{"properties": {"w": {"$ref": "tool_a:output"}}}"#,
                ),
                ("c.json", r#"{"$ref": "b.json#/properties/w"}"#),
                ("d.json", r#"{"type": "string"}"#),
            ],
        );
        let files: Vec<LintedFile> = ["a.json", "b.json", "c.json", "d.json"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let candidate = Candidate {
                    path: dir.join(name),
                    explicit: true,
                };
                load_input(FileId(i), Input::Path(candidate))
            })
            .collect();
        let mut run = lint_loaded(files, &Settings::default()).into_run();
        // Every file but the first let go, as the language server keeps its context.
        for f in &mut run.files[1..] {
            let kind = f.schema_kind().unwrap();
            f.state = State::Released {
                kind,
                fingerprint: crate::workspace::Fingerprint::of(&f.file.text),
                settled: false,
            };
            f.file.text = Arc::default();
        }
        let held = HeldRun::reloaded_around(&run, FileId(0));
        let parsed: Vec<bool> = held.files.iter().map(|f| f.root().is_some()).collect();
        // `b.json` names `a.json`'s id, `c.json` points into `b.json`; `d.json` is tied to none.
        assert_eq!(parsed, [true, true, true, false]);
        assert!(held.files[3].schema_kind().is_none());
        assert!(!held.files[2].file.text.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_that_changes_between_the_two_reads_is_an_error() {
        let dir = scratch("changed", &[("a.json", r#"{"type": "object"}"#)]);
        let path = dir.join("a.json");
        let settings = streaming();
        let mut file = load_input(
            FileId(0),
            Input::Path(Candidate {
                path: path.clone(),
                explicit: true,
            }),
        );
        let part = index_part(&file, &settings).unwrap();
        keep_or_release(&mut file, 0, &std::sync::atomic::AtomicUsize::new(0));
        assert!(file.released().is_some() && file.root().is_none());
        std::fs::write(&path, r#"{"type": "object", "x": 1}"#).unwrap();
        let run = lint_indexed(vec![file], RunIndex::merge(vec![part]), &settings);
        let d = &run.files[0].diagnostics;
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule.code, "SL100");
        assert!(d[0].message.contains("changed"), "{}", d[0].message);
        assert!(run.has_load_errors(), "exit code 2");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

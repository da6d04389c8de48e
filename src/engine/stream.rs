//! Streaming check runs: each file is read, parsed and indexed on its own, in parallel. A file
//! that is *settled* (its references all name resources of its own, and linted against its own
//! index it has no finding) is done then and there, and its tree is let go. The others are kept
//! while the memory budget lasts, else let go and read again when linted.

use super::dispatch::lint_document;
use super::project::{context_files, Context, Needles};
use super::{lint_indexed, lint_loaded_in_pool, HeldRun, Run};
use crate::index::{IndexInput, RunIndex};
use crate::rules::{Current, RunView};
use crate::schema::units::FileKind;
use crate::settings::Settings;
use crate::syntax::source::FileId;
use crate::workspace::discover::{discover_with, Candidate, Configured, Discovered};
use crate::workspace::{load_input, Fingerprint, Input, LintedFile, State};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// Files larger than this are never kept between indexing and linting (bytes).
pub const MAX_KEPT_FILE: usize = 4 << 20;

/// The file's entries in the run's index, while its tree is at hand.
pub(super) fn index_part(file: &LintedFile, settings: &Settings) -> Option<RunIndex> {
    let root = file.root()?;
    let kind = file.schema_kind()?;
    Some(RunIndex::of_file(
        &IndexInput {
            file: file.file.id,
            path: file.file.path.as_deref(),
            name: &file.file.name,
            root,
            kind,
        },
        settings.default_draft,
    ))
}

/// Whether the file may be linted for good without the rest of the run: it may, when every
/// reference in it names a resource of its own and linting it against its own index finds
/// nothing. Other files cannot then add a finding to it, provided that the whole run's index
/// does not tie it to another file (see [`RunIndex::files_tied_to_others`], checked once the
/// run is indexed): its references then resolve the same way, and what else the rules ask of
/// the rest of the run (which ids are taken, which anchors exist) only shapes the fixes of
/// findings or silences some. A file with findings is linted again once the run is indexed, so
/// that its fixes see every file.
fn settles_alone(file: &LintedFile, part: &RunIndex, settings: &Settings) -> bool {
    let (Some(root), Some(kind)) = (file.root(), file.kind()) else {
        return false;
    };
    if file.file.path.is_none() || kind == FileKind::Other {
        return false;
    }
    let alone = RunIndex::merge(vec![part.clone()]);
    if alone.refs.iter().any(|r| alone.target_resource(r).is_err()) {
        return false;
    }
    let view = RunView {
        index: &alone,
        files: &[],
        current: Some(Current {
            file: &file.file,
            root,
            kind,
        }),
        reloads: None,
    };
    let mut out = Vec::new();
    lint_document(&view, &file.file, root, kind, settings, &mut out);
    out.is_empty()
}

/// Keeps a loaded file's text and tree if `budget` still allows, else lets them go. Files that
/// hold no schema are always let go; standard input, which cannot be read twice, never is.
pub(super) fn keep_or_release(
    file: &mut LintedFile,
    budget: usize,
    used: &std::sync::atomic::AtomicUsize,
) {
    use std::sync::atomic::Ordering;
    let Some(root) = file.root() else { return };
    if file.file.path.is_none() {
        return;
    }
    let State::Parsed { kind, .. } = file.state else {
        file.state = State::NotSchema { root: None };
        file.file.text = Arc::default();
        return;
    };
    // Only files that did not settle alone get here (a finding, or a reference to another file),
    // and each is linted again: kept within the budget, it is not read and parsed twice (12 % of
    // a SchemaStore check went to that with a 64 KiB bound). A very large one is read again
    // rather than held: its tree is several times its size.
    // A text that does not fit alone leaves its tree unmeasured (a settled file, with a budget
    // of 0: most of them).
    let left = budget.saturating_sub(used.load(Ordering::Relaxed));
    if file.file.text.len() <= MAX_KEPT_FILE && file.file.text.len() < left {
        let cost = file.file.text.len() + root.footprint();
        let before = used.fetch_add(cost, Ordering::Relaxed);
        if before + cost <= budget {
            return;
        }
        used.fetch_sub(cost, Ordering::Relaxed);
    }
    file.state = State::Released {
        kind,
        fingerprint: Fingerprint::of(&file.file.text),
        settled: false,
    };
    file.file.text = Arc::default();
}

/// The order to read `inputs` in: largest file first, so that the pool's threads do not wait
/// on one large file at the end of the run (sizes are looked up in parallel, one `stat` each;
/// a file that cannot be looked up counts as empty and fails when read).
fn largest_first(inputs: &[Input]) -> Vec<usize> {
    let sizes: Vec<u64> = inputs
        .par_iter()
        .map(|input| match input {
            Input::Path(c) => std::fs::metadata(&c.path).map_or(0, |m| m.len()),
            _ => 0,
        })
        .collect();
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    order
}

/// A file read, parsed and indexed by the streaming pass, with what it tells of the project.
struct Streamed {
    file: LintedFile,
    part: Option<RunIndex>,
    needles: Needles,
}

/// Reads, parses and indexes one file; lints it at once when it settles alone, and keeps or
/// lets go of its tree within `budget`.
fn stream_one(
    id: FileId,
    input: Input,
    settings: &Settings,
    budget: usize,
    used: &std::sync::atomic::AtomicUsize,
) -> Streamed {
    let mut file = load_input(id, input);
    let mut needles = Needles::default();
    if let (true, Some(tree)) = (settings.project_root.is_some(), file.root()) {
        needles.add(file.file.path.as_deref(), tree);
    }
    let part = index_part(&file, settings);
    if part
        .as_ref()
        .is_some_and(|p| settles_alone(&file, p, settings))
    {
        keep_or_release(&mut file, 0, used);
        if let State::Released { settled, .. } = &mut file.state {
            *settled = true;
        }
    } else {
        keep_or_release(&mut file, budget, used);
    }
    Streamed {
        file,
        part,
        needles,
    }
}

/// What a run reads: its inputs, and the files named (which a context walk leaves out).
struct Inputs {
    inputs: Vec<Input>,
    named: Vec<Candidate>,
}

/// The inputs of a run over `paths` (and `extra` beside them).
fn inputs(
    paths: &[PathBuf],
    stdin_name: Option<&str>,
    extra: Vec<Input>,
    settings: &Settings,
) -> Inputs {
    let accept = Configured(settings.config.as_deref());
    let Discovered {
        files: mut candidates,
        errors: walk_errors,
    } = discover_with(paths, &accept, settings.respect_ignore_files);
    let named = candidates.clone();
    if settings.only_schemas {
        for c in &mut candidates {
            c.explicit = c.path.as_os_str() == "-";
        }
    }
    let mut inputs: Vec<Input> = candidates
        .into_iter()
        .map(|c| {
            if c.path.as_os_str() == "-" {
                Input::Stdin {
                    name: stdin_name.unwrap_or("<stdin>").to_owned(),
                }
            } else {
                Input::Path(c)
            }
        })
        .collect();
    // A folder that could not be walked is reported like a file that could not be read.
    inputs.extend(walk_errors.into_iter().map(|e| {
        Input::Path(Candidate {
            path: e.path,
            explicit: true,
        })
    }));
    inputs.extend(extra);
    Inputs { inputs, named }
}

/// Lints everything `paths` names, every file kept (see [`super::run_held`]).
pub(super) fn held_in_pool(
    paths: &[PathBuf],
    stdin_name: Option<&str>,
    extra: Vec<Input>,
    settings: &Settings,
) -> HeldRun {
    let Inputs { inputs, named } = inputs(paths, stdin_name, extra, settings);
    held(inputs, &named, settings)
}

/// Reads every input and keeps it, then lints them all.
fn held(inputs: Vec<Input>, named: &[Candidate], settings: &Settings) -> HeldRun {
    let mut files: Vec<LintedFile> = inputs
        .into_par_iter()
        .enumerate()
        .map(|(i, input)| load_input(FileId(i), input))
        .collect();
    let Some(root) = &settings.project_root else {
        return HeldRun::new(lint_loaded_in_pool(files, settings));
    };
    let mut needles = Needles::default();
    for f in &files {
        if let Some(tree) = f.root() {
            needles.add(f.file.path.as_deref(), tree);
        }
    }
    let Context {
        files: context,
        note,
    } = context_files(root, named, &needles, files.len(), settings);
    files.extend(context);
    let mut run = lint_loaded_in_pool(files, settings);
    run.notes.extend(note);
    HeldRun::new(run)
}

/// Lints everything `paths` names: streaming within the memory budget, or every file kept.
pub(super) fn run_in_pool(
    paths: &[PathBuf],
    stdin_name: Option<&str>,
    extra: Vec<Input>,
    settings: &Settings,
) -> Run {
    let Inputs { inputs, named } = inputs(paths, stdin_name, extra, settings);
    let Some(budget) = settings.memory_budget else {
        return held(inputs, &named, settings).into_run();
    };
    // Streaming: each file is read, parsed and indexed, then kept only while the budget lasts;
    // the others are read again when linted, one at a time per thread.
    let used = std::sync::atomic::AtomicUsize::new(0);
    let order = largest_first(&inputs);
    let mut slots: Vec<Option<Input>> = inputs.into_iter().map(Some).collect();
    let jobs: Vec<(usize, Input)> = order
        .into_iter()
        .filter_map(|i| Some((i, slots[i].take()?)))
        .collect();
    let mut loaded: Vec<Streamed> = jobs
        .into_par_iter()
        .with_max_len(1)
        .map(|(i, input)| stream_one(FileId(i), input, settings, budget, &used))
        .collect();
    loaded.sort_unstable_by_key(|s| s.file.file.id.0);
    let mut files = Vec::with_capacity(loaded.len());
    let mut parts = Vec::with_capacity(loaded.len());
    let mut needles = Needles::default();
    for s in loaded {
        files.push(s.file);
        parts.push(s.part);
        needles.merge(s.needles);
    }
    let mut notes = Vec::new();
    if let Some(root) = &settings.project_root {
        // Context files are indexed, never linted: their trees are let go at once.
        let Context {
            files: context,
            note,
        } = context_files(root, &named, &needles, files.len(), settings);
        notes.extend(note);
        let context: Vec<(LintedFile, Option<RunIndex>)> = context
            .into_par_iter()
            .map(|mut file| {
                let part = index_part(&file, settings);
                keep_or_release(&mut file, 0, &used);
                (file, part)
            })
            .collect();
        for (file, part) in context {
            files.push(file);
            parts.push(part);
        }
    }
    let index = RunIndex::merge(parts.into_iter().flatten().collect());
    // A file settled on its own is linted again if the whole run ties it to another one: a
    // reference from elsewhere lands in it (SL403 reports a draft-07 `$defs` only when one
    // does), or one of its references reads differently among every file's ids.
    let tied = index.files_tied_to_others();
    for f in &mut files {
        let id = f.file.id;
        if let State::Released { settled, .. } = &mut f.state {
            *settled = *settled && !tied.contains(&id);
        }
    }
    let mut run = lint_indexed(files, index, settings);
    run.notes = notes;
    run
}

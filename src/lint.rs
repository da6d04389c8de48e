//! The engine: read, parse, find the schemas, run the rules. Each file is linted on its own
//! (in parallel); output order does not depend on scheduling.

use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::dialect::Draft;
use crate::document::{self, Node};
use crate::index::{IndexInput, RunIndex};
use crate::rules::select::{is_within, matches, suppressions, Selection};
use crate::rules::{self, FileContext, RunView, UnitContext, PARSE_ERROR};
use crate::schema_walk::walk;
use crate::source::{FileId, SourceFile, Span};
use crate::target::Target;
use crate::units::{classify, units, FileKind, Role};
use crate::walk::{discover, named_as_schema, Candidate};
use rayon::prelude::*;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

/// The default of `--memory-budget`, in MiB.
pub const DEFAULT_MEMORY_BUDGET_MIB: usize = 32;

/// Files larger than this are never kept between indexing and linting (bytes).
pub const MAX_KEPT_FILE: usize = 64 << 10;

/// What decides how files are linted.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The dialect of schemas without a known `$schema`.
    pub default_draft: Draft,
    /// How an invalid `$id` is repaired.
    pub fix_id: FixIdMode,
    /// The target of every file; `None`: `mcp-2025-11-25` for `tools/list` documents,
    /// `json-schema` for schema files.
    pub target: Option<Target>,
    pub selection: Selection,
    /// The `schema-lint.toml` in force: file filters and per-file ignores.
    pub config: Option<Arc<Config>>,
    /// Named files go through the same detection as files found in folders.
    pub only_schemas: bool,
    /// How many bytes of text and trees a run may keep between indexing a file and linting it;
    /// files past it are let go once indexed and read again when linted. `None` keeps every
    /// file (what `--fix` needs).
    pub memory_budget: Option<usize>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            default_draft: Draft::Draft202012,
            fix_id: FixIdMode::Underscore,
            target: None,
            selection: Selection::default(),
            config: None,
            only_schemas: false,
            memory_budget: None,
        }
    }
}

impl Settings {
    /// The target a file of `kind` is linted for.
    #[must_use]
    pub fn target_for(&self, kind: FileKind) -> Target {
        self.target.unwrap_or(match kind {
            FileKind::ToolsList => Target::Mcp20251125,
            _ => Target::JsonSchema,
        })
    }

    /// The selectors `per-file-ignores` gives the file at `path`.
    fn ignored_in(&self, path: Option<&std::path::Path>) -> Vec<&str> {
        match (&self.config, path) {
            (Some(config), Some(path)) => config.ignored_in(path),
            _ => Vec::new(),
        }
    }
}

/// The repair for an invalid `$id` (SL201, SL203).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FixIdMode {
    /// Replace each offending character with `_` and rewrite the `$ref`s that name the id
    Underscore,
    /// Drop the `$id` and reach the subschema through the root's `$defs`
    Defs,
}

/// One file after linting.
#[derive(Debug, Clone)]
pub struct LintedFile {
    pub file: SourceFile,
    /// `None` when the file could not be read or parsed.
    pub root: Option<Arc<Node>>,
    pub kind: Option<FileKind>,
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the run let go of the file's tree (and, unless it has findings, its text) to
    /// bound its memory: the fingerprint of the text that was indexed.
    pub released: Option<Fingerprint>,
    /// Linted already, on its own, with nothing found: see [`settles_alone`].
    pub settled: bool,
}

/// What identifies a file's text between the two reads of a run that let it go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    len: usize,
    hash: u64,
}

impl Fingerprint {
    #[must_use]
    pub fn of(text: &str) -> Self {
        // FNV-1a over 8-byte words: no need to resist an attacker, only to notice an edit.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut chunks = text.as_bytes().chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3);
        }
        for &b in chunks.remainder() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Self {
            len: text.len(),
            hash,
        }
    }
}

impl LintedFile {
    /// Whether the file takes part in the run's output (schemas, tools/list documents, and files
    /// whose failure to load is worth reporting).
    #[must_use]
    pub fn is_linted(&self) -> bool {
        !matches!(self.kind, Some(FileKind::Other))
    }

    /// Whether reading or parsing the file failed.
    #[must_use]
    pub fn failed(&self) -> bool {
        self.root.is_none() && self.released.is_none() && !self.diagnostics.is_empty()
    }
}

/// The result of a run over many files.
#[derive(Debug, Default, Clone)]
pub struct Run {
    /// Every file that was read, in discovery order (ids index this list); files that hold no
    /// schema are kept with no diagnostics.
    pub files: Vec<LintedFile>,
    /// Identifiers and references of every schema of the run.
    pub index: RunIndex,
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

    #[must_use]
    pub fn source(&self, id: FileId) -> &SourceFile {
        &self.files[id.0].file
    }
}

/// Where a file's text comes from.
pub enum Input {
    Path(Candidate),
    /// Standard input, read once, shown under `name`.
    Stdin {
        name: String,
    },
}

/// Lints everything `paths` names. `stdin_name` names the `-` path in the output.
#[must_use]
pub fn run(paths: &[PathBuf], stdin_name: Option<&str>, settings: &Settings) -> Run {
    crate::pool::run(|| run_in_pool(paths, stdin_name, settings))
}

fn run_in_pool(paths: &[PathBuf], stdin_name: Option<&str>, settings: &Settings) -> Run {
    let accept = |p: &std::path::Path| settings.config.as_ref().is_none_or(|c| c.accepts(p));
    let (mut candidates, walk_errors) = discover(paths, &accept);
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
    let Some(budget) = settings.memory_budget else {
        let files: Vec<LintedFile> = inputs
            .into_par_iter()
            .enumerate()
            .map(|(i, input)| load_input(FileId(i), input))
            .collect();
        return lint_loaded(files, settings);
    };
    // Streaming: each file is read, parsed and indexed, then kept only while the budget lasts;
    // the others are read again when linted, one at a time per thread.
    let used = std::sync::atomic::AtomicUsize::new(0);
    let (mut files, parts): (Vec<LintedFile>, Vec<Option<RunIndex>>) = inputs
        .into_par_iter()
        .enumerate()
        .map(|(i, input)| {
            let mut file = load_input(FileId(i), input);
            let part = index_part(&file, settings);
            if part
                .as_ref()
                .is_some_and(|p| settles_alone(&file, p, settings))
            {
                file.settled = true;
                keep_or_release(&mut file, 0, &used);
            } else {
                keep_or_release(&mut file, budget, &used);
            }
            (file, part)
        })
        .unzip();
    let index = RunIndex::merge(parts.into_iter().flatten().collect());
    // A file settled on its own is linted again if the whole run ties it to another one: a
    // reference from elsewhere lands in it (SL403 reports a draft-07 `$defs` only when one
    // does), or one of its references reads differently among every file's ids.
    let entangled = index.entangled_files();
    for f in files.iter_mut().filter(|f| f.settled) {
        f.settled = !entangled.contains(&f.file.id);
    }
    lint_indexed(files, index, settings)
}

/// The file's entries in the run's index, while its tree is at hand.
fn index_part(file: &LintedFile, settings: &Settings) -> Option<RunIndex> {
    let root = file.root.as_ref()?;
    let kind = file.kind.filter(|k| *k != FileKind::Other)?;
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
/// does not tie it to another file (see [`RunIndex::entangled_files`], checked once the run is
/// indexed): its references then resolve the same way, and what else the rules ask of the rest
/// of the run (which ids are taken, which anchors exist) only shapes the fixes of findings or
/// silences some. A file with findings is linted again once the run is indexed, so that its
/// fixes see every file.
fn settles_alone(file: &LintedFile, part: &RunIndex, settings: &Settings) -> bool {
    let (Some(root), Some(kind)) = (&file.root, file.kind) else {
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
        current: Some((&file.file, root, kind)),
        reloads: None,
    };
    let mut out = Vec::new();
    lint_document(&view, &file.file, root, kind, settings, &mut out);
    out.is_empty()
}

/// Keeps a loaded file's text and tree if `budget` still allows, else lets them go. Files that
/// hold no schema are always let go; standard input, which cannot be read twice, never is.
fn keep_or_release(file: &mut LintedFile, budget: usize, used: &std::sync::atomic::AtomicUsize) {
    use std::sync::atomic::Ordering;
    let Some(root) = &file.root else { return };
    if file.file.path.is_none() {
        return;
    }
    if file.kind == Some(FileKind::Other) {
        file.root = None;
        file.file.text = Arc::default();
        return;
    }
    // A large file is read again rather than kept: its tree is several times its size, and
    // parsing it again costs little beside linting it (measured on corpus (b) of BENCHMARKS.md).
    if file.file.text.len() <= MAX_KEPT_FILE {
        let cost = file.file.text.len() + root.footprint();
        let before = used.fetch_add(cost, Ordering::Relaxed);
        if before + cost <= budget {
            return;
        }
        used.fetch_sub(cost, Ordering::Relaxed);
    }
    file.released = Some(Fingerprint::of(&file.file.text));
    file.root = None;
    file.file.text = Arc::default();
}

/// Reads and parses a released file again; `None` if it is gone or no longer what was indexed.
fn reload(file: &LintedFile) -> Option<(Arc<String>, Arc<Node>)> {
    let text = reread(file)?;
    let root = document::parse(&text).ok()?;
    Some((text, Arc::new(root)))
}

/// The text of a released file, read again; `None` if it is gone or no longer what was indexed.
fn reread(file: &LintedFile) -> Option<Arc<String>> {
    let path = file.file.path.as_ref()?;
    let bytes = std::fs::read(path).ok()?;
    let mut text = String::from_utf8(bytes).ok()?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    (Some(Fingerprint::of(&text)) == file.released).then(|| Arc::new(text))
}

/// Indexes loaded files and runs the rules over them. Files keep their load diagnostics; any
/// earlier lint diagnostics are replaced.
#[must_use]
pub fn lint_loaded(files: Vec<LintedFile>, settings: &Settings) -> Run {
    crate::pool::run(|| lint_loaded_in_pool(files, settings))
}

fn lint_loaded_in_pool(files: Vec<LintedFile>, settings: &Settings) -> Run {
    let index = {
        let inputs: Vec<IndexInput<'_>> = files
            .iter()
            .filter_map(|f| {
                let root = f.root.as_ref()?;
                let kind = f.kind.filter(|k| *k != FileKind::Other)?;
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
    };
    lint_indexed(files, index, settings)
}

/// Runs the rules over indexed files, reading released ones again one at a time.
fn lint_indexed(mut files: Vec<LintedFile>, index: RunIndex, settings: &Settings) -> Run {
    let reloads = Reloads::new(files.len());
    let found: Vec<(Vec<Diagnostic>, Option<Arc<String>>)> = files
        .par_iter()
        .map(|f| {
            let Some(kind) = f.kind.filter(|k| *k != FileKind::Other && !f.settled) else {
                return (Vec::new(), None);
            };
            let held;
            let (file, root, reread) = match (&f.root, f.released) {
                (Some(root), _) => (&f.file, &**root, None),
                (None, Some(_)) => {
                    let Some((text, root)) = reload(f) else {
                        return (vec![changed(&f.file)], None);
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
                (None, None) => return (Vec::new(), None),
            };
            let view = RunView {
                index: &index,
                files: &files,
                current: Some((file, root, kind)),
                reloads: Some(&reloads),
            };
            let mut out = Vec::new();
            lint_document(&view, file, root, kind, settings, &mut out);
            // A released file keeps its text only when there is a finding to show in it.
            let text = reread.filter(|_| !out.is_empty());
            (out, text)
        })
        .collect();
    for (f, (diagnostics, text)) in files.iter_mut().zip(found) {
        if f.root.is_none() && f.released.is_none() {
            continue;
        }
        if diagnostics
            .first()
            .is_some_and(|d| d.rule.code == PARSE_ERROR.code)
        {
            f.released = None;
        }
        if let Some(text) = text {
            f.file.text = text;
        }
        f.diagnostics = diagnostics;
    }
    restore_texts(&mut files);
    Run { files, index }
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
                .is_some_and(|f| f.released.is_some() && f.file.text.is_empty())
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

/// Released files read again for another file's rules (a `$ref` into them, a rename reaching
/// them), once each per run.
pub struct Reloads {
    slots: Vec<std::sync::OnceLock<Option<Reloaded>>>,
}

/// A released file read again: its text and tree.
type Reloaded = (SourceFile, Arc<Node>);

impl Reloads {
    fn new(files: usize) -> Self {
        Self {
            slots: (0..files).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// The text and tree of `file`, read again if it was released.
    pub(crate) fn get<'a>(&'a self, file: &'a LintedFile) -> Option<(&'a SourceFile, &'a Node)> {
        if let Some(root) = &file.root {
            return Some((&file.file, root));
        }
        file.released?;
        let slot = self.slots.get(file.file.id.0)?.get_or_init(|| {
            reload(file).map(|(text, root)| {
                (
                    SourceFile {
                        text,
                        ..file.file.clone()
                    },
                    root,
                )
            })
        });
        slot.as_ref().map(|(f, root)| (f, &**root))
    }
}

fn display_name(path: &std::path::Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

/// Reads and parses one input; a file that cannot be loaded carries its SL100 finding.
#[must_use]
pub fn load_input(id: FileId, input: Input) -> LintedFile {
    let (name, path, explicit, bytes) = match input {
        Input::Stdin { name } => {
            let mut buf = Vec::new();
            let read = std::io::stdin().read_to_end(&mut buf).map(|_| buf);
            (name, None, true, read)
        }
        Input::Path(c) => {
            let read = std::fs::read(&c.path);
            (display_name(&c.path), Some(c.path), c.explicit, read)
        }
    };
    let reportable = explicit || path.as_deref().is_some_and(named_as_schema);
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            let file = SourceFile::new(id, name, path, "", explicit);
            let message = format!("Cannot read the file: {}", io_message(&e));
            return load_failure(file, Span::new(0, 0), message);
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => load_source(
            SourceFile::from_string(id, name, path, text, explicit),
            reportable,
        ),
        Err(e) => {
            let error = e.utf8_error();
            let at = error.valid_up_to();
            let bytes = e.as_bytes();
            let message = match error.error_len() {
                Some(n) => {
                    let bad: Vec<String> = bytes[at..at + n]
                        .iter()
                        .map(|b| format!("0x{b:02X}"))
                        .collect();
                    format!(
                        "The file is not valid UTF-8: unexpected byte{} {}",
                        if n == 1 { "" } else { "s" },
                        bad.join(" ")
                    )
                }
                None => "The file is not valid UTF-8: it ends inside a character".to_owned(),
            };
            let text = String::from_utf8_lossy(bytes).into_owned();
            let file = SourceFile::new(id, name, path, &text, explicit);
            let at = at.saturating_sub(if file.bom { 3 } else { 0 });
            let failure = load_failure(file, Span::new(at, at), message);
            if reportable {
                failure
            } else {
                skipped(failure.file)
            }
        }
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_owned()
        }
    }
}

fn load_failure(file: SourceFile, span: Span, message: String) -> LintedFile {
    let diagnostic =
        crate::diagnostic::Diagnostic::new(&PARSE_ERROR, file.id, span, message).label("here");
    LintedFile {
        file,
        root: None,
        kind: None,
        diagnostics: vec![diagnostic],
        released: None,
        settled: false,
    }
}

fn skipped(file: SourceFile) -> LintedFile {
    LintedFile {
        file,
        root: None,
        kind: Some(FileKind::Other),
        diagnostics: Vec::new(),
        released: None,
        settled: false,
    }
}

/// Parses a file whose text is already loaded. `report_parse_errors` decides whether a file
/// that is not JSON is reported (explicit or schema-named files) or silently skipped.
#[must_use]
pub fn load_source(file: SourceFile, report_parse_errors: bool) -> LintedFile {
    crate::pool::run(|| load_source_in_pool(file, report_parse_errors))
}

fn load_source_in_pool(file: SourceFile, report_parse_errors: bool) -> LintedFile {
    let root = match document::parse(&file.text) {
        Ok(root) => root,
        Err(failure) if report_parse_errors => {
            let message = if file.bom && file.text.is_empty() {
                "The file holds only a byte order mark".to_owned()
            } else {
                failure.message
            };
            return load_failure(file, failure.span, message);
        }
        Err(_) => return skipped(file),
    };
    let kind = classify(&root, file.explicit);
    LintedFile {
        file,
        root: Some(Arc::new(root)),
        kind: Some(kind),
        diagnostics: Vec::new(),
        released: None,
        settled: false,
    }
}

/// Lints one file on its own (a run of one), as editors and the doc-example tests do.
#[must_use]
pub fn lint_source(file: SourceFile, settings: &Settings, report_parse_errors: bool) -> LintedFile {
    let loaded = load_source(file, report_parse_errors);
    let mut run = lint_loaded(vec![loaded], settings);
    run.files.remove(0)
}

fn lint_document(
    view: &RunView<'_>,
    file: &SourceFile,
    root: &Node,
    kind: FileKind,
    settings: &Settings,
    out: &mut Vec<Diagnostic>,
) {
    let rules: Vec<&dyn rules::Rule> = rules::all()
        .iter()
        .copied()
        .filter(|r| settings.selection.enabled(r.meta()))
        .collect();
    let target = settings.target_for(kind);
    let file_cx = FileContext { file, root };
    for rule in &rules {
        rule.check_file(&file_cx, out);
    }
    // `x-schema-lint-ignore` scopes: (subschema pointer, selectors) of every unit.
    let mut scopes: Vec<(String, Vec<&str>)> = Vec::new();
    for (unit_no, unit) in units(root, kind, settings.default_draft).iter().enumerate() {
        let Some(unit_root) = root.pointer(&unit.pointer) else {
            continue;
        };
        let subschemas = walk(unit_root, &unit.pointer, unit.draft);
        for sub in &subschemas {
            let ignored = suppressions(sub.node);
            if !ignored.is_empty() {
                scopes.push((sub.pointer.clone(), ignored));
            }
        }
        let cx = UnitContext {
            file,
            root,
            unit,
            unit_no,
            subschemas: &subschemas,
            run: view,
            settings,
            target,
        };
        let first = out.len();
        for rule in &rules {
            let Some(severity) = rule.severity(target) else {
                continue;
            };
            let from = out.len();
            rule.check_unit(&cx, out);
            // The target's severity, where the rule kept its default one.
            for d in &mut out[from..] {
                if d.severity == d.rule.severity {
                    d.severity = severity;
                }
            }
        }
        if let Some(tool) = &unit.tool {
            let which = match unit.role {
                Role::InputSchema => "inputSchema",
                Role::OutputSchema => "outputSchema",
                Role::Schema => "schema",
            };
            for d in &mut out[first..] {
                d.message = format!("{} (tool `{tool}`, {which})", d.message);
            }
        }
    }
    let per_file = settings.ignored_in(file.path.as_deref());
    out.retain(|d| {
        let suppressed = scopes.iter().any(|(scope, sel)| {
            is_within(&d.pointer, scope) && sel.iter().any(|s| matches(s, d.rule))
        });
        !suppressed && !per_file.iter().any(|s| matches(s, d.rule))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(run.files.iter().all(|f| f.root.is_none()));
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
        assert!(by_name("d.json").settled);
        assert!(by_name("d.json").diagnostics.is_empty());
        // `b.json` references it: linted again with the whole run in view.
        assert!(!by_name("a.json").settled);
        // A reference into another file waits for the whole index, and still reaches `a.json`.
        let b = by_name("b.json");
        assert!(!b.settled);
        let codes: Vec<_> = b.diagnostics.iter().map(|d| d.rule.code).collect();
        assert_eq!(codes, ["SL302"], "{:?}", b.diagnostics);
        // A file with a finding is linted again with the whole run in view (its fix may need it).
        let c = by_name("c.json");
        assert!(!c.settled);
        assert_eq!(c.diagnostics.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_settled_file_that_another_file_references_is_linted_again() {
        // Clean on its own; SL403 reports its `$defs` only once a reference lands inside.
        let dir = scratch(
            "entangled",
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
        assert!(file.released.is_some() && file.root.is_none());
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

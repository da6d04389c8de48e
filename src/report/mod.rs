//! Rendering a run: the only place that turns findings into text.

pub mod audit;
pub mod catalogue;
mod concise;
pub mod diff;
mod excerpt;
mod github;
mod human;
mod json;
mod junit;
pub mod matrix;
pub mod port;
mod printable;
mod sarif;
pub mod sections;
mod wrap;

pub use printable::printable;

use crate::diagnostic::meta::RuleMeta;
use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::Run;
use crate::syntax::source::{FileId, LineCol, LineIndex, SourceFile};
use clap::ValueEnum;

/// How findings are written out (`--output-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// miette's graphical report, with the source and labels
    Human,
    /// `path:line:col: severity: CODE message`, one line per finding
    Concise,
    /// versioned JSON, with byte offsets and fixes
    Json,
    /// GitHub Actions workflow commands (`::error file=...`)
    Github,
    /// SARIF 2.1.0, for code-scanning tabs
    Sarif,
    /// XML test reports (`JUnit`), for CI systems
    Junit,
}

/// How to render.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Whether to use ANSI colours.
    pub color: bool,
    /// Terminal width for wrapping the human format.
    pub width: usize,
    /// No summary lines, no infos (`-q`).
    pub quiet: bool,
    /// Whether the human format closes with its summary line (`--fix` writes its own,
    /// [`fix_summary`]).
    pub summary: bool,
    /// Findings a baseline suppressed (`check --baseline`), which the summary line counts.
    pub baselined: usize,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            color: false,
            width: 100,
            quiet: false,
            summary: true,
            baselined: 0,
        }
    }
}

/// The files findings are in, by id: what every format reads besides the findings (a run's
/// files, or the capture of an audit).
pub trait Sources {
    /// The file with id `id`: its name, text, and whether it began with a byte order mark.
    fn source(&self, id: FileId) -> &SourceFile;
    /// The files that were linted, clean ones too: a `JUnit` suite each, counted in summaries.
    fn linted(&self) -> Vec<FileId>;
    /// Whether the file with id `id` is what a running server advertised (or its failure to):
    /// summaries count servers apart from files.
    fn is_server(&self, _id: FileId) -> bool {
        false
    }
}

impl Sources for Run {
    fn source(&self, id: FileId) -> &SourceFile {
        Run::source(self, id)
    }

    fn linted(&self) -> Vec<FileId> {
        self.files
            .iter()
            .filter(|f| f.is_linted())
            .map(|f| f.file.id)
            .collect()
    }

    fn is_server(&self, id: FileId) -> bool {
        self.files[id.0].is_server()
    }
}

/// A single file, as an audit's capture.
impl Sources for SourceFile {
    fn source(&self, _: FileId) -> &SourceFile {
        self
    }

    fn linted(&self) -> Vec<FileId> {
        vec![self.id]
    }
}

/// What every format renders: findings in output order, where to read their files, and the
/// rules SARIF describes.
pub struct Findings<'a> {
    /// The findings, in the order they are shown.
    pub diagnostics: Vec<&'a Diagnostic>,
    /// Their files.
    pub sources: &'a dyn Sources,
    /// The rules SARIF lists in its driver (and indexes results into).
    pub rules: &'a [&'static RuleMeta],
}

impl<'a> Findings<'a> {
    /// The findings of a run, sorted by path, position and code, with every rule.
    #[must_use]
    pub fn of(run: &'a Run) -> Self {
        Self {
            diagnostics: run.diagnostics(),
            sources: run,
            rules: crate::diagnostic::meta::ALL,
        }
    }

    fn source(&self, id: FileId) -> &SourceFile {
        self.sources.source(id)
    }
}

/// A finding's position, resolved to lines and columns.
pub(crate) struct Position {
    pub start: LineCol,
    pub end: LineCol,
}

pub(crate) fn position(sources: &dyn Sources, d: &Diagnostic, cache: &mut LineCache) -> Position {
    let text = &sources.source(d.file).text;
    let index = cache.get(sources, d.file);
    Position {
        start: index.line_col(text, d.span.start),
        end: index.line_col(text, d.span.end),
    }
}

/// Line indexes, built once per file that has findings.
#[derive(Default)]
pub(crate) struct LineCache {
    indexes: std::collections::HashMap<FileId, LineIndex>,
}

impl LineCache {
    fn get(&mut self, sources: &dyn Sources, file: FileId) -> &LineIndex {
        self.indexes
            .entry(file)
            .or_insert_with(|| LineIndex::new(&sources.source(file).text))
    }
}

/// Counts for the closing summary.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
pub struct Summary {
    /// Files that held something to lint, or failed to load (servers not counted).
    pub files: usize,
    /// Running servers linted, or that could not be listed (`--server`, `--url`).
    #[serde(skip_serializing_if = "is_zero")]
    pub servers: usize,
    /// Findings of every severity.
    pub findings: usize,
    /// Findings of severity error.
    pub errors: usize,
    /// Findings of severity warning.
    pub warnings: usize,
    /// Findings of severity info.
    pub infos: usize,
    /// Files that could not be read or parsed (SL100 findings), counted among the findings.
    pub parse_errors: usize,
}

impl Summary {
    /// The counts of a run.
    #[must_use]
    pub fn of(run: &Run) -> Self {
        Self::of_findings(&Findings::of(run))
    }

    /// The counts of what is rendered.
    #[must_use]
    pub fn of_findings(findings: &Findings) -> Self {
        let mut s = Summary::default();
        for id in findings.sources.linted() {
            if findings.sources.is_server(id) {
                s.servers += 1;
            } else {
                s.files += 1;
            }
        }
        for d in &findings.diagnostics {
            s.findings += 1;
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => s.infos += 1,
            }
            if d.rule.code == crate::diagnostic::meta::PARSE_ERROR.code {
                s.parse_errors += 1;
            }
        }
        s
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `--show-fixes`: the fixes `--fix` applied, per file.
#[must_use]
pub fn applied_fixes(outcome: &crate::fix::FixOutcome) -> String {
    use std::fmt::Write as _;
    let mut by_file: std::collections::BTreeMap<&str, Vec<&crate::fix::Applied>> =
        std::collections::BTreeMap::new();
    for a in &outcome.applied {
        for f in &a.files {
            by_file
                .entry(outcome.run.source(*f).name.as_str())
                .or_default()
                .push(a);
        }
    }
    if by_file.is_empty() {
        return String::new();
    }
    let mut out = String::from("Fixes applied:\n");
    for (file, fixes) in by_file {
        let _ = writeln!(out, "  {}:", printable(file));
        for a in fixes {
            let title = printable(&a.title);
            let _ = writeln!(out, "    {} {title} ({})", a.code, a.applicability);
        }
    }
    out
}

/// The closing line of `--fix`, as ruff words it: how many findings there were, how many of
/// them the fixes removed, and only then how many remain (`fixed`: the findings before the fix
/// loop less those after it). `All checks passed` when there was nothing to fix.
#[must_use]
pub fn fix_summary(run: &Run, fixed: usize) -> String {
    human::fix_summary_line(&Summary::of(run), fixed)
}

/// A unified diff of one file, with `a/` and `b/` headers.
#[must_use]
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// `--statistics`: findings per rule, most first, with how many a fix is offered for.
#[must_use]
pub fn statistics(run: &Run) -> String {
    use std::fmt::Write as _;
    let mut counts: std::collections::BTreeMap<&'static str, (usize, usize, &'static str)> =
        std::collections::BTreeMap::new();
    for d in run.diagnostics() {
        let entry = counts.entry(d.rule.code).or_insert((0, 0, d.rule.name));
        entry.0 += 1;
        entry.1 += usize::from(d.fix.is_some());
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    let width = rows
        .iter()
        .map(|(_, (n, ..))| n.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for (code, (n, fixable, name)) in rows {
        let fix = match fixable {
            0 => String::new(),
            f if f == n => "  [fixable]".to_owned(),
            f => format!("  [{f} fixable]"),
        };
        let _ = writeln!(out, "{n:>width$}  {code}  {name}{fix}");
    }
    out
}

/// Renders the run in `format`.
#[must_use]
pub fn render(run: &Run, format: OutputFormat, style: Style) -> String {
    render_findings(&Findings::of(run), format, style)
}

/// Renders `findings` in `format`: the one entry point of every format.
#[must_use]
pub fn render_findings(findings: &Findings, format: OutputFormat, style: Style) -> String {
    render_findings_with(findings, format, style, &json::Extras::default())
}

/// [`render_findings`], with what a command adds to the JSON document ([`json::Extras`]).
fn render_findings_with(
    findings: &Findings,
    format: OutputFormat,
    style: Style,
    extras: &json::Extras,
) -> String {
    if style.quiet
        && findings
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Info)
    {
        // `-q` prints what needs acting on: errors and warnings.
        let shown = Findings {
            diagnostics: findings
                .diagnostics
                .iter()
                .copied()
                .filter(|d| d.severity != Severity::Info)
                .collect(),
            sources: findings.sources,
            rules: findings.rules,
        };
        return render_findings_with(&shown, format, style, extras);
    }
    match format {
        OutputFormat::Human => human::render(findings, style),
        OutputFormat::Concise => concise::render(findings),
        OutputFormat::Json => json::render(findings, extras),
        OutputFormat::Github => github::render(findings),
        OutputFormat::Sarif => sarif::render(findings),
        OutputFormat::Junit => junit::render(findings),
    }
}

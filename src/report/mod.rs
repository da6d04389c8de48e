//! Rendering a run: the only place that turns findings into text.

pub mod catalogue;
mod concise;
mod human;
mod json;

use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::Run;
use crate::source::{LineCol, LineIndex};
use clap::ValueEnum;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// miette's graphical report, with the source and labels
    Human,
    /// `path:line:col: CODE message`, one line per finding
    Concise,
    /// versioned JSON, with byte offsets and fixes
    Json,
}

/// How to render.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    /// Terminal width for wrapping the human format.
    pub width: usize,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            color: false,
            width: 100,
        }
    }
}

/// A finding's position, resolved to lines and columns.
pub(crate) struct Position {
    pub start: LineCol,
    pub end: LineCol,
}

pub(crate) fn position(run: &Run, d: &Diagnostic, cache: &mut LineCache) -> Position {
    let text = &run.source(d.file).text;
    let index = cache.get(run, d.file.0);
    Position {
        start: index.line_col(text, d.span.start),
        end: index.line_col(text, d.span.end),
    }
}

/// Line indexes, built once per file that has findings.
#[derive(Default)]
pub(crate) struct LineCache {
    indexes: std::collections::HashMap<usize, LineIndex>,
}

impl LineCache {
    fn get(&mut self, run: &Run, file: usize) -> &LineIndex {
        self.indexes
            .entry(file)
            .or_insert_with(|| LineIndex::new(&run.files[file].file.text))
    }
}

/// Counts for the closing summary.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
pub struct Summary {
    pub files: usize,
    pub findings: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub parse_errors: usize,
}

impl Summary {
    #[must_use]
    pub fn of(run: &Run) -> Self {
        let mut s = Summary {
            files: run.linted_count(),
            ..Summary::default()
        };
        for d in run.diagnostics() {
            s.findings += 1;
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => s.infos += 1,
            }
            if d.rule.code == crate::rules::PARSE_ERROR.code {
                s.parse_errors += 1;
            }
        }
        s
    }
}

/// Renders the run in `format`.
#[must_use]
pub fn render(run: &Run, format: OutputFormat, style: Style) -> String {
    match format {
        OutputFormat::Human => human::render(run, style),
        OutputFormat::Concise => concise::render(run),
        OutputFormat::Json => json::render(run),
    }
}

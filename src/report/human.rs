//! The human format: miette's graphical report for every finding, then a summary line.

use super::printable::{printable, printable_source};
use super::{Style, Summary};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::Run;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use std::fmt;
use std::sync::Arc;

/// A finding as miette sees it.
struct View<'a> {
    d: &'a Diagnostic,
    source: NamedSource<Arc<str>>,
    code: String,
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}

impl fmt::Display for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&printable(&self.d.message))
    }
}

impl std::error::Error for View<'_> {}

fn span(s: crate::source::Span) -> SourceSpan {
    SourceSpan::new(s.start.into(), s.len())
}

impl miette::Diagnostic for View<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let help = self.d.help.as_deref().map(printable);
        let note = self.d.note.as_deref().map(printable);
        match (help, note) {
            (None, None) => None,
            (Some(h), None) => Some(Box::new(h.into_owned())),
            (None, Some(n)) => Some(Box::new(format!("note: {n}"))),
            (Some(h), Some(n)) => Some(Box::new(format!("{h}\nnote: {n}"))),
        }
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = (!self.d.label.is_empty()).then(|| printable(&self.d.label).into_owned());
        let primary = LabeledSpan::new_primary_with_span(label, span(self.d.span));
        let related = self
            .d
            .related
            .iter()
            .filter(|l| l.file == self.d.file)
            .map(|l| {
                LabeledSpan::new_with_span(Some(printable(&l.message).into_owned()), span(l.span))
            });
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

pub(crate) fn render(run: &Run, style: Style) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
        .with_urls(false)
        .with_primary_span_start();
    let mut out = String::new();
    for d in run.diagnostics() {
        let file = run.source(d.file);
        // Control characters of a broken file are not sent to the terminal.
        let text = match printable_source(&file.text) {
            std::borrow::Cow::Borrowed(_) => Arc::clone(&file.text),
            std::borrow::Cow::Owned(shown) => Arc::from(shown),
        };
        let view = View {
            d,
            source: NamedSource::new(printable(&file.name), text),
            code: format!("{} {}", d.rule.code, d.rule.name),
        };
        let _ = handler.render_report(&mut out, &view);
        out.push('\n');
    }
    if !style.quiet {
        out.push_str(&summary_line(&Summary::of(run)));
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn summary_line(s: &Summary) -> String {
    if s.findings == 0 {
        return format!("All checks passed ({} linted)\n", plural(s.files, "file"));
    }
    let mut parts = Vec::new();
    if s.errors > 0 {
        parts.push(plural(s.errors, "error"));
    }
    if s.warnings > 0 {
        parts.push(plural(s.warnings, "warning"));
    }
    if s.infos > 0 {
        parts.push(format!("{} info", s.infos));
    }
    format!(
        "Found {} ({}) in {} linted\n",
        plural(s.findings, "finding"),
        parts.join(", "),
        plural(s.files, "file")
    )
}

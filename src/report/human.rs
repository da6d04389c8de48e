//! The human format: miette's graphical report for every finding, then a summary line.

use super::excerpt::{lines_of, Excerpt, Lines, Shown};
use super::printable::{printable, printable_source};
use super::{Findings, Style, Summary};
use crate::diagnostic::{Diagnostic, Severity};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// How many of a grouped finding's other places the human format lists.
const MAX_ALSO_SHOWN: usize = 5;

/// "also at 311:11 (tool `get_summary`), ...": where else a grouped finding is, by line and
/// column, the first [`MAX_ALSO_SHOWN`] and how many more.
fn also_at(findings: &Findings, d: &Diagnostic) -> Option<String> {
    let places: Vec<_> = d.related.iter().filter(|l| !l.pointer.is_empty()).collect();
    if places.is_empty() {
        return None;
    }
    let mut cache = super::LineCache::default();
    let shown: Vec<String> = places
        .iter()
        .take(MAX_ALSO_SHOWN)
        .map(|l| {
            let source = findings.source(l.file);
            let at = cache
                .get(findings.sources, l.file)
                .line_col(&source.text, l.span.start);
            let what = l.message.split(':').next().unwrap_or_default();
            format!("{}:{} ({what})", at.line, at.column)
        })
        .collect();
    let more = places.len().saturating_sub(MAX_ALSO_SHOWN);
    Some(if more > 0 {
        format!("also at {} and {more} more", shown.join(", "))
    } else {
        format!("also at {}", shown.join(", "))
    })
}

/// A finding as miette sees it.
struct View<'a> {
    d: &'a Diagnostic,
    /// The file's text; `None` when it has none to show (a file that could not be read, a
    /// server that could not be listed): the message then starts with its name instead of an
    /// empty source box.
    source: Option<Box<dyn miette::SourceCode + 'a>>,
    name: String,
    /// The primary span and the related labels of the same file, in `source`'s offsets.
    primary: SourceSpan,
    related: Vec<(String, SourceSpan)>,
    code: String,
    /// Where else a grouped finding is ([`also_at`]), shown before the help.
    also: Option<String>,
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}

impl fmt::Display for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.source.is_none() {
            write!(f, "{}: ", self.name)?;
        }
        f.write_str(&printable(&self.d.message))
    }
}

impl std::error::Error for View<'_> {}

fn span(s: crate::syntax::source::Span) -> SourceSpan {
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
        let sections = super::sections::Sections::of(self.d).after_message(printable);
        let text = match (&self.also, sections) {
            (Some(also), Some(text)) => format!("{also}\n{text}"),
            (Some(also), None) => also.clone(),
            (None, Some(text)) => text,
            (None, None) => return None,
        };
        Some(Box::new(text) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_deref()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let label = (!self.d.label.is_empty()).then(|| printable(&self.d.label).into_owned());
        let primary = LabeledSpan::new_primary_with_span(label, self.primary);
        let related = self
            .related
            .iter()
            .map(|(m, s)| LabeledSpan::new_with_span(Some(printable(m).into_owned()), *s));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

/// A file's text for miette, whose `path:line:column` header then counts the column in
/// characters, as every other format does (miette itself counts bytes).
struct CharColumns {
    name: String,
    text: Arc<String>,
}

impl miette::SourceCode for CharColumns {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        let offset = span.offset().min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let column = self
            .text
            .get(line_start..offset)
            .map_or(inner.column(), |prefix| prefix.chars().count());
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            if before == 0 { column } else { inner.column() },
            inner.line_count(),
        )))
    }
}

/// What miette shows of `file` for `d`: the whole text, or an excerpt where lines are long
/// (`lines` caches each long file's line table); printable either way.
fn view<'a>(
    findings: &'a Findings,
    d: &'a Diagnostic,
    lines: &mut HashMap<usize, Lines>,
) -> View<'a> {
    let file = findings.source(d.file);
    // Places far apart (the other tools of a grouped finding, which carry a pointer) are listed
    // after the help, not drawn: one drawing would hold every line between them.
    let related: Vec<_> = d
        .related
        .iter()
        .filter(|l| l.file == d.file && l.pointer.is_empty())
        .collect();
    let also = also_at(findings, d);
    let code = format!("{} {}", d.rule.code, d.rule.name);
    let name = printable(&file.name).into_owned();
    if file.text.len() > super::excerpt::MAX_LINE {
        let all = lines
            .entry(d.file.0)
            .or_insert_with(|| lines_of(&file.text));
        let spans: Vec<_> = std::iter::once(d.span)
            .chain(related.iter().map(|l| l.span))
            .collect();
        if let Some(excerpt) = Excerpt::new(&name, &file.text, all, &spans) {
            let primary = excerpt.span(d.span);
            let related = related
                .iter()
                .map(|l| (l.message.clone(), excerpt.span(l.span)))
                .collect();
            let text = printable_source(excerpt.text()).into_owned();
            return View {
                d,
                source: Some(Box::new(Shown { excerpt, text })),
                name,
                primary,
                related,
                code,
                also,
            };
        }
    }
    // Control characters of a broken file are not sent to the terminal.
    let text = match printable_source(&file.text) {
        std::borrow::Cow::Borrowed(_) => Arc::clone(&file.text),
        std::borrow::Cow::Owned(shown) => Arc::new(shown),
    };
    let source = (!text.is_empty()).then(|| {
        Box::new(CharColumns {
            name: name.clone(),
            text,
        }) as Box<dyn miette::SourceCode>
    });
    View {
        d,
        source,
        name,
        primary: span(d.span),
        related: related
            .iter()
            .map(|l| (l.message.clone(), span(l.span)))
            .collect(),
        code,
        also,
    }
}

pub(crate) fn render(findings: &Findings, style: Style) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_word_separator(super::wrap::separator())
        .with_word_splitter(super::wrap::splitter())
        .with_break_words(false)
        .with_links(false)
        .with_urls(false)
        .with_primary_span_start();
    let mut out = String::new();
    let mut lines = HashMap::new();
    for d in &findings.diagnostics {
        let view = view(findings, d, &mut lines);
        let _ = handler.render_report(&mut out, &view);
        out.push('\n');
    }
    if !style.quiet && style.summary {
        let line = summary_line(&Summary::of_findings(findings));
        if style.baselined == 0 {
            out.push_str(&line);
        } else {
            out.push_str(line.trim_end());
            out.push_str("; ");
            out.push_str(&plural(style.baselined, "finding"));
            out.push_str(" suppressed by the baseline\n");
        }
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
    if s.findings == 0 && s.files == 0 && s.servers == 0 {
        return "No schema files found: no JSON Schema or MCP `tools/list` document to lint\n"
            .to_owned();
    }
    if s.findings == 0 {
        return format!("All checks passed ({} linted)\n", linted(s));
    }
    format!(
        "Found {} ({}) in {} linted\n",
        plural(s.findings, "finding"),
        severities(s),
        linted(s)
    )
}

/// The findings of a summary by severity: `1 error, 2 warnings`.
fn severities(s: &Summary) -> String {
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
    parts.join(", ")
}

/// The closing line of `--fix` (see [`super::fix_summary`]): `s` counts what remains.
pub(super) fn fix_summary_line(s: &Summary, fixed: usize) -> String {
    if fixed == 0 && s.findings == 0 {
        return summary_line(s);
    }
    let remaining = if s.findings == 0 {
        "0 remaining".to_owned()
    } else {
        format!("{} remaining: {}", s.findings, severities(s))
    };
    format!(
        "Found {} ({fixed} fixed, {remaining}) in {} linted\n",
        plural(fixed + s.findings, "finding"),
        linted(s)
    )
}

/// What was linted: `2 files`, `1 server`, `2 files and 1 server`.
fn linted(s: &Summary) -> String {
    match (s.files, s.servers) {
        (files, 0) => plural(files, "file"),
        (0, servers) => plural(servers, "server"),
        (files, servers) => format!(
            "{} and {}",
            plural(files, "file"),
            plural(servers, "server")
        ),
    }
}

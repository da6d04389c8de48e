//! The source shown under a finding when its lines are long. A minified schema is one line: shown
//! whole, a 50 MB file would print 50 MB per finding. Lines longer than [`MAX_LINE`] bytes are
//! cut to windows around the finding's spans, the cuts marked with `…`; the header and the
//! gutter still give the file's line and column.

use crate::syntax::source::Span;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Lines up to this many bytes are shown whole.
pub const MAX_LINE: usize = 240;
/// Bytes kept on each side of a span on a cut line.
const MARGIN: usize = 60;
const MARK: &str = "…";

/// (start, end without the line break, end with it) of every line of a text.
pub type Lines = Vec<(usize, usize, usize)>;

/// The [`Lines`] of `text`.
#[must_use]
pub fn lines_of(text: &str) -> Lines {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in text.match_indices('\n') {
        let end = if i > start && text.as_bytes()[i - 1] == b'\r' {
            i - 1
        } else {
            i
        };
        out.push((start, end, i + 1));
        start = i + 1;
    }
    out.push((start, text.len(), text.len()));
    out
}

/// Bytes `from..to` of the file, kept at `at` in the excerpt.
#[derive(Clone, Copy, Debug)]
struct Piece {
    at: usize,
    from: usize,
    to: usize,
}

/// Part of a file: the lines around some spans, long lines cut.
pub struct Excerpt {
    name: String,
    text: String,
    /// Line of the file (0-based) where the excerpt starts.
    first_line: usize,
    /// Where each line of the excerpt starts in the file.
    line_starts: Vec<usize>,
    /// What was kept, in order.
    pieces: Vec<Piece>,
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The byte ranges of a long line (`start..end`) to keep: a window around each span on it,
/// merged where they meet; the line's beginning when no span is on it.
fn windows(text: &str, start: usize, end: usize, spans: &[Span]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut on_line: Vec<&Span> = spans
        .iter()
        .filter(|s| s.start <= end && s.end >= start)
        .collect();
    on_line.sort_by_key(|s| s.start);
    for s in on_line {
        let a = s.start.max(start);
        let b = s.end.min(end).min(a + MAX_LINE);
        let from = floor(text, a.saturating_sub(MARGIN).max(start));
        let to = floor(text, (b + MARGIN).min(end)).max(from);
        match out.last_mut() {
            Some(last) if from <= last.1 + MARK.len() => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    if out.is_empty() {
        out.push((start, floor(text, start + MAX_LINE)));
    }
    out
}

impl Excerpt {
    /// The excerpt of `text` (whose lines are `all`) for `spans`, with one line of context each
    /// side as the report shows; `None` when every line shown is short enough to show whole.
    #[must_use]
    pub fn new(
        name: &str,
        text: &str,
        all: &[(usize, usize, usize)],
        spans: &[Span],
    ) -> Option<Self> {
        if text.len() <= MAX_LINE {
            return None;
        }
        let lo = spans.iter().map(|s| s.start).min()?;
        let hi = spans.iter().map(|s| s.end).max()?;
        let line_of = |offset: usize| all.partition_point(|l| l.2 <= offset).min(all.len() - 1);
        let first = line_of(lo).saturating_sub(1);
        let last = (line_of(hi) + 1).min(all.len() - 1);
        if all[first..=last].iter().all(|l| l.1 - l.0 <= MAX_LINE) {
            return None;
        }
        let mut out = Excerpt {
            name: name.to_owned(),
            text: String::new(),
            first_line: first,
            line_starts: Vec::new(),
            pieces: Vec::new(),
        };
        for &(start, end, next) in &all[first..=last] {
            out.line_starts.push(start);
            let kept = if end - start <= MAX_LINE {
                vec![(start, end)]
            } else {
                windows(text, start, end, spans)
            };
            let mut at = start;
            for (from, to) in kept {
                if from > at {
                    out.text.push_str(MARK);
                }
                out.pieces.push(Piece {
                    at: out.text.len(),
                    from,
                    to,
                });
                out.text.push_str(&text[from..to]);
                at = to;
            }
            if at < end {
                out.text.push_str(MARK);
            }
            out.text.push_str(&text[end..next]);
        }
        Some(out)
    }

    /// Where an offset of the file lies in the excerpt (a cut offset: at the end of what was kept
    /// before it).
    fn map(&self, offset: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.from <= offset).max(1) - 1;
        let p = self.pieces[i];
        p.at + offset.clamp(p.from, p.to) - p.from
    }

    /// Where an offset of the excerpt lies in the file.
    fn unmap(&self, offset: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.at <= offset).max(1) - 1;
        let p = self.pieces[i];
        (p.from + offset.saturating_sub(p.at)).min(p.to)
    }

    /// `span` of the file as a span of the excerpt.
    #[must_use]
    pub fn span(&self, span: Span) -> SourceSpan {
        let start = self.map(span.start);
        let end = self.map(span.end).max(start);
        SourceSpan::new(start.into(), end - start)
    }

    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// An excerpt with its text made printable, as miette reads it.
pub struct Shown {
    pub excerpt: Excerpt,
    pub text: String,
}

impl SourceCode for Shown {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        let line = inner.line();
        // The column of the span's start in the file's line, in bytes as miette counts them.
        let column = match self.excerpt.line_starts.get(line) {
            Some(&start) if before == 0 => self.excerpt.unmap(span.offset()).saturating_sub(start),
            _ => inner.column(),
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.excerpt.name.clone(),
            inner.data(),
            *inner.span(),
            line + self.excerpt.first_line,
            column,
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str, spans: &[Span]) -> (Shown, Vec<SourceSpan>) {
        let excerpt = Excerpt::new("a.json", text, &lines_of(text), spans).unwrap();
        let mapped = spans.iter().map(|s| excerpt.span(*s)).collect();
        let text = excerpt.text().to_owned();
        (Shown { excerpt, text }, mapped)
    }

    #[test]
    fn short_lines_need_no_excerpt() {
        let text = "{\n  \"a\": 1\n}\n";
        assert!(Excerpt::new("a.json", text, &lines_of(text), &[Span::new(4, 7)]).is_none());
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let long = "y".repeat(100_000);
        let text = format!("{{\n  \"$id\": \"my_tool:out\", \"description\": \"{long}\"\n}}\n");
        let colon = text.find("l:o").unwrap() + 1;
        let (shown, spans) = shown(&text, &[Span::new(colon, colon + 1)]);
        assert!(shown.text.len() < 400, "{}", shown.text.len());
        assert!(shown.text.starts_with("{\n  \"$id\": \"my_tool:out\""));
        assert!(shown.text.contains("yyy…\n}"));
        let s = spans[0];
        assert_eq!(&shown.text[s.offset()..s.offset() + s.len()], ":");
        let contents = shown.read_span(&s, 0, 0).unwrap();
        assert_eq!((contents.line(), contents.column()), (1, 17));
    }

    #[test]
    fn far_apart_spans_on_one_line_each_get_a_window() {
        let text = format!(
            "{{\"type\": 1,{}\"type\": 2}}",
            " \"x\": \"zzzzzzzzzz\",".repeat(500)
        );
        let first = Span::new(1, 7);
        let second = Span::new(text.rfind("\"type\"").unwrap(), text.len() - 4);
        let (shown, spans) = shown(&text, &[second, first]);
        assert!(shown.text.len() < 600, "{}", shown.text);
        assert_eq!(shown.text.matches('…').count(), 1, "{}", shown.text);
        for (s, expected) in spans.iter().zip(["\"type\"", "\"type\""]) {
            assert_eq!(&shown.text[s.offset()..s.offset() + 6], expected);
        }
        let contents = shown.read_span(&spans[0], 0, 0).unwrap();
        assert_eq!(contents.column(), second.start);
    }
}

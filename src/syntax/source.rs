//! A file's text, held once and shared, and the conversion from byte offsets to lines and columns.

use std::path::PathBuf;
use std::sync::Arc;

/// Index of a file in a run; diagnostics and edits name files by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub usize);

/// A half-open byte range into a file's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// Byte offset of the first byte in the range.
    pub start: usize,
    /// Byte offset just past the last byte in the range.
    pub end: usize,
}

impl Span {
    /// The range from byte `start` up to, not including, byte `end`; `start` must not exceed `end`.
    #[must_use]
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end);
        Self { start, end }
    }

    /// Length of the range in bytes.
    #[must_use]
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the range covers no bytes (a position between two bytes).
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// The UTF-8 byte order mark, as a character: text and spans leave it out, the file on disk may
/// begin with it.
pub const BOM: char = '\u{feff}';

/// `text` without a leading byte order mark, and whether it had one.
#[must_use]
pub fn strip_bom(text: &str) -> (bool, &str) {
    match text.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, text),
    }
}

/// Drops a leading byte order mark from `text` in place; whether there was one.
pub fn drain_bom(text: &mut String) -> bool {
    let bom = text.starts_with(BOM);
    if bom {
        text.drain(..BOM.len_utf8());
    }
    bom
}

/// One input file. `text` excludes a leading UTF-8 byte order mark, which `bom` remembers so that
/// a write can put it back; every span is an offset into `text`.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The file's index in the run.
    pub id: FileId,
    /// The path as the user will see it in reports (`-` input shows `--stdin-filename`).
    pub name: String,
    /// Where the file lives on disk; `None` for standard input.
    pub path: Option<PathBuf>,
    /// Shared, never copied: a file of megabytes is read into it once.
    pub text: Arc<String>,
    /// Whether the file on disk began with a UTF-8 byte order mark, removed from `text`.
    pub bom: bool,
    /// Named on the command line (always linted) rather than found by walking a folder.
    pub explicit: bool,
}

impl SourceFile {
    /// Builds a file from text that was already decoded; strips a leading byte order mark.
    #[must_use]
    pub fn new(
        id: FileId,
        name: String,
        path: Option<PathBuf>,
        text: &str,
        explicit: bool,
    ) -> Self {
        let (bom, text) = strip_bom(text);
        Self {
            id,
            name,
            path,
            text: Arc::new(text.to_owned()),
            bom,
            explicit,
        }
    }

    /// [`SourceFile::new`] for text already in a `String` of its own, which it keeps.
    #[must_use]
    pub fn from_string(
        id: FileId,
        name: String,
        path: Option<PathBuf>,
        mut text: String,
        explicit: bool,
    ) -> Self {
        let bom = drain_bom(&mut text);
        Self {
            id,
            name,
            path,
            text: Arc::new(text),
            bom,
            explicit,
        }
    }
}

impl SourceFile {
    /// Whether the file is JSON with comments: its name (the path, or `--stdin-filename`) ends in
    /// `.jsonc`. Such a file may hold comments and trailing commas, and `schema-lint-ignore`
    /// comments ([`crate::syntax::comments`]).
    #[must_use]
    pub fn is_jsonc(&self) -> bool {
        let named = |p: &std::path::Path| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("jsonc"))
        };
        self.path
            .as_deref()
            .map_or_else(|| named(std::path::Path::new(&self.name)), named)
    }

    /// How many bytes the byte order mark takes on disk before `text`: 3 or 0.
    #[must_use]
    pub fn bom_len(&self) -> usize {
        if self.bom {
            BOM.len_utf8()
        } else {
            0
        }
    }

    /// An offset into `text` as an offset into the file as stored (after the byte order mark).
    #[must_use]
    pub fn disk_offset(&self, offset: usize) -> usize {
        offset + self.bom_len()
    }

    /// An offset into the file as stored as an offset into `text` (0 within the byte order mark).
    #[must_use]
    pub fn text_offset(&self, disk_offset: usize) -> usize {
        disk_offset.saturating_sub(self.bom_len())
    }
}

/// 1-based line and column; columns count Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// Line number, counted from 1.
    pub line: usize,
    /// Column number, counted from 1 in Unicode scalar values (not bytes).
    pub column: usize,
}

/// Byte offsets of line starts, for offset to line/column conversion.
pub struct LineIndex {
    starts: Vec<usize>,
    columns: Columns,
}

/// How many characters a text holds before each of its offsets, in time that does not grow
/// with the length of the line: a minified file is one line, and placing each of its findings
/// by counting the characters from the line's start made placing them all quadratic (80,000
/// findings on one line of 2 MB: 22.7 s in a debug build). Counts from the start of the text
/// are kept every [`Columns::BLOCK`] bytes, built the first time a count reaches further than
/// that from where it starts, so that texts of short lines never build them.
#[derive(Default)]
pub struct Columns {
    /// For block `i`: the characters, and of them those outside the Basic Multilingual Plane
    /// (4 bytes of UTF-8, 2 units of UTF-16), in the text's first `i * BLOCK` bytes.
    blocks: std::sync::OnceLock<Vec<(usize, usize)>>,
}

impl Columns {
    /// Bytes between two kept counts: the most a count reads.
    pub const BLOCK: usize = 1024;

    /// The characters between two character boundaries `from <= to` of `text`, and of them
    /// those outside the Basic Multilingual Plane.
    #[must_use]
    pub fn between(&self, text: &str, from: usize, to: usize) -> (usize, usize) {
        let bytes = text.as_bytes();
        if to - from <= 2 * Self::BLOCK {
            return count(&bytes[from..to], (0, 0));
        }
        let blocks = self.blocks.get_or_init(|| {
            let mut blocks = Vec::with_capacity(bytes.len() / Self::BLOCK + 1);
            let mut at = (0, 0);
            blocks.push(at);
            for chunk in bytes.chunks_exact(Self::BLOCK) {
                at = count(chunk, at);
                blocks.push(at);
            }
            blocks
        });
        let upto = |offset: usize| {
            let block = offset / Self::BLOCK;
            count(&bytes[block * Self::BLOCK..offset], blocks[block])
        };
        let (a, b) = (upto(from), upto(to));
        (b.0 - a.0, b.1 - a.1)
    }
}

/// `at` plus the characters (bytes that do not continue one) of `bytes`, and of them those of
/// 4 bytes.
fn count(bytes: &[u8], at: (usize, usize)) -> (usize, usize) {
    bytes.iter().fold(at, |(chars, astral), &b| {
        (
            chars + usize::from(b & 0xC0 != 0x80),
            astral + usize::from(b >= 0xF0),
        )
    })
}

impl LineIndex {
    /// Records where each line of `text` starts; lines end at `\n`.
    #[must_use]
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self {
            starts,
            columns: Columns::default(),
        }
    }

    /// Where 1-based line `line` starts; `None` past the last line.
    #[must_use]
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line.checked_sub(1)?).copied()
    }

    /// Line and column of a byte offset (clamped to the text, and to a character boundary).
    #[must_use]
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column = self.columns.between(text, self.starts[line], offset).0 + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let text = "{\n  \"é\": \"x\"\r\n}";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
        let x = text.find("\"x\"").unwrap();
        assert_eq!(index.line_col(text, x), LineCol { line: 2, column: 8 });
        assert_eq!(
            index.line_col(text, text.len()),
            LineCol { line: 3, column: 2 }
        );
    }

    #[test]
    fn bom_is_kept_aside() {
        let f = SourceFile::new(FileId(0), "a".into(), None, "\u{feff}{}", true);
        assert!(f.bom);
        assert_eq!(&*f.text, "{}");
    }

    #[test]
    fn columns_count_characters_across_blocks() {
        let text = "aé🌦\u{2028}".repeat(1000);
        let columns = Columns::default();
        let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        for &from in ends.iter().step_by(97) {
            for &to in ends.iter().step_by(89).filter(|&&to| to >= from) {
                let slice = &text[from..to];
                let astral = slice.chars().filter(|c| c.len_utf8() == 4).count();
                assert_eq!(
                    columns.between(&text, from, to),
                    (slice.chars().count(), astral)
                );
            }
        }
    }

    /// Placing findings on one long line costs in proportion to the findings (#41 item 11): 4
    /// times the findings on a line 4 times as long take less than 8 times as long (counting
    /// each column from the line's start took 16 times as long).
    #[test]
    fn placing_findings_on_one_long_line_is_linear() {
        let time = |n: usize| {
            let text = "{\"é\": []}, ".repeat(n);
            let offsets: Vec<usize> = text.match_indices('[').map(|(i, _)| i).collect();
            (0..3)
                .map(|_| {
                    let start = std::time::Instant::now();
                    let index = LineIndex::new(&text);
                    let columns: usize = offsets
                        .iter()
                        .map(|&o| index.line_col(&text, o).column)
                        .sum();
                    assert!(columns > n);
                    start.elapsed()
                })
                .min()
                .unwrap()
        };
        let (small, large) = (time(10_000), time(40_000));
        assert!(
            large < small * 8,
            "10,000 findings: {small:?}, 40,000: {large:?}"
        );
    }
}

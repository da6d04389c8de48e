//! Positions and URIs as the Language Server Protocol has them: zero-based lines split at
//! `\n`, `\r\n` and `\r`, columns counted in the code units of the encoding negotiated at
//! `initialize` (UTF-8 bytes, UTF-16 code units, or UTF-32 code points), and `file://` URIs.
//! Spans of the crate are byte offsets into a file's text (its byte order mark left out).

use crate::syntax::source::Columns;
use lsp_types::{Position, PositionEncodingKind, Range, Uri};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a column counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (the protocol's default): a character outside the Basic Multilingual
    /// Plane, such as most emoji, counts 2.
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

impl Encoding {
    /// The encoding to use with a client that offers `offered` (`general.positionEncodings`):
    /// UTF-8 when offered (spans are bytes already), else the first the client lists that the
    /// server knows, else UTF-16, which every client supports.
    pub(crate) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Self {
        let offered = offered.unwrap_or_default();
        if offered.contains(&PositionEncodingKind::UTF8) {
            return Encoding::Utf8;
        }
        offered
            .iter()
            .find_map(|kind| match kind.as_str() {
                "utf-32" => Some(Encoding::Utf32),
                "utf-16" => Some(Encoding::Utf16),
                _ => None,
            })
            .unwrap_or(Encoding::Utf16)
    }

    /// The name the protocol gives the encoding.
    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn width(self, c: char) -> u32 {
        let width = match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        };
        u32::try_from(width).unwrap_or(1)
    }
}

/// Where the lines of a text start, for conversions between byte offsets and positions.
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Arc<[usize]>,
    encoding: Encoding,
    /// Code units the client sees before `text` on the first line: a byte order mark that the
    /// client's copy of the document holds and the crate's text leaves out.
    lead: u32,
    /// Characters before each offset, so that the position of each of many findings on one
    /// long line does not count the line from its start.
    columns: Arc<Columns>,
}

impl<'a> Lines<'a> {
    /// The lines of `text`; `bom` says whether the client's copy begins with a byte order mark.
    pub(crate) fn new(text: &'a str, encoding: Encoding, bom: bool) -> Self {
        Self::with_starts(text, line_starts(text), Arc::default(), encoding, bom)
    }

    /// The lines of `text`, whose starts [`line_starts`] gave, with the character counts kept
    /// for it (shared by every `Lines` of the same text).
    pub(crate) fn with_starts(
        text: &'a str,
        starts: Arc<[usize]>,
        columns: Arc<Columns>,
        encoding: Encoding,
        bom: bool,
    ) -> Self {
        debug_assert!(starts.last().is_some_and(|&s| s <= text.len()));
        let lead = if bom {
            encoding.width(crate::syntax::source::BOM)
        } else {
            0
        };
        Self {
            text,
            starts,
            encoding,
            lead,
            columns,
        }
    }

    /// The position of a byte offset (clamped to the text and to a character boundary).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let units = match self.encoding {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => {
                let (chars, astral) = self.columns.between(self.text, start, offset);
                chars + astral
            }
            Encoding::Utf32 => self.columns.between(self.text, start, offset).0,
        };
        let units = u32::try_from(units).unwrap_or(u32::MAX);
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: units + if line == 0 { self.lead } else { 0 },
        }
    }

    /// The range of a byte span.
    pub(crate) fn range(&self, start: usize, end: usize) -> Range {
        Range {
            start: self.position(start),
            end: self.position(end),
        }
    }

    /// The byte offset of a position. A line past the end means the end of the text; a column
    /// past the end of its line, the end of the line; a column inside a character (half of a
    /// surrogate pair), that character's start.
    pub(crate) fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| {
                let line = &self.text[start..next];
                next - (line.len() - line.trim_end_matches(['\n', '\r']).len())
            });
        let mut wanted = position.character;
        if position.line == 0 {
            wanted = wanted.saturating_sub(self.lead);
        }
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            let next = units + self.encoding.width(c);
            if next > wanted {
                return start + i;
            }
            units = next;
        }
        end
    }
}

/// Where the lines of `text` start (byte offsets): a line ends at `\n`, `\r\n` or a lone `\r`.
pub(crate) fn line_starts(text: &str) -> Arc<[usize]> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        let ends_line = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends_line {
            starts.push(i + 1);
        }
    }
    starts.into()
}

/// The file a `file://` URI names; `None` for any other scheme (`untitled:`) or a URI whose
/// escapes do not decode.
pub(crate) fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let scheme = text.get(..7)?;
    if !scheme.eq_ignore_ascii_case("file://") {
        return None;
    }
    let rest = &text[7..];
    let (authority, path) = rest.split_at(rest.find('/')?);
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let decoded = crate::syntax::uri::percent_decode(path)?;
    if cfg!(windows) {
        // `file:///C:/x` -> `C:\x`; `file://server/share/x` -> `\\server\share\x`.
        let local = decoded
            .strip_prefix('/')
            .filter(|p| p.as_bytes().get(1) == Some(&b':'))
            .unwrap_or(&decoded)
            .replace('/', "\\");
        if authority.is_empty() || authority.eq_ignore_ascii_case("localhost") {
            return Some(PathBuf::from(local));
        }
        return Some(PathBuf::from(format!("\\\\{authority}{local}")));
    }
    (authority.is_empty() || authority.eq_ignore_ascii_case("localhost"))
        .then(|| PathBuf::from(decoded))
}

/// The `file://` URI of a path (absolute against the working folder, percent-encoded as
/// [`crate::syntax::uri::file_uri`] writes it).
pub(crate) fn uri_of(path: &Path) -> Option<Uri> {
    crate::syntax::uri::file_uri(path).parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn columns_count_the_negotiated_units() {
        // `é` is 2 bytes, 1 UTF-16 unit; `🌦` is 4 bytes, 2 UTF-16 units (a surrogate pair).
        let text = "{\n \"é🌦\": \"x\"}";
        let x = text.find("\"x\"").unwrap();
        let cases = [
            (Encoding::Utf8, 11),
            (Encoding::Utf16, 8),
            (Encoding::Utf32, 7),
        ];
        for (encoding, column) in cases {
            let lines = Lines::new(text, encoding, false);
            assert_eq!(lines.position(x), pos(1, column), "{encoding:?}");
            assert_eq!(lines.offset(pos(1, column)), x, "{encoding:?}");
        }
    }

    #[test]
    fn offsets_inside_a_surrogate_pair_or_past_a_line_are_clamped() {
        let text = "a🌦b\r\nc\rd";
        let lines = Lines::new(text, Encoding::Utf16, false);
        assert_eq!(lines.offset(pos(0, 2)), 1, "inside the pair: its start");
        assert_eq!(lines.offset(pos(0, 3)), 5);
        assert_eq!(
            lines.offset(pos(0, 99)),
            6,
            "the end of the line, before `\\r\\n`"
        );
        assert_eq!(lines.position(text.find('c').unwrap()), pos(1, 0));
        assert_eq!(
            lines.position(text.find('d').unwrap()),
            pos(2, 0),
            "a lone `\\r`"
        );
        assert_eq!(lines.offset(pos(9, 0)), text.len());
    }

    #[test]
    fn a_byte_order_mark_the_client_holds_shifts_the_first_line() {
        let lines = Lines::new("{\"a\": 1}\n{}", Encoding::Utf16, true);
        assert_eq!(lines.position(1), pos(0, 2));
        assert_eq!(lines.offset(pos(0, 2)), 1);
        assert_eq!(lines.position(10), pos(1, 1));
    }

    #[cfg(unix)]
    #[test]
    fn file_uris_round_trip() {
        let uri: Uri = "file:///tmp/a%20b/t%C3%A9.json".parse().unwrap();
        assert_eq!(path_of(&uri).unwrap(), Path::new("/tmp/a b/té.json"));
        assert_eq!(
            uri_of(Path::new("/tmp/a b/té.json")).unwrap().as_str(),
            uri.as_str()
        );
        let untitled: Uri = "untitled:Untitled-1".parse().unwrap();
        assert!(path_of(&untitled).is_none());
    }

    #[test]
    fn negotiation_prefers_utf8_then_the_clients_order() {
        use PositionEncodingKind as K;
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF8])),
            Encoding::Utf8
        );
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF32, K::UTF16])),
            Encoding::Utf32
        );
        assert_eq!(
            Encoding::negotiate(Some(&[K::new("utf-7")])),
            Encoding::Utf16
        );
    }
}

//! Reading a capture: JSON Lines (one JSON-RPC message per line, as proxies and inspectors log
//! them) or one JSON array of messages; and the explicit form of the design document (see
//! [`super::decision`]), JSON Lines of
//! `{"record": {...}, "body": {...}}`. A JSON-RPC batch (an array of messages, allowed on the wire
//! up to 2025-03-26) stands for its messages, all at the batch's line. What each JSON value is
//! (a message, a logger's wrapper around one, a record, or none of these) is [`super::input`]'s
//! business.

use crate::syntax::document::first_too_deep;
use crate::syntax::message::{parse_message, MessageError};
use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde_json::Value;
use std::io::{BufRead, Read};

/// The longest line (or element of a capture that is one JSON array) read: a longer one is
/// reported and skipped, never held.
pub const MAX_LINE: usize = 64 << 20;

/// The most of a capture on standard input that `audit -` copies to its temporary file (a
/// file is streamed, whatever its size): what `record` writes at most unless told otherwise.
pub const MAX_STDIN: u64 = 1 << 30;

/// The most of a capture read whole, for the output formats that place findings in its text
/// (`concise`, `github`, `sarif`, `junit`): as much as `check` reads of a file.
pub const MAX_WHOLE: u64 = crate::syntax::read::MAX_FILE;

/// One message of a capture, with where it was.
#[derive(Debug, Clone)]
pub struct Message {
    /// 1-based line (JSON Lines) or position in the array.
    pub line: usize,
    /// The message as parsed.
    pub value: Value,
}

/// A line that is not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line of the error in the capture's text.
    pub line: usize,
    /// 1-based column of the error, in bytes (as `serde_json` counts it).
    pub column: usize,
    /// What `serde_json` found wrong there.
    pub message: String,
}

/// A capture's text, read: its JSON values and what is not JSON.
#[derive(Debug, Default)]
pub struct Capture {
    /// Every JSON value, in order (a batch stands for its elements). What each one is, a
    /// JSON-RPC message or not, is for [`super::input`] to say.
    pub messages: Vec<Message>,
    /// The lines that are not JSON, skipped.
    pub errors: Vec<InputError>,
    /// Whether the capture is one JSON array (positions are then places in the array).
    pub array: bool,
}

/// How a capture read by [`stream`] is laid out, and what in it is not JSON.
#[derive(Debug, Default)]
pub struct Layout {
    /// The lines that are not JSON (not UTF-8, nested too deep, too long), skipped.
    pub errors: Vec<InputError>,
    /// Whether the capture is one JSON array (positions are then places in the array).
    pub array: bool,
}

impl Layout {
    /// A capture that is one JSON array that breaks: none of its values count.
    #[must_use]
    pub fn broken_array(&self) -> bool {
        self.array && !self.errors.is_empty()
    }
}

/// Splits a capture into JSON values; bad lines are reported and skipped.
#[must_use]
pub fn read(text: &str) -> Capture {
    let mut messages = Vec::new();
    let layout = stream(text.as_bytes(), &mut |m| messages.push(m)).unwrap_or_default();
    if layout.broken_array() {
        messages.clear();
    }
    Capture {
        messages,
        errors: layout.errors,
        array: layout.array,
    }
}

/// Reads a capture value by value, handing each to `visit` (a batch stands for its messages):
/// JSON Lines a line at a time, one JSON array an element at a time, no line or element longer
/// than [`MAX_LINE`] held. In a JSON array that breaks, the values before the break have been
/// visited: [`Layout::broken_array`] says they do not count.
///
/// # Errors
/// When the capture cannot be read.
pub fn stream(mut reader: impl BufRead, visit: &mut dyn FnMut(Message)) -> std::io::Result<Layout> {
    // The first line that is not blank decides: `[` opens one JSON array, unless that line is
    // JSON on its own and more follows (JSON Lines whose first line is a batch).
    let mut head: Vec<Line> = Vec::new();
    let mut number = 0;
    let first = loop {
        let Some(line) = next_line(&mut reader, number == 0)? else {
            break None;
        };
        number += 1;
        let blank = line.text().is_some_and(|t| t.trim().is_empty());
        head.push(line);
        if !blank {
            break head.last();
        }
    };
    let opens_array = first
        .and_then(Line::text)
        .is_some_and(|t| t.trim_start().starts_with('['));
    if opens_array {
        let whole_line = first
            .and_then(Line::text)
            .is_some_and(|t| serde_json::from_str::<Value>(t).is_ok());
        let mut rest = Vec::new();
        let more = whole_line && {
            // What follows the first line, up to its first text that is not blank.
            loop {
                match next_line(&mut reader, false)? {
                    None => break false,
                    Some(line) => {
                        let blank = line.text().is_some_and(|t| t.trim().is_empty());
                        rest.push(line);
                        if !blank {
                            break true;
                        }
                    }
                }
            }
        };
        if !more {
            let mut bytes = Vec::new();
            for line in head.into_iter().chain(rest) {
                bytes.extend_from_slice(line.bytes());
                bytes.push(b'\n');
            }
            return Ok(Layout {
                errors: array(std::io::Cursor::new(bytes).chain(reader), visit),
                array: true,
            });
        }
        head.extend(rest);
    }
    let mut errors = Vec::new();
    let mut number = 0;
    let mut each = |line: Line, number: usize, errors: &mut Vec<InputError>| match one_line(line) {
        Ok(Some(value)) => push(visit, number, value),
        Ok(None) => {}
        Err((column, message)) => errors.push(InputError {
            line: number,
            column,
            message,
        }),
    };
    for line in head {
        number += 1;
        each(line, number, &mut errors);
    }
    while let Some(line) = next_line(&mut reader, number == 0)? {
        number += 1;
        each(line, number, &mut errors);
    }
    Ok(Layout {
        errors,
        array: false,
    })
}

/// A line of the capture, without its line ending.
enum Line {
    Bytes(Vec<u8>),
    /// Longer than [`MAX_LINE`]: not kept.
    TooLong,
}

impl Line {
    fn bytes(&self) -> &[u8] {
        match self {
            Line::Bytes(b) => b,
            Line::TooLong => &[],
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Line::Bytes(b) => std::str::from_utf8(b).ok(),
            Line::TooLong => None,
        }
    }
}

/// The next line, at most [`MAX_LINE`] bytes of it kept; the first one without its byte order
/// mark.
fn next_line(reader: &mut impl BufRead, first: bool) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, ends) = match memchr(buffer) {
            Some(at) => (&buffer[..at], at + 1),
            None => (buffer, buffer.len()),
        };
        let done = ends > chunk.len();
        if line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line = Vec::new();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        reader.consume(ends);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if first && line.starts_with(b"\xEF\xBB\xBF") {
        line.drain(..3);
    }
    Ok(Some(Line::Bytes(line)))
}

fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// One line of JSON Lines: its value, `None` when blank, or the column and what is wrong.
fn one_line(line: Line) -> Result<Option<Value>, (usize, String)> {
    let bytes = match line {
        Line::TooLong => {
            return Err((1, format!("the line is longer than {} MiB", MAX_LINE >> 20)));
        }
        Line::Bytes(bytes) => bytes,
    };
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            return Err((
                at + 1,
                format!(
                    "byte 0x{:02X} is not UTF-8 (a capture is UTF-8 text)",
                    bytes[at]
                ),
            ));
        }
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    match parse_message(text) {
        Ok(value) => Ok(Some(value)),
        Err(MessageError::TooDeep) => Err((
            first_too_deep(text).map_or(1, |at| at + 1),
            MessageError::TooDeep.to_string(),
        )),
        Err(MessageError::NotJson(e)) => Err((e.column(), e.to_string())),
    }
}

/// Reads a capture that is one JSON array, an element at a time: the error where it breaks.
fn array(reader: impl Read, visit: &mut dyn FnMut(Message)) -> Vec<InputError> {
    struct Elements<'v>(&'v mut dyn FnMut(Message));
    impl<'de> Visitor<'de> for Elements<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut position = 0;
            while let Some(value) = seq.next_element::<Value>()? {
                position += 1;
                push(self.0, position, value);
            }
            Ok(())
        }
    }
    impl<'de> DeserializeSeed<'de> for Elements<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_seq(self)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_reader(reader);
    let read = Elements(visit)
        .deserialize(&mut deserializer)
        .and_then(|()| deserializer.end());
    match read {
        Ok(()) => Vec::new(),
        Err(e) => vec![InputError {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        }],
    }
}

/// Hands on a message, or each message of a batch, found at `line`.
fn push(visit: &mut dyn FnMut(Message), line: usize, value: Value) {
    match value {
        Value::Array(batch) => {
            for value in batch {
                visit(Message { line, value });
            }
        }
        value => visit(Message { line, value }),
    }
}

/// Whether a message is in the explicit form of the design document: an object with a
/// `record` object and a `body`.
#[must_use]
pub fn is_explicit_record(value: &Value) -> bool {
    value.get("record").is_some_and(Value::is_object) && value.get("body").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> (Vec<Message>, Vec<InputError>) {
        let c = read(text);
        (c.messages, c.errors)
    }

    #[test]
    fn lines_and_arrays() {
        let (m, e) = split("{\"a\": 1}\n\nnot json\n{\"b\": 2}\n");
        assert_eq!(m.len(), 2);
        assert_eq!(m[1].line, 4);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 3);
        let (m, e) = split("[{\"a\": 1}, {\"b\": 2}]");
        assert_eq!((m.len(), e.len()), (2, 0));
        let (m, e) = split("[{\"a\": 1},\n oops]");
        assert_eq!((m.len(), e[0].line), (0, 2));
    }

    #[test]
    fn batches_stand_for_their_messages() {
        // JSON Lines that open with a batch, then a batch of responses, then a single message.
        let (m, e) = split("[{\"id\": 1}, {\"id\": 2}]\n[{\"id\": 2}, {\"id\": 1}]\n{\"id\": 3}\n");
        assert!(e.is_empty());
        let lines: Vec<(usize, Value)> =
            m.iter().map(|m| (m.line, m.value["id"].clone())).collect();
        assert_eq!(
            lines,
            [
                (1, 1.into()),
                (1, 2.into()),
                (2, 2.into()),
                (2, 1.into()),
                (3, 3.into())
            ]
        );
        // One JSON array of messages, one of which is a batch.
        let (m, e) = split("[{\"id\": 1}, [{\"id\": 2}, {\"id\": 3}]]");
        assert_eq!((m.len(), m[2].line, e.len()), (3, 2, 0));
        // A pretty-printed array that breaks is still one error, not a line per line.
        let (m, e) = split("[\n  {\"id\": 1},\n  oops\n]\n");
        assert_eq!((m.len(), e.len(), e[0].line), (0, 1, 3));
    }
}

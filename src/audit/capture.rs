//! Reading a capture: JSON Lines (one JSON-RPC message per line, as proxies and inspectors log
//! them) or one JSON array of messages; and the explicit form of the design document (see
//! [`super::decision`]), JSON Lines of
//! `{"record": {...}, "body": {...}}`. A JSON-RPC batch (an array of messages, allowed on the wire
//! up to 2025-03-26) stands for its messages, all at the batch's line. What each JSON value is
//! (a message, a logger's wrapper around one, a record, or none of these) is [`super::input`]'s
//! business.

use serde_json::Value;

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

/// Splits a capture into JSON values; bad lines are reported and skipped.
#[must_use]
pub fn read(text: &str) -> Capture {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('[') {
        match serde_json::from_str::<Vec<Value>>(text) {
            Ok(values) => {
                let mut messages = Vec::new();
                for (i, value) in values.into_iter().enumerate() {
                    push(&mut messages, i + 1, value);
                }
                return Capture {
                    messages,
                    errors: Vec::new(),
                    array: true,
                };
            }
            // JSON Lines whose first line is a batch: read line by line below.
            Err(_) if first_line_is_json(text) => {}
            Err(e) => {
                return Capture {
                    errors: vec![InputError {
                        line: e.line(),
                        column: e.column(),
                        message: e.to_string(),
                    }],
                    ..Capture::default()
                }
            }
        }
    }
    let mut messages = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value) => push(&mut messages, i + 1, value),
            Err(e) => errors.push(InputError {
                line: i + 1,
                column: e.column(),
                message: e.to_string(),
            }),
        }
    }
    Capture {
        messages,
        errors,
        array: false,
    }
}

/// Adds a message, or each message of a batch, found at `line`.
fn push(messages: &mut Vec<Message>, line: usize, value: Value) {
    match value {
        Value::Array(batch) => {
            messages.extend(batch.into_iter().map(|value| Message { line, value }));
        }
        value => messages.push(Message { line, value }),
    }
}

fn first_line_is_json(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| serde_json::from_str::<Value>(l).is_ok())
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

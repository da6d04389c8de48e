//! Reading a capture: JSON Lines (one JSON-RPC message per line, as proxies and inspectors log
//! them) or one JSON array of messages; and the seed's explicit form, JSON Lines of
//! `{"record": {...}, "body": {...}}`.

use serde_json::Value;

/// One message of a capture, with where it was.
#[derive(Debug, Clone)]
pub struct Message {
    /// 1-based line (JSON Lines) or position in the array.
    pub line: usize,
    pub value: Value,
}

/// A line that is not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Splits a capture into messages; bad lines are reported and skipped.
#[must_use]
pub fn read(text: &str) -> (Vec<Message>, Vec<InputError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('[') {
        return match serde_json::from_str::<Vec<Value>>(text) {
            Ok(values) => (
                values
                    .into_iter()
                    .enumerate()
                    .map(|(i, value)| Message { line: i + 1, value })
                    .collect(),
                Vec::new(),
            ),
            Err(e) => (
                Vec::new(),
                vec![InputError {
                    line: e.line(),
                    column: e.column(),
                    message: e.to_string(),
                }],
            ),
        };
    }
    let mut messages = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value) => messages.push(Message { line: i + 1, value }),
            Err(e) => errors.push(InputError {
                line: i + 1,
                column: e.column(),
                message: e.to_string(),
            }),
        }
    }
    (messages, errors)
}

/// Whether a message is in the seed's explicit form.
#[must_use]
pub fn is_explicit_record(value: &Value) -> bool {
    value.get("record").is_some_and(Value::is_object) && value.get("body").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_arrays() {
        let (m, e) = read("{\"a\": 1}\n\nnot json\n{\"b\": 2}\n");
        assert_eq!(m.len(), 2);
        assert_eq!(m[1].line, 4);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 3);
        let (m, e) = read("[{\"a\": 1}, {\"b\": 2}]");
        assert_eq!((m.len(), e.len()), (2, 0));
        let (m, e) = read("[{\"a\": 1},\n oops]");
        assert_eq!((m.len(), e[0].line), (0, 2));
    }
}

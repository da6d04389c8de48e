//! What a capture holds, and whether it can be audited at all.
//!
//! Each JSON value [`super::capture::read`] finds is one of:
//! - a JSON-RPC message: an object with `"jsonrpc": "2.0"` and a string `method` (a request or a
//!   notification) or an `id` with a `result` or an `error` (a response). A logger that drops
//!   `jsonrpc` is understood too, as long as the object has JSON-RPC members only;
//! - a logger's wrapper around messages: an object that is no message itself and whose `message`
//!   or `data` member (exactly one of the two) is a message or a batch of messages. Whatever the
//!   logger puts beside it (`direction`, `timestamp`, `time`, `ts`, ...) is ignored: the order of
//!   the capture is the order of the traffic;
//! - an audit record of the explicit form, `{"record", "body"}` (a capture holding any is read as
//!   records);
//! - anything else: skipped, counted, and described in words ([`describe`]).
//!
//! A capture cannot be audited ([`Input::unusable`]) when it is empty, when nothing in it is a
//! JSON-RPC message or a record, or when none of its messages is a `tools/call` request.

use super::capture::{is_explicit_record, InputError, Message};
use serde_json::Value;
use std::collections::BTreeSet;

/// The members of a JSON-RPC 2.0 message.
const RPC_KEYS: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];

/// The members a logger's wrapper may hold its message under.
pub const PAYLOAD_KEYS: [&str; 2] = ["message", "data"];

/// A JSON value of the capture that is neither a JSON-RPC message (bare or wrapped) nor an audit
/// record: skipped and counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line of the value (its position, in a capture that is one JSON array).
    pub line: usize,
    /// What it is: `object`, `array`, `string`, `number`, `boolean`, `null`, or `message` (a
    /// JSON-RPC message in a capture of audit records).
    pub kind: &'static str,
    /// An object's keys, sorted (empty for the other kinds).
    pub keys: Vec<String>,
}

impl Skipped {
    fn of(line: usize, value: &Value, records: bool) -> Skipped {
        let kind = match value {
            Value::Object(_) if records && is_message(value) => "message",
            Value::Object(_) => "object",
            Value::Array(_) => "array",
            Value::String(_) => "string",
            Value::Number(_) => "number",
            Value::Bool(_) => "boolean",
            Value::Null => "null",
        };
        let mut keys: Vec<String> = value
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        keys.sort();
        Skipped { line, kind, keys }
    }
}

/// How a capture is laid out.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    /// One JSON array (positions are places in it), not JSON Lines.
    pub array: bool,
    /// Audit records of the explicit form, not JSON-RPC traffic.
    pub records: bool,
}

impl Form {
    /// What a position is called, singular and plural.
    fn place(self) -> (&'static str, &'static str) {
        if self.array {
            ("element", "elements")
        } else {
            ("line", "lines")
        }
    }
}

/// A capture, sorted out a value at a time ([`Input::take`]): what is skipped, and enough of the
/// messages to say whether the capture can be audited ([`Input::unusable`]); the messages
/// themselves go on.
#[derive(Debug, Default)]
pub struct Input {
    /// The JSON values that are neither.
    pub skipped: Vec<Skipped>,
    /// The lines that are not JSON.
    pub errors: Vec<InputError>,
    /// How the capture is laid out.
    pub form: Form,
    /// How many JSON-RPC messages (out of their wrappers) and explicit records were taken.
    messages: usize,
    records: usize,
    /// Whether one of the messages is a `tools/call` request.
    calls: bool,
    /// The first methods of the messages, in order, no more than [`list`] shows.
    methods: BTreeSet<String>,
}

/// How many methods [`Input::unusable`] names (one more shows that there are more).
const METHODS_SHOWN: usize = 10;

/// Whether `value` is a JSON-RPC message (see the module's documentation).
#[must_use]
pub fn is_message(value: &Value) -> bool {
    let Some(o) = value.as_object() else {
        return false;
    };
    let shaped = o.get("method").is_some_and(Value::is_string)
        || (o.contains_key("id") && (o.contains_key("result") || o.contains_key("error")));
    shaped
        && match o.get("jsonrpc") {
            Some(version) => version == "2.0",
            None => o.keys().all(|k| RPC_KEYS.contains(&k.as_str())),
        }
}

fn holds_messages(payload: &Value) -> bool {
    is_message(payload)
        || payload
            .as_array()
            .is_some_and(|batch| !batch.is_empty() && batch.iter().all(is_message))
}

/// The messages a logger's wrapper holds, or the value back when it is no wrapper.
fn unwrap(value: Value) -> Result<Vec<Value>, Value> {
    let Value::Object(mut o) = value else {
        return Err(value);
    };
    let keys: Vec<&str> = PAYLOAD_KEYS
        .into_iter()
        .filter(|k| o.get(*k).is_some_and(holds_messages))
        .collect();
    let payload = match keys.as_slice() {
        [key] => o.remove(*key),
        _ => None,
    };
    match payload {
        Some(Value::Array(batch)) => Ok(batch),
        Some(message) => Ok(vec![message]),
        None => Err(Value::Object(o)),
    }
}

/// A value of the capture as the messages it stands for: itself when it is a JSON-RPC message,
/// the messages a logger's wrapper holds, or the value back when it is neither.
///
/// # Errors
/// The value, when it is no message and no wrapper around messages.
pub fn messages_of(value: Value) -> Result<Vec<Value>, Value> {
    if is_message(&value) {
        Ok(vec![value])
    } else {
        unwrap(value)
    }
}

impl Input {
    /// An input of the given form, with the lines of it that are not JSON.
    #[must_use]
    pub fn new(form: Form, errors: Vec<InputError>) -> Input {
        Input {
            errors,
            form,
            ..Input::default()
        }
    }

    /// Sorts one value of the capture: each message it stands for (or, in a capture of
    /// records, the record) goes to `to`, anything else is skipped.
    pub fn take(&mut self, Message { line, value }: Message, to: &mut dyn FnMut(Message)) {
        if self.form.records {
            if is_explicit_record(&value) {
                self.records += 1;
                to(Message { line, value });
            } else {
                self.skipped.push(Skipped::of(line, &value, true));
            }
            return;
        }
        match messages_of(value) {
            Ok(messages) => {
                for value in messages {
                    self.messages += 1;
                    let method = value.get("method").and_then(Value::as_str);
                    self.calls |= method == Some("tools/call") && value.get("id").is_some();
                    if let Some(method) = method {
                        if !self.methods.contains(method) {
                            self.methods.insert(method.to_owned());
                            if self.methods.len() > METHODS_SHOWN + 1 {
                                self.methods.pop_last();
                            }
                        }
                    }
                    to(Message { line, value });
                }
            }
            Err(value) => self.skipped.push(Skipped::of(line, &value, false)),
        }
    }

    /// Why the capture cannot be audited, in plain words; `None` when it can.
    #[must_use]
    pub fn unusable(&self) -> Option<String> {
        let not_json: Vec<usize> = self.errors.iter().map(|e| e.line).collect();
        if self.messages == 0 && self.records == 0 {
            if self.skipped.is_empty() && not_json.is_empty() {
                return Some(if self.form.array {
                    "the capture is an empty JSON array".to_owned()
                } else {
                    "the capture is empty".to_owned()
                });
            }
            let places: BTreeSet<usize> = self
                .skipped
                .iter()
                .map(|s| s.line)
                .chain(not_json.iter().copied())
                .collect();
            let (one, many) = if self.form.array && not_json.is_empty() {
                self.form.place()
            } else {
                ("line", "lines")
            };
            return Some(format!(
                "no JSON-RPC message among {} {}: {}",
                places.len(),
                if places.len() == 1 { one } else { many },
                describe(&self.skipped, &not_json, self.form)
            ));
        }
        if self.form.records || self.calls {
            return None;
        }
        let methods = &self.methods;
        let n = self.messages;
        let mut why = format!(
            "no tools/call request among {n} JSON-RPC message{} ({})",
            if n == 1 { "" } else { "s" },
            if methods.is_empty() {
                "responses only".to_owned()
            } else {
                format!("methods: {}", list(methods.iter(), METHODS_SHOWN))
            }
        );
        if !self.skipped.is_empty() || !not_json.is_empty() {
            why.push_str("; besides them, ");
            why.push_str(&describe(&self.skipped, &not_json, self.form));
        }
        Some(why)
    }
}

/// The kinds of skipped values, in the order [`describe`] tells them, with their names in
/// words: in a capture of JSON-RPC traffic, and in one of audit records.
const KINDS: [(&str, [&str; 2], [&str; 2]); 7] = [
    (
        "object",
        [
            "JSON object that is not a JSON-RPC message",
            "JSON objects that are not JSON-RPC messages",
        ],
        [
            "JSON object that is not an audit record",
            "JSON objects that are not audit records",
        ],
    ),
    (
        "message",
        ["JSON-RPC message", "JSON-RPC messages"],
        [
            "JSON-RPC message among audit records",
            "JSON-RPC messages among audit records",
        ],
    ),
    (
        "array",
        ["JSON array", "JSON arrays"],
        ["JSON array", "JSON arrays"],
    ),
    (
        "string",
        ["JSON string", "JSON strings"],
        ["JSON string", "JSON strings"],
    ),
    (
        "number",
        ["JSON number", "JSON numbers"],
        ["JSON number", "JSON numbers"],
    ),
    (
        "boolean",
        ["JSON boolean", "JSON booleans"],
        ["JSON boolean", "JSON booleans"],
    ),
    (
        "null",
        ["JSON null", "JSON nulls"],
        ["JSON null", "JSON nulls"],
    ),
];

/// The skipped values and the lines that are not JSON, in words: `2 JSON objects that are not
/// JSON-RPC messages (keys: level, msg, time; lines 1, 2), 1 line that is not JSON (line 3)`.
#[must_use]
pub fn describe(skipped: &[Skipped], not_json: &[usize], form: Form) -> String {
    let mut parts = Vec::new();
    for (kind, traffic, records) in KINDS {
        let these: Vec<&Skipped> = skipped.iter().filter(|s| s.kind == kind).collect();
        if these.is_empty() {
            continue;
        }
        let [one, many] = if form.records { records } else { traffic };
        let mut details = Vec::new();
        let keys: BTreeSet<&str> = these
            .iter()
            .flat_map(|s| s.keys.iter().map(String::as_str))
            .collect();
        if kind == "object" && !keys.is_empty() {
            details.push(format!("keys: {}", list(keys.iter(), 8)));
        }
        details.push(places(these.iter().map(|s| s.line), form.place()));
        parts.push(format!(
            "{} {} ({})",
            these.len(),
            if these.len() == 1 { one } else { many },
            details.join("; ")
        ));
    }
    if !not_json.is_empty() {
        parts.push(format!(
            "{} {} ({})",
            not_json.len(),
            if not_json.len() == 1 {
                "line that is not JSON"
            } else {
                "lines that are not JSON"
            },
            places(not_json.iter().copied(), ("line", "lines"))
        ));
    }
    parts.join(", ")
}

/// How many distinct places (lines, or elements of an array) the skipped values are at.
#[must_use]
pub fn skipped_places(skipped: &[Skipped], form: Form) -> String {
    let n = skipped
        .iter()
        .map(|s| s.line)
        .collect::<BTreeSet<_>>()
        .len();
    let (one, many) = form.place();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `lines 1, 2, 3, 4, 5, ...`: where, the first five places.
fn places(at: impl Iterator<Item = usize>, (one, many): (&str, &str)) -> String {
    let at: BTreeSet<usize> = at.collect();
    format!(
        "{} {}",
        if at.len() == 1 { one } else { many },
        list(at.iter(), 5)
    )
}

/// `a, b, c, ...`: the first `max` items.
fn list<T: ToString>(items: impl ExactSizeIterator<Item = T>, max: usize) -> String {
    let more = items.len() > max;
    let mut words: Vec<String> = items.take(max).map(|i| i.to_string()).collect();
    if more {
        words.push("...".to_owned());
    }
    words.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_a_message_is() {
        assert!(is_message(&json!({"jsonrpc": "2.0", "method": "ping"})));
        assert!(is_message(
            &json!({"jsonrpc": "2.0", "id": 1, "result": {}})
        ));
        assert!(is_message(
            &json!({"jsonrpc": "2.0", "id": null, "error": {"code": 1, "message": "x"}})
        ));
        // A logger that drops `jsonrpc`, and one that adds its own keys beside it.
        assert!(is_message(
            &json!({"id": 1, "method": "tools/call", "params": {}})
        ));
        assert!(is_message(
            &json!({"jsonrpc": "2.0", "id": 1, "result": {}, "direction": "recv"})
        ));
        // Another logger's shape, an HTTP access log, another JSON-RPC version, a bare id.
        assert!(!is_message(
            &json!({"level": "info", "msg": "hi", "time": 1})
        ));
        assert!(!is_message(
            &json!({"method": "POST", "url": "/mcp", "id": "r1"})
        ));
        assert!(!is_message(
            &json!({"jsonrpc": "1.0", "id": 1, "result": 2})
        ));
        assert!(!is_message(&json!({"jsonrpc": "2.0", "id": 1})));
        assert!(!is_message(&json!([{"jsonrpc": "2.0", "method": "ping"}])));
    }
}

//! Auditing a capture as a stream, in two passes over it, so that what is held is what pairing
//! needs (the requests still open, the tools' listings, the compiled validators) and the calls
//! decided, never the messages:
//! 1. the survey: whether the capture holds audit records, every tool that a `tools/list` in it
//!    declares (a call is decided against the last listing of its tool, wherever it is), and
//!    the lines that are not JSON;
//! 2. the audit: values are sorted, calls paired with their responses and each one decided as
//!    its response goes by.

use super::capture::{is_explicit_record, stream, Layout, Message};
use super::input::{messages_of, Form, Input};
use super::pair::{tools_of, Exchange, Pairing, Tool};
use super::{judge, Audit, Options, Validators};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::BufRead;

/// Opens the capture, from its start, for each pass.
pub type Open<'a> = dyn FnMut() -> std::io::Result<Box<dyn BufRead + 'a>> + 'a;

/// Audits the capture `open` reads (see the module's documentation).
///
/// # Errors
/// When the capture cannot be read.
pub fn audit_stream(open: &mut Open<'_>, options: &Options) -> std::io::Result<Audit> {
    let mut given: HashMap<String, Tool> = HashMap::new();
    for list in &options.tools {
        tools_of(list, &mut given);
    }
    let Survey {
        records,
        listed,
        layout,
    } = survey(open()?)?;
    // Explicit records are decided against the `--tools` documents only.
    let mut last = given.clone();
    if !records {
        last.extend(listed);
    }
    // The audit.
    let mut out = Audit::default();
    let mut decider = Decider {
        tools: &last,
        records,
        schemas: HashMap::new(),
        validators: HashMap::new(),
    };
    let mut pairing = Pairing::default();
    let mut known = given;
    let mut records_seen = 0;
    let input = sort(open, records, layout, &mut |m| {
        let exchange = if records {
            records_seen += 1;
            Some(record_exchange(m, records_seen, options))
        } else {
            pairing.message(&m, &mut known, &mut out, options)
        };
        if let Some(exchange) = exchange {
            decider.decide(exchange, &mut out);
        }
    })?;
    pairing.finish(&mut out);
    let unusable = input.unusable();
    if unusable.is_some() {
        out = Audit::default();
    }
    out.unusable = unusable;
    out.skipped = input.skipped;
    out.form = input.form;
    out.input_errors = input.errors;
    Ok(out)
}

/// What the first pass finds in a capture.
struct Survey {
    /// Whether it holds audit records of the explicit form.
    records: bool,
    /// Every tool a `tools/list` response in it declares, at its last listing.
    listed: HashMap<String, Tool>,
    /// How it is laid out, and its lines that are not JSON.
    layout: Layout,
}

/// The first pass over a capture.
fn survey(reader: impl BufRead) -> std::io::Result<Survey> {
    let mut records = false;
    let mut listed = HashMap::new();
    let layout = stream(reader, &mut |m| {
        records |= is_explicit_record(&m.value);
        for v in messages_of(m.value).unwrap_or_default() {
            if v.get("method").is_none() && v.get("id").is_some() {
                if let Some(result) = v.get("result") {
                    if result.get("tools").is_some_and(Value::is_array) {
                        tools_of(result, &mut listed);
                    }
                }
            }
        }
    })?;
    Ok(Survey {
        records,
        listed,
        layout,
    })
}

/// The second pass's sorting: each message of the capture (out of its wrapper) or, in a capture
/// of records, each record goes to `to`; what is skipped is in the input returned. A JSON array
/// that breaks is not read again: none of its values count.
fn sort(
    open: &mut Open<'_>,
    records: bool,
    layout: Layout,
    to: &mut dyn FnMut(Message),
) -> std::io::Result<Input> {
    let broken = layout.broken_array();
    let mut input = Input::new(
        Form {
            array: layout.array,
            records,
        },
        layout.errors,
    );
    if !broken {
        stream(open()?, &mut |m| input.take(m, to))?;
    }
    Ok(input)
}

/// The exchange of the `n`th explicit record (`{"record", "body"}`), with `--protocol` filled
/// in where the record gives none.
fn record_exchange(m: Message, n: usize, options: &Options) -> Exchange {
    let Message { line, value } = m;
    let mut record = value["record"].clone();
    if let (Value::Object(r), Some(p)) = (&mut record, &options.protocol) {
        r.entry("protocol").or_insert_with(|| json!(p));
    }
    Exchange {
        record,
        body: value["body"].clone(),
        id: json!(n),
        line,
    }
}

/// Decides calls against the tools' last listings, parsing and compiling each tool's schema
/// once, when a call of it is first decided.
struct Decider<'t> {
    tools: &'t HashMap<String, Tool>,
    records: bool,
    schemas: HashMap<String, Value>,
    validators: HashMap<String, Validators>,
}

impl Decider<'_> {
    fn decide(&mut self, exchange: Exchange, out: &mut Audit) {
        let tool_name = exchange
            .record
            .get("tool")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let known = tool_name.as_ref().and_then(|t| self.tools.get(t));
        if known.is_some_and(|t| t.output_schema.is_none()) {
            out.without_schema += 1;
            return;
        }
        let schema = match (known.and_then(|t| t.output_schema.as_ref()), &tool_name) {
            (Some(schema), Some(name)) => Some(
                &*self
                    .schemas
                    .entry(name.clone())
                    .or_insert_with(|| schema.value()),
            ),
            _ => None,
        };
        let call = judge(
            exchange,
            schema,
            tool_name.as_deref(),
            self.records,
            &mut self.validators,
        );
        out.calls.push(call);
    }
}

#[cfg(test)]
mod tests {
    use super::super::input::{describe, skipped_places};
    use super::*;

    /// The capture `text` sorted as the audit sorts it: the input, and the messages (or records)
    /// taken, in order.
    fn sort_all(text: &str) -> (Input, Vec<Message>) {
        let mut open = || Ok(Box::new(text.as_bytes()) as Box<dyn BufRead>);
        let Survey {
            records, layout, ..
        } = survey(text.as_bytes()).unwrap();
        let mut taken = Vec::new();
        let input = sort(&mut open, records, layout, &mut |m| taken.push(m)).unwrap();
        (input, taken)
    }

    fn sorted(text: &str) -> Input {
        sort_all(text).0
    }

    fn messages(text: &str) -> Vec<Message> {
        sort_all(text).1
    }

    #[test]
    fn wrapped_shapes_are_unwrapped() {
        let text = r#"{"message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}}
{"direction": "send", "timestamp": "2026-01-01T00:00:00Z", "message": {"jsonrpc": "2.0", "id": 2, "method": "ping"}}
{"direction": "recv", "time": 1767225600, "message": {"jsonrpc": "2.0", "id": 1, "result": {}}}
{"ts": 1.5, "data": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
{"direction": "recv", "message": [{"jsonrpc": "2.0", "id": 3, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {}}]}
{"jsonrpc": "2.0", "id": 4, "method": "tools/call"}
"#;
        let input = sorted(text);
        let got: Vec<(usize, Value)> = messages(text)
            .iter()
            .map(|m| (m.line, m.value["id"].clone()))
            .collect();
        assert_eq!(
            got,
            [
                (1, json!(1)),
                (2, json!(2)),
                (3, json!(1)),
                (4, Value::Null),
                (5, json!(3)),
                (5, json!(2)),
                (6, json!(4)),
            ]
        );
        assert!(input.skipped.is_empty() && input.unusable().is_none());
    }

    #[test]
    fn what_is_not_unwrapped() {
        // The payload is not a message; both `message` and `data` hold one; a message as a string.
        let text = r#"{"level": "info", "message": "server started", "time": 1}
{"message": {"jsonrpc": "2.0", "method": "a"}, "data": {"jsonrpc": "2.0", "method": "b"}}
{"message": "{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}"}
{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
"#;
        let input = sorted(text);
        assert_eq!(messages(text).len(), 1);
        let skipped: Vec<(usize, &str, Vec<String>)> = input
            .skipped
            .iter()
            .map(|s| (s.line, s.kind, s.keys.clone()))
            .collect();
        assert_eq!(
            skipped,
            [
                (
                    1,
                    "object",
                    vec!["level".into(), "message".into(), "time".into()]
                ),
                (2, "object", vec!["data".into(), "message".into()]),
                (3, "object", vec!["message".into()]),
            ]
        );
        assert_eq!(
            describe(&input.skipped, &[], input.form),
            "3 JSON objects that are not JSON-RPC messages (keys: data, level, message, time; \
             lines 1, 2, 3)"
        );
    }

    #[test]
    fn an_empty_capture() {
        for text in ["", "\n\n  \n", "\u{feff}"] {
            assert_eq!(
                sorted(text).unusable().as_deref(),
                Some("the capture is empty")
            );
        }
        assert_eq!(
            sorted(" [ ] ").unusable().as_deref(),
            Some("the capture is an empty JSON array")
        );
    }

    #[test]
    fn a_capture_of_something_else() {
        let text = "{\"level\":\"info\",\"msg\":\"up\",\"time\":1}\n{\"level\":\"debug\",\"msg\":\"x\",\"time\":2}\nGET /mcp 200\n";
        assert_eq!(
            sorted(text).unusable().as_deref(),
            Some(
                "no JSON-RPC message among 3 lines: 2 JSON objects that are not JSON-RPC \
                 messages (keys: level, msg, time; lines 1, 2), 1 line that is not JSON (line 3)"
            )
        );
        let text = "\"a\"\n1\n2\nnull\ntrue\n[[1]]\n";
        assert_eq!(
            sorted(text).unusable().as_deref(),
            Some(
                "no JSON-RPC message among 6 lines: 1 JSON array (line 6), 1 JSON string \
                 (line 1), 2 JSON numbers (lines 2, 3), 1 JSON boolean (line 5), 1 JSON null \
                 (line 4)"
            )
        );
        assert_eq!(
            sorted("[{\"a\": 1}, {\"b\": 2}]").unusable().as_deref(),
            Some(
                "no JSON-RPC message among 2 elements: 2 JSON objects that are not JSON-RPC \
                 messages (keys: a, b; elements 1, 2)"
            )
        );
        // A broken JSON array is one error at its line.
        assert_eq!(
            sorted("[{\"a\": 1},\n oops]").unusable().as_deref(),
            Some("no JSON-RPC message among 1 line: 1 line that is not JSON (line 2)")
        );
        // Many places are cut short.
        let many = "{\"k\": 1}\n".repeat(7);
        assert!(sorted(&many)
            .unusable()
            .unwrap()
            .ends_with("(keys: k; lines 1, 2, 3, 4, 5, ...)"));
    }

    #[test]
    fn a_capture_without_calls() {
        let text = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}
{"level":"info","msg":"done"}
"#;
        assert_eq!(
            sorted(text).unusable().as_deref(),
            Some(
                "no tools/call request among 5 JSON-RPC messages (methods: initialize, \
                 notifications/initialized, tools/list); besides them, 1 JSON object that is \
                 not a JSON-RPC message (keys: level, msg; line 6)"
            )
        );
        assert_eq!(
            sorted("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n")
                .unusable()
                .as_deref(),
            Some("no tools/call request among 1 JSON-RPC message (responses only)")
        );
        // A tools/call without an id is a notification nobody answers: no call either.
        assert!(sorted("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\"}\n")
            .unusable()
            .is_some());
    }

    #[test]
    fn a_capture_of_records() {
        let text = r#"{"record": {"tool": "t", "protocol": "2025-11-25", "metaIdTool": false}, "body": {}}
{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
{"note": "x"}
"#;
        let input = sorted(text);
        assert!(input.form.records && input.unusable().is_none());
        assert_eq!(messages(text).len(), 1);
        assert_eq!(
            describe(&input.skipped, &[], input.form),
            "1 JSON object that is not an audit record (keys: note; line 3), 1 JSON-RPC message \
             among audit records (line 2)"
        );
        assert_eq!(skipped_places(&input.skipped, input.form), "2 lines");
    }
}

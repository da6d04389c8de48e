//! `schema-lint audit`: check captured `tools/call` results against their tools' output
//! schemas, at the layer the design document's decision picks per call (see [`decision`]), and
//! count the layers apart.

pub mod ajv_formats;
pub mod capture;
pub mod decision;
pub mod diagnostics;
mod findings;
pub mod formats;
pub mod input;
mod pair;
mod schemas;
pub mod stream;
pub mod verdicts;

use crate::diagnostic::client::Client;
use crate::diagnostic::meta::RuleMeta;
use crate::diagnostic::Severity;
use capture::InputError;
use decision::{is_result_wrapper, structured_content_target, Target};
use pair::Exchange;
pub use schemas::SchemaBreak;
use schemas::{validate, validator_for, with_schema_breaks, Validators};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
pub use stream::audit_stream;

/// The `_meta` key that carries the protocol revision on stateless (2026-07-28) requests.
pub const PROTOCOL_META: &str = "io.modelcontextprotocol/protocolVersion";

/// What an audit needs besides the capture.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// `tools/list` documents to take output schemas from (required for the explicit form).
    pub tools: Vec<Value>,
    /// When given: exactly these tools are `.meta({ id })` tools.
    pub meta_id_tools: Option<Vec<String>>,
    /// The protocol of the calls whose capture gives none (`--protocol`): no `_meta` protocol
    /// on the request and no `initialize` result before it, or an explicit record without one.
    pub protocol: Option<String>,
}

/// A validation error of one call.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CallError {
    /// JSON pointer of the failing value within the validated layer (empty for the layer
    /// itself, and when the schema does not compile).
    pub instance_pointer: String,
    /// The schema keyword that failed (`required`); empty when the schema does not compile.
    pub keyword: String,
    /// What is wrong, as the validator words it.
    pub message: String,
}

/// A finding beyond the four targets (SL601-SL605).
#[derive(Debug, Clone)]
pub struct Finding {
    /// The rule found (one of `SL601` to `SL605`).
    pub rule: &'static RuleMeta,
    /// What is wrong with the call, in one sentence.
    pub message: String,
    /// For a finding about one field (SL605): its JSON pointer within the validated layer.
    pub pointer: Option<String>,
    /// For SL605: the `format` the field fails.
    pub format: Option<String>,
}

/// One audited call.
#[derive(Debug, Clone)]
pub struct Call {
    /// The request's JSON-RPC id; in the explicit form, the record's 1-based position among
    /// the capture's records.
    pub id: Value,
    /// 1-based line of the response (or explicit record) in the capture; for a capture that is
    /// one JSON array, its 1-based position there.
    pub line: usize,
    /// The audit record the decision saw (`tool`, `protocol`, `metaIdTool`).
    pub record: Value,
    /// The name of the tool called, when known.
    pub tool: Option<String>,
    /// The protocol revision of the call (`2025-11-25`), when known.
    pub protocol: Option<String>,
    /// Whether the record marks the tool as a `.meta({ id })` tool.
    pub meta_id_tool: bool,
    /// The layer the decision picked for the call's `structuredContent`.
    pub target: Target,
    /// `None` where nothing was validated.
    pub valid: Option<bool>,
    /// Why the layer failed its output schema (or why the schema could not be used).
    pub errors: Vec<CallError>,
    /// Whether the result says `"isError": true`.
    pub is_error: bool,
    /// An `isError: true` result without `structuredContent` (the decision says `missing`):
    /// counted apart, as an error result, and never a failure. The SDK clients accept it: the
    /// Python client and TS v2 validate no `isError` result, TS v1 requires `structuredContent`
    /// only of results that are not errors.
    pub error_result: bool,
    /// Why the call went to `schema`, in plain words (`None` for the other targets).
    pub reason: Option<String>,
    /// The call's findings beyond validation (`SL601` to `SL605`).
    pub findings: Vec<Finding>,
    /// Each SDK client's verdict on the result (`true`: it accepts it), in
    /// [`verdicts::CLIENTS`]' order; empty where the audit cannot tell ([`verdicts`]). A client
    /// that cannot use the output schema ([`Call::schema_breaks`]) rejects every result.
    pub clients: Vec<(Client, bool)>,
    /// The clients that cannot use the tool's output schema, and why.
    pub schema_breaks: Vec<SchemaBreak>,
}

impl Call {
    /// Whether the call fails the audit: invalid, `missing` (but for an error result) or
    /// `schema`, an error-severity finding, a client that rejects the result or cannot use the
    /// output schema, and with `deny_legacy` a `legacy_wrapper` call.
    #[must_use]
    pub fn fails(&self, deny_legacy: bool) -> bool {
        self.valid == Some(false)
            || self.clients.iter().any(|(_, accepts)| !accepts)
            || !self.schema_breaks.is_empty()
            || (matches!(self.target, Target::Missing | Target::Schema) && !self.error_result)
            || (deny_legacy && self.target == Target::LegacyWrapper)
            || self
                .findings
                .iter()
                .any(|f| f.rule.severity == Severity::Error)
    }
}

/// A `tools/call` answered with a JSON-RPC error: counted, not a schema failure.
#[derive(Debug, Clone)]
pub struct RpcError {
    /// The request's JSON-RPC id.
    pub id: Value,
    /// 1-based line of the error response in the capture.
    pub line: usize,
    /// The name of the tool called, when the request gave one.
    pub tool: Option<String>,
    /// The JSON-RPC error code, when it is an integer.
    pub code: Option<i64>,
    /// The error's message (empty when it has none).
    pub message: String,
}

/// What an audit found in a capture.
#[derive(Debug, Default)]
pub struct Audit {
    /// Every audited call, in the order of the capture's responses (or explicit records).
    pub calls: Vec<Call>,
    /// The `tools/call` requests answered with a JSON-RPC error.
    pub rpc_errors: Vec<RpcError>,
    /// The parts of the capture that are not JSON, skipped.
    pub input_errors: Vec<InputError>,
    /// Requests that never got a response.
    pub unanswered: Vec<Unanswered>,
    /// Calls to tools that `tools/list` shows without an `outputSchema`: nothing to audit.
    pub without_schema: usize,
    /// The JSON values of the capture that are neither JSON-RPC messages (bare or in a
    /// logger's wrapper) nor audit records: skipped, counted, never a failure on their own.
    pub skipped: Vec<input::Skipped>,
    /// How the capture is laid out (JSON Lines or one array; traffic or records).
    pub form: input::Form,
    /// Why the capture cannot be audited at all, in plain words (an empty capture, nothing in
    /// it that is a JSON-RPC message or a record, no `tools/call` request): an error. `None`
    /// when it can be audited.
    pub unusable: Option<String>,
}

/// A request that never got a response.
#[derive(Clone, Debug, PartialEq)]
pub struct Unanswered {
    /// Its JSON-RPC id.
    pub id: Value,
    /// Its line in the capture.
    pub line: usize,
    /// The tool it calls, when the request names one.
    pub tool: Option<String>,
    /// Why it got none, when the one who made the call knows (`audit --url`: the server's
    /// refusal, `HTTP 400 Bad Request: ...`); `None` for a capture read from a file.
    pub why: Option<String>,
}

/// How many calls went to a target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Calls (error results left out).
    pub calls: usize,
    /// Of those, the valid ones.
    pub valid: usize,
    /// Of those, the invalid ones.
    pub invalid: usize,
}

impl Audit {
    /// How many calls went to `target`, and how many of those were valid / invalid. Error
    /// results are not counted here (see [`Audit::error_results`]).
    #[must_use]
    pub fn count(&self, target: Target) -> Counts {
        let calls: Vec<&Call> = self
            .calls
            .iter()
            .filter(|c| c.target == target && !c.error_result)
            .collect();
        let valid = calls.iter().filter(|c| c.valid == Some(true)).count();
        let invalid = calls.iter().filter(|c| c.valid == Some(false)).count();
        Counts {
            calls: calls.len(),
            valid,
            invalid,
        }
    }

    /// How many calls are error results (`isError: true` without `structuredContent`).
    #[must_use]
    pub fn error_results(&self) -> usize {
        self.calls.iter().filter(|c| c.error_result).count()
    }

    /// Whether the audit fails: any call that fails ([`Call::fails`]).
    #[must_use]
    pub fn fails(&self, deny_legacy: bool) -> bool {
        self.calls.iter().any(|c| c.fails(deny_legacy))
    }
}

/// Audits a capture held in memory (see [`audit_stream`] for one read as a stream).
#[must_use]
pub fn audit(text: &str, options: &Options) -> Audit {
    let mut open = || Ok(Box::new(text.as_bytes()) as Box<dyn std::io::BufRead>);
    // Reading bytes in memory does not fail.
    audit_stream(&mut open, options).unwrap_or_default()
}

/// Decides and validates one call.
fn judge(
    exchange: Exchange,
    schema: Option<&Value>,
    tool: Option<&str>,
    explicit: bool,
    validators: &mut HashMap<String, Validators>,
) -> Call {
    let Exchange {
        record,
        body,
        id,
        line,
    } = exchange;
    let target = structured_content_target(&record, &body);
    let protocol = record
        .get("protocol")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let content = body.get("structuredContent");
    let layer = match target {
        Target::ValidateRoot => content,
        // The inside of `result` is the output. A server that still sends the envelope may also
        // still advertise it as the output schema (TS v2 before 2.4.0 does): then the envelope
        // is validated whole, which checks the inside against `properties.result`, with the
        // wrapper's own `#/properties/result/...` references resolving.
        Target::LegacyWrapper if schema.is_some_and(is_result_wrapper) => content,
        Target::LegacyWrapper => content.and_then(|c| c.get("result")),
        Target::Missing | Target::Schema => None,
    };
    let (valid, errors, disagreements) = match (layer, schema, tool) {
        (Some(instance), Some(schema), Some(tool)) => {
            validate(&validator_for(validators, tool, schema).compiled, instance)
        }
        _ => (None, Vec::new(), Vec::new()),
    };
    let is_error = body.get("isError").and_then(Value::as_bool) == Some(true);
    // The clients validate `structuredContent` as it is, a legacy `{"result": ...}` wrapper of a
    // `.meta({ id })` tool included (measured: each rejects one the schema does not describe).
    let seen = match (target, content, schema, tool) {
        (Target::ValidateRoot | Target::LegacyWrapper, Some(content), Some(schema), Some(tool)) => {
            match &validator_for(validators, tool, schema).compiled {
                Ok((python, ts)) => {
                    let python = python.is_valid(content);
                    (Some(python), python && !ts.is_valid(content))
                }
                Err(_) => (None, false),
            }
        }
        _ => (None, false),
    };
    let schema_breaks = match (schema, tool) {
        (Some(schema), Some(tool)) if target != Target::Schema => {
            validator_for(validators, tool, schema).breaks.clone()
        }
        _ => Vec::new(),
    };
    let clients = verdicts::verdicts(&verdicts::Seen {
        valid: seen.0,
        format_fails: seen.1,
        is_error,
        shape: verdicts::Shape::of(
            content,
            target != Target::Schema && schema.is_some(),
            protocol.as_deref(),
        ),
        legacy_session: protocol.as_deref().is_none_or(|p| p.starts_with("2025-")),
    });
    let clients = with_schema_breaks(clients, &schema_breaks);
    let mut findings = findings::findings(&body, schema, protocol.as_deref(), is_error, target);
    findings.extend(disagreements);
    if is_error && valid == Some(false) {
        findings.push(findings::error_result_fails_schema());
    }
    if target == Target::LegacyWrapper && !is_error && seen.0 == Some(false) {
        findings.push(findings::legacy_wrapper_rejected());
    }
    Call {
        id,
        line,
        tool: tool.map(str::to_owned),
        protocol,
        meta_id_tool: record.get("metaIdTool").and_then(Value::as_bool) == Some(true),
        target,
        valid,
        errors,
        is_error,
        error_result: is_error && target == Target::Missing && content.is_none(),
        reason: (target == Target::Schema)
            .then(|| decision::explain_record(&record, explicit))
            .flatten(),
        record,
        findings,
        clients,
        schema_breaks,
    }
}

/// Counts for the summary, by target.
#[must_use]
pub fn summary(audit: &Audit) -> BTreeMap<&'static str, Value> {
    let mut out = BTreeMap::new();
    for t in [Target::ValidateRoot, Target::LegacyWrapper] {
        let Counts {
            calls,
            valid,
            invalid,
        } = audit.count(t);
        out.insert(
            t.name(),
            json!({"calls": calls, "valid": valid, "invalid": invalid}),
        );
    }
    out.insert("missing", json!(audit.count(Target::Missing).calls));
    out.insert("schema", json!(audit.count(Target::Schema).calls));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HANDSHAKE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}}
"#;

    fn calls(audit: &Audit) -> Vec<(Value, Target, Option<bool>)> {
        audit
            .calls
            .iter()
            .map(|c| (c.id.clone(), c.target, c.valid))
            .collect()
    }

    #[test]
    fn a_server_request_may_share_the_id_of_an_open_call() {
        // The server asks for roots (its own id 2) while the client's call 2 is open, then pings
        // with id 3 while call 3 is open; the client answers the ping with an error; the ping
        // of id 4 is answered after the call 4 it overlaps.
        let capture = format!(
            "{HANDSHAKE}{}",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"method":"roots/list"}
{"jsonrpc":"2.0","id":2,"result":{"roots":[]}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"n":1}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":3,"method":"ping"}
{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}
{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"n":"three"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":4,"method":"ping"}
{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":{"n":4}}}
{"jsonrpc":"2.0","id":4,"result":{}}
"#
        );
        let audit = audit(&capture, &Options::default());
        assert_eq!(
            calls(&audit),
            [
                (json!(2), Target::ValidateRoot, Some(true)),
                (json!(3), Target::ValidateRoot, Some(false)),
                (json!(4), Target::ValidateRoot, Some(true)),
            ]
        );
        assert!(audit.rpc_errors.is_empty() && audit.unanswered.is_empty());
        assert_eq!(audit.calls[1].protocol.as_deref(), Some("2025-11-25"));
    }

    #[test]
    fn unanswered_calls_in_capture_order() {
        let capture = format!(
            "{HANDSHAKE}{}",
            r#"{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":5,"method":"ping"}
{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":"a","result":{"content":[],"structuredContent":{"n":1}}}
"#
        );
        let audit = audit(&capture, &Options::default());
        assert_eq!(
            calls(&audit),
            [(json!("a"), Target::ValidateRoot, Some(true))]
        );
        let unanswered = |id, line| Unanswered {
            id,
            line,
            tool: Some("t".to_owned()),
            why: None,
        };
        assert_eq!(
            audit.unanswered,
            [unanswered(json!("b"), 6), unanswered(json!("c"), 9)]
        );
    }

    #[test]
    fn a_batch_is_its_messages() {
        let capture = format!(
            "{HANDSHAKE}{}",
            r#"[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}]
[{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"n":3}}},{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{}}}]
"#
        );
        let audit = audit(&capture, &Options::default());
        assert_eq!(
            calls(&audit),
            [
                (json!(3), Target::ValidateRoot, Some(true)),
                (json!(2), Target::ValidateRoot, Some(false)),
            ]
        );
        assert_eq!((audit.calls[0].line, audit.calls[1].line), (7, 7));
    }

    #[test]
    fn a_legacy_wrapper_is_validated_inside_whichever_schema_is_advertised() {
        // The payload's own schema (a restarted server's `tools/list`), and the envelope schema a
        // server before TS v2 2.4.0 advertises, with its `$ref` into the wrapper.
        let payload =
            r#"{"type":"object","properties":{"region":{"type":"string"}},"required":["region"]}"#;
        let envelope = r##"{"type":"object","properties":{"result":{"$ref":"#/properties/result/$defs/Report","$defs":{"Report":{"type":"object","properties":{"region":{"type":"string"}},"required":["region"]}}}},"required":["result"]}"##;
        let options = Options {
            meta_id_tools: Some(vec!["t".to_owned()]),
            ..Options::default()
        };
        for schema in [payload, envelope] {
            let capture = format!(
                "{}{}",
                HANDSHAKE.replace(
                    r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#,
                    schema
                ),
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"result":{"region":"apac"}}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"result":{"region":7}}}}
"#
            );
            let audit = audit(&capture, &options);
            assert_eq!(
                calls(&audit),
                [
                    (json!(2), Target::LegacyWrapper, Some(true)),
                    (json!(3), Target::LegacyWrapper, Some(false)),
                ],
                "{schema}"
            );
        }
    }

    #[test]
    fn error_results_are_counted_apart_and_do_not_fail() {
        let capture = format!(
            "{HANDSHAKE}{}",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no such city"}],"isError":true}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"n":"x"},"isError":true}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":null,"isError":true}}
"#
        );
        let audit = audit(&capture, &Options::default());
        let error_results: Vec<bool> = audit.calls.iter().map(|c| c.error_result).collect();
        // Without `structuredContent`: an error result. With one, even an invalid or a null
        // one: through the decision like any other result.
        assert_eq!(error_results, [true, false, false]);
        assert_eq!(audit.calls[0].target, Target::Missing);
        assert!(audit.calls[0].findings.is_empty() && !audit.calls[0].fails(false));
        assert_eq!(audit.error_results(), 1);
        assert_eq!(
            audit.count(Target::Missing),
            Counts {
                calls: 1,
                valid: 0,
                invalid: 0
            }
        );
        assert!(audit.fails(false));
        let only_errors = format!(
            "{HANDSHAKE}{}",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no such city"}],"isError":true}}
"#
        );
        let audit = super::audit(&only_errors, &Options::default());
        assert!(!audit.fails(true) && audit.error_results() == 1);
        assert_eq!(summary(&audit)["missing"], json!(0));
    }

    #[test]
    fn the_protocol_option_fills_in_only_where_the_capture_gives_none() {
        let capture = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{},"outputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{}}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":{}}}
"#;
        let protocols = |protocol: Option<&str>| {
            let options = Options {
                protocol: protocol.map(str::to_owned),
                ..Options::default()
            };
            audit(capture, &options)
                .calls
                .iter()
                .map(|c| (c.protocol.clone(), c.target, c.reason.is_some()))
                .collect::<Vec<_>>()
        };
        let p = |s: &str| Some(s.to_owned());
        assert_eq!(
            protocols(None),
            [
                (None, Target::Schema, true),
                (p("2026-07-28"), Target::ValidateRoot, false),
                (p("2025-11-25"), Target::ValidateRoot, false),
            ]
        );
        assert_eq!(
            protocols(Some("2025-06-18")),
            [
                (p("2025-06-18"), Target::Schema, true),
                (p("2026-07-28"), Target::ValidateRoot, false),
                (p("2025-11-25"), Target::ValidateRoot, false),
            ]
        );
        assert_eq!(
            protocols(Some("2025-11-25"))[0],
            (p("2025-11-25"), Target::ValidateRoot, false)
        );
        // An explicit record without a protocol gets it; one with a protocol keeps its own.
        let records = r#"{"record": {"tool": "t", "metaIdTool": false}, "body": {"structuredContent": {}}}
{"record": {"tool": "t", "protocol": "2025-06-18", "metaIdTool": false}, "body": {"structuredContent": {}}}
"#;
        let options = Options {
            protocol: p("2026-07-28"),
            ..Options::default()
        };
        let audit = audit(records, &options);
        let targets: Vec<Target> = audit.calls.iter().map(|c| c.target).collect();
        assert_eq!(targets, [Target::ValidateRoot, Target::Schema]);
        assert!(audit.calls[1]
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("protocol 2025-06-18 is not one")));
    }

    #[test]
    fn wrapped_captures_are_audited_like_bare_ones() {
        let bare = format!(
            "{HANDSHAKE}{}",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"n":"two"}}}
"#
        );
        let wrapped: String = bare
            .lines()
            .enumerate()
            .map(|(i, line)| match i % 3 {
                0 => format!("{{\"message\": {line}}}\n"),
                1 => format!(
                    "{{\"direction\": \"recv\", \"timestamp\": \"t{i}\", \"message\": {line}}}\n"
                ),
                _ => format!("{{\"ts\": {i}, \"data\": {line}}}\n"),
            })
            .collect();
        let (a, b) = (
            audit(&bare, &Options::default()),
            audit(&wrapped, &Options::default()),
        );
        assert_eq!(calls(&a), calls(&b));
        assert_eq!(calls(&b), [(json!(2), Target::ValidateRoot, Some(false))]);
        assert_eq!(b.calls[0].protocol.as_deref(), Some("2025-11-25"));
        assert!(b.skipped.is_empty() && b.unusable.is_none());
    }

    #[test]
    fn captures_that_cannot_be_audited() {
        let unusable = |text: &str| audit(text, &Options::default()).unusable;
        assert_eq!(unusable("").as_deref(), Some("the capture is empty"));
        assert!(unusable("{\"level\":\"info\"}\nnot json\n")
            .is_some_and(|why| why.starts_with("no JSON-RPC message among 2 lines")));
        assert!(unusable(HANDSHAKE)
            .is_some_and(|why| why.starts_with("no tools/call request among 5 JSON-RPC messages")));
        // Skipped lines alone do not stop an audit.
        let capture = format!(
            "{HANDSHAKE}{}",
            r#"{"level":"info","msg":"x"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"n":2}}}
"#
        );
        let audit = audit(&capture, &Options::default());
        assert!(audit.unusable.is_none() && !audit.fails(false));
        assert_eq!(audit.skipped.len(), 1);
        assert_eq!(audit.skipped[0].line, 6);
    }
}

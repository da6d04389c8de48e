//! `schema-lint audit`: check captured `tools/call` results against their tools' output
//! schemas, at the layer the design document's decision picks per call (see [`decision`]), and
//! count the layers apart.

pub mod capture;
pub mod decision;

use crate::diagnostic::meta::{self, RuleMeta};
use crate::diagnostic::Severity;
use capture::{InputError, Message};
use decision::{is_meta_id_schema, is_result_wrapper, structured_content_target, Target};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

/// The `_meta` key that carries the protocol revision on stateless (2026-07-28) requests.
pub const PROTOCOL_META: &str = "io.modelcontextprotocol/protocolVersion";

/// What an audit needs besides the capture.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// `tools/list` documents to take output schemas from (required for the explicit form).
    pub tools: Vec<Value>,
    /// When given: exactly these tools are `.meta({ id })` tools.
    pub meta_id_tools: Option<Vec<String>>,
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

/// A finding beyond the four targets (SL601-SL604).
#[derive(Debug, Clone)]
pub struct Finding {
    /// The rule found (one of `SL601` to `SL604`).
    pub rule: &'static RuleMeta,
    /// What is wrong with the call, in one sentence.
    pub message: String,
}

/// One audited call.
#[derive(Debug, Clone)]
pub struct Call {
    /// The request's JSON-RPC id; in the explicit form, the record's 1-based position among
    /// the capture's messages.
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
    /// The call's findings beyond validation (`SL601` to `SL604`).
    pub findings: Vec<Finding>,
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
    pub unanswered: Vec<(Value, usize)>,
    /// Calls to tools that `tools/list` shows without an `outputSchema`: nothing to audit.
    pub without_schema: usize,
}

impl Audit {
    /// How many calls went to `target`, and how many of those were valid / invalid.
    #[must_use]
    pub fn count(&self, target: Target) -> (usize, usize, usize) {
        let calls: Vec<&Call> = self.calls.iter().filter(|c| c.target == target).collect();
        let valid = calls.iter().filter(|c| c.valid == Some(true)).count();
        let invalid = calls.iter().filter(|c| c.valid == Some(false)).count();
        (calls.len(), valid, invalid)
    }

    /// Whether the audit fails: an invalid, missing or `schema` call, an error-severity finding,
    /// and with `deny_legacy` any `legacy_wrapper` call.
    #[must_use]
    pub fn fails(&self, deny_legacy: bool) -> bool {
        self.calls.iter().any(|c| {
            c.valid == Some(false)
                || matches!(c.target, Target::Missing | Target::Schema)
                || (deny_legacy && c.target == Target::LegacyWrapper)
                || c.findings
                    .iter()
                    .any(|f| f.rule.severity == Severity::Error)
        })
    }
}

/// A tool as `tools/list` declared it.
struct Tool {
    output_schema: Option<Value>,
}

fn tools_of(list: &Value, into: &mut HashMap<String, Tool>) {
    let tools = list
        .get("tools")
        .or_else(|| list.get("result").and_then(|r| r.get("tools")))
        .and_then(Value::as_array);
    for tool in tools.into_iter().flatten() {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            into.insert(
                name.to_owned(),
                Tool {
                    output_schema: tool.get("outputSchema").cloned(),
                },
            );
        }
    }
}

/// A JSON-RPC id as a key: `0` and `"0"` stay apart.
fn id_key(id: &Value) -> String {
    id.to_string()
}

struct Request {
    id: Value,
    line: usize,
    tool: Option<String>,
    protocol: Option<String>,
}

/// Audits a capture.
#[must_use]
pub fn audit(text: &str, options: &Options) -> Audit {
    let (messages, input_errors) = capture::read(text);
    let mut tools: HashMap<String, Tool> = HashMap::new();
    for list in &options.tools {
        tools_of(list, &mut tools);
    }
    let mut out = Audit {
        input_errors,
        ..Audit::default()
    };
    // (record, body, id, line) to decide once every tools/list of the capture is known.
    let mut pending_calls: Vec<(Value, Value, Value, usize)> = Vec::new();
    if messages
        .iter()
        .any(|m| capture::is_explicit_record(&m.value))
    {
        for (i, m) in messages.iter().enumerate() {
            if capture::is_explicit_record(&m.value) {
                pending_calls.push((
                    m.value["record"].clone(),
                    m.value["body"].clone(),
                    json!(i + 1),
                    m.line,
                ));
            }
        }
    } else {
        pair(&messages, &mut tools, &mut pending_calls, &mut out, options);
    }
    let mut validators: HashMap<String, Result<jsonschema::Validator, String>> = HashMap::new();
    for (record, body, id, line) in pending_calls {
        let tool_name = record
            .get("tool")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let known = tool_name.as_ref().and_then(|t| tools.get(t));
        if known.is_some_and(|t| t.output_schema.is_none()) {
            out.without_schema += 1;
            continue;
        }
        let schema = known.and_then(|t| t.output_schema.as_ref());
        let call = judge(
            &record,
            &body,
            id,
            line,
            schema,
            tool_name.as_deref(),
            &mut validators,
        );
        out.calls.push(call);
    }
    out
}

/// A request still waiting for its response.
struct Pending {
    method: String,
    line: usize,
    /// `Some` for a `tools/call`.
    call: Option<Request>,
}

/// Pairs `tools/call` requests with their responses (by id, in any order), following the
/// protocol of each call: the request's `_meta` protocol, else the session's `initialize`.
/// Every request is tracked, whoever sent it: JSON-RPC ids are unique per sender only, so a
/// server's request (`roots/list`, `ping`, ...) may share its id with an open `tools/call`.
fn pair(
    messages: &[Message],
    tools: &mut HashMap<String, Tool>,
    calls: &mut Vec<(Value, Value, Value, usize)>,
    out: &mut Audit,
    options: &Options,
) {
    let mut session_protocol: Option<String> = None;
    let mut pending: HashMap<String, Vec<Pending>> = HashMap::new();
    for m in messages {
        let v = &m.value;
        if let Some(method) = v.get("method").and_then(Value::as_str) {
            // A notification has no id and gets no response.
            if let Some(id) = v.get("id") {
                let call = (method == "tools/call").then(|| {
                    let params = v.get("params");
                    let meta_protocol = params
                        .and_then(|p| p.get("_meta"))
                        .and_then(|meta| meta.get(PROTOCOL_META))
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    Request {
                        id: id.clone(),
                        line: m.line,
                        tool: params
                            .and_then(|p| p.get("name"))
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        protocol: meta_protocol.or_else(|| session_protocol.clone()),
                    }
                });
                pending.entry(id_key(id)).or_default().push(Pending {
                    method: method.to_owned(),
                    line: m.line,
                    call,
                });
            }
            continue;
        }
        let Some(id) = v.get("id") else { continue };
        if let Some(result) = v.get("result") {
            if result.get("tools").is_some_and(Value::is_array) {
                tools_of(result, tools);
            }
            if let Some(p) = result.get("protocolVersion").and_then(Value::as_str) {
                if result.get("capabilities").is_some() || result.get("serverInfo").is_some() {
                    session_protocol = Some(p.to_owned());
                }
            }
        }
        let key = id_key(id);
        let Some(open) = pending.get_mut(&key).filter(|o| !o.is_empty()) else {
            continue;
        };
        let answered = open.remove(answered_request(open, v));
        if open.is_empty() {
            pending.remove(&key);
        }
        let Some(request) = answered.call else {
            continue;
        };
        if let Some(error) = v.get("error") {
            out.rpc_errors.push(RpcError {
                id: request.id,
                line: m.line,
                tool: request.tool,
                code: error.get("code").and_then(Value::as_i64),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            });
            continue;
        }
        let body = v.get("result").cloned().unwrap_or(Value::Null);
        let mut record = Map::new();
        if let Some(t) = &request.tool {
            record.insert("tool".into(), json!(t));
        }
        if let Some(p) = &request.protocol {
            record.insert("protocol".into(), json!(p));
        }
        let meta_id = match (&options.meta_id_tools, &request.tool) {
            (Some(list), Some(t)) => list.iter().any(|x| x == t),
            (Some(_), None) => false,
            (None, t) => t
                .as_ref()
                .and_then(|t| tools.get(t))
                .and_then(|t| t.output_schema.as_ref())
                .is_some_and(is_meta_id_schema),
        };
        record.insert("metaIdTool".into(), json!(meta_id));
        calls.push((Value::Object(record), body, request.id, m.line));
    }
    let mut unanswered: Vec<Pending> = pending.into_values().flatten().collect();
    unanswered.sort_by_key(|p| p.line);
    for p in unanswered {
        if let Some(r) = p.call {
            out.unanswered.push((r.id, r.line));
        }
    }
}

/// Which of the requests open under one id `response` answers: the newest whose kind fits the
/// response (a request made while another is handled is answered first; a `tools/call` result
/// carries `content`, `structuredContent` or `isError`, and none of the keys that mark a
/// sampling, elicitation or roots result), else the newest.
fn answered_request(open: &[Pending], response: &Value) -> usize {
    let tool_result = response.get("result").map(is_tool_result);
    open.iter()
        .rposition(|p| tool_result.is_none_or(|t| t == (p.method == "tools/call")))
        .unwrap_or(open.len().saturating_sub(1))
}

fn is_tool_result(result: &Value) -> bool {
    result.as_object().is_some_and(|r| {
        ["content", "structuredContent", "isError"]
            .iter()
            .any(|k| r.contains_key(*k))
            && !["model", "action", "roots"]
                .iter()
                .any(|k| r.contains_key(*k))
    })
}

fn validator_for<'a>(
    cache: &'a mut HashMap<String, Result<jsonschema::Validator, String>>,
    tool: &str,
    schema: &Value,
) -> &'a Result<jsonschema::Validator, String> {
    cache
        .entry(tool.to_owned())
        .or_insert_with(|| jsonschema::validator_for(schema).map_err(|e| e.to_string()))
}

/// Decides and validates one call.
fn judge(
    record: &Value,
    body: &Value,
    id: Value,
    line: usize,
    schema: Option<&Value>,
    tool: Option<&str>,
    validators: &mut HashMap<String, Result<jsonschema::Validator, String>>,
) -> Call {
    let target = structured_content_target(record, body);
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
    let mut errors = Vec::new();
    let valid = match (layer, schema, tool) {
        (Some(instance), Some(schema), Some(tool)) => match validator_for(validators, tool, schema)
        {
            Ok(v) => {
                errors = v
                    .iter_errors(instance)
                    .map(|e| CallError {
                        instance_pointer: e.instance_path().as_str().to_owned(),
                        keyword: e.kind().keyword().to_owned(),
                        message: e.to_string(),
                    })
                    .collect();
                Some(errors.is_empty())
            }
            Err(why) => {
                errors.push(CallError {
                    instance_pointer: String::new(),
                    keyword: String::new(),
                    message: format!("the output schema does not compile: {why}"),
                });
                None
            }
        },
        _ => None,
    };
    let is_error = body.get("isError").and_then(Value::as_bool) == Some(true);
    let findings = findings(body, schema, protocol.as_deref(), is_error, target);
    Call {
        id,
        line,
        record: record.clone(),
        tool: tool.map(str::to_owned),
        protocol,
        meta_id_tool: record.get("metaIdTool").and_then(Value::as_bool) == Some(true),
        target,
        valid,
        errors,
        is_error,
        findings,
    }
}

fn rule(code: &str) -> &'static RuleMeta {
    meta::find(code).unwrap_or(&meta::PARSE_ERROR)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The findings `SL601` to `SL604` for one call.
fn findings(
    body: &Value,
    schema: Option<&Value>,
    protocol: Option<&str>,
    is_error: bool,
    target: Target,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let content = body.get("structuredContent");
    if schema.is_some() && !is_error && content.is_none() {
        out.push(Finding {
            rule: rule("SL601"),
            message: "The tool declares an output schema but the result has no `structuredContent`"
                .to_owned(),
        });
    }
    if let Some(c) = content.filter(|c| !c.is_object()) {
        if protocol.is_some_and(|p| p.starts_with("2025-")) {
            out.push(Finding {
                rule: rule("SL602"),
                message: format!(
                    "`structuredContent` is {} {}, but protocol {} requires an object",
                    article(kind(c)),
                    kind(c),
                    protocol.unwrap_or_default()
                ),
            });
        }
        if protocol == Some("2026-07-28") && !has_text_fallback(body, c) {
            out.push(Finding {
                rule: rule("SL604"),
                message: format!(
                    "`structuredContent` is {} {} with no TextContent carrying its JSON",
                    article(kind(c)),
                    kind(c)
                ),
            });
        }
    }
    if let (Some(schema), Some(Value::Object(c))) = (schema, content) {
        let wrapped_content = c.len() == 1 && c.contains_key("result");
        let declares_result = schema
            .get("properties")
            .and_then(|p| p.get("result"))
            .is_some();
        if is_result_wrapper(schema) && !wrapped_content {
            out.push(Finding {
                rule: rule("SL603"),
                message: "The output schema is a `{\"result\": ...}` wrapper but `structuredContent` is not".to_owned(),
            });
        } else if wrapped_content && !declares_result && target != Target::LegacyWrapper {
            out.push(Finding {
                rule: rule("SL603"),
                message: "`structuredContent` is a `{\"result\": ...}` wrapper but the output schema is not".to_owned(),
            });
        }
    }
    out
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Whether `content` holds a `TextContent` whose text is `c` as JSON.
fn has_text_fallback(body: &Value, c: &Value) -> bool {
    body.get("content")
        .and_then(Value::as_array)
        .is_some_and(|blocks| {
            blocks.iter().any(|b| {
                b.get("type").and_then(Value::as_str) == Some("text")
                    && b.get("text")
                        .and_then(Value::as_str)
                        .and_then(|t| serde_json::from_str::<Value>(t).ok())
                        .is_some_and(|parsed| &parsed == c)
            })
        })
}

/// Counts for the summary, by target.
#[must_use]
pub fn summary(audit: &Audit) -> BTreeMap<&'static str, Value> {
    let mut out = BTreeMap::new();
    for t in [Target::ValidateRoot, Target::LegacyWrapper] {
        let (calls, valid, invalid) = audit.count(t);
        out.insert(
            t.name(),
            json!({"calls": calls, "valid": valid, "invalid": invalid}),
        );
    }
    out.insert("missing", json!(audit.count(Target::Missing).0));
    out.insert("schema", json!(audit.count(Target::Schema).0));
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
        assert_eq!(audit.unanswered, [(json!("b"), 6), (json!("c"), 9)]);
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
}

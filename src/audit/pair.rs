//! Pairing each `tools/call` request of a capture with its response, and finding each call's
//! protocol and the tools' output schemas on the way.

use super::capture::Message;
use super::decision::is_meta_id_schema;
use super::{Audit, Options, RpcError, PROTOCOL_META};
use crate::syntax::message::parse_message;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// A call to decide against every `tools/list` of the capture (see [`super::stream`]): the audit record built for
/// it, the result, the request's id, and the line of the response.
pub(super) struct Exchange {
    pub record: Value,
    pub body: Value,
    pub id: Value,
    pub line: usize,
}

/// A tool as `tools/list` declared it.
#[derive(Clone)]
pub(super) struct Tool {
    pub output_schema: Option<Arc<Schema>>,
}

/// An output schema, held as its JSON text (a listing of many tools takes about its own size,
/// not the several times more of parsed values, and copies of the tools share it); parsed again
/// when a call of its tool is decided.
pub(super) struct Schema {
    text: String,
    /// Whether it is a `.meta({ id })` schema ([`is_meta_id_schema`]).
    pub meta_id: bool,
}

impl Schema {
    fn of(value: &Value) -> Schema {
        Schema {
            text: serde_json::to_string(value).unwrap_or_default(),
            meta_id: is_meta_id_schema(value),
        }
    }

    /// The schema as a value.
    pub(super) fn value(&self) -> Value {
        // The text is a value written by serde_json, nested as a message may be.
        parse_message(&self.text).unwrap_or(Value::Null)
    }
}

pub(super) fn tools_of(list: &Value, into: &mut HashMap<String, Tool>) {
    let tools = list
        .get("tools")
        .or_else(|| list.get("result").and_then(|r| r.get("tools")))
        .and_then(Value::as_array);
    for tool in tools.into_iter().flatten() {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            into.insert(
                name.to_owned(),
                Tool {
                    output_schema: tool.get("outputSchema").map(|s| Arc::new(Schema::of(s))),
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

/// A request still waiting for its response.
struct Pending {
    method: String,
    line: usize,
    /// `Some` for a `tools/call`.
    call: Option<Request>,
}

/// Pairs `tools/call` requests with their responses (by id, in any order), a message at a time,
/// following the protocol of each call: the request's `_meta` protocol, else the session's
/// `initialize`, else `--protocol` ([`Options::protocol`]).
/// Every request is tracked, whoever sent it: JSON-RPC ids are unique per sender only, so a
/// server's request (`roots/list`, `ping`, ...) may share its id with an open `tools/call`.
/// What it keeps is the requests still open, not the messages.
#[derive(Default)]
pub(super) struct Pairing {
    session_protocol: Option<String>,
    pending: HashMap<String, Vec<Pending>>,
}

impl Pairing {
    /// Takes the next message: a `tools/call` answered with a result comes back as the exchange
    /// to decide, one answered with an error goes to `out`. `tools` learns each `tools/list`.
    pub(super) fn message(
        &mut self,
        m: &Message,
        tools: &mut HashMap<String, Tool>,
        out: &mut Audit,
        options: &Options,
    ) -> Option<Exchange> {
        let v = &m.value;
        if let Some(method) = v.get("method").and_then(Value::as_str) {
            // A notification has no id and gets no response.
            let id = v.get("id")?;
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
                    protocol: meta_protocol
                        .or_else(|| self.session_protocol.clone())
                        .or_else(|| options.protocol.clone()),
                }
            });
            self.pending.entry(id_key(id)).or_default().push(Pending {
                method: method.to_owned(),
                line: m.line,
                call,
            });
            return None;
        }
        let id = v.get("id")?;
        if let Some(result) = v.get("result") {
            if result.get("tools").is_some_and(Value::is_array) {
                tools_of(result, tools);
            }
            if let Some(p) = result.get("protocolVersion").and_then(Value::as_str) {
                if result.get("capabilities").is_some() || result.get("serverInfo").is_some() {
                    self.session_protocol = Some(p.to_owned());
                }
            }
        }
        let key = id_key(id);
        let open = self.pending.get_mut(&key).filter(|o| !o.is_empty())?;
        let answered = open.remove(answered_request(open, v));
        if open.is_empty() {
            self.pending.remove(&key);
        }
        let request = answered.call?;
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
            return None;
        }
        Some(Exchange {
            record: record_of(&request, tools, options),
            body: v.get("result").cloned().unwrap_or(Value::Null),
            id: request.id,
            line: m.line,
        })
    }

    /// The `tools/call` requests that never got a response, in capture order.
    pub(super) fn finish(self, out: &mut Audit) {
        let mut unanswered: Vec<Pending> = self.pending.into_values().flatten().collect();
        unanswered.sort_by_key(|p| p.line);
        for p in unanswered {
            if let Some(r) = p.call {
                out.unanswered.push(super::Unanswered {
                    id: r.id,
                    line: r.line,
                    tool: r.tool,
                    why: None,
                });
            }
        }
    }
}

/// The audit record of a call: its tool and protocol when known, and whether the tool is a
/// `.meta({ id })` tool (`--meta-id-tools`, else its output schema says).
fn record_of(request: &Request, tools: &HashMap<String, Tool>, options: &Options) -> Value {
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
            .is_some_and(|s| s.meta_id),
    };
    record.insert("metaIdTool".into(), json!(meta_id));
    Value::Object(record)
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

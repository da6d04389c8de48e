//! `schema-lint mcp`: an MCP server over standard input and output, so that a coding agent
//! writing an MCP server lints its schemas as it goes ([`tools`] lists what it offers, [`calls`]
//! runs it). Everything comes in the call's arguments: the server reads no file, writes none,
//! fetches nothing and runs no command.
//!
//! The transport is newline-delimited JSON-RPC 2.0, one message a line, parsed with
//! [`crate::syntax::message`] (the depth rule of files). Revisions are those the project's own
//! client speaks ([`crate::workspace::live::KNOWN_PROTOCOLS`]): 2025-06-18 and 2025-11-25
//! through the `initialize` handshake, 2026-07-28 statelessly (a `server/discover` probe, then
//! the revision in each request's `_meta`), as the Python SDK's client negotiates. A body that
//! is not a request gets a JSON-RPC error (`-32700` not JSON, `-32600` not a request, `-32601`
//! no such method, `-32602` bad parameters or an unknown tool) and the server reads on; a tool
//! that fails (bad arguments, a document that is not what the tool lints) answers an `isError`
//! result, as the 2025-11-25 revision asks; a bug that panics answers `-32603`. Only the end of
//! standard input stops the server.
//!
//! Built on the project's JSON-RPC layer rather than the official Rust SDK (`rmcp` 3.11): `rmcp`
//! brings an async runtime (tokio) and 45 crates the project does not build today (schemars,
//! chrono, futures, tracing ...), about three minutes of build on the project's 2-core machines,
//! for four methods over a line-based transport that [`crate::syntax::message`] and the
//! revision table of [`crate::workspace::live`] already cover; the language server
//! (`schema-lint server`) made the same choice of a synchronous stack.

mod calls;
#[cfg(test)]
mod tests;
mod tools;

use crate::syntax::message::parse_message_bytes;
use crate::syntax::read::read_line_bounded;
use crate::workspace::live::{KNOWN_PROTOCOLS, MAX_MESSAGE, MODERN, NEWEST_HANDSHAKE};
use serde_json::{json, Map, Value};
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The `_meta` key of a stateless request's revision.
const PROTOCOL_META: &str = "io.modelcontextprotocol/protocolVersion";

/// The JSON-RPC error code of an unsupported protocol version (2026-07-28).
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// What the server tells the agent at `initialize`.
const INSTRUCTIONS: &str = "schema-lint lints JSON Schemas for the MCP clients that read them \
    (the TypeScript and Python SDKs, Claude Code, Cursor, VS Code, Codex ...). While you write \
    an MCP server, pass each tool's outputSchema and inputSchema to `lint_schema` (or the whole \
    tools/list result to `lint_tools_list`); each finding names the clients it breaks. \
    `fix_schema` returns the schema repaired, every fix proven; `explain_rule` explains a code.";

/// `schema-lint mcp`: serves one client on standard input and output until the input ends.
///
/// # Errors
/// Reading the input or writing the output failed.
pub fn serve_stdio() -> io::Result<()> {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    serve(&mut input, &mut output)
}

/// Answers every message of `input` on `output`, a line each, until the input ends.
///
/// # Errors
/// Reading the input or writing the output failed.
pub(crate) fn serve(input: &mut impl BufRead, output: &mut impl Write) -> io::Result<()> {
    let mut server = Server::default();
    let mut line = Vec::new();
    loop {
        let reply = match read_line_bounded(input, &mut line, MAX_MESSAGE) {
            Ok(0) => return Ok(()),
            Ok(_) if line.iter().all(u8::is_ascii_whitespace) => continue,
            // A panic is a bug; it costs the request, not the session.
            Ok(_) => catch_unwind(AssertUnwindSafe(|| {
                crate::workspace::pool::run(|| server.message(&line))
            }))
            .unwrap_or_else(|_| {
                Some(error(
                    &Value::Null,
                    -32603,
                    "schema-lint failed on this message (a bug)",
                ))
            }),
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                input.skip_until(b'\n')?;
                Some(error(&Value::Null, -32700, &format!("the message is {e}")))
            }
            Err(e) => return Err(e),
        };
        if let Some(reply) = reply {
            let mut text = serde_json::to_string(&reply).map_err(io::Error::other)?;
            text.push('\n');
            output.write_all(text.as_bytes())?;
            output.flush()?;
        }
    }
}

/// A JSON-RPC error answer.
fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A failed request: its code and message, and data when there is some.
type Failure = (i64, String, Option<Value>);

fn failure(code: i64, message: impl Into<String>) -> Failure {
    (code, message.into(), None)
}

/// What the server remembers of its client.
#[derive(Default)]
struct Server {
    /// The revision `initialize` agreed on, once it has.
    protocol: Option<String>,
}

impl Server {
    /// The answer to one line of input, if it needs one.
    fn message(&mut self, line: &[u8]) -> Option<Value> {
        let message = match parse_message_bytes(line) {
            Ok(message) => message,
            Err(e) => return Some(error(&Value::Null, -32700, &format!("not JSON: {e}"))),
        };
        let Value::Object(message) = message else {
            let what = if message.is_array() {
                "a batch: MCP sends one message a line"
            } else {
                "not a JSON-RPC message"
            };
            return Some(error(&Value::Null, -32600, what));
        };
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id");
        match (method, id) {
            // A notification (`notifications/initialized`, `notifications/cancelled` ...):
            // nothing to answer, nothing to do (calls are answered before the next line is read).
            (Some(_), None) => None,
            (Some(method), Some(id @ (Value::String(_) | Value::Number(_)))) => {
                let params = message.get("params");
                Some(match self.request(method, params) {
                    Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                    Err((code, text, data)) => {
                        let mut answer = error(id, code, &text);
                        if let Some(data) = data {
                            answer["error"]["data"] = data;
                        }
                        answer
                    }
                })
            }
            (Some(_), Some(_)) => Some(error(
                &Value::Null,
                -32600,
                "a request's id must be a string or a number",
            )),
            // A response: the server sends no request, so there is nothing to match it to.
            (None, _) if message.contains_key("result") || message.contains_key("error") => None,
            (None, _) => Some(error(
                id.filter(|i| i.is_string() || i.is_number())
                    .unwrap_or(&Value::Null),
                -32600,
                "not a JSON-RPC request: no `method`",
            )),
        }
    }

    /// The result of a request, or why it failed.
    fn request(&mut self, method: &str, params: Option<&Value>) -> Result<Value, Failure> {
        let params = match params {
            None | Some(Value::Null) => &Map::new(),
            Some(Value::Object(params)) => params,
            Some(_) => return Err(failure(-32602, "`params` must be an object")),
        };
        let stateless = self.stateless(params)?;
        let mut result = match method {
            "initialize" => return Ok(self.initialize(params)),
            "server/discover" => json!({
                "supportedVersions": [MODERN],
                "capabilities": capabilities(),
                "instructions": INSTRUCTIONS,
                "_meta": {"io.modelcontextprotocol/serverInfo": server_info()},
                "ttlMs": 0,
                "cacheScope": "private",
            }),
            "ping" => json!({}),
            "tools/list" => {
                if params.get("cursor").is_some_and(|c| !c.is_null()) {
                    return Err(failure(
                        -32602,
                        "no such cursor: every tool comes on the first page",
                    ));
                }
                let mut result = json!({"tools": tools::tools()});
                if stateless {
                    result["ttlMs"] = json!(0);
                    result["cacheScope"] = json!("private");
                }
                result
            }
            "tools/call" => call(params)?,
            _ => return Err(failure(-32601, format!("no method `{method}`"))),
        };
        if stateless || method == "server/discover" {
            result["resultType"] = json!("complete");
        }
        Ok(result)
    }

    /// Whether a request is stateless (2026-07-28: its revision in its `_meta`); a revision
    /// there that the server does not speak statelessly is refused, with the one it does.
    fn stateless(&self, params: &Map<String, Value>) -> Result<bool, Failure> {
        let Some(revision) = params
            .get("_meta")
            .and_then(|m| m.get(PROTOCOL_META))
            .filter(|_| self.protocol.is_none())
        else {
            return Ok(false);
        };
        if revision.as_str() == Some(MODERN) {
            return Ok(true);
        }
        Err((
            UNSUPPORTED_PROTOCOL_VERSION,
            format!("unsupported protocol version {revision}: without `initialize`, only {MODERN}"),
            Some(json!({"supported": [MODERN], "requested": revision})),
        ))
    }

    /// The `initialize` handshake: the client's revision when the server speaks it over a
    /// handshake, else the newest one it does.
    fn initialize(&mut self, params: &Map<String, Value>) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let agreed = asked
            .filter(|a| *a != MODERN && KNOWN_PROTOCOLS.contains(a))
            .unwrap_or(NEWEST_HANDSHAKE);
        self.protocol = Some(agreed.to_owned());
        json!({
            "protocolVersion": agreed,
            "capabilities": capabilities(),
            "serverInfo": server_info(),
            "instructions": INSTRUCTIONS,
        })
    }
}

fn capabilities() -> Value {
    json!({"tools": {"listChanged": false}})
}

fn server_info() -> Value {
    json!({
        "name": "schema-lint",
        "title": "schema-lint",
        "version": env!("CARGO_PKG_VERSION"),
    })
}

/// `tools/call`: the tool's structured content (and the same as text, for clients that read
/// only text), or an `isError` result saying why the tool failed.
fn call(params: &Map<String, Value>) -> Result<Value, Failure> {
    let Some(Value::String(name)) = params.get("name") else {
        return Err(failure(-32602, "`name` must name a tool"));
    };
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => &Map::new(),
        Some(Value::Object(arguments)) => arguments,
        Some(_) => return Err(failure(-32602, "`arguments` must be an object")),
    };
    match calls::call(name, arguments) {
        None => Err(failure(
            -32602,
            format!("no tool `{name}`: `tools/list` lists them"),
        )),
        Some(Ok(content)) => Ok(json!({
            "content": [{"type": "text", "text": content.to_string()}],
            "structuredContent": content,
            "isError": false,
        })),
        Some(Err(why)) => Ok(json!({
            "content": [{"type": "text", "text": why}],
            "isError": true,
        })),
    }
}

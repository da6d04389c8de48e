//! MCP over Streamable HTTP: each message is sent with `POST` to the endpoint; a request is answered as
//! `application/json` or as a `text/event-stream` that carries the response among other
//! messages. The `Mcp-Session-Id` a server gives is sent back on every request and the session
//! is closed with `DELETE` at the end. Redirects are not followed: only the named URL is
//! contacted.
//!
//! On 2026-07-28 every request also carries the routing headers of the spec (SEP-2243), which
//! servers check against the body and refuse with HTTP 400 when they differ (`mcp` 2.3.0's
//! `classify_inbound_request` and `validate_mcp_param_headers`): `Mcp-Method` (the method),
//! `Mcp-Name` (the `name` of `tools/call` and `prompts/get`, the `uri` of `resources/read`), and
//! on `tools/call` an `Mcp-Param-{token}` for each argument whose property in the tool's
//! `inputSchema` carries `"x-mcp-header": "{token}"`, learnt from the `tools/list` answers that
//! pass through. A value that is not plain printable ASCII is sent as `=?base64?...?=`.

use super::{sse, Failure, Transport, MAX_MESSAGE, MODERN};
use crate::syntax::message::{parse_message, parse_message_bytes, MessageError};
use serde_json::Value;
use std::io::{BufReader, Read};
use std::time::{Duration, Instant};

/// Per tool, the arguments mirrored into `Mcp-Param-*` headers on 2026-07-28: the property path
/// and the header's token (from `x-mcp-header` in its `inputSchema`).
pub(crate) type ParamHeaders = std::collections::HashMap<String, Vec<(Vec<String>, String)>>;

/// A server reached over HTTP.
pub struct HttpServer {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    session: Option<String>,
    protocol: Option<String>,
    /// The bytes of the answers read so far.
    received: usize,
    /// Per tool, the arguments mirrored into `Mcp-Param-*` headers: the property path and the
    /// header's token (from `x-mcp-header` in its `inputSchema`).
    param_headers: ParamHeaders,
    /// The messages both ways, when kept.
    tape: super::Tape,
}

impl HttpServer {
    /// A client for `url`, sending `headers` with every request.
    pub fn new(url: &str, headers: &[(String, String)]) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(concat!("schema-lint/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Self {
            agent,
            url: url.to_owned(),
            headers: headers.to_vec(),
            session: None,
            protocol: None,
            received: 0,
            param_headers: std::collections::HashMap::new(),
            tape: super::Tape::default(),
        }
    }

    /// POSTs `message`; the response for `id` when one is awaited.
    fn post(
        &mut self,
        message: &Value,
        id: Option<&Value>,
        deadline: Instant,
    ) -> Result<Option<Value>, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Failure::timeout());
        }
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        if let Some(protocol) = &self.protocol {
            request = request.header("MCP-Protocol-Version", protocol);
            if protocol == MODERN {
                for (name, value) in routing_headers(message, &self.param_headers) {
                    request = request.header(name, value);
                }
            }
        }
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let body = serde_json::to_string(message).unwrap_or_default();
        self.tape.message(body.as_bytes());
        let mut response = request
            .config()
            .timeout_global(Some(left))
            .build()
            .send(body)
            .map_err(|e| transport_error(&self.url, &e))?;
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_owned());
        }
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let location = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let reader = response
            .body_mut()
            .with_config()
            .limit(MAX_MESSAGE as u64)
            .reader();
        if !(200..300).contains(&status) {
            return Err(status_failure(
                status,
                location.as_deref(),
                &content_type,
                reader,
            ));
        }
        let Some(id) = id else {
            return Ok(None);
        };
        if status == 202 {
            return Err(Failure::broken(
                "the server answered a request with 202 Accepted and no response",
            ));
        }
        let listing = message.get("method").and_then(Value::as_str) == Some("tools/list");
        if content_type.starts_with("text/event-stream") {
            let answer = read_stream(reader, id, deadline, &mut self.received, &mut self.tape)?;
            if listing {
                learn_param_headers(&answer, &mut self.param_headers);
            }
            return Ok(Some(answer));
        }
        if content_type.starts_with("application/json") {
            let value: Value = read_json(reader, deadline, &mut self.received, &mut self.tape)?;
            let answer = super::answer_for(&value, id).ok_or_else(|| {
                Failure::broken(format!(
                    "the server's JSON answer is not the response to the request: `{}`",
                    super::excerpt(&value.to_string())
                ))
            })?;
            if listing {
                learn_param_headers(&answer, &mut self.param_headers);
            }
            return Ok(Some(answer));
        }
        Err(Failure::broken(format!(
            "the answer is not MCP: HTTP {status} with content type `{}` (is `{}` an MCP endpoint?)",
            if content_type.is_empty() { "none" } else { &content_type },
            self.url
        )))
    }
}

/// The methods whose request mirrors a parameter into `Mcp-Name`, and that parameter.
const NAME_BEARING: [(&str, &str); 3] = [
    ("tools/call", "name"),
    ("prompts/get", "name"),
    ("resources/read", "uri"),
];

/// The routing headers of a 2026-07-28 request: `Mcp-Method`, `Mcp-Name` where the method
/// names something, and a `tools/call`'s `Mcp-Param-*` headers (`params` gives, per tool, the
/// arguments to mirror).
pub(crate) fn routing_headers(message: &Value, params: &ParamHeaders) -> Vec<(String, String)> {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Vec::new();
    };
    let mut out = vec![("Mcp-Method".to_owned(), encode_header_value(method))];
    let body = message.get("params");
    if let Some((_, key)) = NAME_BEARING.iter().find(|(m, _)| *m == method) {
        if let Some(name) = body.and_then(|p| p.get(*key)).and_then(Value::as_str) {
            out.push(("Mcp-Name".to_owned(), encode_header_value(name)));
        }
    }
    if method == "tools/call" {
        let tool = body.and_then(|p| p.get("name")).and_then(Value::as_str);
        let arguments = body.and_then(|p| p.get("arguments"));
        for (path, token) in tool.and_then(|t| params.get(t)).into_iter().flatten() {
            let mut value = arguments;
            for key in path {
                value = value.and_then(|v| v.get(key));
            }
            let rendered = match value {
                Some(Value::Bool(b)) => Some(b.to_string()),
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                _ => None,
            };
            if let Some(rendered) = rendered {
                out.push((format!("Mcp-Param-{token}"), encode_header_value(&rendered)));
            }
        }
    }
    out
}

/// A header value as the spec wants it: as it is when it is printable ASCII without white
/// space at its ends (and does not look like the sentinel), else `=?base64?{UTF-8 in
/// base64}?=`.
fn encode_header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with("=?base64?") && value.ends_with("?=") && value.len() >= 11);
    if plain {
        value.to_owned()
    } else {
        format!("=?base64?{}?=", base64(value.as_bytes()))
    }
}

/// Standard base64, with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Learns from a `tools/list` answer which arguments of each tool go into `Mcp-Param-*`
/// headers: the properties reached from the root of its `inputSchema` through `properties`
/// alone whose `x-mcp-header` is a token (RFC 9110), as the Python SDK's client mirrors them.
pub(crate) fn learn_param_headers(answer: &Value, into: &mut ParamHeaders) {
    let tools = answer.pointer("/result/tools").and_then(Value::as_array);
    for tool in tools.into_iter().flatten() {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let mut found = Vec::new();
        let mut stack: Vec<(Vec<String>, &Value)> = Vec::new();
        if let Some(schema) = tool.get("inputSchema") {
            stack.push((Vec::new(), schema));
        }
        while let Some((path, schema)) = stack.pop() {
            // Bounded by the listing's own size: each step goes one level into it.
            if let Some(token) = schema.get("x-mcp-header").and_then(Value::as_str) {
                let is_token = !token.is_empty()
                    && token
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
                if !path.is_empty() && is_token {
                    found.push((path.clone(), token.to_owned()));
                }
            }
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (key, sub) in props {
                    let mut next = path.clone();
                    next.push(key.clone());
                    stack.push((next, sub));
                }
            }
        }
        found.sort();
        if found.is_empty() {
            into.remove(name);
        } else {
            into.insert(name.to_owned(), found);
        }
    }
}

/// Reads an event stream until the response to `id`, within [`MAX_MESSAGE`] per event and
/// `deadline`, counting the bytes of its events in `received`.
fn read_stream(
    reader: impl Read,
    id: &Value,
    deadline: Instant,
    received: &mut usize,
    tape: &mut super::Tape,
) -> Result<Value, Failure> {
    let mut too_deep = false;
    let found = sse::read_events(BufReader::new(reader), MAX_MESSAGE, |data| {
        *received = received.saturating_add(data.len());
        tape.message(data.as_bytes());
        match parse_message(data) {
            Ok(v) => super::answer_for(&v, id),
            Err(MessageError::TooDeep) => {
                too_deep = true;
                Some(Value::Null)
            }
            Err(MessageError::NotJson(_)) => None,
        }
    });
    if too_deep {
        return Err(Failure::broken(format!(
            "an event of the server's answer is {}",
            MessageError::TooDeep
        )));
    }
    let found = found.map_err(|e| {
        if Instant::now() >= deadline {
            Failure::timeout()
        } else {
            body_failure(&e)
        }
    })?;
    found.ok_or_else(|| Failure::broken("the server's event stream ended without the response"))
}

/// Reads a JSON body, within [`MAX_MESSAGE`] and `deadline`, counting its bytes in
/// `received`.
fn read_json(
    mut reader: impl Read,
    deadline: Instant,
    received: &mut usize,
    tape: &mut super::Tape,
) -> Result<Value, Failure> {
    let mut bytes = Vec::new();
    let read = reader.read_to_end(&mut bytes);
    *received = received.saturating_add(bytes.len());
    read.map_err(|e| read_failure(&e, deadline))?;
    tape.message(&bytes);
    parse_message_bytes(&bytes).map_err(|e| match e {
        MessageError::TooDeep => Failure::broken(format!("the server's answer is {e}")),
        MessageError::NotJson(e) => Failure::broken(format!(
            "the server's answer is not JSON ({e}): `{}`",
            super::excerpt(&String::from_utf8_lossy(&bytes))
        )),
    })
}

/// Why a body could not be read: the deadline (worded as every other timeout is), or the reason.
fn read_failure(error: &std::io::Error, deadline: Instant) -> Failure {
    let ureq_timeout = error
        .get_ref()
        .and_then(|e| e.downcast_ref::<ureq::Error>())
        .is_some_and(|e| matches!(e, ureq::Error::Timeout(_)));
    if ureq_timeout || error.kind() == std::io::ErrorKind::TimedOut || Instant::now() >= deadline {
        Failure::timeout()
    } else {
        body_failure(&error.to_string())
    }
}

fn body_failure(why: &str) -> Failure {
    if why.contains("limit") || why.contains("larger than") {
        Failure::broken(format!(
            "the server's answer is larger than {} MiB",
            MAX_MESSAGE >> 20
        ))
    } else {
        Failure::broken(format!("the server's answer could not be read: {why}"))
    }
}

/// What an HTTP status other than 2xx means here.
pub(crate) fn status_failure(
    status: u16,
    location: Option<&str>,
    content_type: &str,
    body: impl Read,
) -> Failure {
    let mut text = String::new();
    let _ = body.take(4096).read_to_string(&mut text);
    // A JSON-RPC error in the body says more than the status.
    let error = content_type
        .starts_with("application/json")
        .then(|| serde_json::from_str::<Value>(&text).ok())
        .flatten()
        .and_then(|v| v.get("error").cloned());
    let rpc = error.as_ref().and_then(|e| {
        e.get("message")
            .and_then(Value::as_str)
            .map(|m| (m.to_owned(), e.get("code").and_then(Value::as_i64)))
    });
    let detail = rpc
        .as_ref()
        .map_or_else(String::new, |(m, _)| format!(": {}", super::excerpt(m)));
    match status {
        300..=399 => Failure::broken(format!(
            "HTTP {status}: the server redirects to `{}`; name that URL with `--url` (redirects are not followed)",
            location.unwrap_or("?")
        )),
        401 | 403 => Failure::broken(format!(
            "HTTP {status} {}{detail}: the server wants credentials; pass them with `--header 'Authorization: Bearer ...'`",
            if status == 401 { "Unauthorized" } else { "Forbidden" }
        )),
        404 => Failure::broken(format!(
            "HTTP 404 Not Found{detail}: no MCP endpoint at this URL (servers often serve it at `/mcp`)"
        )),
        500..=599 => Failure::broken(format!(
            "HTTP {status}: the server failed{}",
            if detail.is_empty() && !text.trim().is_empty() {
                format!(": `{}`", super::excerpt(text.trim()))
            } else {
                detail
            }
        )),
        // Whatever else the server refused: the status and what its body says (the JSON-RPC
        // error and its code, or the text).
        _ => Failure::rejected(format!(
            "HTTP {status}{}{}",
            reason_phrase(status).map_or_else(String::new, |r| format!(" {r}")),
            match &rpc {
                Some((m, Some(code))) => format!(": {} (JSON-RPC error {code})", super::excerpt(m)),
                Some((m, None)) => format!(": {}", super::excerpt(m)),
                None if !text.trim().is_empty() => format!(": `{}`", super::excerpt(text.trim())),
                None => String::new(),
            }
        )),
    }
}

/// The reason phrase of the 4xx statuses a server may refuse an MCP request with.
fn reason_phrase(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "Bad Request",
        402 => "Payment Required",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        _ => return None,
    })
}

/// A failure below HTTP: no connection, no such host, no answer in time.
pub(crate) fn transport_error(url: &str, error: &ureq::Error) -> Failure {
    match error {
        ureq::Error::Timeout(_) => Failure::timeout(),
        ureq::Error::HostNotFound => Failure::broken(format!("the host of `{url}` was not found")),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => Failure::broken(
            format!("cannot connect to `{url}`: connection refused (is the server running?)"),
        ),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => Failure::timeout(),
        ureq::Error::BodyExceedsLimit(_) => body_failure("limit"),
        other => Failure::broken(format!("cannot reach `{url}`: {other}")),
    }
}

impl Transport for HttpServer {
    fn request(&mut self, message: &Value, deadline: Instant) -> Result<Value, Failure> {
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        self.post(message, Some(&id), deadline)?
            .ok_or_else(|| Failure::broken("no response"))
    }

    fn notify(&mut self, message: &Value, deadline: Instant) -> Result<(), Failure> {
        self.post(message, None, deadline).map(|_| ())
    }

    fn received(&self) -> usize {
        self.received
    }

    fn set_protocol(&mut self, protocol: Option<&str>) {
        self.protocol = protocol.map(str::to_owned);
    }

    fn keep(&mut self) {
        self.tape.start();
    }

    fn kept(&mut self) -> String {
        self.tape.take()
    }

    fn close(&mut self) {
        let Some(session) = self.session.take() else {
            return;
        };
        let mut request = self
            .agent
            .delete(&self.url)
            .header("Mcp-Session-Id", &session);
        if let Some(protocol) = &self.protocol {
            request = request.header("MCP-Protocol-Version", protocol);
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        // Ending the session is a courtesy: a server that does not support it answers 405.
        let _ = request
            .config()
            .timeout_global(Some(Duration::from_secs(2)))
            .build()
            .call();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn header_values_are_plain_or_base64_as_the_spec_has_them() {
        assert_eq!(encode_header_value("get_weather"), "get_weather");
        assert_eq!(encode_header_value("eu west"), "eu west");
        // The Python SDK's `encode_header_value` gives these (`mcp` 2.3.0).
        assert_eq!(encode_header_value("météo"), "=?base64?bcOpdMOpbw==?=");
        assert_eq!(encode_header_value(" x"), "=?base64?IHg=?=");
        assert_eq!(
            encode_header_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"abc"), "YWJj");
    }

    #[test]
    fn every_request_carries_its_routing_headers() {
        let listing = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [
            {"name": "by_region", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "filter": {"type": "object", "properties": {
                    "tier": {"type": "integer", "x-mcp-header": "Tier"}}},
                "flag": {"type": "boolean", "x-mcp-header": "not a token"}}}},
            {"name": "plain", "inputSchema": {"type": "object"}}]}});
        let mut params = std::collections::HashMap::new();
        learn_param_headers(&listing, &mut params);
        let headers = |message: Value| routing_headers(&message, &params);
        let call = |name: &str, arguments: Value| {
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": name, "arguments": arguments}})
        };
        let pair = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        assert_eq!(
            headers(call(
                "by_region",
                json!({"region": "Köln", "filter": {"tier": 2}, "flag": true})
            )),
            [
                pair("Mcp-Method", "tools/call"),
                pair("Mcp-Name", "by_region"),
                pair("Mcp-Param-Tier", "2"),
                pair("Mcp-Param-Region", "=?base64?S8O2bG4=?="),
            ]
        );
        // An argument that is absent (or not a scalar) sends no header.
        assert_eq!(
            headers(call("by_region", json!({"filter": {}}))),
            [
                pair("Mcp-Method", "tools/call"),
                pair("Mcp-Name", "by_region")
            ]
        );
        assert_eq!(
            headers(call("météo", json!({}))),
            [
                pair("Mcp-Method", "tools/call"),
                pair("Mcp-Name", "=?base64?bcOpdMOpbw==?=")
            ]
        );
        assert_eq!(
            headers(json!({"id": 4, "method": "resources/read", "params": {"uri": "file:///a b"}})),
            [
                pair("Mcp-Method", "resources/read"),
                pair("Mcp-Name", "file:///a b")
            ]
        );
        assert_eq!(
            headers(json!({"id": 5, "method": "tools/list"})),
            [pair("Mcp-Method", "tools/list")]
        );
    }

    #[test]
    fn a_refusal_says_its_status_and_what_the_body_says() {
        let failure = |status, content_type: &str, body: &str| {
            status_failure(status, None, content_type, body.as_bytes()).message
        };
        assert_eq!(
            failure(
                400,
                "application/json",
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"mcp-name header does not match the request body's 'name' parameter"}}"#
            ),
            "HTTP 400 Bad Request: mcp-name header does not match the request body's 'name' parameter (JSON-RPC error -32020)"
        );
        assert_eq!(
            failure(400, "text/plain", "Bad Request: no session\n"),
            "HTTP 400 Bad Request: `Bad Request: no session`"
        );
        assert_eq!(failure(406, "", ""), "HTTP 406 Not Acceptable");
    }
}

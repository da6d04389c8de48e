//! MCP over Streamable HTTP: each message is sent with `POST` to the endpoint; a request is answered as
//! `application/json` or as a `text/event-stream` that carries the response among other
//! messages. The `Mcp-Session-Id` a server gives is sent back on every request and the session
//! is closed with `DELETE` at the end. Redirects are not followed: only the named URL is
//! contacted.

use super::{sse, Failure, Transport, MAX_MESSAGE, MODERN};
use crate::syntax::message::{parse_message, parse_message_bytes, MessageError};
use serde_json::Value;
use std::io::{BufReader, Read};
use std::time::{Duration, Instant};

/// A server reached over HTTP.
pub struct HttpServer {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    session: Option<String>,
    protocol: Option<String>,
    /// The bytes of the answers read so far.
    received: usize,
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
                if let Some(method) = message.get("method").and_then(Value::as_str) {
                    request = request.header("Mcp-Method", method);
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
        if content_type.starts_with("text/event-stream") {
            return read_stream(reader, id, deadline, &mut self.received, &mut self.tape).map(Some);
        }
        if content_type.starts_with("application/json") {
            let value: Value = read_json(reader, deadline, &mut self.received, &mut self.tape)?;
            return super::answer_for(&value, id).map(Some).ok_or_else(|| {
                Failure::broken(format!(
                    "the server's JSON answer is not the response to the request: `{}`",
                    super::excerpt(&value.to_string())
                ))
            });
        }
        Err(Failure::broken(format!(
            "the answer is not MCP: HTTP {status} with content type `{}` (is `{}` an MCP endpoint?)",
            if content_type.is_empty() { "none" } else { &content_type },
            self.url
        )))
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
fn status_failure(
    status: u16,
    location: Option<&str>,
    content_type: &str,
    body: impl Read,
) -> Failure {
    let mut text = String::new();
    let _ = body.take(4096).read_to_string(&mut text);
    // A JSON-RPC error in the body says more than the status.
    let rpc = content_type
        .starts_with("application/json")
        .then(|| serde_json::from_str::<Value>(&text).ok())
        .flatten()
        .and_then(|v| {
            v.pointer("/error/message")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    let detail = rpc.map_or_else(String::new, |m| format!(": {}", super::excerpt(&m)));
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
        _ => Failure::rejected(format!("HTTP {status}{detail}")),
    }
}

/// A failure below HTTP: no connection, no such host, no answer in time.
fn transport_error(url: &str, error: &ureq::Error) -> Failure {
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

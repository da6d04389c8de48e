//! `schema-lint proxy --for CLIENT --url URL [--header 'Name: value']...`: the porting proxy for a
//! remote server over Streamable HTTP. The host speaks stdio to the proxy (newline-delimited
//! JSON-RPC, as with a command); the proxy speaks Streamable HTTP to `URL`, as the `--url`
//! transport does ([`crate::workspace::live`]: no redirect followed, only `URL` contacted).
//!
//! Each line from the host is `POST`ed, with the `Mcp-Session-Id` the server gave, the
//! `MCP-Protocol-Version` agreed (read from the `initialize` answer passing through, or on
//! 2026-07-28 from the request's own `_meta`), on 2026-07-28 the routing headers, and the user's
//! headers. The answer reaches the host a message a line: a JSON body as one line, each event of
//! an event stream as it arrives, nothing for `202`. The `tools/list` answers are ported and the
//! calls of renamed tools mapped back by the functions of the stdio proxy ([`super`]), so both
//! forms port the same way.
//!
//! A request that gets no answer (no connection, an HTTP error, a stream that ends without the
//! response) is answered to the host as a JSON-RPC error with its id, and logged, so the host is
//! not left waiting. Requests go on threads of their own (at most [`MAX_IN_FLIGHT`] at once), so a
//! long `tools/call` does not hold a `ping` back; `initialize`, notifications and responses go in
//! order. After `notifications/initialized`, the server's own stream is opened with `GET` (a
//! server without one answers `405`, and that is all). When the host closes standard input, the
//! requests under way get [`DRAIN_WITHIN`] to end, the session is closed with `DELETE`, and the
//! proxy exits 0; stopped by `SIGINT` or `SIGTERM`, it closes the session and exits 130.
//!
//! The headers and the URL's user information and query are secrets: the log and the errors say
//! them as `[secret]`.

use super::{each_line, to_client_line, to_server_line, Outcome, Shared, Sink};
use crate::doors::session::vars::{Secrets, HIDDEN};
use crate::settings::Settings;
use crate::workspace::live::forward::{send, Client, Method};
use crate::workspace::live::http::{
    learn_param_headers, routing_headers, status_failure, transport_error, ParamHeaders,
};
use crate::workspace::live::{sse, Endpoint, Server, MAX_MESSAGE, MODERN};
use serde_json::{json, Value};
use std::io::{BufReader, Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The most requests sent at once; the next waits for one of them to end.
pub const MAX_IN_FLIGHT: usize = 16;
/// How long a connection to the server may take to open.
const CONNECT_WITHIN: Duration = Duration::from_secs(30);
/// How long the requests under way may take to end once the host closed standard input.
pub const DRAIN_WITHIN: Duration = Duration::from_secs(30);
/// How long the `DELETE` that ends the session may take.
const CLOSE_WITHIN: Duration = Duration::from_secs(2);
/// The JSON-RPC error code of a request the proxy could not get answered (JSON-RPC's "internal
/// error"), when the server's own answer gives none.
const UNANSWERED: i64 = -32603;

/// The server, and what the proxy learns of it on the way.
struct Upstream {
    client: Client,
    url: String,
    /// The URL as the log shows it ([`shown`]).
    shown: String,
    headers: Vec<(String, String)>,
    secrets: Secrets,
    session: Mutex<Option<String>>,
    /// The revision agreed by `initialize`.
    protocol: Mutex<Option<String>>,
    /// Per tool, the arguments mirrored into `Mcp-Param-*` headers on 2026-07-28.
    params: Mutex<ParamHeaders>,
    shared: Shared,
    sink: Mutex<Sink>,
    settings: Settings,
    client_name: String,
    out: Mutex<Box<dyn Write + Send>>,
    /// The requests under way, and the signal that one ended.
    in_flight: Mutex<usize>,
    ended: Condvar,
}

/// What one `POST` carries: the line, and what the proxy needs to know of it.
struct Sent<'a> {
    body: &'a [u8],
    message: Option<&'a Value>,
    /// The request's id; `None` for a notification or a response.
    id: Option<&'a Value>,
    method: &'a str,
}

/// `schema-lint proxy --url`.
#[must_use]
pub(super) fn proxy_http(options: &super::Options, url: &str, sink: Sink) -> Outcome {
    let mut secrets = Secrets::default();
    for part in url_secrets(url) {
        secrets.add(part);
    }
    for header in &options.headers {
        secrets.add(header);
        if let Some((_, value)) = header.split_once(':') {
            secrets.add(value);
        }
    }
    let headers = match Server::url(url, &options.headers) {
        Ok(Server {
            endpoint: Endpoint::Url { headers, .. },
            ..
        }) => headers,
        Ok(_) => Vec::new(),
        Err(why) => {
            let why = secrets.redact(&why.replace(url, &shown(url)));
            return Outcome {
                stderr: format!("error: {why}\n"),
                code: 2,
            };
        }
    };
    let up = Arc::new(Upstream {
        client: Client::own(CONNECT_WITHIN),
        url: url.to_owned(),
        shown: shown(url),
        headers,
        secrets,
        session: Mutex::new(None),
        protocol: Mutex::new(None),
        params: Mutex::new(ParamHeaders::new()),
        shared: Shared::default(),
        sink: Mutex::new(sink),
        settings: options.settings.clone(),
        client_name: options.client.clone(),
        out: Mutex::new(Box::new(std::io::stdout())),
        in_flight: Mutex::new(0),
        ended: Condvar::new(),
    });
    // A host that stops the proxy with a signal (`SIGINT`, `SIGTERM`) ends the session too.
    let stopped = Arc::clone(&up);
    let _ = ctrlc::set_handler(move || {
        stopped.close();
        std::process::exit(130);
    });
    let _ = each_line(std::io::stdin(), |line| {
        from_host(&up, line);
        Ok(())
    });
    up.drain();
    up.close();
    Outcome::default()
}

/// One line from the host, sent on.
fn from_host(up: &Arc<Upstream>, line: &[u8]) {
    let line = line.trim_ascii();
    if line.is_empty() {
        return;
    }
    let body = to_server_line(line, &up.shared).unwrap_or_else(|| line.to_vec());
    let message: Option<Value> = serde_json::from_slice(&body).ok();
    let method = message
        .as_ref()
        .and_then(|m| m.get("method"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let id = message
        .as_ref()
        .filter(|_| !method.is_empty())
        .and_then(|m| m.get("id"))
        .cloned();
    if id.is_none() || method == "initialize" {
        // In order: the session `initialize` opens is on every request after it.
        up.post(&Sent {
            body: &body,
            message: message.as_ref(),
            id: id.as_ref(),
            method: &method,
        });
        if method == "notifications/initialized" {
            up.open_stream();
        }
        return;
    }
    up.take_slot();
    let worker = Arc::clone(up);
    let (asked, named) = (id.clone(), method.clone());
    let spawned = std::thread::Builder::new().spawn(move || {
        worker.post(&Sent {
            body: &body,
            message: message.as_ref(),
            id: id.as_ref(),
            method: &method,
        });
        worker.free_slot();
    });
    if let Err(e) = spawned {
        up.free_slot();
        let refused = Sent {
            body: b"",
            message: None,
            id: asked.as_ref(),
            method: &named,
        };
        up.unanswered(&refused, &format!("no thread to send it on: {e}"), None);
    }
}

impl Upstream {
    /// Writes `text` to the log, secrets hidden.
    fn say(&self, text: &str) {
        if let Ok(mut sink) = self.sink.lock() {
            sink.say(&format!(
                "schema-lint proxy: {}\n",
                self.secrets.redact(text)
            ));
        }
    }

    fn take_slot(&self) {
        if let Ok(n) = self.in_flight.lock() {
            if let Ok(mut n) = self.ended.wait_while(n, |n| *n >= MAX_IN_FLIGHT) {
                *n += 1;
            }
        }
    }

    fn free_slot(&self) {
        if let Ok(mut n) = self.in_flight.lock() {
            *n = n.saturating_sub(1);
        }
        self.ended.notify_all();
    }

    /// Waits for the requests under way, [`DRAIN_WITHIN`] at most.
    fn drain(&self) {
        if let Ok(n) = self.in_flight.lock() {
            let _ = self.ended.wait_timeout_while(n, DRAIN_WITHIN, |n| *n > 0);
        }
    }

    /// The headers of a message to the server: the session's, the revision's, the routing
    /// headers on 2026-07-28, the user's.
    fn headers(&self, message: Option<&Value>, accept: &str) -> Vec<(String, String)> {
        let pair = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        let mut out = vec![pair("Accept", accept)];
        // A 2026-07-28 request says its revision itself.
        let own = message
            .and_then(|m| m.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let protocol = own.or_else(|| self.protocol.lock().ok().and_then(|p| p.clone()));
        if let Some(protocol) = protocol {
            if protocol == MODERN {
                if let (Some(message), Ok(params)) = (message, self.params.lock()) {
                    out.extend(routing_headers(message, &params));
                }
            }
            out.push(pair("MCP-Protocol-Version", &protocol));
        }
        if let Some(session) = self.session.lock().ok().and_then(|s| s.clone()) {
            out.push(pair("Mcp-Session-Id", &session));
        }
        out.extend(self.headers.iter().cloned());
        out
    }

    /// `POST`s one message and passes its answer to the host; a request left unanswered is
    /// answered with an error.
    fn post(&self, sent: &Sent) {
        let mut headers = self.headers(sent.message, "application/json, text/event-stream");
        headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
        let mut response = match send(&self.client, Method::Post, &self.url, &headers, sent.body) {
            Ok(r) => r,
            Err(e) => {
                return self.unanswered(sent, &transport_error(&self.shown, &e).message, None)
            }
        };
        let header = |name: &str| {
            response
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        if let Some(session) = header("mcp-session-id") {
            if let Ok(mut s) = self.session.lock() {
                *s = Some(session);
            }
        }
        let content_type = header("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let status = response.status;
        if !(200..300).contains(&status) {
            let expired = status == 404 && self.session.lock().is_ok_and(|s| s.is_some());
            let mut body = Vec::new();
            let _ = (&mut response.body).take(4096).read_to_end(&mut body);
            let location = header("location");
            let failure = status_failure(status, location.as_deref(), &content_type, &body[..]);
            let message = if expired {
                "HTTP 404: the server no longer knows the session (it ended it); the host must \
                 start a new one"
                    .to_owned()
            } else {
                failure.message
            };
            // The server's own JSON-RPC error code, where its body has one.
            let code = serde_json::from_slice::<Value>(&body)
                .ok()
                .and_then(|v| v.pointer("/error/code").and_then(Value::as_i64));
            return self.unanswered(sent, &message, code);
        }
        let answered = if content_type.starts_with("text/event-stream") {
            let mut answered = false;
            let read = sse::read_events(BufReader::new(response.body), MAX_MESSAGE, |data| {
                answered |= self.to_host(data.as_bytes(), sent);
                answered.then_some(())
            });
            if let Err(why) = read {
                if !answered {
                    return self.unanswered(sent, &why, None);
                }
            }
            answered
        } else if content_type.starts_with("application/json") {
            let mut bytes = Vec::new();
            let limit = MAX_MESSAGE as u64 + 1;
            if let Err(e) = response.body.take(limit).read_to_end(&mut bytes) {
                let why = format!("the server's answer could not be read: {e}");
                return self.unanswered(sent, &why, None);
            }
            if bytes.len() > MAX_MESSAGE {
                let why = format!(
                    "the server's answer is larger than {} MiB",
                    MAX_MESSAGE >> 20
                );
                return self.unanswered(sent, &why, None);
            }
            !bytes.trim_ascii().is_empty() && self.to_host(&bytes, sent)
        } else {
            false
        };
        if sent.id.is_some() && !answered {
            let why = if content_type.starts_with("text/event-stream") {
                "the server's event stream ended without the response".to_owned()
            } else {
                format!("HTTP {status} and no response")
            };
            self.unanswered(sent, &why, None);
        }
    }

    /// Passes one message from the server to the host (ported when it answers a listing); says
    /// whether it is the response to `sent`.
    fn to_host(&self, bytes: &[u8], sent: &Sent) -> bool {
        let value: Option<Value> = serde_json::from_slice(bytes).ok();
        let answers =
            |v: &Value| v.get("method").is_none() && sent.id.is_some() && v.get("id") == sent.id;
        let answered = value.as_ref().is_some_and(|v| match v {
            Value::Array(items) => items.iter().any(answers),
            v => answers(v),
        });
        if let (true, Some(value)) = (answered, &value) {
            match sent.method {
                "tools/list" => {
                    if let Ok(mut params) = self.params.lock() {
                        learn_param_headers(value, &mut params);
                    }
                }
                "initialize" => {
                    let agreed = value
                        .pointer("/result/protocolVersion")
                        .and_then(Value::as_str);
                    if let (Some(agreed), Ok(mut protocol)) = (agreed, self.protocol.lock()) {
                        *protocol = Some(agreed.to_owned());
                    }
                }
                _ => {}
            }
        }
        self.write_line(bytes);
        answered
    }

    /// Writes one message to the host, on one line, through the port.
    fn write_line(&self, bytes: &[u8]) {
        let bytes = bytes.trim_ascii();
        let ported = to_client_line(
            bytes,
            &self.shared,
            &self.settings,
            &self.client_name,
            &self.sink,
        );
        // A line break in JSON can only be white space: a space keeps the message and its
        // bytes.
        let line: Vec<u8> = ported.unwrap_or_else(|| {
            bytes
                .iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
                .collect()
        });
        if let Ok(mut out) = self.out.lock() {
            let _ = out
                .write_all(&line)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
        }
    }

    /// Logs why `sent` got no answer and, for a request, answers the host with an error.
    fn unanswered(&self, sent: &Sent, why: &str, code: Option<i64>) {
        let what = match sent.id {
            Some(id) => format!("{} {id}", sent.method),
            None if sent.method.is_empty() => "a response".to_owned(),
            None => sent.method.to_owned(),
        };
        self.say(&format!("{what}: {why}"));
        let Some(id) = sent.id else { return };
        let error = json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": code.unwrap_or(UNANSWERED),
            "message": self.secrets.redact(&format!("schema-lint proxy: {why}")),
        }});
        // Through the port's bookkeeping too: a listing that failed is not waited for.
        self.write_line(error.to_string().as_bytes());
    }

    /// Opens the server's own stream (`GET`) on a thread of its own: each of its messages goes to
    /// the host. A server without one (`405`) is left at that.
    fn open_stream(self: &Arc<Self>) {
        if self.session.lock().map_or(true, |s| s.is_none()) {
            return;
        }
        let up = Arc::clone(self);
        let _ = std::thread::Builder::new().spawn(move || {
            let headers = up.headers(None, "text/event-stream");
            let response = match send(&up.client, Method::Get, &up.url, &headers, b"") {
                Ok(r) => r,
                Err(e) => {
                    let why = transport_error(&up.shown, &e).message;
                    return up.say(&format!("the server's stream (GET): {why}"));
                }
            };
            if response.status == 405 {
                return;
            }
            if !(200..300).contains(&response.status) {
                let status = response.status;
                return up.say(&format!("the server's stream (GET): HTTP {status}"));
            }
            let none = Sent {
                body: b"",
                message: None,
                id: None,
                method: "",
            };
            let read = sse::read_events(BufReader::new(response.body), MAX_MESSAGE, |data| {
                up.to_host(data.as_bytes(), &none);
                None::<()>
            });
            if let Err(why) = read {
                up.say(&format!("the server's stream (GET): {why}"));
            }
        });
    }

    /// Ends the session (`DELETE`), waiting [`CLOSE_WITHIN`] at most: a courtesy a server may
    /// refuse (`405`).
    fn close(self: &Arc<Self>) {
        if self.session.lock().map_or(true, |s| s.is_none()) {
            return;
        }
        let (done, wait) = std::sync::mpsc::channel();
        let up = Arc::clone(self);
        let _ = std::thread::Builder::new().spawn(move || {
            let headers = up.headers(None, "application/json, text/event-stream");
            let _ = send(&up.client, Method::Delete, &up.url, &headers, b"");
            let _ = done.send(());
        });
        let _ = wait.recv_timeout(CLOSE_WITHIN);
    }
}

/// The parts of `url` that may hold credentials: its user information, query and fragment.
fn url_secrets(url: &str) -> Vec<&str> {
    let (_, _, userinfo, query, fragment) = url_parts(url);
    [userinfo, query, fragment].into_iter().flatten().collect()
}

/// `url` as the log shows it: its user information, query and fragment as `[secret]`.
fn shown(url: &str) -> String {
    let (scheme, rest, userinfo, query, fragment) = url_parts(url);
    let mut out = String::new();
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push_str("://");
    }
    if userinfo.is_some() {
        out.push_str(HIDDEN);
        out.push('@');
    }
    out.push_str(rest);
    if query.is_some() {
        out.push('?');
        out.push_str(HIDDEN);
    }
    if fragment.is_some() {
        out.push('#');
        out.push_str(HIDDEN);
    }
    out
}

/// `url` as (scheme, host and path, user information, query, fragment), read as plain text (a
/// URL that does not parse still has its secrets found).
fn url_parts(url: &str) -> (Option<&str>, &str, Option<&str>, Option<&str>, Option<&str>) {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (rest, userinfo) = match rest[..authority_end].rfind('@') {
        Some(at) => (&rest[at + 1..], Some(&rest[..at])),
        None => (rest, None),
    };
    (scheme, rest, userinfo, query, fragment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_shown_without_its_credentials() {
        assert_eq!(
            shown("https://me:pw@example.com:8443/mcp?token=abc#x"),
            "https://[secret]@example.com:8443/mcp?[secret]#[secret]"
        );
        assert_eq!(
            shown("http://127.0.0.1:8000/mcp"),
            "http://127.0.0.1:8000/mcp"
        );
        assert_eq!(shown("host/a@b"), "host/a@b");
        assert_eq!(
            url_secrets("https://me:pw@example.com/mcp?token=abc"),
            ["me:pw", "token=abc"]
        );
    }
}

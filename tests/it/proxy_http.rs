//! `schema-lint proxy --for CLIENT --url URL`: between a host (this test, speaking JSON-RPC over
//! the proxy's standard input and output) and a fake Streamable HTTP server (a listener thread
//! here, which keeps every request it gets). The `tools/list` answer is ported, a call of a
//! renamed tool reaches the server under its own name, the session and revision headers ride on
//! every request, an HTTP failure comes back as a JSON-RPC error with the request's id, and the
//! session is closed with `DELETE` at the end. The real Python SDK, server and client, talk
//! through it in `tests/integration/live.sh`.

use crate::common::{Scratch, BIN};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SESSION: &str = "sess-1";
const TOKEN: &str = "Bearer tok-s3cret-value";

/// One request the fake server got.
#[derive(Clone, Debug)]
struct Seen {
    method: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn rpc(&self) -> &str {
        self.body["method"].as_str().unwrap_or("")
    }
}

/// A fake Streamable HTTP server on a free loopback port: what it got, and its port.
struct Fake {
    seen: Arc<Mutex<Vec<Seen>>>,
    port: u16,
}

fn fake(get_stream: bool) -> Fake {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let kept = Arc::clone(&kept);
            std::thread::spawn(move || serve(stream, &kept, get_stream));
        }
    });
    Fake { seen, port }
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<Seen>>, get_stream: bool) {
    let mut out = stream.try_clone().unwrap();
    let request = read_request(stream);
    seen.lock().unwrap().push(request.clone());
    match request.method.as_str() {
        "GET" if get_stream => sse(
            &mut out,
            &[json!({"jsonrpc": "2.0", "method": "notifications/message",
                     "params": {"level": "info", "data": "from the GET stream"}})],
        ),
        "GET" => plain(&mut out, "405 Method Not Allowed", ""),
        "DELETE" => plain(&mut out, "200 OK", ""),
        _ => answer_post(&mut out, &request.body),
    }
    let _ = out.flush();
}

fn read_request(stream: TcpStream) -> Seen {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let method = line.split_whitespace().next().unwrap_or("").to_owned();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (n, v) = l.split_once(':').unwrap();
        headers.push((n.trim().to_owned(), v.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    Seen {
        method,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    }
}

/// A JSON answer (pretty-printed: over several lines).
fn json_answer(out: &mut TcpStream, status: &str, extra: &str, value: &Value) {
    let text = serde_json::to_string_pretty(value).unwrap();
    let _ = write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
}

/// An event stream of `events`, each sent as it is written.
fn sse(out: &mut TcpStream, events: &[Value]) {
    let _ = write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
    );
    for event in events {
        // Each message over several `data:` lines, as a server may send it.
        let text = serde_json::to_string_pretty(event).unwrap();
        let _ = write!(out, "event: message\r\n");
        for line in text.lines() {
            let _ = write!(out, "data: {line}\r\n");
        }
        let _ = write!(out, "\r\n");
        let _ = out.flush();
    }
}

fn plain(out: &mut TcpStream, status: &str, text: &str) {
    let _ = write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
}

fn answer_post(out: &mut TcpStream, body: &Value) {
    let id = body["id"].clone();
    let ok = |result: Value| json!({"jsonrpc": "2.0", "id": id, "result": result});
    match body["method"].as_str().unwrap_or("") {
        "initialize" => json_answer(
            out,
            "200 OK",
            &format!("Mcp-Session-Id: {SESSION}\r\n"),
            &ok(
                json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "fake-http", "version": "1"}}),
            ),
        ),
        "tools/list" => sse(
            out,
            &[
                json!({"jsonrpc": "2.0", "method": "notifications/message",
                       "params": {"level": "info", "data": "listing"}}),
                ok(json!({"tools": [
                    {"name": "station/history", "inputSchema": {"type": "object",
                     "properties": {"q": {"type": ["string", "null"]}}}},
                    {"name": "echo", "inputSchema": {"type": "object",
                     "properties": {"text": {"type": "string"}}}}]})),
            ],
        ),
        "tools/call" => {
            let name = body["params"]["name"].as_str().unwrap_or("").to_owned();
            let called =
                ok(json!({"content": [{"type": "text", "text": format!("called {name}")}]}));
            match name.as_str() {
                "boom" => plain(out, "500 Internal Server Error", "kaput"),
                "refused" => json_answer(
                    out,
                    "400 Bad Request",
                    "",
                    &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32020,
                            "message": "mcp-name header does not match"}}),
                ),
                "slow" => {
                    std::thread::sleep(Duration::from_millis(1500));
                    json_answer(out, "200 OK", "", &called);
                }
                "echo" => json_answer(out, "200 OK", "", &called),
                _ => sse(out, &[called]),
            }
        }
        _ if id.is_null() => plain(out, "202 Accepted", ""),
        _ => json_answer(out, "200 OK", "", &ok(json!({}))),
    }
}

/// The proxy, as a host runs it: its input, and its output a line at a time.
struct Host {
    child: Child,
    to: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Lines read while waiting for another.
    other: Vec<Value>,
}

impl Host {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let to = child.stdin.take();
        let from = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in from.lines() {
                let _ = send.send(line.unwrap());
            }
        });
        Self {
            child,
            to,
            lines,
            other: Vec::new(),
        }
    }

    fn send(&mut self, message: &Value) {
        let to = self.to.as_mut().unwrap();
        writeln!(to, "{message}").unwrap();
        to.flush().unwrap();
    }

    /// The answer to request `id` (other lines kept in `other`).
    fn answer(&mut self, id: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {id}; got {:?}", self.other));
            assert!(!line.contains('\n'));
            let value: Value = serde_json::from_str(&line).unwrap();
            if value.get("method").is_none() && value["id"] == json!(id) {
                return value;
            }
            self.other.push(value);
        }
    }

    /// Closes the proxy's input; its exit status and standard error.
    fn end(mut self) -> (i32, String, Vec<Value>) {
        drop(self.to.take());
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let code = self.child.wait().unwrap().code().unwrap();
        self.other.extend(
            self.lines
                .try_iter()
                .map(|l| serde_json::from_str::<Value>(&l).unwrap()),
        );
        (code, stderr, self.other)
    }
}

fn request(id: u64, method: &str, params: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn call(id: u64, name: &str) -> Value {
    request(id, "tools/call", &json!({"name": name, "arguments": {}}))
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("")
}

#[test]
fn a_remote_listing_is_ported_and_calls_reach_the_server_by_their_own_names() {
    let dir = Scratch::new("proxy-http");
    let log = dir.join("proxy.log");
    let server = fake(true);
    let url = format!("http://127.0.0.1:{}/mcp?key=query-s3cret", server.port);
    let header = format!("Authorization: {TOKEN}");
    let mut host = Host::start(&[
        "proxy",
        "--for",
        "gemini",
        "--log",
        log.to_str().unwrap(),
        "--url",
        &url,
        "--header",
        &header,
    ]);
    host.send(&request(
        1,
        "initialize",
        &json!({"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}),
    ));
    assert_eq!(
        host.answer(1)["result"]["protocolVersion"],
        json!("2025-06-18")
    );
    host.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    host.send(&request(2, "tools/list", &json!({})));
    let listing = host.answer(2);
    let tools = listing["result"]["tools"].as_array().unwrap();
    assert_eq!(tools[0]["name"], "station_history", "{listing}");
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["q"],
        json!({"type": "string", "nullable": true})
    );
    assert_eq!(tools[1]["name"], "echo");
    // The renamed tool, answered as an event stream; another, as JSON.
    host.send(&call(3, "station_history"));
    assert_eq!(text(&host.answer(3)), "called station/history");
    host.send(&call(4, "echo"));
    assert_eq!(text(&host.answer(4)), "called echo");
    // An HTTP failure is the request's error.
    host.send(&call(5, "boom"));
    let failed = host.answer(5);
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("HTTP 500") && message.contains("kaput"),
        "{failed}"
    );
    // A long call does not hold a ping back.
    host.send(&call(6, "slow"));
    host.send(&request(7, "ping", &json!({})));
    let started = Instant::now();
    assert_eq!(host.answer(7)["result"], json!({}));
    assert!(started.elapsed() < Duration::from_millis(1200));
    assert_eq!(text(&host.answer(6)), "called slow");
    let (code, stderr, other) = host.end();
    assert_eq!(code, 0, "{stderr}");
    // The server's notifications reach the host: the one before the listing, and the GET
    // stream's.
    let notes: Vec<&Value> = other.iter().map(|v| &v["params"]["data"]).collect();
    assert!(notes.contains(&&json!("listing")), "{other:?}");
    assert!(notes.contains(&&json!("from the GET stream")), "{other:?}");

    let seen = server.seen.lock().unwrap().clone();
    let posts: Vec<&Seen> = seen.iter().filter(|s| s.method == "POST").collect();
    assert_eq!(posts.len(), 8, "{seen:?}");
    for post in &posts {
        assert_eq!(post.header("authorization"), Some(TOKEN));
        assert_eq!(post.header("content-type"), Some("application/json"));
        assert!(post
            .header("accept")
            .is_some_and(|a| a.contains("application/json") && a.contains("text/event-stream")));
        if post.rpc() != "initialize" {
            assert_eq!(post.header("mcp-session-id"), Some(SESSION), "{post:?}");
            assert_eq!(post.header("mcp-protocol-version"), Some("2025-06-18"));
        }
    }
    let renamed = posts.iter().find(|p| p.body["id"] == 3).unwrap();
    assert_eq!(renamed.body["params"]["name"], "station/history");
    assert!(seen
        .iter()
        .any(|s| s.method == "GET" && s.header("mcp-session-id") == Some(SESSION)));
    let delete = seen.iter().find(|s| s.method == "DELETE").expect("DELETE");
    assert_eq!(delete.header("mcp-session-id"), Some(SESSION));
    assert_eq!(seen.last().unwrap().method, "DELETE");

    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("Replace the type list"), "{log}");
    assert!(log.contains("Rename `station/history` to `station_history`"));
    assert!(log.contains("tools/call 5: HTTP 500"), "{log}");
    for secret in ["tok-s3cret", "query-s3cret"] {
        assert!(!log.contains(secret) && !message.contains(secret), "{log}");
    }
}

#[test]
fn on_2026_07_28_requests_carry_the_routing_headers_and_refusals_their_code() {
    let server = fake(false);
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let mut host = Host::start(&["proxy", "--for", "gemini", "--url", &url]);
    let meta = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    host.send(&request(1, "tools/list", &meta));
    assert_eq!(
        host.answer(1)["result"]["tools"][0]["name"],
        "station_history"
    );
    let mut params = meta.clone();
    params["name"] = json!("station_history");
    host.send(&request(2, "tools/call", &params));
    assert_eq!(text(&host.answer(2)), "called station/history");
    params["name"] = json!("refused");
    host.send(&request(3, "tools/call", &params));
    let refused = host.answer(3);
    assert_eq!(refused["error"]["code"], -32020, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("HTTP 400 Bad Request: mcp-name header does not match"));
    let (code, stderr, _) = host.end();
    assert_eq!(code, 0);
    assert!(stderr.contains("tools/call 3: HTTP 400"), "{stderr}");
    let seen = server.seen.lock().unwrap().clone();
    let posted = seen.iter().find(|s| s.body["id"] == 2).unwrap();
    assert_eq!(posted.header("mcp-method"), Some("tools/call"));
    assert_eq!(posted.header("mcp-name"), Some("station/history"));
    assert_eq!(posted.header("mcp-protocol-version"), Some("2026-07-28"));
    // No session was given: none to close, no stream to open.
    assert!(seen.iter().all(|s| s.method == "POST"), "{seen:?}");
}

#[test]
fn a_server_out_of_reach_answers_each_request_and_a_bad_url_is_refused() {
    // A port nothing listens on (bound, then let go).
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://user:pa55word@127.0.0.1:{port}/mcp");
    let mut host = Host::start(&["proxy", "--for", "gemini", "--url", &url]);
    host.send(&request(1, "initialize", &json!({})));
    let answer = host.answer(1);
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("connection refused"), "{answer}");
    assert!(!message.contains("pa55word"), "{answer}");
    host.send(&request(2, "tools/list", &json!({})));
    assert!(host.answer(2)["error"].is_object());
    // The listing failed: a call after it does not wait for it.
    let started = Instant::now();
    host.send(&call(3, "echo"));
    assert!(host.answer(3)["error"].is_object());
    assert!(started.elapsed() < Duration::from_secs(5));
    let (code, stderr, _) = host.end();
    assert_eq!(code, 0);
    assert!(
        !stderr.contains("pa55word") && stderr.contains("[secret]"),
        "{stderr}"
    );

    let out = Command::new(BIN)
        .args([
            "proxy",
            "--for",
            "gemini",
            "--url",
            "ftp://me:s3cret@host/mcp",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("http:// or https://") && !stderr.contains("s3cret"),
        "{stderr}"
    );
    let both = Command::new(BIN)
        .args(["proxy", "--for", "gemini", "--url", &url, "--", "python3"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
    let neither = Command::new(BIN)
        .args(["proxy", "--for", "gemini"])
        .output()
        .unwrap();
    assert_eq!(neither.status.code(), Some(2));
}

#[test]
fn a_proxy_stopped_by_a_signal_closes_the_session() {
    let server = fake(false);
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let mut host = Host::start(&["proxy", "--for", "gemini", "--url", &url]);
    host.send(&request(1, "initialize", &json!({})));
    assert!(host.answer(1)["result"].is_object());
    let killed = Command::new("kill")
        .args(["-TERM", &host.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let code = host.child.wait().unwrap().code();
    assert_eq!(code, Some(130));
    let seen = server.seen.lock().unwrap().clone();
    let delete = seen.iter().find(|s| s.method == "DELETE").expect("DELETE");
    assert_eq!(delete.header("mcp-session-id"), Some(SESSION));
}

//! `schema-lint proxy --for CLIENT -- CMD`: between a host (this test, speaking JSON-RPC over the
//! proxy's standard input and output) and a fake server (`tests/live/fake_server.py listing=`).
//! The `tools/list` answer is ported as `schema-lint port` ports it, a call of a renamed tool
//! reaches the server under its own name, every other line passes byte for byte, and the server's
//! exit status is the proxy's. The real Python SDK client talks to it in
//! `tests/integration/live.sh`.

use crate::common::{Scratch, BIN};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const LISTING: &str = r#"{"tools": [
  {"name": "weather.get", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}},
  {"name": "search", "inputSchema": {"type": "object"}}
]}"#;

fn fake_server() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/live/fake_server.py")
        .display()
        .to_string()
}

/// Sends each request and reads its answer before the next, as a host does.
fn converse(args: &[&str], requests: &[Value]) -> (Vec<String>, i32) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for request in requests {
        writeln!(to, "{request}").unwrap();
        to.flush().unwrap();
        if request.get("id").is_some() {
            let mut line = String::new();
            from.read_line(&mut line).unwrap();
            answers.push(line);
        }
    }
    drop(to);
    let code = child.wait().unwrap().code().unwrap();
    (answers, code)
}

fn request(id: u64, method: &str, params: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn a_listing_is_ported_and_a_renamed_tool_still_reaches_the_server() {
    let dir = Scratch::new("proxy");
    let listing = dir.write("tools.json", LISTING);
    let log = dir.join("proxy.log");
    let server = format!("listing={}", listing.display());
    let args = [
        "proxy",
        "--for",
        "openai-strict",
        "--log",
        log.to_str().unwrap(),
        "--",
        "python3",
        &fake_server(),
        &server,
    ];
    let requests = [
        request(
            1,
            "initialize",
            &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        request(2, "tools/list", &json!({})),
        request(
            3,
            "tools/call",
            &json!({"name": "weather_get", "arguments": {}}),
        ),
        request(4, "tools/call", &json!({"name": "search", "arguments": {}})),
        // The host lists again: the same listing, ported as before without a second port.
        request(5, "tools/list", &json!({})),
        request(
            6,
            "tools/call",
            &json!({"name": "weather_get", "arguments": {}}),
        ),
    ];
    let (answers, code) = converse(&args, &requests);
    assert_eq!(code, 0);
    // The initialize answer passes byte for byte (the fake server writes `": "`, spaced).
    assert!(
        answers[0].starts_with("{\"jsonrpc\": \"2.0\", \"id\": 1,"),
        "{}",
        answers[0]
    );
    let listed: Value = serde_json::from_str(&answers[1]).unwrap();
    let tools = listed["result"]["tools"].as_array().unwrap();
    assert_eq!(tools[0]["name"], "weather_get");
    assert_eq!(tools[1]["inputSchema"]["additionalProperties"], false);
    // What `port` makes of the same listing.
    let ported = schema_lint::port(
        &serde_json::from_str(LISTING).unwrap(),
        schema_lint::diagnostic::breaks::Client::named("openai-strict").unwrap(),
    );
    assert_eq!(listed["result"]["tools"], ported.schema["tools"]);
    let called: Value = serde_json::from_str(&answers[2]).unwrap();
    assert_eq!(called["result"]["content"][0]["text"], "called weather.get");
    let called: Value = serde_json::from_str(&answers[3]).unwrap();
    assert_eq!(called["result"]["content"][0]["text"], "called search");
    let again: Value = serde_json::from_str(&answers[4]).unwrap();
    assert_eq!(again["id"], 5);
    assert_eq!(again["result"], listed["result"]);
    let called: Value = serde_json::from_str(&answers[5]).unwrap();
    assert_eq!(called["result"]["content"][0]["text"], "called weather.get");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("Rename `weather.get` to `weather_get`")
            && logged
                .matches("Ported for openai-strict: 3 change(s)")
                .count()
                == 1
            && logged.contains("tools/list 5: the listing as before, ported as before"),
        "{logged}"
    );
}

#[test]
fn a_call_sent_before_the_listing_came_back_waits_for_it() {
    let dir = Scratch::new("proxy-pipelined");
    let listing = dir.write("tools.json", LISTING);
    let server = format!("listing={}", listing.display());
    let mut child = Command::new(BIN)
        .args([
            "proxy",
            "--for",
            "openai-strict",
            "--",
            "python3",
            &fake_server(),
            &server,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    for r in [
        request(1, "tools/list", &json!({})),
        request(
            2,
            "tools/call",
            &json!({"name": "weather_get", "arguments": {}}),
        ),
    ] {
        writeln!(input, "{r}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("called weather.get"), "{text}");
}

#[test]
fn the_server_exit_status_is_the_proxys_and_a_bad_client_is_refused() {
    let out = Command::new(BIN)
        .args([
            "proxy",
            "--for",
            "openai-strict",
            "--",
            "python3",
            &fake_server(),
            "exit",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let out = Command::new(BIN)
        .args(["proxy", "--for", "nobody", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown client `nobody`"));
}

#[test]
fn a_2026_listing_gets_the_envelope_claude_code_requires_and_a_2025_one_does_not() {
    let dir = Scratch::new("proxy-envelope");
    let listing = dir.write("tools.json", LISTING);
    let server = format!("listing={}", listing.display());
    let args = [
        "proxy",
        "--for",
        "claude-code",
        "--",
        "python3",
        &fake_server(),
        &server,
    ];
    // On 2026-07-28 a request names its revision in its `_meta`; the fake server answers
    // without `resultType`, `ttlMs` and `cacheScope`, which Claude Code drops a listing for.
    let modern = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    let (answers, code) = converse(&args, &[request(1, "tools/list", &modern)]);
    assert_eq!(code, 0);
    let listed: Value = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(listed["result"]["resultType"], "complete", "{listed}");
    assert_eq!(listed["result"]["ttlMs"], 0);
    assert_eq!(listed["result"]["cacheScope"], "private");
    let tools: Value = serde_json::from_str(LISTING).unwrap();
    assert_eq!(listed["result"]["tools"], tools["tools"]);
    // A session of 2025-11-25 (the fake server's answer to `initialize`) has no envelope to add.
    let requests = [
        request(
            1,
            "initialize",
            &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ),
        request(2, "tools/list", &json!({})),
    ];
    let (answers, code) = converse(&args, &requests);
    assert_eq!(code, 0);
    let listed: Value = serde_json::from_str(&answers[1]).unwrap();
    assert!(listed["result"].get("resultType").is_none(), "{listed}");
    assert_eq!(listed["result"]["tools"], tools["tools"]);
}

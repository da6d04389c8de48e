//! `schema-lint audit --server CMD --call NAME=JSON` against a fake server whose tools answer
//! (`tests/live/tool_server.py`, Python's standard library only): exactly the named tools are
//! called, in order, on both protocol eras; their results are audited as the capture `--save`
//! writes, which `audit FILE` then reads with the same verdicts; an unknown tool or arguments the
//! `inputSchema` rejects call nothing; a call with no answer ends the run with exit 2.
//! The real SDK servers are in `tests/integration/audit.sh`.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn server(mode: &str, log: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/tool_server.py");
    format!("python3 {} {mode} {}", script.display(), log.display())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "schema-lint-audit-live-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs schema-lint in `dir`, killing it should it outlive a minute.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let ran = common::lint_in(dir, args, Duration::from_secs(60));
    (ran.exit(), ran.stdout, ran.stderr)
}

/// The tools the server was asked to call, in order.
fn called(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_named_tools_are_called_and_audited_as_the_saved_capture() {
    for (mode, protocol) in [("modern", "2026-07-28"), ("legacy", "2025-11-25")] {
        let dir = scratch(mode);
        let log = dir.join("calls.log");
        let calls = dir.join("calls.jsonl");
        std::fs::write(&calls, "{\"name\": \"boom\"}\n").unwrap();
        let (code, stdout, stderr) = run(
            &dir,
            &[
                "audit",
                "--server",
                &server(mode, &log),
                "--call",
                r#"get_weather={"city": "Köln"}"#,
                "--call",
                "fail={}",
                "--calls",
                "calls.jsonl",
                "--save",
                "capture.jsonl",
                "--output-format",
                "json",
            ],
        );
        assert_eq!(code, 1, "{mode}: {stderr}");
        assert_eq!(called(&log), ["get_weather", "fail", "boom"], "{mode}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        let calls = report["calls"].as_array().unwrap();
        assert_eq!(calls.len(), 2, "{mode}: {stdout}");
        let weather = &calls[0];
        assert_eq!(weather["tool"], "get_weather");
        assert_eq!(weather["protocol"], protocol);
        assert_eq!(weather["valid"], true, "the Python client accepts it");
        assert_eq!(weather["findings"][0]["code"], "SL605");
        assert_eq!(weather["findings"][0]["pointer"], "/at");
        let fail = &calls[1];
        assert_eq!(fail["tool"], "fail");
        assert_eq!(fail["isError"], true);
        assert_eq!(fail["valid"], false, "{fail}");
        assert_eq!(report["rpc_errors"][0]["tool"], "boom");
        assert_eq!(report["rpc_errors"][0]["code"], -32603);

        // The saved capture holds the whole exchange, a JSON-RPC message a line, and audits
        // offline exactly as the live run did.
        let capture = std::fs::read_to_string(dir.join("capture.jsonl")).unwrap();
        let methods: Vec<String> = capture
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter_map(|m| m["method"].as_str().map(str::to_owned))
            .collect();
        assert!(methods.iter().any(|m| m == "tools/list"), "{methods:?}");
        assert_eq!(
            methods.iter().filter(|m| *m == "tools/call").count(),
            3,
            "{methods:?}"
        );
        let (again, offline, _) = run(&dir, &["audit", "capture.jsonl", "--output-format", "json"]);
        assert_eq!(again, 1);
        assert_eq!(offline, stdout, "{mode}");
        // Every other format places the findings in the saved file.
        let (_, concise, _) = run(
            &dir,
            &[
                "audit",
                "--server",
                &server(mode, &dir.join("again.log")),
                "--call",
                r#"get_weather={"city": "Köln"}"#,
                "--save",
                "second.jsonl",
                "--output-format",
                "concise",
            ],
        );
        let second = std::fs::read_to_string(dir.join("second.jsonl")).unwrap();
        let answer = 1 + second
            .lines()
            .position(|l| l.contains("\"structuredContent\""))
            .unwrap();
        assert!(
            concise.starts_with(&format!("second.jsonl:{answer}:")) && concise.contains("SL605"),
            "{concise}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn an_unknown_tool_or_rejected_arguments_call_nothing() {
    let dir = scratch("refused");
    let log = dir.join("calls.log");
    for (call, says) in [
        (
            "nope={}",
            "`--call nope`: the server has no tool `nope` (it lists boom, by_region, done, fail, get_link, get_weather, list_data, météo, never_call, no_data, null_data, slow and 1 more)",
        ),
        (
            r#"get_weather={"city": 3}"#,
            "`--call get_weather`: its inputSchema rejects the arguments: 3 is not of type \"string\" (at `/city`)",
        ),
        (
            "get_weather={}",
            "`--call get_weather`: its inputSchema rejects the arguments: \"city\" is a required property",
        ),
    ] {
        let (code, stdout, stderr) = run(
            &dir,
            &[
                "audit",
                "--server",
                &server("modern", &log),
                "--call",
                "never_call={}",
                "--call",
                call,
                "--save",
                "capture.jsonl",
            ],
        );
        assert_eq!(code, 2, "{call}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.starts_with(&format!("error: {says}")), "{stderr}");
        assert!(stderr.contains("; no tool of `python3 "), "{stderr}");
        assert!(called(&log).is_empty(), "{call}: {:?}", called(&log));
        assert!(!dir.join("capture.jsonl").exists(), "nothing saved");
    }
    let (code, _, stderr) = run(&dir, &["audit", "--server", &server("modern", &log)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("no tool is called unless named"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_call_without_an_answer_ends_the_run_with_exit_2() {
    let dir = scratch("timeout");
    let log = dir.join("calls.log");
    let started = Instant::now();
    let (code, stdout, stderr) = run(
        &dir,
        &[
            "audit",
            "--server",
            &server("legacy", &log),
            "--call",
            "get_link={}",
            "--call",
            "slow={}",
            "--call",
            "never_call={}",
            "--timeout",
            "3",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "the call to `slow` (2 of 3) failed: no answer within 3 s (`--timeout`); the call after it was not made"
        ),
        "{stderr}"
    );
    // The report says what became of the call the run stopped at.
    assert!(
        stdout.contains(") slow: no response: no answer within 3 s (`--timeout`)\n"),
        "{stdout}"
    );
    assert_eq!(called(&log), ["get_link", "slow"]);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the server was stopped, not waited for"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fake server over Streamable HTTP (`tool_server.py http`), stopped when dropped.
struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl HttpServer {
    fn start(dir: &Path, log: &Path) -> Self {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/tool_server.py");
        let portfile = dir.join("port");
        let child = std::process::Command::new("python3")
            .arg(script)
            .arg("http")
            .arg(&portfile)
            .arg(log)
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !portfile.exists() {
            assert!(started.elapsed() < Duration::from_secs(20), "no port");
            std::thread::sleep(Duration::from_millis(50));
        }
        let port = std::fs::read_to_string(&portfile).unwrap();
        Self {
            child,
            url: format!("http://127.0.0.1:{}", port.trim()),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn audit_url_sends_the_routing_headers_a_2026_server_checks() {
    // The server refuses, as `mcp` 2.3.0 does, a 2026-07-28 request whose `Mcp-Name` or
    // `Mcp-Param-*` headers do not match its body (a tool name that is not ASCII goes as
    // base64); every call is answered on both eras.
    let dir = scratch("http");
    let log = dir.join("calls.log");
    let server = HttpServer::start(&dir, &log);
    for protocol in ["2026-07-28", "2025-11-25"] {
        let (code, stdout, stderr) = run(
            &dir,
            &[
                "audit",
                "--url",
                &format!("{}/mcp", server.url),
                "--protocol",
                protocol,
                "--call",
                r#"get_weather={"city": "Köln"}"#,
                "--call",
                r#"by_region={"region": "Köln", "filter": {"tier": 2}}"#,
                "--call",
                "météo={}",
                "--output-format",
                "json",
            ],
        );
        assert_eq!(code, 1, "{protocol}: {stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        let tools: Vec<&str> = report["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["tool"].as_str().unwrap())
            .collect();
        assert_eq!(tools, ["get_weather", "by_region", "météo"], "{protocol}");
        assert_eq!(report["calls"][0]["protocol"], protocol);
        assert!(report["unanswered"].as_array().unwrap().is_empty());
    }
    assert_eq!(
        called(&log),
        ["get_weather", "by_region", "météo"].repeat(2)
    );
}

#[test]
fn an_http_refusal_is_reported_as_what_it_is() {
    // At `/refuse` the server answers every tools/call with HTTP 400 and a JSON-RPC error, as
    // `mcp` 2.3.0 refuses a request whose routing headers do not match.
    let dir = scratch("refuse");
    let log = dir.join("calls.log");
    let server = HttpServer::start(&dir, &log);
    let url = format!("{}/refuse", server.url);
    let args = [
        "audit",
        "--url",
        url.as_str(),
        "--call",
        "get_link={}",
        "--call",
        "done={}",
    ];
    let (code, stdout, stderr) = run(&dir, &args);
    assert_eq!(code, 2, "{stderr}");
    let refusal = "HTTP 400 Bad Request: mcp-name header does not match the request body's 'name' parameter (JSON-RPC error -32020)";
    assert!(
        stdout.contains(&format!(
            "call 3 (line 5) get_link: no response: {refusal}\n"
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("no response in the capture"), "{stdout}");
    assert!(
        stderr.contains(&format!(
            "the call to `get_link` (1 of 2) failed: {refusal}; the call after it was not made"
        )),
        "{stderr}"
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--output-format", "json"]);
    let (_, stdout, _) = run(&dir, &json_args);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["unanswered"][0]["tool"], "get_link");
    assert_eq!(report["unanswered"][0]["why"], refusal);
}

/// #41 item 8: `--save` writes every message of the exchange as its bytes crossed: the server's
/// own notification and `ping` request (and the answer to it), its numbers and its keys' order
/// as sent, in a file as private as the one it replaces (or `0600`). It was: what the server
/// sent unprompted left out, `123456789012345678901234567890` saved as
/// `1.2345678901234568e+29`, the keys sorted, a `0600` capture widened to `0644`.
#[cfg(unix)]
#[test]
fn the_saved_capture_is_the_exchange_as_it_crossed_and_stays_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("save-raw");
    let log = dir.join("calls.log");
    let saved = dir.join("capture.jsonl");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    std::fs::write(&saved, "old\n").unwrap();
    std::fs::set_permissions(&saved, std::fs::Permissions::from_mode(0o600)).unwrap();
    for file in ["capture.jsonl", "new.jsonl"] {
        let (code, stdout, stderr) = run(
            &dir,
            &[
                "audit",
                "--server",
                &server("odd", &log),
                "--call",
                "chatty={}",
                "--save",
                file,
                "--output-format",
                "json",
            ],
        );
        assert_ne!(code, 2, "{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["calls"][0]["valid"], true, "{stdout}");
        let path = dir.join(file);
        assert_eq!(mode(&path), 0o600, "{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        for sent in [
            r#"{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "calling"}}"#,
            r#"{"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}"#,
        ] {
            assert!(text.lines().any(|l| l == sent), "{sent} in {text}");
        }
        let pong = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .any(|v| v["id"] == "srv-1" && v["result"] == serde_json::json!({}));
        assert!(pong, "the answer to the server's ping: {text}");
        assert!(
            text.contains(r#""structuredContent": {"big": 123456789012345678901234567890, "z": 1, "a": 2.50}}}"#),
            "{text}"
        );
        // `audit FILE` reads the saved capture as the run did.
        let (again, stdout, _) = run(&dir, &["audit", file, "--output-format", "json"]);
        assert_eq!(again, code);
        let offline: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(offline["calls"], report["calls"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// #41 item 10: valid JSON that `serde_json` refuses, a result holding `1e400` and a lone
/// `\ud800` escape, is read as the clients read it and the call audited. It was: "line 6 of the
/// server's standard output is not JSON-RPC ... (a server on stdio must log to stderr)", the
/// call abandoned, exit 2.
#[test]
fn valid_json_that_serde_json_refuses_keeps_the_call() {
    let dir = scratch("odd-values");
    let log = dir.join("calls.log");
    let (code, stdout, stderr) = run(
        &dir,
        &[
            "audit",
            "--server",
            &server("odd", &log),
            "--call",
            "odd_values={}",
            "--output-format",
            "json",
        ],
    );
    assert_ne!(code, 2, "{stderr}");
    assert!(!stderr.contains("not JSON-RPC"), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let calls = report["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{stdout}");
    assert_eq!(calls[0]["tool"], "odd_values");
    assert_eq!(calls[0]["valid"], true, "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! `schema-lint record --output FILE -- CMD`: the bytes a client and a server exchange pass
//! unchanged (the same output as the server run directly), every message lands in the capture
//! with its direction, `audit` reads the capture, the server's exit status and the signals sent
//! to the proxy pass through, and the server never outlives the proxy, even killed. The real SDK
//! clients drive it in `tests/integration/audit.sh`.
#![cfg(unix)]

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("schema-lint-record-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tool_server() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/tool_server.py")
}

/// `schema-lint record -o CAPTURE -- SERVER...`.
fn record(capture: &Path, server: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command
        .args(["record", "-o"])
        .arg(capture)
        .arg("--")
        .args(server);
    command
}

const REQUESTS: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Köln"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"boom","arguments":{}}}"#,
    "\n",
);

/// Runs `command` as a client would talk to a server: each line of `input` written in turn,
/// and after each request (a line with an `id`) its answer read before the next line. Its status
/// and standard output.
fn feed(command: &mut Command, input: &str) -> (std::process::ExitStatus, Vec<u8>) {
    use std::io::BufRead;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut out = Vec::new();
    for line in input.lines() {
        if stdin.write_all(format!("{line}\n").as_bytes()).is_err() {
            break;
        }
        if line.contains("\"id\"") {
            stdout.read_until(b'\n', &mut out).unwrap();
        }
    }
    drop(stdin);
    std::io::Read::read_to_end(&mut stdout, &mut out).unwrap();
    (child.wait().unwrap(), out)
}

#[test]
fn traffic_passes_unchanged_and_the_capture_is_audited() {
    let dir = scratch("traffic");
    let capture = dir.join("capture.jsonl");
    let (direct_status, direct) = feed(
        Command::new("python3").args([tool_server().to_str().unwrap(), "legacy"]),
        REQUESTS,
    );
    let (status, proxied) = feed(
        &mut record(
            &capture,
            &["python3", tool_server().to_str().unwrap(), "legacy"],
        ),
        REQUESTS,
    );
    assert!(direct_status.success());
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&proxied),
        String::from_utf8_lossy(&direct)
    );
    let text = std::fs::read_to_string(&capture).unwrap();
    let entries: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Five messages to the server, four answers.
    assert_eq!(entries.len(), 9, "{text}");
    let to_server = entries
        .iter()
        .filter(|e| e["direction"] == "to-server")
        .count();
    assert_eq!(to_server, 5);
    // Each message is kept as it went over the wire, byte for byte.
    let sent: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("{\"direction\":\"to-server\""))
        .collect();
    for (line, request) in sent.iter().zip(REQUESTS.lines()) {
        assert!(
            line.ends_with(&format!("\"message\":{request}}}")),
            "{line}"
        );
    }
    let received: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("{\"direction\":\"to-client\""))
        .collect();
    for (line, answer) in received
        .iter()
        .zip(String::from_utf8_lossy(&direct).lines())
    {
        assert!(line.ends_with(&format!("\"message\":{answer}}}")), "{line}");
    }
    let audit = Command::new(BIN)
        .args([
            "audit",
            capture.to_str().unwrap(),
            "--output-format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(audit.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&audit.stdout).unwrap();
    assert_eq!(report["calls"][0]["tool"], "get_weather");
    assert_eq!(report["calls"][0]["findings"][0]["code"], "SL605");
    assert_eq!(report["rpc_errors"][0]["tool"], "boom");
    assert_eq!(report["skipped"], serde_json::json!([]));
    // A second session appends to the same capture.
    feed(
        &mut record(
            &capture,
            &["python3", tool_server().to_str().unwrap(), "legacy"],
        ),
        REQUESTS,
    );
    assert_eq!(
        std::fs::read_to_string(&capture).unwrap().lines().count(),
        18
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_exit_status_passes_through() {
    let dir = scratch("status");
    let capture = dir.join("c.jsonl");
    let (status, _) = feed(
        &mut record(
            &capture,
            &[
                "python3",
                "-c",
                "import sys; sys.stdout.write('not json\\n'); sys.exit(3)",
            ],
        ),
        "",
    );
    assert_eq!(status.code(), Some(3));
    let text = std::fs::read_to_string(&capture).unwrap();
    assert!(text.contains("\"direction\":\"to-client\""), "{text}");
    assert!(text.contains("\"line\":\"not json\""), "{text}");
    let (status, _) = feed(&mut record(&capture, &["no-such-server-command"]), "");
    assert_eq!(status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A server that writes its pid to `pidfile`, then sleeps 30 s; `trap` makes it ignore SIGTERM.
fn sleeper(capture: &Path, pidfile: &Path, trap: bool) -> std::process::Child {
    let script = format!(
        "import os, signal, sys, time\n{}open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid()))\nos.rename(sys.argv[1] + '.tmp', sys.argv[1])\ntime.sleep(30)\n",
        if trap { "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" } else { "" }
    );
    record(
        capture,
        &["python3", "-c", &script, pidfile.to_str().unwrap()],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::null())
    .spawn()
    .unwrap()
}

fn wait_for(file: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !file.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::read_to_string(file).unwrap()
}

fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
        .is_ok_and(|stat| !stat.contains(") Z "))
}

fn gone_within(pid: &str, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while alive(pid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

#[test]
fn signals_pass_through_and_the_server_never_outlives_the_proxy() {
    let dir = scratch("signals");
    let capture = dir.join("c.jsonl");
    // SIGTERM to the proxy reaches the server, which dies of it; so does the proxy.
    let pidfile = dir.join("term.pid");
    let mut proxy = sleeper(&capture, &pidfile, false);
    let server = wait_for(&pidfile);
    unsafe_kill(proxy.id(), libc::SIGTERM);
    let status = proxy.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
    assert!(gone_within(&server, Duration::from_secs(5)));

    // A server that ignores SIGTERM keeps running, and so does the proxy, until the proxy is
    // killed: then the server goes too.
    let pidfile = dir.join("kill.pid");
    let mut proxy = sleeper(&capture, &pidfile, true);
    let server = wait_for(&pidfile);
    unsafe_kill(proxy.id(), libc::SIGTERM);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        proxy.try_wait().unwrap().is_none(),
        "the proxy waits for its server"
    );
    assert!(alive(&server));
    proxy.kill().unwrap();
    proxy.wait().unwrap();
    assert!(
        gone_within(&server, Duration::from_secs(5)),
        "the server outlived a killed proxy"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn unsafe_kill(pid: u32, signal: i32) {
    // SAFETY: kill(2) on a child this test started.
    unsafe {
        libc::kill(i32::try_from(pid).unwrap(), signal);
    }
}

/// Starts `fake_server.py http`; its port and its request log.
fn http_fake(dir: &Path) -> (std::process::Child, String, PathBuf) {
    let portfile = dir.join("port");
    let child = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/fake_server.py"))
        .args(["http", portfile.to_str().unwrap()])
        .spawn()
        .unwrap();
    let port = wait_for(&portfile);
    (child, port, dir.join("port.log"))
}

/// Starts `record --listen 127.0.0.1:0 --upstream URL`; the proxy and its address.
fn http_proxy(upstream: &str, capture: &Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = Command::new(BIN)
        .args([
            "record",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            upstream,
            "-o",
        ])
        .arg(capture)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    (child, address)
}

fn check_url(url: &str) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(["--url", url, "--output-format", "concise"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace(url, "URL");
    (out.status.code(), text)
}

#[test]
fn the_http_proxy_forwards_answers_and_streams_and_keeps_every_message() {
    let dir = scratch("http");
    let (mut server, port, requests) = http_fake(&dir);
    for path in ["mcp", "sse"] {
        let upstream = format!("http://127.0.0.1:{port}/{path}");
        let capture = dir.join(format!("{path}.jsonl"));
        let (mut proxy, address) = http_proxy(&upstream, &capture);
        let direct = check_url(&upstream);
        let proxied = check_url(&format!("http://{address}/"));
        assert_eq!(direct.0, Some(1), "{}", direct.1);
        assert_eq!(proxied, direct, "{path}");
        proxy.kill().unwrap();
        proxy.wait().unwrap();
        let text = std::fs::read_to_string(&capture).unwrap();
        let entries: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let methods: Vec<&str> = entries
            .iter()
            .filter(|e| e["direction"] == "to-server")
            .filter_map(|e| e["message"]["method"].as_str())
            .collect();
        assert_eq!(
            methods,
            ["server/discover", "tools/list", "tools/list", "tools/list"],
            "{path}"
        );
        let answers = entries
            .iter()
            .filter(|e| e["direction"] == "to-client" && e["message"].get("result").is_some())
            .count();
        assert_eq!(answers, 4, "{path}: {text}");
        if path == "sse" {
            // The notification of each event stream is kept too.
            assert!(text.contains("notifications/message"), "{text}");
        }
    }
    // The session the server gave went back through the proxy, and so did its DELETE.
    let log = std::fs::read_to_string(&requests).unwrap();
    assert!(log.contains("DELETE /mcp session-42"), "{log}");
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_http_proxy_listens_on_loopback_only() {
    let out = Command::new(BIN)
        .args([
            "record",
            "--listen",
            "0.0.0.0:0",
            "--upstream",
            "http://127.0.0.1:1/mcp",
            "-o",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("loopback only"));
}

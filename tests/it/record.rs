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
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
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
    http_proxy_within(upstream, capture, None)
}

/// [`http_proxy`], with at most `kib` KiB of address space when given.
fn http_proxy_within(
    upstream: &str,
    capture: &Path,
    kib: Option<u64>,
) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut command = match kib {
        Some(kib) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("ulimit -v {kib}; exec \"$0\" \"$@\""))
                .arg(BIN);
            sh
        }
        None => Command::new(BIN),
    };
    let mut child = command
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
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
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

/// Runs `command` as [`feed`] does; its status, standard output and standard error.
fn feed_all(command: &mut Command, input: &str) -> (std::process::ExitStatus, String, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut stdout, &mut out).unwrap();
    writer.join().unwrap();
    let out = String::from_utf8_lossy(&out).into_owned();
    (child.wait().unwrap(), out, errors.join().unwrap())
}

/// A session with `tool_server.py`: the handshake, `n` listings, then a call of each tool named.
fn session(n: usize, tools: &[&str]) -> String {
    use std::fmt::Write as _;
    let mut text = REQUESTS.lines().take(2).collect::<Vec<_>>().join("\n");
    text.push('\n');
    for k in 0..n {
        let _ = writeln!(
            text,
            "{{\"jsonrpc\":\"2.0\",\"id\":\"l{k}\",\"method\":\"tools/list\"}}"
        );
    }
    for (k, tool) in tools.iter().enumerate() {
        let _ = writeln!(
            text,
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{{}}}}}}",
            k + 3
        );
    }
    text
}

/// Every line of the capture at `path`, each of which must be JSON.
fn entries(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// #41 item 3: a write of the capture that fails (a full disk, `ulimit -f`) or would go past
/// `--max-size` is said on standard error, naming the file, and the proxy exits 2; the traffic
/// still passes, and what the capture holds is whole lines. It was: exit 0, nothing said, with
/// `/dev/full` no entry at all.
#[test]
fn a_capture_that_cannot_be_written_is_said_and_the_run_fails() {
    let _serial = crate::common::serial();
    let dir = scratch("full");
    let script = tool_server();
    let server = ["python3", script.to_str().unwrap(), "legacy"];
    let (status, out, stderr) = feed_all(&mut record(Path::new("/dev/full"), &server), REQUESTS);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("/dev/full: cannot write the capture: No space left on device"),
        "{stderr}"
    );
    assert_eq!(out.lines().count(), 4, "every answer still passes: {out}");
    // A file that may not grow past 16 KiB (bash counts `ulimit -f` in KiB).
    let capture = dir.join("limited.jsonl");
    let mut limited = Command::new("bash");
    limited
        .arg("-c")
        .arg("ulimit -f 16; exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(["record", "-o"])
        .arg(&capture)
        .arg("--")
        .args(server);
    let (status, out, stderr) = feed_all(&mut limited, &session(100, &[]));
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("limited.jsonl: cannot write the capture: File too large"),
        "{stderr}"
    );
    assert_eq!(out.lines().count(), 101, "every answer still passes");
    // Whole entries, up to the limit: fewer than the 203 messages that went by.
    assert!(std::fs::metadata(&capture).unwrap().len() <= 16 << 10);
    let kept = entries(&capture);
    assert!(kept.len() > 2 && kept.len() < 203, "{}", kept.len());
    // The cap.
    let capture = dir.join("capped.jsonl");
    let mut capped = Command::new(BIN);
    capped
        .args(["record", "--max-size", "1", "-o"])
        .arg(&capture)
        .arg("--")
        .args(server);
    let (status, out, stderr) = feed_all(&mut capped, &session(600, &[]));
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("capped.jsonl: the capture reached its cap of 1 MiB (`--max-size`)"),
        "{stderr}"
    );
    assert_eq!(out.lines().count(), 601);
    assert!(std::fs::metadata(&capture).unwrap().len() <= 1 << 20);
    assert!(entries(&capture).len() > 100);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// #41 items 9 and 10: what `record` writes, its `audit` reads. A session killed mid-write left
/// a cut line, and the next session's first entry was glued onto it; a message with a byte that
/// is not UTF-8 was written as it was, and `audit` refused its line ("no response in the
/// capture"); valid JSON that `serde_json` refuses (`1e400`, `"\ud800"`) went in as text.
#[test]
fn record_writes_what_its_audit_reads_and_never_appends_to_a_cut_line() {
    let _serial = crate::common::serial();
    let dir = scratch("agree");
    let capture = dir.join("capture.jsonl");
    let cut = r#"{"direction":"to-server","time":"2026-12-05T08:00:00.000Z","message":{"jsonrpc":"2.0","id":9,"meth"#;
    std::fs::write(&capture, cut).unwrap();
    let script = tool_server();
    let server = ["python3", script.to_str().unwrap(), "odd"];
    // As a client talks: each answer awaited before the next request.
    let (status, out) = feed(
        &mut record(&capture, &server),
        &session(1, &["latin1", "odd_values"]),
    );
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        out.split(|b| *b == b'\n').filter(|l| !l.is_empty()).count(),
        4
    );
    let text = std::fs::read_to_string(&capture).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], cut, "the cut line stays alone");
    let first: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(first["message"]["method"], "initialize");
    let answer = |id: u64| {
        lines
            .iter()
            .find(|l| {
                l.starts_with("{\"direction\":\"to-client\"")
                    && (l.contains(&format!("\"id\": {id},"))
                        || l.contains(&format!("\"id\":{id},")))
            })
            .copied()
            .unwrap_or_else(|| panic!("no answer {id}: {text}"))
    };
    let latin1: serde_json::Value = serde_json::from_str(answer(3)).unwrap();
    assert_eq!(
        latin1["message"]["result"]["structuredContent"]["city"],
        "Caf\u{fffd}"
    );
    assert_eq!(
        latin1["note"],
        "bytes that are not UTF-8 were replaced by U+FFFD"
    );
    let odd = answer(4);
    assert!(
        odd.ends_with(r#""message":{"jsonrpc": "2.0", "id": 4, "result": {"content": [], "structuredContent": {"n": 1e400, "s": "\ud800"}}}}"#),
        "kept as a message, byte for byte: {odd}"
    );
    let audit = Command::new(BIN)
        .args([
            "audit",
            capture.to_str().unwrap(),
            "--output-format",
            "json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&audit.stdout).unwrap();
    // Exit 2: the cut line is not JSON, and is reported.
    assert_eq!(audit.status.code(), Some(2));
    assert_eq!(report["input_errors"][0]["line"], 1);
    assert_eq!(report["unanswered"], serde_json::json!([]), "{report}");
    let calls = report["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{report}");
    assert!(calls.iter().all(|c| c["valid"] == true), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A child killed when dropped, so that a failed assertion leaves no proxy behind.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The threads of process `pid`.
fn threads(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

/// #41 item 4: an event that never ends (an upstream that never sends the blank line) is held
/// up to the cap of a message, not whole. It was: 2 GB in 10 s; here 400 MiB pass through a
/// proxy that may use 400 MiB of address space.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_event_is_passed_on_in_bounded_memory() {
    use std::io::Read;
    let _serial = crate::common::serial();
    let dir = scratch("endless");
    let (mut server, port, _) = http_fake(&dir);
    let capture = dir.join("capture.jsonl");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 409600; exec \"$0\" \"$@\"")
        .arg(BIN)
        .args([
            "record",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &format!("http://127.0.0.1:{port}/endless-event"),
            "-o",
        ])
        .arg(&capture)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let mut child = Killed(child);
    let address = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut chunk = vec![0u8; 1 << 20];
    let mut read = 0usize;
    while read < 400 << 20 {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    assert!(read >= 400 << 20, "the proxy stopped after {read} bytes");
    assert!(child.0.try_wait().unwrap().is_none(), "the proxy died");
    drop(stream);
    drop(child);
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// #41 item 4: connections past the cap are answered 503 at once and cost no thread, and the
/// proxy lives on in 1 GiB of address space. It was a thread per connection: 4,000 idle
/// connections, 4,001 threads; under 1 GiB it died at the 153rd ("failed to spawn thread").
#[cfg(target_os = "linux")]
#[test]
fn the_http_proxy_serves_a_bounded_number_of_connections() {
    use std::io::Read;
    let _serial = crate::common::serial();
    let dir = scratch("connections");
    let (mut server, port, _) = http_fake(&dir);
    let upstream = format!("http://127.0.0.1:{port}/mcp");
    let (proxy, address) = http_proxy_within(&upstream, &dir.join("capture.jsonl"), Some(1 << 20));
    let proxy = Killed(proxy);
    // A connect the kernel refuses while the listen queue is full (other tests load the machine)
    // is tried again: that the proxy lives on is checked below, by its threads and its answer.
    let connect = || {
        for _ in 0..100 {
            match std::net::TcpStream::connect(&address) {
                Ok(stream) => return stream,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => panic!("{e}"),
            }
        }
        panic!("the proxy refused connections for 2 s");
    };
    let idle: Vec<std::net::TcpStream> = (0..300).map(|_| connect()).collect();
    let mut refused = 0;
    for mut stream in &idle {
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let mut head = [0u8; 12];
        if stream.read_exact(&mut head).is_ok() && &head == b"HTTP/1.1 503" {
            refused += 1;
        }
    }
    let held = threads(proxy.0.id());
    assert!(held <= 64 + 2, "{held} threads for 300 idle connections");
    assert!(refused >= 300 - 64, "{refused} connections refused");
    drop(idle);
    // Once the idle ones are gone, the proxy serves again.
    let deadline = Instant::now() + Duration::from_secs(20);
    let proxied = loop {
        let proxied = check_url(&format!("http://{address}/"));
        if proxied.0 == Some(1) || Instant::now() > deadline {
            break proxied;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(proxied.0, Some(1), "{}", proxied.1);
    drop(proxy);
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

//! `check --server`, `check --url` and `dump` against fake MCP servers (`tests/live/fake_server.py`,
//! Python's standard library only): paging, the protocol choice, the target following it, a dump
//! linting the same as the live server, and every bad-input case a clear one-line error with exit
//! 2 and no process left behind. The real SDK servers are in `tests/integration/live.sh`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

fn fake(mode: &str) -> String {
    format!("python3 {} {mode}", script().display())
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/fake_server.py")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-lint-live-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs schema-lint, killing it should it outlive a minute.
fn run(args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("schema-lint {args:?} ran for a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (code, pointer, message) of every finding of a JSON report.
fn findings(json: &str) -> Vec<(String, String, String)> {
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["pointer"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pid_alive(pid: &str) -> bool {
    Path::new("/proc").join(pid.trim()).exists()
        && !std::fs::read_to_string(Path::new("/proc").join(pid.trim()).join("stat"))
            .unwrap_or_default()
            .contains(") Z ")
}

#[test]
fn a_modern_server_is_paged_and_its_dump_lints_the_same() {
    let server = fake("modern");
    let (code, out, err) = run(&["check", "--server", &server, "--output-format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let live = findings(&out);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["diagnostics"][0]["path"], server.as_str());
    // Page 2's tool `b` has the bad `$id`; page 3's array root is allowed on 2026-07-28, the
    // negotiated revision, so SL501 is only a warning there (2025 clients still read it).
    assert_eq!(
        live,
        [
            (
                "SL201".to_owned(),
                "/result/tools/1/outputSchema/$id".to_owned(),
                "`$id` `my_tool:output` is not a valid URI reference (tool `b`, outputSchema)"
                    .to_owned()
            ),
            (
                "SL501".to_owned(),
                "/result/tools/3/outputSchema/type".to_owned(),
                "Output schema root has `\"type\": \"array\"` instead of `\"type\": \"object\"` \
                 (tool `d`, outputSchema)"
                    .to_owned()
            )
        ]
    );
    assert_eq!(severity_of(&out, "SL501"), "warning");
    let (code, dump, err) = run(&["dump", "--server", &server]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("Listed 4 tools") && err.contains("3 pages") && err.contains("2026-07-28"),
        "{err}"
    );
    let dir = scratch("dump");
    let file = dir.join("tools.json");
    std::fs::write(&file, &dump).unwrap();
    let (code, out, _) = run(&["check", file.to_str().unwrap(), "--output-format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&out),
        live,
        "the dump lints as the live server does"
    );
    // The human report shows the excerpt of the dumped document, at its line and column.
    let (_, human, _) = run(&["check", "--server", &server]);
    let id_line = dump
        .lines()
        .position(|l| l.contains("my_tool:output"))
        .unwrap()
        + 1;
    assert!(human.contains(&format!("─[{server}:{id_line}:")), "{human}");
    // --target overrides the negotiated revision: the array root is an error on 2025-11-25.
    let (_, out, _) = run(&[
        "--server",
        &server,
        "--target",
        "mcp-2025-11-25",
        "--output-format",
        "json",
    ]);
    assert!(findings(&out)
        .iter()
        .any(|(c, p, _)| c == "SL501" && p.starts_with("/result/tools/3/")));
    assert_eq!(severity_of(&out, "SL501"), "error");
}

/// The severity of the first finding of `code` in a JSON report.
fn severity_of(json: &str, code: &str) -> String {
    let v: Value = serde_json::from_str(json).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code)
        .and_then(|d| d["severity"].as_str())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_2025_server_gets_the_handshake_and_its_revision_is_the_target() {
    let (code, out, err) = run(&["dump", "--server", &fake("legacy")]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["result"]["_meta"]["schema-lint/dump"]["protocol"],
        "2025-06-18"
    );
    assert_eq!(
        v["result"]["_meta"]["schema-lint/dump"]["server"]["name"],
        "fake-legacy"
    );
    let (code, out, _) = run(&["--server", &fake("legacy"), "--output-format", "concise"]);
    assert_eq!(code, 1);
    assert!(out.contains("SL501"), "{out}");
}

#[test]
fn server_requests_and_notifications_do_not_disturb_the_listing() {
    let (code, _, err) = run(&["dump", "--server", &fake("notify")]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn files_and_several_servers_in_one_run() {
    let dir = scratch("mixed");
    std::fs::write(
        dir.join("s.json"),
        r#"{"$id": "my_tool:y", "type": "object"}"#,
    )
    .unwrap();
    let (code, out, _) = run(&[
        dir.to_str().unwrap(),
        "--server",
        &fake("modern"),
        "--server",
        &fake("legacy"),
        "--output-format",
        "concise",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("s.json"), "{out}");
    assert!(out.contains("modern:") && out.contains("legacy:"), "{out}");
}

/// Runs a bad server and returns (exit code, every line printed).
fn bad(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    format!("{out}{err}")
}

#[test]
fn bad_servers_are_one_clear_error_each() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("exit", &[], "the server exited with status 3 before answering; the end of its stderr: starting fake server | boom: API_KEY is not set"),
        ("log-stdout", &[], "line 1 of the server's standard output is not JSON-RPC: `Starting MCP server on stdio...`"),
        ("init-error", &[], "the server answered `initialize` with an error: the server is not configured: set API_KEY (code -32603)"),
        ("list-error", &[], "the server answered `tools/list` with an error: listing failed (code -32000)"),
        ("same-cursor", &[], "sent the cursor `again` twice: its pages never end"),
        ("endless", &[], "still had more pages after 1000: its pages never end"),
        ("huge", &[], "larger than 64 MiB"),
        ("unknown", &[], "speaks only protocol 2099-01-01"),
        ("legacy", &["--protocol", "2026-07-28"], "does not speak protocol 2026-07-28"),
        ("hang", &["--timeout", "1"], "no answer within 1 s (`--timeout`)"),
    ];
    for (mode, extra, wanted) in cases {
        let server = fake(mode);
        let mut args = vec![
            "check",
            "--server",
            server.as_str(),
            "--output-format",
            "concise",
        ];
        args.extend_from_slice(extra);
        let printed = bad(&args);
        assert!(
            printed.contains(wanted),
            "{mode}: wanted `{wanted}` in:\n{printed}"
        );
        assert!(printed.contains("SL100"), "{printed}");
    }
    let printed = bad(&["dump", "--server", "no-such-command-here --flag"]);
    assert!(
        printed.contains("command not found: `no-such-command-here`"),
        "{printed}"
    );
    let printed = bad(&["--server", "node 'unclosed"]);
    assert!(printed.contains("quotes"), "{printed}");
    let printed = bad(&["--server", &fake("modern"), "--fix"]);
    assert!(
        printed.contains("cannot change a running server"),
        "{printed}"
    );
}

#[test]
fn no_server_is_left_running() {
    for (mode, extra) in [("hang", vec!["--timeout", "1"]), ("stubborn", vec![])] {
        let dir = scratch(mode);
        let pidfile = dir.join("pid");
        let server = format!("{} {}", fake(mode), pidfile.display());
        let mut args = vec!["dump", "--server", server.as_str()];
        args.extend(extra);
        let start = Instant::now();
        let _ = run(&args);
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        assert!(
            !pid_alive(&pid),
            "{mode}: the server {pid} is still running"
        );
        // stdin closed, then SIGTERM, then SIGKILL: a few seconds at most.
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{mode}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn ctrl_c_stops_the_server_too() {
    let dir = scratch("sigint");
    let pidfile = dir.join("pid");
    let server = format!("{} {}", fake("hang"), pidfile.display());
    let mut child = Command::new(BIN)
        .args(["dump", "--server", &server, "--timeout", "30"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !pidfile.exists() || std::fs::read_to_string(&pidfile).unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: sending SIGINT to the child this test started.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let server_pid = std::fs::read_to_string(&pidfile).unwrap();
    let gone = Instant::now() + Duration::from_secs(5);
    while pid_alive(&server_pid) {
        assert!(Instant::now() < gone, "the server outlived Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The fake HTTP server, on a free loopback port: (its base URL, the request log, the process).
fn http_server(name: &str) -> (String, PathBuf, std::process::Child) {
    let dir = scratch(name);
    let portfile = dir.join("port");
    let child = Command::new("python3")
        .arg(script())
        .args(["http", portfile.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !portfile.exists() {
        assert!(Instant::now() < deadline, "the HTTP server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let port = std::fs::read_to_string(&portfile).unwrap();
    (
        format!("http://127.0.0.1:{}", port.trim()),
        dir.join("port.log"),
        child,
    )
}

#[test]
fn streamable_http_answers_sessions_and_errors() {
    let (base, log, mut child) = http_server("http");
    let url = |path: &str| format!("{base}{path}");
    // JSON answers with a session id, closed with DELETE.
    let (code, out, err) = run(&["--url", &url("/mcp"), "--output-format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(findings(&out)[0].0, "SL201");
    let requests = std::fs::read_to_string(&log).unwrap();
    assert!(
        requests.contains("POST /mcp server/discover None 2026-07-28"),
        "{requests}"
    );
    assert!(
        requests.contains("POST /mcp tools/list session-42 2026-07-28"),
        "{requests}"
    );
    assert!(requests.contains("DELETE /mcp session-42"), "{requests}");
    // Event streams, with a notification before the response.
    let (code, _, err) = run(&["dump", "--url", &url("/sse")]);
    assert_eq!(code, 0, "{err}");
    // A 2025 server that refuses the probe with HTTP 400: the handshake, then its session.
    let (code, dump, err) = run(&["dump", "--url", &url("/legacy")]);
    assert_eq!(code, 0, "{err}");
    assert!(dump.contains("\"protocol\": \"2025-06-18\""), "{dump}");
    let requests = std::fs::read_to_string(&log).unwrap();
    assert!(
        requests.contains("POST /legacy tools/list legacy-session 2025-06-18"),
        "{requests}"
    );
    let cases = [
        ("/auth", "HTTP 401 Unauthorized: the server wants credentials; pass them with `--header 'Authorization: Bearer ...'`"),
        ("/missing", "HTTP 404 Not Found: no MCP endpoint at this URL"),
        ("/fail", "HTTP 500: the server failed: `Internal Server Error: database is down`"),
        ("/html", "the answer is not MCP: HTTP 200 with content type `text/html`"),
        ("/redirect", "the server redirects to `http://example.invalid/mcp`"),
    ];
    for (path, wanted) in cases {
        let printed = bad(&["--url", &url(path), "--output-format", "concise"]);
        assert!(
            printed.contains(wanted),
            "{path}: wanted `{wanted}` in:\n{printed}"
        );
    }
    let _ = child.kill();
    let _ = child.wait();
    // Nothing listens there any more.
    let printed = bad(&["dump", "--url", &url("/mcp")]);
    assert!(printed.contains("connection refused"), "{printed}");
    let printed = bad(&["--url", "ftp://127.0.0.1/mcp"]);
    assert!(printed.contains("http:// or https://"), "{printed}");
}

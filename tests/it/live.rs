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
    let _serial = crate::common::serial();
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
/// (code, help, whether a fix is offered) of every finding of a JSON report.
fn helps(json: &str) -> Vec<(String, String, bool)> {
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["help"].as_str().unwrap_or_default().to_owned(),
                !d["fix"].is_null(),
            )
        })
        .collect()
}

#[test]
fn a_live_run_offers_no_fix_and_names_the_change_in_the_server() {
    let _serial = crate::common::serial();
    // `--fix` cannot change a running server: no finding of a live run offers a fix, nor points
    // to `--fix` or `--unsafe-fixes`; the dump of the same server, a file, does.
    for (mode, in_server) in [
        ("ts-v1", "move to `@modelcontextprotocol/server` v2"),
        ("draft7", "where the server writes the schema's `$schema`"),
        ("modern", ""),
    ] {
        let server = fake(mode);
        let (code, out, err) = run(&["check", "--server", &server, "--output-format", "json"]);
        assert_eq!(code, 1, "{out}{err}");
        let live = helps(&out);
        assert!(!live.is_empty(), "{mode}: {out}");
        for (code, help, fix) in &live {
            assert!(!fix, "{mode}: {code} offers a fix on a live run");
            assert!(
                !help.contains("--fix") && !help.contains("--unsafe-fixes"),
                "{mode}: {code}: {help}"
            );
        }
        assert!(
            live.iter().any(|(_, help, _)| help.contains(in_server)),
            "{mode}: {live:?}"
        );
        let (code, dump, err) = run(&["dump", "--server", &server]);
        assert_eq!(code, 0, "{err}");
        let dir = scratch(&format!("fixes-{mode}"));
        let file = dir.join("tools.json");
        std::fs::write(&file, &dump).unwrap();
        let (_, out, _) = run(&["check", file.to_str().unwrap(), "--output-format", "json"]);
        let dumped = helps(&out);
        assert!(dumped.iter().any(|(_, _, fix)| *fix), "{mode}: {dumped:?}");
        if mode != "modern" {
            assert!(
                dumped
                    .iter()
                    .any(|(_, help, _)| help.contains("`--unsafe-fixes`")),
                "{mode}: {dumped:?}"
            );
        }
    }
}

/// A cause some tools' schemas cannot take the fix of (a draft-07 tuple's `items` and
/// `additionalItems` mean another thing in 2020-12, and SL402 does not respell them) gets the
/// same help live as in the file: the help of the tool that cannot take it, not "no keyword whose meaning differs", which Ajv2020 (TS v2) then refutes with
/// `items value must be ["object","boolean"]`.
#[test]
fn a_live_cause_that_not_every_tool_can_take_says_what_the_file_says() {
    let _serial = crate::common::serial();
    let server = fake("draft7-tuple");
    let (_, out, err) = run(&["check", "--server", &server, "--output-format", "json"]);
    let live: Vec<String> = helps(&out)
        .into_iter()
        .filter(|(code, _, _)| code == "SL402")
        .map(|(_, help, _)| help)
        .collect();
    assert_eq!(live.len(), 1, "{out}{err}");
    assert!(
        live[0].contains("a tuple's `items` array is `prefixItems` there")
            && !live[0].contains("no keyword whose meaning differs"),
        "{}",
        live[0]
    );
    let (_, dump, _) = run(&["dump", "--server", &server]);
    let dir = scratch("tuple");
    let file = dir.join("tools.json");
    std::fs::write(&file, &dump).unwrap();
    let (_, out, _) = run(&["check", file.to_str().unwrap(), "--output-format", "json"]);
    let dumped: Vec<String> = helps(&out)
        .into_iter()
        .filter(|(code, _, _)| code == "SL402")
        .map(|(_, help, _)| help)
        .collect();
    assert_eq!(dumped.len(), 1, "{out}");
    assert!(
        dumped[0].starts_with(&live[0]),
        "{} / {}",
        dumped[0],
        live[0]
    );
}

/// A 2026-07-28 server whose `tools/list` result lacks `resultType` and the caching hints: the
/// dump keeps what the server sent (nothing), and Claude Code, which refuses such a listing from
/// the versions its reports name, is the client that makes it an error; at 2.0.0 it is not one.
#[test]
fn a_modern_listing_without_its_envelope_loses_claude_code() {
    let _serial = crate::common::serial();
    let dir = scratch("envelope");
    // A conforming server's dump keeps its envelope, and nothing is found in it.
    let (code, dump, err) = run(&["dump", "--server", &fake("modern")]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&dump).unwrap();
    assert_eq!(v["result"]["resultType"], "complete");
    assert_eq!(v["result"]["ttlMs"], 0);
    assert_eq!(v["result"]["cacheScope"], "private");
    let server = fake("bare");
    let (code, dump, err) = run(&["dump", "--server", &server]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&dump).unwrap();
    assert!(v["result"].get("resultType").is_none(), "{dump}");
    let file = dir.join("tools.json");
    std::fs::write(&file, &dump).unwrap();
    for source in [
        vec!["--server", server.as_str()],
        vec![file.to_str().unwrap()],
    ] {
        let mut args = vec!["check", "--output-format", "json"];
        args.extend(&source);
        let (code, out, err) = run(&args);
        assert_eq!(code, 1, "{out}{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let envelope: Vec<&Value> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "SL510")
            .collect();
        assert_eq!(envelope.len(), 2, "{out}");
        for d in &envelope {
            assert_eq!(d["severity"], "error", "{d}");
            assert_eq!(d["decided_by"], serde_json::json!(["claude-code"]), "{d}");
            assert_eq!(d["breaks"][0]["client"], "claude-code");
            assert_eq!(d["breaks"][0]["effect"], "loses-tool-list");
            assert!(d["breaks"][0]["versions"]["from"].is_string(), "{d}");
        }
        assert!(envelope[0]["message"]
            .as_str()
            .unwrap()
            .contains("`resultType`"));
        // At a version before the reports, no client refuses it: an info, no breaks.
        let mut args = vec![
            "check",
            "--output-format",
            "json",
            "--clients",
            "claude-code@2.0.0",
        ];
        args.extend(&source);
        let (_, out, _) = run(&args);
        let v: Value = serde_json::from_str(&out).unwrap();
        let envelope: Vec<&Value> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "SL510")
            .collect();
        assert_eq!(envelope.len(), 2, "{out}");
        for d in envelope {
            assert_eq!(d["severity"], "info", "{d}");
            assert_eq!(d["breaks"].as_array().map_or(0, Vec::len), 0, "{d}");
        }
    }
    // The same listing answered on 2025-11-25 (the `listing=` mode) needs none of it.
    let (_, out, err) = run(&[
        "check",
        "--output-format",
        "json",
        "--server",
        &fake(&format!("listing={}", file.display())),
    ]);
    assert!(!out.contains("SL510"), "{out}{err}");
}

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
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
    let (code, _, err) = run(&["dump", "--server", &fake("notify")]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn files_and_several_servers_in_one_run() {
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
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
        // A server, not a file: SL102, never the parse error of a file.
        assert!(printed.contains("SL102"), "{printed}");
        assert!(!printed.contains("SL100"), "{printed}");
    }
    // A program that echoes its requests is not an MCP server (main: read as the server
    // answering `initialize` with "Method not found", the reply it had echoed back).
    let printed = bad(&["--server", "cat", "--output-format", "concise"]);
    assert!(
        printed.contains(
            "the program sent back the `server/discover` request it was given: a program that \
             echoes its input (such as `cat`) is not an MCP server"
        ),
        "{printed}"
    );
    // The human report names the server, shows no empty source box, and counts it as a server.
    let printed = bad(&["--server", &fake("exit")]);
    assert!(
        printed.contains(&format!(
            "{}: Cannot list the tools of the server",
            fake("exit")
        )),
        "{printed}"
    );
    assert!(!printed.contains("╭"), "{printed}");
    assert!(
        printed.contains("Found 1 finding (1 error) in 1 server linted"),
        "{printed}"
    );
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
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
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
    let _serial = crate::common::serial();
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

// --- #24 live servers ---

/// What a measured run gives: exit code, stdout, stderr, peak memory (KiB), time taken.
struct Measured {
    code: i32,
    out: String,
    err: String,
    peak_kib: i64,
    took: Duration,
}

/// Python's wait for a child and its peak memory: the child is forked from this small process,
/// not from the test binary, whose own peak a child spawned from it would report as its own
/// (Linux keeps the larger of the old and the new address space's peak across `execve`, and
/// the test binary holds every module's tests).
const MEASURE: &str = "import os, sys\n\
pid = os.fork()\n\
if pid == 0:\n    os.execv(sys.argv[2], sys.argv[2:])\n\
_, status, usage = os.wait4(pid, 0)\n\
open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n\
code = os.waitstatus_to_exitcode(status)\n\
sys.exit(code if code >= 0 else 255)\n";

/// Runs schema-lint and measures its peak memory (`wait4`, in a small Python parent), killing
/// it should it outlive a minute.
fn run_measured(args: &[&str]) -> Measured {
    use std::io::Read;
    let start = Instant::now();
    let peak_file = std::env::temp_dir().join(format!(
        "schema-lint-peak-{}-{}",
        std::process::id(),
        PEAKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(MEASURE)
        .arg(&peak_file)
        .arg(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = start + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("schema-lint {args:?} ran for a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let peak = std::fs::read_to_string(&peak_file).unwrap_or_default();
    let _ = std::fs::remove_file(&peak_file);
    Measured {
        code: match status.code() {
            Some(255) | None => -1,
            Some(code) => code,
        },
        out: out.join().unwrap(),
        err: err.join().unwrap(),
        peak_kib: peak.trim().parse().unwrap_or(i64::MAX),
        took: start.elapsed(),
    }
}

static PEAKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Kills, when the test ends however it ends, the processes whose pids are in these files
/// (the servers a test started, should schema-lint have left them).
struct Reap(Vec<PathBuf>);

impl Drop for Reap {
    fn drop(&mut self) {
        for file in &self.0 {
            if let Ok(pid) = std::fs::read_to_string(file)
                .unwrap_or_default()
                .trim()
                .parse()
            {
                // SAFETY: SIGKILL to a server this test started.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// Waits up to `within` for every pid in `files` to be gone; the ones still running.
fn still_running(files: &[PathBuf], within: Duration) -> Vec<String> {
    let deadline = Instant::now() + within;
    loop {
        let alive: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap_or_default())
            .filter(|pid| pid_alive(pid))
            .collect();
        if alive.is_empty() || Instant::now() > deadline {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for the files a server writes at its start.
fn wait_for_files(files: &[PathBuf]) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !files.iter().all(|f| f.exists()) {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_server_that_stops_reading_its_input_is_bounded_by_the_timeout() {
    let _serial = crate::common::serial();
    // The server sends 5000 pings and reads nothing: the answers fill the pipe to it.
    let dir = scratch("no-read");
    let pidfile = dir.join("pid");
    let _reap = Reap(vec![pidfile.clone()]);
    let server = format!("{} {}", fake("no-read"), pidfile.display());
    let run = run_measured(&["dump", "--server", &server, "--timeout", "2"]);
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err
            .contains("the server did not read the request within 2 s (`--timeout`)"),
        "{}",
        run.err
    );
    // 2 s, then closing its input, SIGTERM after 1.5 s (main: until the server exits, 30 s).
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
    assert_eq!(
        still_running(&[pidfile], Duration::ZERO),
        Vec::<String>::new()
    );
}

/// `sh -c` around a server that forks a child: (the command line, the pid files of the server
/// and of its child).
fn wrapped_forking(mode: &str, name: &str) -> (String, Vec<PathBuf>) {
    let dir = scratch(name);
    let pidfile = dir.join("pid");
    // `; exit` keeps the shell from exec-ing the server: it stays the server's parent.
    let server = format!("sh -c '{} {}; exit $?'", fake(mode), pidfile.display());
    let child = PathBuf::from(format!("{}.child", pidfile.display()));
    (server, vec![pidfile, child])
}

#[test]
fn a_wrapper_and_what_its_server_forks_stop_with_the_server() {
    let _serial = crate::common::serial();
    let (server, pids) = wrapped_forking("fork", "fork");
    let _reap = Reap(pids.clone());
    let (code, _, err) = run(&["dump", "--server", &server]);
    assert_eq!(code, 0, "{err}");
    // Gone when schema-lint has exited (main: the forked child slept on for 30 s).
    assert_eq!(still_running(&pids, Duration::ZERO), Vec::<String>::new());
}

#[test]
fn a_killed_schema_lint_takes_the_servers_group_with_it() {
    let _serial = crate::common::serial();
    let (server, pids) = wrapped_forking("fork-hang", "sigkill");
    let _reap = Reap(pids.clone());
    let mut child = Command::new(BIN)
        .args(["dump", "--server", &server, "--timeout", "30"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_files(&pids);
    child.kill().unwrap();
    let _ = child.wait();
    // The server dies with schema-lint (PR_SET_PDEATHSIG), its child by the watchdog.
    assert_eq!(
        still_running(&pids, Duration::from_secs(5)),
        Vec::<String>::new()
    );
}

#[test]
fn endless_stderr_without_a_newline_costs_bounded_memory() {
    let _serial = crate::common::serial();
    // 300 MB of stderr in one line, then no answer (main: 328 MB kept, and none of it shown).
    let run = run_measured(&["dump", "--server", &fake("stderr-flood"), "--timeout", "3"]);
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err.contains(&format!(
            "no answer within 3 s (`--timeout`); the end of its stderr: {}…",
            "x".repeat(120)
        )),
        "{}",
        run.err
    );
    assert!(run.peak_kib < 100 << 10, "{} KiB", run.peak_kib);
}

#[test]
fn a_listing_is_bounded_in_bytes_and_tools_and_says_so() {
    let _serial = crate::common::serial();
    // 40 pages of 8 MB (main: all kept, 375 MB, then "no answer" at the timeout).
    let run = run_measured(&["dump", "--server", &fake("big-pages"), "--timeout", "20"]);
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err.contains(
            "`tools/list` sent more than 64 MiB (8 tools in 8 pages): schema-lint stops there"
        ),
        "{}",
        run.err
    );
    assert!(run.peak_kib < 250 << 10, "{} KiB", run.peak_kib);
    // 8 pages of 20,000 tools (main: all 160,000 listed, 531 MB).
    let run = run_measured(&["dump", "--server", &fake("many-tools"), "--timeout", "30"]);
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err.contains(
            "`tools/list` sent more than 100000 tools (120000 in 6 pages): schema-lint stops there"
        ),
        "{}",
        run.err
    );
    assert!(run.peak_kib < 400 << 10, "{} KiB", run.peak_kib);
}

#[test]
fn messages_nest_as_deep_as_files_may() {
    let _serial = crate::common::serial();
    // 200 levels: a file that deep is linted, so is the answer (main: "not JSON-RPC").
    // (Its dump is larger than a pipe holds: read as it is written.)
    let run200 = run_measured(&["dump", "--server", &fake("deep-200")]);
    assert_eq!(run200.code, 0, "{}", run200.err);
    assert!(run200.out.contains("\"name\": \"deep\""), "{}", run200.err);
    let (code, out, err) = run(&["--server", &fake("deep-200"), "--output-format", "concise"]);
    assert!(code < 2 && !out.contains("SL100"), "{out}{err}");
    let printed = bad(&["dump", "--server", &fake("deep-300")]);
    assert!(
        printed.contains("line 2 of the server's standard output is nested deeper than 256 levels"),
        "{printed}"
    );
    let (base, _, mut child) = http_server("http-deep");
    let run200 = run_measured(&["dump", "--url", &format!("{base}/deep-200")]);
    assert_eq!(run200.code, 0, "{}", run200.err);
    let printed = bad(&["dump", "--url", &format!("{base}/deep-300")]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        printed.contains("the server's answer is nested deeper than 256 levels"),
        "{printed}"
    );
}

#[test]
fn an_http_body_that_stalls_times_out_as_stdio_does() {
    let _serial = crate::common::serial();
    let (base, _, mut child) = http_server("http-stall");
    let run = run_measured(&["dump", "--url", &format!("{base}/stall"), "--timeout", "1"]);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err.contains("no answer within 1 s (`--timeout`)") && !run.err.contains("global"),
        "{}",
        run.err
    );
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
}

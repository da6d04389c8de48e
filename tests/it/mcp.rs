//! `schema-lint mcp` as a client meets it: the binary driven over standard input and output, a
//! JSON-RPC message a line. Each answer comes before the next message is sent (a client waits
//! for it); a script of messages, bad ones among them, is answered in order and the server
//! ends with 0 when its input ends; under `strace` (when installed), an exchange whose schemas
//! reference files and URLs opens no file, no connection and no other program.

use crate::common;

use common::Scratch;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

#[allow(
    clippy::needless_pass_by_value,
    reason = "called with `json!` literals"
)]
fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "called with `json!` literals"
)]
fn call(id: u64, name: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

fn initialize() -> Value {
    request(
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "test", "version": "1"}}),
    )
}

/// Writes `script` to `cmd`'s standard input, a line each, closes it and waits (bounded): the
/// exit code and the answers.
fn run_script(mut cmd: Command, script: &[Value], cwd: &Path) -> (i32, Vec<Value>, String) {
    let mut child = cmd
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut text = String::new();
    for m in script {
        text.push_str(&m.to_string());
        text.push('\n');
    }
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    // Read while the server writes: its answers may be larger than a pipe holds.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server did not end within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let out = out_reader.join().unwrap();
    let err = err_reader.join().unwrap();
    let answers = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON message"))
        .collect();
    (status.code().unwrap_or(-1), answers, err)
}

#[test]
fn each_answer_comes_before_the_next_message_is_sent() {
    let mut child = Command::new(common::BIN)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let messages = [
        initialize(),
        request(1, "tools/list", json!({})),
        call(
            2,
            "lint_schema",
            json!({"schema": {"$id": "my_tool:output", "type": "object"}}),
        ),
    ];
    let mut answers = Vec::new();
    for m in &messages {
        writeln!(stdin, "{m}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        answers.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-11-25");
    let names: Vec<&str> = answers[1]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "lint_schema",
            "fix_schema",
            "lint_tools_list",
            "explain_rule"
        ]
    );
    let findings = &answers[2]["result"]["structuredContent"]["findings"];
    assert_eq!(findings[0]["code"], "SL201", "{:#}", answers[2]);
}

#[test]
fn a_script_is_answered_in_order_and_the_end_of_input_ends_the_server() {
    let dir = Scratch::new("mcp-script");
    let script = [
        initialize(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!("not a message"),
        call(
            1,
            "fix_schema",
            json!({"schema": {"$id": "my_tool:output", "type": "object"}}),
        ),
        call(2, "no_such_tool", json!({})),
        call(3, "lint_schema", json!({"schema": 5})),
        request(4, "ping", json!({})),
    ];
    let mut cmd = Command::new(common::BIN);
    cmd.arg("mcp");
    let (code, answers, stderr) = run_script(cmd, &script, &dir.path);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(
        ids,
        [
            &json!(0),
            &Value::Null,
            &json!(1),
            &json!(2),
            &json!(3),
            &json!(4)
        ]
    );
    assert_eq!(answers[1]["error"]["code"], -32600);
    let fixed = &answers[2]["result"]["structuredContent"];
    assert_eq!(
        fixed["schema"],
        json!({"$id": "my_tool_output", "type": "object"})
    );
    assert_eq!(answers[3]["error"]["code"], -32602);
    assert_eq!(answers[4]["result"]["isError"], true);
    assert_eq!(answers[5]["result"], json!({}));
}

/// The paths a traced run opened that are not the loader's and the runtime's, its network
/// calls, and its other programs.
fn outside_the_runtime(log: &str) -> Vec<String> {
    let runtime = [
        "/etc/ld.so.cache",
        "/lib/",
        "/lib64/",
        "/usr/lib/",
        "/usr/lib64/",
        "/proc/self/",
        "/proc/thread-self/",
        "/sys/fs/cgroup/",
        "/sys/devices/system/cpu/",
    ];
    let mut execs = 0;
    log.lines()
        .filter(|line| {
            let rest = line.split_once(' ').map_or(*line, |(_, r)| r).trim_start();
            if rest.starts_with("+++") || rest.starts_with("---") {
                return false;
            }
            if rest.starts_with("execve(") {
                execs += 1;
                return execs > 1;
            }
            if rest.starts_with("open") {
                let path = rest.split('"').nth(1).unwrap_or("");
                return !runtime.iter().any(|p| path.starts_with(p));
            }
            true
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn references_in_the_arguments_open_no_file_and_no_connection() {
    if Command::new("strace").arg("-V").output().is_err() {
        eprintln!("strace is not installed: the system-call check is skipped");
        return;
    }
    let dir = Scratch::new("mcp-trace");
    // A file beside the server that the schemas name: it must not be read.
    dir.write("other.json", r#"{"$defs": {"a": {"type": "string"}}}"#);
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "other.json#/$defs/a"},
            "b": {"$ref": "file:///etc/passwd"},
            "c": {"$ref": "https://example.com/schema.json"},
            "d": {"$ref": "http://169.254.169.254/latest/meta-data"}
        }
    });
    let script = [
        initialize(),
        call(1, "lint_schema", json!({"schema": schema})),
        call(2, "fix_schema", json!({"schema": schema})),
        call(
            3,
            "lint_tools_list",
            json!({"document": {"tools": [{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": schema}]}}),
        ),
    ];
    let log = dir.join("trace.log");
    let mut cmd = Command::new("strace");
    cmd.args(["-f", "-qq", "-s", "4096", "-o"])
        .arg(&log)
        .args([
            "-e",
            "trace=network,open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,\
             link,linkat,symlink,symlinkat,mkdir,mkdirat,truncate,execve",
        ])
        .arg(common::BIN)
        .arg("mcp")
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("LD_PRELOAD");
    let (code, answers, stderr) = run_script(cmd, &script, &dir.path);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answers.len(), 4);
    let findings = answers[1]["result"]["structuredContent"]["findings"]
        .as_array()
        .unwrap();
    let on_a = findings
        .iter()
        .find(|f| f["pointer"] == "/properties/a/$ref")
        .expect("the reference to another file is reported");
    assert!(
        on_a["note"]
            .as_str()
            .unwrap()
            .contains("reads no file and fetches nothing"),
        "{on_a:#}"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("execve("), "the trace saw the run");
    let calls = outside_the_runtime(&log);
    assert!(calls.is_empty(), "{calls:#?}");
}

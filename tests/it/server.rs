//! `schema-lint server` end to end: the binary is spawned and spoken to over its standard input
//! and output in `Content-Length`-framed JSON-RPC, as an editor does. One session: initialize,
//! open a document whose `$id` follows non-ASCII text and an emoji on its line (the column is
//! checked in UTF-16 code units), the SL201 diagnostic, a quick fix whose `WorkspaceEdit` also
//! changes the other file of the project that `$ref`s the id, a body that is not JSON (answered
//! with an error; the server goes on), a change that clears the diagnostic, then shutdown and
//! exit with status 0. Every wait is bounded: the server is killed after 30 seconds.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

/// How long the whole session may take.
const LIMIT: Duration = Duration::from_secs(30);

const TOOL: &str =
    "{\n  \"title\": \"Météo ☀️ 🌦\", \"$id\": \"my_tool:output\",\n  \"type\": \"object\"\n}\n";
const OTHER: &str =
    "{\n  \"type\": \"object\",\n  \"properties\": {\"w\": {\"$ref\": \"my_tool:output\"}}\n}\n";

struct Session {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    deadline: Instant,
    next: i64,
}

impl Session {
    fn start(dir: &Path) -> Self {
        let mut child = Command::new(BIN)
            .arg("server")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            while let Some(message) = read_frame(&mut out) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            messages,
            deadline: Instant::now() + LIMIT,
            next: 1,
        }
    }

    fn write_raw(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        self.write_raw(&message.to_string());
    }

    fn notify(&mut self, method: &str, params: Value) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        message["params"] = params;
        self.send(&message);
    }

    /// The next message from the server; the server is killed and the test fails past the limit.
    fn recv(&mut self) -> Value {
        let left = self.deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(e) => {
                let _ = self.child.kill();
                panic!("no message from the server within {LIMIT:?}: {e}");
            }
        }
    }

    /// The next message that `accept` takes; requests from the server are answered on the way.
    fn until(&mut self, accept: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.recv();
            if accept(&message) {
                return message;
            }
            if message.get("method").is_some() && message.get("id").is_some() {
                let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                self.send(&reply);
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        message["params"] = params;
        self.send(&message);
        self.until(|m| m["id"] == id && m.get("method").is_none())
    }

    fn diagnostics(&mut self, uri: &str, accept: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let message = self.until(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && accept(m["params"]["diagnostics"].as_array().unwrap())
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    /// The exit status, waiting no later than the deadline.
    fn wait(mut self) -> i32 {
        drop(self.stdin);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > self.deadline {
                let _ = self.child.kill();
                panic!("the server did not exit within {LIMIT:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One `Content-Length`-framed message; `None` at the end of the output.
fn read_frame(out: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn uri(path: &Path) -> String {
    schema_lint::syntax::uri::file_uri(path)
}

/// A fresh project folder: a checkout (it has `.git`) holding `files`.
fn project(files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-lint-server-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let dir = dir.canonicalize().unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

#[test]
fn an_editor_session_over_stdio() {
    let root = project(&[("tool.json", TOOL), ("other.json", OTHER)]);
    let (tool, other) = (uri(&root.join("tool.json")), uri(&root.join("other.json")));
    let mut session = Session::start(&root);

    let init = session.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(&root),
            "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
        }),
    );
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-16");
    session.notify("initialized", json!({}));

    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": tool, "languageId": "json", "version": 1, "text": TOOL}}),
    );
    let found = session.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(d["code"], "SL201");
    // `  "title": "Météo ☀️ 🌦", "$id": "my_tool` in UTF-16 code units: `é` counts 1, the
    // sun and its variation selector 1 each, the rain emoji 2 (a surrogate pair).
    let line = TOOL.lines().nth(1).unwrap();
    let colon = line.find("my_tool:").unwrap() + "my_tool".len();
    let utf16 = line[..colon].encode_utf16().count();
    assert_eq!(utf16, 41, "40 characters, one of them a surrogate pair");
    assert_ne!(utf16, colon, "bytes would give another column");
    assert_eq!(d["range"]["start"], json!({"line": 1, "character": utf16}));
    assert_eq!(
        d["range"]["end"],
        json!({"line": 1, "character": utf16 + 1})
    );

    let actions = session.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": tool},
            "range": d["range"],
            "context": {"diagnostics": [d]},
        }),
    );
    let quick = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .cloned()
        .unwrap_or_else(|| panic!("no quick fix: {actions:#}"));
    let changes = quick["edit"]["changes"].as_object().unwrap();
    for file in [&tool, &other] {
        let edits = changes
            .get(file)
            .unwrap_or_else(|| panic!("no edit of {file}: {quick:#}"));
        assert!(edits[0]["newText"]
            .as_str()
            .unwrap()
            .contains("my_tool_output"));
    }
    assert_eq!(
        changes[&tool][0]["range"]["start"]["character"],
        utf16 - "my_tool".len() - 1,
        "the edit replaces the string literal, columns in UTF-16 too"
    );

    // A body that is not JSON is answered with a parse error, and the server reads on.
    session.write_raw("{not json");
    let error = session.until(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(error["error"]["code"], -32700);

    session.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": tool, "version": 2},
            "contentChanges": [{"text": TOOL.replace("my_tool:output", "my_tool_output")}],
        }),
    );
    session.diagnostics(&tool, <[Value]>::is_empty);

    let shutdown = session.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null);
    assert!(shutdown.get("error").is_none());
    session.notify("exit", Value::Null);
    assert_eq!(session.wait(), 0);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let root = std::env::temp_dir();
    let mut session = Session::start(&root);
    session.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    session.notify("exit", Value::Null);
    assert_eq!(session.wait(), 1);
}

// --- #24 containment ---

/// #24 item 18: a header line without an end is not held in memory: past 8 KiB the server says
/// why and stops (status 2), where it used to read the whole line (a 1 GiB line cost 1 GiB).
#[test]
fn an_endless_header_line_stops_the_server_with_a_reason() {
    let mut child = Command::new(BIN)
        .arg("server")
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // 64 MiB of one header line, and the input left open: only the bound can end the read.
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..64 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
        std::thread::sleep(LIMIT);
    });
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server still reads an endless header line after {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: the client sent a header line longer than 8 KiB; the server stopped reading\n"
    );
    drop(writer);
}

// --- #40 one verdict, every door ---

/// The language server's diagnostics for a listing are `check`'s: the same rules at the same
/// places with the same severities, for the bundled example and real dumps of `testdata/`.
#[test]
fn the_language_servers_diagnostics_are_checks() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listings = [
        "testdata/examples/tools-list.json",
        "testdata/cli/live-dump-python-stdio/files/tools.json",
        "testdata/cli/live-dump-typescript-stdio-legacy/files/tools.json",
        "testdata/cli/openai-strict-live-dump/files/tools.json",
        "testdata/rules/SL710/good-server-name-not-the-key.json",
    ];
    let files: Vec<(String, String)> = listings
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!("listing{i}.json"),
                std::fs::read_to_string(repo.join(p)).unwrap(),
            )
        })
        .collect();
    let named: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let root = std::env::temp_dir().join(format!("schema-lint-doors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let root = root.canonicalize().unwrap();
    for (name, text) in named {
        std::fs::write(root.join(name), text).unwrap();
    }
    // The clients of the measurement, for both doors, from the project's configuration.
    std::fs::write(
        root.join("schema-lint.toml"),
        "clients = [\"default\", \"openai-strict\", \"gemini\", \"anthropic\"]\n",
    )
    .unwrap();
    let mut session = Session::start(&root);
    session.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    session.notify("initialized", json!({}));
    let mut compared = 0;
    for (name, text) in &files {
        let out = Command::new(BIN)
            .args(["check", "--output-format", "json", name])
            .current_dir(&root)
            .output()
            .unwrap();
        let check: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut expected: Vec<(String, i64, i64)> = check["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let severity = match d["severity"].as_str().unwrap() {
                    "error" => 1,
                    "warning" => 2,
                    _ => 3,
                };
                (
                    d["code"].as_str().unwrap().to_owned(),
                    severity,
                    d["line"].as_i64().unwrap() - 1,
                )
            })
            .collect();
        expected.sort();
        let file = uri(&root.join(name));
        session.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": file, "languageId": "json", "version": 1, "text": text}}),
        );
        let want = expected.len();
        let found = session.diagnostics(&file, |d| d.len() == want);
        let mut got: Vec<(String, i64, i64)> = found
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_owned(),
                    d["severity"].as_i64().unwrap(),
                    d["range"]["start"]["line"].as_i64().unwrap(),
                )
            })
            .collect();
        got.sort();
        assert_eq!(got, expected, "{name}");
        compared += expected.len();
    }
    assert!(compared > 15, "{compared} diagnostics compared");
    session.request("shutdown", Value::Null);
    session.notify("exit", Value::Null);
    assert_eq!(session.wait(), 0);
    let _ = std::fs::remove_dir_all(&root);
}

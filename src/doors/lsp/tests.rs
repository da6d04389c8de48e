//! The server in process, over `Connection::memory()`: the state machine from `initialize` to
//! `exit`, the overlay of open buffers over the files on disk, positions, code actions and
//! settings. `tests/it/server.rs` drives the binary over standard input and output.

use super::serve;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The longest any answer may take.
const WAIT: Duration = Duration::from_secs(30);

pub(super) struct Client {
    conn: Connection,
    next: i32,
    server: std::thread::JoinHandle<u8>,
    /// Notifications received while waiting for something else.
    pub(super) pending: VecDeque<Notification>,
}

impl Client {
    pub(super) fn start() -> Self {
        let (server, conn) = Connection::memory();
        let server = std::thread::spawn(move || serve(&server));
        Self {
            conn,
            next: 1,
            server,
            pending: VecDeque::new(),
        }
    }

    pub(super) fn recv(&mut self) -> Message {
        self.conn
            .receiver
            .recv_timeout(WAIT)
            .expect("the server answers within 30 s")
    }

    pub(super) fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_owned(), params);
        self.conn.sender.send(n.into()).unwrap();
    }

    /// A request's result, or its error code.
    pub(super) fn request(&mut self, method: &str, params: Value) -> Result<Value, i32> {
        let id = self.next;
        self.next += 1;
        let request = Request::new(id.into(), method.to_owned(), params);
        self.conn.sender.send(request.into()).unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == RequestId::from(id) => {
                    return r.response_result.map_err(|e| e.code);
                }
                Message::Response(_) => {}
                Message::Request(r) => self.answer(&r),
                Message::Notification(n) => self.pending.push_back(n),
            }
        }
    }

    pub(super) fn answer(&self, request: &Request) {
        let reply = Response::new_ok(request.id.clone(), Value::Null);
        self.conn.sender.send(reply.into()).unwrap();
    }

    /// The next diagnostics published for `uri` that `accept` takes (earlier ones are skipped).
    pub(super) fn diagnostics(
        &mut self,
        uri: &str,
        accept: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        loop {
            let n = match self.pending.pop_front() {
                Some(n) => n,
                None => match self.recv() {
                    Message::Notification(n) => n,
                    Message::Request(r) => {
                        self.answer(&r);
                        continue;
                    }
                    Message::Response(_) => continue,
                },
            };
            if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                let found = n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                if accept(&found) {
                    return found;
                }
            }
        }
    }

    pub(super) fn initialize(&mut self, root: &Path, encodings: &[&str], options: &Value) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": {
                    "general": {"positionEncodings": encodings},
                    "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
                },
                "initializationOptions": options,
                "workspaceFolders": [{"uri": uri(root), "name": "project"}],
            }),
        );
        self.notify("initialized", json!({}));
        response.expect("initialize succeeds")
    }

    pub(super) fn open(&self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri(path), "languageId": "json", "version": 1, "text": text,
            }}),
        );
    }

    pub(super) fn change(&self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri(path), "version": version},
                "contentChanges": [{"text": text}],
            }),
        );
    }

    /// `shutdown` (unless `shutdown` is false), then `exit`: the server's exit code.
    pub(super) fn exit(mut self, shutdown: bool) -> u8 {
        if shutdown {
            let r = self.request("shutdown", Value::Null);
            assert_eq!(r, Ok(Value::Null));
        }
        self.notify("exit", Value::Null);
        self.server.join().unwrap()
    }
}

pub(super) fn uri(path: &Path) -> String {
    crate::syntax::uri::file_uri(path)
}

/// A fresh project folder (a checkout: it has `.git`) holding `files`.
pub(super) fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("schema-lint-server-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let dir = dir.canonicalize().unwrap();
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const TOOL: &str =
    "{\n  \"title\": \"Météo ☀️ 🌦\", \"$id\": \"my_tool:output\",\n  \"type\": \"object\"\n}\n";
const OTHER: &str =
    "{\n  \"type\": \"object\",\n  \"properties\": {\"w\": {\"$ref\": \"my_tool:output\"}}\n}\n";

/// The column of the `:` inside `my_tool:output` on the second line of [`TOOL`], in UTF-16
/// code units or in bytes.
fn colon(utf8: bool) -> usize {
    let line = TOOL.lines().nth(1).unwrap();
    let at = line.find("my_tool:").unwrap() + "my_tool".len();
    if utf8 {
        at
    } else {
        line[..at].encode_utf16().count()
    }
}

#[test]
fn a_session_from_initialize_to_exit() {
    // On disk the tool's id is valid: the buffer, not the file, is what gets linted.
    let root = project(
        "session",
        &[
            ("tool.json", "{\"$id\": \"fine\", \"type\": \"object\"}\n"),
            ("other.json", OTHER),
        ],
    );
    let (tool, other) = (root.join("tool.json"), root.join("other.json"));
    let mut client = Client::start();
    let result = client.initialize(&root, &["utf-16"], &json!({"target": "json-schema"}));
    let caps = &result["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 1, "full sync");
    assert!(caps["codeActionProvider"]["codeActionKinds"]
        .as_array()
        .unwrap()
        .contains(&json!("source.fixAll.schema-lint")));

    client.open(&tool, TOOL);
    let found = client.diagnostics(&uri(&tool), |d| !d.is_empty());
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(d["code"], "SL201");
    assert_eq!(d["source"], "schema-lint");
    assert_eq!(d["severity"], 1);
    assert!(d["codeDescription"]["href"]
        .as_str()
        .unwrap()
        .ends_with("/rules/SL201.md"));
    assert_eq!(
        d["range"]["start"],
        json!({"line": 1, "character": colon(false)})
    );
    assert_eq!(d["data"]["pointer"], "/$id");
    // The clients it breaks, as measured, and the note written from them.
    let breaks = d["data"]["breaks"].as_array().unwrap();
    assert!(
        breaks.iter().any(|b| b["client"] == "ts-sdk-v1"),
        "{breaks:?}"
    );
    assert!(d["message"].as_str().unwrap().contains("\nnote: "), "{d}");

    code_actions(&mut client, &tool, &other, d);

    // Fixed in the buffer: the diagnostic goes.
    client.change(&tool, 2, &TOOL.replace("my_tool:output", "my_tool_output"));
    client.diagnostics(&uri(&tool), <[Value]>::is_empty);

    // The other file, opened and changed to name the new id, resolves it in the tool's buffer
    // (on disk, the tool's id is still `fine`).
    client.open(&other, OTHER);
    let found = client.diagnostics(&uri(&other), |d| !d.is_empty());
    assert_eq!(found[0]["code"], "SL301");
    client.change(
        &other,
        2,
        &OTHER.replace("my_tool:output", "my_tool_output"),
    );
    client.diagnostics(&uri(&other), <[Value]>::is_empty);

    // Closed, the tool is read from disk again: the reference no longer resolves.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&tool)}}),
    );
    client.diagnostics(&uri(&tool), <[Value]>::is_empty);
    let found = client.diagnostics(&uri(&other), |d| !d.is_empty());
    assert_eq!(found[0]["code"], "SL302", "{found:#?}");

    // A document meant as a schema that is not JSON gets SL100; bad params, an unknown method
    // and a request after shutdown get errors; none of them stops the server.
    let broken = root.join("schemas/broken.json");
    client.open(&broken, "{\"$id\": oops");
    let found = client.diagnostics(&uri(&broken), |d| !d.is_empty());
    assert_eq!(found[0]["code"], "SL100");
    client.notify("textDocument/didOpen", json!({"nonsense": true}));
    let unknown = client.request("textDocument/hover", json!({}));
    assert_eq!(unknown.unwrap_err(), -32601);
    let bad = client.request("textDocument/codeAction", json!({"nope": 1}));
    assert_eq!(bad.unwrap_err(), -32602);
    let r = client.request("shutdown", Value::Null);
    assert_eq!(r, Ok(Value::Null));
    let after = client.request("textDocument/codeAction", json!({}));
    assert_eq!(after.unwrap_err(), -32600);
    assert_eq!(client.exit(false), 0, "exit after shutdown");
    let _ = std::fs::remove_dir_all(&root);
}

/// The quick fix of `d` (the invalid id of the tool) renames the id and the `$ref` that names it
/// in the other file, on disk; the fix-all does too.
fn code_actions(client: &mut Client, tool: &Path, other: &Path, d: &Value) {
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(tool)},
            "range": d["range"],
            "context": {"diagnostics": [d]},
        }),
    );
    let actions = actions.unwrap();
    let quick = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .expect("a quick fix");
    assert_eq!(quick["isPreferred"], true);
    let changes = quick["edit"]["changes"].as_object().unwrap();
    assert_eq!(changes.len(), 2, "{changes:#?}");
    let in_other = changes[&uri(other)].as_array().unwrap();
    assert_eq!(in_other[0]["range"]["start"]["line"], 2);
    assert!(in_other[0]["newText"]
        .as_str()
        .unwrap()
        .contains("my_tool_output"));
    assert!(actions
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["kind"] == "source.fixAll.schema-lint"));
    let fix_all = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(tool)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    let fix_all = fix_all.unwrap();
    let fix_all = fix_all.as_array().unwrap();
    assert_eq!(fix_all.len(), 1, "{fix_all:#?}");
    assert_eq!(fix_all[0]["edit"]["changes"].as_object().unwrap().len(), 2);
}

#[test]
fn exit_without_shutdown_is_1_and_requests_wait_for_initialize() {
    let mut client = Client::start();
    let early = client.request("textDocument/codeAction", json!({}));
    assert_eq!(early.unwrap_err(), -32002);
    assert_eq!(client.exit(false), 1);
}

#[test]
fn utf8_when_the_client_offers_it() {
    let root = project("utf8", &[]);
    let tool = root.join("tool.json");
    let mut client = Client::start();
    let result = client.initialize(&root, &["utf-16", "utf-8"], &Value::Null);
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    client.open(&tool, TOOL);
    let found = client.diagnostics(&uri(&tool), |d| !d.is_empty());
    assert_eq!(
        found[0]["range"]["start"],
        json!({"line": 1, "character": colon(true)})
    );
    assert_eq!(client.exit(true), 0);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn settings_come_from_the_options_and_the_toml() {
    let root = project(
        "settings",
        &[("schema-lint.toml", "ignore = [\"SL203\"]\n")],
    );
    let tool = root.join("tool.json");
    let mut client = Client::start();
    client.initialize(&root, &[], &json!({"schema-lint": {"select": ["SL2"]}}));
    client.open(&tool, TOOL);
    client.diagnostics(&uri(&tool), |d| d.len() == 1);
    // The configuration is read again when the runs are built (here, on save).
    std::fs::write(root.join("schema-lint.toml"), "ignore = [\"SL201\"]\n").unwrap();
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&tool)}}),
    );
    client.diagnostics(&uri(&tool), <[Value]>::is_empty);
    // Options under `schema-lint` replace the earlier ones.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"schema-lint": {"isolated": true}}}),
    );
    client.diagnostics(&uri(&tool), |d| d.len() == 1);
    // A document that holds no schema is not linted, as in a folder walk.
    let package = root.join("package.json");
    client.open(&package, "{\"name\": \"x\", \"version\": \"1.0.0\"}");
    assert!(client.diagnostics(&uri(&package), |_| true).is_empty());
    assert_eq!(client.exit(true), 0);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_schema_being_edited_reports_its_parse_errors() {
    // Nothing in its name or text would make a folder walk report this file's parse error; once
    // linted as a schema, the open document does.
    let root = project("editing", &[]);
    let weather = root.join("weather.json");
    let mut client = Client::start();
    client.initialize(&root, &[], &Value::Null);
    let schema = "{\"type\": \"object\", \"properties\": {\"t\": {\"type\": \"number\"}}}";
    client.open(&weather, schema);
    client.diagnostics(&uri(&weather), <[Value]>::is_empty);
    client.change(&weather, 2, &schema.replace("\"object\",", "\"object\""));
    let found = client.diagnostics(&uri(&weather), |d| !d.is_empty());
    assert_eq!(found[0]["code"], "SL100", "{found:#?}");
    // A note that never was a schema stays out, broken or not.
    let notes = root.join("notes.json");
    client.open(&notes, "{oops");
    assert!(client.diagnostics(&uri(&notes), |_| true).is_empty());
    assert_eq!(client.exit(true), 0);
    let _ = std::fs::remove_dir_all(&root);
}

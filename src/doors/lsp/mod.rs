//! `schema-lint server`: a language server over standard input and output (the synchronous
//! `lsp-server` stack, no async runtime). Documents are synchronized in full; each open
//! document is linted with its project as context ([`state`]) when it is opened or saved, and
//! once typing pauses, when only it and the open documents tied to it are linted again and
//! published ([`project`]); its findings are published with positions in the encoding
//! negotiated at `initialize` ([`position`], [`convert`]); code actions offer the proven fixes
//! ([`actions`]). Settings come from `initializationOptions` and the project's
//! `schema-lint.toml`, read again whenever the runs are built ([`options`]). No message can stop the server
//! but `exit` ([`transport`] answers bodies that are not messages; a handler that fails answers
//! with an error), and `exit` ends it with 0 after `shutdown`, else 1.

mod actions;
mod context;
mod convert;
#[cfg(test)]
mod edits_tests;
mod options;
mod position;
mod project;
mod state;
#[cfg(test)]
mod tests;
mod transport;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, FileChangeType, LogMessageParams,
    MessageType, PositionEncodingKind, PublishDiagnosticsParams, Registration, RegistrationParams,
    SaveOptions, ServerCapabilities, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
    WorkspaceFolder,
};
use options::Options;
use position::{path_of, Encoding, Lines};
use serde_json::Value;
use state::{Document, State};
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long typing must pause before a changed document is linted.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// The longest a change waits for typing to pause.
const MAX_WAIT: Duration = Duration::from_secs(1);

/// `schema-lint server`: serves the editor on standard input and output until it says `exit`,
/// then gives the exit status (0 when `shutdown` came first, else 1).
///
/// # Errors
/// The transport failed (standard input or output could not be read or written).
pub fn serve_stdio() -> Result<u8, String> {
    let (connection, io) = transport::stdio();
    let code = serve(&connection);
    drop(connection);
    match io.join() {
        Some(why) => Err(why),
        None => Ok(code),
    }
}

/// Serves one client over `connection` until `exit` or the end of the connection: 0 when
/// `shutdown` came first, else 1.
pub(crate) fn serve(connection: &Connection) -> u8 {
    let mut server = Server {
        connection,
        state: None,
        shut_down: false,
        due: None,
        waiting_since: None,
        pending: Pending::default(),
        shown: HashSet::new(),
        watch: false,
    };
    loop {
        // `Err(true)`: the pending lint is due.
        let received = match server.due {
            Some(due) => connection
                .receiver
                .recv_deadline(due)
                .map_err(|e| e.is_timeout()),
            None => connection.receiver.recv().map_err(|_| false),
        };
        match received {
            Ok(Message::Request(request)) => server.request(request),
            Ok(Message::Notification(n)) if n.method == "exit" => break,
            Ok(Message::Notification(n)) => server.notification(n),
            Ok(Message::Response(_)) => {}
            Err(true) => server.lint(),
            Err(false) => break,
        }
    }
    u8::from(!server.shut_down)
}

type Failure = (ErrorCode, String);

/// What changed since the last lint.
#[derive(Default)]
struct Pending {
    /// Every run is to be built again: a document was opened or closed, or saved, or the
    /// settings changed, or files came or went on disk.
    full: bool,
    /// The open documents edited.
    docs: Vec<Uri>,
    /// The files changed on disk.
    disk: Vec<PathBuf>,
}

struct Server<'a> {
    connection: &'a Connection,
    /// `None` until `initialize`.
    state: Option<State>,
    shut_down: bool,
    /// When the pending lint is due, if one is.
    due: Option<Instant>,
    /// When the first change the pending lint waits for came.
    waiting_since: Option<Instant>,
    /// What the pending lint is for.
    pending: Pending,
    /// Messages shown already (each is shown once).
    shown: HashSet<String>,
    /// Whether the client lets the server register file watchers.
    watch: bool,
}

impl Server<'_> {
    fn send(&self, message: Message) {
        // A closed connection ends the loop at the next receive.
        let _ = self.connection.sender.send(message);
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        self.send(Notification::new(method.to_owned(), params).into());
    }

    fn show(&mut self, kind: MessageType, message: String) {
        if self.shown.insert(message.clone()) {
            self.notify(
                "window/showMessage",
                ShowMessageParams { typ: kind, message },
            );
        }
    }

    fn request(&mut self, request: Request) {
        let Request { id, method, params } = request;
        let result = match (self.state.is_some(), method.as_str()) {
            (false, "initialize") => Ok(self.initialize(&params)),
            (false, _) => Err((
                ErrorCode::ServerNotInitialized,
                "the server is not initialized yet".to_owned(),
            )),
            (true, "initialize") => Err((
                ErrorCode::InvalidRequest,
                "the server is initialized already".to_owned(),
            )),
            (true, _) if self.shut_down => Err((
                ErrorCode::InvalidRequest,
                "the server is shut down".to_owned(),
            )),
            (true, "shutdown") => {
                self.shut_down = true;
                Ok(Value::Null)
            }
            (true, "textDocument/codeAction") => self.code_action(params),
            (true, _) => Err((
                ErrorCode::MethodNotFound,
                format!("schema-lint has no method `{method}`"),
            )),
        };
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(response.into());
    }

    fn initialize(&mut self, params: &Value) -> Value {
        let offered: Option<Vec<PositionEncodingKind>> = params
            .pointer("/capabilities/general/positionEncodings")
            .and_then(|v| serde_json::from_value(v.clone()).ok());
        let encoding = Encoding::negotiate(offered.as_deref());
        self.watch = params
            .pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let options = match params.get("initializationOptions").cloned() {
            Some(value) => Options::from_value(value).unwrap_or_else(|why| {
                self.show(MessageType::WARNING, why);
                Options::default()
            }),
            None => Options::default(),
        };
        let mut folders: Vec<Uri> = params
            .get("workspaceFolders")
            .and_then(|v| serde_json::from_value::<Vec<WorkspaceFolder>>(v.clone()).ok())
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.uri)
            .collect();
        if folders.is_empty() {
            folders.extend(
                params
                    .get("rootUri")
                    .and_then(Value::as_str)
                    .and_then(|s| s.parse::<Uri>().ok()),
            );
        }
        self.state = Some(State::new(encoding, options, state::folders(&folders)));
        let capabilities = ServerCapabilities {
            position_encoding: Some(encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::FULL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::new(actions::FIX_ALL),
                ]),
                resolve_provider: Some(false),
                ..CodeActionOptions::default()
            })),
            ..ServerCapabilities::default()
        };
        serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": {"name": "schema-lint", "version": env!("CARGO_PKG_VERSION")},
        })
    }

    fn code_action(&mut self, params: Value) -> Result<Value, Failure> {
        let params: CodeActionParams = serde_json::from_value(params)
            .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))?;
        if self.due.is_some() {
            self.lint();
        }
        let Some(state) = &mut self.state else {
            return Ok(Value::Null);
        };
        let found = guarded(|| actions::code_actions(state, &params))
            .map_err(|why| (ErrorCode::InternalError, why))?;
        serde_json::to_value(found).map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }

    fn notification(&mut self, notification: Notification) {
        if self.state.is_none() || self.shut_down {
            return;
        }
        let method = notification.method.clone();
        match guarded(|| self.notified(notification)) {
            Ok(Ok(())) => {}
            Ok(Err(why)) => {
                let message = format!("schema-lint: `{method}`: {why}");
                self.notify(
                    "window/logMessage",
                    LogMessageParams {
                        typ: MessageType::WARNING,
                        message,
                    },
                );
            }
            Err(why) => self.show(MessageType::ERROR, why),
        }
    }

    fn notified(&mut self, notification: Notification) -> Result<(), String> {
        fn parse<P: serde::de::DeserializeOwned>(params: Value) -> Result<P, String> {
            serde_json::from_value(params).map_err(|e| format!("invalid params: {e}"))
        }
        let Notification { method, params } = notification;
        let Some(state) = &mut self.state else {
            return Ok(());
        };
        let encoding = state.encoding;
        match method.as_str() {
            "initialized" => self.watch_files(),
            "textDocument/didOpen" => {
                let params: DidOpenTextDocumentParams = parse(params)?;
                let doc = params.text_document;
                let path = path_of(&doc.uri);
                state.docs.insert(
                    doc.uri,
                    Document {
                        version: doc.version,
                        text: Arc::new(doc.text),
                        path,
                        schema: false,
                    },
                );
                self.pending.full = true;
                self.schedule(Duration::ZERO);
            }
            "textDocument/didChange" => {
                let params: DidChangeTextDocumentParams = parse(params)?;
                let Some(doc) = state.docs.get_mut(&params.text_document.uri) else {
                    return Err("the document is not open".to_owned());
                };
                for change in params.content_changes {
                    doc.text = Arc::new(match change.range {
                        None => change.text,
                        // Full sync is what the server asks for; a client that sends ranges
                        // anyway is followed.
                        Some(range) => {
                            let lines = Lines::new(&doc.text, encoding, false);
                            let (from, to) = (lines.offset(range.start), lines.offset(range.end));
                            let mut text = doc.text.to_string();
                            text.replace_range(from..to.max(from), &change.text);
                            text
                        }
                    });
                }
                doc.version = params.text_document.version;
                if !self.pending.docs.contains(&params.text_document.uri) {
                    self.pending.docs.push(params.text_document.uri);
                }
                self.schedule(DEBOUNCE);
            }
            "textDocument/didSave" => {
                // The configuration is read again, and files that came on disk are found.
                self.pending.full = true;
                self.schedule(Duration::ZERO);
            }
            "textDocument/didClose" => {
                let params: DidCloseTextDocumentParams = parse(params)?;
                let uri = params.text_document.uri;
                state.docs.remove(&uri);
                state.projects.retain(|p| p.file_of(&uri).is_none());
                self.publish(PublishDiagnosticsParams {
                    uri,
                    diagnostics: Vec::new(),
                    version: None,
                });
                // The others may have used its buffer; they read the file on disk now.
                self.pending.full = true;
                self.schedule(Duration::ZERO);
            }
            "workspace/didChangeWatchedFiles" => {
                let params: DidChangeWatchedFilesParams = parse(params)?;
                for change in &params.changes {
                    let Some(path) = path_of(&change.uri) else {
                        continue;
                    };
                    // A file that came or went, or a configuration, changes which files a run
                    // holds, or how it lints them.
                    let config = path.file_name().is_some_and(|n| n == "schema-lint.toml");
                    if change.typ != FileChangeType::CHANGED || config {
                        state.forget(std::slice::from_ref(&path));
                        self.pending.full = true;
                    } else {
                        self.pending.disk.push(path);
                    }
                }
                self.schedule(DEBOUNCE);
            }
            "workspace/didChangeConfiguration" => {
                // Only settings under `schema-lint` are the server's: a client that sends
                // everything else it knows does not reset the options.
                let params: DidChangeConfigurationParams = parse(params)?;
                if let Some(ours) = params.settings.get("schema-lint").cloned() {
                    state.options = Options::from_value(ours)?;
                    self.shown.clear();
                    self.pending.full = true;
                    self.schedule(Duration::ZERO);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Asks the client to report changes to JSON files and configurations on disk, when it
    /// lets servers register watchers: context files that change are read again.
    fn watch_files(&self) {
        if !self.watch {
            return;
        }
        let watchers = serde_json::json!({"watchers": [
            {"globPattern": "**/*.json"},
            {"globPattern": "**/schema-lint.toml"},
        ]});
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "schema-lint/watched-files".to_owned(),
                method: "workspace/didChangeWatchedFiles".to_owned(),
                register_options: Some(watchers),
            }],
        };
        let id = RequestId::from("schema-lint/register-watchers".to_owned());
        let request = Request::new(id, "client/registerCapability".to_owned(), params);
        self.send(request.into());
    }

    /// Lints after `delay`, or sooner: a lint waits at most [`MAX_WAIT`] after the first change.
    fn schedule(&mut self, delay: Duration) {
        let now = Instant::now();
        let since = *self.waiting_since.get_or_insert(now);
        self.due = Some((now + delay).min(since + MAX_WAIT));
    }

    fn publish(&self, params: PublishDiagnosticsParams) {
        self.notify("textDocument/publishDiagnostics", params);
    }

    /// Lints now what changed, and publishes what was found: every open document after a
    /// change that builds the runs again, else the documents linted again.
    fn lint(&mut self) {
        self.due = None;
        self.waiting_since = None;
        let Pending { full, docs, disk } = std::mem::take(&mut self.pending);
        if self.shut_down {
            return;
        }
        let Some(state) = &mut self.state else { return };
        let linted = guarded(|| {
            let changed = if full {
                None
            } else {
                state.update(&docs, &disk)
            };
            if let Some(linted) = changed {
                (convert::published(state, Some(&linted)), Vec::new())
            } else {
                let problems = state.lint();
                (convert::published(state, None), problems)
            }
        });
        match linted {
            Ok((published, problems)) => {
                for params in published {
                    self.publish(params);
                }
                for problem in problems {
                    self.show(MessageType::WARNING, problem);
                }
            }
            Err(why) => self.show(MessageType::ERROR, why),
        }
    }
}

/// Runs `f`; a panic becomes an error message rather than the end of the server.
fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an internal error".to_owned());
        format!("schema-lint failed: {why}")
    })
}

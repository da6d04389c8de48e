//! `schema-lint proxy --for CLIENT -- CMD ARGS...`: a stdio proxy to put in a host's server
//! configuration in place of the server's command, as `record` is. It starts the server and
//! passes every line between the host and the server, in order; the answers to `tools/list` are
//! ported for the client ([`crate::fix::port`]: the same rewrites as `schema-lint port`, each
//! proven), and a `tools/call` of a tool the port renamed reaches the server under the tool's own
//! name. Every other line passes byte for byte. Each rewrite is logged (standard error, or
//! `--log FILE`). The server's standard error passes through; its exit status is the proxy's.
//!
//! With `--url URL` instead of a command, the server is a remote one over Streamable HTTP
//! ([`http`]): the host still speaks stdio to the proxy, and the listings are ported the same way.

#[cfg(feature = "http")]
pub mod http;

pub use super::record::Outcome;
use super::record::{between, pass_status};
use crate::diagnostic::target::Target;
use crate::fix::port::port_source;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What `schema-lint proxy` is told (its command line, parsed by `cli`).
#[derive(Clone, Debug)]
pub struct Options {
    /// The run's settings: the one client ported for, at its version.
    pub settings: Settings,
    /// The client's name as given (for the log).
    pub client: String,
    /// The server's command line (empty with `url`).
    pub command: Vec<String>,
    /// The server's Streamable HTTP endpoint, instead of a command.
    pub url: Option<String>,
    /// `Name: value` headers sent with every request to `url` (secrets: never said).
    pub headers: Vec<String>,
    /// Where the log goes; `None`: standard error.
    pub log: Option<std::path::PathBuf>,
}

/// What one direction tells the other: the `tools/list` requests waiting for their answer (by
/// id), and the names the client sees for renamed tools.
#[derive(Default)]
struct Names {
    pending: HashSet<String>,
    renamed: HashMap<String, String>,
    /// The id of the host's `initialize`, until it is answered.
    initialize: Option<String>,
    /// The protocol revision of the session: what the server answered to `initialize`, or
    /// what a stateless 2026-07-28 request names in its `_meta`. A listing is judged on it
    /// (SL510: the envelope a 2026-07-28 listing must carry).
    protocol: Option<String>,
}

/// Where a 2026-07-28 request names its revision, without `initialize`.
const PROTOCOL_META: &str = "io.modelcontextprotocol/protocolVersion";

/// [`Names`], the signal that a listing was answered, and the last listing ported.
#[derive(Default)]
struct Shared {
    names: Mutex<Names>,
    answered: Condvar,
    last: Mutex<Option<Listing>>,
}

/// A listing the server sent and what was sent for it: a host lists the tools again and again
/// (each session, each `list_changed`), and the same listing is ported the same way.
struct Listing {
    /// The server's `result`, as text.
    result: String,
    /// The `result` sent instead; `None` where the port changed nothing.
    sent: Option<Value>,
}

/// How long a `tools/call` sent before the listing it follows was answered waits for it (a host
/// that pipelines them): past it, the call goes as it is.
const LISTING_WAIT: Duration = Duration::from_secs(30);

/// Where the log lines go.
enum Sink {
    Stderr,
    File(std::fs::File),
}

impl Sink {
    fn say(&mut self, text: &str) {
        let _ = match self {
            Sink::Stderr => std::io::stderr().write_all(text.as_bytes()),
            Sink::File(f) => f.write_all(text.as_bytes()),
        };
    }
}

/// `schema-lint proxy`.
#[must_use]
pub fn proxy(options: &Options) -> Outcome {
    let error = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: 2,
    };
    let sink = match &options.log {
        None => Sink::Stderr,
        Some(path) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(f) => Sink::File(f),
            Err(e) => return error(format!("{}: cannot open the log: {e}", path.display())),
        },
    };
    if let Some(url) = &options.url {
        #[cfg(feature = "http")]
        return http::proxy_http(options, url, sink);
        #[cfg(not(feature = "http"))]
        return error(format!("`--url {url}`: this build has no HTTP client"));
    }
    let shared = Arc::new(Shared::default());
    let sink = Arc::new(Mutex::new(sink));
    let up = Arc::clone(&shared);
    let (settings, client) = (options.settings.clone(), options.client.clone());
    let status = between(
        "proxy",
        &options.command,
        move |server_in| {
            let _ = lines(std::io::stdin(), server_in, |line| {
                to_server_line(line, &up)
            });
        },
        move |server_out| {
            let rewrite = |line: &[u8]| to_client_line(line, &shared, &settings, &client, &sink);
            lines(server_out, std::io::stdout(), rewrite)
        },
    );
    match status {
        Ok(status) => pass_status(status),
        Err(why) => error(why),
    }
}

/// Copies `from` to `to` line by line (MCP's stdio transport is newline-delimited JSON), each
/// line through `rewrite` (`None`: passed as it is). Returns when `from` ends, or `Err` when `to`
/// refuses a write.
fn lines(
    from: impl Read,
    mut to: impl Write,
    rewrite: impl Fn(&[u8]) -> Option<Vec<u8>>,
) -> std::io::Result<()> {
    each_line(from, |line| {
        let (body, end) = match line.strip_suffix(b"\n") {
            Some(body) => (body, &b"\n"[..]),
            None => (line, &b""[..]),
        };
        match rewrite(body) {
            Some(new) => {
                to.write_all(&new)?;
                to.write_all(end)?;
            }
            None => to.write_all(line)?,
        }
        to.flush()
    })
}

/// Hands each line of `from` (its `\n` included, when it has one) to `each`, until `from` ends
/// (or cannot be read) or `each` fails (then `Err`).
fn each_line(
    from: impl Read,
    mut each: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut from = BufReader::with_capacity(64 << 10, from);
    let mut line = Vec::new();
    loop {
        line.clear();
        match from.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Ok(()),
        }
        each(&line)?;
    }
}

/// The id of a request or response, as a key.
fn id_of(message: &Value) -> Option<String> {
    message.get("id").map(Value::to_string)
}

/// A line from the host: a `tools/list` request is remembered; a `tools/call` of a renamed tool
/// gets the tool's own name back.
fn to_server_line(line: &[u8], shared: &Shared) -> Option<Vec<u8>> {
    let mut message: Value = serde_json::from_slice(line).ok()?;
    let method = message.get("method")?.as_str()?.to_owned();
    let mut names = shared.names.lock().ok()?;
    match method.as_str() {
        "initialize" => {
            names.initialize = id_of(&message);
            None
        }
        "tools/list" => {
            let revision = message
                .pointer("/params/_meta")
                .and_then(|m| m.get(PROTOCOL_META));
            if let Some(revision) = revision.and_then(Value::as_str) {
                names.protocol = Some(revision.to_owned());
            }
            names.pending.insert(id_of(&message)?);
            None
        }
        "tools/call" => {
            // A call sent before the listing's answer came back waits for it: the name it uses
            // may be one the port gives.
            let (names, _) = shared
                .answered
                .wait_timeout_while(names, LISTING_WAIT, |n| !n.pending.is_empty())
                .ok()?;
            let name = message.pointer("/params/name")?.as_str()?;
            let original = names.renamed.get(name)?.clone();
            *message.pointer_mut("/params/name")? = Value::String(original);
            serde_json::to_vec(&message).ok()
        }
        _ => None,
    }
}

/// A line from the server: the answer to a `tools/list` the host asked is ported, and said.
fn to_client_line(
    line: &[u8],
    shared: &Shared,
    settings: &Settings,
    client: &str,
    sink: &Mutex<Sink>,
) -> Option<Vec<u8>> {
    let message: Value = serde_json::from_slice(line).ok()?;
    if message.get("method").is_some() {
        // A request or notification of the server's, not an answer.
        return None;
    }
    let id = id_of(&message)?;
    {
        let mut names = shared.names.lock().ok()?;
        if names.initialize.as_ref() == Some(&id) {
            names.initialize = None;
            let agreed = message.pointer("/result/protocolVersion");
            names.protocol = agreed.and_then(Value::as_str).map(str::to_owned);
            return None;
        }
        if !names.pending.contains(&id) {
            return None;
        }
    }
    let rewritten = message.get("result").and_then(|result| {
        let text = result.to_string();
        let cached = shared.last.lock().ok().and_then(|last| {
            last.as_ref()
                .filter(|last| last.result == text)
                .map(|last| last.sent.clone())
        });
        if let Some(sent) = cached {
            if let Ok(mut sink) = sink.lock() {
                sink.say(&format!(
                    "schema-lint proxy: tools/list {id}: the listing as before, ported as before\n"
                ));
            }
            let mut message = message.clone();
            message["result"] = sent?;
            return serde_json::to_vec(&message).ok();
        }
        let out = port_answer(line, &id, settings, client, sink, shared);
        let sent = out
            .as_ref()
            .and_then(|out| serde_json::from_slice::<Value>(out).ok())
            .and_then(|mut v| v.get_mut("result").map(Value::take));
        if let Ok(mut last) = shared.last.lock() {
            *last = Some(Listing { result: text, sent });
        }
        out
    });
    // The answer is in hand: a call waiting for it may go.
    if let Ok(mut names) = shared.names.lock() {
        names.pending.remove(&id);
    }
    shared.answered.notify_all();
    rewritten
}

/// The answer `line` to `tools/list` request `id`, ported; `None` when nothing changed.
fn port_answer(
    line: &[u8],
    id: &str,
    settings: &Settings,
    client: &str,
    sink: &Mutex<Sink>,
    shared: &Shared,
) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(line).ok()?;
    let file = SourceFile::new(FileId(0), "tools/list".to_owned(), None, text, true);
    // The listing is judged on the session's revision, unless `--target` says otherwise.
    let revision = shared.names.lock().ok()?.protocol.clone();
    let mut settings = settings.clone();
    if settings.target.is_none() {
        settings.target = revision.as_deref().and_then(Target::of_protocol);
    }
    let ported = match port_source(file, &settings) {
        Ok(ported) => ported,
        Err(why) => {
            if let Ok(mut sink) = sink.lock() {
                sink.say(&format!(
                    "schema-lint proxy: tools/list {id}: not ported: {why}\n"
                ));
            }
            return None;
        }
    };
    if let Ok(mut sink) = sink.lock() {
        sink.say(&format!(
            "schema-lint proxy: tools/list {id}\n{}",
            crate::report::port::human(&ported, client)
        ));
    }
    if let Ok(mut names) = shared.names.lock() {
        for r in &ported.renamed {
            names.renamed.insert(r.sent.clone(), r.original.clone());
        }
    }
    if ported.changes.is_empty() {
        return None;
    }
    // One line, as the transport wants: the port keeps the bytes it did not change, but a fix
    // may have written a line break.
    serde_json::to_vec(&ported.schema).ok()
}

//! Running MCP servers as a source of schemas: start one (`--server`, over stdio) or reach one
//! (`--url`, over Streamable HTTP), agree on a protocol revision, list its tools (every page), and
//! stop it cleanly. The listing becomes a `tools/list` document ([`dump`]) that is linted like a
//! file, so `schema-lint dump` and `check --server` read the same text.
//!
//! Only the server the user names is contacted: no redirect is followed and nothing else is
//! fetched.

mod calls;
pub mod children;
#[cfg(feature = "http")]
pub mod forward;
#[cfg(feature = "http")]
pub(crate) mod http;
mod session;
pub mod sse;
mod stderr;
mod stdio;

pub use calls::{call_tools, CallsError, Session, ToolCall};

use crate::schema::units::DUMP_META;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The largest message read from a server (bytes): a larger answer is an error, not a reason
/// to hold it all.
pub const MAX_MESSAGE: usize = 64 << 20;
/// The most pages of `tools/list` followed before the listing is called endless.
pub const MAX_PAGES: usize = 1000;
/// The most bytes of messages a whole listing may take (every page, and the exchange before):
/// as much as one message may be.
pub const MAX_LISTING: usize = MAX_MESSAGE;
/// The most tools a listing may hold.
pub const MAX_TOOLS: usize = 100_000;
/// The protocol revisions this version speaks, oldest first.
pub const KNOWN_PROTOCOLS: &[&str] = &["2025-06-18", "2025-11-25", "2026-07-28"];
/// The newest revision: stateless, no `initialize` (the version rides in every request's
/// `_meta`).
pub const MODERN: &str = "2026-07-28";
/// The newest revision with an `initialize` handshake.
pub const NEWEST_HANDSHAKE: &str = "2025-11-25";

/// How to reach a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// A command line started as a child process, speaking MCP on its standard input and output.
    Command {
        /// The program and its arguments, split as a shell splits words.
        argv: Vec<String>,
        /// `KEY=VALUE` pairs added to its environment.
        env: Vec<(String, String)>,
    },
    /// A Streamable HTTP endpoint.
    Url {
        /// The `http://` or `https://` URL of the endpoint.
        url: String,
        /// Extra request headers (`Name`, `value`), for authentication.
        headers: Vec<(String, String)>,
    },
}

/// A server named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// How findings name it: the command line or the URL, as given.
    pub label: String,
    /// How to reach it.
    pub endpoint: Endpoint,
}

impl Server {
    /// A server started by `line`, split the way a shell splits words (no shell is run).
    ///
    /// # Errors
    /// The line is empty or its quotes do not close.
    pub fn command(line: &str, env: &[String]) -> Result<Self, String> {
        let argv = shlex::split(line).ok_or_else(|| {
            format!("`--server {line}`: the quotes of the command line do not close")
        })?;
        if argv.is_empty() {
            return Err("`--server` needs a command line".to_owned());
        }
        Ok(Self {
            label: line.to_owned(),
            endpoint: Endpoint::Command {
                argv,
                env: pairs(env, '=', "--env", "KEY=VALUE")?,
            },
        })
    }

    /// A server reached at `url`, with `headers` (`Name: value`) on every request.
    ///
    /// # Errors
    /// The URL is not `http(s)://`, or a header has no `:`.
    pub fn url(url: &str, headers: &[String]) -> Result<Self, String> {
        let parsed =
            fluent_uri::Uri::parse(url).map_err(|e| format!("`--url {url}` is not a URL: {e}"))?;
        let scheme = parsed.scheme().as_str().to_ascii_lowercase();
        if scheme != "http" && scheme != "https" || parsed.authority().is_none() {
            return Err(format!(
                "`--url {url}`: an MCP server is reached at an http:// or https:// URL"
            ));
        }
        Ok(Self {
            label: url.to_owned(),
            endpoint: Endpoint::Url {
                url: url.to_owned(),
                headers: pairs(headers, ':', "--header", "'Name: value'")?,
            },
        })
    }
}

/// Splits `KEY=VALUE` (or `Name: value`) options.
fn pairs(
    items: &[String],
    sep: char,
    option: &str,
    form: &str,
) -> Result<Vec<(String, String)>, String> {
    items
        .iter()
        .map(|item| match item.split_once(sep) {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
            _ => Err(format!("`{option} {item}` is not of the form {form}")),
        })
        .collect()
}

/// How to talk to a server.
#[derive(Clone, Debug)]
pub struct Options {
    /// The protocol revision asked for; `None`: the newest, falling back to what the server
    /// offers.
    pub protocol: Option<String>,
    /// How long the whole exchange may take, from start to stop.
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            protocol: None,
            timeout: Duration::from_secs(30),
        }
    }
}

/// What a server advertised.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// Every tool of every page, as the server sent it.
    pub tools: Vec<Value>,
    /// The protocol revision the exchange used.
    pub protocol: String,
    /// The server's name and version, as it reported them.
    pub server_name: Option<String>,
    /// The server's version, as it reported it.
    pub server_version: Option<String>,
    /// How many pages `tools/list` took.
    pub pages: usize,
    /// The members of the result that 2026-07-28 requires beside the tools ([`ENVELOPE`]), as
    /// the server sent them: a member is kept only when every page had it (the first page's
    /// value), so a listing that lacks one on any page lacks it here.
    pub envelope: serde_json::Map<String, Value>,
}

/// The members of a `tools/list` result that protocol revision 2026-07-28 requires beside the
/// tools: the result's type and its caching hints. `dump` keeps them, in this order.
pub const ENVELOPE: [&str; 3] = ["resultType", "ttlMs", "cacheScope"];

/// Why a server could not be listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// One line, for the user.
    pub message: String,
    /// What kind of failure it is, which decides whether another protocol is worth a try.
    pub kind: FailureKind,
}

/// The kinds of [`Failure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The transport failed: no connection, the process exited, the answer was not MCP.
    Broken,
    /// The server answered, but refused the request (an HTTP 4xx without a JSON-RPC answer).
    Rejected,
    /// No answer before the deadline.
    Timeout,
}

impl Failure {
    fn broken(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: FailureKind::Broken,
        }
    }

    #[cfg(feature = "http")]
    fn rejected(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: FailureKind::Rejected,
        }
    }

    /// No answer before the deadline; `message` says what was awaited, [`list_tools`] adds
    /// the time.
    fn timeout() -> Self {
        Self {
            message: "no answer".to_owned(),
            kind: FailureKind::Timeout,
        }
    }

    /// A request not taken in before the deadline (a server that stopped reading its input).
    fn timeout_writing() -> Self {
        Self {
            message: "the server did not read the request".to_owned(),
            kind: FailureKind::Timeout,
        }
    }
}

/// A way to exchange JSON-RPC messages with a server.
trait Transport {
    /// Sends a request and waits, until `deadline`, for the response with its id.
    fn request(&mut self, message: &Value, deadline: Instant) -> Result<Value, Failure>;
    /// Sends a notification.
    fn notify(&mut self, message: &Value, deadline: Instant) -> Result<(), Failure>;
    /// The bytes of the messages received so far.
    fn received(&self) -> usize;
    /// The protocol revision agreed on, for transports that announce it on every request.
    fn set_protocol(&mut self, _protocol: Option<&str>) {}
    /// Ends the session and stops or leaves the server.
    fn close(&mut self);
    /// More about a failure, from what the server left (the end of its standard error).
    fn describe_failure(&mut self) -> String {
        String::new()
    }
    /// Starts keeping every message that crosses, both ways, as its bytes went by ([`Tape`]).
    fn keep(&mut self) {}
    /// The messages kept since [`Transport::keep`], a line each.
    fn kept(&mut self) -> String {
        String::new()
    }
}

/// The messages of an exchange as their bytes crossed, a line each (JSON Lines, the capture
/// `audit --save` writes): what was sent as written, what was received as read (the server's
/// notifications and requests too), a line break inside a message written as a space (in JSON
/// it can only be whitespace), and a byte that is not UTF-8 as U+FFFD (as the message was read).
#[derive(Debug, Default)]
pub(crate) struct Tape {
    on: bool,
    text: String,
}

impl Tape {
    /// Starts keeping.
    pub(crate) fn start(&mut self) {
        self.on = true;
    }

    /// Keeps one message's bytes (nothing when not keeping, or when they are blank).
    pub(crate) fn message(&mut self, bytes: &[u8]) {
        let bytes = bytes.trim_ascii();
        if !self.on || bytes.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        let at = self.text.len();
        self.text.push_str(&text);
        if self.text[at..].contains(['\n', '\r']) {
            let line = self.text.split_off(at).replace(['\n', '\r'], " ");
            self.text.push_str(&line);
        }
        self.text.push('\n');
    }

    /// What was kept, taken.
    pub(crate) fn take(&mut self) -> String {
        std::mem::take(&mut self.text)
    }
}

/// Lists the tools of `server`: starts or reaches it, agrees on a protocol, follows every page
/// of `tools/list`, and stops it (also when something fails).
///
/// # Errors
/// Why the tools could not be listed, in one line.
pub fn list_tools(server: &Server, options: &Options) -> Result<Listing, String> {
    let deadline = Instant::now() + options.timeout;
    let mut transport = connect(server)?;
    let result = session::list(transport.as_mut(), options, deadline);
    let result = result.map_err(|failure| explain(transport.as_mut(), failure, options));
    transport.close();
    result
}

/// A failure in one line, with the time it waited and what the server left on its way out.
fn explain(transport: &mut dyn Transport, failure: Failure, options: &Options) -> String {
    let mut message = if failure.kind == FailureKind::Timeout {
        format!(
            "{} within {} s (`--timeout`)",
            failure.message,
            options.timeout.as_secs_f64()
        )
    } else {
        failure.message
    };
    message.push_str(&transport.describe_failure());
    message
}

/// Starts the server (a command) or makes ready to reach it (a URL).
fn connect(server: &Server) -> Result<Box<dyn Transport>, String> {
    Ok(match &server.endpoint {
        Endpoint::Command { argv, env } => {
            children::stop_on_interrupt();
            Box::new(stdio::StdioServer::start(argv, env).map_err(|f| f.message)?)
        }
        #[cfg(feature = "http")]
        Endpoint::Url { url, headers } => Box::new(http::HttpServer::new(url, headers)),
        #[cfg(not(feature = "http"))]
        Endpoint::Url { url, .. } => {
            return Err(format!(
                "`--url {url}`: this build of schema-lint has no HTTP client (the `http` feature)"
            ))
        }
    })
}

/// What `server` advertises, as an input of a run: its `tools/list` document, or why it could not
/// be listed (reported as SL102 on the server).
#[must_use]
pub fn input(server: &Server, options: &Options) -> super::Input {
    match list_tools(server, options) {
        Ok(listing) => super::Input::Server {
            name: server.label.clone(),
            text: dump(server, &listing),
        },
        Err(why) => super::Input::ServerFailed {
            name: server.label.clone(),
            message: format!("Cannot list the tools of the server: {why}"),
        },
    }
}

/// The document `schema-lint dump` prints for a listing: a JSON-RPC response whose `result`
/// holds every tool, with the server and the protocol noted in `result._meta`, pretty-printed.
/// It is the text findings of a live server point into.
#[must_use]
pub fn dump(server: &Server, listing: &Listing) -> String {
    let mut result = listing.envelope.clone();
    result.insert("tools".to_owned(), Value::Array(listing.tools.clone()));
    result.insert(
        "_meta".to_owned(),
        json!({
            DUMP_META: {
                "source": server.label,
                "server": {"name": listing.server_name, "version": listing.server_version},
                "protocol": listing.protocol,
                // Which members of the server's answer the dump keeps beside the tools: a dump
                // without this note is of a version that kept none, so it cannot tell.
                "envelope": ENVELOPE,
            }
        }),
    );
    let document = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "result": result,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

/// The response in `value` (a message or a batch) to the request `id`.
fn answer_for(value: &Value, id: &Value) -> Option<Value> {
    match value {
        Value::Array(items) => items.iter().find_map(|v| answer_for(v, id)),
        Value::Object(o)
            if o.get("id") == Some(id) && (o.contains_key("result") || o.contains_key("error")) =>
        {
            Some(value.clone())
        }
        _ => None,
    }
}

/// Whether `value` is the request `sent` coming back: the same method and id, which no server
/// sends (its own requests have ids of its own), and which a program echoing its input does.
fn is_echo(value: &Value, sent: &Value) -> bool {
    value.get("method").is_some()
        && value.get("method") == sent.get("method")
        && value.get("id") == sent.get("id")
}

/// The answer to a request the server sent us: `ping` is answered, anything else is declined.
fn reply_to_server_request(value: &Value) -> Option<Value> {
    let method = value.get("method")?.as_str()?;
    let id = value.get("id")?;
    Some(if method == "ping" {
        json!({"jsonrpc": "2.0", "id": id, "result": {}})
    } else {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})
    })
}

/// Whether `value` is a JSON-RPC message (or a batch of them).
fn is_message(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty() && items.iter().all(is_message),
        Value::Object(o) => o.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
        _ => false,
    }
}

/// The start of `text` for a one-line message: at most 120 characters, control characters
/// shown escaped.
fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == 120 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell_and_never_run_one() {
        let s =
            Server::command(r#"python3 -m "my server" --flag='a b'"#, &["K=v=w".into()]).unwrap();
        assert_eq!(
            s.endpoint,
            Endpoint::Command {
                argv: vec![
                    "python3".into(),
                    "-m".into(),
                    "my server".into(),
                    "--flag=a b".into()
                ],
                env: vec![("K".into(), "v=w".into())],
            }
        );
        assert!(Server::command("node 'server.js", &[]).is_err());
        assert!(Server::command("  ", &[]).is_err());
        assert!(Server::command("node s.js", &["NOVALUE".into()]).is_err());
    }

    #[test]
    fn urls_are_http_and_headers_have_a_name() {
        assert!(Server::url(
            "http://127.0.0.1:8000/mcp",
            &["Authorization: Bearer x".into()]
        )
        .is_ok());
        assert!(Server::url("ftp://example.com/mcp", &[]).is_err());
        assert!(Server::url("localhost:8000", &[]).is_err());
        assert!(Server::url("https://example.com/mcp", &["Authorization".into()]).is_err());
    }

    #[test]
    fn answers_are_matched_by_id_in_messages_and_batches() {
        let id = json!(3);
        let batch = json!([{"jsonrpc": "2.0", "method": "notifications/message"},
                           {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}]);
        assert!(answer_for(&batch, &id).is_some());
        assert!(answer_for(&json!({"jsonrpc": "2.0", "id": "3", "result": {}}), &id).is_none());
        assert!(answer_for(&json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}), &id).is_none());
        let ping =
            reply_to_server_request(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping"})).unwrap();
        assert_eq!(ping["result"], json!({}));
        let roots =
            reply_to_server_request(&json!({"jsonrpc": "2.0", "id": 9, "method": "roots/list"}))
                .unwrap();
        assert_eq!(roots["error"]["code"], -32601);
        assert!(is_message(&json!({"jsonrpc": "2.0", "method": "x"})));
        assert!(!is_message(&json!({"level": "info"})));
        assert_eq!(excerpt("a\u{1b}[31mb"), "a\\u{1b}[31mb");
    }

    #[test]
    fn a_tape_keeps_bytes_a_message_a_line() {
        let mut tape = Tape::default();
        tape.message(b"{}");
        tape.start();
        tape.message(b"{\"n\": 123456789012345678901234567890,\r\n \"a\": 1}\n");
        tape.message(b"  \n");
        tape.message(b"{\"s\": \"caf\xE9\"}");
        assert_eq!(
            tape.take(),
            "{\"n\": 123456789012345678901234567890,   \"a\": 1}\n{\"s\": \"caf\u{fffd}\"}\n"
        );
    }

    #[test]
    fn the_dump_notes_the_server_and_protocol() {
        let server = Server::command("node server.mjs", &[]).unwrap();
        let listing = Listing {
            tools: vec![json!({"name": "t", "inputSchema": {"type": "object"}})],
            protocol: "2025-11-25".into(),
            server_name: Some("demo".into()),
            server_version: Some("1.0.0".into()),
            pages: 1,
            envelope: serde_json::Map::new(),
        };
        let text = dump(&server, &listing);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["result"]["tools"][0]["name"], "t");
        assert_eq!(v["result"]["_meta"][DUMP_META]["protocol"], "2025-11-25");
        assert_eq!(v["result"]["_meta"][DUMP_META]["source"], "node server.mjs");
        assert!(text.ends_with("}\n"));
    }
}

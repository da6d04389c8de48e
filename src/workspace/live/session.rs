//! The MCP exchange: agreeing on a protocol revision, then every page of `tools/list`.
//!
//! The negotiation follows the Python SDK client's automatic mode: a `server/discover` probe at
//! 2026-07-28 first; a server that answers it with that revision in `supportedVersions` is
//! spoken to statelessly (the revision and the client's capabilities in every request's
//! `_meta`). Any other answer (a JSON-RPC error, an HTTP rejection, a result without a 2026
//! revision) falls back to the `initialize` handshake of the 2025 revisions, except an
//! `-32022` (unsupported version) whose `supported` list names no 2025 revision: that server
//! speaks only revisions this version does not know.

use super::{Failure, FailureKind, Listing, Options, Transport};
use super::{KNOWN_PROTOCOLS, MAX_LISTING, MAX_PAGES, MAX_TOOLS, MODERN, NEWEST_HANDSHAKE};
use serde_json::{json, Map, Value};
use std::time::Instant;

/// The JSON-RPC error code of an unsupported protocol version (2026-07-28).
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// What the negotiation settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Negotiation {
    /// The revision the exchange uses.
    pub protocol: String,
    /// Whether it is the stateless revision (no `initialize`).
    pub stateless: bool,
    /// The server's name, as it reported it.
    pub server_name: Option<String>,
    /// The server's version, as it reported it.
    pub server_version: Option<String>,
}

/// What the answer to a `server/discover` probe means.
#[derive(Debug, PartialEq, Eq)]
pub enum ProbeVerdict {
    /// The server speaks 2026-07-28.
    Modern,
    /// Fall back to the `initialize` handshake.
    Handshake,
    /// The server speaks only revisions this version does not know.
    Unknown(Vec<String>),
}

/// Judges the answer to a `server/discover` probe (the whole JSON-RPC response).
#[must_use]
pub fn pick_protocol(answer: &Value) -> ProbeVerdict {
    if let Some(result) = answer.get("result") {
        let speaks_modern = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().any(|s| s.as_str() == Some(MODERN)));
        return if speaks_modern {
            ProbeVerdict::Modern
        } else {
            ProbeVerdict::Handshake
        };
    }
    let error = answer.get("error");
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    let supported: Option<Vec<String>> = error
        .and_then(|e| e.pointer("/data/supported"))
        .and_then(Value::as_array)
        .map(|v| {
            v.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        });
    match (code, supported) {
        (Some(UNSUPPORTED_PROTOCOL_VERSION), Some(supported))
            if !supported
                .iter()
                .any(|s| KNOWN_PROTOCOLS.contains(&s.as_str())) =>
        {
            ProbeVerdict::Unknown(supported)
        }
        _ => ProbeVerdict::Handshake,
    }
}

/// Request ids and the `_meta` every stateless request carries.
pub(super) struct Requests {
    next_id: i64,
    negotiation: Option<Negotiation>,
}

impl Requests {
    fn request(&mut self, method: &str, params: Option<Map<String, Value>>) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = params.unwrap_or_default();
        if self.negotiation.as_ref().is_none_or(|n| n.stateless) {
            let protocol = self
                .negotiation
                .as_ref()
                .map_or(MODERN, |n| n.protocol.as_str());
            params.insert("_meta".to_owned(), modern_meta(protocol));
        }
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_empty() {
            message["params"] = Value::Object(params);
        }
        message
    }
}

/// The `_meta` of a stateless request.
fn modern_meta(protocol: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": protocol,
        "io.modelcontextprotocol/clientInfo": client_info(),
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

fn client_info() -> Value {
    json!({"name": "schema-lint", "version": env!("CARGO_PKG_VERSION")})
}

/// The one-line text of a JSON-RPC error answer.
fn error_text(answer: &Value) -> String {
    let error = &answer["error"];
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("no message");
    match error.get("code").and_then(Value::as_i64) {
        Some(code) => format!("{} (code {code})", super::excerpt(message)),
        None => super::excerpt(message),
    }
}

/// Settles the protocol revision with the server.
fn negotiate(
    transport: &mut dyn Transport,
    requests: &mut Requests,
    wanted: Option<&str>,
    deadline: Instant,
) -> Result<Negotiation, Failure> {
    if wanted.is_none_or(|w| w == MODERN) {
        transport.set_protocol(Some(MODERN));
        let probe = requests.request("server/discover", None);
        let answer = match transport.request(&probe, deadline) {
            Ok(answer) => Some(answer),
            Err(f) if f.kind == FailureKind::Rejected && wanted.is_none() => None,
            Err(f) => return Err(f),
        };
        let verdict = answer
            .as_ref()
            .map_or(ProbeVerdict::Handshake, pick_protocol);
        match (verdict, answer) {
            (ProbeVerdict::Modern, Some(answer)) => {
                let info = answer.pointer("/result/_meta/io.modelcontextprotocol~1serverInfo");
                return Ok(Negotiation {
                    protocol: MODERN.to_owned(),
                    stateless: true,
                    server_name: text_at(info, "name"),
                    server_version: text_at(info, "version"),
                });
            }
            (ProbeVerdict::Unknown(supported), _) => {
                return Err(Failure::broken(format!(
                    "the server speaks only protocol {}, which this version of schema-lint does not know",
                    supported.join(", ")
                )));
            }
            (_, answer) if wanted == Some(MODERN) => {
                let why = match answer {
                    Some(a) if a.get("error").is_some() => error_text(&a),
                    _ => "it does not list 2026-07-28 among its supported versions".to_owned(),
                };
                return Err(Failure::broken(format!(
                    "the server does not speak protocol 2026-07-28 (`--protocol`): {why}"
                )));
            }
            _ => {}
        }
    }
    transport.set_protocol(None);
    let version = wanted.unwrap_or(NEWEST_HANDSHAKE);
    requests.negotiation = Some(Negotiation {
        protocol: version.to_owned(),
        stateless: false,
        server_name: None,
        server_version: None,
    });
    let mut params = Map::new();
    params.insert("protocolVersion".to_owned(), json!(version));
    params.insert("capabilities".to_owned(), json!({}));
    params.insert("clientInfo".to_owned(), client_info());
    let initialize = requests.request("initialize", Some(params));
    let answer = transport.request(&initialize, deadline)?;
    if answer.get("error").is_some() {
        return Err(Failure::broken(format!(
            "the server answered `initialize` with an error: {}",
            error_text(&answer)
        )));
    }
    let result = answer
        .get("result")
        .filter(|r| r.is_object())
        .ok_or_else(|| {
            Failure::broken("the server's answer to `initialize` has no result object")
        })?;
    let agreed = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Failure::broken("the server's `initialize` result names no `protocolVersion`")
        })?;
    if !KNOWN_PROTOCOLS.contains(&agreed) || agreed == MODERN {
        return Err(Failure::broken(format!(
            "the server answered `initialize` with protocol `{}`, which this version of schema-lint does not speak over a handshake",
            super::excerpt(agreed)
        )));
    }
    let info = result.get("serverInfo");
    let negotiation = Negotiation {
        protocol: agreed.to_owned(),
        stateless: false,
        server_name: text_at(info, "name"),
        server_version: text_at(info, "version"),
    };
    transport.set_protocol(Some(agreed));
    transport.notify(
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        deadline,
    )?;
    Ok(negotiation)
}

fn text_at(object: Option<&Value>, key: &str) -> Option<String> {
    object?.get(key)?.as_str().map(str::to_owned)
}

/// Agrees on a protocol, then follows every page of `tools/list`.
pub(super) fn list(
    transport: &mut dyn Transport,
    options: &Options,
    deadline: Instant,
) -> Result<Listing, Failure> {
    list_keeping(transport, options, deadline).map(|(listing, _)| listing)
}

/// Calls the tool `name` with `arguments` in the session that [`list_keeping`] opened, and
/// returns the server's whole answer (a result or a JSON-RPC error).
pub(super) fn call_tool(
    transport: &mut dyn Transport,
    requests: &mut Requests,
    name: &str,
    arguments: &Value,
    deadline: Instant,
) -> Result<Value, Failure> {
    let mut params = Map::new();
    params.insert("name".to_owned(), Value::String(name.to_owned()));
    params.insert("arguments".to_owned(), arguments.clone());
    let request = requests.request("tools/call", Some(params));
    transport.request(&request, deadline)
}

/// [`list`], keeping the session's request ids and protocol for the requests that follow.
pub(super) fn list_keeping(
    transport: &mut dyn Transport,
    options: &Options,
    deadline: Instant,
) -> Result<(Listing, Requests), Failure> {
    let mut requests = Requests {
        next_id: 1,
        negotiation: None,
    };
    let negotiation = negotiate(
        transport,
        &mut requests,
        options.protocol.as_deref(),
        deadline,
    )?;
    requests.negotiation = Some(negotiation.clone());
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = std::collections::HashSet::new();
    let mut pages = 0;
    let mut envelope: Option<Map<String, Value>> = None;
    loop {
        pages += 1;
        if pages > MAX_PAGES {
            return Err(Failure::broken(format!(
                "`tools/list` still had more pages after {MAX_PAGES}: its pages never end"
            )));
        }
        let params = cursor.take().map(|c| {
            let mut p = Map::new();
            p.insert("cursor".to_owned(), Value::String(c));
            p
        });
        let request = requests.request("tools/list", params);
        let mut answer = transport.request(&request, deadline).map_err(|mut f| {
            if f.kind == FailureKind::Timeout && pages > 1 {
                f.message = format!(
                    "{} to page {pages} of `tools/list` ({} tools listed before it)",
                    f.message,
                    tools.len()
                );
            }
            f
        })?;
        if answer.get("error").is_some() {
            return Err(Failure::broken(format!(
                "the server answered `tools/list` with an error: {}",
                error_text(&answer)
            )));
        }
        let Some(page) = answer.get_mut("result").and_then(Value::as_object_mut) else {
            return Err(Failure::broken(
                "the server's answer to `tools/list` has no result object",
            ));
        };
        match page.remove("tools") {
            Some(Value::Array(items)) if tools.len() + items.len() > MAX_TOOLS => {
                return Err(Failure::broken(format!(
                    "`tools/list` sent more than {MAX_TOOLS} tools ({} in {pages} pages): schema-lint stops there",
                    tools.len() + items.len()
                )));
            }
            Some(Value::Array(items)) => tools.extend(items),
            _ => {
                return Err(Failure::broken(format!(
                    "page {pages} of `tools/list` has no `tools` array"
                )))
            }
        }
        keep_envelope(&mut envelope, page);
        if transport.received() > MAX_LISTING {
            return Err(Failure::broken(format!(
                "`tools/list` sent more than {} MiB ({} tools in {pages} pages): schema-lint stops there",
                MAX_LISTING >> 20,
                tools.len()
            )));
        }
        match page.get("nextCursor") {
            Some(Value::String(next)) if !next.is_empty() => {
                if !seen.insert(next.clone()) {
                    return Err(Failure::broken(format!(
                        "`tools/list` sent the cursor `{}` twice: its pages never end",
                        super::excerpt(next)
                    )));
                }
                cursor = Some(next.clone());
            }
            _ => break,
        }
    }
    let listing = Listing {
        tools,
        protocol: negotiation.protocol,
        server_name: negotiation.server_name,
        server_version: negotiation.server_version,
        pages,
        envelope: envelope.unwrap_or_default(),
    };
    Ok((listing, requests))
}

/// Keeps what `page` says of the result's envelope ([`super::ENVELOPE`]): the first page's
/// members, less any that a later page lacks.
fn keep_envelope(kept: &mut Option<Map<String, Value>>, page: &Map<String, Value>) {
    match kept {
        None => {
            *kept = Some(
                super::ENVELOPE
                    .iter()
                    .filter_map(|k| Some(((*k).to_owned(), page.get(*k)?.clone())))
                    .collect(),
            );
        }
        Some(kept) => kept.retain(|k, _| page.contains_key(k)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A server played from a script: each request gets the next scripted answer, built from
    /// the request.
    type Reply = Box<dyn Fn(&Value) -> Result<Value, Failure>>;

    struct Scripted {
        replies: VecDeque<Reply>,
        /// What each answer counts as received: its size as JSON text.
        received: usize,
        sent: Vec<Value>,
        protocol: Vec<Option<String>>,
    }

    impl Transport for Scripted {
        fn request(&mut self, message: &Value, _: Instant) -> Result<Value, Failure> {
            self.sent.push(message.clone());
            let reply = self.replies.pop_front().expect("a scripted answer");
            let answer = reply(message)?;
            self.received += answer.to_string().len();
            assert!(super::super::answer_for(&answer, &message["id"]).is_some());
            Ok(answer)
        }
        fn notify(&mut self, message: &Value, _: Instant) -> Result<(), Failure> {
            self.sent.push(message.clone());
            Ok(())
        }
        fn set_protocol(&mut self, protocol: Option<&str>) {
            self.protocol.push(protocol.map(str::to_owned));
        }
        fn received(&self) -> usize {
            self.received
        }
        fn close(&mut self) {}
    }

    fn ok(result: Value) -> Reply {
        Box::new(move |req| Ok(json!({"jsonrpc": "2.0", "id": req["id"], "result": result})))
    }

    fn err(code: i64, data: Value) -> Reply {
        Box::new(move |req| {
            Ok(json!({"jsonrpc": "2.0", "id": req["id"],
                      "error": {"code": code, "message": "nope", "data": data}}))
        })
    }

    fn run(replies: Vec<Reply>, protocol: Option<&str>) -> (Result<Listing, Failure>, Scripted) {
        let mut t = Scripted {
            replies: replies.into(),
            received: 0,
            sent: Vec::new(),
            protocol: Vec::new(),
        };
        let options = Options {
            protocol: protocol.map(str::to_owned),
            ..Options::default()
        };
        let far = Instant::now() + std::time::Duration::from_secs(60);
        (list(&mut t, &options, far), t)
    }

    fn tools(names: &[&str]) -> Value {
        Value::Array(names.iter().map(|n| json!({"name": n})).collect())
    }

    #[test]
    fn a_modern_server_is_spoken_to_statelessly_and_paged() {
        let (listing, t) = run(
            vec![
                ok(json!({"supportedVersions": ["2026-07-28"],
                          "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "2"}}})),
                ok(json!({"tools": tools(&["a", "b"]), "nextCursor": "p2"})),
                ok(json!({"tools": tools(&["c"])})),
            ],
            None,
        );
        let listing = listing.unwrap();
        assert_eq!(listing.protocol, "2026-07-28");
        assert_eq!(listing.tools.len(), 3);
        assert_eq!(listing.pages, 2);
        assert_eq!(listing.server_name.as_deref(), Some("s"));
        assert_eq!(t.sent[0]["method"], "server/discover");
        assert_eq!(t.sent[2]["params"]["cursor"], "p2");
        assert_eq!(
            t.sent[2]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert!(t.sent.iter().all(|m| m["method"] != "initialize"));
    }

    #[test]
    fn the_envelope_is_kept_where_every_page_has_it() {
        let discover = || {
            ok(json!({"supportedVersions": ["2026-07-28"],
                      "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "2"}}}))
        };
        let (listing, _) = run(
            vec![
                discover(),
                ok(
                    json!({"cacheScope": "private", "ttlMs": 0, "resultType": "complete",
                          "tools": tools(&["a"]), "nextCursor": "p2", "extra": 1}),
                ),
                ok(json!({"resultType": "complete", "ttlMs": 5, "tools": tools(&["b"])})),
            ],
            None,
        );
        let envelope = listing.unwrap().envelope;
        // The first page's values; `cacheScope`, missing on page 2, is missing from the listing.
        assert_eq!(
            Value::Object(envelope),
            json!({"resultType": "complete", "ttlMs": 0})
        );
        let (listing, _) = run(vec![discover(), ok(json!({"tools": tools(&["a"])}))], None);
        assert!(listing.unwrap().envelope.is_empty());
    }

    #[test]
    fn a_2025_server_gets_the_handshake() {
        let (listing, t) = run(
            vec![
                err(-32601, Value::Null),
                ok(
                    json!({"protocolVersion": "2025-06-18", "serverInfo": {"name": "old", "version": "1"}}),
                ),
                ok(json!({"tools": tools(&["a"])})),
            ],
            None,
        );
        let listing = listing.unwrap();
        assert_eq!(listing.protocol, "2025-06-18");
        assert_eq!(t.sent[1]["params"]["protocolVersion"], "2025-11-25");
        assert_eq!(t.sent[2]["method"], "notifications/initialized");
        assert!(t.sent[3]["params"].get("_meta").is_none());
        assert_eq!(t.protocol.last().unwrap().as_deref(), Some("2025-06-18"));
    }

    #[test]
    fn probe_verdicts() {
        let answer = |v: Value| -> Value { serde_json::from_value(v).unwrap() };
        assert_eq!(
            pick_protocol(&answer(
                json!({"id": 1, "result": {"supportedVersions": ["2025-11-25"]}})
            )),
            ProbeVerdict::Handshake
        );
        assert_eq!(
            pick_protocol(&answer(json!({"id": 1, "error": {"code": -32022,
                "data": {"supported": ["2027-01-01"]}}}))),
            ProbeVerdict::Unknown(vec!["2027-01-01".into()])
        );
        assert_eq!(
            pick_protocol(&answer(json!({"id": 1, "error": {"code": -32022,
                "data": {"supported": ["2025-11-25", "2027-01-01"]}}}))),
            ProbeVerdict::Handshake
        );
    }

    #[test]
    fn an_explicit_2025_revision_skips_the_probe() {
        let (listing, t) = run(
            vec![
                ok(json!({"protocolVersion": "2025-06-18"})),
                ok(json!({"tools": []})),
            ],
            Some("2025-06-18"),
        );
        assert_eq!(listing.unwrap().protocol, "2025-06-18");
        assert_eq!(t.sent[0]["method"], "initialize");
    }

    #[test]
    fn a_listing_is_bounded_in_tools_and_bytes_and_a_late_timeout_says_where() {
        let modern = || ok(json!({"supportedVersions": ["2026-07-28"]}));
        let page = |n: usize, next: usize, text: usize| -> Reply {
            let tools: Vec<Value> = (0..n)
                .map(|i| json!({"name": format!("t{i}"), "description": "x".repeat(text)}))
                .collect();
            ok(json!({"tools": tools, "nextCursor": format!("c{next}")}))
        };
        let mut replies = vec![modern()];
        replies.extend((0..5).map(|i| page(MAX_TOOLS / 4, i, 0)));
        let message = run(replies, None).0.unwrap_err().message;
        assert_eq!(
            message,
            format!("`tools/list` sent more than {MAX_TOOLS} tools (125000 in 5 pages): schema-lint stops there")
        );
        let mut replies = vec![modern()];
        replies.extend((0..20).map(|i| page(1, i, 8 << 20)));
        let message = run(replies, None).0.unwrap_err().message;
        assert_eq!(
            message,
            "`tools/list` sent more than 64 MiB (8 tools in 8 pages): schema-lint stops there"
        );
        let replies = vec![
            modern(),
            page(3, 1, 0),
            Box::new(|_: &Value| Err(Failure::timeout())) as Reply,
        ];
        let failure = run(replies, None).0.unwrap_err();
        assert_eq!(failure.kind, FailureKind::Timeout);
        assert_eq!(
            failure.message,
            "no answer to page 2 of `tools/list` (3 tools listed before it)"
        );
    }

    #[test]
    fn endless_and_broken_listings_are_errors() {
        let (listing, _) = run(
            vec![
                ok(json!({"supportedVersions": ["2026-07-28"]})),
                ok(json!({"tools": [], "nextCursor": "same"})),
                ok(json!({"tools": [], "nextCursor": "same"})),
            ],
            None,
        );
        assert!(listing.unwrap_err().message.contains("never end"));
        let (listing, _) = run(
            vec![
                ok(json!({"supportedVersions": ["2026-07-28"]})),
                ok(json!({"items": []})),
            ],
            None,
        );
        assert!(listing.unwrap_err().message.contains("no `tools` array"));
        let (listing, _) = run(
            vec![err(-32601, Value::Null), err(-32603, Value::Null)],
            None,
        );
        let message = listing.unwrap_err().message;
        assert!(
            message.contains("`initialize` with an error: nope (code -32603)"),
            "{message}"
        );
        let (listing, _) = run(vec![err(-32601, Value::Null)], Some("2026-07-28"));
        assert!(listing
            .unwrap_err()
            .message
            .contains("does not speak protocol 2026-07-28"));
    }
}

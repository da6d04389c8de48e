//! Starting the servers and judging, per host, the request it sends.
//!
//! Every enabled, consented server is started once (a server several hosts name is listed once)
//! through the live machinery ([`crate::workspace::live`]: time limits, stderr trimmed, children
//! ended), at most `jobs` at once. Then for each host its request is built: each server's tools,
//! in the host's order of servers and the server's order of tools, after the host's filters,
//! each under the name the host gives it ([`super::names`]); the request is linted as one
//! `tools/list` document with the engine, for the host's client (and the clients `--clients`
//! adds); each finding's verdict for those clients is the client model's
//! ([`crate::diagnostic::verdict::Verdict::of_client`]), never decided here again.

use super::config::{Entry, Found, Transport};
use super::vars::Secrets;
use super::{Host, Options};
use crate::diagnostic::breaks::{Client, Effect};
use crate::diagnostic::verdict::Verdict;
use crate::diagnostic::Diagnostic;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::live::{self, Endpoint, Listing, Server};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What became of a server.
#[derive(Clone, Debug)]
pub enum State {
    /// It listed its tools.
    Listed(Listing),
    /// It was started but could not be listed (why, one line).
    Failed(String),
    /// It was not started (why).
    NotStarted(String),
}

/// A tool in a host's request.
#[derive(Clone, Debug)]
pub struct Sent {
    /// The user's key for its server.
    pub server: String,
    /// The tool's own name.
    pub tool: String,
    /// The name the host sends.
    pub name: String,
}

/// A finding in a host's request, placed on its server and tool.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The server's key (none for a finding on the whole request).
    pub server: Option<String>,
    /// The tool's own name.
    pub tool: Option<String>,
    /// The name the host sends for it.
    pub sent_as: Option<String>,
    /// The finding, as the engine reported it on the request.
    pub diagnostic: Diagnostic,
    /// The worst verdict of the host's clients on it.
    pub verdict: Verdict,
    /// What the clients that break do (client, effect), each once.
    pub effects: Vec<(Client, Effect)>,
    /// What the user can do about it in their own configuration.
    pub user_fix: Option<String>,
}

/// One server of one host, and what became of it.
#[derive(Clone, Debug)]
pub struct ServerOf {
    /// The configuration entry.
    pub entry: Entry,
    /// What became of it.
    pub state: State,
    /// How many of its tools the request holds (after the filters).
    pub sent: usize,
}

/// A host's request, judged.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The host.
    pub host: Host,
    /// The clients that judge it (the host's own, then `--clients`).
    pub clients: Vec<Client>,
    /// The host's version named (`--host claude-code@2.1.260`); `None`: its newest known.
    pub version: Option<String>,
    /// Its servers, in its order.
    pub servers: Vec<ServerOf>,
    /// The request's tools, in order.
    pub tools: Vec<Sent>,
    /// Bytes of the request's input schemas (compact JSON).
    pub schema_bytes: usize,
    /// The findings, in the request's order.
    pub findings: Vec<Finding>,
    /// The verdict line (after `host: `).
    pub summary: String,
    /// Whether the host loses a tool, a request fails or a server cannot be listed.
    pub fails: bool,
}

/// Starts every startable server once and judges each host's request.
#[must_use]
pub fn judge(found: &Found, options: &Options, secrets: &Secrets) -> Vec<Judged> {
    let states = start_all(found, options);
    let mut hosts: Vec<Host> = found.entries.iter().map(|e| e.host).collect();
    hosts.extend(found.files.iter().map(|(h, _, _)| *h));
    let hosts: BTreeSet<Host> = hosts.into_iter().collect();
    hosts
        .into_iter()
        .map(|host| judge_host(host, found, &states, options, secrets))
        .collect()
}

/// The live server a transport names.
fn server_of(key: &str, transport: &Transport) -> Server {
    Server {
        label: key.to_owned(),
        endpoint: match transport {
            Transport::Stdio { argv, env } => Endpoint::Command {
                argv: argv.clone(),
                env: env.clone(),
            },
            Transport::Http { url, headers } => Endpoint::Url {
                url: url.clone(),
                headers: headers.clone(),
            },
        },
    }
}

/// Lists every distinct transport of the startable entries, `options.jobs` at once.
fn start_all(found: &Found, options: &Options) -> BTreeMap<Transport, State> {
    let mut todo: Vec<(String, Transport)> = Vec::new();
    for e in &found.entries {
        if let (Some(t), None) = (&e.transport, &e.not_started) {
            if !todo.iter().any(|(_, u)| u == t) {
                todo.push((e.key.clone(), t.clone()));
            }
        }
    }
    let live_options = live::Options {
        protocol: None,
        timeout: Duration::from_secs_f64(options.timeout),
    };
    let next = AtomicUsize::new(0);
    let done = Mutex::new(BTreeMap::new());
    let workers = options.jobs.clamp(1, 64).min(todo.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((key, transport)) = todo.get(i) else {
                    return;
                };
                let state = match live::list_tools(&server_of(key, transport), &live_options) {
                    Ok(listing) => State::Listed(listing),
                    Err(why) => State::Failed(why),
                };
                if let Ok(mut done) = done.lock() {
                    done.insert(transport.clone(), state);
                }
            });
        }
    });
    done.into_inner().unwrap_or_default()
}

/// Whether `tool` passes the entry's filters (an exclusion wins over an inclusion, as in
/// gemini-cli and Codex).
fn passes(entry: &Entry, tool: &str) -> bool {
    entry
        .include
        .as_ref()
        .is_none_or(|only| only.iter().any(|t| t == tool))
        && !entry.exclude.iter().any(|t| t == tool)
}

fn judge_host(
    host: Host,
    found: &Found,
    states: &BTreeMap<Transport, State>,
    options: &Options,
    secrets: &Secrets,
) -> Judged {
    let mut clients: Vec<Client> = host.client().into_iter().collect();
    for c in &options.extra_clients {
        if !clients.contains(c) {
            clients.push(*c);
        }
    }
    let mut namer = super::names::Namer::new(host);
    let mut servers = Vec::new();
    let mut tools = Vec::new();
    let mut request_tools = Vec::new();
    let mut schema_bytes = 0;
    for entry in found.entries.iter().filter(|e| e.host == host) {
        let state = match (&entry.not_started, &entry.transport) {
            (Some(why), _) => State::NotStarted(why.clone()),
            (None, Some(t)) => states
                .get(t)
                .cloned()
                .unwrap_or_else(|| State::NotStarted("not started".to_owned())),
            (None, None) => State::NotStarted("no way to reach it".to_owned()),
        };
        let mut sent = 0;
        if let State::Listed(listing) = &state {
            let naming = namer.server(&entry.key);
            for tool in &listing.tools {
                let own = tool.get("name").and_then(Value::as_str).unwrap_or_default();
                if !passes(entry, own) {
                    continue;
                }
                let name = naming.name(own);
                let mut renamed = tool.clone();
                if let Some(obj) = renamed.as_object_mut() {
                    obj.insert("name".to_owned(), Value::String(name.clone()));
                }
                schema_bytes += tool
                    .get("inputSchema")
                    .map_or(0, |s| serde_json::to_string(s).map_or(0, |t| t.len()));
                request_tools.push(renamed);
                tools.push(Sent {
                    server: entry.key.clone(),
                    tool: own.to_owned(),
                    name,
                });
                sent += 1;
            }
        }
        servers.push(ServerOf {
            entry: entry.clone(),
            state,
            sent,
        });
    }
    let judge = Judge {
        host,
        clients: &clients,
        versions: &options.versions,
        secrets,
    };
    let mut findings = Vec::new();
    if !clients.is_empty() {
        for s in &servers {
            if let State::Listed(listing) = &s.state {
                findings.extend(judge.envelope(&s.entry, listing));
            }
        }
        if !request_tools.is_empty() {
            findings.extend(judge.lint(&request_tools, &tools, &servers));
        }
    }
    let version = host.client().and_then(|c| {
        options
            .versions
            .iter()
            .find(|(v, _)| *v == c)
            .map(|(_, v)| v.clone())
    });
    let (summary, fails) = summary(host, &clients, &servers, &findings);
    Judged {
        host,
        clients,
        version,
        servers,
        tools,
        schema_bytes,
        findings,
        summary,
        fails,
    }
}

/// How a host's request is judged: for its clients, at the versions named.
struct Judge<'a> {
    host: Host,
    clients: &'a [Client],
    versions: &'a [(Client, String)],
    secrets: &'a Secrets,
}

impl Judge<'_> {
    /// The settings the engine lints with: the host's clients, at the versions named.
    fn settings(&self) -> Settings {
        Settings {
            clients: self.clients.to_vec(),
            versions: self.versions.to_vec(),
            ..Settings::default()
        }
    }

    /// The verdict of the host's clients on `d`, and what those that break do (each once).
    fn verdict(&self, d: &Diagnostic) -> (Verdict, Vec<(Client, Effect)>) {
        let verdict = self
            .clients
            .iter()
            .map(|&c| Verdict::of_client(&d.breaks, d.depends_on_output, c))
            .max()
            .unwrap_or(Verdict::Works);
        let mut effects: Vec<(Client, Effect)> = Vec::new();
        for b in d.breaks.iter() {
            if self.clients.contains(&b.client)
                && Verdict::of(b.effect, d.depends_on_output) == Verdict::Breaks
                && !effects.contains(&(b.client, b.effect))
            {
                effects.push((b.client, b.effect));
            }
        }
        (verdict, effects)
    }

    /// The findings on the envelope of one server's listing (SL510: the members protocol
    /// revision 2026-07-28 requires beside the tools), which a host meets per server, before
    /// any of its tools: the server's listing as `dump` writes it, without its tools (the
    /// request's linting judges them), linted for its protocol.
    fn envelope(&self, entry: &Entry, listing: &Listing) -> Vec<Finding> {
        let bare = Listing {
            tools: Vec::new(),
            ..listing.clone()
        };
        let server = Server {
            label: entry.key.clone(),
            endpoint: Endpoint::Command {
                argv: Vec::new(),
                env: Vec::new(),
            },
        };
        let text = live::dump(&server, &bare);
        let name = format!("<{} listing of {}>", self.host, entry.key);
        let file = SourceFile::new(FileId(0), name, None, &text, true);
        let linted = crate::engine::lint_source(file, &self.settings(), true);
        linted
            .diagnostics
            .into_iter()
            .filter(|d| d.rule.code == "SL510")
            .map(|d| {
                let (verdict, effects) = self.verdict(&d);
                let user_fix = (verdict == Verdict::Breaks).then(|| self.envelope_fix(entry, &d));
                Finding {
                    server: Some(entry.key.clone()),
                    tool: None,
                    sent_as: None,
                    diagnostic: d,
                    verdict,
                    effects,
                    user_fix,
                }
            })
            .collect()
    }

    /// What the user can do about a server's listing that the host drops: use a version of the
    /// host the claim does not hold for (from the client model's ranges), or disable the server.
    fn envelope_fix(&self, entry: &Entry, d: &Diagnostic) -> String {
        let file = self.secrets.redact(&entry.file.display().to_string());
        let key = &entry.key;
        if let Some(plugin) = &entry.plugin {
            return format!(
                "Turn the plugin `{plugin}` off (`/plugin`, or `\"{plugin}\": false` in \
                 `enabledPlugins` of ~/.claude/settings.json) until its author fixes the listing"
            );
        }
        match version_way(self.host, d) {
            Some(way) => format!(
                "Disable the server `{key}` in {file} until its author fixes the listing, or {way}"
            ),
            None => {
                format!("Disable the server `{key}` in {file} until its author fixes the listing")
            }
        }
    }

    /// Lints the request as one `tools/list` document for the host's clients.
    fn lint(&self, request_tools: &[Value], sent: &[Sent], servers: &[ServerOf]) -> Vec<Finding> {
        let host = self.host;
        let document = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": request_tools}});
        let text = serde_json::to_string_pretty(&document).unwrap_or_default();
        let file = SourceFile::new(FileId(0), format!("<{host} request>"), None, &text, true);
        let linted = crate::engine::lint_source(file, &self.settings(), true);
        linted
            .diagnostics
            .into_iter()
            .map(|d| {
                let at = tool_index(&d.pointer).and_then(|i| sent.get(i));
                let (verdict, effects) = self.verdict(&d);
                let entry = at.and_then(|s| {
                    servers
                        .iter()
                        .find(|v| v.entry.key == s.server)
                        .map(|v| &v.entry)
                });
                let user_fix = match (at, entry) {
                    (Some(s), Some(e)) if verdict == Verdict::Breaks => {
                        let fix = user_fix(host, e, s, &d, &effects, self.secrets);
                        Some(match version_way(host, &d) {
                            Some(way) => format!("{fix}; or {way}"),
                            None => fix,
                        })
                    }
                    _ => None,
                };
                Finding {
                    server: at.map(|s| s.server.clone()),
                    tool: at.map(|s| s.tool.clone()),
                    sent_as: at.map(|s| s.name.clone()),
                    diagnostic: d,
                    verdict,
                    effects,
                    user_fix,
                }
            })
            .collect()
    }
}

/// A version of `host` that `d`'s claims on it do not hold for, from the client model's ranges
/// (`use claude-code before 2.1.260`, `update gemini-cli to 0.28.0 or later`): `None` when a
/// claim holds for every version.
fn version_way(host: Host, d: &Diagnostic) -> Option<String> {
    let client = host.client()?;
    let mut ways = Vec::new();
    for b in d.breaks.iter().filter(|b| b.client == client) {
        let way = match (b.versions.from, b.versions.until) {
            (Some(from), None) => format!("use {host} before {from}"),
            (None, Some(until)) => format!("update {host} to {until} or later"),
            _ => return None,
        };
        if !ways.contains(&way) {
            ways.push(way);
        }
    }
    if ways.is_empty() {
        return None;
    }
    Some(format!(
        "{} (`--host {host}@VERSION` judges another version)",
        ways.join(" and ")
    ))
}

/// The index of the tool a pointer into the request is in (`/result/tools/3/...`).
fn tool_index(pointer: &str) -> Option<usize> {
    pointer
        .strip_prefix("/result/tools/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

/// The longest name the hosts' providers accept.
const MAX_NAME: usize = 64;

/// What the user can do in their own configuration about a tool that breaks `host`'s request.
fn user_fix(
    host: Host,
    entry: &Entry,
    sent: &Sent,
    d: &Diagnostic,
    effects: &[(Client, Effect)],
    secrets: &Secrets,
) -> String {
    let file = secrets.redact(&entry.file.display().to_string());
    let key = &entry.key;
    let tool = &sent.tool;
    if let Some(plugin) = &entry.plugin {
        return format!(
            "Turn the plugin `{plugin}` off (`/plugin`, or `\"{plugin}\": false` in \
             `enabledPlugins` of ~/.claude/settings.json) until its author fixes `{tool}`"
        );
    }
    if host == Host::ClaudeCode && d.rule.code == "SL710" && sent.name.chars().count() > MAX_NAME {
        let around = "mcp__".len() + "__".len() + tool.chars().count();
        if around < MAX_NAME {
            return format!(
                "Give the server a key of at most {} characters in place of `{key}` in {file}: \
                 Claude Code sends `mcp__<key>__{tool}`, at most {MAX_NAME} characters",
                MAX_NAME - around
            );
        }
        return format!(
            "No key is short enough for `{tool}` ({around} characters with Claude Code's prefix): \
             disable `{key}` in {file}, or ask its author to shorten the name"
        );
    }
    let whole_server = effects.iter().any(|(_, e)| *e == Effect::LosesToolList);
    if whole_server {
        return format!("Disable the server `{key}` in {file} until its author fixes the listing");
    }
    match host {
        Host::GeminiCli => {
            format!("Add `{tool}` to `excludeTools` of `{key}` in {file}")
        }
        Host::Codex => format!(
            "Add `{tool}` to `disabled_tools` of `[mcp_servers.{key}]` in {file}"
        ),
        Host::Windsurf => format!("Add `{tool}` to `disabledTools` of `{key}` in {file}"),
        Host::Vscode => format!(
            "Turn `{}` off in the chat's tools picker (Configure Tools), or remove `{key}` from {file}",
            sent.name
        ),
        Host::Cursor => format!(
            "Turn `{tool}` off in Cursor's MCP settings, or remove `{key}` from {file}"
        ),
        Host::ClaudeCode | Host::ClaudeDesktop => {
            format!("Disable the server `{key}` (or remove it from {file})")
        }
    }
}

/// The verdict line of a host, and whether it fails the run.
fn summary(
    host: Host,
    clients: &[Client],
    servers: &[ServerOf],
    findings: &[Finding],
) -> (String, bool) {
    let mut parts = Vec::new();
    let mut fails = false;
    let mut request: Vec<String> = Vec::new();
    let mut lists: BTreeSet<String> = BTreeSet::new();
    let mut lost: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut warned: BTreeSet<(String, String)> = BTreeSet::new();
    for f in findings {
        let at = match (&f.server, &f.tool) {
            (Some(s), Some(t)) => format!("{s}/{t}"),
            (Some(s), None) => format!("the listing of {s}"),
            _ => "the request".to_owned(),
        };
        match f.verdict {
            Verdict::Breaks => {
                let effects: BTreeSet<Effect> = f.effects.iter().map(|(_, e)| *e).collect();
                if effects.contains(&Effect::RejectsRequest) {
                    if !request.contains(&at) {
                        request.push(at);
                    }
                } else if effects.contains(&Effect::LosesToolList) {
                    lists.insert(f.server.clone().unwrap_or_default());
                } else {
                    lost.entry(f.server.clone().unwrap_or_default())
                        .or_default()
                        .insert(f.tool.clone().unwrap_or_default());
                }
            }
            Verdict::Warns => {
                warned.insert((
                    f.server.clone().unwrap_or_default(),
                    f.tool.clone().unwrap_or_default(),
                ));
            }
            Verdict::Works => {}
        }
    }
    if !request.is_empty() {
        fails = true;
        parts.push(format!("every request fails: {}", request.join(", ")));
    }
    for server in &lists {
        fails = true;
        parts.push(format!("every tool of {server} lost"));
    }
    for (server, tools) in &lost {
        if lists.contains(server) {
            continue;
        }
        fails = true;
        let n = tools.len();
        parts.push(format!(
            "{n} tool{} of {server} lost",
            if n == 1 { "" } else { "s" }
        ));
    }
    for s in servers {
        if let State::Failed(_) = s.state {
            fails = true;
            parts.push(format!("{} could not be listed", s.entry.key));
        }
    }
    let not_started = servers
        .iter()
        .filter(|s| matches!(s.state, State::NotStarted(_)) && !s.entry.disabled)
        .count();
    if not_started > 0 {
        parts.push(format!(
            "{not_started} server{} not started",
            if not_started == 1 { "" } else { "s" }
        ));
    }
    if clients.is_empty() {
        parts.insert(
            0,
            format!("not judged: the client model has no client for {host} (`--clients` adds providers)"),
        );
    } else if !fails {
        let head = if warned.is_empty() {
            "works".to_owned()
        } else {
            format!(
                "works, with warnings on {} tool{}",
                warned.len(),
                if warned.len() == 1 { "" } else { "s" }
            )
        };
        parts.insert(0, head);
    }
    (parts.join("; "), fails)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_name_their_tool() {
        assert_eq!(tool_index("/result/tools/12/inputSchema/type"), Some(12));
        assert_eq!(tool_index("/result/tools/3"), Some(3));
        assert_eq!(tool_index("/result/tools"), None);
    }
}

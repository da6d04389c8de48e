//! Mapping a [`Clue`] into a host's request: by its index, the name it quotes, and its content.

use super::{Clue, Counts, Seg, MAX_NAME};
use crate::diagnostic::verdict::Verdict;
use crate::doors::session::request::{Finding, Judged, State};
use crate::doors::session::Host;
use serde_json::Value;
use std::fmt::Write as _;

/// How many tools of its own a host sends before the MCP tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnTools {
    /// This many (`--builtin-tools`).
    Known(usize),
    /// Not known: the index only bounds the MCP tool's place.
    Unknown,
}

/// Why the count of a host's own tools is not known.
fn unknown_own_tools(host: Host) -> &'static str {
    match host {
        Host::ClaudeCode => {
            "Claude Code sends its own tools (Bash, Read, Edit, ...) before the MCP tools; how many \
             depends on its version and settings"
        }
        Host::GeminiCli => {
            "gemini-cli declares its own tools (read_file, run_shell_command, ...) before the MCP \
             tools; how many depends on its version and settings"
        }
        Host::Codex => {
            "Codex sends its own tools (shell, apply_patch, ...) before the MCP tools; how many \
             depends on its version and settings"
        }
        Host::Vscode => {
            "VS Code sends its own and its extensions' tools with the MCP tools; how many depends on \
             the tools picked"
        }
        Host::Cursor | Host::ClaudeDesktop | Host::Windsurf => {
            "its code is not open: how many tools of its own precede the MCP tools is not known"
        }
    }
}

/// A tool an error may be about.
#[derive(Clone, Debug)]
pub struct Place {
    /// The server's key.
    pub server: String,
    /// The tool's own name.
    pub tool: String,
    /// The name the host sends (none when the host's filters leave it out).
    pub sent_as: Option<String>,
    /// Its index in the request (MCP tools only, from 0), when sent.
    pub position: Option<usize>,
    /// The pointer of the place in the request document (`/result/tools/3/inputSchema/type`),
    /// as far as the tool has it.
    pub pointer: Option<String>,
    /// The place, as far as it is found in the tool.
    resolved: bool,
}

/// What an error's clue is, in one host's request.
#[derive(Clone, Debug)]
pub struct Mapped {
    /// The tools it may be about (one when mapped).
    pub places: Vec<Place>,
    /// How it was told (`index`, `name`, `content: ...`).
    pub by: Vec<String>,
    /// What is not known, or why nothing matched.
    pub notes: Vec<String>,
}

/// The tool of a request's server by its own name.
fn raw_tool<'a>(j: &'a Judged, server: &str, tool: &str) -> Option<&'a Value> {
    j.servers
        .iter()
        .filter(|s| s.entry.key == server)
        .find_map(|s| match &s.state {
            State::Listed(l) => l
                .tools
                .iter()
                .find(|t| t.get("name").and_then(Value::as_str) == Some(tool)),
            _ => None,
        })
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The pointer of `path` inside `tool` (Gemini's n-th entries named), and whether all of it is
/// in the tool.
fn resolve(tool: Option<&Value>, path: &[Seg]) -> (String, bool) {
    let mut pointer = String::new();
    let mut at = tool;
    for seg in path {
        let key = match (seg, at) {
            (Seg::Key(k), _) => Some(k.clone()),
            (Seg::Nth(n), Some(Value::Object(map))) => map.keys().nth(*n).cloned(),
            (Seg::Nth(_), _) => None,
        };
        let Some(key) = key else {
            return (pointer, false);
        };
        at = at.and_then(|v| match v {
            Value::Object(map) => map.get(&key),
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        });
        let _ = write!(pointer, "/{}", escape(&key));
    }
    (pointer, at.is_some() || path.is_empty())
}

/// Whether finding pointer `found` and the error's `place` overlap (one is in the other).
fn overlaps(found: &str, place: &str) -> bool {
    found == place
        || found
            .strip_prefix(place)
            .is_some_and(|r| r.starts_with('/'))
        || place
            .strip_prefix(found)
            .is_some_and(|r| r.starts_with('/'))
}

/// The findings the session has on `place`'s tool, the ones at the error's place first; and
/// whether any is at it.
pub(super) fn findings_of<'a>(j: &'a Judged, place: &Place) -> (Vec<&'a Finding>, bool) {
    let mut at: Vec<&Finding> = Vec::new();
    let mut rest: Vec<&Finding> = Vec::new();
    for f in &j.findings {
        if f.server.as_deref() != Some(&place.server) || f.tool.as_deref() != Some(&place.tool) {
            continue;
        }
        if place
            .pointer
            .as_deref()
            .is_some_and(|p| overlaps(&f.diagnostic.pointer, p))
        {
            at.push(f);
        } else if f.verdict != Verdict::Works {
            rest.push(f);
        }
    }
    let any_at = !at.is_empty();
    at.extend(rest);
    (at, any_at)
}

/// Whether the session has a finding that warns or breaks at `place` (or in it, or around it).
fn breaks_at(j: &Judged, place: &Place) -> bool {
    let Some(pointer) = place.pointer.as_deref() else {
        return false;
    };
    j.findings.iter().any(|f| {
        f.verdict != Verdict::Works
            && f.server.as_deref() == Some(&place.server)
            && f.tool.as_deref() == Some(&place.tool)
            && overlaps(&f.diagnostic.pointer, pointer)
    })
}

/// The request's tool at `position`, as a place not yet resolved.
fn place_at(j: &Judged, position: usize) -> Place {
    let t = &j.tools[position];
    Place {
        server: t.server.clone(),
        tool: t.tool.clone(),
        sent_as: Some(t.name.clone()),
        position: Some(position),
        pointer: None,
        resolved: false,
    }
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The tools an index may be: in a server's listing (each server's n-th), or in the request
/// (after the host's own tools, or up to the index when their count is not known).
fn by_index(clue: &Clue, j: &Judged, own: OwnTools, out: &mut Mapped) {
    let host = j.host;
    match (clue.counts, clue.index) {
        (Counts::Listing, Some(n)) => {
            for server in &j.servers {
                let State::Listed(listing) = &server.state else {
                    continue;
                };
                let Some(listed) = listing.tools.get(n) else {
                    continue;
                };
                let own_name = listed
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let position = j
                    .tools
                    .iter()
                    .position(|t| t.server == server.entry.key && t.tool == own_name);
                out.places.push(Place {
                    server: server.entry.key.clone(),
                    tool: own_name.to_owned(),
                    sent_as: position.map(|at| j.tools[at].name.clone()),
                    position,
                    pointer: None,
                    resolved: false,
                });
            }
            out.by.push(format!("index {n} of a server's listing"));
            out.notes.push(
                "a zod path counts the tools of one server's `tools/list`, before the host's \
                 filters and names"
                    .to_owned(),
            );
        }
        (Counts::Request, Some(n)) => {
            let (from, to) = match own {
                OwnTools::Known(k) if n < k => {
                    out.notes.push(format!(
                        "index {n} is one of {host}'s own {k} tools (`--builtin-tools {k}`), not an MCP tool"
                    ));
                    return;
                }
                OwnTools::Known(k) => {
                    out.by
                        .push(format!("index {n}, after {k} tools of {host}'s own"));
                    (n - k, n - k)
                }
                OwnTools::Unknown => {
                    out.notes.push(format!(
                        "{}: index {n} is at most the MCP tool's place (`--builtin-tools N` says how many come first)",
                        unknown_own_tools(host)
                    ));
                    (0, n)
                }
            };
            out.places.extend(
                (from..=to)
                    .take_while(|&at| at < j.tools.len())
                    .map(|at| place_at(j, at)),
            );
            if out.places.is_empty() {
                out.notes.push(format!(
                    "{host}'s request holds {} MCP tool{}: none at index {n}",
                    j.tools.len(),
                    plural(j.tools.len())
                ));
            }
        }
        _ => out
            .places
            .extend((0..j.tools.len()).map(|at| place_at(j, at))),
    }
}

/// Keeps the tools the quoted name names (the name sent, the tool's own, or Claude Code's
/// `mcp__key__tool`), and those whose name is too long when the error says so.
fn by_name(clue: &Clue, j: &Judged, m: &mut Mapped) {
    let host = j.host;
    if let Some(name) = &clue.name {
        let before = m.places.len();
        m.places.retain(|p| {
            p.sent_as.as_deref() == Some(name)
                || p.tool == *name
                || *name == format!("mcp__{}__{}", p.server, p.tool)
        });
        if m.places.is_empty() {
            m.notes.push(format!(
                "no tool of {host}'s request is named `{name}` ({before} looked at)"
            ));
            // Claude Code's `mcp__key__tool`: say whether the server was read at all.
            let key = name
                .strip_prefix("mcp__")
                .and_then(|rest| rest.split_once("__"))
                .map(|(key, _)| key);
            if let Some(key) = key.filter(|k| !j.servers.iter().any(|s| s.entry.key == *k)) {
                m.notes.push(format!(
                    "no server is keyed `{key}` in {host}'s configurations read"
                ));
            }
        } else {
            m.by.push(format!("the name `{name}`"));
        }
    }
    if clue.too_long && clue.path.iter().all(|s| *s == Seg::Key("name".to_owned())) {
        let before = m.places.len();
        m.places.retain(|p| {
            p.sent_as
                .as_deref()
                .is_some_and(|s| s.chars().count() > MAX_NAME)
        });
        if m.places.is_empty() {
            if before > 0 {
                m.notes.push(format!(
                    "no name {host} sends is over {MAX_NAME} characters"
                ));
            }
        } else {
            m.by.push(format!(
                "content: {} over {MAX_NAME} characters",
                if m.places.len() == 1 {
                    "its name is the only one"
                } else {
                    "their names are"
                }
            ));
        }
    }
}

/// Resolves the error's place in each tool, then narrows to the tools that have it, then to
/// those with a finding there, each only if some tool is left.
fn by_content(clue: &Clue, j: &Judged, m: &mut Mapped) {
    for p in &mut m.places {
        let raw = raw_tool(j, &p.server, &p.tool);
        let (inside, resolved) = resolve(raw, &clue.path);
        p.resolved = resolved;
        p.pointer = p.position.map(|at| format!("/result/tools/{at}{inside}"));
    }
    if m.places.len() > 1 && clue.path.len() > 1 {
        let having: Vec<Place> = m.places.iter().filter(|p| p.resolved).cloned().collect();
        if !having.is_empty() && having.len() < m.places.len() {
            m.by.push(format!(
                "content: the only tool{} with `{}`",
                plural(having.len()),
                shown_path(&clue.path)
            ));
            m.places = having;
        }
    }
    if m.places.len() > 1 && !clue.path.is_empty() {
        let with: Vec<Place> = m
            .places
            .iter()
            .filter(|p| breaks_at(j, p))
            .cloned()
            .collect();
        if !with.is_empty() && with.len() < m.places.len() {
            m.by.push(format!(
                "content: the only tool{} with a finding at `{}`",
                plural(with.len()),
                shown_path(&clue.path)
            ));
            m.places = with;
        }
    }
}

/// Maps one clue into one host's request.
#[must_use]
pub fn map(clue: &Clue, j: &Judged, own: OwnTools) -> Mapped {
    let mut m = Mapped {
        places: Vec::new(),
        by: Vec::new(),
        notes: Vec::new(),
    };
    by_index(clue, j, own, &mut m);
    by_name(clue, j, &mut m);
    by_content(clue, j, &mut m);
    if let [only] = m.places.as_slice() {
        if let (OwnTools::Unknown, Counts::Request, Some(n), Some(p)) =
            (own, clue.counts, clue.index, only.position)
        {
            m.notes.push(format!(
                "if this is the tool, {} sent {} tool{} of its own before the MCP tools",
                j.host,
                n - p,
                plural(n - p)
            ));
        }
        if m.by.is_empty() {
            m.by.push("the only tool of the request".to_owned());
        }
    }
    m
}

/// A path as the error's place reads in MCP's terms (`inputSchema.properties[4]`).
pub(super) fn shown_path(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Nth(n) => {
                let _ = write!(out, "[{n}]");
            }
        }
    }
    out
}

//! `session --fix` and `--unfix`: a server whose tools break a host is wrapped, in that host's
//! configuration, in `schema-lint proxy --for CLIENT -- COMMAND ARGS...`, which ports every
//! `tools/list` answer for the client the host was judged as; `--unfix` takes every such wrap out.
//!
//! Nothing is judged here again: the servers wrapped are those the session's findings break
//! (their verdicts are the client model's), and only where the port (the proxy's own machinery,
//! [`crate::fix::port`]) changes their listing as the session listed it; what the port leaves is
//! said (the port is partial). Each configuration is edited as text ([`super::edit`]: only the
//! entry's `command` and `args`, each edit proven on the parsed tree), its original bytes kept
//! first beside it (`FILE.schema-lint-backup`, never overwritten: a later run whose original
//! differs keeps it as `.schema-lint-backup.2`, ...), then written by the crate's atomic writer
//! ([`crate::fix::write`]: owner, mode, ACLs and extended attributes kept; a file changed since it
//! was read is not overwritten). A project's configuration is edited only where its server was
//! started, which took the user's consent. `--unfix` edits the same way, so what the user changed
//! since `--fix` stays.

use super::config::{host_of, Found, Scope, Shape, Transport};
use super::edit::{self, Wrap};
use super::request::{Finding, Judged, ServerOf, State};
use super::{proxied, Host, Options};
use crate::diagnostic::breaks::Client;
use crate::diagnostic::verdict::Verdict;
use crate::fix::write;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::live::{self, Endpoint, Server};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What became of one server entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Wrapped in the proxy.
    Wrapped,
    /// Wrapped already (by an earlier `--fix`).
    AlreadyWrapped,
    /// Not wrapped: the proxy would not repair it, or cannot reach it (`why`).
    NotWrapped,
    /// The wrap taken out.
    Unwrapped,
    /// The edit could not be made or written (`why`); the file is as it was.
    Failed,
}

/// One server entry `--fix` or `--unfix` considered.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    /// The host whose configuration it is in.
    pub host: Host,
    /// The user's key for the server.
    pub server: String,
    /// The configuration file.
    pub file: String,
    /// Whose file it is.
    pub scope: Scope,
    /// What became of it.
    pub action: Action,
    /// The client the proxy ports for.
    pub client: Option<String>,
    /// Why (not wrapped, failed), or what the choice of the client was.
    pub why: Option<String>,
    /// The tools the port rewrites.
    pub repaired: Vec<String>,
    /// The tools the port leaves breaking the client (a partial port).
    pub left: Vec<String>,
    /// Where the file's original bytes are kept.
    pub backup: Option<String>,
}

/// What `--fix` or `--unfix` did.
#[derive(Debug, Default)]
pub struct Mended {
    /// Each server entry considered, in the report's order.
    pub changes: Vec<Change>,
    /// A host still breaks after the wraps (a server not wrapped, a partial port, a request-wide
    /// finding, a server that could not be listed).
    pub still_breaks: bool,
}

/// An edit of one entry in a file's text: the new text, `None` when the entry needs none.
type EditOf<'a> = dyn Fn(&str, &Plan, Shape) -> Result<Option<String>, String> + 'a;

/// A wrap to write.
struct Plan {
    change: Change,
    path: PathBuf,
    host: Host,
}

/// Wraps, in its host's configuration, every server that the session's findings say breaks a
/// host and that the port for that host's client repairs.
#[must_use]
pub fn fix(judged: &[Judged], options: &Options) -> Mended {
    let mut mended = Mended::default();
    let mut plans = Vec::new();
    for j in judged {
        let breaks = |f: &&Finding| f.verdict == Verdict::Breaks;
        if j.findings.iter().filter(breaks).any(|f| f.server.is_none()) {
            mended.still_breaks = true;
        }
        for s in &j.servers {
            if matches!(s.state, State::Failed(_)) {
                mended.still_breaks = true;
            }
            let key = Some(s.entry.key.as_str());
            let breaking: Vec<&Finding> = j
                .findings
                .iter()
                .filter(breaks)
                .filter(|f| f.server.as_deref() == key)
                .collect();
            if breaking.is_empty() {
                continue;
            }
            let mut change = Change {
                host: j.host,
                server: s.entry.key.clone(),
                file: s.entry.file.display().to_string(),
                scope: s.entry.scope,
                action: Action::NotWrapped,
                client: None,
                why: None,
                repaired: Vec::new(),
                left: Vec::new(),
                backup: None,
            };
            match decide(j, s, &breaking, options, &mut change) {
                Ok(partial) => {
                    if partial {
                        mended.still_breaks = true;
                    }
                    plans.push(Plan {
                        change,
                        path: s.entry.file.clone(),
                        host: j.host,
                    });
                }
                Err(why) => {
                    mended.still_breaks = true;
                    change.why = Some(why);
                    mended.changes.push(change);
                }
            }
        }
    }
    let exe = std::env::current_exe()
        .map_err(|e| format!("the path of this schema-lint is not known: {e}"))
        .and_then(|p| {
            p.to_str().map(str::to_owned).ok_or_else(|| {
                format!("the path of this schema-lint is not UTF-8: {}", p.display())
            })
        });
    let mut files: Vec<PathBuf> = Vec::new();
    for p in &plans {
        if !files.contains(&p.path) {
            files.push(p.path.clone());
        }
    }
    for file in files {
        let here: Vec<Plan> = plans.iter().filter(|p| p.path == file).map(clone).collect();
        let edit = |text: &str, plan: &Plan, shape| -> Result<Option<String>, String> {
            let exe = exe.as_deref().map_err(Clone::clone)?;
            let at = edit::find(&file, text, shape, &options.project, &plan.change.server)?
                .ok_or("the entry is no longer in the file")?;
            let client = plan.change.client.as_deref().unwrap_or_default();
            match edit::wrap(&file, text, shape, &at, exe, client)? {
                Wrap::Wrapped(new) => Ok(Some(new)),
                Wrap::Already => Ok(None),
            }
        };
        mended.changes.extend(write_file(&file, here, &edit, true));
    }
    for c in &mended.changes {
        if c.action != Action::Wrapped {
            mended.still_breaks = true;
        }
    }
    mended
}

fn clone(p: &Plan) -> Plan {
    Plan {
        change: p.change.clone(),
        path: p.path.clone(),
        host: p.host,
    }
}

/// Whether the server of `s` is to be wrapped, and for which client (set in `change`, with what
/// the port repairs and leaves): whether it still breaks after (the port is partial, or another
/// client breaks too); `Err`: why not.
fn decide(
    j: &Judged,
    s: &ServerOf,
    breaking: &[&Finding],
    options: &Options,
    change: &mut Change,
) -> Result<bool, String> {
    let entry = &s.entry;
    if let Some(plugin) = &entry.plugin {
        return Err(format!(
            "a server of the plugin `{plugin}`, whose configuration is the plugin's, not yours"
        ));
    }
    match &entry.transport {
        Some(Transport::Stdio { argv, .. }) if proxied::of(&argv[0], &argv[1..]).is_some() => {
            change.action = Action::AlreadyWrapped;
            return Err(
                "already wrapped in `schema-lint proxy`, and it still breaks: the port does not \
                 repair this (your fix and the author's above)"
                    .to_owned(),
            );
        }
        // A URL server is judged as a command is, and said at the end (`wrap_url`).
        Some(Transport::Stdio { .. } | Transport::Http { .. }) => {}
        None => return Err("it has no command to wrap".to_owned()),
    }
    let State::Listed(listing) = &s.state else {
        return Err("it was not listed".to_owned());
    };
    // The clients the findings break, in the order the host is judged for (its own first).
    let mut clients: Vec<Client> = j
        .clients
        .iter()
        .copied()
        .filter(|c| {
            breaking
                .iter()
                .any(|f| f.effects.iter().any(|(e, _)| e == c))
        })
        .collect();
    if clients.is_empty() {
        clients.extend(j.clients.first());
    }
    let Some(&client) = clients.first() else {
        return Err("no client judges this host".to_owned());
    };
    let name = match options.versions.iter().find(|(c, _)| *c == client) {
        Some((_, v)) => format!("{}@{v}", client.name()),
        None => client.name().to_owned(),
    };
    let mut notes = Vec::new();
    if Some(client) != j.host.client() {
        notes.push(format!(
            "ported for {client}, the client whose findings break (`--clients`)"
        ));
    }
    if clients.len() > 1 {
        let others: Vec<&str> = clients[1..].iter().map(|c| c.name()).collect();
        notes.push(format!(
            "the proxy ports for one client: {} still break{}",
            others.join(", "),
            if others.len() == 1 { "s" } else { "" }
        ));
    }
    change.client = Some(name.clone());
    if !notes.is_empty() {
        change.why = Some(notes.join("; "));
    }
    port(
        &entry.key, listing, client, &name, options, breaking, change,
    )?;
    if let Some(Transport::Http { headers, .. }) = &entry.transport {
        return wrap_url(&name, headers);
    }
    change.action = Action::Wrapped;
    Ok(!change.left.is_empty() || clients.len() > 1)
}

/// Ports the listing of the server `key` for `client` (named `name`): what the port rewrites and
/// leaves, in `change`; `Err` when it changes nothing.
fn port(
    key: &str,
    listing: &live::Listing,
    client: Client,
    name: &str,
    options: &Options,
    breaking: &[&Finding],
    change: &mut Change,
) -> Result<(), String> {
    let server = Server {
        label: key.to_owned(),
        endpoint: Endpoint::Command {
            argv: Vec::new(),
            env: Vec::new(),
        },
    };
    let text = live::dump(&server, listing);
    let file = SourceFile::new(FileId(0), format!("<{key}>"), None, &text, true);
    let settings = Settings {
        clients: vec![client],
        versions: options
            .versions
            .iter()
            .filter(|(c, _)| *c == client)
            .cloned()
            .collect(),
        ..Settings::default()
    };
    let ported = crate::fix::port::port_source(file, &settings)
        .map_err(|why| format!("the port for {name} cannot read its listing: {why}"))?;
    if ported.changes.is_empty() {
        return Err(format!(
            "the proxy would not repair it: the port for {name} changes nothing in its listing \
             (your fix and the author's above)"
        ));
    }
    let tool_at = |pointer: &str| -> Option<String> {
        let i: usize = pointer
            .strip_prefix("/result/tools/")?
            .split(['/', ':'])
            .next()?
            .parse()
            .ok()?;
        listing
            .tools
            .get(i)?
            .get("name")?
            .as_str()
            .map(str::to_owned)
    };
    for c in &ported.changes {
        let tool = c.tool.clone().or_else(|| tool_at(&c.pointer));
        if let Some(tool) = tool {
            if !change.repaired.contains(&tool) {
                change.repaired.push(tool);
            }
        }
    }
    let broken: Vec<Option<&str>> = breaking.iter().map(|f| f.tool.as_deref()).collect();
    for left in &ported.left {
        let tool = tool_at(left);
        let counts = match &tool {
            Some(t) => broken.contains(&Some(t.as_str())),
            None => broken.contains(&None),
        };
        let tool = tool.unwrap_or_else(|| "its listing".to_owned());
        if counts && !change.left.contains(&tool) {
            change.left.push(tool);
        }
    }
    Ok(())
}

/// Wrapping a Streamable HTTP server, whose port repairs it: its entry would become a command
/// (`schema-lint proxy --url`), in each host's own words for one, and its headers, which a host
/// may expand from the environment, arguments that it does not expand. That is the user's to
/// write; what to write is said (the URL and the headers' values are not: they may hold secrets).
fn wrap_url(client: &str, headers: &[(String, String)]) -> Result<bool, String> {
    let mut named = String::new();
    for (name, _) in headers {
        let _ = write!(named, " --header '{name}: ...'");
    }
    let headers = named;
    Err(format!(
        "a URL server: `--fix` does not rewrite its entry; the port repairs it, so make the entry \
         the command `schema-lint proxy --for {client} --url URL{headers}` (docs/port.md, `--url`)"
    ))
}

/// Takes every wrap of `--fix` out of the configurations the session read.
#[must_use]
pub fn unfix(found: &Found, options: &Options) -> Mended {
    let mut mended = Mended::default();
    let mut seen: Vec<&Path> = Vec::new();
    for (host, path, scope) in &found.files {
        let plugin = found
            .entries
            .iter()
            .any(|e| e.plugin.is_some() && e.file == *path);
        if plugin || seen.contains(&path.as_path()) {
            continue;
        }
        seen.push(path);
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let Ok((_, shape)) = host_of(path, body, Some(*host)) else {
            continue;
        };
        let Ok(entries) = edit::entries(path, body, shape, &options.project) else {
            continue;
        };
        let mut plans = Vec::new();
        let mut probe = body.to_owned();
        for at in entries {
            if let Ok(Some(new)) = edit::unwrap(path, &probe, shape, &at) {
                probe = new;
                plans.push(Plan {
                    change: Change {
                        host: *host,
                        server: at.last().cloned().unwrap_or_default(),
                        file: path.display().to_string(),
                        scope: *scope,
                        action: Action::Unwrapped,
                        client: None,
                        why: None,
                        repaired: Vec::new(),
                        left: Vec::new(),
                        backup: None,
                    },
                    path: path.clone(),
                    host: *host,
                });
            }
        }
        if plans.is_empty() {
            continue;
        }
        let edit = |text: &str, plan: &Plan, shape| -> Result<Option<String>, String> {
            let at = edit::entries(path, text, shape, &options.project)?
                .into_iter()
                .find(|at| at.last() == Some(&plan.change.server))
                .ok_or("the entry is no longer in the file")?;
            edit::unwrap(path, text, shape, &at)
        };
        mended.changes.extend(write_file(path, plans, &edit, false));
    }
    mended
}

/// Edits one file for its `plans` (each by `edit`, in turn, on the text the last one left) and
/// writes it, atomically, after keeping its original bytes beside it when `keep`; the changes,
/// each `Failed` with why when the file could not be edited or written.
fn write_file(path: &Path, plans: Vec<Plan>, edit: &EditOf<'_>, keep: bool) -> Vec<Change> {
    let fail = |plans: Vec<Plan>, why: &str| -> Vec<Change> {
        plans
            .into_iter()
            .map(|p| Change {
                action: Action::Failed,
                why: Some(why.to_owned()),
                ..p.change
            })
            .collect()
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return fail(plans, &format!("{} cannot be read: {e}", path.display())),
    };
    let Ok(text) = String::from_utf8(bytes.clone()) else {
        return fail(plans, &format!("{} is not UTF-8", path.display()));
    };
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text.as_str()),
    };
    let Some(host) = plans.first().map(|p| p.host) else {
        return Vec::new();
    };
    let shape = match host_of(path, body, Some(host)) {
        Ok((_, shape)) => shape,
        Err(why) => return fail(plans, &why),
    };
    let mut new = body.to_owned();
    let mut out = Vec::new();
    let mut edited = false;
    for plan in plans {
        match edit(&new, &plan, shape) {
            Ok(Some(text)) => {
                new = text;
                edited = true;
                out.push(plan.change);
            }
            Ok(None) if plan.change.action == Action::Wrapped => out.push(Change {
                action: Action::AlreadyWrapped,
                ..plan.change
            }),
            Ok(None) => {}
            Err(why) => out.push(Change {
                action: Action::Failed,
                why: Some(why),
                ..plan.change
            }),
        }
    }
    if !edited {
        return out;
    }
    let written: Vec<u8> = format!("{bom}{new}").into_bytes();
    let result = replace(path, &bytes, &written, keep);
    let edited_ones = |c: &Change| matches!(c.action, Action::Wrapped | Action::Unwrapped);
    match result {
        Ok(kept) => {
            let said = if keep {
                None
            } else {
                redundant_backups(path, &written)
            };
            for c in out.iter_mut().filter(|c| edited_ones(c)) {
                c.backup = kept.as_ref().map(|p| p.display().to_string());
                if said.is_some() {
                    c.why.clone_from(&said);
                }
            }
        }
        Err(why) => {
            for c in out.iter_mut().filter(|c| edited_ones(c)) {
                c.action = Action::Failed;
                c.why = Some(why.clone());
            }
        }
    }
    out
}

/// Replaces `path`, which held `bytes`, with `written`, atomically, after keeping its original
/// beside it when `keep`; where the original is kept.
fn replace(
    path: &Path,
    bytes: &[u8],
    written: &[u8],
    keep: bool,
) -> Result<Option<PathBuf>, String> {
    let name = path.display().to_string();
    let source = SourceFile::new(FileId(0), name.clone(), Some(path.to_path_buf()), "", true);
    write::can_replace(&source)?;
    let (kept, created) = if keep {
        let (kept, created) = backup(path, bytes)?;
        (Some(kept), created)
    } else {
        (None, false)
    };
    let written = write_one(path, name, bytes, written);
    if written.is_err() && created {
        // The file is as it was: a backup made for this write keeps nothing.
        if let Some(kept) = &kept {
            let _ = std::fs::remove_file(kept);
        }
    }
    written.map(|()| kept)
}

/// Replaces `path`, which held `bytes`, with `written` by the atomic writer.
fn write_one(path: &Path, name: String, bytes: &[u8], written: &[u8]) -> Result<(), String> {
    let target = write::Target {
        path: path.to_path_buf(),
        name,
        read: bytes.to_vec(),
        bytes: written.to_vec(),
        set: 0,
    };
    match write::write_sets(&[target]) {
        Ok(refused) => match refused.first() {
            None => Ok(()),
            Some(r) => Err(r.reason.clone()),
        },
        Err(f) => Err(format!("`{}` could not be written: {}", f.name, f.reason)),
    }
}

/// The backups of `path` that hold `bytes`, its text now (an `--unfix` that brought the original
/// back): removed, as they keep nothing the file does not; what was removed, said.
fn redundant_backups(path: &Path, bytes: &[u8]) -> Option<String> {
    let mut removed = Vec::new();
    for kept in backups(path) {
        if std::fs::symlink_metadata(&kept).is_ok_and(|m| m.is_file())
            && std::fs::read(&kept).is_ok_and(|b| b == bytes)
            && std::fs::remove_file(&kept).is_ok()
        {
            removed.push(kept.display().to_string());
        }
    }
    (!removed.is_empty()).then(|| {
        format!(
            "the file is its original again: {} removed (the same bytes)",
            removed.join(", ")
        )
    })
}

/// Where the backups of `path` go: `NAME.schema-lint-backup`, then `.2` to `.100`.
fn backups(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    (1..=100).map(move |n| {
        if n == 1 {
            path.with_file_name(format!("{name}.schema-lint-backup"))
        } else {
            path.with_file_name(format!("{name}.schema-lint-backup.{n}"))
        }
    })
}

/// Keeps `bytes`, the original of `path`, beside it: in `NAME.schema-lint-backup`, or, when that
/// holds other bytes (the original of an earlier `--fix`, never overwritten), the first of
/// `NAME.schema-lint-backup.2`, `.3`, ... that is free or holds these bytes already; and whether
/// it was made now.
fn backup(path: &Path, bytes: &[u8]) -> Result<(PathBuf, bool), String> {
    for kept in backups(path) {
        match std::fs::symlink_metadata(&kept) {
            Ok(meta) => {
                if meta.is_file() && std::fs::read(&kept).is_ok_and(|b| b == bytes) {
                    return Ok((kept, false));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return write::write_new(&kept, bytes, path)
                    .map(|()| (kept.clone(), true))
                    .map_err(|e| format!("its backup {} cannot be written: {e}", kept.display()));
            }
            Err(e) => return Err(format!("{}: {e}", kept.display())),
        }
    }
    Err(format!(
        "{} has 100 backups beside it already; remove those you do not need",
        path.display()
    ))
}

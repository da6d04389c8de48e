//! Every configuration a session reads, gathered: the files `options` names or finds
//! (`super::config`), then Claude Code's plugins ([`plugins`]), each server once (a later file has
//! precedence).

use super::config::{host_of, is_users, parse, places, Entry, Found, Read, Scope, Shape};
use super::plugins;
use super::vars::{Env, Secrets};
use super::{Host, Options};
use std::path::PathBuf;

/// Reads the configurations `options` names (or finds them), each server with its variables
/// expanded and its secrets remembered.
///
/// # Errors
/// A file named on the command line that does not exist or whose host cannot be told.
pub fn gather(options: &Options, secrets: &mut Secrets) -> Result<Found, String> {
    let lookup = |name: &str| std::env::var(name).ok();
    gather_with(options, secrets, &lookup)
}

/// [`gather`] with the variables of `lookup`.
///
/// # Errors
/// As [`gather`].
pub fn gather_with(
    options: &Options,
    secrets: &mut Secrets,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<Found, String> {
    let home = options.home.as_deref();
    let env = Env {
        project: &options.project,
        home,
        lookup,
        plugin_root: None,
    };
    let mut found = Found::default();
    let mut files: Vec<(Host, PathBuf, Scope, Shape, String)> = Vec::new();
    if options.configs.is_empty() {
        for host in Host::ALL {
            if !options.only.is_empty() && !options.only.contains(&host) {
                continue;
            }
            for (path, scope, shape) in places(host, &options.project, home) {
                match std::fs::read_to_string(&path) {
                    Ok(text) => files.push((host, path, scope, shape, text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => found
                        .errors
                        .push(format!("{}: cannot be read: {e}", path.display())),
                }
            }
        }
    } else {
        for path in &options.configs {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("{}: cannot be read: {e}", path.display()))?;
            let (host, shape) = host_of(path, &text, options.host)?;
            let scope = if is_users(host, path, home) {
                Scope::User
            } else {
                Scope::Project
            };
            files.push((host, path.clone(), scope, shape, text));
        }
    }
    for (host, path, scope, shape, text) in files {
        let root = match parse(&path, &text, shape) {
            Ok(root) => root,
            Err(why) => {
                found.errors.push(why);
                continue;
            }
        };
        // The user's VS Code settings are a configuration of MCP servers only when they name
        // some (every VS Code user has the file).
        if shape == Shape::VscodeSettings && root.get("mcp").is_none() && options.configs.is_empty()
        {
            continue;
        }
        found.files.push((host, path.clone(), scope));
        let read = Read {
            host,
            file: &path,
            env: &env,
            project: &options.project,
        };
        let entries = read.entries(&root, scope, shape, secrets);
        for entry in entries {
            merge(&mut found.entries, entry);
        }
        if shape == Shape::ClaudeJson {
            read.mcpjson_disabled(&root, &mut found.entries);
        }
    }
    let claude_code = options.only.is_empty() || options.only.contains(&Host::ClaudeCode);
    if options.configs.is_empty() && claude_code {
        for entry in plugins::entries(options, &env, secrets, &mut found) {
            merge(&mut found.entries, entry);
        }
    }
    Ok(found)
}

/// Adds `entry`, replacing in place a server of the same host and key (the later file has
/// precedence).
fn merge(entries: &mut Vec<Entry>, entry: Entry) {
    match entries
        .iter_mut()
        .find(|e| e.host == entry.host && e.key == entry.key)
    {
        Some(old) => *old = entry,
        None => entries.push(entry),
    }
}

//! Claude Code's plugins: the MCP servers each installed plugin brings, as Claude Code finds them.
//!
//! - The installed plugins: `~/.claude/plugins/installed_plugins.json`, `plugins` mapping
//!   `name@marketplace` to its installations (an array of them; an object in the first version
//!   of the file), each with `installPath`, `scope` (`user`, `project`, `local`) and, for the
//!   last two, `projectPath` (anthropics/claude-code#29671, #19696).
//! - Which are on: `enabledPlugins` (`{"name@marketplace": true}`) in `~/.claude/settings.json`,
//!   then the project's `.claude/settings.json` and `.claude/settings.local.json`, the later
//!   winning; a plugin none of them enables is off (#19696: "A plugin is actually active only
//!   if ... listed in `settings.json` → `enabledPlugins` with value `true`").
//! - A plugin's servers: `.mcp.json` at its root (`mcpServers`, or the servers as the whole
//!   file) and `mcpServers` in `.claude-plugin/plugin.json` (the servers, or the path of a file
//!   of them), `${CLAUDE_PLUGIN_ROOT}` standing for its root (Claude Code's plugin reference,
//!   "MCP servers").
//! - Their tools reach the model as `mcp__plugin_<plugin>_<server>__<tool>`
//!   (anthropics/claude-code#65770, seen on 2.1.166): the server's key here is
//!   `plugin_<plugin>_<server>`.
//!
//! A plugin installed for the user (or for this project by the user, `local`) is the user's own;
//! one installed for the project (`project`, enabled by the repository's settings) is the
//! project's, and starts only with consent.

use super::config::{self, disable, Entry, Found, Read, Scope, Shape};
use super::vars::{Env, Secrets};
use super::{Host, Options};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// One installation of a plugin that applies to this project.
struct Installed {
    /// `name@marketplace`.
    id: String,
    /// Its root.
    root: PathBuf,
    /// Whose it is.
    scope: Scope,
}

/// The servers of every plugin installed for the user or for this project, those of a plugin
/// not enabled marked disabled; the files read are added to `found.files`, those that cannot be
/// read to `found.errors`.
pub(super) fn entries(
    options: &Options,
    env: &Env<'_>,
    secrets: &mut Secrets,
    found: &mut Found,
) -> Vec<Entry> {
    let Some(home) = options.home.as_deref() else {
        return Vec::new();
    };
    let registry = home.join(".claude/plugins/installed_plugins.json");
    let Some(root) = read_json(&registry, found) else {
        return Vec::new();
    };
    let installed = installations(&root, &options.project);
    if installed.is_empty() {
        return Vec::new();
    }
    let enabled = enabled_plugins(home, &options.project, found);
    let mut out = Vec::new();
    for plugin in installed {
        let on = enabled
            .iter()
            .rev()
            .find_map(|(id, on)| (*id == plugin.id).then_some(*on))
            .unwrap_or(false);
        let name = plugin.id.split('@').next().unwrap_or(&plugin.id).to_owned();
        let plugin_env = Env {
            project: env.project,
            home: env.home,
            lookup: env.lookup,
            plugin_root: Some(&plugin.root),
        };
        for (file, servers) in servers_of(&plugin.root, found) {
            found
                .files
                .push((Host::ClaudeCode, file.clone(), plugin.scope));
            let read = Read {
                host: Host::ClaudeCode,
                file: &file,
                env: &plugin_env,
                project: &options.project,
            };
            for (server, value) in &servers {
                let key = format!("plugin_{name}_{server}");
                let mut entry = read.entry(&key, value, plugin.scope, secrets);
                entry.plugin = Some(plugin.id.clone());
                if !on {
                    disable(
                        &mut entry,
                        &format!(
                            "the plugin `{}` is installed but not enabled (`enabledPlugins`)",
                            plugin.id
                        ),
                    );
                }
                out.push(entry);
            }
        }
    }
    out
}

/// The JSON of `path`; `None` when it does not exist, or (said in `found.errors`) cannot be read
/// or parsed.
fn read_json(path: &Path, found: &mut Found) -> Option<Value> {
    match std::fs::read_to_string(path) {
        Ok(text) => match config::parse(path, &text, Shape::McpServers) {
            Ok(v) => Some(v),
            Err(why) => {
                found.errors.push(why);
                None
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            found
                .errors
                .push(format!("{}: cannot be read: {e}", path.display()));
            None
        }
    }
}

/// The installations of `installed_plugins.json` that apply to `project`: every `user` one, and
/// the `project` and `local` ones whose `projectPath` is the project.
fn installations(root: &Value, project: &Path) -> Vec<Installed> {
    let mut out = Vec::new();
    let Some(Value::Object(plugins)) = root.get("plugins") else {
        return out;
    };
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let here = canon(project);
    for (id, installs) in plugins {
        let installs: Vec<&Value> = match installs {
            Value::Array(all) => all.iter().collect(),
            one @ Value::Object(_) => vec![one],
            _ => continue,
        };
        for install in installs {
            let Some(path) = install.get("installPath").and_then(Value::as_str) else {
                continue;
            };
            let of_project = || {
                install
                    .get("projectPath")
                    .and_then(Value::as_str)
                    .is_some_and(|p| canon(Path::new(p)) == here)
            };
            let scope = match install.get("scope").and_then(Value::as_str) {
                None | Some("user") => Scope::User,
                Some("local") if of_project() => Scope::User,
                Some("project") if of_project() => Scope::Project,
                _ => continue,
            };
            out.push(Installed {
                id: id.clone(),
                root: PathBuf::from(path),
                scope,
            });
        }
    }
    out
}

/// `enabledPlugins` of the user's settings, then the project's, then the project's local ones:
/// (id, on), the later entries winning.
fn enabled_plugins(home: &Path, project: &Path, found: &mut Found) -> Vec<(String, bool)> {
    let mut files = vec![home.join(".claude/settings.json")];
    if project != home {
        files.push(project.join(".claude/settings.json"));
        files.push(project.join(".claude/settings.local.json"));
    }
    let mut out = Vec::new();
    for file in files {
        let Some(root) = read_json(&file, found) else {
            continue;
        };
        if let Some(Value::Object(on)) = root.get("enabledPlugins") {
            for (id, v) in on {
                out.push((id.clone(), v.as_bool().unwrap_or(false)));
            }
        }
    }
    out
}

/// The servers of the plugin at `root`: its `.mcp.json`, then the `mcpServers` of its
/// `.claude-plugin/plugin.json` (the servers, or a file of them), each file with its servers.
fn servers_of(root: &Path, found: &mut Found) -> Vec<(PathBuf, Map<String, Value>)> {
    let mut out = Vec::new();
    let mcp_json = root.join(".mcp.json");
    if let Some(v) = read_json(&mcp_json, found) {
        out.push((mcp_json, server_map(&v)));
    }
    let manifest = root.join(".claude-plugin/plugin.json");
    if let Some(v) = read_json(&manifest, found) {
        match v.get("mcpServers") {
            Some(Value::Object(servers)) => out.push((manifest, servers.clone())),
            Some(Value::String(rel)) => {
                let file = root.join(rel);
                if let Some(v) = read_json(&file, found) {
                    out.push((file, server_map(&v)));
                } else if !file.exists() {
                    found.errors.push(format!(
                        "{}: `mcpServers` names `{rel}`, which does not exist",
                        manifest.display()
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

/// The servers of a plugin's server file: its `mcpServers`, or the whole file.
fn server_map(v: &Value) -> Map<String, Value> {
    match v.get("mcpServers") {
        Some(Value::Object(servers)) => servers.clone(),
        _ => v.as_object().cloned().unwrap_or_default(),
    }
}

//! The MCP configurations, where each host keeps them and in its format.
//!
//! - Claude Code: `.mcp.json` in the project (`mcpServers`), `~/.claude.json` (`mcpServers` for
//!   the user, `projects[<project>].mcpServers` for the project's local servers, and
//!   `projects[<project>].disabledMcpjsonServers`), per its MCP documentation (scopes: local
//!   over project over user).
//! - Claude Desktop: `claude_desktop_config.json` (`mcpServers`) in `~/Library/Application
//!   Support/Claude` (macOS), `%APPDATA%\Claude` (Windows), `~/.config/Claude` (Linux).
//! - VS Code: `.vscode/mcp.json` and the user's `mcp.json` (`servers`, each with `type` `stdio`,
//!   `http` or `sse`; `inputs`), JSON with comments (microsoft/vscode,
//!   `src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts`), in the user folder of the
//!   platform (`~/.config/Code/User`, `~/Library/Application Support/Code/User`,
//!   `%APPDATA%\Code\User`); and the user's `settings.json` there, key `mcp` → `servers`, where
//!   VS Code kept them before 1.102 (1.102 moves them into `mcp.json` when it starts, so a key in
//!   both is read from `mcp.json`; VS Code's 1.102 release notes, "MCP servers as first-class
//!   resources").
//! - Claude Code's plugins: the servers of each enabled plugin (`super::plugins`).
//! - Cursor: `.cursor/mcp.json`, `~/.cursor/mcp.json` (`mcpServers`).
//! - gemini-cli: `.gemini/settings.json`, `~/.gemini/settings.json` (`mcpServers`, each with
//!   `command`, `url` (SSE), `httpUrl` (Streamable HTTP), `includeTools`, `excludeTools`; the
//!   top-level `mcp.allowed` and `mcp.excluded`), the project's settings over the user's
//!   (google-gemini/gemini-cli, `packages/core/src/config/config.ts`, `MCPServerConfig`).
//! - Codex: `~/.codex/config.toml` (`$CODEX_HOME`), `[mcp_servers.NAME]` with `command`, `args`,
//!   `env`, `url`, `bearer_token_env_var`, `http_headers`, `env_http_headers`, `enabled`,
//!   `enabled_tools`, `disabled_tools` (openai/codex, `codex-rs/core/src/config/types.rs`,
//!   `McpServerConfig`).
//! - Windsurf: `~/.codeium/windsurf/mcp_config.json` (`mcpServers`, `serverUrl`, `disabled`,
//!   `disabledTools`).
//!
//! A configuration is only read here; `session --fix` and `--unfix` write it (`super::wrap`).

use super::vars::{self, Env, Secrets, Syntax};
use super::Host;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Whose configuration a server comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The project's own (from whoever wrote the repository): started only with consent.
    Project,
    /// The user's own: trusted.
    User,
}

impl Scope {
    /// The scope's name in reports (`project`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// How a host reaches a server.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Transport {
    /// A command started on stdio.
    Stdio {
        /// The program and its arguments.
        argv: Vec<String>,
        /// Variables added to its environment.
        env: Vec<(String, String)>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The URL.
        url: String,
        /// The headers sent.
        headers: Vec<(String, String)>,
    },
}

/// One server of one host's configuration.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The host whose configuration names it.
    pub host: Host,
    /// The user's key for the server (the host's name for it).
    pub key: String,
    /// The file it is in.
    pub file: PathBuf,
    /// Whose file it is.
    pub scope: Scope,
    /// How to reach it, once its variables are expanded.
    pub transport: Option<Transport>,
    /// Why it is not started (disabled, a variable unset, a transport not spoken, no consent).
    pub not_started: Option<String>,
    /// Whether the configuration disables it (then it is not in the host's request at all).
    pub disabled: bool,
    /// Only these tools reach the model (`includeTools`, `enabled_tools`).
    pub include: Option<Vec<String>>,
    /// These tools do not (`excludeTools`, `disabled_tools`, `disabledTools`).
    pub exclude: Vec<String>,
    /// What the session says about it without stopping (an option it does not apply).
    pub notes: Vec<String>,
    /// The Claude Code plugin that brings it (`name@marketplace`); its key is then
    /// `plugin_<plugin>_<server>`, as Claude Code names it.
    pub plugin: Option<String>,
}

/// What the configurations hold.
#[derive(Debug, Default)]
pub struct Found {
    /// Each configuration file read: its host, path and scope.
    pub files: Vec<(Host, PathBuf, Scope)>,
    /// Every server, per host in the order the host has them (one entry per key, the scope in
    /// force winning).
    pub entries: Vec<Entry>,
    /// Files that could not be read or parsed (file and position).
    pub errors: Vec<String>,
}

/// Where a host keeps a configuration, and its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// `mcpServers` (Claude Code's `.mcp.json`, Claude Desktop, Cursor, Windsurf, gemini-cli).
    McpServers,
    /// `~/.claude.json`: `mcpServers` and `projects[<project>]`.
    ClaudeJson,
    /// VS Code's `servers`.
    Servers,
    /// VS Code's user `settings.json`: `mcp` → `servers`.
    VscodeSettings,
    /// Codex's TOML `[mcp_servers.NAME]`.
    CodexToml,
}

/// The configuration files a host reads: (path, scope, shape), lowest precedence first.
pub(super) fn places(
    host: Host,
    project: &Path,
    home: Option<&Path>,
) -> Vec<(PathBuf, Scope, Shape)> {
    let user = |rel: &str, shape| home.map(|h| (h.join(rel), Scope::User, shape));
    let here = |rel: &str, shape| Some((project.join(rel), Scope::Project, shape));
    let list = match host {
        Host::ClaudeCode => vec![
            here(".mcp.json", Shape::McpServers),
            user(".claude.json", Shape::ClaudeJson),
        ],
        Host::ClaudeDesktop => {
            vec![desktop_config(home).map(|p| (p, Scope::User, Shape::McpServers))]
        }
        Host::Vscode => vec![
            vscode_user(home)
                .map(|p| (p.join("settings.json"), Scope::User, Shape::VscodeSettings)),
            vscode_user(home).map(|p| (p.join("mcp.json"), Scope::User, Shape::Servers)),
            here(".vscode/mcp.json", Shape::Servers),
        ],
        Host::Cursor => vec![
            user(".cursor/mcp.json", Shape::McpServers),
            here(".cursor/mcp.json", Shape::McpServers),
        ],
        Host::GeminiCli => vec![
            user(".gemini/settings.json", Shape::McpServers),
            here(".gemini/settings.json", Shape::McpServers),
        ],
        Host::Codex => {
            vec![codex_home(home).map(|p| (p.join("config.toml"), Scope::User, Shape::CodexToml))]
        }
        Host::Windsurf => vec![user(".codeium/windsurf/mcp_config.json", Shape::McpServers)],
    };
    let mut out: Vec<(PathBuf, Scope, Shape)> = Vec::new();
    for (path, scope, shape) in list.into_iter().flatten() {
        // A project that is the home folder: its files are the user's.
        if let Some(i) = out.iter().position(|(p, _, _)| *p == path) {
            out[i].1 = Scope::User;
            continue;
        }
        let scope = if scope == Scope::Project && is_users(host, &path, home) {
            Scope::User
        } else {
            scope
        };
        out.push((path, scope, shape));
    }
    out
}

/// Claude Desktop's configuration, per platform.
fn desktop_config(home: Option<&Path>) -> Option<PathBuf> {
    let home = home?;
    Some(if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Claude/claude_desktop_config.json")
    } else if cfg!(windows) {
        std::env::var_os("APPDATA")
            .map_or_else(|| home.join("AppData/Roaming"), PathBuf::from)
            .join("Claude/claude_desktop_config.json")
    } else {
        std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map_or_else(|| home.join(".config"), PathBuf::from)
            .join("Claude/claude_desktop_config.json")
    })
}

/// VS Code's user folder (its `mcp.json` and `settings.json`), per platform.
fn vscode_user(home: Option<&Path>) -> Option<PathBuf> {
    let home = home?;
    Some(if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Code/User")
    } else if cfg!(windows) {
        std::env::var_os("APPDATA")
            .map_or_else(|| home.join("AppData/Roaming"), PathBuf::from)
            .join("Code/User")
    } else {
        std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map_or_else(|| home.join(".config"), PathBuf::from)
            .join("Code/User")
    })
}

/// Codex's folder: `$CODEX_HOME`, else `~/.codex`.
fn codex_home(home: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".codex")))
}

/// Whether `path` is one of the user's own configurations of `host`.
pub(super) fn is_users(host: Host, path: &Path, home: Option<&Path>) -> bool {
    let Some(home) = home else { return false };
    let users: Vec<PathBuf> = match host {
        Host::ClaudeCode => vec![home.join(".claude.json")],
        Host::ClaudeDesktop => desktop_config(Some(home)).into_iter().collect(),
        Host::Vscode => vscode_user(Some(home))
            .map(|u| vec![u.join("mcp.json"), u.join("settings.json")])
            .unwrap_or_default(),
        Host::Cursor => vec![home.join(".cursor/mcp.json")],
        Host::GeminiCli => vec![home.join(".gemini/settings.json")],
        Host::Codex => codex_home(Some(home))
            .map(|c| c.join("config.toml"))
            .into_iter()
            .collect(),
        Host::Windsurf => vec![home.join(".codeium/windsurf/mcp_config.json")],
    };
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    users.iter().any(|u| canon(u) == canon(path))
}

/// The host and shape of a file named on the command line: from its place (`.vscode/mcp.json`,
/// `.cursor/mcp.json`, `.gemini/settings.json`, `.codex/config.toml`, `.mcp.json`,
/// `.claude.json`, `claude_desktop_config.json`, `windsurf/mcp_config.json`), else from `--host`,
/// else from its shape (`servers`: VS Code; `mcp_servers`: Codex).
pub(super) fn host_of(
    path: &Path,
    text: &str,
    asked: Option<Host>,
) -> Result<(Host, Shape), String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let by_place = match (parent, name) {
        (".vscode" | "User", "mcp.json") | ("User", "settings.json") => Some(Host::Vscode),
        (".cursor", "mcp.json") => Some(Host::Cursor),
        (".gemini", "settings.json") => Some(Host::GeminiCli),
        (".codex", "config.toml") => Some(Host::Codex),
        ("windsurf", "mcp_config.json") => Some(Host::Windsurf),
        (_, ".mcp.json" | ".claude.json") => Some(Host::ClaudeCode),
        (_, "claude_desktop_config.json") => Some(Host::ClaudeDesktop),
        _ => None,
    };
    let by_shape = || {
        if Path::new(name)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
        {
            Some(Host::Codex)
        } else if text.contains("\"servers\"") && !text.contains("\"mcpServers\"") {
            Some(Host::Vscode)
        } else {
            None
        }
    };
    let host = asked.or(by_place).or_else(by_shape).ok_or_else(|| {
        format!(
            "{}: which host reads this file is not clear from its place or shape; say it with \
             `--host` (one of {})",
            path.display(),
            Host::ALL.map(Host::name).join(", ")
        )
    })?;
    let shape = match host {
        Host::Vscode if name == "settings.json" => Shape::VscodeSettings,
        Host::Vscode => Shape::Servers,
        Host::Codex => Shape::CodexToml,
        Host::ClaudeCode if name == ".claude.json" => Shape::ClaudeJson,
        _ => Shape::McpServers,
    };
    Ok((host, shape))
}

/// The tree of a configuration: JSON with comments and trailing commas (as VS Code and
/// gemini-cli accept), or TOML.
pub(super) fn parse(path: &Path, text: &str, shape: Shape) -> Result<Value, String> {
    if shape == Shape::CodexToml {
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|s| crate::syntax::source::LineIndex::new(text).line_col(text, s.start));
            match at {
                Some(at) => format!(
                    "{}:{}:{}: not TOML: {}",
                    path.display(),
                    at.line,
                    at.column,
                    e.message()
                ),
                None => format!("{}: not TOML: {}", path.display(), e.message()),
            }
        })?;
        return serde_json::to_value(table).map_err(|e| format!("{}: {e}", path.display()));
    }
    let clean = super::jsonc::strip(text);
    serde_json::from_str(&clean).map_err(|e| {
        format!(
            "{}:{}:{}: not JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })
}

/// Reading one file's servers.
pub(super) struct Read<'a> {
    /// The host that reads the file.
    pub(super) host: Host,
    /// The file.
    pub(super) file: &'a Path,
    /// Where its variables come from.
    pub(super) env: &'a Env<'a>,
    /// The project folder.
    pub(super) project: &'a Path,
}

impl Read<'_> {
    pub(super) fn entries(
        &self,
        root: &Value,
        scope: Scope,
        shape: Shape,
        secrets: &mut Secrets,
    ) -> Vec<Entry> {
        let mut out = Vec::new();
        let servers = match shape {
            Shape::Servers => root.get("servers"),
            Shape::VscodeSettings => root.get("mcp").and_then(|m| m.get("servers")),
            Shape::CodexToml => root.get("mcp_servers"),
            Shape::McpServers | Shape::ClaudeJson => root.get("mcpServers"),
        };
        if let Some(Value::Object(servers)) = servers {
            for (key, value) in servers {
                out.push(self.entry(key, value, scope, secrets));
            }
        }
        if shape == Shape::ClaudeJson {
            // The project's local servers, kept in the user's file (trusted: the user added them).
            let local = root
                .get("projects")
                .and_then(|p| p.get(self.project.to_string_lossy().as_ref()))
                .and_then(|p| p.get("mcpServers"));
            if let Some(Value::Object(servers)) = local {
                for (key, value) in servers {
                    out.push(self.entry(key, value, Scope::User, secrets));
                }
            }
        }
        if self.host == Host::GeminiCli {
            Self::gemini_allowed(root, &mut out);
        }
        out
    }

    /// gemini-cli's `mcp.allowed` and `mcp.excluded`: server names it starts or leaves out.
    fn gemini_allowed(root: &Value, out: &mut [Entry]) {
        let names = |key: &str| -> Option<Vec<String>> { root.get("mcp")?.get(key).map(strings) };
        let allowed = names("allowed");
        let excluded = names("excluded").unwrap_or_default();
        for e in out.iter_mut() {
            if excluded.contains(&e.key) {
                disable(e, "`mcp.excluded` names it");
            } else if allowed.as_ref().is_some_and(|a| !a.contains(&e.key)) {
                disable(e, "`mcp.allowed` does not name it");
            }
        }
    }

    /// Claude Code's `projects[<project>].disabledMcpjsonServers`: `.mcp.json` servers the user
    /// turned off.
    pub(super) fn mcpjson_disabled(&self, root: &Value, entries: &mut [Entry]) {
        let Some(off) = root
            .get("projects")
            .and_then(|p| p.get(self.project.to_string_lossy().as_ref()))
            .and_then(|p| p.get("disabledMcpjsonServers"))
            .map(strings)
        else {
            return;
        };
        for e in entries.iter_mut() {
            if e.host == Host::ClaudeCode
                && e.file.file_name().is_some_and(|n| n == ".mcp.json")
                && off.contains(&e.key)
            {
                disable(e, "`disabledMcpjsonServers` in ~/.claude.json names it");
            }
        }
    }

    /// The entry of the server `key` whose configuration is `value`.
    pub(super) fn entry(
        &self,
        key: &str,
        value: &Value,
        scope: Scope,
        secrets: &mut Secrets,
    ) -> Entry {
        let mut entry = Entry {
            host: self.host,
            key: key.to_owned(),
            file: self.file.to_path_buf(),
            scope,
            transport: None,
            not_started: None,
            disabled: false,
            include: None,
            exclude: Vec::new(),
            notes: Vec::new(),
            plugin: None,
        };
        let Some(server) = value.as_object() else {
            entry.not_started = Some("its entry is not an object".to_owned());
            return entry;
        };
        let flag = |k: &str| server.get(k).and_then(Value::as_bool);
        if flag("disabled") == Some(true) {
            disable(&mut entry, "`disabled: true`");
        }
        if flag("enabled") == Some(false) {
            disable(&mut entry, "`enabled = false`");
        }
        entry.include = server
            .get("includeTools")
            .or_else(|| server.get("enabled_tools"))
            .map(strings);
        for k in ["excludeTools", "disabled_tools", "disabledTools"] {
            entry
                .exclude
                .extend(server.get(k).map(strings).unwrap_or_default());
        }
        for k in ["cwd", "envFile"] {
            if server.contains_key(k) {
                entry.notes.push(format!(
                    "`{k}` is not applied: the server is started in the current folder with the \
                     session's environment"
                ));
            }
        }
        match self.transport(server, secrets) {
            Ok(t) => {
                if let Transport::Stdio { argv, .. } = &t {
                    if let Some(p) = super::proxied::of(&argv[0], &argv[1..]) {
                        entry.notes.push(format!(
                            "wrapped in `schema-lint proxy --for {}` (`session --fix`; `session \
                             --unfix` takes it out): judged as the proxy ports it",
                            p.client.as_deref().unwrap_or("?")
                        ));
                    }
                }
                entry.transport = Some(t);
            }
            Err(why) => {
                if entry.not_started.is_none() {
                    entry.not_started = Some(why);
                }
            }
        }
        entry
    }

    fn syntax(&self) -> Syntax {
        if self.host == Host::Codex {
            Syntax::None
        } else {
            Syntax::Braces
        }
    }

    fn expand(&self, text: &str, secrets: &mut Secrets) -> Result<String, String> {
        vars::expand(text, self.syntax(), self.env, secrets)
    }

    /// How the server is reached, with every variable expanded.
    fn transport(
        &self,
        server: &Map<String, Value>,
        secrets: &mut Secrets,
    ) -> Result<Transport, String> {
        let kind = server.get("type").and_then(Value::as_str).unwrap_or("");
        if let Some(command) = server.get("command") {
            let command = command.as_str().ok_or("`command` is not a string")?;
            let mut argv = vec![self.expand(command, secrets)?];
            for arg in server.get("args").map(strings).unwrap_or_default() {
                argv.push(self.expand(&arg, secrets)?);
            }
            let mut env = Vec::new();
            if let Some(Value::Object(vars)) = server.get("env") {
                for (k, v) in vars {
                    let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                    let v = self.expand(&v, secrets)?;
                    secrets.add(&v);
                    env.push((k.clone(), v));
                }
            }
            // Codex: `env_vars`, names passed through from the host's environment.
            for name in server.get("env_vars").map(strings).unwrap_or_default() {
                if let Some(v) = (self.env.lookup)(&name) {
                    secrets.add(&v);
                    env.push((name, v));
                }
            }
            return Ok(Transport::Stdio { argv, env });
        }
        let (url, sse) = if let Some(u) = server.get("httpUrl") {
            (u, false)
        } else if let Some(u) = server.get("serverUrl") {
            (u, false)
        } else if let Some(u) = server.get("url") {
            // gemini-cli reads `url` as an SSE endpoint unless `type` says `http`.
            let sse = kind == "sse" || (self.host == Host::GeminiCli && kind != "http");
            (u, sse)
        } else {
            return Err("it has neither `command` nor a URL".to_owned());
        };
        if sse {
            return Err(
                "it uses the SSE transport, which a session does not speak (Streamable HTTP and \
                 stdio only)"
                    .to_owned(),
            );
        }
        let url = self.expand(url.as_str().ok_or("its URL is not a string")?, secrets)?;
        let mut headers = Vec::new();
        for k in ["headers", "http_headers"] {
            if let Some(Value::Object(hs)) = server.get(k) {
                for (name, v) in hs {
                    let v = self.expand(v.as_str().unwrap_or_default(), secrets)?;
                    secrets.add(&v);
                    headers.push((name.clone(), v));
                }
            }
        }
        // Codex: headers and a bearer token from the environment.
        if let Some(Value::Object(hs)) = server.get("env_http_headers") {
            for (name, var) in hs {
                let var = var.as_str().unwrap_or_default();
                let v = (self.env.lookup)(var)
                    .ok_or_else(|| format!("`env_http_headers` names `{var}`, which is not set"))?;
                secrets.add(&v);
                headers.push((name.clone(), v));
            }
        }
        if let Some(var) = server.get("bearer_token_env_var").and_then(Value::as_str) {
            let v = (self.env.lookup)(var)
                .ok_or_else(|| format!("`bearer_token_env_var` names `{var}`, which is not set"))?;
            secrets.add(&v);
            headers.push(("Authorization".to_owned(), format!("Bearer {v}")));
        }
        Ok(Transport::Http { url, headers })
    }
}

/// Marks `entry` disabled, for `why`.
pub(super) fn disable(entry: &mut Entry, why: &str) {
    entry.disabled = true;
    entry.not_started = Some(format!("disabled: {why}"));
}

/// The strings of an array (other items left out).
pub(super) fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_tells_its_host_by_place_then_shape() {
        let h = |p: &str, t: &str| host_of(Path::new(p), t, None).map(|(h, _)| h);
        assert_eq!(h("x/.vscode/mcp.json", "{}"), Ok(Host::Vscode));
        assert_eq!(h("x/.cursor/mcp.json", "{}"), Ok(Host::Cursor));
        assert_eq!(h("x/.gemini/settings.json", "{}"), Ok(Host::GeminiCli));
        assert_eq!(h("a/.mcp.json", "{}"), Ok(Host::ClaudeCode));
        assert_eq!(h("a/b.toml", ""), Ok(Host::Codex));
        assert_eq!(h("a/b.json", r#"{"servers": {}}"#), Ok(Host::Vscode));
        assert!(h("a/b.json", r#"{"mcpServers": {}}"#)
            .unwrap_err()
            .contains("--host"));
    }
}

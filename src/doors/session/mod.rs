//! `schema-lint session`: a user's MCP configurations linted as the one request each host builds.
//!
//! A host (Claude Code, Cursor, VS Code, gemini-cli, Codex, Claude Desktop, Windsurf) starts every
//! server of its configuration, renames their tools (the user's key for the server, its own
//! prefix), filters them and sends them to its model in one request. This door reads the
//! configurations where each host keeps them ([`config`]), starts every enabled server through the
//! live machinery ([`crate::workspace::live`]), builds per host the request it sends ([`names`],
//! [`request`]), lints it with the engine for that host as client, and renders the verdict per
//! host first ([`render`]). The verdicts are the client model's ([`crate::diagnostic::verdict`]):
//! this door decides nothing of its own.
//!
//! Safety: a project's own configuration starts servers only with consent ([`consent`]); the
//! user's own are trusted; secrets from `env`, headers and variables never reach the output
//! ([`vars::Secrets`]). Configurations are only read, but with `--fix`, which wraps a server
//! that breaks a host in `schema-lint proxy` in that host's configuration, and `--unfix`, which
//! takes the wraps out ([`wrap`]).

pub mod config;
pub mod consent;
mod edit;
pub mod explain;
pub mod gather;
pub mod jsonc;
pub mod names;
pub mod plugins;
pub mod proxied;
pub mod render;
pub mod request;
pub mod vars;
pub mod wrap;

use crate::diagnostic::breaks::Client;
use serde::Serialize;
use std::fmt;
use std::fmt::Write as _;

/// A host: an application that reads an MCP configuration and sends its servers' tools to a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    /// Claude Code (`.mcp.json`, `~/.claude.json`).
    ClaudeCode,
    /// Claude Desktop (`claude_desktop_config.json`).
    ClaudeDesktop,
    /// VS Code's Copilot chat (`.vscode/mcp.json`, the user's `mcp.json`).
    Vscode,
    /// Cursor (`.cursor/mcp.json`, `~/.cursor/mcp.json`).
    Cursor,
    /// gemini-cli (`.gemini/settings.json`, `~/.gemini/settings.json`).
    GeminiCli,
    /// `OpenAI`'s Codex CLI (`~/.codex/config.toml`).
    Codex,
    /// Windsurf (`~/.codeium/windsurf/mcp_config.json`).
    Windsurf,
}

impl Host {
    /// Every host, in the order reports list them.
    pub const ALL: [Host; 7] = [
        Host::ClaudeCode,
        Host::ClaudeDesktop,
        Host::Vscode,
        Host::Cursor,
        Host::GeminiCli,
        Host::Codex,
        Host::Windsurf,
    ];

    /// The host's name in reports and in `--host` (`claude-code`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::ClaudeDesktop => "claude-desktop",
            Host::Vscode => "vscode",
            Host::Cursor => "cursor",
            Host::GeminiCli => "gemini-cli",
            Host::Codex => "codex",
            Host::Windsurf => "windsurf",
        }
    }

    /// The host named `name` (`claude-code`; `vscode-copilot` is VS Code too).
    #[must_use]
    pub fn named(name: &str) -> Option<Host> {
        if name == "vscode-copilot" {
            return Some(Host::Vscode);
        }
        Host::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The host's client in the client model (`--clients`), whose verdicts judge its request;
    /// `None` for a host the model has no client for (Windsurf).
    #[must_use]
    pub fn client(self) -> Option<Client> {
        match self {
            Host::ClaudeCode => Some(Client::ClaudeCode),
            Host::ClaudeDesktop => Some(Client::ClaudeDesktop),
            Host::Vscode => Some(Client::VscodeCopilot),
            Host::Cursor => Some(Client::Cursor),
            Host::GeminiCli => Some(Client::GeminiCli),
            Host::Codex => Some(Client::Codex),
            Host::Windsurf => None,
        }
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a session run prints, and its exit code (the door's answer; `cli` passes it on).
#[derive(Debug, Default)]
pub struct Printed {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// 0: every host works; 1: a host loses a tool or a request fails; 2: a configuration could
    /// not be read.
    pub code: u8,
}

/// How a session prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The verdict per host, then the findings, for a terminal.
    Human,
    /// Versioned JSON.
    Json,
    /// Markdown, for a pull request or an issue.
    Markdown,
}

/// What the command line asks of a session.
#[derive(Clone, Debug)]
pub struct Options {
    /// Configuration files named; none: the current project's and the user's.
    pub configs: Vec<std::path::PathBuf>,
    /// The host of the files named, where their place and shape do not say it.
    pub host: Option<Host>,
    /// Only these hosts (none: every host a configuration was found for).
    pub only: Vec<Host>,
    /// The project folder (the current folder).
    pub project: std::path::PathBuf,
    /// The user's home (`$HOME`).
    pub home: Option<std::path::PathBuf>,
    /// `--trust-project`: start the servers of the project's own configurations.
    pub trust_project: bool,
    /// Ask on the terminal before starting a project's servers (standard input and error are a
    /// terminal, and `--trust-project` was not given).
    pub ask: bool,
    /// Providers and other clients judged beside each host's own client (`--clients`).
    pub extra_clients: Vec<Client>,
    /// The version named for some clients (`--host claude-code@2.1.260`, `--clients
    /// NAME@VERSION`); the others are at their newest known version, as in `check`.
    pub versions: Vec<(Client, String)>,
    /// Seconds each server may take to list its tools.
    pub timeout: f64,
    /// How many servers are started at once.
    pub jobs: usize,
    /// How to print.
    pub format: Format,
    /// `--explain-error TEXT`: an error a user pasted, mapped to its server and tool
    /// ([`explain`]) in place of the session's report.
    pub explain: Option<String>,
    /// `--builtin-tools N`: how many tools of its own the host sends before the MCP tools, for
    /// [`explain`] (unknown otherwise).
    pub builtin_tools: Option<usize>,
    /// `--fix` or `--unfix`: the configurations changed after the session.
    pub mend: Option<Mend>,
}

/// What a session changes in the configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mend {
    /// `--fix`: wrap each server that breaks a host, and that the port repairs, in `schema-lint
    /// proxy` in that host's configuration ([`wrap::fix`]).
    Fix,
    /// `--unfix`: take every such wrap out ([`wrap::unfix`]); no server is started.
    Unfix,
}

/// Runs a session: reads the configurations, asks for consent, starts the servers, judges each
/// host's request, renders.
#[must_use]
pub fn run(options: &Options) -> Printed {
    let clues = match options.explain.as_deref().map(explain::parse) {
        Some(Err(why)) => {
            return Printed {
                stderr: format!("error: `--explain-error`: {why}\n"),
                code: 2,
                ..Printed::default()
            }
        }
        Some(Ok(clues)) => Some(clues),
        None => None,
    };
    let mut secrets = vars::Secrets::default();
    let found = match gather::gather(options, &mut secrets) {
        Ok(found) => found,
        Err(why) => {
            return Printed {
                stderr: secrets.redact(&format!("error: {why}\n")),
                code: 2,
                ..Printed::default()
            }
        }
    };
    let mut found = found;
    if options.mend == Some(Mend::Unfix) {
        return unfix(&found, options, &secrets);
    }
    let consented = consent::decide(&mut found, options, &secrets);
    let judged = request::judge(&found, options, &secrets);
    let mut printed = match &clues {
        Some(clues) => explain::render(clues, &judged, &found, options),
        None => render::render(&judged, &found, options.format),
    };
    if options.mend == Some(Mend::Fix) && clues.is_none() {
        let mended = wrap::fix(&judged, options);
        add_changes(&mut printed, &mended, options.format, false);
        if printed.code != 2 {
            printed.code = u8::from(mended.still_breaks);
        }
        if mended
            .changes
            .iter()
            .any(|c| c.action == wrap::Action::Failed)
        {
            printed.code = 2;
        }
    }
    if !consented.is_empty() {
        printed.stderr.insert_str(0, &consented);
    }
    printed.stdout = secrets.redact(&printed.stdout);
    printed.stderr = secrets.redact(&printed.stderr);
    printed
}

/// `--unfix`: the wraps taken out, said; exit 2 when a configuration could not be read or a
/// wrap could not be taken out.
fn unfix(found: &config::Found, options: &Options, secrets: &vars::Secrets) -> Printed {
    let mended = wrap::unfix(found, options);
    let mut printed = Printed::default();
    for e in &found.errors {
        let _ = writeln!(printed.stderr, "error: {e}");
    }
    if options.format == Format::Json {
        "{\"version\": 1}".clone_into(&mut printed.stdout);
    }
    add_changes(&mut printed, &mended, options.format, true);
    let failed = mended
        .changes
        .iter()
        .any(|c| c.action == wrap::Action::Failed);
    printed.code = if failed || !found.errors.is_empty() {
        2
    } else {
        0
    };
    printed.stdout = secrets.redact(&printed.stdout);
    printed.stderr = secrets.redact(&printed.stderr);
    printed
}

/// Adds what `--fix` or `--unfix` changed to the output: after the report, or as `edits` in its
/// JSON.
fn add_changes(printed: &mut Printed, mended: &wrap::Mended, format: Format, unfix: bool) {
    match format {
        Format::Json => {
            let mut document: serde_json::Value =
                serde_json::from_str(&printed.stdout).unwrap_or_else(|_| serde_json::json!({}));
            document["edits"] = serde_json::to_value(&mended.changes).unwrap_or_default();
            printed.stdout = serde_json::to_string_pretty(&document).unwrap_or_default();
            printed.stdout.push('\n');
        }
        Format::Human | Format::Markdown => {
            let markdown = format == Format::Markdown;
            printed
                .stdout
                .push_str(&render::changes(mended, unfix, markdown));
        }
    }
}

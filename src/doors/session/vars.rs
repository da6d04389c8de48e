//! Variables in a configuration (`${VAR}`, `${VAR:-default}`, `${env:VAR}`, `${input:ID}`,
//! `${workspaceFolder}`, `${userHome}`), expanded as the hosts expand them or said when they
//! cannot be, and the secrets a session must never print.
//!
//! Claude Code expands `${VAR}` and `${VAR:-default}` in `.mcp.json` (its MCP documentation,
//! "Environment variable expansion in `.mcp.json`"); VS Code `${env:VAR}`, `${input:ID}` (a
//! prompt) and `${workspaceFolder}` (microsoft/vscode, the MCP configuration resolver); Cursor
//! `${env:VAR}`, `${workspaceFolder}` and `${userHome}`; gemini-cli `$VAR` and `${VAR}`
//! (google-gemini/gemini-cli, `packages/cli/src/config/settings.ts`, `resolveEnvVarsInObject`).
//! Codex reads its TOML as written. An `${input:...}` is a question the host asks its user: a
//! session cannot answer it, so the server is not started, and says so.

use std::collections::BTreeSet;
use std::path::Path;

/// Values a session must never print: every value of a server's `env` and headers, and every
/// variable's value that expansion put into a configuration.
#[derive(Debug, Default, Clone)]
pub struct Secrets {
    values: BTreeSet<String>,
}

/// What stands for a secret in the output.
pub const HIDDEN: &str = "[secret]";

impl Secrets {
    /// Remembers `value` as a secret (values under 4 characters are too common to hide: `1`,
    /// `true`).
    pub fn add(&mut self, value: &str) {
        let value = value.trim();
        if value.chars().count() >= 4 {
            self.values.insert(value.to_owned());
            // A bearer token is also printed without its scheme.
            if let Some((_, token)) = value.split_once(' ') {
                if token.trim().chars().count() >= 4 {
                    self.values.insert(token.trim().to_owned());
                }
            }
        }
    }

    /// `text` with every secret written as [`HIDDEN`], longest first (a secret holding another
    /// is hidden whole).
    #[must_use]
    pub fn redact(&self, text: &str) -> String {
        let mut secrets: Vec<&String> = self.values.iter().collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let mut out = text.to_owned();
        for secret in secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), HIDDEN);
            }
            // The JSON output writes a string escaped: hide that form too.
            let escaped = serde_json::to_string(secret).unwrap_or_default();
            let escaped = escaped.trim_matches('"');
            if escaped != secret.as_str() && out.contains(escaped) {
                out = out.replace(escaped, HIDDEN);
            }
        }
        out
    }
}

/// The syntax of variables a host expands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// `${VAR}`, `${VAR:-default}`, `${env:VAR}`, `${input:ID}`, `${workspaceFolder}`,
    /// `${userHome}` (Claude Code, Claude Desktop, VS Code, Cursor, Windsurf, gemini-cli).
    Braces,
    /// None: the text is used as written (Codex).
    None,
}

/// Where variables come from.
pub struct Env<'a> {
    /// The project folder (`${workspaceFolder}`).
    pub project: &'a Path,
    /// The user's home (`${userHome}`).
    pub home: Option<&'a Path>,
    /// Looks a variable up (the process environment; tests give their own).
    pub lookup: &'a dyn Fn(&str) -> Option<String>,
    /// The root of the Claude Code plugin whose configuration is read (`${CLAUDE_PLUGIN_ROOT}`):
    /// a path, not a secret.
    pub plugin_root: Option<&'a Path>,
}

/// `text` with its variables expanded; `Err` says the first that cannot be (unset, or an
/// `${input:...}` prompt). Each value expansion puts in is remembered as a secret.
///
/// # Errors
/// A variable that is not set and has no default, or a prompt the session cannot answer.
pub fn expand(
    text: &str,
    syntax: Syntax,
    env: &Env<'_>,
    secrets: &mut Secrets,
) -> Result<String, String> {
    if syntax == Syntax::None || !text.contains("${") {
        return Ok(text.to_owned());
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[at..]);
            return Ok(out);
        };
        let inner = &after[..end];
        out.push_str(&value_of(inner, env, secrets)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn value_of(inner: &str, env: &Env<'_>, secrets: &mut Secrets) -> Result<String, String> {
    if let Some(id) = inner.strip_prefix("input:") {
        return Err(format!(
            "`${{input:{id}}}` is a prompt the host asks its user, which a session cannot answer"
        ));
    }
    match inner {
        "workspaceFolder" | "workspaceRoot" => {
            return Ok(env.project.to_string_lossy().into_owned())
        }
        "userHome" => {
            if let Some(home) = env.home {
                return Ok(home.to_string_lossy().into_owned());
            }
        }
        "CLAUDE_PLUGIN_ROOT" => {
            if let Some(root) = env.plugin_root {
                return Ok(root.to_string_lossy().into_owned());
            }
        }
        _ => {}
    }
    let inner = inner.strip_prefix("env:").unwrap_or(inner);
    let (name, default) = match inner.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (inner, None),
    };
    match ((env.lookup)(name), default) {
        (Some(value), _) => {
            secrets.add(&value);
            Ok(value)
        }
        (None, Some(default)) => Ok(default.to_owned()),
        (None, None) => Err(format!(
            "`${{{inner}}}` names `{name}`, which is not set in this environment"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(lookup: &dyn Fn(&str) -> Option<String>) -> Env<'_> {
        Env {
            project: Path::new("/p"),
            home: Some(Path::new("/h")),
            lookup,
            plugin_root: None,
        }
    }

    #[test]
    fn variables_expand_or_are_said() {
        let look = |n: &str| (n == "TOKEN").then(|| "s3cr3t-value".to_owned());
        let mut secrets = Secrets::default();
        let e = env(&look);
        assert_eq!(
            expand("Bearer ${TOKEN}", Syntax::Braces, &e, &mut secrets).unwrap(),
            "Bearer s3cr3t-value"
        );
        assert_eq!(
            expand(
                "${env:TOKEN}/${workspaceFolder}",
                Syntax::Braces,
                &e,
                &mut secrets
            )
            .unwrap(),
            "s3cr3t-value//p"
        );
        assert_eq!(
            expand("${MISSING:-x}", Syntax::Braces, &e, &mut secrets).unwrap(),
            "x"
        );
        assert!(expand("${MISSING}", Syntax::Braces, &e, &mut secrets)
            .unwrap_err()
            .contains("`MISSING`"));
        assert!(expand("${input:key}", Syntax::Braces, &e, &mut secrets)
            .unwrap_err()
            .contains("prompt"));
        assert_eq!(
            expand("${TOKEN}", Syntax::None, &e, &mut secrets).unwrap(),
            "${TOKEN}"
        );
        assert_eq!(secrets.redact("a s3cr3t-value b"), "a [secret] b");
    }

    #[test]
    fn secrets_are_hidden_whole_and_escaped() {
        let mut s = Secrets::default();
        s.add("Bearer abc\"def");
        s.add("no");
        assert_eq!(s.redact("x abc\"def y"), "x [secret] y");
        assert_eq!(s.redact(r#"{"h": "abc\"def"}"#), r#"{"h": "[secret]"}"#);
        assert_eq!(s.redact("no"), "no");
    }
}

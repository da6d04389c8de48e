//! Consent: a project's own configuration comes from whoever wrote the repository, and its
//! servers are commands that would run on the user's machine. As the hosts themselves ask before
//! starting them (Claude Code for `.mcp.json`, VS Code's trust prompt, gemini-cli's trusted
//! folders), a session starts them only after a yes on the terminal or `--trust-project`; without
//! either, it says which servers were not started and why. The user's own configurations are
//! trusted.

use super::config::{Found, Scope};
use super::vars::Secrets;
use super::Options;
use std::fmt::Write as _;
use std::io::{BufRead, Write};

/// Decides, for every startable server of a project's configuration, whether it may start;
/// those that may not are marked with why. Returns what was said on standard error.
pub fn decide(found: &mut Found, options: &Options, secrets: &Secrets) -> String {
    let waiting: Vec<usize> = found
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.scope == Scope::Project && e.not_started.is_none())
        .map(|(i, _)| i)
        .collect();
    if waiting.is_empty() || options.trust_project {
        return String::new();
    }
    if options.ask && ask(found, &waiting, secrets) {
        return String::new();
    }
    let mut said = String::new();
    for i in waiting {
        let entry = &mut found.entries[i];
        entry.not_started = Some(
            "a project's own server, started only with consent (answer the prompt on a \
             terminal, or pass `--trust-project`)"
                .to_owned(),
        );
        let _ = writeln!(
            said,
            "not started: `{}` of {} ({}): no consent to run a project's server",
            entry.key,
            entry.host,
            entry.file.display()
        );
    }
    said
}

/// Asks on the terminal whether the project's servers may start; `true` on `y` or `yes`.
fn ask(found: &Found, waiting: &[usize], secrets: &Secrets) -> bool {
    let mut prompt = String::from("This project's configurations would start these servers:\n");
    for &i in waiting {
        let e = &found.entries[i];
        let what = match &e.transport {
            Some(super::config::Transport::Stdio { argv, .. }) => {
                format!("runs `{}`", argv.join(" "))
            }
            Some(super::config::Transport::Http { url, .. }) => format!("reaches {url}"),
            None => String::new(),
        };
        let _ = writeln!(
            prompt,
            "  {} `{}` ({}): {what}",
            e.host,
            e.key,
            e.file.display()
        );
    }
    prompt.push_str("Start them? [y/N] ");
    let mut stderr = std::io::stderr();
    let _ = stderr.write_all(secrets.redact(&prompt).as_bytes());
    let _ = stderr.flush();
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

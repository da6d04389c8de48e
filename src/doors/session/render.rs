//! How a session prints: the verdict per host first, one line each, then per host its request
//! (servers, tool count, bytes of schemas) and its findings, each with the fix in the user's
//! hands beside the author's (the rule's help); and what `--fix` or `--unfix` changed. The
//! verdicts are rendered, never decided here.

use super::config::Found;
use super::request::{Finding, Judged, State};
use super::wrap::{Action, Mended};
use super::{Format, Printed};
use crate::diagnostic::verdict::Verdict;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The host's verdict in one word: `breaks` when it fails, `warns` when a finding warns, else
/// `works`; `None` when no client judges it.
fn word(j: &Judged) -> Option<Verdict> {
    if j.clients.is_empty() {
        None
    } else if j.fails {
        Some(Verdict::Breaks)
    } else if j.findings.iter().any(|f| f.verdict == Verdict::Warns) {
        Some(Verdict::Warns)
    } else {
        Some(Verdict::Works)
    }
}

/// Renders a session in `format`, with its exit code.
#[must_use]
pub fn render(judged: &[Judged], found: &Found, format: Format) -> Printed {
    let mut stderr = String::new();
    for e in &found.errors {
        let _ = writeln!(stderr, "error: {e}");
    }
    if found.files.is_empty() && found.errors.is_empty() {
        stderr.push_str("No MCP configuration found (give a file, or run in a project)\n");
    }
    let stdout = match format {
        Format::Json => json_of(judged, found),
        Format::Human => human(judged),
        Format::Markdown => markdown(judged),
    };
    let code = if found.errors.is_empty() {
        u8::from(judged.iter().any(|j| j.fails))
    } else {
        2
    };
    Printed {
        stdout,
        stderr,
        code,
    }
}

fn state_words(state: &State) -> (&'static str, Option<&str>) {
    match state {
        State::Listed(_) => ("listed", None),
        State::Failed(why) => ("failed", Some(why)),
        State::NotStarted(why) => ("not-started", Some(why)),
    }
}

fn json_of(judged: &[Judged], found: &Found) -> String {
    let hosts: Vec<Value> = judged
        .iter()
        .map(|j| {
            let servers: Vec<Value> = j
                .servers
                .iter()
                .map(|s| {
                    let (state, why) = state_words(&s.state);
                    let listed = match &s.state {
                        State::Listed(l) => Some(l.tools.len()),
                        _ => None,
                    };
                    json!({
                        "key": s.entry.key,
                        "file": s.entry.file.display().to_string(),
                        "scope": s.entry.scope,
                        "state": state,
                        "why": why,
                        "disabled": s.entry.disabled,
                        "tools_listed": listed,
                        "tools_sent": s.sent,
                        "notes": s.entry.notes,
                    })
                })
                .collect();
            let names: Vec<Value> = j
                .tools
                .iter()
                .map(|t| json!({"server": t.server, "tool": t.tool, "name": t.name}))
                .collect();
            let findings: Vec<Value> = j.findings.iter().map(|f| finding_json(j, f)).collect();
            json!({
                "host": j.host,
                "version": j.version,
                "verdict": word(j),
                "summary": j.summary,
                "fails": j.fails,
                "clients": j.clients,
                "request": {"tools": j.tools.len(), "schema_bytes": j.schema_bytes, "names": names},
                "servers": servers,
                "findings": findings,
            })
        })
        .collect();
    let files: Vec<Value> = found
        .files
        .iter()
        .map(|(h, p, s)| json!({"host": h, "file": p.display().to_string(), "scope": s}))
        .collect();
    let document = json!({
        "version": 1,
        "hosts": hosts,
        "configurations": files,
        "errors": found.errors,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

fn human(judged: &[Judged]) -> String {
    let mut out = String::new();
    for j in judged {
        let _ = writeln!(out, "{}: {}", shown(j), j.summary);
    }
    for j in judged {
        let _ = writeln!(
            out,
            "\n{} ({} tool{} from {} server{}, {} bytes of input schemas; judged for {})",
            shown(j),
            j.tools.len(),
            plural(j.tools.len()),
            j.servers.len(),
            plural(j.servers.len()),
            j.schema_bytes,
            if j.clients.is_empty() {
                "no client".to_owned()
            } else {
                j.clients
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        for s in &j.servers {
            let (state, why) = state_words(&s.state);
            let _ = write!(
                out,
                "  {} ({}, {}): ",
                s.entry.key,
                s.entry.file.display(),
                s.entry.scope.name()
            );
            match (&s.state, why) {
                (State::Listed(l), _) => {
                    let _ = writeln!(out, "{} of {} tools sent", s.sent, l.tools.len());
                }
                (_, Some(why)) => {
                    let _ = writeln!(out, "{state}: {why}");
                }
                _ => {
                    let _ = writeln!(out, "{state}");
                }
            }
            for note in &s.entry.notes {
                let _ = writeln!(out, "    note: {note}");
            }
        }
        for f in j.findings.iter().filter(|f| f.verdict != Verdict::Works) {
            finding_lines(&mut out, f, "  ");
        }
    }
    out
}

/// A finding in JSON, with its `server` and `tool`, the user's fix and the author's, and what
/// the request's clients do with it.
pub(super) fn finding_json(j: &Judged, f: &Finding) -> Value {
    let d = &f.diagnostic;
    let breaks: Vec<Value> = d
        .breaks
        .iter()
        .filter(|b| j.clients.contains(&b.client))
        .map(|b| {
            serde_json::to_value(b.reported(f.sent_as.as_deref(), d.depends_on_output))
                .unwrap_or(Value::Null)
        })
        .collect();
    json!({
        "server": f.server,
        "tool": f.tool,
        "sent_as": f.sent_as,
        "code": d.rule.code,
        "rule": d.rule.name,
        "severity": d.severity,
        "verdict": f.verdict,
        "message": d.message,
        "pointer": d.pointer,
        "user_fix": f.user_fix,
        "help": d.help,
        "breaks": breaks,
    })
}

/// A finding for a terminal, each line after `indent`: the finding, the name sent, the user's
/// fix, the author's.
pub(super) fn finding_lines(out: &mut String, f: &Finding, indent: &str) {
    let d = &f.diagnostic;
    let at = match (&f.server, &f.tool) {
        (Some(s), Some(t)) => format!("{s}/{t}"),
        (Some(s), None) => format!("the listing of {s}"),
        _ => "the request".to_owned(),
    };
    let _ = writeln!(
        out,
        "{indent}{}[{}] {at} ({}): {}",
        d.severity, d.rule.code, f.verdict, d.message
    );
    if let Some(sent) = &f.sent_as {
        if Some(sent) != f.tool.as_ref() {
            let _ = writeln!(out, "{indent}  sent as `{sent}`");
        }
    }
    if let Some(fix) = &f.user_fix {
        let _ = writeln!(out, "{indent}  your fix: {fix}");
    }
    if let Some(help) = &d.help {
        let _ = writeln!(out, "{indent}  the author's fix: {help}");
    }
}

fn markdown(judged: &[Judged]) -> String {
    let mut out = String::from("| host | verdict |\n|---|---|\n");
    for j in judged {
        let _ = writeln!(out, "| {} | {} |", shown(j), j.summary.replace('|', "\\|"));
    }
    for j in judged {
        let _ = writeln!(
            out,
            "\n### {}\n\n{} tools from {} servers, {} bytes of input schemas.\n",
            shown(j),
            j.tools.len(),
            j.servers.len(),
            j.schema_bytes
        );
        let shown: Vec<_> = j
            .findings
            .iter()
            .filter(|f| f.verdict != Verdict::Works)
            .collect();
        if shown.is_empty() {
            continue;
        }
        out.push_str("| server | tool | verdict | finding | your fix | the author's fix |\n|---|---|---|---|---|---|\n");
        for f in shown {
            let d = &f.diagnostic;
            let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} {} | {} | {} |",
                cell(f.server.as_deref().unwrap_or("")),
                cell(f.tool.as_deref().unwrap_or("")),
                f.verdict,
                d.rule.code,
                cell(&d.message),
                cell(f.user_fix.as_deref().unwrap_or("")),
                cell(d.help.as_deref().unwrap_or(""))
            );
        }
    }
    out
}

/// The host as the verdict line names it: `claude-code`, or `claude-code@2.1.260` when a version
/// was named.
fn shown(j: &Judged) -> String {
    match &j.version {
        Some(v) => format!("{}@{v}", j.host),
        None => j.host.to_string(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The changes for a terminal (or Markdown, as a list): which file and entry changed, and how.
#[must_use]
pub fn changes(mended: &Mended, unfix: bool, markdown: bool) -> String {
    let mut out = String::new();
    let (head, bullet) = match (markdown, unfix) {
        (true, false) => ("\n### --fix\n\n", "- "),
        (true, true) => ("### --unfix\n\n", "- "),
        (false, false) => ("\n--fix:\n", "  "),
        (false, true) => ("", ""),
    };
    out.push_str(head);
    if mended.changes.is_empty() {
        let _ = writeln!(
            out,
            "{bullet}{}",
            if unfix {
                "No server entry is wrapped in `schema-lint proxy`: nothing to unwrap."
            } else {
                "No server breaks a host: nothing to wrap."
            }
        );
        return out;
    }
    for c in &mended.changes {
        let what = match c.action {
            Action::Wrapped => "wrapped",
            Action::AlreadyWrapped => "already wrapped",
            Action::NotWrapped => "not wrapped",
            Action::Unwrapped => "unwrapped",
            Action::Failed => "not changed",
        };
        let _ = write!(
            out,
            "{bullet}{what}: {} `{}` in {}",
            c.host, c.server, c.file
        );
        if c.action == Action::Wrapped {
            let client = c.client.as_deref().unwrap_or_default();
            let _ = write!(out, ", in `schema-lint proxy --for {client}`");
            if !c.repaired.is_empty() {
                let _ = write!(out, " (the port rewrites {})", c.repaired.join(", "));
            }
            if !c.left.is_empty() {
                let _ = write!(
                    out,
                    "; partial: the port leaves {} breaking {client}",
                    c.left.join(", ")
                );
            }
        }
        if c.action == Action::Unwrapped {
            out.push_str(": the server's own command back");
        }
        if let Some(why) = &c.why {
            let _ = write!(out, "; {why}");
        }
        if let Some(kept) = &c.backup {
            let _ = write!(out, "; its original is kept in {kept}");
        }
        out.push('\n');
    }
    let done = mended
        .changes
        .iter()
        .filter(|c| matches!(c.action, Action::Wrapped | Action::Unwrapped))
        .count();
    if !unfix && done > 0 {
        let _ = writeln!(
            out,
            "{}{done} server{} wrapped: `schema-lint session` judges the hosts through the proxy \
             now, `schema-lint session --unfix` takes it out.",
            if markdown { "\n" } else { "" },
            if done == 1 { "" } else { "s" }
        );
    }
    out
}

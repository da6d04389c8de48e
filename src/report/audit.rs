//! The audit's output: human (a line per failing call, then the summary) and JSON of its own
//! shape; every other format through [`super::render_findings`], from the audit's diagnostics in
//! the capture ([`crate::audit::diagnostics`]).

use super::{Findings, OutputFormat, Style};
use crate::audit::decision::Target;
use crate::audit::diagnostics;
use crate::audit::input::{describe, skipped_places};
use crate::audit::verdicts::CLIENTS;
use crate::audit::{summary, Audit, Call};
use crate::diagnostic::breaks::Effect;
use crate::diagnostic::client::Client;
use crate::syntax::source::SourceFile;
use serde_json::{json, Value};
use std::fmt::Write;

fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

fn call_head(c: &Call) -> String {
    format!(
        "call {} (line {}) {}{}",
        id_text(&c.id),
        c.line,
        c.tool.as_deref().unwrap_or("<no tool>"),
        if c.is_error { " (an error result)" } else { "" }
    )
}

/// `a`, `a and b`, `a, b and c`.
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The clients of `c` that cannot use its output schema, in the order reports list clients.
fn broken_clients(c: &Call) -> Vec<Client> {
    CLIENTS
        .iter()
        .copied()
        .filter(|client| c.schema_breaks.iter().any(|b| b.client == *client))
        .collect()
}

/// What each client does with the call's result, in one sentence: `every client accepts the
/// result (...)`, `ts-sdk-v1 and ts-sdk-v2 reject the result; python-sdk and python-sdk-v1
/// accept it`, `ts-sdk-v1 and ts-sdk-v2 cannot use the output schema; ...`, or why no client's
/// verdict could be given.
fn verdict_sentence(c: &Call) -> String {
    let broken = broken_clients(c);
    let side = |accepts: bool| -> Vec<&str> {
        c.clients
            .iter()
            .filter(|(client, a)| *a == accepts && !broken.contains(client))
            .map(|(client, _)| client.name())
            .collect()
    };
    let (rejecting, accepting) = (side(false), side(true));
    let all: Vec<&str> = c.clients.iter().map(|(client, _)| client.name()).collect();
    let mut parts = Vec::new();
    if !broken.is_empty() {
        let names: Vec<&str> = broken.iter().map(|b| b.name()).collect();
        parts.push(format!("{} cannot use the output schema", list(&names)));
    }
    let plural = |names: &[&str], many: &str, one: &str| {
        if names.len() == 1 { one } else { many }.to_owned()
    };
    if broken.is_empty() && accepting.is_empty() && !rejecting.is_empty() {
        parts.push(format!(
            "every client rejects the result ({})",
            all.join(", ")
        ));
    } else if broken.is_empty() && rejecting.is_empty() && !accepting.is_empty() {
        parts.push(format!(
            "every client accepts the result ({})",
            all.join(", ")
        ));
    } else {
        if !rejecting.is_empty() {
            parts.push(format!(
                "{} {} the result",
                list(&rejecting),
                plural(&rejecting, "reject", "rejects")
            ));
        }
        if !accepting.is_empty() {
            parts.push(format!(
                "{} {} it",
                list(&accepting),
                plural(&accepting, "accept", "accepts")
            ));
        }
    }
    let judged: Vec<Client> = c.clients.iter().map(|(client, _)| *client).collect();
    let unjudged: Vec<&str> = CLIENTS
        .iter()
        .filter(|client| !judged.contains(client))
        // gemini-cli speaks no revision after 2025 ([`crate::audit::verdicts`]).
        .filter(|client| {
            **client != Client::GeminiCli
                || c.protocol
                    .as_deref()
                    .is_some_and(|p| p.starts_with("2025-"))
        })
        .map(|client| client.name())
        .collect();
    if let Some(why) = not_checked(c) {
        if parts.is_empty() {
            parts.push(format!("not checked: {why}"));
        } else if !unjudged.is_empty() {
            parts.push(format!("{} not checked: {why}", list(&unjudged)));
        }
    }
    if parts.is_empty() {
        parts.push("no client's verdict is known for this result".to_owned());
    }
    parts.join("; ")
}

/// Why the result was not checked against the output schema, in plain words.
fn not_checked(c: &Call) -> Option<String> {
    if c.target == Target::Schema {
        let reason = c
            .reason
            .as_deref()
            .unwrap_or("the audit record is malformed");
        return Some(
            reason
                .strip_suffix(crate::audit::decision::NOT_VALIDATED)
                .unwrap_or(reason)
                .to_owned(),
        );
    }
    if c.valid.is_none() {
        if let Some(e) = c.errors.iter().find(|e| e.keyword.is_empty()) {
            return Some(format!(
                "schema-lint {}",
                e.message.replacen(
                    "the output schema does not compile",
                    "cannot compile the output schema",
                    1
                )
            ));
        }
        if c.clients.is_empty() {
            return Some(
                "no `tools/list` in the capture lists the tool, so its output schema is unknown \
                 (`--tools` gives it)"
                    .to_owned(),
            );
        }
    }
    None
}

/// What a client's failure with the output schema is, in words.
fn effect_words(effect: Effect) -> &'static str {
    match effect {
        Effect::CompileError => "cannot compile it",
        Effect::UnresolvedReference => "cannot resolve a reference of it",
        Effect::LosesToolList => "loses every tool of the server",
        Effect::LosesTool => "loses this tool",
        _ => "fails on it",
    }
}

/// A line per finding of the lint that stops clients using the output schema: the finding,
/// then what each client does, in its own words, and how that is known.
fn schema_break_lines(c: &Call) -> Vec<String> {
    let mut findings: Vec<(&str, &str)> = Vec::new();
    for b in &c.schema_breaks {
        if !findings.contains(&(b.code, b.message.as_str())) {
            findings.push((b.code, b.message.as_str()));
        }
    }
    findings
        .into_iter()
        .map(|(code, message)| {
            let mut per_client: Vec<String> = Vec::new();
            let mut evidence: Vec<&str> = Vec::new();
            for client in broken_clients(c) {
                let of: Vec<_> = c
                    .schema_breaks
                    .iter()
                    .filter(|b| b.client == client && b.code == code && b.message == message)
                    .collect();
                if of.is_empty() {
                    continue;
                }
                let words: Vec<String> = of
                    .iter()
                    .map(|b| match (&b.detail, b.effect) {
                        (Some(d), Effect::CompileError | Effect::UnresolvedReference) => {
                            format!("{} (`{d}`)", effect_words(b.effect))
                        }
                        _ => effect_words(b.effect).to_owned(),
                    })
                    .collect();
                per_client.push(format!("{} {}", client.name(), words.join(" and ")));
                for b in of {
                    if !evidence.contains(&b.evidence) {
                        evidence.push(b.evidence);
                    }
                }
            }
            let name = crate::diagnostic::meta::find(code).map_or("", |m| m.name);
            format!(
                "error {code} {name}: {message}: {} ({})",
                per_client.join("; "),
                evidence.join(", ")
            )
        })
        .collect()
}

fn error_line(e: &crate::audit::CallError) -> String {
    if e.instance_pointer.is_empty() {
        e.message.clone()
    } else {
        format!("`{}`: {}", e.instance_pointer, e.message)
    }
}

/// Human output for `name` (the capture's path): every call, with each client's verdict on its
/// result and why, then the summary.
#[must_use]
pub fn human(audit: &Audit, name: &str, deny_legacy: bool) -> String {
    let mut out = String::new();
    for e in &audit.input_errors {
        let _ = writeln!(
            out,
            "{name}:{}:{}: not JSON: {}",
            e.line, e.column, e.message
        );
    }
    if let Some(why) = &audit.unusable {
        let _ = writeln!(out, "error: {name}: {why}");
        return out;
    }
    if !audit.skipped.is_empty() {
        let _ = writeln!(
            out,
            "note: {name}: {} skipped: {}",
            skipped_places(&audit.skipped, audit.form),
            describe(&audit.skipped, &[], audit.form)
        );
    }
    for c in &audit.calls {
        let _ = writeln!(out, "{}: {}", call_head(c), verdict_sentence(c));
        for line in schema_break_lines(c) {
            let _ = writeln!(out, "    {line}");
        }
        if c.valid == Some(false) {
            for e in &c.errors {
                let _ = writeln!(out, "    {}", error_line(e));
            }
        }
        if c.target == Target::LegacyWrapper {
            let _ = writeln!(
                out,
                "    the result is the legacy `{{\"result\": ...}}` wrapper of a `.meta({{ id }})` tool; what it wraps was checked{}",
                if deny_legacy {
                    ", and `--deny-legacy` refuses the wrapper"
                } else {
                    ""
                }
            );
        }
        if c.error_result {
            let _ = writeln!(
                out,
                "    an error result without `structuredContent`: the clients pass the tool's error on"
            );
        }
        for f in &c.findings {
            let _ = writeln!(
                out,
                "    {} {} {}: {}",
                f.rule.severity, f.rule.code, f.rule.name, f.message
            );
        }
    }
    for e in &audit.rpc_errors {
        let _ = writeln!(
            out,
            "call {} (line {}) {}: JSON-RPC error{}: {}",
            id_text(&e.id),
            e.line,
            e.tool.as_deref().unwrap_or("<no tool>"),
            e.code.map(|c| format!(" {c}")).unwrap_or_default(),
            e.message
        );
    }
    for u in &audit.unanswered {
        let _ = writeln!(
            out,
            "call {} (line {}) {}: {}",
            id_text(&u.id),
            u.line,
            u.tool.as_deref().unwrap_or("<no tool>"),
            u.why.as_deref().map_or_else(
                || "no response in the capture".to_owned(),
                |why| format!("no response: {why}")
            )
        );
    }
    out.push_str(&summary_line(audit, deny_legacy));
    out
}

/// `5 calls: 2 fail, 3 accepted by every client · 1 JSON-RPC error · 1 to a tool without
/// outputSchema`.
fn summary_line(audit: &Audit, deny_legacy: bool) -> String {
    let calls = audit.calls.len();
    let failing = audit.calls.iter().filter(|c| c.fails(deny_legacy)).count();
    let accepted = audit
        .calls
        .iter()
        .filter(|c| {
            !c.fails(deny_legacy) && !c.clients.is_empty() && c.clients.iter().all(|(_, a)| *a)
        })
        .count();
    let unchecked = calls - failing - accepted;
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if failing > 0 {
        parts.push(plural(failing, "fails", "fail"));
    }
    if accepted > 0 {
        parts.push(format!("{accepted} accepted by every client"));
    }
    if unchecked > 0 {
        parts.push(format!("{unchecked} not checked"));
    }
    let mut line = vec![if calls == 0 {
        "no call audited".to_owned()
    } else {
        format!("{}: {}", plural(calls, "call", "calls"), parts.join(", "))
    }];
    if !audit.rpc_errors.is_empty() {
        line.push(plural(
            audit.rpc_errors.len(),
            "JSON-RPC error",
            "JSON-RPC errors",
        ));
    }
    if !audit.unanswered.is_empty() {
        line.push(plural(
            audit.unanswered.len(),
            "call unanswered",
            "calls unanswered",
        ));
    }
    if audit.without_schema > 0 {
        line.push(format!(
            "{} without an outputSchema",
            plural(audit.without_schema, "call to a tool", "calls to tools")
        ));
    }
    format!("{}\n", line.join(" · "))
}

/// `{"version": 1, "calls": [...], "summary": {...}}`, plus `findings`, `rpc_errors`,
/// `input_errors`, the `tools/call` requests left `unanswered`, the `error_results` (counted
/// apart from `summary.missing`) and the `skipped` values that are not JSON-RPC messages. A
/// `schema` call has a `reason`, in words.
#[must_use]
pub fn json(audit: &Audit) -> String {
    let calls: Vec<Value> = audit
        .calls
        .iter()
        .map(|c| {
            let mut call = json!({
                "id": c.id,
                "line": c.line,
                "tool": c.tool,
                "protocol": c.protocol,
                "metaIdTool": c.meta_id_tool,
                "record": c.record,
                "target": c.target,
                "valid": c.valid,
                "isError": c.is_error,
                "errors": c.errors,
                // Each SDK client's verdict on the result; `{}` where the audit cannot tell.
                "clients": c.clients.iter().map(|(client, accepts)| {
                    (client.name().to_owned(), json!(if *accepts { "accepts" } else { "rejects" }))
                }).collect::<serde_json::Map<String, Value>>(),
                // The clients that cannot use the output schema, from its lint.
                "schema_breaks": c.schema_breaks.iter().map(|b| json!({
                    "client": b.client.name(), "effect": b.effect.name(), "code": b.code,
                    "message": b.message, "detail": b.detail, "evidence": b.evidence,
                })).collect::<Vec<_>>(),
                "findings": c.findings.iter().map(|f| {
                    let mut finding = json!({
                        "code": f.rule.code, "name": f.rule.name, "severity": f.rule.severity, "message": f.message,
                    });
                    // SL605 names the field (a pointer into the validated layer) and its format.
                    if let (Some(pointer), Some(format), Some(o)) = (&f.pointer, &f.format, finding.as_object_mut()) {
                        o.insert("pointer".to_owned(), json!(pointer));
                        o.insert("format".to_owned(), json!(format));
                    }
                    finding
                }).collect::<Vec<_>>(),
            });
            if let (Some(reason), Some(o)) = (&c.reason, call.as_object_mut()) {
                o.insert("reason".to_owned(), json!(reason));
            }
            call
        })
        .collect();
    let output = json!({
        "version": 1,
        "calls": calls,
        "rpc_errors": audit.rpc_errors.iter().map(|e| json!({
            "id": e.id, "line": e.line, "tool": e.tool, "code": e.code, "message": e.message,
        })).collect::<Vec<_>>(),
        "input_errors": audit.input_errors.iter().map(|e| json!({
            "line": e.line, "column": e.column, "message": e.message,
        })).collect::<Vec<_>>(),
        "unanswered": audit.unanswered.iter().map(|u| {
            let mut entry = json!({"id": u.id, "line": u.line, "tool": u.tool});
            if let (Some(why), Some(o)) = (&u.why, entry.as_object_mut()) {
                o.insert("why".to_owned(), json!(why));
            }
            entry
        }).collect::<Vec<_>>(),
        "summary": summary(audit),
        "without_output_schema": audit.without_schema,
        "error_results": audit.error_results(),
        "skipped": audit.skipped.iter().map(|s| json!({
            "line": s.line, "kind": s.kind, "keys": s.keys,
        })).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&output).unwrap_or_default();
    text.push('\n');
    text
}

/// The audit in `format` (any but its own human and JSON shapes), as diagnostics positioned in
/// `capture`, the file the audit read.
#[must_use]
pub fn render(
    audit: &Audit,
    capture: &SourceFile,
    format: OutputFormat,
    deny_legacy: bool,
) -> String {
    let mut found = diagnostics::diagnostics(audit, capture, deny_legacy);
    found.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let rules = diagnostics::rules();
    let findings = Findings {
        diagnostics: found.iter().collect(),
        sources: capture,
        rules: &rules,
    };
    super::render_findings(&findings, format, Style::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The audit of every capture of the CLI cases, in the human format.
    fn every_capture() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli");
        let mut out = Vec::new();
        for case in std::fs::read_dir(root).unwrap().flatten() {
            let name = case.file_name().to_string_lossy().into_owned();
            if !name.starts_with("audit") {
                continue;
            }
            for file in std::fs::read_dir(case.path().join("files"))
                .into_iter()
                .flatten()
                .flatten()
            {
                let Ok(text) = std::fs::read_to_string(file.path()) else {
                    continue;
                };
                let audit = crate::audit::audit(&text, &crate::audit::Options::default());
                for deny_legacy in [false, true] {
                    out.push((name.clone(), human(&audit, &name, deny_legacy)));
                }
            }
        }
        assert!(out.len() > 40, "{}", out.len());
        out
    }

    #[test]
    fn the_decisions_internal_names_stay_in_json() {
        for (case, text) in every_capture() {
            for internal in [
                "validate_root",
                "legacy_wrapper",
                "target `",
                "(isError)",
                " missing ",
                "schema 0",
            ] {
                assert!(!text.contains(internal), "{case}: `{internal}` in\n{text}");
            }
        }
    }

    #[test]
    fn every_call_is_named_with_each_clients_verdict() {
        for (case, text) in every_capture() {
            for line in text.lines().filter(|l| l.starts_with("call ")) {
                assert!(
                    [
                        "accept",
                        "reject",
                        "cannot use the output schema",
                        "not checked",
                        "JSON-RPC error",
                        "no response"
                    ]
                    .iter()
                    .any(|w| line.contains(w)),
                    "{case}: {line}"
                );
            }
        }
    }

    #[test]
    fn a_schema_a_client_cannot_compile_is_said_by_whom_and_fails() {
        let capture = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/cli/audit-schema-clients-cannot-compile/files/capture.jsonl"),
        )
        .unwrap();
        let audit = crate::audit::audit(&capture, &crate::audit::Options::default());
        assert!(audit.fails(false));
        let text = human(&audit, "capture.jsonl", false);
        assert!(
            text.contains("call 2 (line 6) get_weather: ts-sdk-v1 and ts-sdk-v2 cannot use the output schema; python-sdk, python-sdk-v1 and gemini-cli not checked: schema-lint cannot compile the output schema"),
            "{text}"
        );
        assert!(text.contains("error SL201 invalid-id-uri: `$id` `get_weather:output` is not a valid URI reference"), "{text}");
        assert!(
            text.contains("call 3 (line 8) get_time: every client accepts the result"),
            "{text}"
        );
    }
}

//! The audit's output: human (a line per failing call, then the summary) and JSON of its own
//! shape; every other format through [`super::render_findings`], from the audit's diagnostics in
//! the capture ([`crate::audit::diagnostics`]).

use super::{Findings, OutputFormat, Style};
use crate::audit::decision::Target;
use crate::audit::diagnostics::{self, failure};
use crate::audit::input::{describe, skipped_places};
use crate::audit::{summary, Audit, Call};
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
        "call {} (line {}) {}: {}{}",
        id_text(&c.id),
        c.line,
        c.tool.as_deref().unwrap_or("<no tool>"),
        c.target.name(),
        if c.is_error { " (isError)" } else { "" }
    )
}

/// `ts-sdk-v1 and ts-sdk-v2 reject it; python-sdk and python-sdk-v1 accept it`, for a call some
/// client rejects (a result every client accepts is not printed).
fn verdicts_line(c: &Call) -> Option<String> {
    let side = |accepts: bool| -> Vec<&str> {
        c.clients
            .iter()
            .filter(|(_, a)| *a == accepts)
            .map(|(client, _)| client.name())
            .collect()
    };
    let (rejecting, accepting) = (side(false), side(true));
    if rejecting.is_empty() {
        return None;
    }
    let list = |names: &[&str]| match names {
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let verb = |names: &[&str], plural: &str, single: &str| {
        if names.len() == 1 { single } else { plural }.to_owned()
    };
    if accepting.is_empty() {
        return Some(format!(
            "every client rejects the result ({})",
            rejecting.join(", ")
        ));
    }
    let mut line = format!(
        "{} {} the result",
        list(&rejecting),
        verb(&rejecting, "reject", "rejects")
    );
    {
        let _ = write!(
            line,
            "; {} {} it",
            list(&accepting),
            verb(&accepting, "accept", "accepts")
        );
    }
    Some(line)
}

/// Human output for `name` (the capture's path).
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
        if let Some(why) = failure(c, deny_legacy) {
            let _ = writeln!(out, "{}: {why}", call_head(c));
        }
        if let Some(verdicts) = verdicts_line(c) {
            let _ = writeln!(out, "{}: {verdicts}", call_head(c));
        }
        for f in &c.findings {
            let _ = writeln!(
                out,
                "{}: {} {} {}",
                call_head(c),
                f.rule.code,
                f.rule.name,
                f.message
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
            "call {} (line {}): no response in the capture",
            id_text(&u.id),
            u.line
        );
    }
    out.push_str(&summary_line(audit));
    out
}

/// `validate_root 120 (118 valid, 2 invalid) · legacy_wrapper 7 (7 valid) · missing 3 · schema 1`:
/// the two validated layers are never folded into one.
fn summary_line(audit: &Audit) -> String {
    let counts = |t: Target| {
        let crate::audit::Counts {
            calls,
            valid,
            invalid,
        } = audit.count(t);
        let mut parts = Vec::new();
        if valid > 0 {
            parts.push(format!("{valid} valid"));
        }
        if invalid > 0 {
            parts.push(format!("{invalid} invalid"));
        }
        if calls > valid + invalid {
            parts.push(format!("{} not validated", calls - valid - invalid));
        }
        if parts.is_empty() {
            format!("{} {calls}", t.name())
        } else {
            format!("{} {calls} ({})", t.name(), parts.join(", "))
        }
    };
    let mut line = vec![
        counts(Target::ValidateRoot),
        counts(Target::LegacyWrapper),
        format!("missing {}", audit.count(Target::Missing).calls),
        format!("schema {}", audit.count(Target::Schema).calls),
    ];
    if audit.error_results() > 0 {
        line.push(format!("error results {}", audit.error_results()));
    }
    if !audit.rpc_errors.is_empty() {
        line.push(format!("JSON-RPC errors {}", audit.rpc_errors.len()));
    }
    if audit.without_schema > 0 {
        line.push(format!("no outputSchema {}", audit.without_schema));
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
        "unanswered": audit.unanswered.iter().map(|u| json!({
            "id": u.id, "line": u.line,
        })).collect::<Vec<_>>(),
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

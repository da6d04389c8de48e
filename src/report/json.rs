//! Versioned JSON output: our own serde structs, with lines, columns, byte offsets and fixes.

use super::{position, Findings, LineCache, Summary};
use crate::diagnostic::breaks::Client;
use crate::diagnostic::fix::Applicability;
use crate::diagnostic::verdict::Reported;
use crate::diagnostic::{Diagnostic, Severity};
use serde::Serialize;
use serde_json::Value;

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct JsonSummary {
    #[serde(flatten)]
    counts: Summary,
    /// A command's counts of its own (`diff`'s changes by verdict); left out when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    changes: Option<Value>,
}

/// The `change` field of a diagnostic, if it has one.
pub(crate) type ChangeOf<'a> = &'a dyn Fn(&Diagnostic) -> Option<Value>;

/// What a command adds to the one diagnostics document: `diff` gives each contract change a
/// `change` field (its kind, verdict, places in OLD and NEW and counterexample) and the summary
/// its counts of changes. Every other field is rendered here, for every command alike.
#[derive(Default)]
pub(crate) struct Extras<'a> {
    /// The `change` field of a diagnostic, if it has one.
    pub change: Option<ChangeOf<'a>>,
    /// The summary's `changes`.
    pub changes: Option<Value>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'static str,
    name: &'static str,
    severity: Severity,
    path: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    /// Byte offsets of the span, for tools that prefer them.
    start: usize,
    end: usize,
    pointer: &'a str,
    message: &'a str,
    help: Option<&'a str>,
    /// The note, ending with the client note written from `breaks` when the finding has a
    /// class in the engine tier's model.
    note: Option<String>,
    /// The clients the finding's class names, each `{client, verdict, effect, depends_on_data,
    /// detail, evidence}` (`detail` in words that hold for this finding, left out where only
    /// another case's values would be quoted); empty when none is named.
    breaks: Vec<Reported>,
    /// The selected clients whose verdict made the severity: those that break for an error,
    /// those that warn for a warning; left out where the rule's own severity decided.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    decided_by: &'a [Client],
    fix: Option<JsonFix<'a>>,
    /// What changed from OLD to NEW, for `diff`'s contract changes; left out elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<Value>,
    /// The other places of the finding (the other tools of a grouped finding, the first of
    /// two duplicate keys ...); left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated<'a>>,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    path: &'a str,
    line: usize,
    column: usize,
    start: usize,
    end: usize,
    #[serde(skip_serializing_if = "str::is_empty")]
    pointer: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: Applicability,
    title: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    path: &'a str,
    start: usize,
    end: usize,
    content: &'a str,
}

pub(crate) fn render(findings: &Findings, extras: &Extras) -> String {
    let mut cache = LineCache::default();
    let diagnostics = findings
        .diagnostics
        .iter()
        .map(|d| {
            let pos = position(findings.sources, d, &mut cache);
            JsonDiagnostic {
                code: d.rule.code,
                name: d.rule.name,
                severity: d.severity,
                path: &findings.source(d.file).name,
                line: pos.start.line,
                column: pos.start.column,
                end_line: pos.end.line,
                end_column: pos.end.column,
                start: findings.source(d.file).disk_offset(d.span.start),
                end: findings.source(d.file).disk_offset(d.span.end),
                pointer: &d.pointer,
                message: &d.message,
                help: d.help.as_deref(),
                note: d.full_note(),
                breaks: d.reported_breaks(),
                decided_by: &d.decided_by,
                fix: d.fix.as_ref().map(|f| JsonFix {
                    applicability: f.applicability,
                    title: &f.title,
                    edits: f
                        .edits
                        .iter()
                        .map(|e| JsonEdit {
                            path: &findings.source(e.file).name,
                            start: findings.source(e.file).disk_offset(e.span.start),
                            end: findings.source(e.file).disk_offset(e.span.end),
                            content: &e.content,
                        })
                        .collect(),
                }),
                change: extras.change.and_then(|change| change(d)),
                related: d
                    .related
                    .iter()
                    .map(|l| {
                        let source = findings.source(l.file);
                        let at = cache
                            .get(findings.sources, l.file)
                            .line_col(&source.text, l.span.start);
                        JsonRelated {
                            path: &source.name,
                            line: at.line,
                            column: at.column,
                            start: source.disk_offset(l.span.start),
                            end: source.disk_offset(l.span.end),
                            pointer: &l.pointer,
                            message: &l.message,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let output = Output {
        version: 1,
        diagnostics,
        summary: JsonSummary {
            counts: Summary::of_findings(findings),
            changes: extras.changes.clone(),
        },
    };
    let mut text = serde_json::to_string_pretty(&output).unwrap_or_default();
    text.push('\n');
    text
}

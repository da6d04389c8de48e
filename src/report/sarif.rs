//! SARIF 2.1.0 for code-scanning tabs: the rules found, from our metadata and docs, one result per
//! finding with its region (1-based, columns in Unicode code points), and fixes as
//! `artifactChanges` with byte regions.

use super::{position, Findings, LineCache};
use crate::diagnostic::Severity;
use crate::rules::RuleMeta;
use serde_json::{json, Value};

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The "What it does" section of a rule's doc, as plain text.
fn full_description(meta: &RuleMeta) -> String {
    let Some(doc) = crate::rules::docs::doc_for(meta) else {
        return meta.summary.to_owned();
    };
    doc.split("## What it does")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .map_or_else(|| meta.summary.to_owned(), |s| s.trim().to_owned())
}

fn rule(meta: &RuleMeta) -> Value {
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": full_description(meta)},
        "helpUri": super::catalogue::docs_url(meta),
        "help": {
            "text": meta.summary,
            "markdown": crate::rules::docs::doc_for(meta).unwrap_or(meta.summary),
        },
        "defaultConfiguration": {"level": level(meta.severity), "enabled": meta.default_enabled},
        "properties": {"category": meta.category.to_string(), "fix": meta.fix.to_string()},
    })
}

/// A path as a relative URI reference: `/` separators, percent-encoded where needed.
fn uri(path: &str) -> String {
    crate::syntax::uri::percent_encode_path(path)
}

pub(crate) fn render(findings: &Findings) -> String {
    // The rules that have a result, as ESLint's and clippy's SARIF list them: each entry carries
    // the rule's whole doc, which code scanning shows beside its alerts and nothing reads for a
    // rule without one.
    let metas: Vec<&RuleMeta> = findings
        .rules
        .iter()
        .copied()
        .filter(|m| findings.diagnostics.iter().any(|d| d.rule.code == m.code))
        .collect();
    let mut cache = LineCache::default();
    let results: Vec<Value> = findings
        .diagnostics
        .iter()
        .map(|d| {
            let pos = position(findings.sources, d, &mut cache);
            let mut result = json!({
                "ruleId": d.rule.code,
                "ruleIndex": metas.iter().position(|m| m.code == d.rule.code).unwrap_or(0),
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(&findings.source(d.file).name)},
                        "region": {
                            "startLine": pos.start.line,
                            "startColumn": pos.start.column,
                            "endLine": pos.end.line,
                            "endColumn": pos.end.column,
                        }
                    },
                    "logicalLocations": [{"fullyQualifiedName": d.pointer, "kind": "element"}],
                }],
                "properties": {"breaks": d.reported_breaks(), "decided_by": d.decided_by},
            });
            if let Some(fix) = &d.fix {
                let mut by_file: std::collections::BTreeMap<crate::syntax::source::FileId, Vec<Value>> = std::collections::BTreeMap::new();
                for e in &fix.edits {
                    by_file.entry(e.file).or_default().push(json!({
                        "deletedRegion": {"byteOffset": findings.source(e.file).disk_offset(e.span.start), "byteLength": e.span.len()},
                        "insertedContent": {"text": e.content},
                    }));
                }
                let changes: Vec<Value> = by_file
                    .into_iter()
                    .map(|(f, replacements)| json!({
                        "artifactLocation": {"uri": uri(&findings.source(f).name)},
                        "replacements": replacements,
                    }))
                    .collect();
                result["fixes"] = json!([{
                    "description": {"text": fix.title},
                    "artifactChanges": changes,
                }]);
            }
            result
        })
        .collect();
    let log = json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "schema-lint",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": metas.iter().map(|m| rule(m)).collect::<Vec<_>>(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

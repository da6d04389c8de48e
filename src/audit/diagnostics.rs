//! An audit's results as ordinary [`Diagnostic`]s in the capture file, so that every output
//! format can render them: each finding (SL601 to SL605) and each failing call (SL600) at the
//! call's message (its line, and within it the value the finding is about where the audit knows
//! it), each line that is not JSON (SL100) at its line and column.

use super::decision::Target;
use super::{Audit, Call};
use crate::diagnostic::meta::{self, Category, FixAvailability, RuleMeta};
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax::document::{self, Node};
use crate::syntax::source::{FileId, LineIndex, SourceFile, Span};
use serde_json::Value;

/// A call that fails the audit's verdict: its validated layer does not match the output
/// schema, it was not validated (`missing`, `schema`), or `--deny-legacy` refuses its legacy
/// wrapper. Not a rule of the catalogue (`schema-lint rules` does not list it, `--select`
/// cannot name it): the audit's verdict, as a finding.
pub static CALL_FAILS: RuleMeta = RuleMeta {
    code: "SL600",
    name: "call-fails-audit",
    summary: "A captured call's result fails its output schema, or could not be validated",
    category: Category::Audit,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
    scope: meta::Scope {
        targets: &[
            meta::TargetSeverity {
                target: crate::diagnostic::target::Target::Mcp20250618,
                severity: Severity::Error,
            },
            meta::TargetSeverity {
                target: crate::diagnostic::target::Target::Mcp20251125,
                severity: Severity::Error,
            },
            meta::TargetSeverity {
                target: crate::diagnostic::target::Target::Mcp20260728,
                severity: Severity::Error,
            },
        ],
        roles: &[crate::schema::units::Role::OutputSchema],
        clients: &crate::diagnostic::breaks::Client::DEFAULT,
        grouped: false,
    },
};

/// The rules an audit's diagnostics name: SL100, SL600, and every audit rule.
#[must_use]
pub fn rules() -> Vec<&'static RuleMeta> {
    let mut out = vec![&meta::PARSE_ERROR, &CALL_FAILS];
    out.extend(
        meta::ALL
            .iter()
            .copied()
            .filter(|m| m.category == Category::Audit),
    );
    out
}

fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

/// Why `c` fails the audit's verdict, in the words of the human output; `None` when it does
/// not (its findings aside).
#[must_use]
pub fn failure(c: &Call, deny_legacy: bool) -> Option<String> {
    let failing = c.valid == Some(false)
        || (matches!(c.target, Target::Missing | Target::Schema) && !c.error_result)
        || (deny_legacy && c.target == Target::LegacyWrapper);
    if !failing && !c.schema_breaks.is_empty() {
        let mut clients: Vec<&str> = Vec::new();
        let mut found: Vec<String> = Vec::new();
        for b in &c.schema_breaks {
            if !clients.contains(&b.client.name()) {
                clients.push(b.client.name());
            }
            let finding = format!("{}: {}", b.code, b.message);
            if !found.contains(&finding) {
                found.push(finding);
            }
        }
        return Some(format!(
            "{} cannot use the output schema ({})",
            clients.join(", "),
            found.join("; ")
        ));
    }
    failing.then(|| match c.target {
        Target::Schema => c.reason.as_deref().map_or_else(
            || {
                format!(
                    "the audit record {} does not match the record schema",
                    c.record
                )
            },
            |reason| {
                let why = reason.strip_suffix(super::decision::NOT_VALIDATED);
                why.map_or_else(|| reason.to_owned(), |w| format!("not checked: {w}"))
            },
        ),
        Target::Missing => "no object `structuredContent`".to_owned(),
        Target::LegacyWrapper if c.valid != Some(false) => {
            "legacy `{\"result\": ...}` wrapper (--deny-legacy)".to_owned()
        }
        _ => c
            .errors
            .iter()
            .map(error_text)
            .collect::<Vec<_>>()
            .join("; "),
    })
}

fn error_text(e: &super::CallError) -> String {
    format!(
        "{}: {} [{}]",
        if e.instance_pointer.is_empty() {
            "(root)"
        } else {
            &e.instance_pointer
        },
        e.message,
        e.keyword
    )
}

/// The parsed message of one call, and where its text lies in the capture.
struct Place {
    /// The value holding the call's `result` (a response, or an explicit record's `body`
    /// under `/body`), with spans into `text` shifted by `offset`.
    node: Option<Node>,
    /// Pointer of the result (or body) within the node.
    result: String,
    /// The span of the call's line (its element, for a capture that is one array).
    line: Span,
    /// Where the node's text begins in the capture.
    offset: usize,
    /// The node's pointer in the capture's JSON: empty for a line of JSON Lines, the element's
    /// index in a capture that is one array.
    prefix: String,
}

impl Place {
    /// The span of `pointer` below the result, the nearest existing parent where the value is
    /// not found, the line where nothing is; and the pointer into the line's JSON.
    fn at(&self, pointer: &str) -> (Span, String) {
        let Some(node) = &self.node else {
            return (self.line, self.prefix.clone());
        };
        let mut full = format!("{}{pointer}", self.result);
        loop {
            if let Some(found) = node.pointer(&full) {
                let span = Span::new(found.span.start + self.offset, found.span.end + self.offset);
                return (span, format!("{}{full}", self.prefix));
            }
            match full.rfind('/') {
                Some(i) => full.truncate(i),
                None => return (self.line, self.prefix.clone()),
            }
        }
    }
}

/// The response to call `id` in `node`: the node itself, the message under a logger's
/// `message` or `data`, or an element of a batch; its pointer.
fn response(node: &Node, id: &Value, depth: usize) -> Option<String> {
    if node.get("result").is_some() && node.get("id").map(Node::to_value).as_ref() == Some(id) {
        return Some(String::new());
    }
    if depth == 0 {
        return None;
    }
    if let Some(items) = node.as_array() {
        return items
            .iter()
            .enumerate()
            .find_map(|(i, item)| response(item, id, depth - 1).map(|p| format!("/{i}{p}")));
    }
    super::input::PAYLOAD_KEYS
        .iter()
        .find_map(|key| response(node.get(key)?, id, depth - 1).map(|p| format!("/{key}{p}")))
}

/// Where the calls of a capture are.
struct Capture<'a> {
    text: &'a str,
    lines: LineIndex,
    array: bool,
    records: bool,
    /// A capture that is one array, parsed once.
    whole: std::cell::OnceCell<Option<Node>>,
}

impl Capture<'_> {
    fn line_span(&self, line: usize) -> Span {
        let start = self.lines.line_start(line).unwrap_or(self.text.len());
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        Span::new(start, end)
    }

    fn place(&self, c: &Call) -> Place {
        let prefix = if self.array {
            format!("/{}", c.line.wrapping_sub(1))
        } else {
            String::new()
        };
        let (node, line, offset) = if self.array {
            let text = self.text;
            let whole = self
                .whole
                .get_or_init(|| document::parse(text).ok())
                .as_ref();
            let element = whole
                .and_then(|w| w.as_array())
                .and_then(|items| items.get(c.line.wrapping_sub(1)));
            let span = element.map_or(Span::new(0, text.len()), |e| e.span);
            (element.cloned(), span, 0)
        } else {
            let span = self.line_span(c.line);
            let node = document::parse(&self.text[span.start..span.end]).ok();
            (node, span, span.start)
        };
        let result = node.as_ref().and_then(|n| {
            if self.records {
                n.get("body").map(|_| "/body".to_owned())
            } else {
                response(n, &c.id, 2).map(|p| format!("{p}/result"))
            }
        });
        match result {
            Some(result) => Place {
                node,
                result,
                line,
                offset,
                prefix,
            },
            None => Place {
                node: None,
                result: String::new(),
                line,
                offset,
                prefix,
            },
        }
    }
}

/// The pointers below the result where a value of the validated layer may be, most likely
/// first: a legacy wrapper's layer is inside `result`, unless the schema was the wrapper.
fn layer(c: &Call, pointer: &str) -> Vec<String> {
    let mut out = Vec::new();
    if c.target == Target::LegacyWrapper {
        out.push(format!("/structuredContent/result{pointer}"));
    }
    out.push(format!("/structuredContent{pointer}"));
    out
}

fn locate(place: &Place, candidates: &[String]) -> (Span, String) {
    let mut best: Option<(Span, String)> = None;
    for pointer in candidates {
        let (span, found) = place.at(pointer);
        if found == format!("{}{}{pointer}", place.prefix, place.result) {
            return (span, found);
        }
        if best.as_ref().is_none_or(|(_, b)| found.len() > b.len()) {
            best = Some((span, found));
        }
    }
    best.unwrap_or((place.line, String::new()))
}

fn head(c: &Call) -> String {
    format!(
        "call {} {}{}",
        id_text(&c.id),
        c.tool.as_deref().unwrap_or("<no tool>"),
        if c.is_error { " (an error result)" } else { "" }
    )
}

/// What a failing call's finding points at, in words (the decision's names stay in JSON).
fn label(c: &Call) -> &'static str {
    match c.target {
        Target::ValidateRoot => "the result",
        Target::LegacyWrapper => "the legacy wrapper",
        Target::Missing => "no object `structuredContent`",
        Target::Schema => "not checked",
    }
}

/// The audit's results as diagnostics in `capture` (the file the audit read), in the order of
/// the capture.
#[must_use]
pub fn diagnostics(audit: &Audit, capture: &SourceFile, deny_legacy: bool) -> Vec<Diagnostic> {
    let file: FileId = capture.id;
    let text = capture.text.as_str();
    let at = Capture {
        text,
        lines: LineIndex::new(text),
        array: audit.form.array,
        records: audit.form.records,
        whole: std::cell::OnceCell::new(),
    };
    let mut out = Vec::new();
    for e in &audit.input_errors {
        let start = at.line_span(e.line).start;
        let offset = (start + e.column.saturating_sub(1)).min(at.line_span(e.line).end);
        out.push(
            Diagnostic::new(
                &meta::PARSE_ERROR,
                file,
                Span::new(offset, offset),
                format!("Not JSON: {}", e.message),
            )
            .label("skipped"),
        );
    }
    for c in &audit.calls {
        let failure = failure(c, deny_legacy);
        if failure.is_none() && c.findings.is_empty() {
            continue;
        }
        let place = at.place(c);
        // A `missing` call's finding (no `structuredContent`, or not an object) says it all.
        let explained = c.target == Target::Missing
            && c.findings
                .iter()
                .any(|f| matches!(f.rule.code, "SL601" | "SL602" | "SL604"));
        if let Some(why) = failure.filter(|_| !explained) {
            if c.valid == Some(false) && !c.errors.is_empty() {
                for e in &c.errors {
                    let (span, pointer) = locate(&place, &layer(c, &e.instance_pointer));
                    out.push(
                        Diagnostic::new(
                            &CALL_FAILS,
                            file,
                            span,
                            format!("{}: {}", head(c), error_text(e)),
                        )
                        .label(label(c))
                        .pointer(pointer),
                    );
                }
            } else {
                let (span, pointer) = match c.target {
                    Target::Missing => locate(&place, &["/structuredContent".to_owned()]),
                    Target::LegacyWrapper => locate(&place, &layer(c, "")),
                    _ => place.at(""),
                };
                out.push(
                    Diagnostic::new(&CALL_FAILS, file, span, format!("{}: {why}", head(c)))
                        .label(label(c))
                        .pointer(pointer),
                );
            }
        }
        for f in &c.findings {
            let (span, pointer) = match (f.rule.code, &f.pointer) {
                (_, Some(p)) => locate(&place, &layer(c, p)),
                ("SL601", None) => place.at(""),
                _ => locate(&place, &["/structuredContent".to_owned()]),
            };
            out.push(
                Diagnostic::new(f.rule, file, span, f.message.clone())
                    .label(head(c))
                    .pointer(pointer),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{audit, Options};

    const CAPTURE: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"},"at":{"type":"string","format":"date-time"}}}}]}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"direction":"recv","message":{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"n":"two"}}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":3,"result":{"content":[]}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":{"at":"2026-12-01T11:00:00"}}}
"#;

    fn found(text: &str) -> Vec<(&'static str, String, String)> {
        let file = SourceFile::new(FileId(0), "c.jsonl".into(), None, text, true);
        let audit = audit(text, &Options::default());
        diagnostics(&audit, &file, false)
            .into_iter()
            .map(|d| {
                (
                    d.rule.code,
                    file.text[d.span.start..d.span.end].to_owned(),
                    d.pointer,
                )
            })
            .collect()
    }

    #[test]
    fn findings_sit_on_the_value_they_are_about() {
        assert_eq!(
            found(CAPTURE),
            [
                (
                    "SL600",
                    "\"two\"".to_owned(),
                    "/message/result/structuredContent/n".to_owned()
                ),
                ("SL601", "{\"content\":[]}".to_owned(), "/result".to_owned()),
                (
                    "SL605",
                    "\"2026-12-01T11:00:00\"".to_owned(),
                    "/result/structuredContent/at".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn a_capture_that_is_one_array_points_into_its_elements() {
        let lines: Vec<&str> = CAPTURE.lines().collect();
        let array = format!("[\n{}\n]\n", lines.join(",\n"));
        let found = found(&array);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].1, "\"two\"");
        assert_eq!(found[2].2, "/7/result/structuredContent/at");
    }

    #[test]
    fn a_line_that_is_not_json_is_sl100_at_its_column() {
        let text = format!("{CAPTURE}{{\"jsonrpc\": oops}}\n");
        let file = SourceFile::new(FileId(0), "c.jsonl".into(), None, &text, true);
        let audit = audit(&text, &Options::default());
        let d = diagnostics(&audit, &file, false);
        assert_eq!(d[0].rule.code, "SL100");
        assert_eq!(&text[d[0].span.start..], "oops}\n");
    }
}

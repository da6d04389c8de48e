//! `schema-lint diff`'s output: every format through [`super::render_findings`], from the
//! comparison's findings as diagnostics placed in NEW (in OLD for what NEW no longer has), each
//! breaking one with its counterexample in its note, and the lint findings new in NEW; in JSON
//! the one diagnostics document every command prints, each contract change with a `change`
//! field that carries its counterexample as JSON; and the summary line (`3 breaking, 1 warning,
//! 2 compatible changes in 12 tools`).

use super::{Findings, OutputFormat, Sources, Style};
use crate::diagnostic::meta::{Category, FixAvailability, RuleMeta, Scope};
use crate::diagnostic::{Diagnostic, Severity};
use crate::schema::compat::{Finding, Side, Verdict};
use crate::syntax::document::{self, Node};
use crate::syntax::source::{FileId, LineIndex, SourceFile, Span};
use serde_json::{json, Value};
use std::fmt::Write as _;

const fn meta(
    code: &'static str,
    name: &'static str,
    summary: &'static str,
    severity: Severity,
) -> RuleMeta {
    RuleMeta {
        code,
        name,
        summary,
        category: Category::Diff,
        severity,
        fix: FixAvailability::None,
        default_enabled: true,
        scope: Scope {
            targets: &[],
            roles: &[],
            clients: &[],
            grouped: false,
        },
    }
}

/// A change that breaks, proven by a counterexample. Not rules of the catalogue (`schema-lint
/// rules` does not list them, `--select` cannot name them): `diff`'s verdicts, as findings.
pub static BREAKING: RuleMeta = meta(
    "SL800",
    "breaking-change",
    "A change from OLD to NEW that breaks, with a counterexample",
    Severity::Error,
);
/// A change that may break, which no counterexample shows and nothing proves compatible.
pub static UNPROVEN: RuleMeta = meta(
    "SL801",
    "cannot-prove-compatible",
    "A change that may break: no counterexample found, no proof of compatibility",
    Severity::Warning,
);
/// A change worth a look that no schema decides (a tool's description, an output schema added).
pub static CHANGED: RuleMeta = meta(
    "SL802",
    "contract-changed",
    "A change of a tool that models or clients notice",
    Severity::Warning,
);
/// A change that cannot break, or an addition.
pub static COMPATIBLE: RuleMeta = meta(
    "SL803",
    "compatible-change",
    "A change that cannot break, or an addition",
    Severity::Info,
);

/// The rules a diff's diagnostics name.
#[must_use]
pub fn rules() -> Vec<&'static RuleMeta> {
    let mut out = vec![&BREAKING, &UNPROVEN, &CHANGED, &COMPATIBLE];
    out.extend(crate::diagnostic::meta::ALL.iter().copied());
    out
}

/// Two versions of one file compared (or a file only one side has).
#[derive(Debug)]
pub struct Pair {
    /// OLD's file, if OLD has it.
    pub old: Option<FileId>,
    /// NEW's file, if NEW has it.
    pub new: Option<FileId>,
    /// What changed.
    pub findings: Vec<Finding>,
    /// For `tools/list` documents: how many tools the two versions name together.
    pub tools: Option<usize>,
    /// Lint findings in NEW that OLD does not have (the same rule, tool and message), placed in
    /// NEW: what the new version introduces for the hosts, providers and SDK clients linted for.
    pub introduced: Vec<Diagnostic>,
}

/// A whole comparison: the files read (by id) and the pairs.
#[derive(Debug, Default)]
pub struct Diff {
    /// Every file read, OLD's and NEW's, `files[id.0]` the file with id `id`.
    pub files: Vec<SourceFile>,
    /// The pairs compared, in order.
    pub pairs: Vec<Pair>,
}

impl Sources for Diff {
    fn source(&self, id: FileId) -> &SourceFile {
        &self.files[id.0]
    }

    fn linted(&self) -> Vec<FileId> {
        self.pairs.iter().filter_map(|p| p.new.or(p.old)).collect()
    }
}

fn verdict_meta(v: Verdict) -> &'static RuleMeta {
    match v {
        Verdict::Breaking => &BREAKING,
        Verdict::Unproven => &UNPROVEN,
        Verdict::Warning => &CHANGED,
        Verdict::Compatible => &COMPATIBLE,
    }
}

/// The span of the value at `pointer` in `root`, or of its nearest ancestor there.
fn span_of(root: Option<&Node>, pointer: &str) -> Span {
    let Some(root) = root else {
        return Span::new(0, 0);
    };
    let mut pointer = pointer;
    loop {
        if let Some(node) = root.pointer(pointer) {
            return node.span;
        }
        match pointer.rfind('/') {
            Some(i) => pointer = &pointer[..i],
            None => return root.span,
        }
    }
}

/// What a finding is about, in its message: the tool and its schema.
fn headline(f: &Finding) -> String {
    match (&f.tool, f.schema) {
        (Some(tool), Some(schema)) if f.message.starts_with(&format!("`{schema}`")) => {
            format!("tool `{tool}`: {}", f.message)
        }
        (Some(tool), Some(schema)) => format!("tool `{tool}` {schema}: {}", f.message),
        (Some(_), None) | (None, _) => f.message.clone(),
    }
}

fn side_name(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::Old => ("OLD", "NEW"),
        Side::New => ("NEW", "OLD"),
    }
}

/// One finding of a comparison: its diagnostic and, for a contract change, its `change` field
/// in JSON.
struct Entry {
    diagnostic: Diagnostic,
    change: Option<Value>,
}

/// Line indexes of the files of a pair, built once each, when a place needs one.
#[derive(Default)]
struct Lines {
    indexes: std::collections::HashMap<FileId, LineIndex>,
}

impl Lines {
    /// `{path, pointer, line, column}` of the value at `pointer` in `id` (or of its nearest
    /// ancestor there: a keyword OLD lacks), `null` when the side is not there.
    fn place(
        &mut self,
        diff: &Diff,
        id: Option<FileId>,
        root: Option<&Node>,
        pointer: Option<&String>,
    ) -> Value {
        let (Some(id), Some(pointer)) = (id, pointer) else {
            return Value::Null;
        };
        let file = &diff.files[id.0];
        let mut pointer = pointer.as_str();
        while let (Some(r), Some(cut)) = (root, pointer.rfind('/')) {
            if r.pointer(pointer).is_some() {
                break;
            }
            pointer = &pointer[..cut];
        }
        let span = span_of(root, pointer);
        let index = self
            .indexes
            .entry(id)
            .or_insert_with(|| LineIndex::new(&file.text));
        let at = index.line_col(&file.text, span.start);
        json!({"path": file.name, "pointer": pointer, "line": at.line, "column": at.column})
    }
}

/// The comparison's findings in output order, pair by pair (each pair's sorted by place):
/// the contract changes placed in NEW (in OLD for what NEW no longer has), each breaking one
/// with its counterexample in its note, and the lint findings new in NEW. With `inline`, each
/// counterexample is in its finding's message too (for the formats of one line per finding,
/// which show no note); with `changes`, each contract change carries its `change` field.
fn entries(diff: &Diff, inline: bool, changes: bool) -> Vec<Entry> {
    let mut out = Vec::new();
    for pair in &diff.pairs {
        let parse = |id: Option<FileId>| {
            id.and_then(|id| {
                let file = &diff.files[id.0];
                document::parse_as(&file.text, file.is_jsonc()).ok()
            })
        };
        let (old_root, new_root) = (parse(pair.old), parse(pair.new));
        let mut lines = Lines::default();
        let mut found = Vec::new();
        for f in &pair.findings {
            let (file, span, pointer) = match (&f.new_pointer, pair.new, &f.old_pointer, pair.old) {
                (Some(p), Some(id), _, _) => (id, span_of(new_root.as_ref(), p), p.clone()),
                (_, _, Some(p), Some(id)) => (id, span_of(old_root.as_ref(), p), p.clone()),
                _ => match pair.new.or(pair.old) {
                    Some(id) => (id, Span::new(0, 0), String::new()),
                    None => continue,
                },
            };
            let mut message = headline(f);
            if let (true, Some(c)) = (inline, &f.counterexample) {
                let (valid, invalid) = side_name(c.valid_under);
                let _ = write!(
                    message,
                    " (counterexample, valid under {valid} and rejected by {invalid}: {})",
                    c.instance
                );
            }
            let mut d = Diagnostic::new(verdict_meta(f.verdict), file, span, message)
                .label(f.kind)
                .pointer(pointer);
            if let (Some(p), Some(id), true) = (&f.old_pointer, pair.old, Some(file) != pair.old) {
                d = d.related(id, span_of(old_root.as_ref(), p), "in OLD");
            }
            if let Some(c) = &f.counterexample {
                let (valid, invalid) = side_name(c.valid_under);
                let at = f.instance_pointer.as_deref().filter(|p| !p.is_empty());
                d = d.note(format!(
                    "counterexample, valid under {valid} and rejected by {invalid}{}: {}",
                    at.map(|p| format!(" (at `{p}`)")).unwrap_or_default(),
                    c.instance
                ));
            }
            let change = changes.then(|| {
                json!({
                    "kind": f.kind,
                    "verdict": f.verdict,
                    "message": f.message,
                    "tool": f.tool,
                    "schema": f.schema,
                    "old": lines.place(diff, pair.old, old_root.as_ref(), f.old_pointer.as_ref()),
                    "new": lines.place(diff, pair.new, new_root.as_ref(), f.new_pointer.as_ref()),
                    "instance_pointer": f.instance_pointer,
                    "counterexample": f.counterexample,
                })
            });
            found.push(Entry {
                diagnostic: d,
                change,
            });
        }
        found.extend(pair.introduced.iter().map(|d| Entry {
            diagnostic: d.clone(),
            change: None,
        }));
        found.sort_by(|a, b| a.diagnostic.sort_key().cmp(&b.diagnostic.sort_key()));
        out.extend(found);
    }
    out
}

/// The comparison as diagnostics, in output order (see [`entries`]).
#[must_use]
pub fn diagnostics(diff: &Diff, inline: bool) -> Vec<Diagnostic> {
    entries(diff, inline, false)
        .into_iter()
        .map(|e| e.diagnostic)
        .collect()
}

/// Whether a lint finding new in NEW is a file NEW has that cannot be read or parsed (SL100):
/// bad input, as `check` exits 2 on it.
#[must_use]
pub fn introduces_load_errors(diff: &Diff) -> bool {
    diff.pairs
        .iter()
        .flat_map(|p| &p.introduced)
        .any(|d| d.rule.code == crate::diagnostic::meta::PARSE_ERROR.code)
}

/// `3 breaking, 1 warning, 2 compatible changes in 12 tools`.
#[must_use]
pub fn summary(diff: &Diff) -> String {
    let count = |v: Verdict| {
        diff.pairs
            .iter()
            .flat_map(|p| &p.findings)
            .filter(|f| f.verdict == v)
            .count()
    };
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let warnings = count(Verdict::Unproven) + count(Verdict::Warning);
    let tools: Option<usize> = diff
        .pairs
        .iter()
        .filter_map(|p| p.tools)
        .reduce(|a, b| a + b);
    let schemas = diff.pairs.iter().filter(|p| p.tools.is_none()).count();
    let mut places = Vec::new();
    if let Some(n) = tools.filter(|n| *n > 0) {
        places.push(plural(n, "tool", "tools"));
    }
    if schemas > 0 || places.is_empty() {
        places.push(plural(schemas, "schema", "schemas"));
    }
    let introduced: usize = diff.pairs.iter().map(|p| p.introduced.len()).sum();
    let introduced = if introduced > 0 {
        format!(
            "; {} new in NEW",
            plural(introduced, "lint finding", "lint findings")
        )
    } else {
        String::new()
    };
    format!(
        "{}, {}, {} in {}{introduced}\n",
        plural(count(Verdict::Breaking), "breaking", "breaking"),
        plural(warnings, "warning", "warnings"),
        plural(
            count(Verdict::Compatible),
            "compatible change",
            "compatible changes"
        ),
        places.join(" and ")
    )
}

/// The counts of `summary.changes` in JSON: changes by verdict, the tools the `tools/list`
/// documents name together, and the files compared.
fn changes(diff: &Diff) -> Value {
    let count = |v: Verdict| {
        diff.pairs
            .iter()
            .flat_map(|p| &p.findings)
            .filter(|f| f.verdict == v)
            .count()
    };
    json!({
        "breaking": count(Verdict::Breaking),
        "unproven": count(Verdict::Unproven),
        "warning": count(Verdict::Warning),
        "compatible": count(Verdict::Compatible),
        "tools": diff.pairs.iter().filter_map(|p| p.tools).sum::<usize>(),
        "files": diff.pairs.len(),
        "introduced": diff.pairs.iter().map(|p| p.introduced.len()).sum::<usize>(),
    })
}

/// The comparison in `format`: the one diagnostics document of every command (in JSON, as
/// `check` prints it, each contract change with its `change` field and the summary with the
/// counts of changes); the human format closes with [`summary`].
#[must_use]
pub fn render(diff: &Diff, format: OutputFormat, style: Style) -> String {
    let json = format == OutputFormat::Json;
    let found = entries(
        diff,
        !matches!(format, OutputFormat::Human | OutputFormat::Json),
        json,
    );
    let by_address: std::collections::HashMap<usize, &Value> = found
        .iter()
        .filter_map(|e| {
            Some((
                std::ptr::from_ref(&e.diagnostic) as usize,
                e.change.as_ref()?,
            ))
        })
        .collect();
    let change = |d: &Diagnostic| {
        by_address
            .get(&(std::ptr::from_ref(d) as usize))
            .map(|v| (*v).clone())
    };
    let rules = rules();
    let findings = Findings {
        diagnostics: found.iter().map(|e| &e.diagnostic).collect(),
        sources: diff,
        rules: &rules,
    };
    let style = Style {
        summary: false,
        ..style
    };
    let extras = super::json::Extras {
        change: json.then_some(&change as super::json::ChangeOf),
        changes: json.then(|| changes(diff)),
    };
    let mut out = super::render_findings_with(&findings, format, style, &extras);
    if format == OutputFormat::Human && !style.quiet {
        out.push_str(&summary(diff));
    }
    out
}

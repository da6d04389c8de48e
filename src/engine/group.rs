//! One finding per root cause in a `tools/list` document. The findings of a rule whose doc says
//! `Grouped: listing` that share their class, severity and schema (`inputSchema` or
//! `outputSchema`) in two tools or more become one: a server that stamps a dialect on every
//! schema, or wraps every result, is one cause, reported once, at its first tool, with every other
//! tool as a related place and their count in the message.

use crate::diagnostic::fix::Fix;
use crate::diagnostic::{Diagnostic, Label, Severity};

/// How many tool names the message of a grouped finding lists before `and N more`.
const NAMED: usize = 5;

/// What makes two findings one cause.
#[derive(PartialEq, Eq)]
struct Cause {
    code: &'static str,
    class: Option<&'static str>,
    severity: Severity,
    schema: &'static str,
}

fn cause(d: &Diagnostic) -> Option<Cause> {
    let tool = d.tool.as_ref()?;
    d.rule.scope.grouped.then_some(Cause {
        code: d.rule.code,
        class: d.class,
        severity: d.severity,
        schema: tool.schema,
    })
}

/// Groups the findings of `out[from..]` (one file's) by cause, in place, keeping the order of
/// first occurrences, then names in each message the tool (or tools) it is in.
pub(super) fn by_cause(out: &mut Vec<Diagnostic>, from: usize) {
    group(out, from);
    for d in &mut out[from..] {
        if let Some(tool) = &d.tool {
            d.message = format!("{} (tool `{}`, {})", d.message, tool.name, tool.schema);
        }
    }
}

fn group(out: &mut Vec<Diagnostic>, from: usize) {
    let found: Vec<Diagnostic> = out.drain(from..).collect();
    let mut groups: Vec<Vec<Diagnostic>> = Vec::new();
    for d in found {
        let key = cause(&d);
        let same = key.as_ref().and_then(|key| {
            groups
                .iter_mut()
                .find(|g| cause(&g[0]).as_ref() == Some(key) && fixes_join(&g[0], &d))
        });
        match same {
            Some(group) => group.push(d),
            None => groups.push(vec![d]),
        }
    }
    for group in groups {
        if tools(&group).len() < 2 {
            out.extend(group);
        } else {
            out.push(merged(group));
        }
    }
}

/// The names of the tools of `group`, each once, in order.
fn tools(group: &[Diagnostic]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in group
        .iter()
        .filter_map(|d| d.tool.as_ref().map(|t| &t.name))
    {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// Whether one fix can stand for both: neither has one, or both have the same kind of fix (whose
/// edits, in different tools, do not overlap).
fn fixes_join(a: &Diagnostic, b: &Diagnostic) -> bool {
    match (&a.fix, &b.fix) {
        (None, None) => true,
        (Some(x), Some(y)) => x.title == y.title && x.applicability == y.applicability,
        _ => false,
    }
}

/// The one finding of a group of two or more.
fn merged(group: Vec<Diagnostic>) -> Diagnostic {
    let names = tools(&group);
    let mut iter = group.into_iter();
    let mut first = iter.next().expect("a group has a first finding");
    let rest: Vec<Diagnostic> = iter.collect();
    let tool = first.tool.take().expect("grouped findings are in tools");
    let same_message = rest.iter().all(|d| d.message == first.message);
    let base = if same_message {
        first.message.clone()
    } else {
        first.rule.summary.to_owned()
    };
    let shown: Vec<String> = names.iter().take(NAMED).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(NAMED);
    let listed = if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    };
    first.message = format!(
        "{base} (in {} tools' {}: {listed})",
        names.len(),
        tool.schema
    );
    if !first.label.is_empty() {
        first.label = format!("{} (tool `{}`)", first.label, tool.name);
    }
    let mut fix: Option<Fix> = first.fix.take();
    for d in rest {
        let name = d.tool.as_ref().map_or("", |t| t.name.as_str());
        let message = if d.label.is_empty() || !same_message {
            format!("tool `{name}`: {}", d.message)
        } else {
            format!("tool `{name}`: {}", d.label)
        };
        first.related.push(Label {
            file: d.file,
            span: d.span,
            message,
            pointer: d.pointer.clone(),
        });
        if let (Some(fix), Some(other)) = (fix.as_mut(), d.fix) {
            fix.edits.extend(other.edits);
            fix.moves.extend(other.moves);
        }
    }
    first.fix = fix;
    first
}

#[cfg(test)]
mod tests {
    use crate::engine::lint_source;
    use crate::settings::Settings;
    use crate::syntax::source::{FileId, SourceFile};

    fn listing(tools: usize) -> String {
        let tools: Vec<String> = (0..tools)
            .map(|i| {
                format!(
                    r#"{{"name": "t{i}", "inputSchema": {{"type": "object"}},
                      "outputSchema": {{"$schema": "http://json-schema.org/draft-07/schema#",
                        "type": "object", "properties": {{"result": {{"type": "integer"}}}},
                        "required": ["result"]}}}}"#
                )
            })
            .collect();
        format!(r#"{{"tools": [{}]}}"#, tools.join(",\n"))
    }

    #[test]
    fn one_cause_in_many_tools_is_one_finding_naming_them() {
        let text = listing(8);
        let file = SourceFile::new(FileId(0), "tools.json".into(), None, &text, true);
        let linted = lint_source(file, &Settings::default(), true);
        let stamps: Vec<_> = linted
            .diagnostics
            .iter()
            .filter(|d| d.rule.code == "SL402")
            .collect();
        assert_eq!(stamps.len(), 1, "{:#?}", linted.diagnostics);
        let d = stamps[0];
        assert!(
            d.message
                .ends_with("(in 8 tools' outputSchema: `t0`, `t1`, `t2`, `t3`, `t4` and 3 more)"),
            "{}",
            d.message
        );
        assert_eq!(d.related.len(), 7);
        assert!(
            d.related[0].message.starts_with("tool `t1`"),
            "{:?}",
            d.related
        );
        assert_eq!(d.related[6].pointer, "/tools/7/outputSchema/$schema");
        // One tool: as before.
        let text = listing(1);
        let file = SourceFile::new(FileId(0), "tools.json".into(), None, &text, true);
        let linted = lint_source(file, &Settings::default(), true);
        let d = linted
            .diagnostics
            .iter()
            .find(|d| d.rule.code == "SL402")
            .unwrap();
        assert!(
            d.message.ends_with("(tool `t0`, outputSchema)"),
            "{}",
            d.message
        );
        assert!(d.related.is_empty());
    }
}

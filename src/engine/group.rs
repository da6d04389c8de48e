//! One finding per root cause in a `tools/list` document. The findings of a rule whose doc says
//! `Grouped: listing` that share their class, severity and schema (`inputSchema` or
//! `outputSchema`) in two tools or more become one: a server that stamps a dialect on every
//! schema, or wraps every result, is one cause, reported once, at its first tool, with every other
//! tool as a related place and their count in the message.

use crate::diagnostic::fix::{Applicability, Fix};
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
/// first occurrences, then names in each message the tool (or tools) it is in. `live`: the
/// findings are of what a running server advertised, whose fixes are dropped after this (no help
/// then says what a fix does in the file).
pub(super) fn by_cause(out: &mut Vec<Diagnostic>, from: usize, live: bool) {
    group(out, from, live);
    for d in &mut out[from..] {
        if let Some(tool) = &d.tool {
            d.message = format!("{} (tool `{}`, {})", d.message, tool.name, tool.schema);
        }
    }
}

fn group(out: &mut Vec<Diagnostic>, from: usize, live: bool) {
    let found: Vec<Diagnostic> = out.drain(from..).collect();
    let mut groups: Vec<Vec<Diagnostic>> = Vec::new();
    for d in found {
        let key = cause(&d);
        let same = key.as_ref().and_then(|key| {
            groups
                .iter_mut()
                .find(|g| cause(&g[0]).as_ref() == Some(key) && fixes_join(g, &d))
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
            out.push(merged(group, live));
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

/// Whether `d` joins `group`: one fix can stand for all of them when every fix among them is the
/// same kind of fix (whose edits, in different tools, do not overlap). Findings without a fix
/// join those with one when their messages are the same (the same draft stamped in every tool):
/// the merged finding says which tools its fix covers.
fn fixes_join(group: &[Diagnostic], d: &Diagnostic) -> bool {
    let fixes = || group.iter().filter_map(|g| g.fix.as_ref());
    let mixed = match &d.fix {
        Some(y) => {
            if !fixes().all(|x| x.title == y.title && x.applicability == y.applicability) {
                return false;
            }
            // Two findings of one tool whose fixes edit the same bytes (each optional key of an
            // object lists them all in `required`) would make one fix that cannot be applied:
            // the second goes to a group of its own, and the fix loop takes one, then re-lints.
            if fixes().any(|x| overlap(x, y)) {
                return false;
            }
            group.iter().any(|g| g.fix.is_none())
        }
        None => fixes().next().is_some(),
    };
    // With and without a fix, the findings are one cause only when they say the same.
    !mixed || group.iter().all(|g| g.message == d.message)
}

/// Whether two fixes edit the same bytes of a file, or insert at the same place.
fn overlap(x: &Fix, y: &Fix) -> bool {
    x.edits.iter().any(|a| {
        y.edits.iter().any(|b| {
            a.file == b.file
                && (a.span.start < b.span.end && b.span.start < a.span.end
                    || a.span.start == b.span.start)
        })
    })
}

/// The one finding of a group of two or more.
fn merged(group: Vec<Diagnostic>, live: bool) -> Diagnostic {
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
    let fixed: Vec<String> = std::iter::once((&tool.name, first.fix.is_some()))
        .chain(rest.iter().map(|d| {
            (
                d.tool.as_ref().map_or(&tool.name, |t| &t.name),
                d.fix.is_some(),
            )
        }))
        .filter(|(_, fix)| *fix)
        .map(|(name, _)| format!("`{name}`"))
        .collect();
    let partial = !fixed.is_empty() && fixed.len() < 1 + rest.len();
    if partial {
        // The help of a finding without the fix speaks for the cause; the fix's own help
        // (`--unsafe-fixes` declares ...) holds for the tools it covers, named here.
        if first.fix.is_some() {
            if let Some(unfixed) = rest.iter().find(|d| d.fix.is_none()) {
                first.help.clone_from(&unfixed.help);
            }
        }
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
        match (fix.as_mut(), d.fix) {
            (Some(fix), Some(other)) => {
                fix.edits.extend(other.edits);
                fix.moves.extend(other.moves);
            }
            (None, Some(other)) => fix = Some(other),
            (_, None) => {}
        }
    }
    if partial && !live {
        if let Some(fix) = &fix {
            let how = match fix.applicability {
                Applicability::Safe => "`--fix`",
                Applicability::Unsafe => "`--unsafe-fixes`",
                Applicability::DisplayOnly => "the suggestion",
            };
            let help = first.help.take().unwrap_or_default();
            first.help = Some(format!(
                "{}. In this file, {how} applies \"{}\" to {} of the {} tools ({}): the others' \
                 schemas cannot take it",
                help.trim_end_matches('.'),
                fix.title,
                fixed.len(),
                names.len(),
                fixed.join(", ")
            ));
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

    /// The one SL402 finding of a listing.
    fn the_stamp(text: &str) -> crate::diagnostic::Diagnostic {
        let file = SourceFile::new(FileId(0), "tools.json".into(), None, text, true);
        let linted = lint_source(file, &Settings::default(), true);
        let mut stamps: Vec<_> = linted
            .diagnostics
            .iter()
            .filter(|d| d.rule.code == "SL402")
            .cloned()
            .collect();
        assert_eq!(stamps.len(), 1, "{:#?}", linted.diagnostics);
        stamps.remove(0)
    }

    #[test]
    fn one_cause_in_many_tools_is_one_finding_naming_them() {
        let text = listing(8);
        let d = the_stamp(&text);
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

    #[test]
    fn a_cause_whose_fix_fits_some_tools_is_one_finding_with_that_fix() {
        // Three tools stamped draft-07; the second holds a tuple with `additionalItems`, which
        // 2020-12 spells otherwise and an unstamped schema cannot say to every engine, so only
        // the first and third can drop the stamp.
        let text = listing(3);
        let tools: Vec<&str> = text.split("{\"name\"").collect();
        let t1 = tools[2].replacen(
            "\"required\": [\"result\"]",
            "\"required\": [\"result\"], \"items\": [{\"type\": \"integer\"}], \"additionalItems\": false",
            1,
        );
        let text = format!(
            "{}{{\"name\"{}{{\"name\"{t1}{{\"name\"{}",
            tools[0], tools[1], tools[3]
        );
        let d = the_stamp(&text);
        assert!(
            d.message
                .ends_with("(in 3 tools' outputSchema: `t0`, `t1`, `t2`)"),
            "{}",
            d.message
        );
        let fix = d
            .fix
            .as_ref()
            .expect("the fix of the tools that can take it");
        assert_eq!(fix.edits.len(), 2);
        let help = d.help.as_deref().unwrap_or_default();
        assert!(
            help.starts_with("Generate 2020-12 schemas in the server"),
            "{help}"
        );
        assert!(
            help.ends_with("applies \"Remove `$schema` (2020-12, MCP's default)\" to 2 of the 3 tools (`t0`, `t2`): the others' schemas cannot take it"),
            "{help}"
        );
    }
}

//! Dispatch: runs the selected rules over one file and each schema in it, applies the target's
//! severities, names the tool in findings of a `tools/list` document, and drops what
//! `x-schema-lint-ignore` and `per-file-ignores` suppress.

use crate::diagnostic::{breaks, Diagnostic, Severity};
use crate::rules::{self, FileContext, FileMemo, RunView, UnitContext};
use crate::schema::units::{units, FileKind, Role};
use crate::schema::walk::walk;
use crate::settings::select::{matches, suppressions};
use crate::settings::Settings;
use crate::syntax::document::{is_within, Node};
use crate::syntax::source::SourceFile;

pub(super) fn lint_document(
    view: &RunView<'_>,
    file: &SourceFile,
    root: &Node,
    kind: FileKind,
    settings: &Settings,
    out: &mut Vec<Diagnostic>,
) {
    let rules: Vec<&dyn rules::Rule> = rules::all()
        .iter()
        .copied()
        .filter(|r| settings.selection.enabled(r.meta()))
        .collect();
    // Standard input is matched against the configuration by the name it is given
    // (`--stdin-filename`).
    let path = file
        .path
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from(&file.name));
    let target = settings.target_for(kind, root, Some(&path));
    let file_cx = FileContext { file, root };
    for rule in &rules {
        rule.check_file(&file_cx, out);
    }
    // `x-schema-lint-ignore` scopes: (subschema pointer, selectors) of every unit.
    let mut scopes: Vec<(String, Vec<&str>)> = Vec::new();
    let memo = FileMemo::default();
    for (unit_no, unit) in units(root, kind, settings.default_draft).iter().enumerate() {
        let Some(unit_root) = root.pointer(&unit.pointer) else {
            continue;
        };
        let subschemas = walk(unit_root, &unit.pointer, unit.draft);
        for sub in &subschemas {
            let ignored = suppressions(sub.node);
            if !ignored.is_empty() {
                scopes.push((sub.pointer.clone(), ignored));
            }
        }
        let cx = UnitContext {
            file,
            root,
            unit,
            unit_no,
            subschemas: &subschemas,
            run: view,
            settings,
            target,
            memo: &memo,
        };
        let first = out.len();
        for rule in &rules {
            let Some(severity) = rule.severity(target) else {
                continue;
            };
            let from = out.len();
            rule.check_unit(&cx, out);
            // The target's severity, where the rule kept its default one; for a finding with a
            // class, who breaks: an error only when a default MCP client does (or, `strict`,
            // any engine), never one when no client breaks, nor when the clients break only on
            // some of the values the server may send.
            for d in &mut out[from..] {
                if d.severity == d.rule.severity {
                    d.severity = severity;
                }
                let own = d.severity;
                if d.class.is_some() {
                    d.severity = breaks::severity(d.breaks, settings.strict)
                        .unwrap_or_else(|| d.severity.max(Severity::Warning));
                    // Clients that fail only on some values the server may send: a warning, or
                    // less where the rule judged those values unlikely.
                    if d.depends_on_output && !settings.strict {
                        d.severity = d.severity.max(Severity::Warning).max(own);
                    }
                }
            }
        }
        if let Some(tool) = &unit.tool {
            let which = match unit.role {
                Role::InputSchema => "inputSchema",
                Role::OutputSchema => "outputSchema",
                Role::Schema => "schema",
            };
            for d in &mut out[first..] {
                d.message = format!("{} (tool `{tool}`, {which})", d.message);
            }
        }
    }
    let per_file = settings.ignored_in(Some(&path));
    out.retain(|d| {
        let suppressed = scopes.iter().any(|(scope, sel)| {
            is_within(&d.pointer, scope) && sel.iter().any(|s| matches(s, d.rule))
        });
        !suppressed && !per_file.iter().any(|s| matches(s, d.rule))
    });
}

//! Dispatch: runs the selected rules over one file and each schema in it, each only where its
//! scope says it lints ([`crate::diagnostic::meta::Scope`]), decides the severity of each finding
//! ([`severity::decide`]), drops what `x-schema-lint-ignore`, a JSONC file's `schema-lint-ignore`
//! comments and `per-file-ignores` suppress, and in a `tools/list` document groups findings by
//! cause and names their tools ([`super::group`]).

use crate::diagnostic::breaks::{self, Client};
use crate::diagnostic::severity::{self, Inputs};
use crate::diagnostic::target::Target;
use crate::diagnostic::verdict;
use crate::diagnostic::{Diagnostic, ToolOf};
use crate::rules::analysis::Analyses;
use crate::rules::{self, FileContext, FileMemo, RunView, UnitContext};
use crate::schema::units::{units, FileKind, Role};
use crate::schema::walk::walk;
use crate::settings::select::{matches, suppressions};
use crate::settings::Settings;
use crate::syntax::comments;
use crate::syntax::document::{is_within, Node};
use crate::syntax::source::SourceFile;
use std::borrow::Cow;

pub(super) fn lint_document(
    view: &RunView<'_>,
    file: &SourceFile,
    root: &Node,
    kind: FileKind,
    settings: &Settings,
    out: &mut Vec<Diagnostic>,
) {
    let file_start = out.len();
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
    let clients: &[Client] = &settings.clients;
    for rule in &rules {
        let meta = rule.meta();
        let Some(default) = meta.severity_for(target) else {
            continue;
        };
        // A rule about what some clients refuse runs only when one of them is selected.
        if !meta.scope.clients.iter().any(|c| clients.contains(c)) {
            continue;
        }
        let from = out.len();
        rule.check_file(
            &FileContext {
                rule: meta,
                file,
                root,
            },
            out,
        );
        // A finding about the JSON document itself is not weighed by the clients its class
        // breaks: every client reads the same JSON. One about the listing's envelope (what a
        // server answered, beside its tools) is: clients read it differently.
        if meta.category == crate::diagnostic::meta::Category::Document {
            for d in &mut out[from..] {
                d.severity = severity::decide(&Inputs {
                    measured: false,
                    ..Inputs::of(d, default, target, clients, settings.strict)
                });
            }
        } else {
            decide(&mut out[from..], default, settings, target);
        }
    }
    // The `schema-lint-ignore` comments of a JSONC file that hold (SL103 reports the others),
    // then the `x-schema-lint-ignore` scopes of every unit.
    let (comment_ignores, memo) = (comments_of(file, root), FileMemo::default());
    let mut scopes = commented(&comment_ignores);
    for (unit_no, unit) in units(root, kind, settings.default_draft).iter().enumerate() {
        let Some(unit_root) = root.pointer(&unit.pointer) else {
            continue;
        };
        let subschemas = walk(unit_root, &unit.pointer, unit.draft);
        for sub in &subschemas {
            let ignored = suppressions(sub.node);
            if !ignored.is_empty() {
                scopes.push(Ignored {
                    scope: sub.pointer.clone(),
                    selectors: ignored,
                });
            }
        }
        let analyses = Analyses::default();
        let first = out.len();
        for rule in &rules {
            let meta = rule.meta();
            if !meta.applies(target, unit.role, clients) {
                continue;
            }
            let Some(default) = meta.severity_for(target) else {
                continue;
            };
            let cx = UnitContext {
                rule: meta,
                file,
                root,
                unit,
                unit_no,
                subschemas: &subschemas,
                run: view,
                settings,
                target,
                clients,
                analyses: &analyses,
                memo: &memo,
            };
            let from = out.len();
            rule.check_unit(&cx, out);
            decide(&mut out[from..], default, settings, target);
        }
        if let Some(tool) = &unit.tool {
            let schema = match unit.role {
                Role::InputSchema => "inputSchema",
                Role::OutputSchema => "outputSchema",
                Role::Schema => "schema",
            };
            for d in &mut out[first..] {
                d.tool = Some(ToolOf {
                    name: tool.clone(),
                    schema,
                });
            }
        }
    }
    let per_file = settings.ignored_in(Some(&path));
    finish(out, file_start, &scopes, &per_file, view.is_server(file.id));
}

/// Drops the findings that `x-schema-lint-ignore` scopes or `per-file-ignores` suppress, groups
/// the file's findings (`out[from..]`) by cause, as a file's are whether it was read from disk or
/// from a running server (`server`), then drops the fixes of a server's findings.
fn finish(
    out: &mut Vec<Diagnostic>,
    from: usize,
    scopes: &[Ignored<'_>],
    per_file: &[&str],
    server: bool,
) {
    out.retain(|d| {
        let suppressed = scopes.iter().any(|i| {
            is_within(&d.pointer, &i.scope) && i.selectors.iter().any(|s| matches(s, d.rule))
        });
        !suppressed && !per_file.iter().any(|s| matches(s, d.rule))
    });
    super::group::by_cause(out, from, server);
    if server {
        drop_fixes(&mut out[from..]);
    }
}

/// What a running server advertised cannot be written back: no fix is offered there (the helps
/// say what to change in the server instead, see [`UnitContext::live`]).
fn drop_fixes(found: &mut [Diagnostic]) {
    for d in found {
        d.fix = None;
    }
}

/// The `schema-lint-ignore` comments of a JSONC file (none in a JSON file).
fn comments_of(file: &SourceFile, root: &Node) -> Vec<comments::Suppression> {
    if file.is_jsonc() {
        comments::suppressions(&file.text, root)
    } else {
        Vec::new()
    }
}

/// The scopes of the `schema-lint-ignore` comments that hold.
fn commented(found: &[comments::Suppression]) -> Vec<Ignored<'_>> {
    let mut out = Vec::new();
    for s in found.iter().filter(|s| s.holds()) {
        for scope in &s.scopes {
            out.push(Ignored {
                scope: scope.clone(),
                selectors: s.selectors.iter().map(|(w, _)| w.as_str()).collect(),
            });
        }
    }
    out
}

/// An `x-schema-lint-ignore` or a `schema-lint-ignore` comment: the pointer of the value it
/// covers, and the rules it names.
struct Ignored<'a> {
    scope: String,
    selectors: Vec<&'a str>,
}

/// The severity of each finding a rule just made, at `default` for `target`. A plain schema file
/// (the `json-schema` target) is read by the consumers of plain schemas too; a schema linted for
/// an MCP target, not: its findings leave their breaks out ([`breaks::read_by`]).
fn decide(found: &mut [Diagnostic], default: crate::Severity, settings: &Settings, target: Target) {
    let plain = target == Target::JsonSchema;
    for d in found {
        let read = match std::mem::take(&mut d.breaks) {
            Cow::Borrowed(all) => Cow::Borrowed(breaks::read_by(all, plain)),
            Cow::Owned(all) => Cow::Owned(breaks::read_by(&all, plain).to_vec()),
        };
        d.breaks = verdict::holding(read, &settings.versions);
        let inputs = Inputs::of(d, default, target, &settings.clients, settings.strict);
        let severity = severity::decide(&inputs);
        d.decided_by = severity::deciders(&inputs, severity);
        d.severity = severity;
    }
}

//! Code actions: each finding's fix as a `quickfix`, and `source.fixAll.schema-lint`, every safe
//! fix of a document, as [`Offer`] says (the filter of `--fix`). Only what passes the proof
//! `--fix` gives every fix is offered: a quick fix is applied alone to the run and proven by
//! [`prove`] (the proof the fix loop runs on each batch of a pass); the fix-all runs the fix loop
//! itself,
//! [`crate::fix::fix_run`], and offers the texts it changed. Either may change other files than
//! the document (a renamed `$id` and the `$ref`s that name it): the `WorkspaceEdit` spans them.

use super::convert::{self, line_edits, workspace_edit};
use super::position::Encoding;
use super::state::{Located, Project, State};
use crate::diagnostic::fix::Applicability;
use crate::engine::HeldRun;
use crate::fix::{prove, Offer};
use crate::syntax::source::{FileId, SourceFile, Span};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, NumberOrString,
    WorkspaceEdit,
};
use std::collections::HashSet;

/// The kind of the fix-all action.
pub(crate) const FIX_ALL: &str = "source.fixAll.schema-lint";

/// The code actions for a range of a document.
pub(crate) fn code_actions(
    state: &mut State,
    params: &CodeActionParams,
) -> Vec<CodeActionOrCommand> {
    let encoding = state.encoding;
    let offer = Offer {
        unsafe_fixes: state.options.unsafe_fixes,
        follow_on: false,
    };
    let uri = &params.text_document.uri;
    let Some(Located { project, file }) = state.project_of(uri) else {
        return Vec::new();
    };
    let wants = |kind: &str| {
        params.context.only.as_ref().is_none_or(|only| {
            only.iter().any(|o| {
                let o = o.as_str();
                kind == o
                    || kind
                        .strip_prefix(o)
                        .is_some_and(|rest| rest.starts_with('.'))
            })
        })
    };
    // The run with the texts a fix of the document may reach held, read again only when a fix
    // is to be worked out.
    let mut held: Option<HeldRun> = None;
    let mut out = Vec::new();
    if wants(CodeActionKind::QUICKFIX.as_str()) {
        let lines = project.lines(file, encoding);
        let (from, to) = (
            lines.offset(params.range.start),
            lines.offset(params.range.end),
        );
        // The findings the client names (by the `data` of their diagnostics), and those in range.
        let named: HashSet<(String, String)> = params
            .context
            .diagnostics
            .iter()
            .filter(|d| d.source.as_deref() == Some(convert::SOURCE))
            .filter_map(|d| {
                let code = match &d.code {
                    Some(NumberOrString::String(code)) => code.clone(),
                    _ => return None,
                };
                let pointer = d.data.as_ref()?.get("pointer")?.as_str()?.to_owned();
                Some((code, pointer))
            })
            .collect();
        let findings = &project.run.files[file.0].diagnostics;
        let wanted: Vec<usize> = findings
            .iter()
            .enumerate()
            .filter(|(_, d)| d.fix.as_ref().is_some_and(|f| offer.includes(f)))
            .filter(|(_, d)| {
                (d.span.start <= to && from <= d.span.end)
                    || named.contains(&(d.rule.code.to_owned(), d.pointer.clone()))
            })
            .map(|(i, _)| i)
            .collect();
        for i in wanted {
            let Some(edit) = quick_fix(project, &mut held, file, i, encoding) else {
                continue;
            };
            let d = &project.run.files[file.0].diagnostics[i];
            let Some(fix) = &d.fix else { continue };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("{} ({})", fix.title, d.rule.code),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert::diagnostic(project, d, encoding)]),
                edit: Some(edit),
                is_preferred: Some(fix.applicability == Applicability::Safe),
                ..CodeAction::default()
            }));
        }
    }
    let any_safe = project.run.files[file.0]
        .diagnostics
        .iter()
        .any(|d| d.fix.as_ref().is_some_and(|f| Offer::SAFE.includes(f)));
    if any_safe && wants(FIX_ALL) {
        if let Some(edit) = fix_all(project, &mut held, file, encoding) {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Fix all safe schema-lint findings".to_owned(),
                kind: Some(CodeActionKind::new(FIX_ALL)),
                edit: Some(edit),
                ..CodeAction::default()
            }));
        }
    }
    out
}

/// Whether a fix may change a file: an open document always may (the editor changes the
/// buffer), a file on disk when `--fix` would write it (not through a symlink, not read-only).
fn writable(project: &Project, file: FileId) -> Result<(), String> {
    if project.open[file.0] {
        return Ok(());
    }
    crate::fix::write::can_write(&project.run.files[file.0].file)
}

/// The edit of finding `index` of `file`, when its fix passes the proof (worked out once per
/// run).
fn quick_fix(
    project: &mut Project,
    held: &mut Option<HeldRun>,
    file: FileId,
    index: usize,
    encoding: Encoding,
) -> Option<WorkspaceEdit> {
    if let Some(known) = project.fixes.get(&(file, Some(index))) {
        return known.clone();
    }
    let run = held.get_or_insert_with(|| HeldRun::reloaded_around(&project.run, file));
    let finding = project.run.files[file.0].diagnostics.get(index);
    let fix = finding.and_then(|d| d.fix.as_ref()).filter(|fix| {
        fix.edits.iter().all(|e| writable(project, e.file).is_ok())
            && prove(run, &[fix], &project.settings).is_ok_and(|p| p.passed())
    });
    let edit = fix.and_then(|fix| {
        workspace_edit(
            project,
            run,
            fix.edits
                .iter()
                .map(|e| (e.file, e.span, e.content.as_str())),
            encoding,
        )
    });
    project.fixes.insert((file, Some(index)), edit.clone());
    edit
}

/// Every safe fix of `file`, by the fix loop, as the edits of the texts it changed. The other
/// open documents of the run are context for it, as the files not named are for `check --fix
/// FILE`: their own findings are not fixed, but a fix may follow a renamed `$id` into them.
fn fix_all(
    project: &mut Project,
    held: &mut Option<HeldRun>,
    file: FileId,
    encoding: Encoding,
) -> Option<WorkspaceEdit> {
    if let Some(known) = project.fixes.get(&(file, None)) {
        return known.clone();
    }
    let whole = held.get_or_insert_with(|| HeldRun::reloaded_around(&project.run, file));
    let run = whole.focused_on(file);
    let shared: &Project = project;
    let check = |source: &SourceFile| writable(shared, source.id);
    let outcome = crate::fix::fix_run(run, &shared.settings, Offer::SAFE, &check);
    let mut edits: Vec<(FileId, Span, String)> = Vec::new();
    for changed in outcome.changed() {
        let id = changed.file.file.id;
        for e in line_edits(changed.before, &changed.file.file.text) {
            edits.push((id, e.span, e.content));
        }
    }
    let edit = if edits.is_empty() {
        None
    } else {
        workspace_edit(
            project,
            whole,
            edits.iter().map(|(f, s, c)| (*f, *s, c.as_str())),
            encoding,
        )
    };
    project.fixes.insert((file, None), edit.clone());
    edit
}

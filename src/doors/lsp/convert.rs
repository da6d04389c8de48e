//! Findings and edits of a run as the protocol has them: a finding becomes an LSP diagnostic
//! (its rule code with a link to the rule's documentation, severity, the secondary labels as
//! related information, possibly in other files, and `data` naming the finding for the code
//! action), byte edits become a `WorkspaceEdit` over every file they touch.

use super::position::{Encoding, Lines};
use super::state::{Project, State};
use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::Run;
use crate::syntax::source::{FileId, Span};
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;

/// What diagnostics say they come from.
pub(crate) const SOURCE: &str = "schema-lint";

/// The diagnostics of an open document of `project`.
pub(crate) fn diagnostics(
    project: &Project,
    file: FileId,
    encoding: Encoding,
) -> Vec<lsp_types::Diagnostic> {
    project.run.files[file.0]
        .diagnostics
        .iter()
        .map(|d| diagnostic(project, d, encoding))
        .collect()
}

/// The diagnostics to publish after a lint: each open document's that `only` names (every
/// one when it is `None`), none for one that is not linted.
pub(crate) fn published(
    state: &State,
    only: Option<&[Uri]>,
) -> Vec<lsp_types::PublishDiagnosticsParams> {
    state
        .docs
        .iter()
        .filter(|(uri, _)| only.is_none_or(|only| only.contains(*uri)))
        .map(|(uri, doc)| lsp_types::PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: state
                .projects
                .iter()
                .find_map(|p| Some(diagnostics(p, p.file_of(uri)?, state.encoding)))
                .unwrap_or_default(),
            version: Some(doc.version),
        })
        .collect()
}

/// One finding as an LSP diagnostic; its `data` names the finding (code and pointer) for the
/// code action, says whether it has a fix, and lists the clients it breaks (`breaks`).
pub(crate) fn diagnostic(
    project: &Project,
    d: &Diagnostic,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let lines = project.lines(d.file, encoding);
    // The same sections as the human format: message, help, then the note (which ends with
    // which clients break, written from the measured `breaks`).
    let message = crate::report::sections::Sections::of(d).text();
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|label| {
            let uri = project.uris.get(label.file.0).cloned().flatten()?;
            Some(DiagnosticRelatedInformation {
                location: Location {
                    uri,
                    range: project
                        .lines(label.file, encoding)
                        .range(label.span.start, label.span.end),
                },
                message: if label.message.is_empty() {
                    "here".to_owned()
                } else {
                    label.message.clone()
                },
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range: lines.range(d.span.start, d.span.end),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.rule.code.to_owned())),
        code_description: crate::report::catalogue::docs_url(d.rule)
            .parse::<Uri>()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: Some(serde_json::json!({
            "code": d.rule.code,
            "pointer": d.pointer,
            "breaks": d.breaks,
            "fix": d.fix.as_ref().map(|f| serde_json::json!({
                "title": f.title,
                "applicability": f.applicability,
            })),
        })),
    }
}

/// Byte edits (file, span in the text `texts` holds, new text) as a `WorkspaceEdit`; `None`
/// when one of the files has no URI the client knows. `texts` is the project's run with the
/// texts of the files edited held ([`crate::engine::HeldRun::reloaded_around`]).
pub(crate) fn workspace_edit<'a>(
    project: &Project,
    texts: &Run,
    edits: impl IntoIterator<Item = (FileId, Span, &'a str)>,
    encoding: Encoding,
) -> Option<WorkspaceEdit> {
    #[allow(
        clippy::mutable_key_type,
        reason = "lsp-types keys a WorkspaceEdit by Uri, whose cell only caches a parse"
    )]
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    let mut sorted: Vec<(FileId, Span, &str)> = edits.into_iter().collect();
    sorted.sort_by_key(|(file, span, _)| (*file, span.start, span.end));
    let mut lines: Option<(FileId, Lines<'_>)> = None;
    for (file, span, content) in sorted {
        let uri = project.uris.get(file.0).cloned().flatten()?;
        let known = lines.take().filter(|(f, _)| *f == file);
        let (_, of_file) = lines.insert(known.unwrap_or_else(|| {
            let text = &texts.files[file.0].file.text;
            (file, Lines::new(text, encoding, project.boms[file.0]))
        }));
        let range = of_file.range(span.start, span.end);
        changes.entry(uri).or_default().push(TextEdit {
            range,
            new_text: content.to_owned(),
        });
    }
    Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}

/// Lines of a text replaced: the bytes of the old text, and what replaces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineEdit {
    /// The bytes replaced, whole lines of the old text.
    pub span: Span,
    /// The new lines.
    pub content: String,
}

/// The edits that turn `old` into `new`, a few whole lines each (so that an editor keeps its
/// cursor and marks elsewhere), as byte spans into `old`.
pub(crate) fn line_edits(old: &str, new: &str) -> Vec<LineEdit> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut starts = Vec::with_capacity(diff.old_slices().len() + 1);
    let mut at = 0;
    starts.push(at);
    for line in diff.old_slices() {
        at += line.len();
        starts.push(at);
    }
    let new_lines = diff.new_slices();
    diff.ops()
        .iter()
        .filter_map(|op| {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            (tag != similar::DiffTag::Equal).then(|| LineEdit {
                span: Span::new(starts[old_range.start], starts[old_range.end]),
                content: new_lines[new_range].concat(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_edits_rebuild_the_new_text() {
        let old = "{\n  \"$id\": \"a:b\",\r\n  \"x\": 1\n}\n";
        let new = "{\n  \"$id\": \"a_b\",\r\n  \"x\": 1,\n  \"y\": 2\n}\n";
        let edits = line_edits(old, new);
        assert!(!edits.is_empty());
        let mut text = old.to_owned();
        for e in edits.iter().rev() {
            text.replace_range(e.span.start..e.span.end, &e.content);
        }
        assert_eq!(text, new);
        assert!(line_edits(old, old).is_empty());
    }
}

//! SL206 id-not-normalized: a valid `$id` that is not in RFC 3986 normal form.

use crate::diagnostic::fix::{Applicability, Fix};
use crate::diagnostic::meta::SL206 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::edits::rename::{rename_edits, RefForm};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::uri::strip_fragment;
use crate::syntax::uri::{check_uri_reference, normalize_reference, urn_problem};

pub struct IdNotNormalized;

impl Rule for IdNotNormalized {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            let Some(id) = sub.id() else { continue };
            let Some(value) = id.as_str() else { continue };
            // Invalid ids and Ajv-hostile URNs are SL201's and SL203's.
            if check_uri_reference(value).is_err() || urn_problem(value).is_some() {
                continue;
            }
            let Some(normal) = normalize_reference(value) else {
                continue;
            };
            if normal == value {
                continue;
            }
            let old_uri = strip_fragment(value);
            let new_uri = strip_fragment(&normal);
            let keyword = sub.draft.id_keyword();
            let diagnostic = Diagnostic::new(
                &META,
                cx.file.id,
                id.string_sub_span(cx.text(), 0..old_uri.len()),
                format!("`{keyword}` `{value}` is not in RFC 3986 normal form"),
            )
            .label(format!("normal form: `{new_uri}`"))
            .help(format!("Write it as `{normal}`"))
            .note(
                "Ajv stores a `$id` as written but looks a `$ref` up after normalising it (lower-case \
                 scheme and host, upper-case percent-encoding, no encoded unreserved characters, no \
                 `.` or `..` segments), so every `$ref` to this schema fails with `can't resolve \
                 reference` in the TypeScript clients (TS v1 then loses every tool of the server in \
                 `listTools()`)",
            )
            .pointer(format!("{}/{keyword}", sub.pointer));
            out.push(match normalize_fix(cx, &sub.pointer, value, &normal) {
                Some(fix) => diagnostic.fix(fix),
                None => diagnostic,
            });
        }
    }
}

/// Renames the `$id` to its normal form, with the references that spell it the old way; other
/// spellings already resolve to the same URI and stay as they are.
fn normalize_fix(cx: &UnitContext<'_>, pointer: &str, value: &str, normal: &str) -> Option<Fix> {
    let index = cx.run.index;
    let resource = index.resource_at(cx.file.id, pointer)?;
    index.resources[resource].id.as_ref()?;
    let old_uri = strip_fragment(value);
    let spelled_old: Vec<(crate::syntax::source::FileId, crate::syntax::source::Span)> = index
        .refs
        .iter()
        .filter(|r| strip_fragment(&r.raw) == old_uri)
        .map(|r| (r.file, r.span))
        .collect();
    let mut edits = rename_edits(cx.run, resource, normal, RefForm::Normal);
    if edits.is_empty() {
        return None;
    }
    let id_edit = edits.remove(0);
    edits.retain(|e| spelled_old.contains(&(e.file, e.span)));
    let refs = edits.len();
    edits.insert(0, id_edit);
    let keyword = index.resources[resource].draft.id_keyword();
    let title = match refs {
        0 => format!("Normalise `{keyword}` `{value}` to `{normal}`"),
        1 => format!("Normalise `{keyword}` `{value}` to `{normal}` and the `$ref` that names it"),
        n => format!(
            "Normalise `{keyword}` `{value}` to `{normal}` and the {n} `$ref`s that name it"
        ),
    };
    Some(Fix {
        title,
        applicability: Applicability::Safe,
        edits,
        moves: Vec::new(),
    })
}

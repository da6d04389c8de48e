//! SL206 id-not-normalized: a valid `$id` that is not in RFC 3986 normal form, where that breaks
//! a client. Measured (`testdata/engines/`): Ajv resolves an `$id` against the `$id` of the
//! schema around it, which normalises it, so only a subschema's `$id` with no `$id` above it
//! stays as written, and a `$ref` to it fails; a default or empty port never matters.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL206 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::edits::rename::{rename_edits, RefForm};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::literal::literal;
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
            if normal == value || without_default_port(value) == normal {
                continue;
            }
            if !breaks_ajv(cx, &sub.pointer) {
                continue;
            }
            let old_uri = strip_fragment(value);
            let new_uri = strip_fragment(&normal);
            let keyword = sub.draft.id_keyword();
            let diagnostic = cx.report(id.string_sub_span(cx.text(), 0..old_uri.len()),
                format!("`{keyword}` `{value}` is not in RFC 3986 normal form"),
            )
            .label(format!("normal form: `{new_uri}`"))
            .help(format!("Write it as `{normal}`"))
            .note(
                "No `$id` above this subschema gives Ajv a base to resolve it against, so Ajv stores \
                 it as written, but it looks a `$ref` up after normalising it (lower-case scheme and \
                 host, upper-case percent-encoding, no encoded unreserved characters, no `.` or `..` \
                 segments), and a `$ref` of this document names it",
            )
            .class(classes::SL206_REFERENCED)
            .pointer(format!("{}/{keyword}", sub.pointer));
            out.push(match normalize_fix(cx, &sub.pointer, value, &normal) {
                Some(fix) => diagnostic.fix(fix),
                None => diagnostic,
            });
        }
        respelled_refs(cx, out);
    }
}

/// An absolute `$ref` that names an absolute `$id` (with no `$id` above it) spelled another way,
/// which only normalisation makes the same (measured): Python's `referencing` looks the `$ref`
/// up as written, so it fails on any difference; Ajv lower-cases a `$ref`'s scheme and host but
/// keeps its port, and stores such a `$id` as written, so it fails on a port written on one side
/// only (`https://example.com:443/x` against `https://example.com/x`).
fn respelled_refs(cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
    let index = cx.run.index;
    for r in index.refs_in(cx.file.id, cx.unit_no) {
        let uri = strip_fragment(&r.raw);
        if !uri.contains("://") {
            continue;
        }
        let Ok(target) = index.target_resource(r) else {
            continue;
        };
        let Some(id) = index.resources[target].id.as_ref().filter(|id| id.valid) else {
            continue;
        };
        let id_uri = strip_fragment(&id.raw);
        if id_uri == uri || !id_uri.contains("://") || has_id_above(cx, target) {
            continue;
        }
        let only_case = lower_authority(uri) == lower_authority(id_uri);
        let (class, how) = if only_case {
            (
                classes::SL206_REF_CASE,
                "Python's `referencing` looks a `$ref` up as written, so it cannot resolve it; Ajv \
                 lower-cases the scheme and host of a `$ref` and engines that follow RFC 3986 \
                 normalise both",
            )
        } else {
            (
                classes::SL206_REF_PORT,
                "Python's `referencing` looks a `$ref` up as written, and Ajv lower-cases the \
                 scheme and host of a `$ref` but keeps its port, so neither resolves it; engines \
                 that follow RFC 3986 normalise both",
            )
        };
        // An `$id` out of normal form is reported (and renamed to its normal form) on its own:
        // the `$ref` is then spelled as the normal form, which both will be.
        let root = index.resources[target].pointer == cx.unit.pointer;
        let normal = normalize_reference(id_uri)
            .filter(|n| n != id_uri && without_default_port(id_uri) != *n && !root);
        let spelling = normal.as_deref().unwrap_or(id_uri);
        let fragment = &r.raw[uri.len()..];
        let respelled = format!("{spelling}{fragment}");
        let diagnostic = cx
            .report(
                r.span,
                format!(
                    "`$ref` `{}` names `$id` `{}` spelled another way",
                    r.raw, id.raw
                ),
            )
            .label(format!("the `$id` says `{id_uri}`"))
            .note(how)
            .class(class)
            .pointer(r.pointer(cx.root));
        let diagnostic = if uri == spelling {
            diagnostic.help(format!(
                "Write the `$id` in normal form, `{spelling}`, as this `$ref` is"
            ))
        } else {
            diagnostic
                .help(format!("Spell the `$ref` `{respelled}`"))
                .fix(Fix {
                    title: format!("Spell the `$ref` `{respelled}`"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: cx.file.id,
                        span: r.span,
                        content: literal(&respelled),
                    }],
                    moves: Vec::new(),
                })
        };
        out.push(diagnostic);
    }
}

/// Whether a resource around `resource` declares a `$id` (Ajv then resolves it against that).
fn has_id_above(cx: &UnitContext<'_>, resource: usize) -> bool {
    let index = cx.run.index;
    let mut parent = index.parent_resource(resource);
    while let Some(p) = parent {
        if index.resources[p].id.is_some() {
            return true;
        }
        parent = index.parent_resource(p);
    }
    false
}

/// `uri` with its scheme and authority in lower case.
fn lower_authority(uri: &str) -> String {
    let Some((scheme, rest)) = uri.split_once("://") else {
        return uri.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    format!(
        "{}://{}{}",
        scheme.to_ascii_lowercase(),
        rest[..end].to_ascii_lowercase(),
        &rest[end..]
    )
}

/// Whether Ajv keeps this subschema's `$id` as written and a `$ref` of the document names it:
/// the subschema is not the unit's root, no subschema around it declares a `$id`, and a
/// reference of the unit resolves to it.
fn breaks_ajv(cx: &UnitContext<'_>, pointer: &str) -> bool {
    let index = cx.run.index;
    let Some(resource) = index.resource_at(cx.file.id, pointer) else {
        return false;
    };
    if pointer == cx.unit.pointer {
        return false;
    }
    if has_id_above(cx, resource) {
        return false;
    }
    index
        .refs_in(cx.file.id, cx.unit_no)
        .iter()
        .any(|r| index.target_resource(r) == Ok(resource))
}

/// `value` without an empty port or the default port of its scheme (`https://a:443/x` ->
/// `https://a/x`), which Ajv never trips on.
fn without_default_port(value: &str) -> String {
    let Some((scheme, rest)) = value.split_once("://") else {
        return value.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let Some(colon) = authority
        .rfind(':')
        .filter(|&c| !authority[c..].contains(']'))
    else {
        return value.to_owned();
    };
    let port = &authority[colon + 1..];
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" | "ws" => "80",
        "https" | "wss" => "443",
        _ => "",
    };
    if port.is_empty() || port == default {
        format!("{scheme}://{}{}", &authority[..colon], &rest[end..])
    } else {
        value.to_owned()
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

//! The repairs SL201 and SL203 offer for an invalid `$id`, in the mode the settings choose.

use crate::diagnostic::fix::Edit;
use crate::diagnostic::fix::{Applicability, Fix};
use crate::rules::edits::rename::{rename_edits, unique_id, RefForm};
use crate::rules::UnitContext;
use crate::schema::dialect::Draft;
use crate::schema::walk::Subschema;
use crate::settings::FixIdMode;
use crate::syntax::literal::literal;
use crate::syntax::uri::underscore_repair;

/// The `_` repair of an invalid `$id` in `draft`: each character that makes it invalid replaced
/// (see [`underscore_repair`]), and where the dialect allows no fragment in `$id` (2019-09 and
/// 2020-12), each `#` but a last one that ends the value too, so that the repair draws no SL202
/// (`a#b#c` is `a_b_c`, not `a#b_c`).
pub(crate) fn repaired_id(value: &str, draft: Draft) -> Option<String> {
    let repaired = underscore_repair(value)?;
    if draft.allows_id_fragment() {
        return Some(repaired);
    }
    let Some((head, fragment)) = repaired.split_once('#') else {
        return Some(repaired);
    };
    if fragment.is_empty() {
        return Some(repaired);
    }
    Some(format!("{head}_{}", fragment.replace('#', "_")))
}

/// The fix for the invalid `$id` of `sub`.
pub(crate) fn invalid_id_fix(cx: &UnitContext<'_>, sub: &Subschema<'_>) -> Option<Fix> {
    match cx.run.index.resource_at(cx.file.id, &sub.pointer) {
        Some(resource) => resource_id_fix(cx, resource),
        None => plain_id_fix(cx, sub),
    }
}

/// An `$id` that names no resource: a draft-04 to draft-07 plain-name fragment (an anchor), or
/// one that engines ignore beside `$ref`. Its value is repaired in place, with the `$ref`s of the
/// schema that spell the same anchor.
fn plain_id_fix(cx: &UnitContext<'_>, sub: &Subschema<'_>) -> Option<Fix> {
    let keyword = sub.draft.id_keyword();
    let node = sub.node.get(keyword)?;
    let value = node.as_str()?;
    // A plain-name fragment (`#a b`) stays one: its `$ref`s below follow it.
    let new = if value.starts_with('#') {
        underscore_repair(value)?
    } else {
        repaired_id(value, sub.draft)?
    };
    let mut edits = vec![Edit {
        file: cx.file.id,
        span: node.span,
        content: literal(&new),
    }];
    // A plain-name anchor: the `$ref`s that reach it, `#name` from inside its resource or
    // `doc#name` through the resource's id, get the new name.
    if let Some(name) = value.strip_prefix('#') {
        let index = cx.run.index;
        let home = index.enclosing_resource(cx.file.id, cx.unit_no, &sub.pointer);
        for r in &index.refs {
            let Some((doc, fragment)) = r.raw.split_once('#') else {
                continue;
            };
            let reaches = fragment == name
                && home.is_some_and(|h| {
                    if doc.is_empty() {
                        r.file == cx.file.id && r.unit == cx.unit_no && r.resource == h
                    } else {
                        index.target_resource(r) == Ok(h)
                    }
                });
            if reaches {
                edits.push(Edit {
                    file: r.file,
                    span: r.span,
                    content: literal(&format!("{doc}{new}")),
                });
            }
        }
    }
    Some(Fix {
        title: format!("Rename `{keyword}` `{value}` to `{new}`"),
        applicability: Applicability::Safe,
        edits,
        moves: Vec::new(),
    })
}

/// The fix for the invalid `$id` of `resource` (anywhere in the run).
pub(crate) fn resource_id_fix(cx: &UnitContext<'_>, resource: usize) -> Option<Fix> {
    let index = cx.run.index;
    let res = &index.resources[resource];
    let value = res.id.as_ref()?.raw.as_str();
    let keyword = res.draft.id_keyword();
    // Where the `defs` repair would not be exact, the `underscore` one is offered instead.
    if cx.settings.fix_id == FixIdMode::Defs {
        if let Some(fix) = crate::rules::edits::defs_fix::defs_fix(cx.run, resource) {
            return Some(fix);
        }
    }
    // The repaired value in RFC 3986 normal form, so that it draws no SL206 of its own.
    let repaired = repaired_id(value, res.draft)?;
    let repaired = crate::syntax::uri::normalize_reference(&repaired).unwrap_or(repaired);
    let new = unique_id(index, resource, &repaired);
    let edits = rename_edits(cx.run, resource, &new, RefForm::Kept);
    let ref_count = edits.len() - 1;
    let title = match ref_count {
        0 => format!("Rename `{keyword}` `{value}` to `{new}`"),
        1 => {
            format!("Rename `{keyword}` `{value}` to `{new}` and the `$ref` that names it")
        }
        n => format!("Rename `{keyword}` `{value}` to `{new}` and the {n} `$ref`s that name it"),
    };
    Some(Fix {
        title,
        applicability: Applicability::Safe,
        edits,
        moves: Vec::new(),
    })
}

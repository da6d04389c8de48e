//! SL207 id-beside-ref: a `$id` beside a `$ref` in draft-06 or draft-07, which the draft ignores
//! and Ajv honours, where the `$ref` then leads somewhere else for Ajv.
//!
//! Up to draft-07, `$ref` makes every other member of its object ignored, `$id` included: the
//! reference resolves against the enclosing resource (the index reads it that way, as Python's
//! `jsonschema` and the Rust crate do). Ajv resolves it against the `$id` beside it (measured:
//! `testdata/engines/`), so a relative reference can name another schema there, or nothing.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL207 as META;
use crate::diagnostic::Diagnostic;
use crate::index::{RefEntry, Resolution};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::uri::{absolute_uri, percent_decode, strip_fragment};

pub struct IdBesideRef;

impl Rule for IdBesideRef {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        // Few subschemas hold both: only those are matched with their reference.
        for sub in cx.subschemas {
            if !matches!(sub.draft, Draft::Draft6 | Draft::Draft7) || sub.node.get("$id").is_none()
            {
                continue;
            }
            let Some(value) = sub.node.get("$ref") else {
                continue;
            };
            let refs = cx.run.index.refs_in(cx.file.id, cx.unit_no);
            if let Some(r) = refs
                .iter()
                .find(|r| r.keyword == "$ref" && r.span == value.span)
            {
                out.extend(check(cx, r, sub.node, &sub.pointer));
            }
        }
    }
}

/// The finding on the `$id` beside `r` in `holder` (at `holder_pointer`), when the two readings
/// of `r` differ.
fn check(
    cx: &UnitContext<'_>,
    r: &RefEntry,
    holder: &crate::syntax::document::Node,
    holder_pointer: &str,
) -> Option<Diagnostic> {
    let index = cx.run.index;
    let draft = index.resources[r.resource].draft;
    let members = holder.as_object()?;
    let at = members.iter().rposition(|m| m.key == "$id")?;
    let id = members[at].value.as_str()?;
    // A plain-name `$id` (`#foo`) changes no base.
    if strip_fragment(id).is_empty() {
        return None;
    }
    let sibling = absolute_uri(Some(&index.unit_uri(r.resource)?), id)?;
    let Resolution::Found { file, pointer } = index.resolve(r, |f| cx.run.root(f)) else {
        return None;
    };
    let ajv = ajv_target(cx, r, &sibling, holder_pointer);
    let shown = |p: &str| {
        if p.is_empty() {
            "the root".to_owned()
        } else {
            format!("`#{p}`")
        }
    };
    let (label, class) = match ajv {
        Ajv::Found(f, p) if f == file && p == pointer => return None,
        Ajv::Found(_, p) => (
            format!(
                "Ajv resolves it to {}, the draft to {}",
                shown(&p),
                shown(&pointer)
            ),
            classes::SL207_REBINDS,
        ),
        Ajv::SelfPointer => (
            format!(
                "Ajv looks for it in this object and recurses until its stack overflows; the \
                 draft resolves it to {}",
                shown(&pointer)
            ),
            classes::SL207_SELF_POINTER,
        ),
        Ajv::Missing => (
            format!(
                "Ajv finds nothing there; the draft resolves it to {}",
                shown(&pointer)
            ),
            classes::SL207_AJV_UNRESOLVED,
        ),
    };
    let diagnostic = cx
        .report(
            members[at].key_span,
            format!(
                "`$id` `{id}` beside `$ref` `{}`: {draft} ignores it, Ajv resolves the `$ref` \
                 against it",
                r.raw
            ),
        )
        .label(label)
        .note(format!(
            "In {draft} a `$ref` makes the other members of its object ignored, `$id` included, \
             as Python's `jsonschema` and the Rust crate read it; Ajv (both TS clients) resolves \
             the `$ref` against the `$id` beside it"
        ))
        .class(class)
        .pointer(format!("{holder_pointer}/$id"));
    if named_elsewhere(cx, &sibling) {
        return Some(diagnostic.help(
            "A `$ref` names this `$id`, which Ajv finds and the draft's readers do not: give the \
             `$id` to the schema it should name (a `definitions` entry of its own), or remove it \
             and the references to it",
        ));
    }
    Some(
        diagnostic
            .help(format!("Remove the `$id`: {draft} ignores it anyway"))
            .fix(Fix {
                title: format!("Remove the `$id` `{id}` beside the `$ref`"),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    file: cx.file.id,
                    span: crate::rules::edits::defs_fix::delete_member(members, at, holder),
                    content: String::new(),
                }],
                moves: Vec::new(),
            }),
    )
}

/// Where Ajv binds a `$ref` resolved against the `$id` beside it.
#[derive(PartialEq, Eq)]
enum Ajv {
    /// The subschema at this file and pointer.
    Found(crate::syntax::source::FileId, String),
    /// A JSON pointer into the object that declares the `$id`, which has nothing there: Ajv
    /// falls back to the object itself, whose `$ref` it follows again and again (measured:
    /// `Maximum call stack size exceeded`).
    SelfPointer,
    /// Nothing.
    Missing,
}

/// Where Ajv binds `r`, resolved against the `$id` beside it (`sibling`, absolute).
fn ajv_target(cx: &UnitContext<'_>, r: &RefEntry, sibling: &str, holder_pointer: &str) -> Ajv {
    let index = cx.run.index;
    let uri_part = strip_fragment(&r.raw);
    let fragment = r.raw.get(uri_part.len() + 1..).unwrap_or_default();
    let doc = if uri_part.is_empty() {
        Some(sibling.to_owned())
    } else {
        absolute_uri(Some(sibling), uri_part)
    };
    let Some(doc) = doc else {
        return Ajv::Missing;
    };
    let doc = strip_fragment(&doc);
    if doc == strip_fragment(sibling) {
        // The object itself, which Ajv registers under its `$id`.
        let inner = match fragment {
            "" => Some(String::new()),
            f if f.starts_with('/') => percent_decode(f),
            _ => None,
        };
        let pointer = inner.map(|inner| format!("{holder_pointer}{inner}"));
        return match pointer {
            Some(p) if cx.root.pointer(&p).is_some() => Ajv::Found(cx.file.id, p),
            _ if fragment.starts_with('/') => Ajv::SelfPointer,
            _ => Ajv::Missing,
        };
    }
    let same_unit = index
        .resources_in(r.file, r.unit)
        .find(|&i| index.unit_uri(i).as_deref() == Some(doc));
    let Some(target) = same_unit.or_else(|| index.resources_at(doc).first().copied()) else {
        return beside_ref_elsewhere(cx, doc, fragment);
    };
    let mut probe = r.clone();
    probe.raw = format!("#{fragment}").as_str().into();
    probe.resource = target;
    match index.resolve(&probe, |f| cx.run.root(f)) {
        Resolution::Found { file, pointer } => Ajv::Found(file, pointer),
        _ => Ajv::Missing,
    }
}

/// Ajv registers a `$id` beside a `$ref` too, which the index's resources (the draft's reading)
/// leave out: where Ajv finds `doc#fragment` among those of the run.
fn beside_ref_elsewhere(cx: &UnitContext<'_>, doc: &str, fragment: &str) -> Ajv {
    let Some((file, at)) = cx.run.index.beside_ref_ids.get(doc) else {
        return Ajv::Missing;
    };
    let inner = match fragment {
        "" => Some(String::new()),
        f if f.starts_with('/') => percent_decode(f),
        _ => None,
    };
    match inner.map(|inner| format!("{at}{inner}")) {
        Some(pointer)
            if cx
                .run
                .root(*file)
                .and_then(|r| r.pointer(&pointer))
                .is_some() =>
        {
            Ajv::Found(*file, pointer)
        }
        _ => Ajv::Missing,
    }
}

/// Whether a reference of the unit names the `$id` beside the `$ref` (Ajv registers it): then
/// removing it would change what that reference finds in Ajv.
fn named_elsewhere(cx: &UnitContext<'_>, sibling: &str) -> bool {
    let index = cx.run.index;
    index.refs_in(cx.file.id, cx.unit_no).iter().any(|other| {
        index.unit_uri(other.resource).is_some_and(|base| {
            absolute_uri(Some(&base), strip_fragment(&other.raw)).as_deref()
                == Some(strip_fragment(sibling))
        })
    })
}

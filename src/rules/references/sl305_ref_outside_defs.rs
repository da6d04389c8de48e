//! SL305 ref-outside-defs (off by default): a `$ref` whose JSON pointer names a subschema
//! other than the root and the direct entries of the root's `$defs`/`definitions`, such as the
//! `#/properties/billing` that zod writes when it reuses a schema.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::Fix;
use crate::diagnostic::meta::SL305 as META;
use crate::diagnostic::Diagnostic;
use crate::index::{RefEntry, Resolution};
use crate::rules::edits::hoist::{
    self, candidate, container_for, hoist_all, Candidate, Hoist, Moved, Refusal,
};
use crate::rules::edits::relocate::encode_fragment;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::document::{is_within, unescape_pointer_token, Node, NodeKind};
use crate::syntax::source::Span;
use std::collections::BTreeMap;

pub struct RefOutsideDefs;

const NOTE: &str = "Some consumers of JSON Schema outside the MCP SDKs follow only references \
to the root (`#`) and to the entries of its `$defs` or `definitions`, and users ask for schemas \
that keep to them; zod reuses a schema by pointing at its first use (`#/properties/billing`)";

/// Where a same-document JSON pointer leads, from the root of the resource it resolves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Into the root's container, past one of its entries (`#/$defs/a/properties/b`).
    InsideEntry,
    /// Anywhere else but the root and the container's entries.
    Outside,
}

/// Where `relative` (a pointer from the resource root) lies, or `None` when it is the root or
/// a direct entry of its `$defs` or `definitions` (both count in every dialect: a draft-07
/// `$defs` is SL403's finding).
fn place_of(relative: &str) -> Option<Place> {
    if relative.is_empty() {
        return None;
    }
    let tokens: Vec<&str> = relative.split('/').skip(1).collect();
    match tokens.as_slice() {
        ["$defs" | "definitions", _] => None,
        ["$defs" | "definitions", _, _, ..] => Some(Place::InsideEntry),
        _ => Some(Place::Outside),
    }
}

/// A reference the rule reports, before its fix is known.
struct Finding<'a> {
    r: &'a RefEntry,
    target: String,
    relative: String,
    place: Place,
    draft: Draft,
}

impl Rule for RefOutsideDefs {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let index = cx.run.index;
        let mut found = Vec::new();
        // Whether each target can move, found once per target.
        let mut candidates: BTreeMap<String, Result<Candidate<'_>, Refusal>> = BTreeMap::new();
        // Where every reference into the schema lands, found once.
        let mut landings = None;
        for r in index.refs_in(cx.file.id, cx.unit_no) {
            // Only same-document JSON pointers: anchors, `$id`s and other documents are not
            // this rule's business.
            let Some(fragment) = r.raw.strip_prefix('#') else {
                continue;
            };
            if !fragment.starts_with('/') {
                continue;
            }
            let Resolution::Found { file, pointer } = index.resolve(r, |f| cx.run.root(f)) else {
                continue;
            };
            let resource = &index.resources[r.resource];
            if file != cx.file.id {
                continue;
            }
            let Some(relative) = pointer.strip_prefix(resource.pointer.as_str()) else {
                continue;
            };
            let Some(place) = place_of(relative) else {
                continue;
            };
            let landings = landings.get_or_insert_with(|| hoist::landings(cx));
            candidates
                .entry(pointer.clone())
                .or_insert_with(|| candidate(cx, r, &pointer, landings));
            found.push(Finding {
                r,
                relative: relative.to_owned(),
                target: pointer,
                place,
                draft: resource.draft,
            });
        }
        if found.is_empty() {
            return;
        }
        // A fix moves every subschema that can move (up to a bound); each finding offers the
        // one that moves its target.
        let movable: Vec<&Candidate<'_>> = candidates
            .values()
            .filter_map(|c| c.as_ref().ok())
            .collect();
        let hoisted = hoist_all(cx, &movable);
        for f in &found {
            // The fix that moves the target, or the subschema that holds it.
            let theirs = hoisted
                .iter()
                .find(|h| h.moved.iter().any(|m| is_within(&f.relative, &m.old)));
            let fix = match (&candidates[&f.target], theirs) {
                (Err(refusal), _) => Err(*refusal),
                (Ok(_), None) => Err(Refusal::Unrewritable),
                (Ok(_), Some(Hoist { fix, moved })) => Ok(titled(fix, moved, &f.relative)),
            };
            out.push(finding(cx, f, fix));
        }
    }
}

/// The fix, titled for the finding whose target is at `relative`.
fn titled(fix: &Fix, moved: &[Moved], relative: &str) -> Fix {
    let what = match moved.iter().find(|m| is_within(relative, &m.old)) {
        Some(Moved { old, new }) if old == relative => format!(
            "Move `#{}` to `#{}`",
            encode_fragment(old),
            encode_fragment(new)
        ),
        Some(Moved { old, new }) => format!(
            "Move `#{}`, which holds the target, to `#{}`",
            encode_fragment(old),
            encode_fragment(new)
        ),
        None => "Move the subschemas".to_owned(),
    };
    let title = match moved.len() {
        0 | 1 => format!("{what} and point the `$ref`s there"),
        2 => format!("{what} and point the `$ref`s there (and move 1 other subschema likewise)"),
        n => format!(
            "{what} and point the `$ref`s there (and move {} other subschemas likewise)",
            n - 1
        ),
    };
    Fix {
        title,
        ..fix.clone()
    }
}

fn finding(cx: &UnitContext<'_>, f: &Finding<'_>, fix: Result<Fix, Refusal>) -> Diagnostic {
    let r = f.r;
    // The container the schema keeps its definitions in, or will once fixed.
    let word = cx
        .root
        .pointer(&cx.unit.pointer)
        .map_or("$defs", |unit| container_for(f.draft, unit));
    let (message, label, class) = match f.place {
        Place::Outside => (
            format!("`{}` `{}` points outside `{word}`", r.keyword, r.raw),
            format!("not the root (`#`) or a `{word}` entry"),
            classes::SL305_OUTSIDE_DEFS,
        ),
        Place::InsideEntry => {
            let mut tokens = f.relative.split('/').skip(1);
            let container = tokens.next().unwrap_or(word);
            let entry = unescape_pointer_token(tokens.next().unwrap_or_default());
            (
                format!(
                    "`{}` `{}` points inside the `{container}` entry `{entry}`",
                    r.keyword, r.raw
                ),
                format!("not a `{container}` entry itself"),
                classes::SL305_INSIDE_DEF,
            )
        }
    };
    let mut diagnostic = cx
        .report(r.span, message)
        .label(label)
        .note(NOTE)
        .class(class)
        .pointer(r.pointer(cx.root));
    if let Some(node) = cx.root.pointer(&f.target) {
        diagnostic = diagnostic.related(
            cx.file.id,
            target_span(cx.root, &f.target, node),
            "the subschema it points at",
        );
    }
    let container = word;
    match fix {
        Ok(fix) => diagnostic
            .help(format!(
                "Move the subschema into the root's `{container}` and point the references at it"
            ))
            .fix(fix),
        Err(refusal) => diagnostic.help(format!(
            "Move the subschema into the root's `{container}` and reference it as \
                 `#/{container}/<name>`; not done automatically: {}",
            refusal.reason(container)
        )),
    }
}

/// Where to point at the target: the key that names it, else its first character (a schema
/// can span many lines).
fn target_span(root: &Node, target: &str, node: &Node) -> Span {
    let parent = target
        .rsplit_once('/')
        .and_then(|(parent, _)| root.pointer(parent));
    if let Some(NodeKind::Object(members)) = parent.map(|p| &p.kind) {
        if let Some(m) = members.iter().find(|m| m.value.span == node.span) {
            return m.key_span;
        }
    }
    Span::new(node.span.start, node.span.start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places() {
        assert_eq!(place_of(""), None);
        assert_eq!(place_of("/$defs/a"), None);
        assert_eq!(place_of("/definitions/a~1b"), None);
        assert_eq!(place_of("/$defs/a/properties/b"), Some(Place::InsideEntry));
        assert_eq!(place_of("/properties/billing"), Some(Place::Outside));
        assert_eq!(place_of("/$defs"), Some(Place::Outside));
        assert_eq!(place_of("/items/0"), Some(Place::Outside));
    }
}

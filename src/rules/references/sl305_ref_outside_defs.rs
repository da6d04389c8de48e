//! SL305 ref-outside-defs (off by default): a `$ref` whose JSON pointer names a subschema
//! other than the root and the direct entries of the root's `$defs`/`definitions`, such as the
//! `#/properties/billing` that zod writes when it reuses a schema.

use crate::diagnostic::meta::SL305 as META;
use crate::diagnostic::Diagnostic;
use crate::index::{RefEntry, Resolution};
use crate::rules::edits::hoist::{container_for, hoist, Refusal};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::document::{unescape_pointer_token, Node, NodeKind};
use crate::syntax::source::Span;
use std::collections::HashMap;

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

/// How the rule names the container of a dialect in its messages.
fn container_word(draft: Draft) -> &'static str {
    if draft < Draft::Draft201909 {
        "definitions"
    } else {
        "$defs"
    }
}

impl Rule for RefOutsideDefs {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let index = cx.run.index;
        // One fix per target, shared by every reference to it.
        let mut fixes: HashMap<String, Result<crate::diagnostic::fix::Fix, Refusal>> =
            HashMap::new();
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
            let fix = fixes
                .entry(pointer.clone())
                .or_insert_with(|| hoist(cx, r, &pointer))
                .clone();
            out.push(finding(
                cx,
                r,
                &pointer,
                relative,
                place,
                resource.draft,
                fix,
            ));
        }
    }
}

fn finding(
    cx: &UnitContext<'_>,
    r: &RefEntry,
    target: &str,
    relative: &str,
    place: Place,
    draft: Draft,
    fix: Result<crate::diagnostic::fix::Fix, Refusal>,
) -> Diagnostic {
    let word = container_word(draft);
    let (message, label, class) = match place {
        Place::Outside => (
            format!("`{}` `{}` points outside `{word}`", r.keyword, r.raw),
            format!("not the root (`#`) or a `{word}` entry"),
            "SL305/outside-defs",
        ),
        Place::InsideEntry => {
            let mut tokens = relative.split('/').skip(1);
            let container = tokens.next().unwrap_or(word);
            let entry = unescape_pointer_token(tokens.next().unwrap_or_default());
            (
                format!(
                    "`{}` `{}` points inside the `{container}` entry `{entry}`",
                    r.keyword, r.raw
                ),
                format!("not a `{container}` entry itself"),
                "SL305/inside-def",
            )
        }
    };
    let mut diagnostic = Diagnostic::new(&META, cx.file.id, r.span, message)
        .label(label)
        .note(NOTE)
        .class(class)
        .pointer(r.pointer(cx.root));
    if let Some(span) = cx
        .root
        .pointer(target)
        .map(|n| target_span(cx.root, target, n))
    {
        diagnostic = diagnostic.related(cx.file.id, span, "the subschema it points at");
    }
    match fix {
        Ok(fix) => diagnostic
            .help(format!(
                "Move the subschema into the root's `{word}` and point the references at it"
            ))
            .fix(fix),
        Err(refusal) => {
            let container = cx
                .root
                .pointer(&cx.unit.pointer)
                .map_or(word, |unit| container_for(draft, unit));
            diagnostic.help(format!(
                "Move the subschema into the root's `{container}` and reference it as \
                 `#/{container}/<name>`; not done automatically: {}",
                refusal.reason(container)
            ))
        }
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

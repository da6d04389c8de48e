//! Writing a local `$ref` out in the place that names it, in the file's own layout: what the
//! Gemini fix that inlines every reference (SL707) and the fix that writes a root `$ref`'s
//! target at the root (SL507, [`inline_root_ref`]) share.

use crate::diagnostic::fix::{Applicability, Edit, Fix, Move};
use crate::rules::edits::members::removal_span;
use crate::rules::UnitContext;
use crate::syntax::document::Member;
use crate::syntax::source::Span;

/// Keywords that only annotate: beside a `$ref`, or moved next to its target's members, they
/// never change which instances validate, in any draft.
pub const ANNOTATIONS: [&str; 8] = [
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords that give a subschema a name or a dynamic scope, which copying or moving it would
/// change.
pub const IDENTIFYING: [&str; 5] = [
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveAnchor",
    "$recursiveRef",
    "$anchor",
];

/// The containers of named subschemas at a schema's root.
pub const DEFS: [&str; 2] = ["$defs", "definitions"];

/// `written`, the text of a subschema that started at byte `from` of `text`, laid out to stand
/// at byte `to`: every line after the first is moved by the difference of the two lines'
/// indentations (where that many spaces are there to take away).
#[must_use]
pub fn reindent(text: &str, from: usize, to: usize, written: &str) -> String {
    let indent = |at: usize| {
        let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
        text[line..].len() - text[line..].trim_start_matches(' ').len()
    };
    let (old, new) = (indent(from), indent(to));
    if old == new || !written.contains('\n') {
        return written.to_owned();
    }
    let mut lines = written.split('\n');
    let mut out = lines.next().unwrap_or_default().to_owned();
    for line in lines {
        out.push('\n');
        let spaces = line.len() - line.trim_start_matches(' ').len();
        if new > old {
            out.push_str(&" ".repeat(new - old));
            out.push_str(line);
        } else {
            out.push_str(&line[spaces.min(old - new)..]);
        }
    }
    out
}

/// The fix that writes the schema a root `$ref` names in the root's `$defs` (or `definitions`)
/// at the root instead: the `$ref` is replaced by the target's members, laid out as the root's,
/// and the target leaves its container (the container with it, when it was the only one) unless
/// another reference still leads into it. The root validates the same instances: a lone `$ref`
/// applies its target to the root's instance, and the members beside it are annotations, the
/// dialect and the containers, which no draft lets change that (`$ref` and its target never
/// share a schema object with a keyword that reads its neighbours, as `additionalProperties`
/// reads `properties`).
///
/// `None` when the root has other members (or a second reference), when the target is not a
/// non-empty object schema of the root's own container, names itself (`$id`, an anchor, a
/// `$schema`), or holds a member the root holds too.
#[must_use]
pub fn inline_root_ref(cx: &UnitContext<'_>) -> Option<Fix> {
    let tree = cx.tree();
    let subs = cx.subschemas;
    let root = subs.first()?.node;
    let members = root.as_object()?;
    let [Some(target)] = tree.refs_of(0) else {
        return None;
    };
    let target = *target;
    let r = single(members, "$ref")?;
    let lifts = |m: &Member| {
        m.key == "$ref"
            || m.key == "$schema"
            || DEFS.contains(&m.key.as_str())
            || ANNOTATIONS.contains(&m.key.as_str())
    };
    if !members.iter().all(lifts) {
        return None;
    }
    let node = subs[target].node;
    let (c, container, d) = members.iter().enumerate().find_map(|(c, m)| {
        let entries = m
            .value
            .as_object()
            .filter(|_| DEFS.contains(&m.key.as_str()))?;
        let d = entries.iter().position(|e| e.value.span == node.span)?;
        Some((c, m, d))
    })?;
    let entries = container.value.as_object()?;
    let target_members = node.as_object().filter(|t| !t.is_empty())?;
    let names_itself = |m: &Member| {
        IDENTIFYING.contains(&m.key.as_str()) || ["$id", "id", "$schema"].contains(&m.key.as_str())
    };
    if target_members.iter().any(names_itself)
        || target_members
            .iter()
            .any(|t| members.iter().any(|m| m.key != "$ref" && m.key == t.key))
    {
        return None;
    }
    let written = lay_out(cx.text(), members, target_members, r)?;
    let mut edits = vec![Edit {
        file: cx.file.id,
        span: Span::new(r.key_span.start, r.value.span.end),
        content: written,
    }];
    // The target stays where another reference leads into it (it names itself, say).
    let within = |i: usize| {
        let s = subs[i].node.span;
        node.span.start <= s.start && s.end <= node.span.end
    };
    let referred = (1..subs.len()).any(|h| tree.refs_of(h).iter().flatten().any(|&t| within(t)));
    let name = &entries[d].key;
    let mut moves = Vec::new();
    let title = if referred {
        format!("Write `{name}` out at the root in place of its `$ref`")
    } else {
        edits.push(Edit {
            file: cx.file.id,
            span: if entries.len() == 1 {
                removal_span(root, members, c)
            } else {
                removal_span(&container.value, entries, d)
            },
            content: String::new(),
        });
        moves.push(Move {
            file: cx.file.id,
            from: subs[target].pointer.clone(),
            to: subs[0].pointer.clone(),
        });
        format!("Move `{name}` to the root in place of its `$ref`")
    };
    Some(Fix {
        title,
        applicability: Applicability::Safe,
        edits,
        moves,
    })
}

/// The target's members as they stand at the root in place of the `$ref` member `r`: written
/// as in the target, moved to the `$ref`'s indentation; a target written on one line inside a
/// root written one member a line gets the root's layout, each member's own text kept.
fn lay_out(text: &str, root: &[Member], target: &[Member], r: &Member) -> Option<String> {
    let (first, last) = (target.first()?, target.last()?);
    let own = &text[first.key_span.start..last.value.span.end];
    let separator = root
        .windows(2)
        .map(|pair| &text[pair[0].value.span.end..pair[1].key_span.start])
        .find(|between| between.trim() == ",")?;
    if own.contains('\n') || !separator.contains('\n') {
        return Some(reindent(text, first.key_span.start, r.key_span.start, own));
    }
    let written: Vec<&str> = target
        .iter()
        .map(|m| &text[m.key_span.start..m.value.span.end])
        .collect();
    Some(written.join(separator))
}

/// The only member named `key`.
fn single<'m>(members: &'m [Member], key: &str) -> Option<&'m Member> {
    let mut named = members.iter().filter(|m| m.key == key);
    let first = named.next()?;
    named.next().is_none().then_some(first)
}

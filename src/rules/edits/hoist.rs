//! SL305's repair: move the subschema a `$ref` points at (`#/properties/billing`) into the
//! root's `$defs` (or `definitions`), leave `{"$ref": "#/$defs/billing"}` in its place, and point
//! every reference to the old place, or below it, at the new one
//! (`#/properties/billing/properties/zip` becomes `#/$defs/billing/properties/zip`). Offered
//! only where the move keeps what every reference means; [`Refusal`] says why not elsewhere.

use super::defs_fix::uses_dynamic_scope;
use super::relocate::{encode_fragment, Destination, Relocation};
use crate::diagnostic::fix::{Applicability, Edit, Fix, Move};
use crate::index::{RefEntry, Resolution};
use crate::rules::UnitContext;
use crate::schema::dialect::Draft;
use crate::syntax::document::{is_within, unescape_pointer_token, Node};
use crate::syntax::literal::literal;
use crate::syntax::uri::percent_decode;

/// Why the subschema is not moved automatically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The reference, or its target, lies in a subschema with a `$id` of its own (not the
    /// schema's root resource): `#` means that subschema there.
    OtherBase,
    /// The target, or a subschema inside it, declares a `$id`: a resource of its own.
    DeclaresId,
    /// The schema uses `$dynamicRef`, `$dynamicAnchor`, `$recursiveRef` or `$recursiveAnchor`.
    DynamicScope,
    /// The target is not in a subschema position (`#/properties`, `#/enum/0`).
    NotASubschema,
    /// The reference points at the subschema that holds it.
    SelfReference,
    /// The root's container is not an object.
    ContainerNotObject,
    /// Before 2019-09, the root keeps its definitions in `$defs`, which is no keyword there
    /// (SL403): its entries are not subschemas, so what moves there would not be one either.
    DefsBeforeDraft2019,
    /// A reference into the target is written in a way the fix cannot rewrite.
    Unrewritable,
}

impl Refusal {
    /// The reason, as the end of a sentence (the help says "not done automatically: ...").
    #[must_use]
    pub fn reason(self, container: &str) -> String {
        match self {
            Refusal::OtherBase => {
                "it lies in a subschema with a `$id` of its own, the base its references resolve against".to_owned()
            }
            Refusal::DeclaresId => {
                "the subschema, or one inside it, declares a `$id`: a resource of its own".to_owned()
            }
            Refusal::DynamicScope => {
                "the schema uses dynamic references, whose binding depends on the path evaluation took".to_owned()
            }
            Refusal::NotASubschema => "it points at a value that is not a subschema".to_owned(),
            Refusal::SelfReference => "it points at the subschema that holds it".to_owned(),
            Refusal::ContainerNotObject => format!("the root's `{container}` is not an object"),
            Refusal::DefsBeforeDraft2019 => {
                "the root keeps its definitions in `$defs`, which this dialect does not know \
                 (SL403): rename it `definitions` first"
                    .to_owned()
            }
            Refusal::Unrewritable => {
                "a reference into the subschema is spelt in a way the fix cannot rewrite".to_owned()
            }
        }
    }
}

/// The container a schema keeps its definitions in: `definitions` before 2019-09; from then
/// on the one the root has, when it has one of `$defs` and `definitions`, else `$defs`.
#[must_use]
pub fn container_for(draft: Draft, unit_node: &Node) -> &'static str {
    match (unit_node.get("$defs"), unit_node.get("definitions")) {
        _ if draft < Draft::Draft201909 => "definitions",
        (None, Some(_)) => "definitions",
        _ => "$defs",
    }
}

/// Keywords whose members are named subschemas: the name is what a moved one is called.
const NAMING: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// The name a subschema at `relative` (a pointer from the unit root) gets in `$defs`: the last
/// name on the way (a property, a definition), then the keywords after it
/// (`/properties/billing` -> `billing`, `/properties/pair/items/0` -> `pair_items_0`,
/// `/anyOf/1` -> `anyOf_1`).
#[must_use]
pub fn name_for(unit_node: &Node, relative: &str) -> String {
    let tokens: Vec<String> = relative
        .split('/')
        .skip(1)
        .map(unescape_pointer_token)
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut node = Some(unit_node);
    let mut i = 0;
    while i < tokens.len() {
        let keyword = &tokens[i];
        let value = node.and_then(|n| n.get(keyword));
        let next = tokens.get(i + 1);
        match (value, next) {
            (Some(v), Some(name))
                if NAMING.contains(&keyword.as_str()) && v.as_object().is_some() =>
            {
                parts.clear();
                parts.push(name.clone());
                node = v.get(name);
                i += 2;
            }
            (Some(v), Some(index)) if v.as_array().is_some() => {
                parts.push(format!("{keyword}_{index}"));
                node = index
                    .parse::<usize>()
                    .ok()
                    .and_then(|k| v.as_array()?.get(k));
                i += 2;
            }
            _ => {
                parts.push(keyword.clone());
                node = value;
                i += 1;
            }
        }
    }
    parts.join("_")
}

/// A subschema SL305's fix may move: where it is, and the references that land on it or below
/// it, from anywhere in the run.
pub struct Candidate<'a> {
    /// JSON pointer of the subschema in its file.
    pub target: String,
    /// The same, from the unit root.
    pub relative: String,
    node: &'a Node,
    landing: Vec<&'a RefEntry>,
}

/// Where a reference into the root resource of a unit lands in its file.
pub struct Landing<'a> {
    /// The pointer it resolves to.
    pub pointer: String,
    /// The reference, from anywhere in the run.
    pub reference: &'a RefEntry,
}

/// Where each reference into the root resource of the unit lands in its file, from anywhere in
/// the run. Computed once per schema for [`candidate`].
#[must_use]
pub fn landings<'a>(cx: &UnitContext<'a>) -> Vec<Landing<'a>> {
    let index = cx.run.index;
    let run = cx.run;
    let resources = index.resources_in(cx.file.id, cx.unit_no);
    if resources.is_empty() {
        return Vec::new();
    }
    index
        .refs_to(resources.start)
        .filter_map(|r| match index.resolve(r, |f| run.root(f)) {
            Resolution::Found { file, pointer } if file == cx.file.id => Some(Landing {
                pointer,
                reference: r,
            }),
            _ => None,
        })
        .collect()
}

/// The subschema at `target` (a pointer in the file, which `r` resolves to) as a
/// [`Candidate`], or why moving it could change what a reference means; `landings` are the
/// schema's [`landings`].
///
/// # Errors
/// The [`Refusal`] that says why it is not moved.
pub fn candidate<'a>(
    cx: &UnitContext<'a>,
    r: &RefEntry,
    target: &str,
    landings: &[Landing<'a>],
) -> Result<Candidate<'a>, Refusal> {
    let index = cx.run.index;
    let file = cx.file.id;
    let root: &'a Node = cx.root;
    let unit_pointer = cx.unit.pointer.as_str();
    let unit_node = root.pointer(unit_pointer).ok_or(Refusal::NotASubschema)?;
    let resources = index.resources_in(file, cx.unit_no);
    let root_resource = resources.start;
    if resources.is_empty() || index.resources[root_resource].pointer != unit_pointer {
        return Err(Refusal::OtherBase);
    }
    if resources
        .clone()
        .any(|i| i != root_resource && is_within(&index.resources[i].pointer, target))
    {
        return Err(Refusal::DeclaresId);
    }
    if r.resource != root_resource
        || index.enclosing_resource(file, cx.unit_no, target) != Some(root_resource)
    {
        return Err(Refusal::OtherBase);
    }
    if uses_dynamic_scope(unit_node) {
        return Err(Refusal::DynamicScope);
    }
    if !cx.subschemas.iter().any(|s| s.pointer == target) {
        return Err(Refusal::NotASubschema);
    }
    if r.holder(root) == target {
        return Err(Refusal::SelfReference);
    }
    let node = root.pointer(target).ok_or(Refusal::NotASubschema)?;
    let relative = target
        .strip_prefix(unit_pointer)
        .ok_or(Refusal::NotASubschema)?
        .to_owned();
    let draft = index.resources[root_resource].draft;
    if draft < Draft::Draft201909
        && unit_node.get("$defs").is_some()
        && unit_node.get("definitions").is_none()
    {
        return Err(Refusal::DefsBeforeDraft2019);
    }
    if unit_node
        .get(container_for(draft, unit_node))
        .is_some_and(|c| c.as_object().is_none())
    {
        return Err(Refusal::ContainerNotObject);
    }
    let mut landing = Vec::new();
    for Landing {
        pointer,
        reference: other,
    } in landings
    {
        if !is_within(pointer, target) {
            continue;
        }
        // An anchor moves with the subschema that declares it.
        match other.raw.split_once('#') {
            Some((_, fragment)) if fragment.starts_with('/') => {
                rewrite_fragment(fragment, &relative, "").ok_or(Refusal::Unrewritable)?;
                landing.push(*other);
            }
            _ => {}
        }
    }
    Ok(Candidate {
        target: target.to_owned(),
        relative,
        node,
        landing,
    })
}

/// How many subschemas one fix moves at most. Every finding of a schema carries the fix that
/// moves its target, so a fix that moved all of thousands of targets would be held thousands
/// of times; the fix loop applies one such fix per pass (they all add to the container at the
/// same place), and the next pass offers the rest.
const MOVES_PER_FIX: usize = 64;

/// Where a subschema goes: its pointer before and after, both from the unit root.
pub struct Moved {
    /// Where it was.
    pub old: String,
    /// Where it goes.
    pub new: String,
}

/// A fix that moves subschemas into the root's container, with where each goes.
pub struct Hoist {
    /// The fix (without its title, which each finding gives it).
    pub fix: Fix,
    /// Where its subschemas go, in document order.
    pub moved: Vec<Moved>,
}

/// The fixes that move the candidates of one schema into its root's container, up to
/// [`MOVES_PER_FIX`] at a time in document order, each with where its subschemas go. A
/// candidate inside another one moves with it (its references are rewritten to follow), and is
/// left for the next pass of the fix loop.
#[must_use]
pub fn hoist_all(cx: &UnitContext<'_>, candidates: &[&Candidate<'_>]) -> Vec<Hoist> {
    let Some(unit_node) = cx.root.pointer(&cx.unit.pointer) else {
        return Vec::new();
    };
    let resources = cx.run.index.resources_in(cx.file.id, cx.unit_no);
    let Some(root_resource) = cx.run.index.resources.get(resources.start) else {
        return Vec::new();
    };
    let dest = Destination {
        file: cx.file.id,
        text: cx.text(),
        unit_node,
        container: container_for(root_resource.draft, unit_node),
    };
    let mut outermost: Vec<&Candidate<'_>> = candidates
        .iter()
        .copied()
        .filter(|c| {
            !candidates
                .iter()
                .any(|o| o.target != c.target && is_within(&c.target, &o.target))
        })
        .collect();
    outermost.sort_by_key(|c| c.node.span.start);
    outermost.dedup_by(|a, b| a.target == b.target);
    outermost
        .chunks(MOVES_PER_FIX)
        .filter_map(|chunk| hoist_chunk(cx, &dest, chunk))
        .collect()
}

/// The fix that moves `chunk` (subschemas that do not overlap, in document order).
fn hoist_chunk(
    cx: &UnitContext<'_>,
    dest: &Destination<'_>,
    chunk: &[&Candidate<'_>],
) -> Option<Hoist> {
    let file = cx.file.id;
    let mut keys: Vec<String> = Vec::new();
    let mut moved: Vec<Moved> = Vec::new();
    for c in chunk {
        let key = dest.key_for(&name_for(dest.unit_node, &c.relative), &keys);
        moved.push(Moved {
            old: c.relative.clone(),
            new: dest.pointer(&key),
        });
        keys.push(key);
    }
    // Every reference into a moved subschema follows it; one inside a moved subschema is
    // edited in the moved text.
    let mut inner: Vec<Vec<Edit>> = vec![Vec::new(); chunk.len()];
    let mut edits = Vec::new();
    for (c, Moved { old, new }) in chunk.iter().zip(&moved) {
        for r in &c.landing {
            let (doc, fragment) = r.raw.split_once('#')?;
            let edit = Edit {
                file: r.file,
                span: r.span,
                content: literal(&format!("{doc}#{}", rewrite_fragment(fragment, old, new)?)),
            };
            match chunk.iter().position(|o| {
                r.file == file && o.node.span.start <= r.span.start && r.span.end <= o.node.span.end
            }) {
                Some(i) => inner[i].push(edit),
                None => edits.push(edit),
            }
        }
    }
    let relocations: Vec<Relocation<'_>> = chunk
        .iter()
        .zip(&keys)
        .zip(&inner)
        .map(|((c, key), inner)| Relocation {
            node: c.node,
            key,
            inner,
        })
        .collect();
    edits.extend(dest.move_all(&relocations)?);
    let unit_pointer = cx.unit.pointer.as_str();
    let fix = Fix {
        title: String::new(),
        applicability: Applicability::Safe,
        edits,
        moves: moved
            .iter()
            .map(|Moved { old, new }| Move {
                file,
                from: format!("{unit_pointer}{old}"),
                to: format!("{unit_pointer}{new}"),
            })
            .collect(),
    };
    Some(Hoist { fix, moved })
}

/// The fragment of a reference into `old` (a pointer from the resource root, which the
/// fragment's first tokens name) rewritten to go through `new` instead. The part after `old`
/// is kept as written when the fragment's segments line up with its tokens (no `%2F`), and
/// written anew otherwise.
fn rewrite_fragment(fragment: &str, old: &str, new: &str) -> Option<String> {
    let depth = old.split('/').count() - 1;
    let decoded = percent_decode(fragment)?;
    let segments: Vec<&str> = fragment.split('/').skip(1).collect();
    let tokens: Vec<&str> = decoded.split('/').skip(1).collect();
    if tokens.len() < depth || format!("/{}", tokens[..depth].join("/")) != old {
        return None;
    }
    let mut out = encode_fragment(new);
    if segments.len() == tokens.len() {
        for segment in &segments[depth..] {
            out.push('/');
            out.push_str(segment);
        }
    } else {
        for token in &tokens[depth..] {
            out.push('/');
            out.push_str(&encode_fragment(token));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    #[test]
    fn names_come_from_the_last_name_on_the_way() {
        let root = parse(
            r#"{"properties": {"billing": {"properties": {"zip": {}}},
                "pair": {"items": [{}, {}]}, "a b": {"items": {}}},
                "anyOf": [{}, {}], "$defs": {"x": {"properties": {"y": {}}}}}"#,
        )
        .unwrap();
        assert_eq!(name_for(&root, "/properties/billing"), "billing");
        assert_eq!(name_for(&root, "/properties/billing/properties/zip"), "zip");
        assert_eq!(name_for(&root, "/properties/pair/items/1"), "pair_items_1");
        assert_eq!(name_for(&root, "/properties/a b/items"), "a b_items");
        assert_eq!(name_for(&root, "/anyOf/1"), "anyOf_1");
        assert_eq!(name_for(&root, "/$defs/x/properties/y"), "y");
        assert_eq!(name_for(&root, "/properties/a~1b"), "a/b");
    }

    #[test]
    fn fragments_keep_their_spelling_after_the_moved_part() {
        let new = "/$defs/billing";
        assert_eq!(
            rewrite_fragment("/properties/billing", "/properties/billing", new).as_deref(),
            Some("/$defs/billing")
        );
        assert_eq!(
            rewrite_fragment(
                "/properties/billing/properties/z%69p~1x",
                "/properties/billing",
                new
            )
            .as_deref(),
            Some("/$defs/billing/properties/z%69p~1x")
        );
        // `%2F` makes one segment two tokens: written anew.
        assert_eq!(
            rewrite_fragment("/properties/a%2Fb/x", "/properties/a", new).as_deref(),
            Some("/$defs/billing/b/x")
        );
        assert_eq!(
            rewrite_fragment("/properties/other", "/properties/billing", new),
            None
        );
    }
}

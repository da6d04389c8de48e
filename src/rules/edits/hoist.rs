//! SL305's repair: move the subschema a `$ref` points at (`#/properties/billing`) into the
//! root's `$defs` (or `definitions`), leave `{"$ref": "#/$defs/billing"}` in its place, and point
//! every reference to the old place, or below it, at the new one
//! (`#/properties/billing/properties/zip` becomes `#/$defs/billing/properties/zip`). Offered
//! only where the move keeps what every reference means; [`Refusal`] says why not elsewhere.

use super::defs_fix::uses_dynamic_scope;
use super::relocate::{encode_fragment, Destination};
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
            Refusal::Unrewritable => {
                "a reference into the subschema is spelt in a way the fix cannot rewrite".to_owned()
            }
        }
    }
}

/// The container a schema of `draft` keeps its definitions in: before 2019-09 `definitions`;
/// from 2019-09 on `$defs`, or `definitions` when the root has that and no `$defs`.
#[must_use]
pub fn container_for(draft: Draft, unit_node: &Node) -> &'static str {
    let only_definitions =
        unit_node.get("$defs").is_none() && unit_node.get("definitions").is_some();
    if draft < Draft::Draft201909 || only_definitions {
        "definitions"
    } else {
        "$defs"
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

/// The fix that moves the subschema at `target` (a pointer in the file, which `r` resolves to)
/// into the root's container, or why it is not offered.
///
/// # Errors
/// The [`Refusal`] that says why the move could change what a reference means.
pub fn hoist(cx: &UnitContext<'_>, r: &RefEntry, target: &str) -> Result<Fix, Refusal> {
    let index = cx.run.index;
    let file = cx.file.id;
    let unit_pointer = cx.unit.pointer.as_str();
    let unit_node = cx
        .root
        .pointer(unit_pointer)
        .ok_or(Refusal::NotASubschema)?;
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
    if r.holder(cx.root) == target {
        return Err(Refusal::SelfReference);
    }
    let node = cx.root.pointer(target).ok_or(Refusal::NotASubschema)?;
    let relative = target
        .strip_prefix(unit_pointer)
        .ok_or(Refusal::NotASubschema)?;
    let dest = Destination {
        file,
        text: cx.text(),
        unit_node,
        container: container_for(index.resources[root_resource].draft, unit_node),
    };
    if dest.existing().is_some_and(|c| c.as_object().is_none()) {
        return Err(Refusal::ContainerNotObject);
    }
    let key = dest.key_for(&name_for(unit_node, relative));
    let new_relative = dest.pointer(&key);
    // Every reference that lands on the target or below it, from anywhere in the run, follows it.
    let mut edits = Vec::new();
    for other in index.refs_to(root_resource) {
        let Resolution::Found { file: f, pointer } = index.resolve(other, |f| cx.run.root(f))
        else {
            continue;
        };
        if f != file || !is_within(&pointer, target) {
            continue;
        }
        let Some((doc, fragment)) = other.raw.split_once('#') else {
            continue;
        };
        // An anchor moves with the subschema that declares it.
        if !fragment.starts_with('/') {
            continue;
        }
        let new_fragment =
            rewrite_fragment(fragment, relative, &new_relative).ok_or(Refusal::Unrewritable)?;
        edits.push(Edit {
            file: other.file,
            span: other.span,
            content: literal(&format!("{doc}#{new_fragment}")),
        });
    }
    let rewritten = edits.len();
    let (inner, mut outer): (Vec<Edit>, Vec<Edit>) = edits.into_iter().partition(|e| {
        e.file == file && node.span.start <= e.span.start && e.span.end <= node.span.end
    });
    outer.extend(
        dest.move_edits(node, &key, &inner)
            .ok_or(Refusal::Unrewritable)?,
    );
    let title = format!(
        "Move `#{}` to `#{}` and point {} at it",
        encode_fragment(relative),
        encode_fragment(&new_relative),
        match rewritten {
            1 => "its `$ref`".to_owned(),
            n => format!("its {n} `$ref`s"),
        }
    );
    Ok(Fix {
        title,
        applicability: Applicability::Safe,
        edits: outer,
        moves: vec![Move {
            file,
            from: target.to_owned(),
            to: format!("{unit_pointer}{new_relative}"),
        }],
    })
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

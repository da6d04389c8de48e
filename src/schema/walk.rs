//! Visits the subschemas of a schema, per draft, the way the `referencing` crate finds them.
//!
//! Only real subschema positions are visited: a `$id` inside `const`, `enum`, `default`,
//! `examples` or an unknown keyword is data and never reaches a rule.

use crate::schema::dialect::Draft;
use crate::syntax::document::{push_pointer_token, Member, Members, Node, NodeKind};

/// How a keyword holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Children {
    /// The value is a schema.
    Single,
    /// The value is an array of schemas.
    Array,
    /// The value is an object whose member values are schemas.
    Object,
    /// The value is an object whose object-valued members are schemas (`dependencies`).
    ObjectOfObjects,
}

fn children(draft: Draft, keyword: &str, value: &Node) -> Option<Children> {
    let is_array = value.as_array().is_some();
    match draft {
        Draft::Draft4 => match keyword {
            "items" if is_array => Some(Children::Array),
            "additionalItems" | "additionalProperties" if value.as_object().is_some() => {
                Some(Children::Single)
            }
            "contains"
            | "contentSchema"
            | "items"
            | "else"
            | "if"
            | "not"
            | "propertyNames"
            | "then"
            | "unevaluatedItems"
            | "unevaluatedProperties" => Some(Children::Single),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => Some(Children::Array),
            "$defs" | "definitions" | "dependentSchemas" | "patternProperties" | "properties" => {
                Some(Children::Object)
            }
            "dependencies" => Some(Children::ObjectOfObjects),
            _ => None,
        },
        Draft::Draft6 => match keyword {
            "items" if is_array => Some(Children::Array),
            "additionalItems"
            | "additionalProperties"
            | "contains"
            | "items"
            | "not"
            | "propertyNames" => Some(Children::Single),
            "allOf" | "anyOf" | "oneOf" => Some(Children::Array),
            "definitions" | "patternProperties" | "properties" => Some(Children::Object),
            "dependencies" => Some(Children::ObjectOfObjects),
            _ => None,
        },
        Draft::Draft7 => match keyword {
            "items" if is_array => Some(Children::Array),
            "additionalItems"
            | "additionalProperties"
            | "contains"
            | "else"
            | "items"
            | "if"
            | "not"
            | "propertyNames"
            | "then" => Some(Children::Single),
            "allOf" | "anyOf" | "oneOf" => Some(Children::Array),
            "definitions" | "patternProperties" | "properties" => Some(Children::Object),
            "dependencies" => Some(Children::ObjectOfObjects),
            _ => None,
        },
        Draft::Draft201909 => match keyword {
            "items" if is_array => Some(Children::Array),
            "additionalItems"
            | "additionalProperties"
            | "contains"
            | "contentSchema"
            | "items"
            | "else"
            | "if"
            | "not"
            | "propertyNames"
            | "then"
            | "unevaluatedItems"
            | "unevaluatedProperties" => Some(Children::Single),
            "allOf" | "anyOf" | "oneOf" => Some(Children::Array),
            "$defs" | "definitions" | "dependentSchemas" | "patternProperties" | "properties" => {
                Some(Children::Object)
            }
            "dependencies" => Some(Children::ObjectOfObjects),
            _ => None,
        },
        Draft::Draft202012 => match keyword {
            "additionalProperties"
            | "contains"
            | "contentSchema"
            | "else"
            | "if"
            | "items"
            | "not"
            | "propertyNames"
            | "then"
            | "unevaluatedItems"
            | "unevaluatedProperties" => Some(Children::Single),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => Some(Children::Array),
            "$defs" | "definitions" | "dependentSchemas" | "patternProperties" | "properties" => {
                Some(Children::Object)
            }
            _ => None,
        },
    }
}

/// One subschema of a schema, in document order.
#[derive(Debug, Clone)]
pub struct Subschema<'a> {
    /// The subschema's value (an object, or a boolean from draft-06 on).
    pub node: &'a Node,
    /// JSON pointer of the subschema within its file.
    pub pointer: String,
    /// The dialect in force here (an embedded resource may declare its own `$schema`).
    pub draft: Draft,
    /// The keyword that holds this subschema (`properties` for `/properties/a`); `None` at the root.
    pub keyword: Option<&'a str>,
    /// Number of subschema steps from the unit's root.
    pub depth: usize,
}

impl Subschema<'_> {
    /// The identifier keyword's value node (`$id`, or `id` in draft-04), when it is a string.
    #[must_use]
    pub fn id(&self) -> Option<&Node> {
        self.node
            .get(self.draft.id_keyword())
            .filter(|n| n.as_str().is_some())
    }
}

/// The dialect a schema object declares with a known `$schema`, if any.
#[must_use]
pub fn declared_draft(node: &Node) -> Option<Draft> {
    node.get("$schema")?
        .as_str()
        .and_then(Draft::from_schema_uri)
}

/// Every subschema of the schema at `root` (whose pointer in its file is `root_pointer`),
/// starting with the root itself. Booleans are schemas from draft-06 on; other values in a
/// schema position are not visited (the meta-schema check reports them).
#[must_use]
pub fn walk<'a>(root: &'a Node, root_pointer: &str, draft: Draft) -> Vec<Subschema<'a>> {
    let lazy = walk_lazy(root, draft);
    let mut pointers: Vec<String> = Vec::with_capacity(lazy.len());
    for sub in &lazy {
        let pointer = match sub.step {
            None => root_pointer.to_owned(),
            Some((keyword, entry)) => {
                let parent = &pointers[sub.parent];
                let mut pointer = String::with_capacity(parent.len() + keyword.len() + 16);
                pointer.push_str(parent);
                push_step(&mut pointer, keyword, entry);
                pointer
            }
        };
        pointers.push(pointer);
    }
    lazy.into_iter()
        .zip(pointers)
        .map(|(sub, pointer)| Subschema {
            node: sub.node,
            pointer,
            draft: sub.draft,
            keyword: sub.step.map(|(k, _)| k),
            depth: sub.depth,
        })
        .collect()
}

/// Where a subschema sits below its parent: the keyword, and the entry of an object or array
/// keyword (`properties` + `a`, `allOf` + `0`).
type Step<'a> = (&'a str, Option<Entry<'a>>);

/// An entry of a keyword that holds several subschemas.
#[derive(Clone, Copy, Debug)]
pub enum Entry<'a> {
    /// The member key under an object keyword (`a` in `properties/a`).
    Key(&'a str),
    /// The 0-based item index under an array keyword (`0` in `allOf/0`).
    Index(usize),
}

fn push_step(pointer: &mut String, keyword: &str, entry: Option<Entry<'_>>) {
    push_pointer_token(pointer, keyword);
    match entry {
        None => {}
        Some(Entry::Key(key)) => push_pointer_token(pointer, key),
        Some(Entry::Index(i)) => {
            use std::fmt::Write as _;
            let _ = write!(pointer, "/{i}");
        }
    }
}

/// A subschema as [`walk_lazy`] finds it: its pointer is built only when asked for
/// ([`lazy_pointer`]).
#[derive(Debug, Clone)]
pub struct LazySubschema<'a> {
    /// The subschema's value (an object, or a boolean from draft-06 on).
    pub node: &'a Node,
    /// The dialect in force here (an embedded resource may declare its own `$schema`).
    pub draft: Draft,
    /// Number of subschema steps from the root; in document order, the subschemas below one
    /// are those that follow it with a greater depth.
    pub depth: usize,
    /// Index of the subschema holding this one (0 for the root itself).
    parent: usize,
    step: Option<Step<'a>>,
}

/// The JSON pointer of `subs[i]`, for subschemas of a root at `root_pointer`.
#[must_use]
pub fn lazy_pointer(subs: &[LazySubschema<'_>], i: usize, root_pointer: &str) -> String {
    let mut chain = Vec::new();
    let mut at = i;
    while let Some(step) = subs[at].step {
        chain.push(step);
        at = subs[at].parent;
    }
    let mut pointer = root_pointer.to_owned();
    for (keyword, entry) in chain.into_iter().rev() {
        push_step(&mut pointer, keyword, entry);
    }
    pointer
}

/// The subschemas [`walk`] visits, in the same order, without their pointers.
#[must_use]
pub fn walk_lazy(root: &Node, draft: Draft) -> Vec<LazySubschema<'_>> {
    let mut out: Vec<LazySubschema<'_>> = Vec::new();
    let mut stack = vec![LazySubschema {
        node: root,
        draft: declared_draft(root).unwrap_or(draft),
        depth: 0,
        parent: 0,
        step: None,
    }];
    let mut pending = Vec::new();
    while let Some(current) = stack.pop() {
        let parent = out.len();
        if let NodeKind::Object(members) = &current.node.kind {
            for member in live(members) {
                let Some(kind) = children(current.draft, &member.key, &member.value) else {
                    continue;
                };
                let mut push = |node, entry| {
                    if is_schema_value(node, current.draft) {
                        let draft = if node.get(current.draft.id_keyword()).is_some() {
                            declared_draft(node).unwrap_or(current.draft)
                        } else {
                            current.draft
                        };
                        pending.push(LazySubschema {
                            node,
                            draft,
                            depth: current.depth + 1,
                            parent,
                            step: Some((member.key.as_str(), entry)),
                        });
                    }
                };
                match (kind, &member.value.kind) {
                    (Children::Single, _) => push(&member.value, None),
                    (Children::Array, NodeKind::Array(items)) => {
                        for (i, item) in items.iter().enumerate() {
                            push(item, Some(Entry::Index(i)));
                        }
                    }
                    (Children::Object | Children::ObjectOfObjects, NodeKind::Object(entries)) => {
                        for entry in live(entries) {
                            if kind == Children::ObjectOfObjects
                                && entry.value.as_object().is_none()
                            {
                                continue;
                            }
                            push(&entry.value, Some(Entry::Key(entry.key.as_str())));
                        }
                    }
                    _ => {}
                }
            }
        }
        out.push(current);
        stack.extend(pending.drain(..).rev());
    }
    out
}

/// The members of an object that engines see: with a key repeated, only the last (SL101
/// reports the others). A shadowed member is not a subschema, and a JSON pointer to its key
/// names the last one.
fn live(members: &Members) -> impl Iterator<Item = &Member> {
    let shadowed = members.shadowed().unwrap_or_default();
    members
        .iter()
        .enumerate()
        .filter(move |(i, _)| !shadowed.get(*i).copied().unwrap_or(false))
        .map(|(_, m)| m)
}

fn is_schema_value(node: &Node, draft: Draft) -> bool {
    match node.kind {
        NodeKind::Object(_) => true,
        NodeKind::Bool(_) => draft != Draft::Draft4,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn pointers(text: &str, draft: Draft) -> Vec<String> {
        let root = parse(text).unwrap();
        walk(&root, "", draft)
            .into_iter()
            .map(|s| s.pointer)
            .collect()
    }

    #[test]
    fn visits_only_subschema_positions() {
        let text = r#"{
            "properties": {"a/b": {"$id": "x"}, "c": true},
            "const": {"$id": "data"},
            "examples": [{"$id": "data"}],
            "x-unknown": {"$id": "data"},
            "items": [{"type": "string"}],
            "prefixItems": [{}],
            "$defs": {"d": {"not": {}}}
        }"#;
        assert_eq!(
            pointers(text, Draft::Draft202012),
            vec![
                "",
                "/properties/a~1b",
                "/properties/c",
                "/prefixItems/0",
                "/$defs/d",
                "/$defs/d/not"
            ]
        );
        assert_eq!(
            pointers(text, Draft::Draft7),
            vec!["", "/properties/a~1b", "/properties/c", "/items/0"]
        );
    }

    #[test]
    fn a_shadowed_duplicate_is_not_a_subschema() {
        // Engines keep the last `a` and the last `items`; a pointer names those.
        let text = r#"{"properties": {"a": {"$ref": "x y"}, "a": {"not": {}}},
                       "items": {"$id": "first"}, "items": {"type": "string"}}"#;
        assert_eq!(
            pointers(text, Draft::Draft202012),
            vec!["", "/properties/a", "/properties/a/not", "/items"]
        );
        let root = parse(text).unwrap();
        let subs = walk(&root, "", Draft::Draft202012);
        assert!(subs[1].node.get("not").is_some());
        assert!(subs[3].node.get("type").is_some());
    }

    #[test]
    fn dependencies_only_object_values() {
        let text = r#"{"dependencies": {"a": ["b"], "c": {"type": "object"}}}"#;
        assert_eq!(pointers(text, Draft::Draft7), vec!["", "/dependencies/c"]);
        assert_eq!(pointers(text, Draft::Draft202012), vec![""]);
    }

    #[test]
    fn embedded_resource_switches_draft() {
        let text = r#"{"$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"e": {"$id": "e.json", "$schema": "https://json-schema.org/draft/2020-12/schema",
                                  "prefixItems": [{}]}}}"#;
        let root = parse(text).unwrap();
        let subs = walk(&root, "", Draft::Draft202012);
        assert_eq!(subs[0].draft, Draft::Draft7);
        assert_eq!(subs[1].draft, Draft::Draft202012);
        assert_eq!(subs.len(), 3);
    }
}

//! How the subschemas of a unit nest, and which dialect each is read in: what the dialect rules
//! (SL403, SL404) need beyond the flat list the walk gives.

use crate::index::Resolution;
use crate::rules::UnitContext;
use crate::schema::dialect::Draft;
use crate::schema::walk::{declared_draft, Subschema};
use crate::syntax::document::is_within;

/// Facts about each subschema of a unit, by its index in `UnitContext::subschemas`.
pub(crate) struct Ancestry {
    /// The nearest enclosing subschema.
    pub parent: Vec<Option<usize>>,
    /// Whether the dialect in force comes from a `$schema` (of the unit root or of an embedded
    /// resource root) rather than from the default dialect.
    pub declared: Vec<bool>,
    /// The dialect an engine that honours `$schema` in any subschema (Python's `jsonschema`, the
    /// Rust `jsonschema` crate) reads the subschema in; `None` once an unknown `$schema` was met.
    pub engine: Vec<Option<Draft>>,
}

impl Ancestry {
    pub(crate) fn of(unit_draft: Draft, subs: &[Subschema<'_>]) -> Self {
        let mut parent = Vec::with_capacity(subs.len());
        let mut declared = Vec::with_capacity(subs.len());
        let mut engine = Vec::with_capacity(subs.len());
        let mut stack: Vec<usize> = Vec::new();
        for (i, sub) in subs.iter().enumerate() {
            while stack
                .last()
                .is_some_and(|&top| !is_within(&sub.pointer, &subs[top].pointer))
            {
                stack.pop();
            }
            let up = stack.last().copied();
            let own = sub
                .node
                .get("$schema")
                .map(|s| s.as_str().and_then(Draft::from_schema_uri));
            let (is_declared, in_engine) = match up {
                None => (own.flatten().is_some(), Some(unit_draft)),
                Some(p) => {
                    // The walk takes a dialect from a subschema that has an id keyword and a
                    // known `$schema` (see `schema_walk::walk`).
                    let switched = sub.node.get(subs[p].draft.id_keyword()).is_some()
                        && declared_draft(sub.node).is_some();
                    let in_engine = match own {
                        None => engine[p],
                        Some(known) => known,
                    };
                    (switched || declared[p], in_engine)
                }
            };
            parent.push(up);
            declared.push(is_declared);
            engine.push(in_engine);
            stack.push(i);
        }
        Self {
            parent,
            declared,
            engine,
        }
    }
}

/// Whether a subschema read in `draft` starts a schema resource: it has its own `$id` (`id` in
/// draft-04). Before 2019-09 a plain-name `$id` (`#foo`) is an anchor, and a `$id` beside `$ref`
/// is ignored, as the `referencing` crate reads them.
pub(crate) fn is_resource_root(node: &crate::syntax::document::Node, draft: Draft) -> bool {
    let Some(id) = node.get(draft.id_keyword()).and_then(|n| n.as_str()) else {
        return false;
    };
    if draft >= Draft::Draft201909 {
        return true;
    }
    !id.starts_with('#') && node.get("$ref").is_none()
}

/// Whether a `$ref` or `$dynamicRef` anywhere in the run lands at or below `pointer` in the
/// unit's file: renaming the keyword there would leave it dangling.
pub(crate) fn referenced_below(cx: &UnitContext<'_>, pointer: &str) -> bool {
    // Only references that name a resource of this file can land in it.
    cx.run.index.refs_into(cx.file.id).any(|r| {
        matches!(
            cx.run.index.resolve(r, |f| cx.run.root(f)),
            Resolution::Found { file, pointer: p } if file == cx.file.id && is_within(&p, pointer)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::walk::walk;
    use crate::syntax::document::parse;

    #[test]
    fn parents_dialects_and_engine_readings() {
        let root = parse(
            r#"{"properties": {
                "a": {"$schema": "http://json-schema.org/draft-07/schema#",
                      "properties": {"b": {"type": "string"}}},
                "c": {"$id": "https://e.com/c", "$schema": "http://json-schema.org/draft-07/schema#"},
                "d": {"$schema": "https://example.com/custom"}
            }}"#,
        )
        .unwrap();
        let subs = walk(&root, "", Draft::Draft202012);
        let pointers: Vec<&str> = subs.iter().map(|s| s.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "",
                "/properties/a",
                "/properties/a/properties/b",
                "/properties/c",
                "/properties/d"
            ]
        );
        let a = Ancestry::of(Draft::Draft202012, &subs);
        assert_eq!(a.parent, [None, Some(0), Some(1), Some(0), Some(0)]);
        // Only the embedded resource declares its dialect in the walk's sense.
        assert_eq!(a.declared, [false, false, false, true, false]);
        assert_eq!(
            a.engine,
            [
                Some(Draft::Draft202012),
                Some(Draft::Draft7),
                Some(Draft::Draft7),
                Some(Draft::Draft7),
                None
            ]
        );
        assert!(is_resource_root(subs[3].node, Draft::Draft202012));
        assert!(!is_resource_root(subs[1].node, Draft::Draft202012));
    }
}

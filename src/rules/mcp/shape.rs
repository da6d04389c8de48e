//! What the MCP output-schema rules (`SL5xx`) share: which units they look at, the shape of a
//! unit's subschema tree, and where its local references lead.

use crate::index::Resolution;
use crate::rules::UnitContext;
use crate::schema::units::Role;
use crate::schema::walk::Subschema;
use crate::syntax::document::is_within;
use crate::syntax::document::{Member, Node, NodeKind};
use crate::syntax::source::Span;
use std::collections::HashMap;

/// Whether the MCP output-schema rules look at this unit: the `outputSchema` of a `tools/list`
/// document, or a schema file linted for an MCP target. Never an `inputSchema`.
#[must_use]
pub fn applies(cx: &UnitContext<'_>) -> bool {
    cx.target.is_mcp() && matches!(cx.unit.role, Role::OutputSchema | Role::Schema)
}

/// The one-byte span of an object's opening brace (the whole node for other values).
#[must_use]
pub fn opening(node: &Node) -> Span {
    match node.kind {
        NodeKind::Object(_) | NodeKind::Array(_) => Span::new(node.span.start, node.span.start + 1),
        _ => node.span,
    }
}

/// Keywords whose subschemas apply to the same instance as the schema that holds them.
const IN_PLACE: [&str; 9] = [
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
];

/// Whether subschemas under `keyword` apply to the same instance as their parent.
#[must_use]
pub fn is_in_place(keyword: &str) -> bool {
    IN_PLACE.contains(&keyword)
}

/// The subschemas of a unit as a tree: each one's parent, and where local references lead.
pub struct Tree<'c, 'a> {
    pub subs: &'c [Subschema<'a>],
    parent: Vec<Option<usize>>,
    /// Subschema index -> the subschemas its references lead to; `None` for a reference that
    /// leaves the unit, does not resolve, or is dynamic.
    refs: HashMap<usize, Vec<Option<usize>>>,
    /// Subschema index -> the subschemas whose references lead to it.
    referrers: HashMap<usize, Vec<usize>>,
    /// Subschema index -> its children under in-place keywords.
    in_place_children: HashMap<usize, Vec<usize>>,
}

impl<'c, 'a> Tree<'c, 'a> {
    #[must_use]
    pub fn new(cx: &'c UnitContext<'a>) -> Self {
        let subs = cx.subschemas;
        // The walk lists subschemas depth first, parents before children.
        let mut parent = Vec::with_capacity(subs.len());
        let mut stack: Vec<usize> = Vec::new();
        for (i, sub) in subs.iter().enumerate() {
            while let Some(&top) = stack.last() {
                if sub.pointer != subs[top].pointer && is_within(&sub.pointer, &subs[top].pointer) {
                    break;
                }
                stack.pop();
            }
            parent.push(stack.last().copied());
            stack.push(i);
        }
        let by_pointer: HashMap<&str, usize> = subs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.pointer.as_str(), i))
            .collect();
        let mut refs: HashMap<usize, Vec<Option<usize>>> = HashMap::new();
        for r in cx.run.index.refs_in(cx.file.id, cx.unit_no) {
            let Some(&holder) = by_pointer.get(r.holder(cx.root).as_str()) else {
                continue;
            };
            let target = match cx.run.index.resolve(r, |f| cx.run.root(f)) {
                Resolution::Found { file, pointer }
                    if r.keyword == "$ref" && file == cx.file.id =>
                {
                    by_pointer.get(pointer.as_str()).copied()
                }
                _ => None,
            };
            refs.entry(holder).or_default().push(target);
        }
        let mut referrers: HashMap<usize, Vec<usize>> = HashMap::new();
        for (&holder, targets) in &refs {
            for t in targets.iter().flatten() {
                referrers.entry(*t).or_default().push(holder);
            }
        }
        let mut in_place_children: HashMap<usize, Vec<usize>> = HashMap::new();
        for (c, p) in parent.iter().enumerate() {
            if let (Some(p), Some(k)) = (p, subs[c].keyword) {
                if is_in_place(k) {
                    in_place_children.entry(*p).or_default().push(c);
                }
            }
        }
        Self {
            subs,
            parent,
            refs,
            referrers,
            in_place_children,
        }
    }

    /// The keywords that lead from the unit's root down to subschema `i`, innermost first.
    pub fn keywords_above(&self, i: usize) -> impl Iterator<Item = &'a str> + '_ {
        let mut at = Some(i);
        std::iter::from_fn(move || {
            let current = at?;
            at = self.parent[current];
            self.subs[current].keyword
        })
    }

    /// The subschemas held in place by subschema `i` under `keyword` (`anyOf` branches, ...).
    #[must_use]
    pub fn children_under(&self, i: usize, keyword: &str) -> Vec<usize> {
        self.in_place_children
            .get(&i)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&c| self.subs[c].keyword == Some(keyword))
            .collect()
    }

    /// Where the references of subschema `i` lead (see [`Tree::refs`]).
    #[must_use]
    pub fn refs_of(&self, i: usize) -> &[Option<usize>] {
        self.refs.get(&i).map_or(&[], Vec::as_slice)
    }

    /// Every subschema that applies to the same instance as subschema `i`: up and down through
    /// in-place applicators (`allOf`, `anyOf`, `if`, ...) and along local `$ref`s both ways.
    /// `None` when one of them holds a reference that cannot be followed, so the set is unknown.
    #[must_use]
    pub fn same_instance(&self, i: usize) -> Option<Vec<usize>> {
        let mut seen = vec![false; self.subs.len()];
        let mut queue = vec![i];
        let mut out = Vec::new();
        seen[i] = true;
        while let Some(s) = queue.pop() {
            out.push(s);
            let mut next: Vec<usize> = Vec::new();
            if let (Some(p), Some(k)) = (self.parent[s], self.subs[s].keyword) {
                if is_in_place(k) {
                    next.push(p);
                }
            }
            next.extend(self.in_place_children.get(&s).into_iter().flatten());
            for t in self.refs_of(s) {
                next.push((*t)?);
            }
            next.extend(self.referrers.get(&s).into_iter().flatten());
            for n in next {
                if !seen[n] {
                    seen[n] = true;
                    queue.push(n);
                }
            }
        }
        out.sort_unstable();
        Some(out)
    }
}

/// The `type` keyword's names (one string or an array of strings); `None` without a `type`.
#[must_use]
pub fn type_names(node: &Node) -> Option<Vec<&str>> {
    let t = node.get("type")?;
    match &t.kind {
        NodeKind::String(s) => Some(vec![s.as_str()]),
        NodeKind::Array(items) => Some(items.iter().filter_map(Node::as_str).collect()),
        _ => Some(Vec::new()),
    }
}

/// Whether the schema's `type` allows objects (no `type` allows everything).
#[must_use]
pub fn may_be_object(node: &Node) -> bool {
    type_names(node).is_none_or(|t| t.contains(&"object"))
}

/// How many members of the object are named `key`.
#[must_use]
pub fn count_members(node: &Node, key: &str) -> usize {
    node.as_object()
        .map_or(0, |m| m.iter().filter(|m| m.key == key).count())
}

/// The span that removes `members[i]` with its separator, leaving the neighbours' layout as it
/// was: from its key to the next key, or for the last member from the end of the previous value
/// to its own end; the whole inside of the braces for a lone member.
#[must_use]
pub fn removal_span(object: &Node, members: &[Member], i: usize) -> Span {
    let member = &members[i];
    match (i.checked_sub(1).map(|p| &members[p]), members.get(i + 1)) {
        (_, Some(next)) => Span::new(member.key_span.start, next.key_span.start),
        (Some(prev), None) => Span::new(prev.value.span.end, member.value.span.end),
        (None, None) => Span::new(object.span.start + 1, object.span.end - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::fix::{apply_edits, Edit};
    use crate::syntax::document::parse;
    use crate::syntax::source::FileId;

    fn remove(text: &str, key: &str) -> String {
        let root = parse(text).unwrap();
        let members = root.as_object().unwrap();
        let i = members.iter().position(|m| m.key == key).unwrap();
        let edit = Edit {
            file: FileId(0),
            span: removal_span(&root, members, i),
            content: String::new(),
        };
        apply_edits(text, &[&edit]).unwrap()
    }

    #[test]
    fn removes_a_member_in_the_files_style() {
        assert_eq!(remove(r#"{"a": 1, "b": 2}"#, "a"), r#"{"b": 2}"#);
        assert_eq!(remove(r#"{"a": 1, "b": 2}"#, "b"), r#"{"a": 1}"#);
        assert_eq!(
            remove("{\n  \"a\": 1,\n  \"b\": 2\n}", "b"),
            "{\n  \"a\": 1\n}"
        );
        assert_eq!(
            remove("{\r\n  \"a\": 1,\r\n  \"b\": 2,\r\n  \"c\": 3\r\n}", "b"),
            "{\r\n  \"a\": 1,\r\n  \"c\": 3\r\n}"
        );
        assert_eq!(remove("{ \"a\": 1 }", "a"), "{}");
    }
}

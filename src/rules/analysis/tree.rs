//! The subschemas of a unit as a tree: each one's parent, its children under in-place
//! applicators, and where its local references lead (the MCP output-schema rules ask which
//! subschemas apply to the same instance).

use super::Unit;
use crate::index::Resolution;
use crate::schema::walk::Subschema;
use crate::syntax::document::is_within;
use std::collections::HashMap;

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
pub struct Tree<'a> {
    /// The unit's subschemas, in document order (as [`crate::rules::UnitContext::subschemas`]).
    pub subs: &'a [Subschema<'a>],
    parent: Vec<Option<usize>>,
    /// Subschema index -> the subschemas its references lead to; `None` for a reference that
    /// leaves the unit, does not resolve, or is dynamic.
    refs: HashMap<usize, Vec<Option<usize>>>,
    /// Subschema index -> the subschemas whose references lead to it.
    referrers: HashMap<usize, Vec<usize>>,
    /// Subschema index -> its children under in-place keywords.
    in_place_children: HashMap<usize, Vec<usize>>,
}

impl<'a> Tree<'a> {
    /// Works out the tree of `unit`'s subschemas and its local references.
    #[must_use]
    pub fn new(unit: &Unit<'a>) -> Self {
        let subs = unit.subschemas;
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
        for r in unit.run.index.refs_in(unit.file, unit.unit_no) {
            let Some(&holder) = by_pointer.get(r.holder(unit.root).as_str()) else {
                continue;
            };
            let target = match unit.run.index.resolve(r, |f| unit.run.root(f)) {
                Resolution::Found { file, pointer } if r.keyword == "$ref" && file == unit.file => {
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

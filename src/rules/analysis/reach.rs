//! Which subschemas a client ever compiles. Ajv compiles the root and what its keywords hold,
//! and a `$defs` (or `definitions`) entry only when a `$ref` it compiles leads there; Python's
//! `jsonschema` and the Rust crate resolve references as validation or compilation reaches
//! them. Measured (`testdata/engines/`): a `$ref` that names nothing inside an entry that nothing
//! references breaks no client.

use super::Unit;
use crate::index::Resolution;
use crate::syntax::document::is_within;

/// The `$defs`/`definitions` entries of a unit, and which of them its root reaches.
pub struct Reach {
    /// Pointers of the entries, in document order.
    entries: Vec<String>,
    /// Whether each entry is reached.
    reached: Vec<bool>,
}

/// A reference between entries: the entry holding it (`None` for the root, outside every
/// entry), and the entry it leads to (`None` outside every entry).
#[derive(Clone, Copy)]
struct Edge {
    from: Option<usize>,
    to: Option<usize>,
}

impl Reach {
    /// Follows the references of the unit from its root until nothing new is reached.
    #[must_use]
    pub fn of(unit: &Unit<'_>) -> Self {
        let entries: Vec<String> = unit
            .subschemas
            .iter()
            .filter(|s| matches!(s.keyword, Some("$defs" | "definitions")))
            .map(|s| s.pointer.clone())
            .collect();
        let mut reach = Self {
            reached: vec![false; entries.len()],
            entries,
        };
        if reach.entries.is_empty() {
            return reach;
        }
        let index = unit.run.index;
        let edges: Vec<Edge> = index
            .refs_in(unit.file, unit.unit_no)
            .iter()
            .filter_map(|r| match index.resolve(r, |f| unit.run.root(f)) {
                Resolution::Found { file, pointer } if file == unit.file => Some(Edge {
                    from: reach.entry_of(&r.holder(unit.root)),
                    to: reach.entry_of(&pointer),
                }),
                _ => None,
            })
            .collect();
        loop {
            let mut changed = false;
            for &Edge { from, to } in &edges {
                let from_reached = from.is_none_or(|i| reach.reached[i]);
                if let (true, Some(to)) = (from_reached, to) {
                    if !reach.reached[to] {
                        reach.reached[to] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        reach
    }

    /// The innermost entry that holds `pointer`, or `None` when no entry does.
    fn entry_of(&self, pointer: &str) -> Option<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| is_within(pointer, e))
            .max_by_key(|(_, e)| e.len())
            .map(|(i, _)| i)
    }

    /// Whether a client compiles the subschema at `pointer`: it lies in no entry, or the
    /// innermost entry that holds it is reached (a `$ref` may lead into a nested entry without
    /// the outer one being compiled, and the other way round).
    #[must_use]
    pub fn is_reached(&self, pointer: &str) -> bool {
        self.entry_of(pointer).is_none_or(|i| self.reached[i])
    }
}

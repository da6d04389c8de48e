//! An index kept file by file, for a run that changes one file at a time (the language server):
//! each file's index ([`RunIndex::of_file`]) is kept, a changed file is indexed again on its
//! own, and the run's index is joined again from the parts; what a change can alter in the other
//! files is read from the parts and the joined index ([`RunIndex::tied_to`],
//! [`RunIndex::same_declarations`]).

use super::{Resource, RunIndex};
use crate::syntax::source::FileId;
use std::collections::{BTreeSet, HashSet};

impl RunIndex {
    /// Joins the indexes of single files, in run order, as [`RunIndex::merge`] does, leaving the
    /// parts as they are.
    #[must_use]
    pub fn merged<'a>(parts: impl IntoIterator<Item = &'a RunIndex>) -> Self {
        Self::merge(parts.into_iter().cloned().collect())
    }

    /// The index of one file (see [`RunIndex::of_file`]) as the index of file `id`.
    #[must_use]
    pub fn renumbered(&self, id: FileId) -> Self {
        let mut part = self.clone();
        for r in &mut part.resources {
            r.file = id;
        }
        for r in &mut part.refs {
            r.file = id;
        }
        for a in &mut part.ambiguous_anchors {
            a.file = id;
        }
        part.file_uris = part.file_uris.into_values().map(|uri| (id, uri)).collect();
        part.by_location = part
            .by_location
            .into_iter()
            .map(|((_, pointer), r)| ((id, pointer), r))
            .collect();
        part.unit_ranges = part
            .unit_ranges
            .into_iter()
            .map(|((_, unit), ranges)| ((id, unit), ranges))
            .collect();
        part
    }

    /// Whether two indexes of one file declare the same things to the rest of the run: the same
    /// resources (where, with which base and identifier), anchors and escaped `$defs` keys.
    /// When they do, a change to the file can alter another file's findings only through the
    /// references between them ([`RunIndex::tied_to`]).
    #[must_use]
    pub fn same_declarations(&self, other: &RunIndex) -> bool {
        self.resources.len() == other.resources.len()
            && self
                .resources
                .iter()
                .zip(&other.resources)
                .all(|(a, b)| same_resource(a, b))
            && sorted_anchors(self) == sorted_anchors(other)
            && self.ambiguous_anchors.len() == other.ambiguous_anchors.len()
            && self.escaped_defs_keys == other.escaped_defs_keys
    }

    /// The files a reference ties to those of `files`: those holding a reference whose
    /// document part names a resource of one of them, and those holding a resource that a
    /// reference of one of them names (the files of `files` among them only when so tied).
    #[must_use]
    pub fn tied_to(&self, files: &BTreeSet<FileId>) -> HashSet<FileId> {
        let mut out = HashSet::new();
        for (r, target) in self.refs.iter().zip(&self.ref_targets) {
            let Some(t) = target.map(|t| &self.resources[t]) else {
                continue;
            };
            if t.file != r.file {
                if files.contains(&t.file) {
                    out.insert(r.file);
                }
                if files.contains(&r.file) {
                    out.insert(t.file);
                }
            }
        }
        out
    }
}

/// Whether two resources of one file are declared alike (where their identifiers are written
/// aside).
fn same_resource(a: &Resource, b: &Resource) -> bool {
    let id = |r: &Resource| r.id.as_ref().map(|id| (id.raw.clone(), id.valid));
    (a.unit, &a.pointer, &a.base, &a.lenient_base, a.draft)
        == (b.unit, &b.pointer, &b.base, &b.lenient_base, b.draft)
        && id(a) == id(b)
}

fn sorted_anchors(index: &RunIndex) -> Vec<(&(usize, String), &String)> {
    let mut all: Vec<_> = index.anchors.iter().collect();
    all.sort();
    all
}

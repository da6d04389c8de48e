//! The run-wide index of identifiers and references: every schema resource (a unit root or a
//! subschema with a `$id`), its base URI and anchors, and every `$ref`/`$dynamicRef` with the base
//! it resolves against. Built once per run, kept small (pointers and strings, no subtrees), and
//! shared by the reference rules and the rename fixes.
//!
//! Resolution never leaves the linted set: a reference is looked up among the files of the run
//! by URI, and anything else is reported as remote or missing, never fetched or opened.

use crate::schema::dialect::Draft;
use crate::schema::units::{units, FileKind};
use crate::syntax::document::Node;
use crate::syntax::source::{FileId, Span};
use crate::syntax::uri::file_uri;
use std::collections::HashMap;

use std::path::Path;

/// The stand-in base URI of a unit that has none (see [`RunIndex::unit_uri`]).
pub const STAND_IN_BASE: &str = "https://unit.schema-lint.invalid/";

/// A `$id` as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdEntry {
    /// The value, with its JSON escapes decoded but otherwise unchanged (not normalised).
    pub raw: String,
    /// Span of the value's string literal.
    pub span: Span,
    /// Span of the member's key (`"$id"`).
    pub key_span: Span,
    /// Whether the value is an RFC 3986 URI-reference.
    pub valid: bool,
}

/// A schema resource: a unit root, or a subschema that declares a `$id`.
#[derive(Clone, Debug)]
pub struct Resource {
    /// The file that holds the resource.
    pub file: FileId,
    /// Index of the unit within the file.
    pub unit: usize,
    /// JSON pointer of the resource's root within its file.
    pub pointer: String,
    /// The absolute base URI (no fragment) of the resource, when it could be computed.
    pub base: Option<String>,
    /// The base once every invalid `$id` on the way is taken percent-encoded: what engines will
    /// see after the repairs, which renames and the matching of invalid references follow.
    pub lenient_base: Option<String>,
    /// The identifier the resource declares (`$id`, or `id` in draft-04); a unit root may
    /// declare none.
    pub id: Option<IdEntry>,
    /// The dialect in force at the resource's root.
    pub draft: Draft,
}

/// A `$ref` or `$dynamicRef`.
#[derive(Clone, Debug)]
pub struct RefEntry {
    /// The file that holds the reference.
    pub file: FileId,
    /// Index of the unit within the file.
    pub unit: usize,
    /// The keyword: `$ref` or `$dynamicRef`.
    pub keyword: &'static str,
    /// The reference as written; most are short enough to be kept inline.
    pub raw: compact_str::CompactString,
    /// Span of the value's string literal.
    pub span: Span,
    /// Index (into [`RunIndex::resources`]) of the innermost resource holding the reference.
    pub resource: usize,
}

impl RefEntry {
    /// The JSON pointer of the reference's value (`.../$ref`), read from its file's tree: the
    /// index keeps no pointer per reference, which would make it as large as the documents.
    #[must_use]
    pub fn pointer(&self, root: &Node) -> String {
        root.pointer_to(self.span).unwrap_or_default()
    }

    /// The JSON pointer of the subschema holding the reference.
    #[must_use]
    pub fn holder(&self, root: &Node) -> String {
        let mut pointer = self.pointer(root);
        pointer.truncate(pointer.len().saturating_sub(self.keyword.len() + 1));
        pointer
    }
}

/// Where a reference leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// A node of a file in the run.
    Found {
        /// The file that holds the node.
        file: FileId,
        /// JSON pointer of the node within that file.
        pointer: String,
    },
    /// A network URI outside the linted set (never fetched).
    Remote(String),
    /// Nothing in the run answers to it.
    Missing(String),
    /// The reference is not a URI-reference and names no (equally invalid) `$id` of the run.
    Invalid,
}

/// An anchor named twice in one resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmbiguousAnchor {
    /// The file of the resource.
    pub file: FileId,
    /// The pointer of the resource's root in it.
    pub resource: String,
    /// The anchor's name.
    pub name: String,
}

/// The index of a run.
#[derive(Debug, Default, Clone)]
pub struct RunIndex {
    /// Every schema resource of the run: file by file in run order, each unit's in document
    /// order (so a unit's root comes before the resources inside it).
    pub resources: Vec<Resource>,
    /// Every `$ref` and `$dynamicRef` of the run whose value is a string, in the same order.
    pub refs: Vec<RefEntry>,
    /// Absolute base URI (normalised, no fragment) -> resources that declare it.
    by_uri: HashMap<String, Vec<usize>>,
    /// A `$id` that is not a URI, as written -> resources that declare it.
    by_bad_id: HashMap<String, Vec<usize>>,
    /// The same, by the absolute URI the percent-encoded value resolves to, so that a reference
    /// spelling it another way (`http://e.com/my num.json` for `my num.json`) finds it.
    by_bad_id_resolved: HashMap<String, Vec<usize>>,
    /// (resource index, anchor name) -> pointer.
    anchors: HashMap<(usize, String), String>,
    /// Up to draft-07, a `$id` beside `$ref`, which the draft ignores (no resource here) but Ajv
    /// registers: its absolute URI -> where it is (SL207 looks Ajv's reading up there).
    pub beside_ref_ids: HashMap<String, (FileId, String)>,
    /// Anchors named twice in one resource: engines then disagree on which one `#name` means.
    pub ambiguous_anchors: Vec<AmbiguousAnchor>,
    /// Per file, its `file://` URI.
    pub file_uris: HashMap<FileId, String>,
    /// (file, pointer) -> the resource rooted there.
    by_location: HashMap<(FileId, String), usize>,
    /// Every `$id` as written, for [`RunIndex::id_taken`].
    raw_ids: std::collections::HashSet<String>,
    /// Resource index -> the references (indexes into `refs`) whose document part names it;
    /// computed once per run, so a rename does not resolve every reference again.
    refs_by_target: HashMap<usize, Vec<usize>>,
    /// For each reference of `refs`, the resource it names (see [`RunIndex::target_resource`]),
    /// computed once per run; `None` where it names none (the reason is worked out again).
    ref_targets: Vec<Option<usize>>,
    /// Whether any `$defs`/`definitions` key of the run needs escaping in a JSON pointer: only
    /// then can a reference spell one raw (SL304).
    pub escaped_defs_keys: bool,
    /// (file, unit) -> where its references and resources lie in `refs` and `resources` (each
    /// unit's entries are added together, so they are contiguous).
    unit_ranges: HashMap<(FileId, usize), (std::ops::Range<usize>, std::ops::Range<usize>)>,
}

/// One file as the index sees it.
pub struct IndexInput<'a> {
    /// The file's id in the run.
    pub file: FileId,
    /// Where the file lives on disk, which gives its `file://` URI; `None` for standard input.
    pub path: Option<&'a Path>,
    /// The file's name in reports: its `file://` URI is made from it when there is no path.
    pub name: &'a str,
    /// The parsed document.
    pub root: &'a Node,
    /// What the file holds, which decides where its schemas are.
    pub kind: FileKind,
}

impl RunIndex {
    /// Indexes the schemas of every input.
    #[must_use]
    pub fn build(inputs: &[IndexInput<'_>], default_draft: Draft) -> Self {
        Self::merge(
            inputs
                .iter()
                .map(|input| Self::of_file(input, default_draft))
                .collect(),
        )
    }

    /// The index of one file on its own: what a run keeps of the file once its tree is gone.
    /// [`RunIndex::merge`] joins the files of a run.
    #[must_use]
    pub fn of_file(input: &IndexInput<'_>, default_draft: Draft) -> Self {
        let mut index = RunIndex::default();
        let uri = input
            .path
            .map_or_else(|| file_uri(Path::new(input.name)), file_uri);
        index.file_uris.insert(input.file, uri.clone());
        for (unit_no, unit) in units(input.root, input.kind, default_draft)
            .iter()
            .enumerate()
        {
            index.add_unit(input, &uri, unit_no, unit);
        }
        // Kept until the run's index is merged: no room to spare.
        index.refs.shrink_to_fit();
        index.resources.shrink_to_fit();
        index
    }

    /// Joins the indexes of single files (see [`RunIndex::of_file`]), in run order, and links
    /// every reference to the resource it names.
    #[must_use]
    pub fn merge(parts: Vec<RunIndex>) -> Self {
        let mut index = RunIndex::default();
        // Sized once: growing by doubling would hold two copies of the largest table at once.
        index
            .refs
            .reserve_exact(parts.iter().map(|p| p.refs.len()).sum());
        index
            .resources
            .reserve_exact(parts.iter().map(|p| p.resources.len()).sum());
        for part in parts {
            index.append(part);
        }
        index.raw_ids = index
            .resources
            .iter()
            .filter_map(|r| r.id.as_ref().map(|id| id.raw.clone()))
            .collect();
        let targets: Vec<Option<usize>> = {
            use rayon::prelude::*;
            index
                .refs
                .par_iter()
                .map(|r| index.find_target(r).ok())
                .collect()
        };
        for (i, target) in targets.iter().enumerate() {
            if let Some(target) = target {
                index.refs_by_target.entry(*target).or_default().push(i);
            }
        }
        index.ref_targets = targets;
        index
    }

    /// Adds the entries of a one-file index, shifting its resource numbers past ours.
    fn append(&mut self, part: RunIndex) {
        let (resources, refs) = (self.resources.len(), self.refs.len());
        let shift = |v: Vec<usize>| v.into_iter().map(move |r| r + resources);
        self.resources.extend(part.resources);
        self.refs.extend(part.refs.into_iter().map(|mut r| {
            r.resource += resources;
            r
        }));
        for (map, from) in [
            (&mut self.by_uri, part.by_uri),
            (&mut self.by_bad_id, part.by_bad_id),
            (&mut self.by_bad_id_resolved, part.by_bad_id_resolved),
        ] {
            for (key, found) in from {
                map.entry(key).or_default().extend(shift(found));
            }
        }
        self.anchors.extend(
            part.anchors
                .into_iter()
                .map(|((r, name), pointer)| ((r + resources, name), pointer)),
        );
        self.ambiguous_anchors.extend(part.ambiguous_anchors);
        for (uri, at) in part.beside_ref_ids {
            self.beside_ref_ids.entry(uri).or_insert(at);
        }
        self.escaped_defs_keys |= part.escaped_defs_keys;
        self.file_uris.extend(part.file_uris);
        self.by_location.extend(
            part.by_location
                .into_iter()
                .map(|(key, r)| (key, r + resources)),
        );
        self.unit_ranges
            .extend(part.unit_ranges.into_iter().map(|(key, (f, r))| {
                (
                    key,
                    (
                        f.start + refs..f.end + refs,
                        r.start + resources..r.end + resources,
                    ),
                )
            }));
    }

    /// The references whose document part names `resource` (by its id, its file, or a bare
    /// `#...` inside it), in run order.
    pub fn refs_to(&self, resource: usize) -> impl Iterator<Item = &RefEntry> {
        self.refs_by_target
            .get(&resource)
            .into_iter()
            .flatten()
            .map(|&i| &self.refs[i])
    }

    /// The files tied to others: a file is tied to others when a reference links one of its
    /// schemas to another schema. That is the case of a file holding a reference that names no
    /// resource of its own schema (one elsewhere, or none at all), and of a file holding a
    /// resource that a reference from another schema names. Every other file reads the same in
    /// the whole run as on its own.
    #[must_use]
    pub fn files_tied_to_others(&self) -> std::collections::HashSet<FileId> {
        let mut out = std::collections::HashSet::new();
        for (r, target) in self.refs.iter().zip(&self.ref_targets) {
            match target.map(|t| &self.resources[t]) {
                Some(t) if t.file == r.file && t.unit == r.unit => {}
                Some(t) => {
                    out.insert(r.file);
                    out.insert(t.file);
                }
                None => {
                    out.insert(r.file);
                }
            }
        }
        out
    }

    /// The files that a reference of a file `from` accepts names, other than that file.
    #[must_use]
    pub fn files_referenced_from(
        &self,
        from: impl Fn(FileId) -> bool,
    ) -> std::collections::HashSet<FileId> {
        self.refs
            .iter()
            .zip(&self.ref_targets)
            .filter_map(|(r, target)| {
                let file = self.resources[(*target)?].file;
                (file != r.file && from(r.file)).then_some(file)
            })
            .collect()
    }

    /// The references whose document part names a resource of `file` (so the only ones that
    /// can resolve into it), in run order.
    pub fn refs_into(&self, file: FileId) -> impl Iterator<Item = &RefEntry> {
        let mut found: Vec<usize> = self
            .resources
            .iter()
            .enumerate()
            .filter(|(_, r)| r.file == file)
            .filter_map(|(i, _)| self.refs_by_target.get(&i))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        found.into_iter().map(|i| &self.refs[i])
    }
}

mod build;
mod parts;
mod query;
#[cfg(test)]
mod tests;

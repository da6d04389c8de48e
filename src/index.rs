//! The run-wide index of identifiers and references: every schema resource (a unit root or a
//! subschema with a `$id`), its base URI and anchors, and every `$ref`/`$dynamicRef` with the base
//! it resolves against. Built once per run, kept small (pointers and strings, no subtrees), and
//! shared by the reference rules and the rename fixes.
//!
//! Resolution never leaves the linted set: a reference is looked up among the files of the run
//! by URI, and anything else is reported as remote or missing, never fetched or opened.

use crate::dialect::Draft;
use crate::document::{Node, NodeKind};
use crate::schema_walk::{lazy_pointer, walk_lazy};
use crate::source::{FileId, Span};
use crate::units::{units, FileKind, SchemaUnit};
use fluent_uri::{Uri, UriRef};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// The stand-in base URI of a unit that has none (see [`RunIndex::unit_uri`]).
pub const STAND_IN_BASE: &str = "https://unit.schema-lint.invalid/";

/// A `$id` as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdEntry {
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
    pub file: FileId,
    /// Index of the unit within the file.
    pub unit: usize,
    pub pointer: String,
    /// The absolute base URI (no fragment) of the resource, when it could be computed.
    pub base: Option<String>,
    /// The base once every invalid `$id` on the way is taken percent-encoded: what engines will
    /// see after the repairs, which renames and the matching of invalid references follow.
    pub lenient_base: Option<String>,
    pub id: Option<IdEntry>,
    pub draft: Draft,
}

/// A `$ref` or `$dynamicRef`.
#[derive(Clone, Debug)]
pub struct RefEntry {
    pub file: FileId,
    pub unit: usize,
    pub keyword: &'static str,
    /// The reference as written; most are short enough to be kept inline.
    pub raw: compact_str::CompactString,
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
    Found { file: FileId, pointer: String },
    /// A network URI outside the linted set (never fetched).
    Remote(String),
    /// Nothing in the run answers to it.
    Missing(String),
    /// The reference is not a URI-reference and names no (equally invalid) `$id` of the run.
    Invalid,
}

/// The index of a run.
#[derive(Debug, Default, Clone)]
pub struct RunIndex {
    pub resources: Vec<Resource>,
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
    /// Anchors named twice in one resource, as (file, resource pointer, name): engines then
    /// disagree on which one `#name` means.
    pub ambiguous_anchors: Vec<(FileId, String, String)>,
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
    pub file: FileId,
    pub path: Option<&'a Path>,
    pub name: &'a str,
    pub root: &'a Node,
    pub kind: FileKind,
}

/// A path with `/` separators as a URI path: percent-encoded where RFC 3986 needs it.
#[must_use]
pub fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The `file://` URI of a path (made absolute against the working directory).
#[must_use]
pub fn file_uri(path: &Path) -> String {
    // The working directory is read once: `std::path::absolute` would ask for it per file.
    static CWD: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let absolute = match CWD.get_or_init(|| std::env::current_dir().ok()) {
        Some(cwd) if path.is_relative() => std::path::absolute(cwd.join(path)),
        _ => std::path::absolute(path),
    }
    .unwrap_or_else(|_| path.to_path_buf());
    let text = absolute.to_string_lossy().replace('\\', "/");
    let slash = if text.starts_with('/') { "" } else { "/" };
    format!("file://{slash}{}", percent_encode_path(&text))
}

/// Resolves `reference` against the absolute `base`, normalised, fragment kept.
#[must_use]
pub fn resolve_uri(base: &str, reference: &str) -> Option<String> {
    let base = Uri::parse(base).ok()?;
    let r = UriRef::parse(reference).ok()?;
    Some(r.resolve_against(&base).ok()?.normalize().into_string())
}

/// The absolute URI, without fragment, that `raw` names against `base`; with no base, only an
/// absolute `raw` names one.
#[must_use]
pub fn absolute_uri(base: Option<&str>, raw: &str) -> Option<String> {
    match base {
        Some(b) => resolve_uri(b, raw).map(|u| strip_fragment(&u).to_owned()),
        None => UriRef::parse(raw)
            .ok()
            .filter(UriRef::has_scheme)
            .map(|u| strip_fragment(u.normalize().as_str()).to_owned()),
    }
}

/// Where `raw` resolves against `base` once its offending characters are percent-encoded.
#[must_use]
pub fn encoded_absolute(base: Option<&str>, raw: &str) -> Option<String> {
    let encoded = crate::uri::percent_encode_repair(raw);
    absolute_uri(base, encoded.as_deref().unwrap_or(raw))
}

/// `uri` without its fragment.
#[must_use]
pub fn strip_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(u, _)| u)
}

/// Decodes `%XX` escapes; `None` when they do not form UTF-8.
#[must_use]
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
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

    /// The files that a reference ties to another schema: those holding a reference that names
    /// no resource of its own schema, and those a reference from another file names. The others
    /// read the same in the whole run as on their own.
    #[must_use]
    pub fn entangled_files(&self) -> std::collections::HashSet<FileId> {
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

    fn add_unit(
        &mut self,
        input: &IndexInput<'_>,
        file_uri: &str,
        unit_no: usize,
        unit: &SchemaUnit,
    ) {
        let (refs_start, resources_start) = (self.refs.len(), self.resources.len());
        self.add_unit_entries(input, file_uri, unit_no, unit);
        self.unit_ranges.insert(
            (input.file, unit_no),
            (
                refs_start..self.refs.len(),
                resources_start..self.resources.len(),
            ),
        );
    }

    fn add_unit_entries(
        &mut self,
        input: &IndexInput<'_>,
        file_uri: &str,
        unit_no: usize,
        unit: &SchemaUnit,
    ) {
        let Some(root) = input.root.pointer(&unit.pointer) else {
            return;
        };
        // Pointers are built only for the few subschemas that need one (resources, anchors).
        let subschemas = walk_lazy(root, unit.draft);
        let pointer_of = |i: usize| lazy_pointer(&subschemas, i, &unit.pointer);
        // A tools/list unit is a document of its own: it is not reachable by the file's URI.
        let root_base = (input.kind == FileKind::Schema).then(|| file_uri.to_owned());
        // Stack of (depth, resource index) of the resources enclosing the current subschema: in
        // document order, a subschema lies below the last one of a smaller depth.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for (i, sub) in subschemas.iter().enumerate() {
            while stack.last().is_some_and(|(depth, _)| *depth >= sub.depth) {
                stack.pop();
            }
            let id = effective_id(sub.node, sub.draft);
            // A fragment-only `$id` names no new resource: an anchor up to draft-07, invalid
            // (SL202) from 2019-09 on.
            let starts_resource = i == 0 || id.as_ref().is_some_and(|id| !id.raw.starts_with('#'));
            if starts_resource {
                let parent_base = stack
                    .last()
                    .map_or(root_base.clone(), |(_, r)| self.resources[*r].base.clone());
                let parent_lenient = stack.last().map_or(root_base.clone(), |(_, r)| {
                    self.resources[*r].lenient_base.clone()
                });
                let pointer = pointer_of(i);
                let base = match &id {
                    Some(id) if id.valid => absolute_uri(parent_base.as_deref(), &id.raw),
                    _ => parent_base.clone(),
                };
                let lenient_base = match &id {
                    Some(id) => encoded_absolute(parent_lenient.as_deref(), &id.raw),
                    None => parent_lenient.clone(),
                };
                let r = self.resources.len();
                self.by_location.insert((input.file, pointer.clone()), r);
                self.resources.push(Resource {
                    file: input.file,
                    unit: unit_no,
                    pointer,
                    base: base.clone(),
                    lenient_base: lenient_base.clone(),
                    id: id.clone(),
                    draft: sub.draft,
                });
                let declares_uri = i == 0 || id.as_ref().is_some_and(|id| id.valid);
                if let (Some(b), true) = (&base, declares_uri) {
                    self.by_uri.entry(b.clone()).or_default().push(r);
                }
                // A schema file is also reachable by the URI it was loaded from, whatever its
                // root `$id` says: the engines that load files register both.
                if let Some(file_base) = root_base
                    .as_ref()
                    .filter(|f| i == 0 && base.as_ref() != Some(*f))
                {
                    self.by_uri.entry(file_base.clone()).or_default().push(r);
                }
                if let Some(id) = id.as_ref().filter(|id| !id.valid) {
                    let raw = strip_fragment(&id.raw);
                    self.by_bad_id.entry(raw.to_owned()).or_default().push(r);
                    if let Some(abs) = lenient_base {
                        self.by_bad_id_resolved.entry(abs).or_default().push(r);
                    }
                }
                stack.push((sub.depth, r));
            }
            let resource = stack.last().map_or(0, |(_, r)| *r);
            self.add_anchors(sub.node, sub.draft, resource, || pointer_of(i));
            // Every `$defs` member counts, a repeated one too: this only decides whether
            // SL304's checks can find anything.
            self.escaped_defs_keys |= sub.node.as_object().is_some_and(|members| {
                members
                    .iter()
                    .filter(|m| m.key == "$defs" || m.key == "definitions")
                    .filter_map(|m| m.value.as_object())
                    .flatten()
                    .any(|e| crate::rules::defs_keys::needs_escaping(&e.key))
            });
            for keyword in ["$ref", "$dynamicRef"] {
                if let Some(node) = sub.node.get(keyword) {
                    if let NodeKind::String(raw) = &node.kind {
                        self.refs.push(RefEntry {
                            file: input.file,
                            unit: unit_no,
                            keyword,
                            raw: raw.clone(),
                            span: node.span,
                            resource,
                        });
                    }
                }
            }
        }
    }

    fn add_anchors(
        &mut self,
        node: &Node,
        draft: Draft,
        resource: usize,
        pointer: impl Fn() -> String,
    ) {
        let mut names = Vec::new();
        if !draft.allows_id_fragment() {
            for keyword in ["$anchor", "$dynamicAnchor", "$recursiveAnchor"] {
                if let Some(name) = node.get(keyword).and_then(Node::as_str) {
                    names.push(name.to_owned());
                }
            }
        }
        // A plain-name `$id` (`#foo`) is an anchor up to draft-07. From 2019-09 on it is invalid
        // (SL202 reports it), but Ajv still reads it as an anchor: so do we, so that the
        // references to it are not reported a second time as unresolved.
        if let Some(name) = node
            .get(draft.id_keyword())
            .and_then(Node::as_str)
            .and_then(|s| s.strip_prefix('#'))
            .filter(|s| !s.is_empty() && !s.starts_with('/'))
        {
            names.push(name.to_owned());
        }
        for name in names {
            match self.anchors.entry((resource, name)) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    if *e.get() != pointer() {
                        let res = &self.resources[resource];
                        self.ambiguous_anchors.push((
                            res.file,
                            res.pointer.clone(),
                            e.key().1.clone(),
                        ));
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(pointer());
                }
            }
        }
    }

    /// The innermost resource of `file`'s unit `unit` that holds the subschema at `pointer`.
    #[must_use]
    pub fn enclosing_resource(&self, file: FileId, unit: usize, pointer: &str) -> Option<usize> {
        self.resources
            .iter()
            .enumerate()
            .filter(|(_, r)| r.file == file && r.unit == unit && is_within(pointer, &r.pointer))
            .max_by_key(|(_, r)| r.pointer.len())
            .map(|(i, _)| i)
    }

    /// Whether any resource of the run declares an anchor called `name`.
    #[must_use]
    pub fn anchor_declared(&self, name: &str) -> bool {
        self.anchors.keys().any(|(_, n)| n == name)
    }

    /// The references of one schema (unit) of a file, in document order.
    #[must_use]
    pub fn refs_in(&self, file: FileId, unit: usize) -> &[RefEntry] {
        self.unit_ranges
            .get(&(file, unit))
            .map_or(&[], |(refs, _)| &self.refs[refs.clone()])
    }

    /// The indexes (into `resources`) of the resources of one schema (unit) of a file.
    #[must_use]
    pub fn resources_in(&self, file: FileId, unit: usize) -> std::ops::Range<usize> {
        self.unit_ranges
            .get(&(file, unit))
            .map_or(0..0, |(_, resources)| resources.clone())
    }

    /// The references of every schema of a file.
    pub fn refs_of_file(&self, file: FileId) -> impl Iterator<Item = &RefEntry> {
        let mut ranges: Vec<_> = self
            .unit_ranges
            .iter()
            .filter(|((f, _), _)| *f == file)
            .map(|(_, (refs, _))| refs.clone())
            .collect();
        ranges.sort_by_key(|r| r.start);
        ranges.into_iter().flat_map(move |r| self.refs[r].iter())
    }

    /// The resource rooted at `pointer` in `file`.
    #[must_use]
    pub fn resource_at(&self, file: FileId, pointer: &str) -> Option<usize> {
        self.by_location.get(&(file, pointer.to_owned())).copied()
    }

    /// The anchor names declared in `resource` (not in resources nested in it).
    pub fn anchor_names(&self, resource: usize) -> impl Iterator<Item = &str> {
        self.anchors
            .keys()
            .filter(move |(r, _)| *r == resource)
            .map(|(_, name)| name.as_str())
    }

    /// The resources whose (valid, absolute) base URI is `uri`.
    #[must_use]
    pub fn resources_at(&self, uri: &str) -> &[usize] {
        self.by_uri.get(uri).map_or(&[], Vec::as_slice)
    }

    /// The resources whose invalid `$id` is written `raw` (without fragment).
    #[must_use]
    pub fn resources_with_bad_id(&self, raw: &str) -> &[usize] {
        self.by_bad_id.get(raw).map_or(&[], Vec::as_slice)
    }

    /// The resource that immediately holds `resource` in its unit, if any.
    #[must_use]
    pub fn parent_resource(&self, resource: usize) -> Option<usize> {
        let r = &self.resources[resource];
        self.resources[..resource].iter().rposition(|p| {
            p.file == r.file
                && p.unit == r.unit
                && p.pointer != r.pointer
                && is_within(&r.pointer, &p.pointer)
        })
    }

    /// The base URI a resource's `$id` is resolved against: the file's URI for the root of a
    /// schema file, else its enclosing resource's base.
    #[must_use]
    pub fn parent_base(&self, resource: usize) -> Option<&str> {
        self.parent_base_by(resource, |r| r.base.as_deref())
    }

    /// [`RunIndex::parent_base`], with every invalid `$id` on the way taken percent-encoded.
    #[must_use]
    pub fn lenient_parent_base(&self, resource: usize) -> Option<&str> {
        self.parent_base_by(resource, |r| r.lenient_base.as_deref())
    }

    fn parent_base_by<'a>(
        &'a self,
        resource: usize,
        base: impl Fn(&'a Resource) -> Option<&'a str>,
    ) -> Option<&'a str> {
        let r = &self.resources[resource];
        if r.pointer.is_empty() {
            return self.file_uris.get(&r.file).map(String::as_str);
        }
        self.parent_resource(resource)
            .and_then(|p| base(&self.resources[p]))
    }

    /// Whether any resource of the run is already called `uri` (absolute) or `raw` (as written).
    #[must_use]
    pub fn id_taken(&self, raw: &str, resolved: Option<&str>) -> bool {
        resolved.is_some_and(|u| self.by_uri.contains_key(u))
            || self.by_bad_id.contains_key(raw)
            || self.raw_ids.contains(raw)
    }

    /// The resource `r` names with the part before its `#`, or why there is none.
    ///
    /// # Errors
    /// The [`Resolution`] that says why the reference leads nowhere in the run.
    pub fn target_resource(&self, r: &RefEntry) -> Result<usize, Resolution> {
        // A reference of the index (not a probe built from one) was looked up when the run was
        // indexed.
        let at = (std::ptr::from_ref(r) as usize).wrapping_sub(self.refs.as_ptr() as usize);
        let i = at / std::mem::size_of::<RefEntry>();
        if at.is_multiple_of(std::mem::size_of::<RefEntry>()) && i < self.refs.len() {
            if let Some(Some(target)) = self.ref_targets.get(i) {
                return Ok(*target);
            }
        }
        self.find_target(r)
    }

    fn find_target(&self, r: &RefEntry) -> Result<usize, Resolution> {
        let uri_part = strip_fragment(&r.raw);
        let base = self.resources[r.resource].base.as_deref();
        // An invalid `$id` is found by its spelling, or by where it would resolve once encoded.
        let bad_id = || {
            self.resources_with_bad_id(uri_part)
                .first()
                .or_else(|| {
                    let lenient = self.resources[r.resource].lenient_base.as_deref();
                    encoded_absolute(lenient, uri_part)
                        .and_then(|abs| self.by_bad_id_resolved.get(&abs))
                        .and_then(|v| v.first())
                })
                .copied()
                .filter(|_| !uri_part.is_empty())
        };
        // Only a broken fragment (`other.json#fo o`): the document part still names a resource.
        if UriRef::parse(r.raw.as_str()).is_err() && UriRef::parse(uri_part).is_err() {
            return bad_id().ok_or(Resolution::Invalid);
        }
        if uri_part.is_empty() {
            return Ok(r.resource);
        }
        let Some(doc) = absolute_uri(base, uri_part) else {
            return self.within_unit(r, uri_part);
        };
        let doc = doc.as_str();
        // A same-unit hit wins over resources elsewhere with the same URI.
        let candidates = self.resources_at(doc);
        match candidates
            .iter()
            .find(|&&c| self.resources[c].file == r.file && self.resources[c].unit == r.unit)
            .or_else(|| candidates.first())
        {
            Some(&t) => Ok(t),
            None if bad_id().is_some() => bad_id().ok_or(Resolution::Invalid),
            None if doc.starts_with("http://") || doc.starts_with("https://") => {
                Err(Resolution::Remote(doc.to_owned()))
            }
            None => Err(Resolution::Missing(r.raw.to_string())),
        }
    }

    /// A reference with no base URI to resolve against (in a tool's schema, which travels
    /// alone) can still name a relative `$id` of its own unit: both resolve alike against any
    /// base, so they are compared against a stand-in one.
    fn within_unit(&self, r: &RefEntry, uri_part: &str) -> Result<usize, Resolution> {
        let missing = || Resolution::Missing(r.raw.to_string());
        let from = self.unit_uri(r.resource).ok_or_else(missing)?;
        let doc = absolute_uri(Some(&from), uri_part).ok_or_else(missing)?;
        self.resources
            .iter()
            .enumerate()
            .filter(|(_, c)| c.file == r.file && c.unit == r.unit)
            .find(|(i, c)| {
                c.id.as_ref().is_some_and(|id| id.valid)
                    && self.unit_uri(*i).as_deref() == Some(doc.as_str())
            })
            .map(|(i, _)| i)
            .ok_or_else(missing)
    }

    /// The URI of a resource: its base, or, in a unit without one (a tool's schema), its chain
    /// of `$id`s resolved against [`STAND_IN_BASE`], the way Ajv resolves them against an empty
    /// base. Only for comparing: never written anywhere.
    #[must_use]
    pub fn unit_uri(&self, resource: usize) -> Option<String> {
        let res = &self.resources[resource];
        if let Some(base) = &res.base {
            return Some(base.clone());
        }
        let parent = self.resources[..resource].iter().rposition(|p| {
            p.file == res.file
                && p.unit == res.unit
                && p.pointer != res.pointer
                && is_within(&res.pointer, &p.pointer)
        });
        let parent_uri = match parent {
            Some(p) => self.unit_uri(p)?,
            None => STAND_IN_BASE.to_owned(),
        };
        match res.id.as_ref().filter(|id| id.valid) {
            Some(id) => absolute_uri(Some(&parent_uri), &id.raw),
            None => Some(parent_uri),
        }
    }

    /// Where `r` leads, looked up in the run only. `root_of` gives a file's parsed root.
    pub fn resolve<'n>(
        &self,
        r: &RefEntry,
        root_of: impl Fn(FileId) -> Option<&'n Node>,
    ) -> Resolution {
        let fragment = r.raw.split_once('#').map(|(_, f)| f);
        let target = match self.target_resource(r) {
            Ok(t) => t,
            Err(resolution) => return resolution,
        };
        let resource = &self.resources[target];
        let pointer = match fragment {
            None | Some("") => resource.pointer.clone(),
            Some(f) if f.starts_with('/') => {
                let Some(decoded) = percent_decode(f) else {
                    return Resolution::Missing(r.raw.to_string());
                };
                format!("{}{decoded}", resource.pointer)
            }
            Some(name) => match self.anchors.get(&(target, name.to_owned())) {
                Some(p) => p.clone(),
                None => return Resolution::Missing(r.raw.to_string()),
            },
        };
        match root_of(resource.file).and_then(|root| root.pointer(&pointer)) {
            Some(_) => Resolution::Found {
                file: resource.file,
                pointer,
            },
            None => Resolution::Missing(r.raw.to_string()),
        }
    }
}

/// The identifier engines honour: none beside a `$ref` up to draft-07, where `$ref` makes every
/// other member of its object ignored.
fn effective_id(node: &Node, draft: Draft) -> Option<IdEntry> {
    if draft <= Draft::Draft7 && node.get("$ref").is_some() {
        return None;
    }
    id_entry(node, draft)
}

fn id_entry(node: &Node, draft: Draft) -> Option<IdEntry> {
    let member = node.member(draft.id_keyword())?;
    let raw = member.value.as_str()?;
    Some(IdEntry {
        raw: raw.to_owned(),
        span: member.value.span,
        key_span: member.key_span,
        valid: UriRef::parse(raw).is_ok(),
    })
}

/// Whether `pointer` is `ancestor` or lies below it.
pub(crate) fn is_within(pointer: &str, ancestor: &str) -> bool {
    pointer == ancestor
        || (pointer.starts_with(ancestor) && pointer.as_bytes().get(ancestor.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::parse;

    fn index_of(files: &[(&str, &str)]) -> (RunIndex, Vec<Node>) {
        let roots: Vec<Node> = files.iter().map(|(_, t)| parse(t).unwrap()).collect();
        let inputs: Vec<IndexInput<'_>> = files
            .iter()
            .zip(&roots)
            .enumerate()
            .map(|(i, ((name, _), root))| IndexInput {
                file: FileId(i),
                path: Some(Path::new(name)),
                name,
                root,
                kind: FileKind::Schema,
            })
            .collect();
        (RunIndex::build(&inputs, Draft::Draft202012), roots)
    }

    fn resolve_all(index: &RunIndex, roots: &[Node]) -> Vec<(String, Resolution)> {
        index
            .refs
            .iter()
            .map(|r| (r.raw.to_string(), index.resolve(r, |f| roots.get(f.0))))
            .collect()
    }

    #[test]
    fn resolves_local_cross_file_anchor_and_bad_ids() {
        let (index, roots) = index_of(&[
            (
                "/s/a.json",
                r#"{"$id": "my_tool:output", "properties": {"x": {"$anchor": "ax", "type": "string"}},
                    "$defs": {"n": {"$id": "https://example.com/n.json", "$defs": {"m": {}}}}}"#,
            ),
            (
                "/s/b.json",
                r##"{"properties": {
                    "a": {"$ref": "my_tool:output#/properties/x"},
                    "b": {"$ref": "a.json#ax"},
                    "c": {"$ref": "https://example.com/n.json#/$defs/m"},
                    "d": {"$ref": "#/properties/a"},
                    "e": {"$ref": "https://example.com/other.json"},
                    "f": {"$ref": "missing.json"},
                    "g": {"$ref": "#/properties/zz"},
                    "h": {"$ref": "bad ref"}}}"##,
            ),
        ]);
        let found = |file: usize, pointer: &str| Resolution::Found {
            file: FileId(file),
            pointer: pointer.to_owned(),
        };
        let got = resolve_all(&index, &roots);
        assert_eq!(got[0].1, found(0, "/properties/x"));
        assert_eq!(got[1].1, found(0, "/properties/x"));
        assert_eq!(got[2].1, found(0, "/$defs/n/$defs/m"));
        assert_eq!(got[3].1, found(1, "/properties/a"));
        assert_eq!(
            got[4].1,
            Resolution::Remote("https://example.com/other.json".into())
        );
        assert!(matches!(got[5].1, Resolution::Missing(_)));
        assert!(matches!(got[6].1, Resolution::Missing(_)));
        assert_eq!(got[7].1, Resolution::Invalid);
    }

    #[test]
    fn nested_ids_change_the_base() {
        let (index, roots) = index_of(&[(
            "/s/root.json",
            r##"{"$id": "https://example.com/root.json",
                "$defs": {"inner": {"$id": "dir/inner.json", "$defs": {"x": {}},
                                    "properties": {"p": {"$ref": "#/$defs/x"}, "q": {"$ref": "../root.json"}}}}}"##,
        )]);
        let got = resolve_all(&index, &roots);
        assert_eq!(
            got[0].1,
            Resolution::Found {
                file: FileId(0),
                pointer: "/$defs/inner/$defs/x".into()
            }
        );
        assert_eq!(
            got[1].1,
            Resolution::Found {
                file: FileId(0),
                pointer: String::new()
            }
        );
        assert!(index.id_taken("dir/inner.json", Some("https://example.com/dir/inner.json")));
    }

    #[test]
    fn a_file_with_a_root_id_is_also_reachable_by_its_path() {
        let (index, roots) = index_of(&[
            (
                "/s/a.json",
                r#"{"$id": "https://example.com/a.json", "$defs": {"x": {}}}"#,
            ),
            (
                "/s/b.json",
                r#"{"properties": {"p": {"$ref": "a.json#/$defs/x"}, "q": {"$ref": "https://example.com/a.json#/$defs/x"}}}"#,
            ),
        ]);
        let got = resolve_all(&index, &roots);
        let x = Resolution::Found {
            file: FileId(0),
            pointer: "/$defs/x".into(),
        };
        assert_eq!(got[0].1, x);
        assert_eq!(got[1].1, x);
    }

    #[test]
    fn pointers_are_percent_decoded_then_unescaped() {
        let (index, roots) = index_of(&[(
            "/s/p.json",
            r##"{"$defs": {"a/b": {}, "t~n": {}, "c%d": {}, "e f": {}, "": {"": {}}},
                "properties": {
                    "a": {"$ref": "#/$defs/a~1b"},
                    "b": {"$ref": "#/$defs/t~0n"},
                    "c": {"$ref": "#/$defs/c%25d"},
                    "d": {"$ref": "#/$defs/e%20f"},
                    "e": {"$ref": "#/%24defs/a~1b"},
                    "f": {"$ref": "#/$defs//"},
                    "g": {"$ref": "#/$defs/a/b"},
                    "h": {"$ref": "#/$defs/a%2Fb"},
                    "i": {"$ref": "#/properties/a/$ref"}}}"##,
        )]);
        let got = resolve_all(&index, &roots);
        let found = |p: &str| Resolution::Found {
            file: FileId(0),
            pointer: p.to_owned(),
        };
        assert_eq!(got[0].1, found("/$defs/a~1b"));
        assert_eq!(got[1].1, found("/$defs/t~0n"));
        assert_eq!(got[2].1, found("/$defs/c%d"));
        assert_eq!(got[3].1, found("/$defs/e f"));
        assert_eq!(got[4].1, found("/$defs/a~1b"));
        assert_eq!(got[5].1, found("/$defs//"));
        assert!(matches!(got[6].1, Resolution::Missing(_)));
        // `%2F` decodes to a `/`, which then separates tokens (RFC 6901 section 6).
        assert!(matches!(got[7].1, Resolution::Missing(_)));
        // A pointer may name any value, not only a subschema.
        assert_eq!(got[8].1, found("/properties/a/$ref"));
    }

    #[test]
    fn anchors_belong_to_their_resource() {
        let (index, roots) = index_of(&[(
            "/s/an.json",
            r##"{"$id": "https://example.com/root.json",
                "$defs": {
                    "a": {"$anchor": "top"},
                    "b": {"$id": "inner.json", "$defs": {"c": {"$anchor": "deep"}, "d": {"$dynamicAnchor": "dyn"}}},
                    "e": {"$ref": "#top"},
                    "f": {"$ref": "#deep"},
                    "g": {"$ref": "inner.json#deep"},
                    "h": {"$dynamicRef": "inner.json#dyn"}}}"##,
        )]);
        let got = resolve_all(&index, &roots);
        assert_eq!(
            got[0].1,
            Resolution::Found {
                file: FileId(0),
                pointer: "/$defs/a".into()
            }
        );
        assert!(matches!(got[1].1, Resolution::Missing(_)));
        assert_eq!(
            got[2].1,
            Resolution::Found {
                file: FileId(0),
                pointer: "/$defs/b/$defs/c".into()
            }
        );
        assert_eq!(
            got[3].1,
            Resolution::Found {
                file: FileId(0),
                pointer: "/$defs/b/$defs/d".into()
            }
        );
    }

    #[test]
    fn a_plain_name_id_is_an_anchor_in_every_draft() {
        for schema in [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2020-12/schema",
        ] {
            let text = format!(
                r##"{{"$schema": "{schema}", "definitions": {{"p": {{"$id": "#point"}}}},
                    "properties": {{"a": {{"$ref": "#point"}}}}}}"##
            );
            let (index, roots) = index_of(&[("/s/pn.json", text.as_str())]);
            assert_eq!(
                resolve_all(&index, &roots)[0].1,
                Resolution::Found {
                    file: FileId(0),
                    pointer: "/definitions/p".into()
                },
                "{schema}"
            );
        }
    }

    #[test]
    fn relative_ids_of_a_tool_schema_resolve_within_it() {
        let text = r#"{"tools": [{"name": "t", "inputSchema": {"type": "object"},
            "outputSchema": {"$id": "./out.json", "$defs": {"k": {"$id": "sub/k.json"}},
                "properties": {"a": {"$ref": "./out.json#/$defs/k"}, "b": {"$ref": "out.json"},
                               "c": {"$ref": "sub/k.json"}, "d": {"$ref": "other.json"}}}}]}"#;
        let root = parse(text).unwrap();
        let inputs = [IndexInput {
            file: FileId(0),
            path: Some(Path::new("/s/tools.json")),
            name: "tools.json",
            root: &root,
            kind: FileKind::ToolsList,
        }];
        let index = RunIndex::build(&inputs, Draft::Draft202012);
        let roots = [root.clone()];
        let got = resolve_all(&index, &roots);
        let out = "/tools/0/outputSchema";
        let found = |p: &str| Resolution::Found {
            file: FileId(0),
            pointer: p.to_owned(),
        };
        assert_eq!(got[0].1, found(&format!("{out}/$defs/k")));
        assert_eq!(got[1].1, found(out));
        assert_eq!(got[2].1, found(&format!("{out}/$defs/k")));
        assert!(matches!(got[3].1, Resolution::Missing(_)));
    }

    #[test]
    fn file_uris_are_percent_encoded() {
        assert_eq!(file_uri(Path::new("/a b/c.json")), "file:///a%20b/c.json");
        assert_eq!(percent_decode("a%25b%7E").as_deref(), Some("a%b~"));
    }
}

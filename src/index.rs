//! The run-wide index of identifiers and references: every schema resource (a unit root or a
//! subschema with a `$id`), its base URI and anchors, and every `$ref`/`$dynamicRef` with the base
//! it resolves against. Built once per run, kept small (pointers and strings, no subtrees), and
//! shared by the reference rules and the rename fixes.
//!
//! Resolution never leaves the linted set: a reference is looked up among the files of the run
//! by URI, and anything else is reported as remote or missing, never fetched or opened.

use crate::dialect::Draft;
use crate::document::{Node, NodeKind};
use crate::schema_walk::{walk, Subschema};
use crate::source::{FileId, Span};
use crate::units::{units, FileKind, SchemaUnit};
use fluent_uri::{Uri, UriRef};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

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
    /// Pointer of the subschema holding the keyword.
    pub schema_pointer: String,
    pub keyword: &'static str,
    pub raw: String,
    pub span: Span,
    /// Index (into [`RunIndex::resources`]) of the innermost resource holding the reference.
    pub resource: usize,
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
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
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
        let mut index = RunIndex::default();
        for input in inputs {
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
        }
        index
    }

    fn add_unit(
        &mut self,
        input: &IndexInput<'_>,
        file_uri: &str,
        unit_no: usize,
        unit: &SchemaUnit,
    ) {
        let Some(root) = input.root.pointer(&unit.pointer) else {
            return;
        };
        let subschemas = walk(root, &unit.pointer, unit.draft);
        // A tools/list unit is a document of its own: it is not reachable by the file's URI.
        let root_base = (input.kind == FileKind::Schema).then(|| file_uri.to_owned());
        // Stack of (pointer, resource index) of the resources enclosing the current subschema.
        let mut stack: Vec<(String, usize)> = Vec::new();
        for (i, sub) in subschemas.iter().enumerate() {
            while stack
                .last()
                .is_some_and(|(p, _)| !is_within(&sub.pointer, p))
            {
                stack.pop();
            }
            let parent_base = stack
                .last()
                .map_or(root_base.clone(), |(_, r)| self.resources[*r].base.clone());
            let parent_lenient = stack.last().map_or(root_base.clone(), |(_, r)| {
                self.resources[*r].lenient_base.clone()
            });
            let id = effective_id(sub);
            // A fragment-only `$id` names no new resource: an anchor up to draft-07, invalid
            // (SL202) from 2019-09 on.
            let starts_resource = i == 0 || id.as_ref().is_some_and(|id| !id.raw.starts_with('#'));
            if starts_resource {
                let base = match &id {
                    Some(id) if id.valid => absolute_uri(parent_base.as_deref(), &id.raw),
                    _ => parent_base.clone(),
                };
                let lenient_base = match &id {
                    Some(id) => encoded_absolute(parent_lenient.as_deref(), &id.raw),
                    None => parent_lenient.clone(),
                };
                let r = self.resources.len();
                self.by_location
                    .insert((input.file, sub.pointer.clone()), r);
                self.resources.push(Resource {
                    file: input.file,
                    unit: unit_no,
                    pointer: sub.pointer.clone(),
                    base: base.clone(),
                    lenient_base: lenient_base.clone(),
                    id: id.clone(),
                    draft: sub.draft,
                });
                let declares_uri = i == 0 || id.as_ref().is_some_and(|id| id.valid);
                if let (Some(b), true) = (&base, declares_uri) {
                    self.by_uri.entry(b.clone()).or_default().push(r);
                }
                if let Some(id) = id.as_ref().filter(|id| !id.valid) {
                    let raw = strip_fragment(&id.raw);
                    self.by_bad_id.entry(raw.to_owned()).or_default().push(r);
                    if let Some(abs) = lenient_base {
                        self.by_bad_id_resolved.entry(abs).or_default().push(r);
                    }
                }
                stack.push((sub.pointer.clone(), r));
            }
            let resource = stack.last().map_or(0, |(_, r)| *r);
            self.add_anchors(sub, resource);
            for keyword in ["$ref", "$dynamicRef"] {
                if let Some(node) = sub.node.get(keyword) {
                    if let NodeKind::String(raw) = &node.kind {
                        self.refs.push(RefEntry {
                            file: input.file,
                            unit: unit_no,
                            schema_pointer: sub.pointer.clone(),
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

    fn add_anchors(&mut self, sub: &Subschema<'_>, resource: usize) {
        let mut names = Vec::new();
        if sub.draft.allows_id_fragment() {
            if let Some(name) = sub
                .id()
                .and_then(Node::as_str)
                .and_then(|s| s.strip_prefix('#'))
            {
                names.push(name.to_owned());
            }
        } else {
            for keyword in ["$anchor", "$dynamicAnchor", "$recursiveAnchor"] {
                if let Some(name) = sub.node.get(keyword).and_then(Node::as_str) {
                    names.push(name.to_owned());
                }
            }
        }
        for name in names {
            match self.anchors.entry((resource, name)) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    if *e.get() != sub.pointer {
                        let res = &self.resources[resource];
                        self.ambiguous_anchors.push((
                            res.file,
                            res.pointer.clone(),
                            e.key().1.clone(),
                        ));
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(sub.pointer.clone());
                }
            }
        }
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

    /// The innermost resource of `file`'s unit `unit` that holds `pointer`.
    #[must_use]
    pub fn resource_containing(&self, file: FileId, unit: usize, pointer: &str) -> Option<usize> {
        self.resources
            .iter()
            .enumerate()
            .filter(|(_, r)| r.file == file && r.unit == unit && is_within(pointer, &r.pointer))
            .max_by_key(|(_, r)| r.pointer.len())
            .map(|(i, _)| i)
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

    /// The base URI a resource's `$id` is resolved against: its enclosing resource's base.
    #[must_use]
    pub fn parent_base(&self, resource: usize) -> Option<&str> {
        let r = &self.resources[resource];
        if r.pointer.is_empty() {
            // The root of a schema file resolves against the file's URI.
            return self.file_uris.get(&r.file).map(String::as_str);
        }
        self.resources[..resource]
            .iter()
            .rev()
            .find(|p| {
                p.file == r.file
                    && p.unit == r.unit
                    && p.pointer != r.pointer
                    && is_within(&r.pointer, &p.pointer)
            })
            .and_then(|p| p.base.as_deref())
    }

    /// [`RunIndex::parent_base`], with every invalid `$id` on the way taken percent-encoded.
    #[must_use]
    pub fn lenient_parent_base(&self, resource: usize) -> Option<&str> {
        let r = &self.resources[resource];
        if r.pointer.is_empty() {
            return self.file_uris.get(&r.file).map(String::as_str);
        }
        self.resources[..resource]
            .iter()
            .rev()
            .find(|p| {
                p.file == r.file
                    && p.unit == r.unit
                    && p.pointer != r.pointer
                    && is_within(&r.pointer, &p.pointer)
            })
            .and_then(|p| p.lenient_base.as_deref())
    }

    /// Whether any resource of the run is already called `uri` (absolute) or `raw` (as written).
    #[must_use]
    pub fn id_taken(&self, raw: &str, resolved: Option<&str>) -> bool {
        resolved.is_some_and(|u| self.by_uri.contains_key(u))
            || self.by_bad_id.contains_key(raw)
            || self
                .resources
                .iter()
                .any(|r| r.id.as_ref().is_some_and(|id| id.raw == raw))
    }

    /// The resource `r` names with the part before its `#`, or why there is none.
    ///
    /// # Errors
    /// The [`Resolution`] that says why the reference leads nowhere in the run.
    pub fn target_resource(&self, r: &RefEntry) -> Result<usize, Resolution> {
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
            return Err(Resolution::Missing(r.raw.clone()));
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
            None => Err(Resolution::Missing(r.raw.clone())),
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
                    return Resolution::Missing(r.raw.clone());
                };
                format!("{}{decoded}", resource.pointer)
            }
            Some(name) => match self.anchors.get(&(target, name.to_owned())) {
                Some(p) => p.clone(),
                None => return Resolution::Missing(r.raw.clone()),
            },
        };
        match root_of(resource.file).and_then(|root| root.pointer(&pointer)) {
            Some(_) => Resolution::Found {
                file: resource.file,
                pointer,
            },
            None => Resolution::Missing(r.raw.clone()),
        }
    }
}

/// The identifier engines honour: none beside a `$ref` up to draft-07, where `$ref` makes every
/// other member of its object ignored.
fn effective_id(sub: &Subschema<'_>) -> Option<IdEntry> {
    if sub.draft <= Draft::Draft7 && sub.node.get("$ref").is_some() {
        return None;
    }
    id_entry(sub)
}

fn id_entry(sub: &Subschema<'_>) -> Option<IdEntry> {
    let member = sub.node.member(sub.draft.id_keyword())?;
    let raw = member.value.as_str()?;
    Some(IdEntry {
        raw: raw.to_owned(),
        span: member.value.span,
        key_span: member.key_span,
        valid: UriRef::parse(raw).is_ok(),
    })
}

/// Whether `pointer` is `ancestor` or lies below it.
fn is_within(pointer: &str, ancestor: &str) -> bool {
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
            .map(|r| (r.raw.clone(), index.resolve(r, |f| roots.get(f.0))))
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
    fn file_uris_are_percent_encoded() {
        assert_eq!(file_uri(Path::new("/a b/c.json")), "file:///a%20b/c.json");
        assert_eq!(percent_decode("a%25b%7E").as_deref(), Some("a%b~"));
    }
}

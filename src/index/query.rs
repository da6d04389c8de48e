//! What the rules and fixes ask of the index: which resource holds a subschema, what a
//! reference resolves to, which ids are taken.

use super::{RefEntry, Resolution, Resource, RunIndex, STAND_IN_BASE};
use crate::syntax::document::{is_within, Node};
use crate::syntax::source::FileId;
use crate::syntax::uri::{absolute_uri, encoded_absolute, percent_decode, strip_fragment};
use fluent_uri::UriRef;

impl RunIndex {
    /// The innermost resource of `file`'s unit `unit` that holds the subschema at `pointer`.
    #[must_use]
    pub fn enclosing_resource(&self, file: FileId, unit: usize, pointer: &str) -> Option<usize> {
        // A unit's resources are one run of the list: look among them only.
        let range = self.resources_in(file, unit);
        self.resources[range.clone()]
            .iter()
            .zip(range)
            .filter(|(r, _)| r.file == file && r.unit == unit && is_within(pointer, &r.pointer))
            .max_by_key(|(r, _)| r.pointer.len())
            .map(|(_, i)| i)
    }

    /// Every absolute URI (no fragment) a document of the run answers to: the bases its
    /// resources declare and the `file://` URIs of its files, for a "did you mean" over them.
    pub fn known_uris(&self) -> impl Iterator<Item = &str> {
        self.by_uri
            .keys()
            .chain(self.file_uris.values())
            .map(String::as_str)
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
        let mut ranges: Vec<_> = self.unit_ranges_of(file).map(|(refs, _)| refs).collect();
        ranges.sort_by_key(|r| r.start);
        ranges.into_iter().flat_map(move |r| self.refs[r].iter())
    }

    /// The indexes (into `resources`) of the resources of every schema of a file, in order.
    pub fn resources_of_file(&self, file: FileId) -> impl Iterator<Item = usize> {
        let mut ranges: Vec<_> = self.unit_ranges_of(file).map(|(_, res)| res).collect();
        ranges.sort_by_key(|r| r.start);
        ranges.into_iter().flatten()
    }

    /// Where each schema (unit) of a file has its entries: a file's units are numbered from 0
    /// up, each added whole, so this looks up as many keys as the file has units (rather than
    /// scanning every unit of the run, which made a pass over every file quadratic).
    fn unit_ranges_of(
        &self,
        file: FileId,
    ) -> impl Iterator<Item = (std::ops::Range<usize>, std::ops::Range<usize>)> + '_ {
        (0..)
            .map_while(move |unit| self.unit_ranges.get(&(file, unit)))
            .cloned()
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
    /// The spelling counts too: a client that compiles a tool's schema alone, with no base URI,
    /// keys its resources by the relative id as written.
    #[must_use]
    pub fn id_taken(&self, raw: &str, resolved: Option<&str>) -> bool {
        resolved.is_some_and(|u| self.by_uri.contains_key(u))
            || self.by_bad_id.contains_key(raw)
            || self.raw_ids.contains(raw)
    }

    /// Whether any resource of the run is already called `uri`, or has the invalid id `raw`:
    /// for an id under an absolute `$id`, which every engine resolves against that same base,
    /// so that the same relative spelling under another base names another resource.
    #[must_use]
    pub fn uri_taken(&self, raw: &str, uri: &str) -> bool {
        self.by_uri.contains_key(uri) || self.by_bad_id.contains_key(raw)
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

    pub(super) fn find_target(&self, r: &RefEntry) -> Result<usize, Resolution> {
        let uri_part = strip_fragment(&r.raw);
        let base = self.resources[r.resource].base.as_deref();
        // An invalid `$id` is found by its spelling, or by where it would resolve once encoded.
        // Where it would resolve once encoded comes first: the same spelling in another
        // document (a relative `./t ree` under another base) names another resource. Among
        // spellings, one of the reference's own schema wins.
        let bad_id = || {
            let lenient = self.resources[r.resource].lenient_base.as_deref();
            let spelled = self.resources_with_bad_id(uri_part);
            encoded_absolute(lenient, uri_part)
                .and_then(|abs| self.by_bad_id_resolved.get(&abs))
                .and_then(|v| v.first())
                .or_else(|| {
                    spelled
                        .iter()
                        .find(|&&c| {
                            self.resources[c].file == r.file && self.resources[c].unit == r.unit
                        })
                        .or_else(|| spelled.first())
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
        // The parent is among the resources of the same unit, one run of the list before this
        // one: looking further back would make every tool of a `tools/list` cost all the others.
        let start = self.resources_in(res.file, res.unit).start.min(resource);
        let parent = self.resources[start..resource]
            .iter()
            .rposition(|p| {
                p.file == res.file
                    && p.unit == res.unit
                    && p.pointer != res.pointer
                    && is_within(&res.pointer, &p.pointer)
            })
            .map(|p| p + start);
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

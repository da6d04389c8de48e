//! Filling the index from one schema (unit) of a file: its resources, their base URIs and
//! anchors, and its references.

use super::{IdEntry, IndexInput, RefEntry, Resource, RunIndex};
use crate::schema::defs::needs_escaping;
use crate::schema::dialect::Draft;
use crate::schema::units::{FileKind, SchemaUnit};
use crate::schema::walk::{lazy_pointer, walk_lazy};
use crate::syntax::document::{Node, NodeKind};
use crate::syntax::uri::{absolute_uri, encoded_absolute, strip_fragment};
use fluent_uri::UriRef;

impl RunIndex {
    pub(super) fn add_unit(
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
            if id.is_none() && sub.draft <= Draft::Draft7 && sub.node.get("$ref").is_some() {
                let parent_base = stack
                    .last()
                    .map_or(root_base.clone(), |(_, r)| self.resources[*r].base.clone());
                self.note_beside_ref_id(sub.node, sub.draft, parent_base.as_deref(), || {
                    (input.file, pointer_of(i))
                });
            }
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
                // Up to draft-07, a `$id` with a fragment (`item.json#foo`) is registered whole by
                // every engine: a reference to `item.json` alone finds nothing (measured).
                let declares_uri = i == 0
                    || id.as_ref().is_some_and(|id| {
                        id.valid
                            && !(sub.draft.allows_id_fragment()
                                && id.raw.split_once('#').is_some_and(|(_, f)| !f.is_empty()))
                    });
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
                    .any(|e| needs_escaping(&e.key))
            });
            for keyword in ["$ref", "$dynamicRef"] {
                // Before 2020-12 `$dynamicRef` is an unknown keyword, which every engine ignores
                // (measured): no reference.
                if keyword == "$dynamicRef" && sub.draft < Draft::Draft202012 {
                    continue;
                }
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

    /// The `$id` beside a `$ref` (draft-06 and draft-07) that the draft ignores and Ajv honours,
    /// by the absolute URI Ajv gives it.
    fn note_beside_ref_id(
        &mut self,
        node: &Node,
        draft: Draft,
        parent_base: Option<&str>,
        at: impl FnOnce() -> (crate::syntax::source::FileId, String),
    ) {
        let sibling = id_entry(node, draft)
            .filter(|s| s.valid && !s.raw.starts_with('#') && draft > Draft::Draft4);
        if let Some(uri) = sibling.and_then(|s| absolute_uri(parent_base, &s.raw)) {
            self.beside_ref_ids
                .entry(strip_fragment(&uri).to_owned())
                .or_insert_with(at);
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
                        self.ambiguous_anchors.push(super::AmbiguousAnchor {
                            file: res.file,
                            resource: res.pointer.clone(),
                            name: e.key().1.clone(),
                        });
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(pointer());
                }
            }
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

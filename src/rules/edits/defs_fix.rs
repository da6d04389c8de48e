//! The `--fix-id defs` repair: stop naming a subschema by an invalid `$id` and reach it through
//! the root's `$defs` (`definitions` before 2019-09) instead.
//!
//! - A root `$defs` entry loses its `$id`; references become `#/$defs/<key>...`.
//! - A subschema elsewhere moves into the root's `$defs` under a key derived from the old id,
//!   leaving `{"$ref": "#/$defs/<key>"}` in its place; the moved text is re-indented in the
//!   file's own style, and references inside it follow it.
//! - An invalid root `$id` is removed; references to it from other files become the file's
//!   relative path, with the same fragment.

use super::relocate::{encode_fragment, Destination};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::index::{IdEntry, RefEntry, Resource, RunIndex};
use crate::rules::RunView;
use crate::schema::dialect::Draft;
use crate::syntax::document::{Member, Node};
use crate::syntax::literal::literal;
use crate::syntax::source::Span;
use crate::syntax::uri::strip_fragment;
use std::path::Path;

/// The span that deletes member `i` of `members` (with the comma and space that separate it).
pub(crate) fn delete_member(members: &[Member], i: usize, object: &Node) -> Span {
    let m = &members[i];
    if i > 0 {
        Span::new(members[i - 1].value.span.end, m.value.span.end)
    } else if let Some(next) = members.get(1) {
        Span::new(m.key_span.start, next.key_span.start)
    } else {
        // The only member: keep the braces, drop what is between them.
        Span::new(object.span.start + 1, object.span.end - 1)
    }
}

/// The relative path from the folder of `from` to `to`, with `/` separators.
fn relative_path(from: &Path, to: &Path) -> Option<String> {
    let from_dir = std::path::absolute(from).ok()?.parent()?.to_path_buf();
    let to = std::path::absolute(to).ok()?;
    let from_parts: Vec<_> = from_dir.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from_parts
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<String> = vec!["..".to_owned(); from_parts.len() - common];
    parts.extend(
        to_parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts.join("/"))
}

/// The text a reference gets when its target moves to `pointer` (from the unit root) of the
/// unit rooted at `unit_resource`.
fn new_reference(
    view: &RunView<'_>,
    r: &RefEntry,
    unit_resource: usize,
    pointer: &str,
) -> Option<String> {
    let fragment_tail = match r.raw.split_once('#') {
        Some((_, f)) if f.starts_with('/') => f.to_owned(),
        Some((_, f)) if !f.is_empty() => {
            return Some(format!("{}#{f}", doc_part(view, r, unit_resource)?))
        }
        _ => String::new(),
    };
    let fragment = format!("{}{fragment_tail}", encode_fragment(pointer));
    Some(format!("{}#{fragment}", doc_part(view, r, unit_resource)?))
}

/// How the reference `r` names the document of `unit_resource`: empty when it is its own, a
/// relative path between files, or the root's absolute URI.
fn doc_part(view: &RunView<'_>, r: &RefEntry, unit_resource: usize) -> Option<String> {
    let index = view.index;
    let target = &index.resources[unit_resource];
    let own = &index.resources[r.resource];
    if own.base == target.base && r.file == target.file && r.unit == target.unit {
        return Some(String::new());
    }
    if let (Some(from), Some(to)) = (&view.source(r.file).path, &view.source(target.file).path) {
        if target.id.as_ref().is_none_or(|id| !id.valid) {
            return relative_path(from, to);
        }
    }
    target.base.clone()
}

/// The root resource of the unit that holds `resource`.
fn unit_root(index: &RunIndex, resource: usize) -> Option<usize> {
    let r = &index.resources[resource];
    index
        .resources
        .iter()
        .position(|p| p.file == r.file && p.unit == r.unit)
}

/// The resource being repaired, with what every case needs.
struct Site<'a> {
    view: &'a RunView<'a>,
    res: &'a Resource,
    id: &'a IdEntry,
    text: &'a str,
    /// The schema's root (unit) node, and its resource.
    unit_node: &'a Node,
    root_resource: usize,
    /// The subschema that carries the `$id`, its members and the `$id` member's index.
    node: &'a Node,
    members: &'a [Member],
    id_index: usize,
    /// The references into the resource: by its id (from anywhere), or by a bare `#...` from
    /// inside it, which resolved against the id and must follow the subschema.
    refs: Vec<&'a RefEntry>,
}

impl Site<'_> {
    fn delete_id(&self) -> Edit {
        Edit {
            file: self.res.file,
            span: delete_member(self.members, self.id_index, self.node),
            content: String::new(),
        }
    }

    /// The edit that points `r` at `pointer` (from the unit root), fragment kept.
    fn retarget(&self, r: &RefEntry, pointer: &str) -> Option<Edit> {
        Some(Edit {
            file: r.file,
            span: r.span,
            content: literal(&new_reference(self.view, r, self.root_resource, pointer)?),
        })
    }
}

/// Whether any subschema below `node` uses dynamic scope, which depends on where resources
/// begin: dissolving one could change what `$dynamicRef`/`$recursiveRef` resolve to.
pub(crate) fn uses_dynamic_scope(node: &Node) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if let Some(members) = n.as_object() {
            if members.iter().any(|m| {
                matches!(
                    m.key.as_str(),
                    "$dynamicRef" | "$dynamicAnchor" | "$recursiveRef" | "$recursiveAnchor"
                )
            }) {
                return true;
            }
            stack.extend(members.iter().map(|m| &m.value));
        } else if let Some(items) = n.as_array() {
            stack.extend(items);
        }
    }
    false
}

/// Whether anything below `resource` depends on the base its invalid `$id` expressed: a
/// reference or a nested `$id` written relative to it. Dissolving the resource would change
/// what they resolve to.
fn depends_on_base(index: &RunIndex, resource: usize) -> bool {
    let res = &index.resources[resource];
    let relative = |raw: &str| fluent_uri::UriRef::parse(raw).is_ok_and(|u| !u.has_scheme());
    let below = |file, unit, pointer: &str| {
        file == res.file
            && unit == res.unit
            && crate::syntax::document::is_within(pointer, &res.pointer)
    };
    index.refs_in(res.file, res.unit).iter().any(|r| {
        // The reference lies below the resource if its innermost resource does.
        below(r.file, r.unit, &index.resources[r.resource].pointer)
            && !strip_fragment(&r.raw).is_empty()
            && index.target_resource(r) != Ok(resource)
            && relative(&r.raw)
    }) || index.resources_in(res.file, res.unit).any(|i| {
        let n = &index.resources[i];
        n.pointer != res.pointer
            && below(n.file, n.unit, &n.pointer)
            && n.id
                .as_ref()
                .is_some_and(|id| id.valid && relative(&id.raw) && !id.raw.starts_with('#'))
    })
}

/// Whether dissolving `resource` would put two anchors of one name in the enclosing resource.
fn anchors_collide(index: &RunIndex, resource: usize) -> bool {
    let Some(parent) = index.parent_resource(resource) else {
        return false;
    };
    index
        .anchor_names(resource)
        .any(|name| index.anchor_names(parent).any(|other| other == name))
}

/// The `defs` repair of the invalid `$id` of `resource`, or `None` where it is not exact: the
/// schema uses dynamic scope, something inside the resource depends on its base, or its anchors
/// would collide with the enclosing resource's.
#[must_use]
pub fn defs_fix(view: &RunView<'_>, resource: usize) -> Option<Fix> {
    let index = view.index;
    let res = &index.resources[resource];
    let root = view.root(res.file)?;
    let root_resource = unit_root(index, resource)?;
    let unit_pointer = index.resources[root_resource].pointer.as_str();
    if uses_dynamic_scope(root.pointer(unit_pointer)?)
        || depends_on_base(index, resource)
        || anchors_collide(index, resource)
    {
        return None;
    }
    let node = root.pointer(&res.pointer)?;
    let members = node.as_object()?;
    let site = Site {
        view,
        res,
        id: res.id.as_ref()?,
        text: &view.source(res.file).text,
        unit_node: root.pointer(unit_pointer)?,
        root_resource,
        node,
        members,
        id_index: members
            .iter()
            .rposition(|m| m.key == res.draft.id_keyword())?,
        refs: index
            .refs_to(resource)
            .filter(|r| !strip_fragment(&r.raw).is_empty() || r.resource == resource)
            .collect(),
    };
    let relative = res.pointer.strip_prefix(unit_pointer)?;
    let (title, edits, moves) = if relative.is_empty() {
        // The root: drop its `$id`; references to it by the id name the file instead.
        let mut edits = vec![site.delete_id()];
        for r in site
            .refs
            .iter()
            .filter(|r| !strip_fragment(&r.raw).is_empty())
        {
            edits.push(site.retarget(r, "")?);
        }
        (
            format!("Remove the invalid root `$id` `{}`", site.id.raw),
            edits,
            Vec::new(),
        )
    } else if let Some(key) = root_defs_key(relative) {
        // Already a root `$defs` entry: drop its `$id`, point references at the entry.
        let mut edits = vec![site.delete_id()];
        for r in &site.refs {
            edits.push(site.retarget(r, relative)?);
        }
        let title = format!(
            "Remove `$id` `{}` and reach `{key}` through `{relative}`",
            site.id.raw
        );
        (title, edits, Vec::new())
    } else {
        let (new_pointer, edits) = move_to_defs(&site)?;
        let moves = vec![crate::diagnostic::fix::Move {
            file: res.file,
            from: res.pointer.clone(),
            to: format!("{unit_pointer}{new_pointer}"),
        }];
        let title = format!(
            "Move the subschema with `$id` `{}` to `{new_pointer}` and reference it there",
            site.id.raw
        );
        (title, edits, moves)
    };
    Some(Fix {
        title,
        applicability: Applicability::Safe,
        edits,
        moves,
    })
}

/// Moves the subschema into the root's `$defs` (`definitions` before 2019-09): its place gets a
/// `$ref`, the moved text loses the `$id` and follows the file's style. Returns the new pointer
/// (from the unit root) and the edits.
fn move_to_defs(site: &Site<'_>) -> Option<(String, Vec<Edit>)> {
    let (file, node) = (site.res.file, site.node);
    let dest = Destination {
        file,
        text: site.text,
        unit_node: site.unit_node,
        container: if site.res.draft >= Draft::Draft201909 {
            "$defs"
        } else {
            "definitions"
        },
    };
    let key = dest.key_for(&site.id.raw, &[]);
    let new_pointer = dest.pointer(&key);
    // References inside the moved text are edited in it; the others in place.
    let mut inner = vec![site.delete_id()];
    let mut edits = Vec::new();
    for r in &site.refs {
        let edit = site.retarget(r, &new_pointer)?;
        if r.file == file && r.span.start >= node.span.start && r.span.end <= node.span.end {
            inner.push(edit);
        } else {
            edits.push(edit);
        }
    }
    edits.extend(dest.move_edits(node, &key, &inner)?);
    Some((new_pointer, edits))
}

/// `Some(key)` when `relative` is a direct entry of the root's `$defs` or `definitions`.
fn root_defs_key(relative: &str) -> Option<String> {
    let rest = relative
        .strip_prefix("/$defs/")
        .or_else(|| relative.strip_prefix("/definitions/"))?;
    (!rest.contains('/')).then(|| crate::syntax::document::unescape_pointer_token(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(
            relative_path(Path::new("/s/b.json"), Path::new("/s/d/a.json")).as_deref(),
            Some("d/a.json")
        );
        assert_eq!(
            relative_path(Path::new("/s/x/b.json"), Path::new("/s/a.json")).as_deref(),
            Some("../a.json")
        );
    }
}

//! Renaming a schema resource's `$id`, with every `$ref` in the run that names it: the machinery
//! behind the SL201/SL203 repairs (and SL206's normalisation).

use crate::diagnostic::fix::Edit;
use crate::index::{RunIndex, STAND_IN_BASE};
use crate::rules::RunView;
use crate::syntax::literal::literal;
use crate::syntax::uri::{absolute_uri, strip_fragment};

/// How a reference whose base is `from` names the absolute `target` (no fragment): empty for
/// its own document, a relative path between `file:` URIs (never an absolute local path), else
/// the absolute URI.
#[must_use]
pub fn relative_reference(from: Option<&str>, target: &str) -> String {
    let Some(from) = from else {
        return target.to_owned();
    };
    if from == target {
        return String::new();
    }
    let (Some(from_path), Some(to_path)) =
        (from.strip_prefix("file://"), target.strip_prefix("file://"))
    else {
        return target.to_owned();
    };
    let from_dir: Vec<&str> = from_path.split('/').collect();
    let from_dir = &from_dir[..from_dir.len().saturating_sub(1)];
    let to: Vec<&str> = to_path.split('/').collect();
    let (to_dir, to_name) = to.split_at(to.len().saturating_sub(1));
    let common = from_dir
        .iter()
        .zip(to_dir)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<&str> = vec![".."; from_dir.len() - common];
    parts.extend(&to_dir[common..]);
    parts.extend(to_name);
    parts.join("/")
}

/// `candidate`, or `candidate_2`, `candidate_3`, ... : the first that no resource of the run
/// already uses (as written or resolved), other than `resource` itself.
#[must_use]
pub fn unique_id(index: &RunIndex, resource: usize, candidate: &str) -> String {
    // Where the id lands once the invalid ids around it are repaired too (a nested relative id
    // under an invalid root `$id` has no strict base, but the repaired root will give it one).
    let parent = index
        .parent_base(resource)
        .or_else(|| index.lenient_parent_base(resource));
    // Under an absolute `$id` (not the file's own URI, which engines do not know), every engine
    // resolves the id against the same base: only the resolved URI can collide.
    let absolute_base =
        parent.is_some_and(|b| !b.starts_with("file:") && !b.starts_with(STAND_IN_BASE));
    let taken = |raw: &str| {
        let resolved = absolute_uri(parent, raw);
        let mine = index.resources[resource].base.as_deref();
        let taken = match (&resolved, absolute_base) {
            (Some(uri), true) => index.uri_taken(raw, uri),
            _ => index.id_taken(raw, resolved.as_deref()),
        };
        taken && resolved.as_deref() != mine
    };
    if !taken(candidate) {
        return candidate.to_owned();
    }
    // Each resource takes at most one name, so a free one comes within resources + 2 tries.
    (2..index.resources.len() + 3)
        .map(|n| format!("{candidate}_{n}"))
        .find(|c| !taken(c))
        .unwrap_or_else(|| candidate.to_owned())
}

/// How a rename rewrites the references that name the renamed id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefForm {
    /// Each reference keeps its form: a relative one written `./x` stays `./...`, an absolute
    /// one stays absolute (a repair changes only what it must).
    Kept,
    /// Each reference is written in normal form, as the id is (SL206 normalises both).
    Normal,
}

/// The edits that rename the `$id` of `resource` to `new_raw` and rewrite every `$ref` and
/// `$dynamicRef` of the run that names the resource, keeping each reference's fragment.
#[must_use]
pub fn rename_edits(
    view: &RunView<'_>,
    resource: usize,
    new_raw: &str,
    form: RefForm,
) -> Vec<Edit> {
    let keep_form = |old: &str, new: String| match form {
        RefForm::Kept => keep_form(old, new),
        RefForm::Normal => new,
    };
    let index = view.index;
    let res = &index.resources[resource];
    let Some(id) = &res.id else {
        return Vec::new();
    };
    let old_uri_part = strip_fragment(&id.raw);
    // Where the new id lands once every invalid id around it is repaired too.
    let new_absolute = absolute_uri(index.lenient_parent_base(resource), new_raw);
    let mut edits = vec![Edit {
        file: res.file,
        span: id.span,
        content: literal(new_raw),
    }];
    for r in index.refs_to(resource) {
        let uri_part = strip_fragment(&r.raw);
        if uri_part.is_empty() {
            continue;
        }
        let new_uri_part = if uri_part == old_uri_part {
            keep_form(uri_part, strip_fragment(new_raw).to_owned())
        } else if let Some(abs) = &new_absolute {
            if form == RefForm::Kept && has_scheme(uri_part) {
                // An absolute reference stays absolute.
                abs.clone()
            } else {
                // Named another way (say, by the file's own URI): name the new id relative to
                // the reference's base after the rename, which is the new id itself inside the
                // resource.
                let base = if r.resource == resource {
                    Some(abs.as_str())
                } else {
                    index.resources[r.resource].lenient_base.as_deref()
                };
                keep_form(uri_part, relative_reference(base, abs))
            }
        } else {
            continue;
        };
        let new_ref = match r.raw.split_once('#') {
            Some((_, fragment)) => format!("{new_uri_part}#{fragment}"),
            None if new_uri_part.is_empty() => "#".to_owned(),
            None => new_uri_part,
        };
        edits.push(Edit {
            file: r.file,
            span: r.span,
            content: literal(&new_ref),
        });
    }
    edits
}

/// Whether a reference starts with a URI scheme (`https:`, `urn:`): an absolute reference.
fn has_scheme(reference: &str) -> bool {
    fluent_uri::UriRef::parse(reference).is_ok_and(|u| u.has_scheme())
}

/// `new`, in the form `old` had: a relative reference written `./x` stays `./...`.
fn keep_form(old: &str, new: String) -> String {
    let relative = !new.is_empty() && !has_scheme(&new) && !new.starts_with(['.', '/']);
    if old.starts_with("./") && relative {
        format!("./{new}")
    } else {
        new
    }
}

#[cfg(test)]
mod tests {
    use super::{keep_form, relative_reference};

    #[test]
    fn rewritten_references_keep_their_form() {
        assert_eq!(keep_form("./b ar.json", "b_ar.json".into()), "./b_ar.json");
        assert_eq!(keep_form("b ar.json", "b_ar.json".into()), "b_ar.json");
        assert_eq!(keep_form("./x", "../y/x".into()), "../y/x");
        assert_eq!(keep_form("./x", "urn:a:b".into()), "urn:a:b");
        assert_eq!(keep_form("./x", String::new()), "");
    }

    #[test]
    fn references_stay_relative_between_files() {
        assert_eq!(
            relative_reference(Some("file:///s/a.json"), "file:///s/a.json"),
            ""
        );
        assert_eq!(
            relative_reference(Some("file:///s/a.json"), "file:///s/d/b.json"),
            "d/b.json"
        );
        assert_eq!(
            relative_reference(Some("file:///s/x/a.json"), "file:///s/b.json"),
            "../b.json"
        );
        assert_eq!(
            relative_reference(Some("urn:a:b"), "https://e.com/x"),
            "https://e.com/x"
        );
        assert_eq!(relative_reference(None, "urn:a:b"), "urn:a:b");
    }
}

//! `SL3xx`: `$ref` and `$dynamicRef`, and the `$defs` keys they name.

pub(crate) mod defs_keys;
pub(super) mod sl301_invalid_ref_uri;
pub(super) mod sl302_unresolved_ref;
pub(super) mod sl303_remote_ref;
pub(super) mod sl304_defs_key_needs_escaping;
pub(super) mod sl305_ref_outside_defs;

use crate::index::RunIndex;
use crate::syntax::document::{Node, NodeKind};

/// A document of the run whose URI differs from `target` (absolute, no fragment) only by a
/// small typo in its last path segment (`line-item.json` for `line_item.json`): that segment,
/// as the reference would spell it. `None` when no such document is known, or two are as near.
pub(super) fn did_you_mean(index: &RunIndex, target: &str) -> Option<String> {
    let (dir, name) = target.rsplit_once('/')?;
    if name.is_empty() {
        return None;
    }
    // The same extension, and at most 2 edits of the stem, a third of it at most: `a.json` is
    // no typo of `b.json`, nor of `far.json`.
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
    let limit = 2.min(stem.chars().count() / 3);
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    let mut seen = std::collections::HashSet::new();
    for uri in index.known_uris() {
        let Some((d, candidate)) = uri.rsplit_once('/') else {
            continue;
        };
        if d != dir || candidate == name || !seen.insert(candidate) {
            continue;
        }
        let (candidate_stem, candidate_extension) =
            candidate.rsplit_once('.').unwrap_or((candidate, ""));
        if candidate_extension != extension {
            continue;
        }
        let distance = edit_distance(stem, candidate_stem);
        if distance == 0 || distance > limit {
            continue;
        }
        match best {
            Some((b, _)) if b < distance => {}
            Some((b, _)) if b == distance => tied = true,
            _ => {
                best = Some((distance, candidate));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, c)| c.to_owned())
}

/// The Levenshtein distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Whether an `$id` somewhere in `root` is written exactly as `raw`, the text of a reference
/// the resolver found nothing for: the id then stands where the dialect reads no resource (in a
/// draft-07 `$defs`, a draft-04 `$id`, an id with a fragment). Ajv registers every `$id` it
/// meets wherever it is and so resolves the reference; the Python clients and the crate do not
/// (measured: the `defs7-*`, `sl202-id-fragment-ref-whole-draft7` and `sl402-draft4-dollar-id`
/// cases of the engine tier).
pub(super) fn id_written_as(root: &Node, raw: &str) -> bool {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.kind {
            NodeKind::Object(members) => {
                for m in members {
                    if m.key == "$id" && m.value.as_str() == Some(raw) {
                        return true;
                    }
                    stack.push(&m.value);
                }
            }
            NodeKind::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("line-item.json", "line_item.json"), 1);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("é.json", "e.json"), 1);
    }
}

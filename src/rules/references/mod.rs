//! `SL3xx`: `$ref` and `$dynamicRef`, and the `$defs` keys they name.

pub(crate) mod defs_keys;
pub(super) mod sl301_invalid_ref_uri;
pub(super) mod sl302_unresolved_ref;
pub(super) mod sl303_remote_ref;
pub(super) mod sl304_defs_key_needs_escaping;
pub(super) mod sl305_ref_outside_defs;

use crate::syntax::document::{Node, NodeKind};

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

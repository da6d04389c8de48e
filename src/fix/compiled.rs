//! What the compile check of a fix's proof ([`super::compile`]) reads of a schema value, and
//! the tool schemas it has already seen compile.

use crate::schema::dialect::Draft;
use crate::syntax::document::escape_pointer_token;
use std::collections::{BTreeSet, HashSet};

/// The tool schemas of a `tools/list` that compiled, each alone (no other document in its
/// registry), as (draft, base URI, schema text): a batch's proof and the proofs of its fixes one
/// by one compile the same schemas again, and a listing repeats schemas. What compiled once
/// compiles again; at most [`PROVEN_AT_MOST`] are kept, then the set starts anew.
static PROVEN: std::sync::Mutex<Option<HashSet<(u8, String, String)>>> =
    std::sync::Mutex::new(None);
const PROVEN_AT_MOST: usize = 4096;

/// Whether the schema of `key` compiled before ([`PROVEN`]).
pub(super) fn proven(key: &(u8, String, String)) -> bool {
    PROVEN
        .lock()
        .is_ok_and(|set| set.as_ref().is_some_and(|set| set.contains(key)))
}

/// Keeps that the schema of `key` compiled ([`PROVEN`]).
pub(super) fn remember(key: (u8, String, String)) {
    if let Ok(mut set) = PROVEN.lock() {
        let set = set.get_or_insert_with(HashSet::new);
        if set.len() >= PROVEN_AT_MOST {
            set.clear();
        }
        set.insert(key);
    }
}

/// Whether the unit at `pointer` belongs to one of `tools` (their pointers).
pub(super) fn in_tools(pointer: &str, tools: &[String]) -> bool {
    tools.iter().any(|t| {
        pointer
            .strip_prefix(t.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// The pointers of the objects holding a `$ref` that the crate compiles when it compiles
/// `root`: reached from the root through `properties`, `additionalProperties`, `items` (one
/// schema), `allOf`, `anyOf`, `oneOf` and `not`, which every draft compiles, and never through
/// an object that holds a `$ref` (whose other keywords drafts 4 to 7 ignore) or, below the root,
/// a `$schema`. Less than what the crate compiles, never more.
pub(super) fn ref_holders(root: &serde_json::Value) -> HashSet<String> {
    use serde_json::Value;
    let mut out = HashSet::new();
    let mut stack = vec![(root, String::new())];
    while let Some((value, pointer)) = stack.pop() {
        let Some(map) = value.as_object() else {
            continue;
        };
        if !pointer.is_empty() && map.contains_key("$schema") {
            continue;
        }
        if map.get("$ref").is_some_and(Value::is_string) {
            out.insert(pointer);
            continue;
        }
        for (keyword, child) in map {
            match (keyword.as_str(), child) {
                ("properties", Value::Object(properties)) => {
                    for (name, schema) in properties {
                        let token = escape_pointer_token(name);
                        stack.push((schema, format!("{pointer}/properties/{token}")));
                    }
                }
                ("additionalProperties" | "items" | "not", schema) => {
                    stack.push((schema, format!("{pointer}/{keyword}")));
                }
                ("allOf" | "anyOf" | "oneOf", Value::Array(schemas)) => {
                    for (i, schema) in schemas.iter().enumerate() {
                        stack.push((schema, format!("{pointer}/{keyword}/{i}")));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether a schema holds a dynamic reference or anchor anywhere (a crude but safe look: data
/// that only looks like one counts too).
pub(super) fn dynamic(value: &serde_json::Value) -> bool {
    const KEYWORDS: [&str; 4] = [
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
    ];
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Object(map) => {
                if KEYWORDS.iter().any(|k| map.contains_key(*k)) {
                    return true;
                }
                stack.extend(map.values());
            }
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

/// The crate's name of a draft.
pub(super) fn engine_draft(draft: Draft) -> jsonschema::Draft {
    match draft {
        Draft::Draft4 => jsonschema::Draft::Draft4,
        Draft::Draft6 => jsonschema::Draft::Draft6,
        Draft::Draft7 => jsonschema::Draft::Draft7,
        Draft::Draft201909 => jsonschema::Draft::Draft201909,
        Draft::Draft202012 => jsonschema::Draft::Draft202012,
    }
}

/// The meta-schema errors of a schema, as (instance path, failing keyword): messages quote the
/// instance, which a fix may have changed elsewhere in the same subtree.
pub(super) fn meta_errors(draft: Draft, value: &serde_json::Value) -> BTreeSet<(String, String)> {
    let validator = match draft {
        Draft::Draft4 => jsonschema::draft4::meta::validator(),
        Draft::Draft6 => jsonschema::draft6::meta::validator(),
        Draft::Draft7 => jsonschema::draft7::meta::validator(),
        Draft::Draft201909 => jsonschema::draft201909::meta::validator(),
        Draft::Draft202012 => jsonschema::draft202012::meta::validator(),
    };
    validator
        .iter_errors(value)
        .map(|e| {
            (
                e.instance_path().as_str().to_owned(),
                e.kind().keyword().to_owned(),
            )
        })
        .collect()
}

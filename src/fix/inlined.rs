//! The proofs that a `$ref` gone from its place after a fix kept its meaning: it was written out
//! in its place (SL707 inlines references for Gemini, whose `parameters` field has none), so the
//! subschema now at the reference's holder is the holder with its `$ref` replaced by the members
//! of what it named, every reference inside that written out the same way; or it moved, alone,
//! into a one-branch `anyOf` of its holder (SL708, for Gemini's `parametersJsonSchema`), which
//! applies it to the same instance; or, for a root `$ref` (SL507), its target's members took
//! its place at the root ([`lifted`]). Each schema validates exactly the same instances.

use crate::engine::Run;
use crate::index::{RefEntry, Resolution};
use crate::syntax::document::is_within;
use crate::syntax::source::FileId;
use serde_json::{Map, Value};

/// Whether the reference `r`, gone from `holder`, now stands alone in a one-branch `anyOf` or
/// `allOf` of the holder, written as before (a lone `$ref` resolves against the same base).
#[must_use]
pub fn wrapped(after: &Run, r: &RefEntry, holder: &str) -> bool {
    let Some(now) = after
        .files
        .get(r.file.0)
        .and_then(|f| f.tree())
        .and_then(|root| root.pointer(holder))
    else {
        return false;
    };
    ["anyOf", "allOf"].iter().any(|k| {
        now.get(k)
            .and_then(crate::syntax::document::Node::as_array)
            .is_some_and(|branches| match branches {
                [only] => only.as_object().is_some_and(|m| {
                    m.len() == 1 && m[0].key == r.keyword && m[0].value.as_str() == Some(&r.raw)
                }),
                _ => false,
            })
    })
}

/// Whether the reference `r` of `before`, which held at `holder` and is gone from `after`, was
/// written out in its place: `after` holds at `holder` exactly the holder's value with every
/// reference replaced by its target, or the fix removed the whole subtree that held it.
#[must_use]
pub fn written_out(before: &Run, after: &Run, r: &RefEntry, holder: &str) -> bool {
    let Some(after_root) = after.files.get(r.file.0).and_then(|f| f.tree()) else {
        return false;
    };
    let Some(now) = after_root.pointer(holder) else {
        // The holder went with its subtree (the `$defs` the inlined references led into):
        // whatever referred into it is checked on its own.
        return true;
    };
    expanded(before, r.file, holder, &mut Vec::new())
        .is_some_and(|expected| expected == now.to_value())
}

/// Members a root may hold beside the `$ref` whose target's members take its place: the
/// dialect and the containers of named subschemas, and annotations
/// ([`crate::rules::edits::inline::ANNOTATIONS`]), none of which reads its neighbours (as
/// `additionalProperties` reads `properties`) or is ignored in one draft and asserted in another.
const LIFT_CONTAINERS: [&str; 3] = ["$schema", "$defs", "definitions"];

fn may_lift_beside(key: &str) -> bool {
    LIFT_CONTAINERS.contains(&key) || crate::rules::edits::inline::ANNOTATIONS.contains(&key)
}

/// Members of a target that name it or set its dialect, which its place decides.
const NAMING: [&str; 8] = [
    "$id",
    "id",
    "$schema",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$dynamicRef",
    "$recursiveRef",
];

/// Whether the reference `r`, gone from `holder`, had its target's members written in its place
/// (SL507 writes a root `$ref`'s target at the root, for the hosts that refuse a `type` beside
/// a `$ref` and a root `anyOf`): `after` holds at `holder` the holder's members but the `$ref`,
/// with the members of the object the `$ref` named in the holder's own `$defs` or
/// `definitions`, and those containers lost at most some of their entries (every reference that
/// still leads into them is checked on its own, and one that led into a removed entry no
/// longer resolves). The holder's other members are only those of [`may_lift_beside`], so the
/// `$ref` applied its target to the holder's instance alone, and now its members do.
#[must_use]
pub fn lifted(before: &Run, after: &Run, r: &RefEntry, holder: &str) -> bool {
    let held = |run: &Run| {
        run.files
            .get(r.file.0)
            .and_then(|f| f.tree())
            .and_then(|root| root.pointer(holder))
            .map(crate::syntax::document::Node::to_value)
    };
    let (Some(Value::Object(mut expected)), Some(Value::Object(mut now))) =
        (held(before), held(after))
    else {
        return false;
    };
    if r.keyword != "$ref" || expected.get("$ref").and_then(Value::as_str) != Some(&r.raw) {
        return false;
    }
    expected.remove("$ref");
    if !expected.keys().all(|k| may_lift_beside(k)) {
        return false;
    }
    let Resolution::Found { file, pointer } = before
        .index
        .resolve(r, |f| before.files.get(f.0).and_then(|f| f.tree()))
    else {
        return false;
    };
    let in_defs = ["$defs", "definitions"].iter().any(|c| {
        pointer
            .strip_prefix(holder)
            .and_then(|rest| rest.strip_prefix('/'))
            .and_then(|rest| rest.strip_prefix(c))
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|name| !name.is_empty() && !name.contains('/'))
    });
    let target = before
        .files
        .get(file.0)
        .and_then(|f| f.tree())
        .and_then(|root| root.pointer(&pointer))
        .map(crate::syntax::document::Node::to_value);
    let (true, true, Some(Value::Object(target))) = (file == r.file, in_defs, target) else {
        return false;
    };
    for (k, v) in target {
        if NAMING.contains(&k.as_str()) || expected.contains_key(&k) {
            return false;
        }
        expected.insert(k, v);
    }
    for c in ["$defs", "definitions"] {
        let was = expected.remove(c);
        match (now.remove(c), was) {
            (None, _) => {}
            (Some(Value::Object(kept)), Some(Value::Object(was))) => {
                if !kept.iter().all(|(k, v)| was.get(k) == Some(v)) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    expected == now
}

/// The value at `pointer` in `file` of `run`, with every `$ref` in it replaced by its target's
/// members (written out the same way); `None` for a cycle, a reference that does not resolve, a
/// `$dynamicRef`, or a target whose members collide with the reference's siblings.
/// `stack` holds the targets being written out.
fn expanded(
    run: &Run,
    file: FileId,
    pointer: &str,
    stack: &mut Vec<(FileId, String)>,
) -> Option<Value> {
    let root = run.files.get(file.0)?.tree()?;
    let mut value = root.pointer(pointer)?.to_value();
    let mut inside: Vec<(String, &RefEntry)> = run
        .index
        .refs_of_file(file)
        .map(|r| (r.holder(root), r))
        .filter(|(h, _)| is_within(h, pointer))
        .collect();
    // Deepest first, so that writing out one reference moves no other one's place.
    inside.sort_by_key(|(h, _)| std::cmp::Reverse(h.len()));
    for (h, r) in inside {
        if r.keyword != "$ref" {
            return None;
        }
        let Resolution::Found {
            file: target_file,
            pointer: target,
        } = run
            .index
            .resolve(r, |f| run.files.get(f.0).and_then(|f| f.tree()))
        else {
            return None;
        };
        let key = (target_file, target.clone());
        if stack.contains(&key) {
            return None;
        }
        stack.push(key);
        let written = expanded(run, target_file, &target, stack);
        stack.pop();
        let written = written?;
        let at = value.pointer_mut(&h[pointer.len()..])?.as_object_mut()?;
        at.remove("$ref");
        let members = match written {
            Value::Object(m) => m,
            Value::Bool(true) => Map::new(),
            _ => return None,
        };
        for (k, v) in members {
            if at.contains_key(&k) {
                return None;
            }
            at.insert(k, v);
        }
    }
    Some(value)
}

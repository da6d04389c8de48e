//! Instances made from a schema: [`sample`] a value meant to be valid under a subschema, and
//! [`embed`] a value at an instance path inside an instance meant to be valid around it. Nothing
//! here is trusted: every instance built from them is validated on both versions before it is
//! reported ([`super::witness`]).

use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// How deep [`sample`] follows subschemas before it gives up with `null`.
const MAX_DEPTH: usize = 24;

/// Strings tried against a `pattern` (the first that matches is taken).
pub const PATTERN_TRIES: &[&str] = &[
    "a",
    "abc",
    "A",
    "Abc",
    "0",
    "1",
    "a1",
    "a-b",
    "a_b",
    "a.b",
    "ab12",
    "x@example.com",
    "2024-01-01",
    "https://example.com/",
    "",
    " ",
];

/// One step of an instance path: a property name or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An object member.
    Key(String),
    /// An array item.
    Index(usize),
}

/// The JSON pointer of an instance path.
#[must_use]
pub fn pointer(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) => crate::syntax::document::push_pointer_token(&mut out, k),
            Step::Index(i) => {
                out.push('/');
                out.push_str(&i.to_string());
            }
        }
    }
    out
}

/// Follows a local `$ref` (`#/...`) from `root`; `None` for any other reference.
#[must_use]
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = percent_decode(fragment);
    root.pointer(&decoded)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

/// Whether a local `$ref` in `value`, or in what those point to, reaches a definition that
/// differs between `old_root` and `new_root` (or a reference only one of them resolves).
#[must_use]
pub fn refs_changed(old_root: &Value, new_root: &Value, value: &Value) -> bool {
    refs_changed_with(old_root, new_root, value, &mut RefMemo::default())
}

/// What [`refs_changed_with`] has learnt of each reference of a pair of roots: whether it
/// reaches a changed definition. A walk along a chain of references asks at every link; with
/// the answers kept, the chain is followed once, not once per link.
#[derive(Default)]
pub struct RefMemo(HashMap<String, bool>);

/// [`refs_changed`], keeping what it learns in `memo` (which must belong to the same roots).
pub fn refs_changed_with(
    old_root: &Value,
    new_root: &Value,
    value: &Value,
    memo: &mut RefMemo,
) -> bool {
    // Each reference met is kept with the one whose target it was found in, so that when a
    // changed definition is found, every reference that led to it is known to reach it.
    let mut met: Vec<(&str, Option<usize>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut todo: Vec<(&Value, Option<usize>)> = vec![(value, None)];
    let reaches = |memo: &mut RefMemo, met: &[(&str, Option<usize>)], mut at: Option<usize>| {
        while let Some(i) = at {
            memo.0.insert(met[i].0.to_owned(), true);
            at = met[i].1;
        }
    };
    while let Some((v, from)) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    match memo.0.get(r.as_str()) {
                        Some(true) => {
                            reaches(memo, &met, from);
                            return true;
                        }
                        None if seen.insert(r.as_str()) => {
                            met.push((r.as_str(), from));
                            let here = Some(met.len() - 1);
                            let (a, b) = (resolve(old_root, r), resolve(new_root, r));
                            if a != b {
                                reaches(memo, &met, here);
                                return true;
                            }
                            if let Some(a) = a {
                                todo.push((a, here));
                            }
                        }
                        Some(false) | None => {}
                    }
                }
                todo.extend(m.values().map(|v| (v, from)));
            }
            Value::Array(items) => todo.extend(items.iter().map(|v| (v, from))),
            _ => {}
        }
    }
    // Everything reachable from each reference met was explored: none reaches a change.
    for (r, _) in met {
        memo.0.insert(r.to_owned(), false);
    }
    false
}

/// The local `$ref`s inside `value` (itself included).
fn local_refs(value: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    let mut todo = vec![value];
    while let Some(v) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    if r.starts_with('#') {
                        out.push(r.as_str());
                    }
                }
                todo.extend(m.values());
            }
            Value::Array(items) => todo.extend(items),
            _ => {}
        }
    }
    out
}

/// The longest chain of local `$ref`s in `root` that lead one into another (a reference, one in
/// what it names, one in what that names ...): a validator follows such a chain one call inside
/// another, at any depth of the instance. A cycle counts once around.
#[must_use]
pub fn longest_ref_chain(root: &Value) -> usize {
    struct Frame<'a> {
        reference: &'a str,
        next: Vec<&'a str>,
        longest: usize,
    }
    fn frame<'a>(root: &'a Value, reference: &'a str) -> Frame<'a> {
        Frame {
            reference,
            next: resolve(root, reference).map(local_refs).unwrap_or_default(),
            longest: 0,
        }
    }
    let mut memo: HashMap<&str, usize> = HashMap::new();
    let mut best = 0;
    for start in local_refs(root) {
        if memo.contains_key(start) {
            continue;
        }
        let mut on_stack = std::collections::HashSet::from([start]);
        let mut stack = vec![frame(root, start)];
        while let Some(top) = stack.last_mut() {
            if let Some(next) = top.next.pop() {
                if let Some(&d) = memo.get(next) {
                    top.longest = top.longest.max(d);
                } else if on_stack.insert(next) {
                    stack.push(frame(root, next));
                }
                continue;
            }
            let Some(done) = stack.pop() else { break };
            on_stack.remove(done.reference);
            let d = done.longest + 1;
            memo.insert(done.reference, d);
            best = best.max(d);
            if let Some(parent) = stack.last_mut() {
                parent.longest = parent.longest.max(d);
            }
        }
    }
    best
}

/// `schema` with a local `$ref` followed when it is the only keyword that validates (siblings
/// that are annotations only); the pointer of what was reached, from `pointer`.
#[must_use]
pub fn through_refs<'a>(root: &'a Value, schema: &'a Value, pointer: &str) -> (&'a Value, String) {
    let mut current = schema;
    let mut at = pointer.to_owned();
    for _ in 0..MAX_DEPTH {
        let Some(Value::String(reference)) = current.get("$ref") else {
            break;
        };
        let only_ref = current
            .as_object()
            .is_some_and(|o| o.keys().all(|k| k == "$ref" || super::is_annotation(k)));
        match resolve(root, reference) {
            Some(target) if only_ref => {
                at = percent_decode(reference.trim_start_matches('#'));
                current = target;
            }
            _ => break,
        }
    }
    (current, at)
}

/// A string that `pattern` matches, of those this module tries.
#[must_use]
pub fn matching(pattern: &str) -> Option<&'static str> {
    let re = regex::Regex::new(pattern).ok()?;
    PATTERN_TRIES.iter().copied().find(|s| re.is_match(s))
}

/// A value meant to be valid under `schema` (a subschema of `root`); `null` where nothing
/// better is known.
#[must_use]
pub fn sample(root: &Value, schema: &Value) -> Value {
    sample_at(root, schema, 0)
}

fn sample_at(root: &Value, schema: &Value, depth: usize) -> Value {
    let Some(o) = schema.as_object() else {
        return Value::Null;
    };
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    if let Some(c) = o.get("const") {
        return c.clone();
    }
    if let Some(first) = o
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(target) = o
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(root, r))
    {
        return sample_at(root, target, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = o.get(key).and_then(Value::as_array).and_then(|a| a.first()) {
            return sample_at(root, first, depth + 1);
        }
    }
    if let Some(all) = o.get("allOf").and_then(Value::as_array) {
        let mut merged = o.clone();
        merged.remove("allOf");
        for branch in all {
            if let Some(b) = branch.as_object() {
                for (k, v) in b {
                    merged.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        return sample_at(root, &Value::Object(merged), depth + 1);
    }
    match first_type(o) {
        "object" => sample_object(root, o, depth),
        "array" => {
            let n = o.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let n = usize::try_from(n.min(64)).unwrap_or(0);
            let items = o.get("items").unwrap_or(&Value::Bool(true));
            Value::Array((0..n).map(|_| sample_at(root, items, depth + 1)).collect())
        }
        "string" => sample_string(o),
        "integer" => number(o, true),
        "number" => number(o, false),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

/// The type to make: the first of `type`, else what the keywords suggest.
fn first_type(o: &Map<String, Value>) -> &str {
    match o.get("type") {
        Some(Value::String(t)) => return t,
        Some(Value::Array(ts)) => {
            if let Some(t) = ts.iter().find_map(Value::as_str) {
                return t;
            }
        }
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|k| o.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
    ]) {
        "object"
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        "number"
    } else {
        "null"
    }
}

fn sample_object(root: &Value, o: &Map<String, Value>, depth: usize) -> Value {
    let mut out = Map::new();
    let props = o.get("properties").and_then(Value::as_object);
    for name in o
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = name.as_str() else { continue };
        let value = match props.and_then(|p| p.get(name)) {
            Some(sub) => sample_at(root, sub, depth + 1),
            None => match o.get("additionalProperties") {
                Some(sub @ Value::Object(_)) => sample_at(root, sub, depth + 1),
                _ => json!("x"),
            },
        };
        out.insert(name.to_owned(), value);
    }
    Value::Object(out)
}

fn sample_string(o: &Map<String, Value>) -> Value {
    let min = o.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let min = usize::try_from(min.min(4096)).unwrap_or(0);
    if let Some(format) = o.get("format").and_then(Value::as_str) {
        if let Some(s) = format_sample(format) {
            return json!(s);
        }
    }
    if let Some(pattern) = o.get("pattern").and_then(Value::as_str) {
        if let Ok(re) = regex::Regex::new(pattern) {
            if let Some(s) = PATTERN_TRIES
                .iter()
                .find(|s| re.is_match(s) && s.len() >= min)
            {
                return json!(s);
            }
        }
    }
    json!("a".repeat(min.max(1)))
}

/// A value of each format the crate asserts, valid for it.
#[must_use]
pub fn format_sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2024-01-01T00:00:00Z",
        "date" => "2024-01-01",
        "time" => "00:00:00Z",
        "duration" => "P1D",
        "email" | "idn-email" => "a@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "uri" | "iri" => "https://example.com/",
        "uri-reference" | "iri-reference" | "regex" => "a",
        "uri-template" => "https://example.com/{id}",
        "uuid" => "00000000-0000-4000-8000-000000000000",
        "json-pointer" => "/a",
        "relative-json-pointer" => "0",
        _ => return None,
    })
}

fn number(o: &Map<String, Value>, integer: bool) -> Value {
    let get = |k: &str| o.get(k).and_then(Value::as_f64);
    let mut v = 0.0_f64;
    if let Some(m) = get("minimum") {
        v = m;
    } else if let Some(m) = get("exclusiveMinimum") {
        v = m + if integer { 1.0 } else { 0.5 };
    } else if let Some(m) = get("maximum").filter(|m| *m < 0.0) {
        v = m;
    } else if let Some(m) = get("exclusiveMaximum").filter(|m| *m <= 0.0) {
        v = m - 1.0;
    }
    if let Some(step) = get("multipleOf").filter(|s| *s > 0.0) {
        v = (v / step).ceil() * step;
    }
    if integer || v.fract() == 0.0 {
        v = v.ceil();
        if v.abs() < 9.0e15 {
            #[allow(clippy::cast_possible_truncation, reason = "bounded above")]
            return json!(v as i64);
        }
    }
    json!(v)
}

/// `leaf` at `path` and nothing else: objects of one member, arrays of one item.
#[must_use]
pub fn bare(path: &[Step], leaf: &Value) -> Value {
    path.iter()
        .rev()
        .fold(leaf.clone(), |inner, step| match step {
            Step::Key(k) => {
                let mut m = Map::new();
                m.insert(k.clone(), inner);
                Value::Object(m)
            }
            Step::Index(i) => {
                let mut items = vec![Value::Null; *i];
                items.push(inner);
                Value::Array(items)
            }
        })
}

/// An instance meant to be valid under `schema` (of `root`) with `leaf` at `path`: the required
/// members around it sampled, arrays padded to their `minItems`.
#[must_use]
pub fn embed(root: &Value, schema: &Value, path: &[Step], leaf: &Value) -> Value {
    embed_at(root, schema, path, leaf, 0)
}

fn embed_at(root: &Value, schema: &Value, path: &[Step], leaf: &Value, depth: usize) -> Value {
    let Some((step, rest)) = path.split_first() else {
        return leaf.clone();
    };
    let (schema, _) = through_refs(root, schema, "");
    let o = schema.as_object();
    let child = |key: &str| o.and_then(|o| o.get(key));
    match step {
        Step::Key(name) => {
            let mut base = match sample_at(root, schema, depth) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            let sub = child("properties")
                .and_then(|p| p.get(name))
                .or_else(|| child("additionalProperties"))
                .cloned()
                .unwrap_or(Value::Bool(true));
            base.insert(name.clone(), embed_at(root, &sub, rest, leaf, depth + 1));
            Value::Object(base)
        }
        Step::Index(i) => {
            let prefix = child("prefixItems").and_then(Value::as_array);
            let item_schema = |at: usize| -> Value {
                prefix
                    .and_then(|p| p.get(at))
                    .or_else(|| child("items").filter(|i| !i.is_array()))
                    .cloned()
                    .unwrap_or(Value::Bool(true))
            };
            let min = child("minItems").and_then(Value::as_u64).unwrap_or(0);
            let len = usize::try_from(min.min(64)).unwrap_or(0).max(i + 1);
            let items = (0..len)
                .map(|at| {
                    if at == *i {
                        embed_at(root, &item_schema(at), rest, leaf, depth + 1)
                    } else {
                        sample_at(root, &item_schema(at), depth + 1)
                    }
                })
                .collect();
            Value::Array(items)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"$defs": {"d0": {"$ref": "#/$defs/d1"}, ..., "dN": leaf}}`, with `a` naming `d0`.
    fn chain(links: usize, leaf: Value) -> Value {
        let mut defs = Map::new();
        for i in 0..links {
            defs.insert(
                format!("d{i}"),
                json!({"$ref": format!("#/$defs/d{}", i + 1)}),
            );
        }
        defs.insert(format!("d{links}"), leaf);
        json!({"properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs})
    }

    #[test]
    fn refs_changed_follows_a_chain_once_and_remembers() {
        let old = chain(50, json!({"type": "string"}));
        let new = chain(50, json!({"type": "integer"}));
        let mut memo = RefMemo::default();
        let start = json!({"$ref": "#/$defs/d0"});
        assert!(refs_changed_with(&old, &new, &start, &mut memo));
        // Every link that leads to the change is known to, without walking again.
        assert_eq!(memo.0.len(), 51);
        assert!(memo.0.values().all(|&b| b));
        assert!(refs_changed_with(
            &old,
            &new,
            &json!({"$ref": "#/$defs/d30"}),
            &mut memo
        ));
        // Unchanged chains, and a cycle, are remembered as unchanged.
        let mut memo = RefMemo::default();
        assert!(!refs_changed_with(&old, &old, &start, &mut memo));
        assert_eq!(memo.0.len(), 51);
        assert!(memo.0.values().all(|&b| !b));
        let cycle =
            json!({"$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"items": {"$ref": "#/$defs/x"}}}});
        assert!(!refs_changed(&cycle, &cycle, &json!({"$ref": "#/$defs/x"})));
        // The same answers as a walk without memory.
        for at in ["#/$defs/d0", "#/$defs/d49", "#/$defs/d50", "#/$defs/none"] {
            let v = json!({"$ref": at});
            let mut memo = RefMemo::default();
            assert_eq!(
                refs_changed_with(&old, &new, &v, &mut memo),
                at != "#/$defs/none" && refs_changed(&old, &new, &v),
                "{at}"
            );
        }
    }

    #[test]
    fn the_longest_chain_of_references_is_counted_once_around_a_cycle() {
        assert_eq!(longest_ref_chain(&json!({"type": "string"})), 0);
        // `a` names d0, which names d1 ... d40: 41 references, one inside another.
        assert_eq!(longest_ref_chain(&chain(40, json!({"type": "string"}))), 41);
        assert_eq!(longest_ref_chain(&chain(40_000, json!({}))), 40_001);
        let cycle = json!({"$ref": "#/$defs/x", "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"items": {"$ref": "#/$defs/x"}}}});
        // Two references, each once: `#/$defs/x` (named twice) and `#/$defs/y`.
        assert_eq!(longest_ref_chain(&cycle), 2);
        let to_root = json!({"properties": {"next": {"$ref": "#"}}});
        assert_eq!(longest_ref_chain(&to_root), 1);
    }

    #[test]
    fn samples_required_members_and_bounds() {
        let schema = json!({
            "type": "object",
            "required": ["n", "s", "d"],
            "properties": {
                "n": {"type": "integer", "minimum": 3},
                "s": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
                "d": {"$ref": "#/$defs/when"},
                "skip": {"type": "string"}
            },
            "$defs": {"when": {"type": "string", "format": "date"}}
        });
        assert_eq!(
            sample(&schema, &schema),
            json!({"n": 3, "s": "abc", "d": "2024-01-01"})
        );
    }

    #[test]
    fn embeds_a_leaf_under_its_path() {
        let schema = json!({
            "type": "object",
            "required": ["id"],
            "properties": {"id": {"type": "string"}, "tags": {"type": "array", "minItems": 2, "items": {"type": "integer"}}}
        });
        let path = [Step::Key("tags".into()), Step::Index(0)];
        assert_eq!(
            embed(&schema, &schema, &path, &json!("x")),
            json!({"id": "a", "tags": ["x", 0]})
        );
        assert_eq!(pointer(&path), "/tags/0");
    }
}

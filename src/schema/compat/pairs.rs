//! The walk's entry and its step: two subschemas that validate the same place compared, keyword
//! family by keyword family, after local references and nullable wrappers are seen through.

use super::combine::nullable;
use super::is_annotation;
use super::sample::{sample, through_refs, RefMemo, Step};
use super::walk::{ptr, Change, Direction, Places, Walk};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashSet};

/// The keywords of every dialect that validate (or decide what validates) and that this walk
/// leaves to the proof: a change of one is a change it cannot judge.
const VALIDATING: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minProperties",
    "maxProperties",
    "additionalItems",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "extends",
    "disallow",
    "divisibleBy",
];

/// The keywords of `true`.
static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

/// Keywords this walk compares itself; any other keyword that differs is an unknown change.
const HANDLED: &[&str] = &[
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "prefixItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "pattern",
    "format",
    "anyOf",
    "allOf",
    "$ref",
    "oneOf",
    "patternProperties",
];

/// How many pairs of subschemas are compared one inside another, at most.
const MAX_PAIR_DEPTH: usize = 1000;

/// The changes from `old` to `new` (two whole schemas).
#[must_use]
pub fn changes(old: &Value, new: &Value) -> Vec<Change> {
    let mut walk = Walk {
        old_root: old,
        new_root: new,
        seen: HashSet::new(),
        out: Vec::new(),
        refs: RefMemo::default(),
        depth: 0,
    };
    walk.pair(old, "", new, "", &[]);
    walk.out
}

impl<'a> Walk<'a> {
    /// Compares two subschemas that validate the instance at `path`.
    pub(super) fn pair(
        &mut self,
        old: &'a Value,
        old_at: &str,
        new: &'a Value,
        new_at: &str,
        path: &[Step],
    ) {
        // A chain of `$ref`s is followed one pair inside another, and deeper than any schema
        // written by hand or generated nests: past the bound, what is left is a change this
        // comparison does not reason about (nor can a counterexample be checked that deep, see
        // `witness::compile`).
        if self.depth >= MAX_PAIR_DEPTH {
            let message = format!(
                "what this chain of `$ref`s reaches past {MAX_PAIR_DEPTH} steps may have \
                 changed: this comparison goes no deeper"
            );
            return self.push(
                "unsupported-change",
                message,
                Direction::Unknown,
                Some(old_at.to_owned()),
                Some(new_at.to_owned()),
                path,
                Vec::new(),
            );
        }
        self.depth += 1;
        self.pair_here(old, old_at, new, new_at, path);
        self.depth -= 1;
    }

    fn pair_here(
        &mut self,
        old: &'a Value,
        old_at: &str,
        new: &'a Value,
        new_at: &str,
        path: &[Step],
    ) {
        let (old, old_at) = through_refs(self.old_root, old, old_at);
        let (new, new_at) = through_refs(self.new_root, new, new_at);
        if self.nullable_pair(old, &old_at, new, &new_at, path)
            || self.wrapped_pair(old, &old_at, new, &new_at, path)
        {
            return;
        }
        if old == new && old_at == new_at && !self.refs_changed(old) || path.len() > 64 {
            return;
        }
        // Once per pair of places: a definition reached by many paths is compared once, at the
        // first.
        let key = (old_at.clone(), new_at.clone());
        if !self.seen.insert(key) {
            return;
        }
        let truthy = |v: &Value| v.as_bool() == Some(true);
        let empty: &'a Map<String, Value> = &EMPTY;
        let (o, n) = match (old, new) {
            (Value::Bool(false), Value::Bool(false)) => return,
            (_, Value::Bool(false)) => {
                let sampled = sample(self.old_root, old);
                let message = "no value is accepted any more".to_owned();
                return self.push(
                    "rejects-everything",
                    message,
                    Direction::Narrower,
                    Some(old_at),
                    Some(new_at),
                    path,
                    vec![sampled],
                );
            }
            (Value::Bool(false), _) => {
                let sampled = sample(self.new_root, new);
                let message = "values are accepted where none was".to_owned();
                return self.push(
                    "accepts-values",
                    message,
                    Direction::Wider,
                    Some(old_at),
                    Some(new_at),
                    path,
                    vec![sampled],
                );
            }
            (Value::Object(o), Value::Object(n)) => (o, n),
            (Value::Object(o), v) if truthy(v) => (o, empty),
            (v, Value::Object(n)) if truthy(v) => (empty, n),
            _ => {
                // A value that is not a schema on one side (`5`, `[]`): nothing to walk, and
                // nothing proven either.
                let message = format!("{} became {}", kind_of(old), kind_of(new));
                return self.push(
                    "not-a-schema",
                    message,
                    Direction::Unknown,
                    Some(old_at),
                    Some(new_at),
                    path,
                    Vec::new(),
                );
            }
        };
        let at = Places {
            old: &old_at,
            new: &new_at,
            path,
        };
        self.types(o, n, &at);
        self.enums(o, n, &at);
        self.required(o, n, &at);
        self.object(o, n, &at);
        self.array(o, n, &at);
        super::bounds::compare(self, o, n, &at);
        self.strings(o, n, &at);
        self.combinators(o, n, &at);
        let keys: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
        for k in keys {
            // A keyword no dialect defines validates nothing (validators ignore it): only the
            // vocabulary this walk does not reason about is a change it cannot judge.
            if is_annotation(k)
                || HANDLED.contains(&k.as_str())
                || !VALIDATING.contains(&k.as_str())
            {
                continue;
            }
            if let (Some(a), Some(b)) = (o.get(k), n.get(k)) {
                if a == b && !self.refs_changed(a) {
                    continue;
                }
            }
            self.unknown(k, &at);
        }
    }

    /// A nullable wrapper (`anyOf: [X, {"type": "null"}]`) on one side only: `null` added or
    /// removed, and X compared with the other side. Whether it was one.
    fn nullable_pair(
        &mut self,
        old: &'a Value,
        old_at: &str,
        new: &'a Value,
        new_at: &str,
        path: &[Step],
    ) -> bool {
        match (nullable(old), nullable(new)) {
            (Some((x, i)), None) if new.get("anyOf").is_none() => {
                let message = "`null` no longer accepted (an `anyOf` branch)".to_owned();
                let old_null = ptr(old_at, &["anyOf", &(1 - i).to_string()]);
                self.push(
                    "null-removed",
                    message,
                    Direction::Narrower,
                    Some(old_null),
                    Some(new_at.to_owned()),
                    path,
                    vec![Value::Null],
                );
                let x_at = ptr(old_at, &["anyOf", &i.to_string()]);
                self.pair(x, &x_at, new, new_at, path);
                true
            }
            (None, Some((y, j))) if old.get("anyOf").is_none() => {
                let message = "`null` now accepted (an `anyOf` branch)".to_owned();
                let new_null = ptr(new_at, &["anyOf", &(1 - j).to_string()]);
                self.push(
                    "null-added",
                    message,
                    Direction::Wider,
                    Some(old_at.to_owned()),
                    Some(new_null),
                    path,
                    vec![Value::Null],
                );
                let y_at = ptr(new_at, &["anyOf", &j.to_string()]);
                self.pair(old, old_at, y, &y_at, path);
                true
            }
            _ => false,
        }
    }
}

/// What a value is, as a schema: `an object`, `true`, or what else it is (`5`).
fn kind_of(v: &Value) -> String {
    match v {
        Value::Object(_) => "a schema".to_owned(),
        Value::Bool(b) => format!("`{b}`"),
        other => format!("`{}` (not a schema)", super::walk::show(other)),
    }
}

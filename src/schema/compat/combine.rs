//! Combinators compared: `allOf` by position, `anyOf` by equal branches (a `null` branch
//! named as such), a changed `$ref` by its targets.

use super::is_annotation;
use super::sample::{resolve, sample, Step};
use super::walk::{ptr, show, Direction, Places, Walk};
use serde_json::{json, Map, Value};

impl<'a> Walk<'a> {
    /// `anyOf` (branches matched by equality, `null` branches named) and `allOf` (by position).
    pub(super) fn combinators(
        &mut self,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        at: &Places,
    ) {
        self.all_of(o, n, at);
        self.refs(o, n, at);
        self.branches("anyOf", o, n, at);
        self.branches("oneOf", o, n, at);
    }

    /// `allOf` lists of different lengths: entries written alike are compared, an entry only
    /// NEW has narrows (every entry must hold), one only OLD has widens.
    fn conjuncts(&mut self, old: &'a [Value], new: &'a [Value], at: &Places) {
        for (j, b) in new.iter().enumerate() {
            let new_at = ptr(at.new, &["allOf", &j.to_string()]);
            if let Some(i) = old.iter().position(|a| a == b) {
                let old_at = ptr(at.old, &["allOf", &i.to_string()]);
                self.pair(&old[i], &old_at, b, &new_at, at.path);
            } else {
                let message = format!("`allOf` entry {} added", show(b));
                let mut candidates: Vec<Value> =
                    old.iter().map(|a| sample(self.old_root, a)).collect();
                candidates.push(sample(self.new_root, b));
                self.push(
                    "all-of-entry-added",
                    message,
                    Direction::Narrower,
                    None,
                    Some(new_at),
                    at.path,
                    candidates,
                );
            }
        }
        for (i, a) in old.iter().enumerate().filter(|(_, a)| !new.contains(a)) {
            let message = format!("`allOf` entry {} removed", show(a));
            let mut candidates: Vec<Value> = new.iter().map(|b| sample(self.new_root, b)).collect();
            candidates.push(sample(self.old_root, a));
            let old_at = ptr(at.old, &["allOf", &i.to_string()]);
            self.push(
                "all-of-entry-removed",
                message,
                Direction::Wider,
                Some(old_at),
                None,
                at.path,
                candidates,
            );
        }
    }

    fn all_of(&mut self, o: &'a Map<String, Value>, n: &'a Map<String, Value>, at: &Places) {
        if let (Some(Value::Array(old)), Some(Value::Array(new))) = (o.get("allOf"), n.get("allOf"))
        {
            if old.len() == new.len() {
                for (i, (x, y)) in old.iter().zip(new).enumerate() {
                    let index = i.to_string();
                    self.pair(
                        x,
                        &ptr(at.old, &["allOf", &index]),
                        y,
                        &ptr(at.new, &["allOf", &index]),
                        at.path,
                    );
                }
            } else {
                self.conjuncts(old, new, at);
            }
        } else if o.get("allOf") != n.get("allOf") {
            self.unknown("allOf", at);
        }
    }

    fn refs(&mut self, o: &'a Map<String, Value>, n: &'a Map<String, Value>, at: &Places) {
        // Compared even when written alike: the definition it names may have changed.
        if o.get("$ref").is_some() || n.get("$ref").is_some() {
            match (
                o.get("$ref").and_then(Value::as_str),
                n.get("$ref").and_then(Value::as_str),
            ) {
                (Some(old), Some(new)) => {
                    match (resolve(self.old_root, old), resolve(self.new_root, new)) {
                        (Some(x), Some(y)) => {
                            let (old_at, new_at) = (
                                old.trim_start_matches('#').to_owned(),
                                new.trim_start_matches('#').to_owned(),
                            );
                            self.pair(x, &old_at, y, &new_at, at.path);
                        }
                        _ => self.unknown("$ref", at),
                    }
                }
                _ => self.unknown("$ref", at),
            }
        }
    }

    /// `anyOf`, or `oneOf` (`keyword`), whose changes have no known direction: a branch that
    /// accepts more may overlap another, which `oneOf` then rejects.
    fn branches(
        &mut self,
        keyword: &'static str,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        at: &Places,
    ) {
        let before = self.out.len();
        self.branches_of(keyword, o, n, at);
        if keyword == "oneOf" {
            for c in self.out[before..]
                .iter_mut()
                .filter(|c| !declared_in_open(c))
            {
                c.direction = Direction::Unknown;
                c.kind = match c.kind {
                    "any-of-branch-added" => "one-of-branch-added",
                    "any-of-branch-removed" => "one-of-branch-removed",
                    kind => kind,
                };
            }
        }
    }

    fn branches_of(
        &mut self,
        keyword: &'static str,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        at: &Places,
    ) {
        let (old, new) = (o.get(keyword), n.get(keyword));
        if old.is_none() && new.is_none() {
            return;
        }
        let (Some(Value::Array(old)), Some(Value::Array(new))) = (old, new) else {
            return self.unknown(keyword, at);
        };
        // Branches written alike are compared all the same: a `$ref` among them may point at a
        // definition that changed.
        for (j, b) in new.iter().enumerate() {
            if let Some(i) = old.iter().position(|a| a == b) {
                let old_at = ptr(at.old, &[keyword, &i.to_string()]);
                let new_at = ptr(at.new, &[keyword, &j.to_string()]);
                self.pair(&old[i], &old_at, b, &new_at, at.path);
            }
        }
        if old == new {
            return;
        }
        let is_null = |v: &Value| v.get("type") == Some(&json!("null"));
        let mut unmatched = Vec::new();
        for (i, b) in new.iter().enumerate() {
            if !old.contains(b) {
                let message = if is_null(b) {
                    format!("`null` now accepted (an `{keyword}` branch)")
                } else {
                    format!("`{keyword}` branch {} added", show(b))
                };
                let kind = if is_null(b) {
                    "null-added"
                } else {
                    "any-of-branch-added"
                };
                let candidates = vec![sample(self.new_root, b)];
                let new_at = ptr(at.new, &[keyword, &i.to_string()]);
                unmatched.push(i);
                self.push(
                    kind,
                    message,
                    Direction::Wider,
                    None,
                    Some(new_at),
                    at.path,
                    candidates,
                );
            }
        }
        let removed: Vec<usize> = (0..old.len()).filter(|i| !new.contains(&old[*i])).collect();
        if removed.len() == 1 && unmatched.len() == 1 && !is_null(&new[unmatched[0]]) {
            // One branch changed in place: compare it, not add and remove it.
            self.out.pop();
            let (i, j) = (removed[0], unmatched[0]);
            self.pair(
                &old[i],
                &ptr(at.old, &[keyword, &i.to_string()]),
                &new[j],
                &ptr(at.new, &[keyword, &j.to_string()]),
                at.path,
            );
            return;
        }
        for i in removed {
            let b = &old[i];
            let message = if is_null(b) {
                format!("`null` no longer accepted (an `{keyword}` branch)")
            } else {
                format!("`{keyword}` branch {} removed", show(b))
            };
            let kind = if is_null(b) {
                "null-removed"
            } else {
                "any-of-branch-removed"
            };
            let candidates = vec![sample(self.old_root, b)];
            self.push(
                kind,
                message,
                Direction::Narrower,
                Some(ptr(at.old, &[keyword, &i.to_string()])),
                None,
                at.path,
                candidates,
            );
        }
    }
}

/// `{"anyOf": [X, {"type": "null"}]}` (in either order, annotations beside it): X and its index.
pub(super) fn nullable(schema: &Value) -> Option<(&Value, usize)> {
    let m = schema.as_object()?;
    if m.keys().any(|k| k != "anyOf" && !is_annotation(k)) {
        return None;
    }
    let branches = m.get("anyOf")?.as_array()?;
    let is_null = |v: &Value| {
        v.get("type") == Some(&json!("null")) && v.as_object().is_some_and(|o| o.len() == 1)
    };
    match branches.as_slice() {
        [x, n] if is_null(n) && !is_null(x) => Some((x, 0)),
        [n, x] if is_null(n) && !is_null(x) => Some((x, 1)),
        _ => None,
    }
}

/// A property declared where undeclared ones were open ([`Walk::added_to_open`]): compatible
/// by this comparison's policy, under `oneOf` as anywhere.
fn declared_in_open(c: &super::walk::Change) -> bool {
    c.kind == "property-added" && c.candidates.is_empty()
}

/// The keyword and branches of a schema in which only `anyOf` or `oneOf` validates.
fn only_branches(schema: &Value) -> Option<(&'static str, &Vec<Value>)> {
    let m = schema.as_object()?;
    ["anyOf", "oneOf"]
        .into_iter()
        .find_map(|keyword| match m.get(keyword) {
            Some(Value::Array(b)) if m.keys().all(|k| k == keyword || is_annotation(k)) => {
                Some((keyword, b))
            }
            _ => None,
        })
}

/// How alike two schemas are: the members they share, and the property names.
fn likeness(a: &Value, b: &Value) -> usize {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return 0;
    };
    let shared = a.iter().filter(|(k, v)| b.get(*k) == Some(*v)).count();
    let names = |m: &Map<String, Value>| m.get("properties").and_then(Value::as_object).cloned();
    let props = match (names(a), names(b)) {
        (Some(x), Some(y)) => x.keys().filter(|k| y.contains_key(*k)).count(),
        _ => 0,
    };
    shared * 2 + props
}

impl<'a> Walk<'a> {
    /// One version puts the place under `anyOf`/`oneOf` and the other does not: the plain
    /// schema is compared with the branch most like it, and each other branch is added (or
    /// removed). Whether it was so.
    pub(super) fn wrapped_pair(
        &mut self,
        old: &'a Value,
        old_at: &str,
        new: &'a Value,
        new_at: &str,
        path: &[Step],
    ) -> bool {
        let plain = |v: &Value| {
            v.as_object()
                .is_some_and(|m| !m.contains_key("anyOf") && !m.contains_key("oneOf"))
        };
        let (wrapped_new, keyword, branches) = match (only_branches(old), only_branches(new)) {
            (None, Some((k, b))) if plain(old) => (true, k, b),
            (Some((k, b)), None) if plain(new) => (false, k, b),
            _ => return false,
        };
        let other = if wrapped_new { old } else { new };
        let Some(best) =
            (0..branches.len()).max_by_key(|i| (likeness(other, &branches[*i]), usize::MAX - i))
        else {
            return false;
        };
        let before = self.out.len();
        for (i, b) in branches.iter().enumerate().filter(|(i, _)| *i != best) {
            let index = i.to_string();
            if wrapped_new {
                let message = format!("`{keyword}` branch {} added", show(b));
                let candidates = vec![sample(self.new_root, b)];
                let at = Some(ptr(new_at, &[keyword, &index]));
                self.push(
                    "any-of-branch-added",
                    message,
                    Direction::Wider,
                    Some(old_at.to_owned()),
                    at,
                    path,
                    candidates,
                );
            } else {
                let message = format!("`{keyword}` branch {} removed", show(b));
                let candidates = vec![sample(self.old_root, b)];
                let at = Some(ptr(old_at, &[keyword, &index]));
                self.push(
                    "any-of-branch-removed",
                    message,
                    Direction::Narrower,
                    at,
                    Some(new_at.to_owned()),
                    path,
                    candidates,
                );
            }
        }
        let branch_at = |base: &str| ptr(base, &[keyword, &best.to_string()]);
        if wrapped_new {
            self.pair(old, old_at, &branches[best], &branch_at(new_at), path);
        } else {
            self.pair(&branches[best], &branch_at(old_at), new, new_at, path);
        }
        if keyword == "oneOf" {
            for c in self.out[before..]
                .iter_mut()
                .filter(|c| !declared_in_open(c))
            {
                c.direction = Direction::Unknown;
            }
        }
        true
    }
}

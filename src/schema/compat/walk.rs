//! OLD and NEW walked side by side: at each pair of subschemas that validate the same place of an
//! instance, every keyword that changed becomes a [`Change`], with the direction it moves the
//! set of valid instances and the values most likely to show it ([`super::witness`] proves it).

use super::is_annotation;
use super::sample::{matching, refs_changed_with, sample, through_refs, RefMemo, Step};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashSet};

/// Which way a change moves the set of instances the schema accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// NEW accepts less (a caller's instance may now be rejected).
    Narrower,
    /// NEW accepts more (a reader may now receive what it did not expect).
    Wider,
    /// Either, or both: a keyword this comparison does not reason about.
    Unknown,
}

/// One keyword that changed, at one place.
#[derive(Clone, Debug)]
pub struct Change {
    /// What changed, in kebab case (`required-added`).
    pub kind: &'static str,
    /// What changed, in one sentence.
    pub message: String,
    /// Which way it moves the valid instances.
    pub direction: Direction,
    /// JSON pointer of the changed keyword in OLD, relative to OLD's root (when it is there).
    pub old_pointer: Option<String>,
    /// The same in NEW (when it is there).
    pub new_pointer: Option<String>,
    /// Where in an instance the change applies.
    pub path: Vec<Step>,
    /// Values to try at `path`, most telling first.
    pub candidates: Vec<Value>,
}

pub(super) struct Walk<'a> {
    pub(super) old_root: &'a Value,
    pub(super) new_root: &'a Value,
    pub(super) seen: HashSet<(String, String)>,
    pub(super) out: Vec<Change>,
    /// What is known of the references of the two roots (see [`RefMemo`]).
    pub(super) refs: RefMemo,
    /// How many pairs are being compared, one inside another.
    pub(super) depth: usize,
}

pub(super) fn ptr(base: &str, tokens: &[&str]) -> String {
    let mut out = base.to_owned();
    for t in tokens {
        crate::syntax::document::push_pointer_token(&mut out, t);
    }
    out
}

pub(super) fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(59).collect::<String>())
    } else {
        s
    }
}

impl<'a> Walk<'a> {
    #[allow(clippy::too_many_arguments, reason = "one change, every field named")]
    pub(super) fn push(
        &mut self,
        kind: &'static str,
        message: String,
        direction: Direction,
        old_pointer: Option<String>,
        new_pointer: Option<String>,
        path: &[Step],
        candidates: Vec<Value>,
    ) {
        self.out.push(Change {
            kind,
            message,
            direction,
            old_pointer,
            new_pointer,
            path: path.to_vec(),
            candidates,
        });
    }

    /// Whether a local `$ref` in `value`, or in what it names, reaches a changed definition.
    pub(super) fn refs_changed(&mut self, value: &Value) -> bool {
        refs_changed_with(self.old_root, self.new_root, value, &mut self.refs)
    }

    /// A keyword this walk does not reason about, changed.
    pub(super) fn unknown(&mut self, keyword: &str, at: &Places) {
        self.push(
            "unsupported-change",
            format!("`{keyword}` changed, which this comparison does not reason about"),
            Direction::Unknown,
            Some(ptr(at.old, &[keyword])),
            Some(ptr(at.new, &[keyword])),
            at.path,
            Vec::new(),
        );
    }

    /// Records a change (for the sibling modules).
    pub(super) fn record(
        &mut self,
        kind: &'static str,
        message: String,
        direction: Direction,
        keyword: &str,
        at: &Places,
        candidates: Vec<Value>,
    ) {
        let old = at.old;
        let new = at.new;
        self.push(
            kind,
            message,
            direction,
            Some(ptr(old, &[keyword])),
            Some(ptr(new, &[keyword])),
            at.path,
            candidates,
        );
    }

    /// Samples of the subschemas at `at`, old then new.
    pub(super) fn samples(&self, o: &Map<String, Value>, n: &Map<String, Value>) -> [Value; 2] {
        [
            sample(self.old_root, &Value::Object(o.clone())),
            sample(self.new_root, &Value::Object(n.clone())),
        ]
    }

    /// `properties` and `additionalProperties`.
    pub(super) fn object(
        &mut self,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        at: &Places,
    ) {
        static TRUE: Value = Value::Bool(true);
        let props = |m: &'a Map<String, Value>| m.get("properties").and_then(Value::as_object);
        let (op, np) = (props(o), props(n));
        let names: BTreeSet<&String> = op.into_iter().chain(np).flat_map(|p| p.keys()).collect();
        let rest = |m: &'a Map<String, Value>, base: &str| match m.get("additionalProperties") {
            Some(v) => (v, ptr(base, &["additionalProperties"])),
            None => (&TRUE, base.to_owned()),
        };
        for name in names {
            let mut path = at.path.to_vec();
            path.push(Step::Key(name.clone()));
            let old = op.and_then(|p| p.get(name));
            let new = np.and_then(|p| p.get(name));
            let old_ptr = ptr(at.old, &["properties", name]);
            let new_ptr = ptr(at.new, &["properties", name]);
            match (old, new) {
                (Some(old), Some(new)) => self.pair(old, &old_ptr, new, &new_ptr, &path),
                (None, Some(new)) => {
                    let (old, old_ptr) = rest(o, at.old);
                    if old.as_bool() == Some(false) {
                        let candidates = vec![sample(self.new_root, new)];
                        let message =
                            format!("property `{name}` added where none other was allowed");
                        self.push(
                            "property-added",
                            message,
                            Direction::Wider,
                            None,
                            Some(new_ptr),
                            &path,
                            candidates,
                        );
                    } else if old.as_bool() == Some(true) && o.get("patternProperties").is_none() {
                        self.added_to_open(name, new, new_ptr, &path);
                    } else {
                        self.pair(old, &old_ptr, new, &new_ptr, &path);
                    }
                }
                (Some(old), None) => {
                    let (new, new_rest) = rest(n, at.new);
                    if new.as_bool() == Some(false) {
                        let candidates = vec![sample(self.old_root, old)];
                        let message = format!("property `{name}` removed, and no other is allowed");
                        self.push(
                            "property-removed",
                            message,
                            Direction::Narrower,
                            Some(old_ptr),
                            Some(new_rest),
                            &path,
                            candidates,
                        );
                    } else {
                        let before = self.out.len();
                        self.pair(old, &old_ptr, new, &new_rest, &path);
                        for c in &mut self.out[before..] {
                            c.kind = if c.direction == Direction::Wider {
                                "property-removed"
                            } else {
                                c.kind
                            };
                            c.message = format!("property `{name}` removed: {}", c.message);
                        }
                    }
                }
                (None, None) => {}
            }
        }
        self.pattern_properties(o, n, at);
        let (old_rest, old_rest_at) = rest(o, at.old);
        let (new_rest, new_rest_at) = rest(n, at.new);
        if old_rest != new_rest || self.refs_changed(old_rest) {
            let mut fresh = "undeclared".to_owned();
            while op.is_some_and(|p| p.contains_key(&fresh))
                || np.is_some_and(|p| p.contains_key(&fresh))
            {
                fresh.push('_');
            }
            let mut path = at.path.to_vec();
            path.push(Step::Key(fresh));
            let before = self.out.len();
            self.pair(old_rest, &old_rest_at, new_rest, &new_rest_at, &path);
            for c in &mut self.out[before..] {
                c.kind = "additional-properties-changed";
                c.message = format!("`additionalProperties`: {}", c.message);
            }
        }
    }

    /// `patternProperties`: a pattern both versions have is compared at a name it matches; one
    /// only a version has is a change this walk does not reason about.
    fn pattern_properties(
        &mut self,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        at: &Places,
    ) {
        let patterns =
            |m: &'a Map<String, Value>| m.get("patternProperties").and_then(Value::as_object);
        let (op, np) = (patterns(o), patterns(n));
        if op == np && !op.is_some_and(|p| self.refs_changed(&Value::Object(p.clone()))) {
            return;
        }
        let (Some(op), Some(np)) = (op, np) else {
            return self.unknown("patternProperties", at);
        };
        if op.keys().ne(np.keys()) {
            return self.unknown("patternProperties", at);
        }
        for (pattern, old) in op {
            let (Some(new), Some(name)) = (np.get(pattern), matching(pattern)) else {
                self.unknown("patternProperties", at);
                continue;
            };
            let mut path = at.path.to_vec();
            path.push(Step::Key(name.to_owned()));
            let old_at = ptr(at.old, &["patternProperties", pattern]);
            let new_at = ptr(at.new, &["patternProperties", pattern]);
            self.pair(old, &old_at, new, &new_at, &path);
        }
    }

    /// A property declared where the old schema left every undeclared property open: the old
    /// schema accepted any value under that name, so it is narrower only for a caller that sent
    /// the name undeclared. Reported as a compatible change of its own kind.
    fn added_to_open(&mut self, name: &str, new: &Value, new_ptr: String, path: &[Step]) {
        let (schema, _) = through_refs(self.new_root, new, "");
        let constrains = schema
            .as_object()
            .is_some_and(|m| m.keys().any(|k| !is_annotation(k)));
        self.push(
            "property-added",
            if constrains {
                format!("property `{name}` declared (before, any value under that name was accepted undeclared)")
            } else {
                format!("property `{name}` declared")
            },
            Direction::Wider,
            None,
            Some(new_ptr),
            path,
            Vec::new(),
        );
    }

    /// `items` (one schema for every item) and `prefixItems`/array `items` by position.
    pub(super) fn array(
        &mut self,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        at: &Places,
    ) {
        static TRUE: Value = Value::Bool(true);
        let single = |m: &'a Map<String, Value>| m.get("items").filter(|i| !i.is_array());
        let (oi, ni) = (single(o), single(n));
        let changed = oi != ni || oi.is_some_and(|i| self.refs_changed(i));
        if changed
            && !o.get("items").is_some_and(Value::is_array)
            && !n.get("items").is_some_and(Value::is_array)
        {
            let mut path = at.path.to_vec();
            path.push(Step::Index(0));
            let old_at = if oi.is_some() {
                ptr(at.old, &["items"])
            } else {
                at.old.to_owned()
            };
            let new_at = if ni.is_some() {
                ptr(at.new, &["items"])
            } else {
                at.new.to_owned()
            };
            self.pair(
                oi.unwrap_or(&TRUE),
                &old_at,
                ni.unwrap_or(&TRUE),
                &new_at,
                &path,
            );
        }
        for keyword in ["prefixItems", "items"] {
            let (Some(Value::Array(op)), Some(Value::Array(np))) = (o.get(keyword), n.get(keyword))
            else {
                if o.get(keyword).is_some_and(Value::is_array)
                    != n.get(keyword).is_some_and(Value::is_array)
                {
                    self.unknown(keyword, at);
                }
                continue;
            };
            if op.len() != np.len() {
                self.unknown(keyword, at);
                continue;
            }
            for (i, (a, b)) in op.iter().zip(np).enumerate() {
                let mut path = at.path.to_vec();
                path.push(Step::Index(i));
                let index = i.to_string();
                self.pair(
                    a,
                    &ptr(at.old, &[keyword, &index]),
                    b,
                    &ptr(at.new, &[keyword, &index]),
                    &path,
                );
            }
        }
    }
}

/// Where a pair of subschemas is: their pointers in OLD and NEW, and the instance path.
pub(super) struct Places<'p> {
    pub old: &'p str,
    pub new: &'p str,
    pub path: &'p [Step],
}

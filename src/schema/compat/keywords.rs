//! The keywords of one place compared: `type`, `enum`/`const`, `required`, `pattern`, `format`.

use super::sample::{format_sample, sample};
use super::walk::{ptr, show, Direction, Places, Walk};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

impl Walk<'_> {
    pub(super) fn types(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &Places) {
        let set = |m: &Map<String, Value>| -> Option<BTreeSet<String>> {
            match m.get("type")? {
                Value::String(t) => Some(BTreeSet::from([t.clone()])),
                Value::Array(ts) => Some(
                    ts.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                ),
                _ => None,
            }
        };
        let (old, new) = (set(o), set(n));
        if old == new {
            return;
        }
        let covers = |s: &Option<BTreeSet<String>>, t: &str| {
            s.as_ref()
                .is_none_or(|s| s.contains(t) || (t == "integer" && s.contains("number")))
        };
        let all = [
            "null", "boolean", "object", "array", "string", "number", "integer",
        ];
        let name = |s: &Option<BTreeSet<String>>| match s {
            None => "any".to_owned(),
            Some(s) => s
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let typed = |m: &Map<String, Value>, t: &str, root: &Value| {
            let mut m = m.clone();
            m.insert("type".into(), json!(t));
            sample(root, &Value::Object(m))
        };
        let removed: Vec<&str> = all
            .iter()
            .copied()
            .filter(|t| covers(&old, t) && !covers(&new, t))
            .collect();
        let added: Vec<&str> = all
            .iter()
            .copied()
            .filter(|t| covers(&new, t) && !covers(&old, t))
            .collect();
        let mut narrowed: Vec<Value> = removed.iter().map(|t| typed(o, t, self.old_root)).collect();
        if covers(&old, "number") && !covers(&new, "number") && covers(&new, "integer") {
            narrowed.push(json!(0.5));
        }
        if !narrowed.is_empty() {
            let message = format!("type narrowed from {} to {}", name(&old), name(&new));
            self.record(
                "type-narrowed",
                message,
                Direction::Narrower,
                "type",
                at,
                narrowed,
            );
        }
        if !added.is_empty() {
            let mut widened: Vec<Value> =
                added.iter().map(|t| typed(n, t, self.new_root)).collect();
            if added.contains(&"number") {
                widened.push(json!(0.5));
            }
            let kind = if added == ["null"] {
                "null-added"
            } else {
                "type-widened"
            };
            let message = format!("type widened from {} to {}", name(&old), name(&new));
            self.record(kind, message, Direction::Wider, "type", at, widened);
        }
    }

    pub(super) fn enums(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &Places) {
        let set = |m: &Map<String, Value>| -> Option<(Vec<Value>, &'static str)> {
            if let Some(Value::Array(values)) = m.get("enum") {
                return Some((values.clone(), "enum"));
            }
            m.get("const").map(|c| (vec![c.clone()], "const"))
        };
        let (old, new) = (set(o), set(n));
        match (old, new) {
            (None, None) => {}
            (Some((old, ok)), Some((new, nk))) => {
                let removed: Vec<Value> =
                    old.iter().filter(|v| !new.contains(v)).cloned().collect();
                let added: Vec<Value> = new.iter().filter(|v| !old.contains(v)).cloned().collect();
                let keyword = if nk == "enum" { nk } else { ok };
                for v in &removed {
                    let message = format!("value {} is no longer accepted by `{keyword}`", show(v));
                    self.record(
                        "enum-value-removed",
                        message,
                        Direction::Narrower,
                        keyword,
                        at,
                        vec![v.clone()],
                    );
                }
                for v in &added {
                    let message = format!("value {} is now accepted by `{keyword}`", show(v));
                    self.record(
                        "enum-value-added",
                        message,
                        Direction::Wider,
                        keyword,
                        at,
                        vec![v.clone()],
                    );
                }
            }
            (None, Some((new, keyword))) => {
                let message = format!(
                    "`{keyword}` added: only {} accepted",
                    show(&Value::Array(new))
                );
                let candidates = self.samples(o, n).to_vec();
                self.record(
                    "enum-added",
                    message,
                    Direction::Narrower,
                    keyword,
                    at,
                    candidates,
                );
            }
            (Some((old, keyword)), None) => {
                let message = format!(
                    "`{keyword}` removed: not only {} any more",
                    show(&Value::Array(old))
                );
                let candidates = self.samples(o, n).to_vec();
                self.record(
                    "enum-removed",
                    message,
                    Direction::Wider,
                    keyword,
                    at,
                    candidates,
                );
            }
        }
    }

    pub(super) fn required(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &Places) {
        let list = |m: &Map<String, Value>| -> Vec<String> {
            m.get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        let (old, new) = (list(o), list(n));
        let [old_sample, new_sample] = self.samples(o, n);
        let without = |v: &Value, name: &str| {
            let mut v = v.clone();
            if let Some(m) = v.as_object_mut() {
                m.remove(name);
            }
            v
        };
        for (i, name) in new.iter().enumerate() {
            if !old.contains(name) {
                let candidates = vec![without(&old_sample, name), without(&new_sample, name)];
                self.push(
                    "required-added",
                    format!("`{name}` is now required"),
                    Direction::Narrower,
                    None,
                    Some(ptr(at.new, &["required", &i.to_string()])),
                    at.path,
                    candidates,
                );
            }
        }
        for (i, name) in old.iter().enumerate() {
            if !new.contains(name) {
                let candidates = vec![without(&new_sample, name), without(&old_sample, name)];
                self.push(
                    "required-removed",
                    format!("`{name}` is no longer required"),
                    Direction::Wider,
                    Some(ptr(at.old, &["required", &i.to_string()])),
                    None,
                    at.path,
                    candidates,
                );
            }
        }
    }

    /// `pattern` and `format`.
    pub(super) fn strings(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &Places) {
        for keyword in ["pattern", "format"] {
            let (old, new) = (o.get(keyword), n.get(keyword));
            if old == new {
                continue;
            }
            let mut candidates: Vec<Value> = self.samples(o, n).to_vec();
            for v in [old, new].into_iter().flatten().filter_map(Value::as_str) {
                if keyword == "format" {
                    candidates.extend(format_sample(v).map(|s| json!(s)));
                    candidates.push(json!(format!("not a {v}")));
                    // Not a regular expression, nor a date, a time or an address.
                    candidates.push(json!("["));
                }
            }
            candidates.extend(
                [
                    "a",
                    "A",
                    "0",
                    "",
                    " ",
                    "a b",
                    "-",
                    "aaaaaaaaaaaaaaaaaaaa",
                    "x@y",
                    "%",
                ]
                .map(|s| json!(s)),
            );
            let show = |v: Option<&Value>| {
                v.map_or_else(
                    || "none".to_owned(),
                    |v| format!("`{}`", v.as_str().unwrap_or_default()),
                )
            };
            let (kind, direction, message) = match (old, new) {
                (None, Some(_)) => (
                    if keyword == "pattern" {
                        "pattern-added"
                    } else {
                        "format-added"
                    },
                    Direction::Narrower,
                    format!("`{keyword}` {} added", show(new)),
                ),
                (Some(_), None) => (
                    if keyword == "pattern" {
                        "pattern-removed"
                    } else {
                        "format-removed"
                    },
                    Direction::Wider,
                    format!("`{keyword}` {} removed", show(old)),
                ),
                _ => (
                    if keyword == "pattern" {
                        "pattern-changed"
                    } else {
                        "format-changed"
                    },
                    Direction::Unknown,
                    format!("`{keyword}` changed from {} to {}", show(old), show(new)),
                ),
            };
            self.record(kind, message, direction, keyword, at, candidates);
        }
    }
}

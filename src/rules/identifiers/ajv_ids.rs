//! The identifiers Ajv sees in a schema, which are more than the real subschema positions hold.
//!
//! Ajv collects `$id`, `$anchor` and `$dynamicAnchor` while it walks a schema with
//! json-schema-traverse's `allKeys`: through the keywords that hold schemas, and also through the
//! object value of any other key (an unknown keyword, `x-...`), which it walks as a schema in
//! turn, but not through arrays under such keys, nor through `const`, `enum`, `default`, the
//! validation keywords and `format`. Measured (`testdata/engines/`): Ajv refuses a schema where
//! two of the places it walks declare the same `$id` or anchor, or an anchor with an invalid name,
//! in every dialect, draft-07 included.

use crate::syntax::document::{push_pointer_token, Node};
use crate::syntax::uri::{resolve_uri, strip_fragment};

/// How json-schema-traverse's `allKeys` walks the value of a key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walked {
    /// Never walked into (`default`, `enum`, `const`, the validation keywords, `format`).
    Skipped,
    /// An array value holds schemas (`items`, `allOf`, ...).
    Array,
    /// An object value maps names to schemas (`$defs`, `properties`, ...).
    Map,
    /// A keyword whose value is a single schema in some dialect.
    Schema,
    /// Any other key: an object value is walked as a schema, an array value is not walked.
    Other,
}

/// How `key`'s value is walked (one `match`, rather than a look through each list per key).
fn walked(key: &str) -> Walked {
    match key {
        "default" | "enum" | "const" | "required" | "maximum" | "minimum" | "exclusiveMaximum"
        | "exclusiveMinimum" | "multipleOf" | "maxLength" | "minLength" | "pattern" | "format"
        | "maxItems" | "minItems" | "uniqueItems" | "maxProperties" | "minProperties" => {
            Walked::Skipped
        }
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Walked::Array,
        "$defs" | "definitions" | "properties" | "patternProperties" | "dependencies"
        | "dependentSchemas" => Walked::Map,
        // `items` holds schemas as an array and is a schema otherwise.
        "items"
        | "additionalItems"
        | "additionalProperties"
        | "contains"
        | "contentSchema"
        | "else"
        | "if"
        | "not"
        | "propertyNames"
        | "then"
        | "unevaluatedItems"
        | "unevaluatedProperties" => Walked::Schema,
        _ => Walked::Other,
    }
}

/// One identifier Ajv sees.
pub(super) struct Seen<'a> {
    /// `$id`, `$anchor` or `$dynamicAnchor`.
    pub keyword: &'static str,
    /// The value, a string.
    pub value: &'a Node,
    /// JSON pointer of the object that declares it.
    pub pointer: String,
    /// What Ajv registers it under: the resolved URI (no fragment) for a `$id`, the base and the
    /// name (`base#name`) for an anchor.
    pub key: String,
    /// Whether Ajv reached it only through a key that is not a schema keyword (data to every
    /// other engine).
    pub hidden: bool,
}

/// Every identifier Ajv sees in the schema at `root` (file pointer `root_pointer`), in document
/// order.
pub(super) fn seen<'a>(root: &'a Node, root_pointer: &str) -> Vec<Seen<'a>> {
    let mut walk = Walk {
        root_pointer,
        path: Vec::new(),
        out: Vec::new(),
    };
    walk.visit(root, "", false);
    walk.out
}

/// One step from an object or array to a value in it.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The walk's state: the path to the current node, whose pointer is only spelled out for the
/// identifiers found (most schemas have a few, and thousands of nodes).
struct Walk<'a, 'r> {
    root_pointer: &'r str,
    path: Vec<Step<'a>>,
    out: Vec<Seen<'a>>,
}

impl<'a> Walk<'a, '_> {
    fn pointer(&self) -> String {
        let mut pointer = self.root_pointer.to_owned();
        for step in &self.path {
            match step {
                Step::Key(key) => push_pointer_token(&mut pointer, key),
                Step::Index(i) => {
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                }
            }
        }
        pointer
    }

    fn anchor(
        &mut self,
        keyword: &'static str,
        value: &'a Node,
        base: &str,
        name: &str,
        hidden: bool,
    ) {
        let pointer = self.pointer();
        self.out.push(Seen {
            keyword,
            value,
            pointer,
            key: format!("{base}#{name}"),
            hidden,
        });
    }

    fn visit(&mut self, node: &'a Node, base: &str, hidden: bool) {
        let Some(members) = node.as_object() else {
            return;
        };
        // The identifiers of the object, in one pass over its members (the last of a repeated
        // key wins, as in the engines).
        let (mut id, mut anchor, mut dynamic_anchor) = (None, None, None);
        for member in members {
            match member.key.as_str() {
                "$id" => id = Some(&member.value),
                "$anchor" => anchor = Some(&member.value),
                "$dynamicAnchor" => dynamic_anchor = Some(&member.value),
                _ => {}
            }
        }
        // The base changes only where a `$id` declares another one.
        let declared;
        let mut base = base;
        if let Some((id, raw)) = id.and_then(|v| Some((v, v.as_str()?))) {
            if let Some(name) = raw.strip_prefix('#') {
                // A draft-07 plain-name `$id` is an anchor to Ajv.
                self.anchor("$id", id, base, name, hidden);
            } else {
                let resolved = if base.is_empty() {
                    Some(raw.to_owned())
                } else {
                    resolve_uri(base, raw)
                };
                declared = strip_fragment(&resolved.unwrap_or_else(|| raw.to_owned())).to_owned();
                base = &declared;
                let pointer = self.pointer();
                self.out.push(Seen {
                    keyword: "$id",
                    value: id,
                    pointer,
                    key: base.to_owned(),
                    hidden,
                });
            }
        }
        for (keyword, value) in [("$anchor", anchor), ("$dynamicAnchor", dynamic_anchor)] {
            if let Some((value, name)) = value.and_then(|v| Some((v, v.as_str()?))) {
                self.anchor(keyword, value, base, name, hidden);
            }
        }
        for member in members {
            let key = member.key.as_str();
            let how = walked(key);
            if how == Walked::Skipped {
                continue;
            }
            self.path.push(Step::Key(key));
            if let Some(items) = member.value.as_array() {
                if how == Walked::Array || key == "items" {
                    for (i, item) in items.iter().enumerate() {
                        self.path.push(Step::Index(i));
                        self.visit(item, base, hidden);
                        self.path.pop();
                    }
                }
            } else if how == Walked::Map {
                for entry in member.value.as_object().unwrap_or_default() {
                    self.path.push(Step::Key(&entry.key));
                    self.visit(&entry.value, base, hidden);
                    self.path.pop();
                }
            } else {
                // A schema keyword's value, or any other key's object value, walked as a schema.
                let unknown = how != Walked::Schema;
                self.visit(&member.value, base, hidden || unknown);
            }
            self.path.pop();
        }
    }
}

/// Whether Ajv takes `name` as an anchor: `^[A-Za-z_][-A-Za-z0-9._]*$`.
pub(super) fn ajv_anchor_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    #[test]
    fn sees_what_ajv_walks() {
        let root = parse(
            r#"{"$id": "https://e.com/r.json", "properties": {"a": {"$id": "a.json", "$anchor": "x"}},
                "x-one": {"$id": "https://e.com/a.json", "sub": {"$anchor": "y"}},
                "x-list": [{"$id": "https://e.com/a.json"}],
                "examples": [{"$id": "https://e.com/a.json"}], "const": {"$id": "c"}}"#,
        )
        .unwrap();
        let seen = seen(&root, "");
        let keys: Vec<(&str, bool)> = seen.iter().map(|s| (s.key.as_str(), s.hidden)).collect();
        assert_eq!(
            keys,
            [
                ("https://e.com/r.json", false),
                ("https://e.com/a.json", false),
                ("https://e.com/a.json#x", false),
                ("https://e.com/a.json", true),
                ("https://e.com/a.json#y", true),
            ]
        );
        assert_eq!(seen[4].pointer, "/x-one/sub");
    }
}

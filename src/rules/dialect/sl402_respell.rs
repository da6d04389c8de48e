//! SL402's respelling of a draft-06/07 schema in 2020-12: which keys to rename so that the
//! schema means the same without its `$schema`, and the fix that removes the stamp.

use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::rules::edits::members::removal_span;
use crate::rules::UnitContext;
use crate::schema::dialect::Draft;
use crate::syntax::document::{escape_pointer_token, Member, Node, NodeKind};
use crate::syntax::literal::literal;

/// The keys a draft-06/07 schema must have renamed to mean the same in 2020-12, if it can be
/// respelled exactly: [`respelling`].
pub(super) struct Respelling {
    /// The edits, each a key renamed, in document order.
    edits: Vec<Edit>,
    /// The renames, each once (`items` to `prefixItems`), in the order first met.
    pub(super) renames: Vec<(&'static str, &'static str)>,
}

impl Respelling {
    /// `` `items` as `prefixItems`, `dependencies` as `dependentRequired` ``.
    pub(super) fn list(&self) -> String {
        self.renames
            .iter()
            .map(|(old, new)| format!("`{old}` as `{new}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What the fix does beside removing `$schema`, as the end of a sentence.
    pub(super) fn also(&self) -> String {
        if self.renames.is_empty() {
            String::new()
        } else {
            format!(" and respells {}", self.list())
        }
    }
}

/// The fix of a draft-06/07 `$schema` on an MCP target: the schema respelled in 2020-12, and the
/// stamp removed, so that hosts that read 2020-12 only (Claude) and hosts that compile with Ajv's
/// draft-07 class (which has no 2020-12 meta-schema) both take it; MCP reads a schema without
/// `$schema` as 2020-12. None where the root has `$schema` twice.
pub(super) fn without_stamp(
    cx: &UnitContext<'_>,
    root: &Node,
    respelled: &Respelling,
) -> Option<Fix> {
    let members = root.as_object()?;
    let stamps: Vec<usize> = (0..members.len())
        .filter(|&i| members[i].key == "$schema")
        .collect();
    let [i] = stamps.as_slice() else {
        return None;
    };
    let mut edits = respelled.edits.clone();
    edits.push(Edit {
        file: cx.file.id,
        span: removal_span(root, members, *i),
        content: String::new(),
    });
    let title = if respelled.renames.is_empty() {
        "Remove `$schema` (2020-12, MCP's default)".to_owned()
    } else {
        format!(
            "Respell {} for 2020-12 and remove `$schema`",
            respelled.list()
        )
    };
    Some(Fix {
        title,
        // What goes over the wire changes, and so does what an engine that reads every schema
        // as draft-07 (the TS v1 client, the hosts' Ajv) checks of a respelled keyword.
        applicability: Applicability::Unsafe,
        edits,
        moves: Vec::new(),
    })
}

/// How a draft-06/07 schema reads the same in 2020-12: the keys to rename (a tuple's `items`
/// array to `prefixItems`, where it has no `additionalItems`; `dependencies` to
/// `dependentRequired` where every entry lists property names, to `dependentSchemas` where every
/// entry is a schema), each at a subschema of the walk, given once there, with no reference into
/// it; and otherwise what [`reads_the_same_in_2020_12`] asks. `#/definitions/...` references
/// resolve the same in 2020-12 (a JSON pointer), and are left alone. None where the schema cannot
/// be respelled so: a keyword of [`DIFFERING`] anywhere else (data included, `additionalItems`
/// too), an embedded `$schema` below a key to rename, mixed `dependencies`. An engine that reads
/// the unstamped result as draft-07 does not check a respelled keyword, and refuses nothing the
/// original accepts.
pub(super) fn respelling(cx: &UnitContext<'_>, root: &Node, draft: Draft) -> Option<Respelling> {
    if draft != Draft::Draft7 && draft != Draft::Draft6 {
        return None;
    }
    let schemas: std::collections::HashSet<&str> =
        cx.subschemas.iter().map(|s| s.pointer.as_str()).collect();
    let mut out = Respelling {
        edits: Vec::new(),
        renames: Vec::new(),
    };
    let mut walk = Respeller {
        cx,
        draft,
        schemas: &schemas,
        root: &cx.unit.pointer,
        nested_schema: false,
        out: &mut out,
    };
    if !walk.node(root, &cx.unit.pointer) {
        return None;
    }
    let nested_schema = walk.nested_schema;
    // An embedded `$schema` keeps its subtree in its own dialect for the engines that honour it:
    // respelled keys there would change its meaning.
    (out.renames.is_empty() || !nested_schema).then_some(out)
}

/// The walk of [`respelling`].
struct Respeller<'c, 'a, 'b> {
    cx: &'c UnitContext<'a>,
    draft: Draft,
    /// The pointers of the unit's subschemas: where a key is a keyword.
    schemas: &'b std::collections::HashSet<&'c str>,
    root: &'b str,
    /// Whether a subschema below the root has a `$schema`.
    nested_schema: bool,
    out: &'b mut Respelling,
}

impl Respeller<'_, '_, '_> {
    fn node(&mut self, node: &Node, pointer: &str) -> bool {
        match &node.kind {
            NodeKind::Array(items) => items
                .iter()
                .enumerate()
                .all(|(i, n)| self.node(n, &format!("{pointer}/{i}"))),
            NodeKind::Object(members) => {
                let is_schema = self.schemas.contains(pointer);
                let has_ref = members.iter().any(|m| m.key == "$ref");
                for m in members {
                    let key = m.key.as_str();
                    let child = format!("{pointer}/{}", escape_pointer_token(key));
                    if is_schema && key == "$schema" && pointer != self.root {
                        self.nested_schema = true;
                    }
                    if has_ref
                        && !INERT_BESIDE_REF.contains(&key)
                        && !(key == "type" && self.same_type_as_target(node, &m.value))
                    {
                        return false;
                    }
                    let rename = if is_schema { renamed(node, m) } else { None };
                    if let Some(new) = rename {
                        if !self.rename(node, m, new, &child) {
                            return false;
                        }
                    } else if DIFFERING.contains(&key)
                        || (self.draft == Draft::Draft6 && NOT_IN_DRAFT6.contains(&key))
                        || (key == "items" && m.value.as_array().is_some())
                    {
                        return false;
                    }
                    if !self.node(&m.value, &child) {
                        return false;
                    }
                }
                true
            }
            _ => true,
        }
    }
}

impl Respeller<'_, '_, '_> {
    /// Renames the key of `member` (at `pointer`) of the subschema `schema` to `new`, unless it
    /// is given twice, `new` is there already, or a reference lands below it.
    fn rename(&mut self, schema: &Node, member: &Member, new: &'static str, pointer: &str) -> bool {
        let key = member.key.as_str();
        let once = schema
            .as_object()
            .is_some_and(|ms| ms.iter().filter(|o| o.key == key).count() == 1);
        if !once || schema.get(new).is_some() || super::ancestry::referenced_below(self.cx, pointer)
        {
            return false;
        }
        self.out.edits.push(Edit {
            file: self.cx.file.id,
            span: member.key_span,
            content: literal(new),
        });
        let pair = (keyword(key), new);
        if !self.out.renames.contains(&pair) {
            self.out.renames.push(pair);
        }
        true
    }

    /// Whether a `type` beside a `$ref` says what the `$ref`'s target says (its `type`, the same
    /// value): draft-07 ignores it, 2020-12 applies it to no effect. SL501's fix writes `"type":
    /// "object"` beside a root `$ref` to an object. Only a `#/` pointer into the unit is
    /// followed.
    fn same_type_as_target(&self, holder: &Node, value: &Node) -> bool {
        let Some(fragment) = holder
            .get("$ref")
            .and_then(Node::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .filter(|f| f.starts_with('/') && !f.contains('%'))
        else {
            return false;
        };
        let Some(unit) = self.cx.root.pointer(&self.cx.unit.pointer) else {
            return false;
        };
        let Some(target) = unit.pointer(fragment).and_then(|t| t.get("type")) else {
            return false;
        };
        let names = |n: &Node| -> Option<Vec<String>> {
            match n.as_str() {
                Some(one) => Some(vec![one.to_owned()]),
                None => n
                    .as_array()?
                    .iter()
                    .map(|t| t.as_str().map(str::to_owned))
                    .collect(),
            }
        };
        names(value).is_some_and(|v| names(target) == Some(v))
    }
}

/// The `'static` spelling of a keyword [`renamed`] renames.
fn keyword(key: &str) -> &'static str {
    if key == "items" {
        "items"
    } else {
        "dependencies"
    }
}

/// The 2020-12 name of a member of a draft-06/07 subschema, where 2020-12 spells it otherwise and
/// the respelling is exact.
fn renamed(schema: &Node, member: &Member) -> Option<&'static str> {
    match member.key.as_str() {
        // Not with `additionalItems`, which 2020-12 spells `items`: an engine that reads the
        // unstamped schema as draft-07 (the TS v1 client, the hosts' Ajv) applies that `items`
        // to every element, and refuses tuples the original accepts (measured).
        "items" if member.value.as_array().is_some() && schema.get("additionalItems").is_none() => {
            Some("prefixItems")
        }
        "dependencies" => {
            let entries = member.value.as_object()?;
            let names = |n: &Node| {
                n.as_array()
                    .is_some_and(|a| a.iter().all(|v| v.as_str().is_some()))
            };
            let schema_like = |n: &Node| n.as_object().is_some() || n.as_bool().is_some();
            if entries.is_empty() {
                None
            } else if entries.iter().all(|e| names(&e.value)) {
                Some("dependentRequired")
            } else if entries.iter().all(|e| schema_like(&e.value)) {
                Some("dependentSchemas")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Keywords whose meaning differs between draft-06/07 and 2020-12, or which only one of them
/// knows: a schema using any of them (anywhere, data included, to stay on the safe side) is not
/// rewritten.
pub(super) const DIFFERING: [&str; 19] = [
    "additionalItems",
    "dependencies",
    "$id",
    "id",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
];

/// Keywords draft-06 does not have and 2020-12 applies.
pub(super) const NOT_IN_DRAFT6: [&str; 5] = ["if", "then", "else", "minContains", "maxContains"];

/// Keywords that may sit beside `$ref` without effect in either dialect (draft-07 ignores every
/// sibling of `$ref`; 2020-12 applies them).
const INERT_BESIDE_REF: [&str; 10] = [
    "$ref",
    "$schema",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "definitions",
    "$defs",
];

/// Whether every engine validates the same instances when `$schema` changes from `draft` to
/// 2020-12: no keyword of [`DIFFERING`], no array-form `items`, nothing but annotations beside a
/// `$ref`.
pub(super) fn reads_the_same_in_2020_12(node: &Node, draft: Draft) -> bool {
    if draft != Draft::Draft7 && draft != Draft::Draft6 {
        return false;
    }
    match &node.kind {
        NodeKind::Array(items) => items.iter().all(|n| reads_the_same_in_2020_12(n, draft)),
        NodeKind::Object(members) => {
            let has_ref = members.iter().any(|m| m.key == "$ref");
            members.iter().all(|m| {
                let key = m.key.as_str();
                let differs = DIFFERING.contains(&key)
                    || (draft == Draft::Draft6 && NOT_IN_DRAFT6.contains(&key))
                    || (key == "items" && m.value.as_array().is_some())
                    || (has_ref && !INERT_BESIDE_REF.contains(&key));
                !differs && reads_the_same_in_2020_12(&m.value, draft)
            })
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn same(text: &str) -> bool {
        reads_the_same_in_2020_12(&parse(text).unwrap(), Draft::Draft7)
    }

    #[test]
    fn only_schemas_without_differing_keywords_are_rewritten() {
        assert!(same(
            r#"{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}"#
        ));
        assert!(same(
            r##"{"$ref": "#/definitions/A", "definitions": {"A": {"type": "object"}}}"##
        ));
        assert!(!same(r##"{"$ref": "#/definitions/A", "type": "object"}"##));
        assert!(!same(r#"{"items": [{"type": "string"}]}"#));
        assert!(!same(r#"{"properties": {"d": {"format": "date"}}}"#));
        assert!(!same(r#"{"dependencies": {"a": ["b"]}}"#));
        assert!(!reads_the_same_in_2020_12(
            &parse(r#"{"if": {}}"#).unwrap(),
            Draft::Draft6
        ));
    }
}

//! The span tree as the `jsonschema` crate's JSON representation, so that the meta-schema check
//! validates the tree the parser built, without copying it into a `serde_json::Value` first.
//!
//! Engines read a repeated key as its last occurrence (SL101 reports the others): lookups find
//! the last member of a name and member walks skip the shadowed ones, as a `Value` built from the
//! text would. Subtrees can be hidden (seen as `{}`): embedded resources of another dialect,
//! which are checked against their own meta-schema.

use crate::syntax::document::{shadowed, Member, Node, NodeKind};
use jsonschema::json::{Array, Json, JsonNumber, Node as JsonNode, NodeIdentity, Object};
use jsonschema::JsonType;
use serde_json::Value;
use std::borrow::Cow;

/// The span tree representation.
pub struct SpanTree;

/// How a tree is read: the subtrees it hides, and whether any object in it repeats a key.
pub struct Scope {
    /// Addresses of the nodes read as `{}`.
    pub hidden: Vec<usize>,
    /// When no key repeats, member walks need not look for shadowed members.
    pub repeated_keys: bool,
}

impl Scope {
    /// The scope of the tree at `root`, with the nodes at `hidden` read as `{}`.
    #[must_use]
    pub fn new(root: &Node, hidden: Vec<usize>) -> Self {
        Self {
            hidden,
            repeated_keys: has_repeated_keys(root),
        }
    }
}

/// The scope of a tree that hides nothing and may repeat keys.
static PLAIN: Scope = Scope {
    hidden: Vec::new(),
    repeated_keys: true,
};

/// Whether some object at or below `node` has a key twice.
#[must_use]
pub fn has_repeated_keys(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Array(items) => items.iter().any(has_repeated_keys),
        NodeKind::Object(members) => {
            members.repeats() || members.iter().any(|m| has_repeated_keys(&m.value))
        }
        _ => false,
    }
}

/// A node of the span tree, read in a [`Scope`].
#[derive(Clone, Copy)]
pub struct View<'a> {
    node: &'a Node,
    scope: &'a Scope,
}

impl<'a> View<'a> {
    /// `node`, read in `scope`.
    #[must_use]
    pub fn new(node: &'a Node, scope: &'a Scope) -> Self {
        Self { node, scope }
    }

    fn child(self, node: &'a Node) -> Self {
        Self {
            node,
            scope: self.scope,
        }
    }

    fn is_hidden(self) -> bool {
        !self.scope.hidden.is_empty() && self.scope.hidden.contains(&address(self.node))
    }

    /// The node's kind; `None` for a hidden node, which reads as `{}`.
    fn kind(self) -> Option<&'a NodeKind> {
        (!self.is_hidden()).then_some(&self.node.kind)
    }
}

/// Where a node lives: what identifies it while the tree is alive.
#[must_use]
pub fn address(node: &Node) -> usize {
    std::ptr::from_ref(node) as usize
}

impl Json for SpanTree {
    type Node<'a> = View<'a>;
    type PreparedKey = String;
    type StringBuffer = ();

    // Lookups scan the members, so a pass over them replaces several lookups cheaply.
    const KEYS_PER_LOOKUP: usize = 8;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>((): &mut (), string: &str, f: impl FnOnce(View<'_>) -> T) -> T {
        let node = Node {
            span: crate::syntax::source::Span::default(),
            kind: NodeKind::String(string.into()),
        };
        f(View::new(&node, &PLAIN))
    }
}

/// `draft`'s meta-schema, compiled once for span trees. Building it reads only the meta-schemas
/// the `referencing` crate bundles: nothing is fetched.
///
/// # Panics
/// Never: the bundled meta-schemas compile.
#[must_use]
pub fn meta_validator(
    draft: crate::schema::dialect::Draft,
) -> &'static jsonschema::Validator<SpanTree> {
    use crate::schema::dialect::Draft;
    use std::sync::LazyLock;
    type Meta = LazyLock<jsonschema::Validator<SpanTree>>;
    fn build(schema: &Value) -> jsonschema::Validator<SpanTree> {
        jsonschema::options_for::<SpanTree>()
            .build(schema)
            .expect("the bundled meta-schemas compile")
    }
    // The crate's draft-04 meta-schema leaves out that `enum`'s values are unique, which the
    // official one (Python's `jsonschema`) says: a repeated value fails there (measured).
    static DRAFT4: Meta = LazyLock::new(|| {
        let mut meta = Value::clone(&referencing::meta::DRAFT4);
        meta["properties"]["enum"]["uniqueItems"] = Value::Bool(true);
        build(&meta)
    });
    static DRAFT6: Meta = LazyLock::new(|| build(&referencing::meta::DRAFT6));
    static DRAFT7: Meta = LazyLock::new(|| build(&referencing::meta::DRAFT7));
    static DRAFT201909: Meta = LazyLock::new(|| build(&referencing::meta::DRAFT201909));
    static DRAFT202012: Meta = LazyLock::new(|| build(&referencing::meta::DRAFT202012));
    match draft {
        Draft::Draft4 => &DRAFT4,
        Draft::Draft6 => &DRAFT6,
        Draft::Draft7 => &DRAFT7,
        Draft::Draft201909 => &DRAFT201909,
        Draft::Draft202012 => &DRAFT202012,
    }
}

/// A number as written.
#[derive(Clone, Copy)]
pub struct Number<'a>(&'a str);

impl Number<'_> {
    /// As the `Value` of the same text: a number too large for an `f64` becomes the largest
    /// finite one of its sign (see [`Node::to_value`]).
    fn value(self) -> serde_json::Number {
        self.0.parse::<serde_json::Number>().unwrap_or_else(|_| {
            let f = if self.0.starts_with('-') {
                f64::MIN
            } else {
                f64::MAX
            };
            serde_json::Number::from_f64(f).unwrap_or_else(|| 0.into())
        })
    }
}

impl JsonNumber for Number<'_> {
    fn as_u64(&self) -> Option<u64> {
        self.value().as_u64()
    }

    fn as_i64(&self) -> Option<i64> {
        self.value().as_i64()
    }

    fn as_f64(&self) -> Option<f64> {
        self.value().as_f64()
    }

    fn as_str(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0)
    }

    fn to_number(&self) -> Cow<'_, serde_json::Number> {
        Cow::Owned(self.value())
    }
}

impl<'a> JsonNode<'a, SpanTree> for View<'a> {
    type Object = Members<'a>;
    type Array = Items<'a>;
    type Number = Number<'a>;

    fn as_object(&self) -> Option<Members<'a>> {
        match self.kind() {
            None => Some(Members {
                members: &[],
                scope: self.scope,
            }),
            Some(NodeKind::Object(members)) => Some(Members {
                members,
                scope: self.scope,
            }),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<Items<'a>> {
        match self.kind() {
            Some(NodeKind::Array(items)) => Some(Items {
                items,
                scope: self.scope,
            }),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self.kind() {
            Some(NodeKind::String(s)) => Some(Cow::Borrowed(s.as_str())),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<Number<'a>> {
        match self.kind() {
            Some(NodeKind::Number(raw)) => Some(Number(raw.as_str())),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.kind() {
            Some(NodeKind::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.kind(), Some(NodeKind::Null))
    }

    fn json_type(&self) -> JsonType {
        match self.kind() {
            Some(NodeKind::Null) => JsonType::Null,
            Some(NodeKind::Bool(_)) => JsonType::Boolean,
            Some(NodeKind::Number(_)) => JsonType::Number,
            Some(NodeKind::String(_)) => JsonType::String,
            Some(NodeKind::Array(_)) => JsonType::Array,
            Some(NodeKind::Object(_)) | None => JsonType::Object,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(to_value(*self))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(address(self.node)))
    }
}

/// The value of a view, hidden subtrees as `{}`.
fn to_value(view: View<'_>) -> Value {
    match view.kind() {
        None => Value::Object(serde_json::Map::new()),
        Some(NodeKind::Array(items)) => {
            Value::Array(items.iter().map(|n| to_value(view.child(n))).collect())
        }
        Some(NodeKind::Object(members)) => Value::Object(
            members
                .iter()
                .map(|m| (m.key.to_string(), to_value(view.child(&m.value))))
                .collect(),
        ),
        _ => view.node.to_value(),
    }
}

/// An object's members.
#[derive(Clone, Copy)]
pub struct Members<'a> {
    members: &'a [Member],
    scope: &'a Scope,
}

impl Members<'_> {
    /// For each member, whether a later one has the same key; `None` when no key repeats.
    fn shadowed(&self) -> Option<Vec<bool>> {
        if self.scope.repeated_keys {
            shadowed(self.members)
        } else {
            None
        }
    }
}

impl<'a> Object<'a, SpanTree> for Members<'a> {
    type Node = View<'a>;
    type MemberName = &'a str;
    type MembersIter = MembersIter<'a>;

    fn len(&self) -> usize {
        match self.shadowed() {
            None => self.members.len(),
            Some(flags) => flags.iter().filter(|s| !**s).count(),
        }
    }

    fn get(&self, key: &String) -> Option<View<'a>> {
        self.members
            .iter()
            .rev()
            .find(|m| m.key == key.as_str())
            .map(|m| View::new(&m.value, self.scope))
    }

    fn members(&self) -> MembersIter<'a> {
        MembersIter {
            members: self.members,
            scope: self.scope,
            shadowed: self.shadowed(),
            next: 0,
        }
    }
}

/// The members engines see, in document order.
pub struct MembersIter<'a> {
    members: &'a [Member],
    scope: &'a Scope,
    shadowed: Option<Vec<bool>>,
    next: usize,
}

impl<'a> Iterator for MembersIter<'a> {
    type Item = (&'a str, View<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let i = self.next;
            let m = self.members.get(i)?;
            self.next += 1;
            if self.shadowed.as_ref().is_some_and(|s| s[i]) {
                continue;
            }
            return Some((m.key.as_str(), View::new(&m.value, self.scope)));
        }
    }
}

/// An array's items.
#[derive(Clone, Copy)]
pub struct Items<'a> {
    items: &'a [Node],
    scope: &'a Scope,
}

impl<'a> Array<'a, SpanTree> for Items<'a> {
    type Node = View<'a>;
    type ElementsIter = ItemsIter<'a>;

    fn len(&self) -> usize {
        self.items.len()
    }

    fn elements(&self) -> ItemsIter<'a> {
        ItemsIter {
            items: self.items.iter(),
            scope: self.scope,
        }
    }
}

/// The items of an array.
pub struct ItemsIter<'a> {
    items: std::slice::Iter<'a, Node>,
    scope: &'a Scope,
}

impl<'a> Iterator for ItemsIter<'a> {
    type Item = View<'a>;

    fn next(&mut self) -> Option<View<'a>> {
        self.items.next().map(|n| View::new(n, self.scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    #[test]
    fn validates_like_the_value_of_the_same_text() {
        let schemas = [
            r#"{"type": "object", "properties": {"a": {"type": "strin"}}}"#,
            r#"{"minLength": -1, "required": ["a", "a"], "enum": []}"#,
            r#"{"type": "string", "type": 5}"#,
            r#"{"type": 5, "type": "string"}"#,
            r#"{"maximum": 1e400, "multipleOf": 0, "items": [true, {"type": []}]}"#,
            r#"{"$defs": {"x": {"$ref": 1}}, "propertyNames": {"pattern": "("}}"#,
        ];
        let validator = meta_validator(crate::schema::dialect::Draft::Draft202012);
        let by_value = jsonschema::draft202012::meta::validator();
        for text in schemas {
            let root = parse(text).unwrap();
            let value = root.to_value();
            let mut ours: Vec<String> = validator
                .iter_errors(View::new(&root, &Scope::new(&root, Vec::new())))
                .map(|e| format!("{} {}", e.instance_path().as_str(), e))
                .collect();
            let mut theirs: Vec<String> = by_value
                .iter_errors(&value)
                .map(|e| format!("{} {}", e.instance_path().as_str(), e))
                .collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn hidden_subtrees_read_as_empty_objects() {
        let root = parse(r#"{"properties": {"a": {"type": 5}}}"#).unwrap();
        let a = root.pointer("/properties/a").unwrap();
        let validator = meta_validator(crate::schema::dialect::Draft::Draft202012);
        assert!(!validator.is_valid(View::new(&root, &Scope::new(&root, Vec::new()))));
        assert!(validator.is_valid(View::new(&root, &Scope::new(&root, vec![address(a)]))));
    }
}

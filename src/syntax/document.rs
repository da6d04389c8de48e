//! Strict JSON (RFC 8259) parsing into a tree that keeps the byte span of every key and value.
//!
//! Plain JSON goes straight into the tree in one pass (`fast`); whatever that pass does not accept
//! goes through `jsonc-parser` with every leniency switched off, whose AST `full` turns into the
//! tree, with the checks RFC 8259 makes that the lexer does not (raw control characters inside
//! strings). Every failure comes from that path. The tree is owned: a document does not borrow
//! its text.

use crate::syntax::source::Span;
use compact_str::CompactString;
use std::fmt::Write as _;

mod fast;
mod full;
mod members;
pub use full::first_too_deep;
pub use members::Members;

/// Nesting deeper than this is refused with a parse error instead of risking the stack: the
/// lexer refuses 512 open ranges, where an object member counts as one besides its object, so
/// objects nested 257 deep fail there, and [`parse`] refuses arrays as deep with the same message.
/// Every later stage (rules, meta-schema check, the `jsonschema` compile) recurses on this tree
/// and runs on the deep stacks of the thread pool of the `workspace` layer.
pub const MAX_DEPTH: usize = 256;

/// A JSON value in a parsed document, with the place it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The bytes of the whole value in the file's text (quotes, brackets and braces included).
    pub span: Span,
    /// What value it is, with its children.
    pub kind: NodeKind,
}

/// The kind of a JSON value, and its content.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// The number exactly as written, so no precision is lost before a check needs it.
    Number(CompactString),
    /// Short strings (most keys and values) live inline, without a heap allocation of their own.
    String(CompactString),
    /// An array's items, in document order.
    Array(Box<[Node]>),
    /// An object's members in document order, duplicate keys included.
    Object(Members),
}

/// One key and value of a JSON object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key, with its escapes decoded.
    pub key: CompactString,
    /// The bytes of the key's string literal, quotes included.
    pub key_span: Span,
    /// The value the key maps to.
    pub value: Node,
}

/// Appends `/` and `token`, escaped as a JSON pointer token.
pub fn push_pointer_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    if token.contains(['~', '/']) {
        pointer.push_str(&escape_pointer_token(token));
    } else {
        pointer.push_str(token);
    }
}

/// Whether some key occurs twice among `members`. Keys rarely repeat: small objects are checked
/// pair by pair, without allocating.
#[must_use]
pub fn repeats(members: &[Member]) -> bool {
    if members.len() <= 12 {
        members
            .iter()
            .enumerate()
            .any(|(i, a)| members[i + 1..].iter().any(|b| b.key == a.key))
    } else {
        let mut seen = std::collections::HashSet::with_capacity(members.len());
        !members.iter().all(|a| seen.insert(a.key.as_str()))
    }
}

/// For each member, whether a later one has the same key (engines read the last one); `None`
/// when no key repeats.
#[must_use]
pub fn shadowed(members: &[Member]) -> Option<Vec<bool>> {
    repeats(members).then(|| {
        let mut seen = std::collections::HashSet::new();
        let mut flags: Vec<bool> = members
            .iter()
            .rev()
            .map(|m| !seen.insert(m.key.as_str()))
            .collect();
        flags.reverse();
        flags
    })
}

/// Why a text is not strict JSON, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFailure {
    /// Where the text stops being JSON; empty when only a position can be given (an empty file).
    pub span: Span,
    /// What is wrong there, as a sentence for the user.
    pub message: String,
}

impl Node {
    /// Bytes the tree holds, itself included: what keeping it costs a run.
    #[must_use]
    pub fn footprint(&self) -> usize {
        fn heap(s: &CompactString) -> usize {
            if s.is_heap_allocated() {
                s.capacity()
            } else {
                0
            }
        }
        fn below(node: &Node) -> usize {
            match &node.kind {
                NodeKind::Null | NodeKind::Bool(_) => 0,
                NodeKind::Number(s) | NodeKind::String(s) => heap(s),
                NodeKind::Array(items) => items
                    .iter()
                    .map(|n| std::mem::size_of::<Node>() + below(n))
                    .sum(),
                NodeKind::Object(members) => members
                    .heap_bytes(|m| std::mem::size_of::<Member>() + heap(&m.key) + below(&m.value)),
            }
        }
        std::mem::size_of::<Node>() + below(self)
    }

    /// The decoded text of a string value; `None` for any other kind.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The members of an object, duplicates included; `None` for any other kind.
    #[must_use]
    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            NodeKind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The items of an array; `None` for any other kind.
    #[must_use]
    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The value of `true` or `false`; `None` for any other kind.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            NodeKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The member `key` of an object. With duplicate keys the last one wins, as in the engines.
    #[must_use]
    pub fn member(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            NodeKind::Object(members) => members.last(key),
            _ => None,
        }
    }

    /// The value of member `key` of an object (the last one if the key repeats).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.member(key).map(|m| &m.value)
    }

    /// The JSON pointer of the node whose span is `span`, found by descending through the
    /// children that contain it (members and items lie in document order).
    #[must_use]
    pub fn pointer_to(&self, span: Span) -> Option<String> {
        let mut pointer = String::new();
        let mut node = self;
        while node.span != span {
            node = match &node.kind {
                NodeKind::Object(members) => {
                    let i = members.partition_point(|m| m.value.span.start <= span.start);
                    let m = members.get(i.checked_sub(1)?)?;
                    (m.value.span.end >= span.end).then_some(())?;
                    push_pointer_token(&mut pointer, &m.key);
                    &m.value
                }
                NodeKind::Array(items) => {
                    let i = items.partition_point(|n| n.span.start <= span.start);
                    let n = items.get(i.checked_sub(1)?)?;
                    (n.span.end >= span.end).then_some(())?;
                    let _ = write!(pointer, "/{}", i - 1);
                    n
                }
                _ => return None,
            };
        }
        Some(pointer)
    }

    /// The node a JSON pointer (RFC 6901) names, if any.
    #[must_use]
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut node = self;
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = if token.contains('~') {
                std::borrow::Cow::Owned(unescape_pointer_token(token))
            } else {
                std::borrow::Cow::Borrowed(token)
            };
            node = match &node.kind {
                NodeKind::Object(_) => node.get(&token)?,
                NodeKind::Array(items) => items.get(parse_array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The span of the string literal's content that holds `value[range]`, when the literal has
    /// no escapes (so source bytes and value bytes line up); otherwise the whole literal.
    #[must_use]
    pub fn string_sub_span(&self, text: &str, range: std::ops::Range<usize>) -> Span {
        let NodeKind::String(value) = &self.kind else {
            return self.span;
        };
        let raw = &text[self.span.start..self.span.end];
        let inside = range.start <= range.end && range.end <= value.len();
        if inside
            && raw.len() == value.len() + 2
            && raw.get(1..raw.len() - 1) == Some(value.as_str())
        {
            let start = self.span.start + 1;
            Span::new(start + range.start, start + range.end)
        } else {
            self.span
        }
    }
}

impl Node {
    /// The value as `serde_json` sees it (duplicate keys: the last wins, as in the engines).
    /// Numbers too large for an `f64` (`1e400`) become the largest finite `f64` of their sign.
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(raw) => raw.parse::<serde_json::Number>().map_or_else(
                |_| {
                    let f = if raw.starts_with('-') {
                        f64::MIN
                    } else {
                        f64::MAX
                    };
                    Value::from(f)
                },
                Value::Number,
            ),
            NodeKind::String(s) => Value::String(s.to_string()),
            NodeKind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            NodeKind::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.to_string(), m.value.to_value()))
                    .collect(),
            ),
        }
    }

    /// Whether two nodes hold the same JSON value (spans and key order aside), leaving out the
    /// object members named in `ignore` at any depth (say, the `$id`s a fix renamed or removed),
    /// and comparing members named in `opaque` by presence only (say, `$ref`s whose targets are
    /// checked one by one).
    #[must_use]
    pub fn same_value(&self, other: &Node, ignore: &[&str], opaque: &[&str]) -> bool {
        match (&self.kind, &other.kind) {
            (NodeKind::Object(a), NodeKind::Object(b)) => {
                let keep = |m: &&Member| !ignore.contains(&m.key.as_str());
                let a: Vec<&Member> = a.iter().filter(keep).collect();
                let b: Vec<&Member> = b.iter().filter(keep).collect();
                a.len() == b.len()
                    && a.iter().all(|ma| {
                        other
                            .get(&ma.key)
                            .zip(self.get(&ma.key))
                            .is_some_and(|(vb, va)| {
                                opaque.contains(&ma.key.as_str())
                                    || va.same_value(vb, ignore, opaque)
                            })
                    })
            }
            (NodeKind::Array(a), NodeKind::Array(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| x.same_value(y, ignore, opaque))
            }
            // Numbers compare as the engines read them: `2.0` and `2.00` are the same value.
            #[allow(clippy::float_cmp)]
            (NodeKind::Number(a), NodeKind::Number(b)) => {
                a == b
                    || a.parse::<f64>()
                        .ok()
                        .zip(b.parse::<f64>().ok())
                        .is_some_and(|(x, y)| x == y)
            }
            (a, b) => a == b,
        }
    }
}

fn parse_array_index(token: &str) -> Option<usize> {
    if token.len() > 1 && token.starts_with('0') {
        return None;
    }
    token.parse().ok()
}

/// Decodes `~1` to `/` and `~0` to `~` in one reference token.
#[must_use]
pub fn unescape_pointer_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Encodes one reference token for a JSON pointer.
#[must_use]
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Parses `text` as strict JSON.
///
/// # Errors
/// The first place where `text` is not RFC 8259 JSON: empty input, comments, trailing commas,
/// single quotes, control characters in strings, unpaired surrogates, nesting deeper than
/// [`MAX_DEPTH`], or anything else the grammar forbids.
pub fn parse(text: &str) -> Result<Node, ParseFailure> {
    if let Some(root) = fast::parse(text) {
        return Ok(root);
    }
    full::parse(text, false)
}

/// Parses `text` as JSON with comments (JSONC, what a `.jsonc` file holds): `//` and `/* */`
/// comments and trailing commas are allowed, everything else is as strict as [`parse`].
///
/// # Errors
/// The first place where `text` is not JSONC.
pub fn parse_jsonc(text: &str) -> Result<Node, ParseFailure> {
    if let Some(root) = fast::parse(text) {
        return Ok(root);
    }
    full::parse(text, true)
}

/// [`parse_jsonc`] when `jsonc`, else [`parse`]: how a file is read by its kind
/// ([`crate::syntax::source::SourceFile::is_jsonc`]).
///
/// # Errors
/// As [`parse`] or [`parse_jsonc`].
pub fn parse_as(text: &str, jsonc: bool) -> Result<Node, ParseFailure> {
    if jsonc {
        parse_jsonc(text)
    } else {
        parse(text)
    }
}

/// Whether the JSON pointer `pointer` is `ancestor` or lies below it.
#[must_use]
pub fn is_within(pointer: &str, ancestor: &str) -> bool {
    pointer == ancestor
        || (pointer.starts_with(ancestor) && pointer.as_bytes().get(ancestor.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ParseFailure {
        parse(text).unwrap_err()
    }

    #[test]
    fn keeps_spans_of_keys_and_values() {
        let text = r#"{"a": [1, "x"], "b": {"c": null}}"#;
        let root = parse(text).unwrap();
        let a = root.member("a").unwrap();
        assert_eq!(&text[a.key_span.start..a.key_span.end], "\"a\"");
        let x = root.pointer("/a/1").unwrap();
        assert_eq!(&text[x.span.start..x.span.end], "\"x\"");
        assert_eq!(root.pointer("/b/c").unwrap().kind, NodeKind::Null);
        assert!(root.pointer("/a/01").is_none());
    }

    #[test]
    fn rejects_every_leniency() {
        assert!(err("{\"a\": 1, // c\n}").message.contains("Comments"));
        assert!(err("{\"a\": 1,}").message.contains("railing comma"));
        assert!(err("{'a': 1}").message.to_lowercase().contains("single"));
        assert!(err("{a: 1}").span.start > 0);
        assert_eq!(err("").message, "The file is empty");
        assert_eq!(err("  \n").message, "The file holds only whitespace");
        assert!(err("[01]").span.start > 0);
        assert!(err("[+1]").span.start > 0);
        assert!(err("[.5]").span.start > 0);
        assert!(err("[NaN]").span.start > 0);
        assert!(err("\"a\tb\"").message.contains("U+0009"));
        assert!(err("\"\\ud800\"").message.contains("surrogate"));
        assert!(err("{} {}").span.start > 0);
        assert_eq!(err("[NaN]").message, "`NaN` is not a JSON number");
        assert_eq!(
            err("[-Infinity]").message,
            "`-Infinity` is not a JSON number"
        );
        assert_eq!(
            err("{\"a\":\u{0} 1}").message,
            "Control character U+0000 is not allowed here"
        );
    }

    #[test]
    fn bounds_depth() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(err(&deep).message, "Nesting is deeper than 256 levels");
        // Exactly MAX_DEPTH levels below the root parse, one more does not, for arrays, objects
        // and a mix of both.
        let arrays = |n: usize| "[".repeat(n) + "1" + &"]".repeat(n);
        let objects = |n: usize| "{\"a\":".repeat(n) + "1" + &"}".repeat(n);
        let mixed = |n: usize| "[{\"a\":".repeat(n / 2) + "1" + &"}]".repeat(n / 2);
        for make in [&arrays as &dyn Fn(usize) -> String, &objects, &mixed] {
            assert!(parse(&make(MAX_DEPTH)).is_ok());
            let e = err(&make(MAX_DEPTH + 2));
            assert_eq!(e.message, "Nesting is deeper than 256 levels");
        }
        // The error points at the first value below the bound, however deep the lexer got.
        for n in [MAX_DEPTH + 1, 600, 100_000] {
            assert_eq!(err(&arrays(n)).span, Span::new(257, 258));
            assert_eq!(err(&objects(n)).span, Span::new(257 * 5, 257 * 5 + 1));
        }
        // Empty containers at the bound are fine; strings with brackets do not count.
        assert!(parse(&("[".repeat(257) + &"]".repeat(257))).is_ok());
        let tricky = "[\"[[[\\\"\",".repeat(300) + "1" + &"]".repeat(300);
        assert_eq!(err(&tricky).span.start, 256 * 9 + 1);
    }

    #[test]
    fn string_sub_span_only_without_escapes() {
        let text = r#"["my_tool:output", "a\u0041:b"]"#;
        let root = parse(text).unwrap();
        let plain = root.pointer("/0").unwrap();
        let s = plain.string_sub_span(text, 7..8);
        assert_eq!(&text[s.start..s.end], ":");
        let escaped = root.pointer("/1").unwrap();
        assert_eq!(escaped.string_sub_span(text, 2..3), escaped.span);
        // A range that does not fit the value (a caller's mistake) gives the whole literal.
        assert_eq!(plain.string_sub_span(text, 20..21), plain.span);
        assert_eq!(plain.string_sub_span(text, 3..50), plain.span);
    }

    #[test]
    fn values_and_equality() {
        let a = parse(r#"{"$id": "x", "a": [1, 2.0], "b": {"c": 1e400}}"#).unwrap();
        let b = parse(r#"{"b": {"c": 1e400}, "a": [1, 2.00]}"#).unwrap();
        assert!(a.same_value(&b, &["$id"], &[]));
        assert!(!a.same_value(&b, &[], &[]));
        let r1 = parse(r##"{"x": {"$ref": "#/a"}}"##).unwrap();
        let r2 = parse(r##"{"x": {"$ref": "#/b"}}"##).unwrap();
        assert!(r1.same_value(&r2, &[], &["$ref"]));
        assert!(!r1.same_value(&r2, &[], &[]));
        let n1 = parse(r#"{"a": {"$id": "x y", "type": "string"}}"#).unwrap();
        let n2 = parse(r#"{"a": {"type": "string"}}"#).unwrap();
        assert!(n1.same_value(&n2, &["$id"], &[]));
        assert_eq!(a.to_value()["a"][0], serde_json::json!(1));
        assert!(a.to_value()["b"]["c"].as_f64().is_some_and(f64::is_finite));
    }

    #[test]
    fn pointer_tokens_round_trip() {
        assert_eq!(escape_pointer_token("a/b~c"), "a~1b~0c");
        assert_eq!(unescape_pointer_token("a~1b~0c"), "a/b~c");
    }
}

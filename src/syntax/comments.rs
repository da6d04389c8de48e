//! The comments of a JSONC file (`.jsonc`: [`super::document::parse_jsonc`]) and the
//! suppressions they hold: `// schema-lint-ignore SL201, invalid-id-uri: the reason`.
//!
//! A suppression on a line of its own applies to the value that follows it (a member with its
//! value, an array item, or the whole document when it comes before the root), whatever is below
//! that value included, as `x-schema-lint-ignore` does for its subschema. One written after a
//! value on the same line applies to the members and items that start on that line (or, on a
//! line that only closes one, to the one it closes). The rules, then a colon and a reason: a
//! suppression without a reason, without a rule or with nothing to apply to suppresses nothing,
//! and rule SL103 says why.

use super::document::{push_pointer_token, Node, NodeKind};
use super::source::Span;

/// One comment: its bytes (the `//` or `/* */` markers included) and its text without them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// The comment's bytes in the file.
    pub span: Span,
    /// What it says, markers left out.
    pub body: &'a str,
}

/// The comments of `text`, in order, outside strings. `text` is expected to be JSONC that parsed;
/// an unterminated block comment runs to the end.
#[must_use]
pub fn comments(text: &str) -> Vec<Comment<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                let end_body = if end > i + 2 && bytes[end - 1] == b'\r' {
                    end - 1
                } else {
                    end
                };
                out.push(Comment {
                    span: Span::new(i, end_body),
                    body: &text[i + 2..end_body],
                });
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let (end, body_end) = text[i + 2..]
                    .find("*/")
                    .map_or((text.len(), text.len()), |n| (i + 2 + n + 2, i + 2 + n));
                out.push(Comment {
                    span: Span::new(i, end),
                    body: &text[i + 2..body_end],
                });
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// The word a suppression comment starts with.
pub const IGNORE: &str = "schema-lint-ignore";

/// A `schema-lint-ignore` comment, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// The whole comment.
    pub span: Span,
    /// The rules it names (codes, names, prefixes, `ALL`), each with its bytes.
    pub selectors: Selectors,
    /// What follows the colon, trimmed; `None` when there is no colon or nothing after it.
    pub reason: Option<String>,
    /// The JSON pointers of the values it applies to; empty when nothing follows it.
    pub scopes: Vec<String>,
}

impl Suppression {
    /// Whether it suppresses anything: it names a rule, gives a reason and has a value to apply to.
    #[must_use]
    pub fn holds(&self) -> bool {
        !self.selectors.is_empty() && self.reason.is_some() && !self.scopes.is_empty()
    }
}

/// The `schema-lint-ignore` comments of `text`, whose tree is `root`.
#[must_use]
pub fn suppressions(text: &str, root: &Node) -> Vec<Suppression> {
    let all = comments(text);
    if !all.iter().any(|c| c.body.contains(IGNORE)) {
        return Vec::new();
    }
    let mut places = Vec::new();
    collect(root, &mut String::new(), root.span.start, &mut places);
    all.iter()
        .filter_map(|c| {
            let (selectors, reason) = read(text, c)?;
            Some(Suppression {
                span: c.span,
                selectors,
                reason,
                scopes: scopes(text, c, &all, &places),
            })
        })
        .collect()
}

/// The rules a suppression names, each with its bytes.
type Selectors = Vec<(String, Span)>;

/// The rules and the reason of a comment that starts with [`IGNORE`].
fn read(text: &str, c: &Comment<'_>) -> Option<(Selectors, Option<String>)> {
    let lead = c.body.len() - c.body.trim_start().len();
    let rest = c.body.trim_start().strip_prefix(IGNORE)?;
    if rest
        .chars()
        .next()
        .is_some_and(|ch| !ch.is_whitespace() && ch != ':')
    {
        // `schema-lint-ignore-file` or another word: not a suppression.
        return None;
    }
    // Where `rest` starts in the file.
    let body_start = c.body.as_ptr() as usize - text.as_ptr() as usize;
    let rest_start = body_start + lead + IGNORE.len();
    let (rules, reason) = match rest.find(':') {
        Some(colon) => (&rest[..colon], Some(rest[colon + 1..].trim())),
        None => (rest, None),
    };
    let mut selectors = Vec::new();
    let mut at = 0;
    for word in rules.split(|ch: char| ch == ',' || ch.is_whitespace()) {
        if !word.is_empty() {
            let start = rest_start + at;
            selectors.push((word.to_owned(), Span::new(start, start + word.len())));
        }
        at += word.len() + 1;
    }
    let reason = reason.filter(|r| !r.is_empty()).map(str::to_owned);
    Some((selectors, reason))
}

/// A value of the document a suppression may apply to: a member (from its key to the end of its
/// value), an array item, or the root.
struct Place {
    start: usize,
    end: usize,
    pointer: String,
}

/// Every place of the tree in document order (a member before what its value holds).
fn collect(node: &Node, pointer: &mut String, start: usize, out: &mut Vec<Place>) {
    out.push(Place {
        start,
        end: node.span.end,
        pointer: pointer.clone(),
    });
    let len = pointer.len();
    match &node.kind {
        NodeKind::Object(members) => {
            for m in members {
                push_pointer_token(pointer, &m.key);
                collect(&m.value, pointer, m.key_span.start, out);
                pointer.truncate(len);
            }
        }
        NodeKind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointer.push('/');
                pointer.push_str(&i.to_string());
                collect(item, pointer, item.span.start, out);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

/// The pointers of what comment `c` applies to (see the module's documentation).
fn scopes(text: &str, c: &Comment<'_>, all: &[Comment<'_>], places: &[Place]) -> Vec<String> {
    let line_start = text[..c.span.start].rfind('\n').map_or(0, |n| n + 1);
    if !text[line_start..c.span.start].trim().is_empty() {
        // After something on its line: the outermost values the line holds whole; else the
        // innermost one the line opens (`"properties": { // ...`).
        let starting: Vec<&Place> = places
            .iter()
            .filter(|p| p.start >= line_start && p.start < c.span.start)
            .collect();
        let mut on_line: Vec<&Place> = Vec::new();
        for p in starting.iter().filter(|p| p.end <= c.span.start) {
            if !on_line.iter().any(|o| p.start >= o.start && p.end <= o.end) {
                on_line.push(p);
            }
        }
        if on_line.is_empty() {
            on_line.extend(starting.last());
        }
        if on_line.is_empty() {
            // A line that closes a value (`}, // ...`): the outermost value it closes.
            on_line.extend(
                places
                    .iter()
                    .find(|p| p.end > line_start && p.end <= c.span.start && p.start < line_start),
            );
        }
        if !on_line.is_empty() {
            return on_line.into_iter().map(|p| p.pointer.clone()).collect();
        }
    }
    // On a line of its own: the value that follows, with only blanks, commas and comments between.
    let mut at = c.span.end;
    loop {
        let rest = &text[at..];
        let skipped = rest.len()
            - rest
                .trim_start_matches(|ch: char| ch.is_whitespace() || ch == ',')
                .len();
        at += skipped;
        match all.iter().find(|o| o.span.start == at) {
            Some(next) => at = next.span.end,
            None => break,
        }
    }
    places
        .iter()
        .find(|p| p.start == at)
        .map(|p| vec![p.pointer.clone()])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse_jsonc;

    fn scopes_of(text: &str) -> Vec<(Vec<String>, Option<String>, Vec<String>)> {
        let root = parse_jsonc(text).unwrap();
        suppressions(text, &root)
            .into_iter()
            .map(|s| {
                (
                    s.selectors.into_iter().map(|(w, _)| w).collect(),
                    s.reason,
                    s.scopes,
                )
            })
            .collect()
    }

    #[test]
    fn finds_comments_outside_strings_only() {
        let text = "{\"a\": \"// not\", /* b */ \"c\": 1 // d\r\n}";
        let found: Vec<&str> = comments(text).iter().map(|c| c.body).collect();
        assert_eq!(found, [" b ", " d"]);
        assert_eq!(comments("[\"\\\"//\"]"), []);
    }

    #[test]
    fn a_suppression_on_its_own_line_applies_to_what_follows() {
        let text = "{\n  \"properties\": {\n    // schema-lint-ignore SL201, invalid-id-uri: generated\n    \"a\": {\"$id\": \"a:b\"},\n    \"b\": {}\n  }\n}\n";
        assert_eq!(
            scopes_of(text),
            [(
                vec!["SL201".to_owned(), "invalid-id-uri".to_owned()],
                Some("generated".to_owned()),
                vec!["/properties/a".to_owned()]
            )]
        );
        // Before the root: the whole document.
        let text = "// schema-lint-ignore SL2: all of it\n{\"$id\": \"a:b\"}";
        assert_eq!(scopes_of(text)[0].2, [""]);
        // Through commas and other comments, in arrays too.
        let text = "[1, // x\n /* schema-lint-ignore ALL: r */\n // y\n {\"a\": 1}]";
        assert_eq!(scopes_of(text)[0].2, ["/1"]);
    }

    #[test]
    fn a_suppression_after_a_value_applies_to_its_line() {
        let text = "{\n  \"$id\": \"a:b\", // schema-lint-ignore SL201: kept for v1 clients\n  \"x\": 1\n}";
        assert_eq!(scopes_of(text)[0].2, ["/$id"]);
        let text = "{\"a\": 1, \"b\": {\"c\": 2}, // schema-lint-ignore ALL: r\n\"d\": 3}";
        assert_eq!(scopes_of(text)[0].2, ["/a", "/b"]);
        let text = "{\n  \"properties\": { // schema-lint-ignore SL5: r\n    \"a\": 1\n  }\n}";
        assert_eq!(scopes_of(text)[0].2, ["/properties"]);
        let text = "{\n  \"p\": {\n    \"c\": 2\n  }, // schema-lint-ignore SL5: r\n  \"d\": 3\n}";
        assert_eq!(scopes_of(text)[0].2, ["/p"]);
    }

    #[test]
    fn says_what_is_missing() {
        let got = scopes_of("{\n// schema-lint-ignore SL201\n\"a\": 1}");
        assert_eq!(got[0].1, None);
        let got = scopes_of("{\n// schema-lint-ignore: no rule\n\"a\": 1}");
        assert!(got[0].0.is_empty());
        // At the end of an object: nothing follows inside it.
        let got =
            scopes_of("{\"a\": {\n  \"x\": 1\n  // schema-lint-ignore SL201: r\n}, \"b\": 1}");
        assert!(got[0].2.is_empty());
        // Other words are not suppressions.
        assert!(scopes_of("{\n// schema-lint-ignored SL201: r\n\"a\": 1}").is_empty());
        assert!(scopes_of("{\n// see schema-lint-ignore\n\"a\": 1}").is_empty());
    }
}

//! The full path of [`super::parse`]: `jsonc-parser`'s lexer with every leniency switched off,
//! its AST turned into the owned tree, with the checks RFC 8259 makes that the lexer does not
//! (raw control characters inside strings). Every parse failure is found and worded here.

use super::{Member, Members, Node, NodeKind, ParseFailure, MAX_DEPTH};
use crate::syntax::source::Span;
use compact_str::CompactString;
use jsonc_parser::ast;

/// [`super::parse`] through the `jsonc-parser` lexer: every text the fast path leaves, and the only
/// source of failures. With `jsonc`, comments and trailing commas are let through, as editors and
/// TypeScript read a `.jsonc` file; nothing else is.
pub(super) fn parse(text: &str, jsonc: bool) -> Result<Node, ParseFailure> {
    let options = jsonc_parser::ParseOptions {
        allow_comments: jsonc,
        allow_loose_object_property_names: false,
        allow_trailing_commas: jsonc,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed =
        jsonc_parser::parse_to_ast(text, &jsonc_parser::CollectOptions::default(), &options)
            .map_err(|e| {
                let range = e.range();
                if let jsonc_parser::errors::ParseErrorKind::NestingDepthExceeded = e.kind() {
                    return too_deep(text, Span::new(range.start, range.start));
                }
                ParseFailure {
                    span: Span::new(range.start, range.end.max(range.start)),
                    message: lexer_message(&e.kind().to_string(), text, range.start),
                }
            })?;
    match parsed.value {
        Some(value) => convert(text, value, 0),
        None if text.trim().is_empty() => Err(ParseFailure {
            span: Span::new(0, 0),
            message: if text.is_empty() {
                "The file is empty".to_owned()
            } else {
                "The file holds only whitespace".to_owned()
            },
        }),
        None => Err(ParseFailure {
            span: Span::new(0, 0),
            message: "Expected a JSON value".to_owned(),
        }),
    }
}

fn depth_message() -> String {
    format!("Nesting is deeper than {MAX_DEPTH} levels")
}

/// The failure for a text nested deeper than [`MAX_DEPTH`], on the first value below the bound
/// (the lexer gives up further down, arrays twice as deep); `fallback` when none is found.
fn too_deep(text: &str, fallback: Span) -> ParseFailure {
    let span = first_too_deep(text).map_or(fallback, |at| Span::new(at, at + 1));
    ParseFailure {
        span,
        message: depth_message(),
    }
}

/// The offset of the first value with more than [`MAX_DEPTH`] containers around it: the depth
/// rule of files, also applied to messages ([`crate::syntax::message`]).
#[must_use]
pub fn first_too_deep(text: &str) -> Option<usize> {
    // Open containers (true: object); whether the next token starts a value.
    let mut open: Vec<bool> = Vec::new();
    let mut expect_value = true;
    let (mut in_string, mut escaped) = (false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        if expect_value && open.len() > MAX_DEPTH && !matches!(b, b']' | b'}') {
            return Some(i);
        }
        match b {
            b'{' => {
                open.push(true);
                expect_value = false;
            }
            b'[' => {
                open.push(false);
                expect_value = true;
            }
            b'}' | b']' => {
                open.pop();
                expect_value = false;
            }
            b':' => expect_value = true,
            b',' => expect_value = open.last() == Some(&false),
            b'"' => {
                in_string = true;
                expect_value = false;
            }
            _ => expect_value = false,
        }
    }
    None
}

/// The lexer's message, with the wording of the strict-JSON situation it stands for.
fn lexer_message(kind: &str, text: &str, at: usize) -> String {
    let rest = text.get(at..).unwrap_or_default();
    if rest.starts_with("//") || rest.starts_with("/*") {
        return "Comments are not allowed in JSON".to_owned();
    }
    if let Some(word) = ["NaN", "-NaN", "Infinity", "-Infinity", "+Infinity"]
        .into_iter()
        .find(|w| rest.starts_with(w))
    {
        return format!("`{word}` is not a JSON number");
    }
    match rest.chars().next() {
        Some(c) if c.is_control() && !c.is_whitespace() => {
            format!(
                "Control character U+{:04X} is not allowed here",
                u32::from(c)
            )
        }
        _ => kind.to_owned(),
    }
}

fn span(range: jsonc_parser::common::Range) -> Span {
    Span::new(range.start, range.end)
}

fn convert(text: &str, value: ast::Value<'_>, depth: usize) -> Result<Node, ParseFailure> {
    if depth > MAX_DEPTH {
        let start = value_range(&value).start;
        return Err(too_deep(text, Span::new(start, start + 1)));
    }
    Ok(match value {
        ast::Value::NullKeyword(n) => Node {
            span: span(n.range),
            kind: NodeKind::Null,
        },
        ast::Value::BooleanLit(b) => Node {
            span: span(b.range),
            kind: NodeKind::Bool(b.value),
        },
        ast::Value::NumberLit(n) => Node {
            span: span(n.range),
            kind: NodeKind::Number(n.value.into()),
        },
        ast::Value::StringLit(s) => {
            check_string_literal(text, s.range)?;
            Node {
                span: span(s.range),
                kind: NodeKind::String(CompactString::from(s.value)),
            }
        }
        ast::Value::Array(a) => {
            let items = a
                .elements
                .into_iter()
                .map(|v| convert(text, v, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            Node {
                span: span(a.range),
                kind: NodeKind::Array(items.into_boxed_slice()),
            }
        }
        ast::Value::Object(o) => {
            let mut members = Vec::with_capacity(o.properties.len());
            for prop in o.properties {
                let (key, key_range) = match prop.name {
                    ast::ObjectPropName::String(s) => {
                        check_string_literal(text, s.range)?;
                        (CompactString::from(s.value), s.range)
                    }
                    ast::ObjectPropName::Word(w) => {
                        return Err(ParseFailure {
                            span: span(w.range),
                            message: "Expected a double-quoted property name".to_owned(),
                        })
                    }
                };
                members.push(Member {
                    key,
                    key_span: span(key_range),
                    value: convert(text, prop.value, depth + 1)?,
                });
            }
            Node {
                span: span(o.range),
                kind: NodeKind::Object(Members::new(members)),
            }
        }
    })
}

fn value_range(value: &ast::Value<'_>) -> jsonc_parser::common::Range {
    match value {
        ast::Value::StringLit(v) => v.range,
        ast::Value::NumberLit(v) => v.range,
        ast::Value::BooleanLit(v) => v.range,
        ast::Value::Object(v) => v.range,
        ast::Value::Array(v) => v.range,
        ast::Value::NullKeyword(v) => v.range,
    }
}

/// RFC 8259 forbids unescaped control characters (U+0000 to U+001F) inside strings.
fn check_string_literal(
    text: &str,
    range: jsonc_parser::common::Range,
) -> Result<(), ParseFailure> {
    let raw = &text.as_bytes()[range.start..range.end];
    match raw.iter().position(|&b| b < 0x20) {
        None => Ok(()),
        Some(i) => {
            let at = range.start + i;
            Err(ParseFailure {
                span: Span::new(at, at + 1),
                message: format!(
                    "Control character U+{:04X} must be escaped inside a string",
                    raw[i]
                ),
            })
        }
    }
}

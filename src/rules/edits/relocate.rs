//! Moving a subschema into the root's `$defs` (or `definitions`): the subschema's place gets
//! `{"$ref": "#/$defs/<key>"}`, and its text becomes a new entry of the container, re-indented
//! in the file's own style (its indent unit and line ending, or one line for a one-line schema),
//! the container created after the root's last member when it is missing. Shared by the
//! `--fix-id defs` repair ([`super::defs_fix`]) and SL305's fix ([`super::hoist`]).

use crate::diagnostic::fix::{apply_edits, Edit};
use crate::syntax::document::{escape_pointer_token, Node};
use crate::syntax::literal::literal;
use crate::syntax::source::{FileId, Span};
use std::fmt::Write as _;

/// Characters a URI fragment may hold as they are (RFC 3986 `pchar` plus `/` and `?`); the
/// others are percent-encoded, so a JSON pointer becomes the fragment of a reference.
pub(crate) fn encode_fragment(pointer: &str) -> String {
    let mut out = String::new();
    for ch in pointer.chars() {
        if ch.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/?".contains(ch) {
            out.push(ch);
        } else {
            let mut buf = [0; 4];
            for b in ch.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// How a file indents: the unit (tab or spaces) and the line ending.
struct Style {
    unit: String,
    newline: &'static str,
}

fn style_of(text: &str) -> Style {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let unit = text
        .lines()
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
        .find(|ws| !ws.is_empty())
        .map_or_else(
            || "  ".to_owned(),
            |ws| {
                if ws.starts_with('\t') {
                    "\t".to_owned()
                } else {
                    ws.to_owned()
                }
            },
        );
    Style { unit, newline }
}

/// The whitespace that starts the line holding `offset`.
fn line_indent(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Re-indents `moved` (whose continuation lines start with `old`) so they start with `new`.
fn reindent(moved: &str, old: &str, new: &str) -> String {
    let mut out = String::with_capacity(moved.len());
    for (i, line) in moved.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(new);
            out.push_str(
                line.strip_prefix(old)
                    .unwrap_or(line.trim_start_matches([' ', '\t'])),
            );
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `span` as an offset into a slice of the text that starts at `by`.
pub(crate) fn shift(span: Span, by: usize) -> Span {
    Span::new(span.start - by, span.end - by)
}

/// Where a moved subschema goes: a container of the root of one schema of a file.
pub(crate) struct Destination<'a> {
    /// The file that holds the schema.
    pub file: FileId,
    /// The file's text.
    pub text: &'a str,
    /// The schema's root (unit) node.
    pub unit_node: &'a Node,
    /// `$defs` or `definitions`.
    pub container: &'static str,
}

impl<'a> Destination<'a> {
    /// The container as it is, when the root has one.
    pub(crate) fn existing(&self) -> Option<&'a Node> {
        self.unit_node.get(self.container)
    }

    /// A key for `wanted` made of `[A-Za-z0-9_.-]`, without the `_`s that would lead or
    /// trail, and free in the container and among `chosen` (keys other moves of the same fix
    /// take): `billing`, then `billing_2` ...
    pub(crate) fn key_for(&self, wanted: &str, chosen: &[String]) -> String {
        let chars = crate::schema::defs::key_chars(wanted);
        let base = match chars.trim_matches('_') {
            "" => "schema",
            trimmed => trimmed,
        };
        let taken = |k: &str| {
            chosen.iter().any(|c| c == k) || self.existing().is_some_and(|c| c.get(k).is_some())
        };
        if !taken(base) {
            return base.to_owned();
        }
        // One of these is free: the container and `chosen` hold fewer keys.
        let bound = chosen.len()
            + self
                .existing()
                .and_then(Node::as_object)
                .map_or(0, <[_]>::len);
        (2..bound + 3)
            .map(|n| format!("{base}_{n}"))
            .find(|k| !taken(k))
            .unwrap_or_default()
    }

    /// The pointer (from the unit root) of the entry `key`.
    pub(crate) fn pointer(&self, key: &str) -> String {
        format!("/{}/{}", self.container, escape_pointer_token(key))
    }

    /// The edits that move `node` to the entry `key`, with `inner` (edits inside `node`, as
    /// offsets into the file) applied to the moved text: `node` becomes a `$ref` to the entry,
    /// and the entry is added to the container. `None` when the root already holds a
    /// container that is not an object, or an edit of `inner` does not fit.
    pub(crate) fn move_edits(&self, node: &Node, key: &str, inner: &[Edit]) -> Option<Vec<Edit>> {
        self.move_all(&[Relocation { node, key, inner }])
    }

    /// [`Destination::move_edits`] for several subschemas that do not overlap, in one edit of
    /// the container (the entries in the order given).
    pub(crate) fn move_all(&self, moves: &[Relocation<'_>]) -> Option<Vec<Edit>> {
        if moves.is_empty() || self.existing().is_some_and(|c| c.as_object().is_none()) {
            return None;
        }
        let mut edits = Vec::new();
        let mut entries = Vec::new();
        for m in moves {
            let span = m.node.span;
            let shifted: Vec<Edit> = m
                .inner
                .iter()
                .map(|e| {
                    (e.file == self.file && span.start <= e.span.start && e.span.end <= span.end)
                        .then(|| Edit {
                            file: e.file,
                            span: shift(e.span, span.start),
                            content: e.content.clone(),
                        })
                })
                .collect::<Option<_>>()?;
            let text = apply_edits(
                self.text.get(span.start..span.end)?,
                &shifted.iter().collect::<Vec<_>>(),
            )
            .ok()?;
            let reference = format!("#{}", encode_fragment(&self.pointer(m.key)));
            edits.push(Edit {
                file: self.file,
                span,
                content: format!("{{\"$ref\": {}}}", literal(&reference)),
            });
            entries.push((span.start, m.key, text));
        }
        edits.push(self.insertion(&entries)?);
        Some(edits)
    }

    /// The edit that adds `"key": moved` for each of `entries` to the container, creating it
    /// if needed, in the file's own style; each entry's offset is where its moved text started,
    /// whose line gives the indent its continuation lines are relative to.
    fn insertion(&self, entries: &[(usize, &str, String)]) -> Option<Edit> {
        let (text, unit_node) = (self.text, self.unit_node);
        let existing = self.existing();
        let style = style_of(text);
        let inline = !text[unit_node.span.start..unit_node.span.end].contains('\n');
        let member_indent = unit_node
            .as_object()?
            .first()
            .map_or_else(String::new, |m| {
                line_indent(text, m.key_span.start).to_owned()
            });
        let entry_indent = format!("{member_indent}{}", style.unit);
        let (nl, sp, mi, ei) = if inline {
            ("", " ", "", "")
        } else {
            (
                style.newline,
                "",
                member_indent.as_str(),
                entry_indent.as_str(),
            )
        };
        let separator = format!(",{nl}{sp}{ei}");
        let body = entries
            .iter()
            .map(|(from, key, moved)| {
                // Continuation lines of the moved text are indented relative to the line it
                // started on.
                let moved = if inline {
                    moved.replace(['\r', '\n'], "")
                } else {
                    reindent(moved, line_indent(text, *from), &entry_indent)
                };
                format!("{}: {moved}", literal(key))
            })
            .collect::<Vec<_>>()
            .join(&separator);
        let (at, content) = match existing.and_then(Node::as_object) {
            Some(members) if !members.is_empty() => (
                members[members.len() - 1].value.span.end,
                format!("{separator}{body}"),
            ),
            // An empty container: `{}` becomes `{<entries>}`, on lines of their own.
            Some(_) => (existing?.span.start + 1, format!("{nl}{ei}{body}{nl}{mi}")),
            None => {
                let last = unit_node.as_object()?.last()?;
                (
                    last.value.span.end,
                    format!(
                        ",{nl}{sp}{mi}{}: {{{nl}{ei}{body}{nl}{mi}}}",
                        literal(self.container)
                    ),
                )
            }
        };
        Some(Edit {
            file: self.file,
            span: Span::new(at, at),
            content,
        })
    }
}

/// One subschema a fix moves into the container.
pub(crate) struct Relocation<'a> {
    /// The subschema.
    pub node: &'a Node,
    /// Its key in the container.
    pub key: &'a str,
    /// Edits inside it (offsets into the file), applied to the moved text.
    pub inner: &'a [Edit],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    #[test]
    fn helpers() {
        assert_eq!(encode_fragment("/$defs/a b"), "/$defs/a%20b");
        assert_eq!(
            reindent("{\n      \"a\": 1\n    }", "    ", "    "),
            "{\n      \"a\": 1\n    }"
        );
        assert_eq!(
            reindent("{\n\t\t\"a\": 1\n\t}", "\t", "\t\t"),
            "{\n\t\t\t\"a\": 1\n\t\t}"
        );
        assert_eq!(style_of("{\r\n\t\"a\": 1\r\n}").newline, "\r\n");
        assert_eq!(style_of("{\n    \"a\": 1\n}").unit, "    ");
    }

    #[test]
    fn keys_are_valid_and_free() {
        let root = parse(r#"{"$defs": {"billing": {}}}"#).unwrap();
        let dest = Destination {
            file: FileId(0),
            text: "",
            unit_node: &root,
            container: "$defs",
        };
        assert_eq!(dest.key_for("billing", &[]), "billing_2");
        assert_eq!(
            dest.key_for("billing", &["billing_2".to_owned()]),
            "billing_3"
        );
        assert_eq!(dest.key_for("a b/c", &[]), "a_b_c");
        assert_eq!(dest.key_for("__", &[]), "schema");
        assert_eq!(dest.pointer("x.y"), "/$defs/x.y");
    }

    #[test]
    fn refuses_a_container_that_is_not_an_object() {
        let text = r#"{"properties": {"a": {}}, "$defs": 1}"#;
        let root = parse(text).unwrap();
        let dest = Destination {
            file: FileId(0),
            text,
            unit_node: &root,
            container: "$defs",
        };
        let node = root.pointer("/properties/a").unwrap();
        assert!(dest.move_edits(node, "a", &[]).is_none());
    }
}

//! `$defs`/`definitions` keys that a JSON pointer must escape (`/`, `~`, `%`), and how a
//! reference's pointer reaches them: escaped as RFC 6901 and 3986 ask, with a bare `~` that the
//! engines forgive, or written out raw. Shared by SL302 (which leaves raw spellings to SL304) and
//! SL304, whose fix renames such a key and rewrites every reference through it.

use crate::index::RefEntry;
use crate::rules::RunView;
use crate::schema::defs::needs_escaping;
use crate::schema::dialect::Draft;
use crate::schema::units::units;
use crate::schema::walk::walk;
use crate::syntax::document::{escape_pointer_token, unescape_pointer_token, Node, NodeKind};
use crate::syntax::source::{FileId, Span};
use crate::syntax::uri::percent_decode;
use std::fmt::Write as _;

/// A `$defs` or `definitions` entry in a real subschema position.
pub(crate) struct DefsEntry<'a> {
    /// Pointer of the container (`/$defs`).
    pub container: String,
    /// The container keyword.
    pub keyword: &'a str,
    pub key: &'a str,
    pub key_span: Span,
    /// Pointer of the entry's value.
    pub pointer: String,
    /// The container object.
    pub container_node: &'a Node,
}

/// Every `$defs`/`definitions` entry of `file` whose key needs escaping.
pub(crate) fn escaped_entries<'a>(
    view: &'a RunView<'a>,
    file: FileId,
    default_draft: Draft,
) -> Vec<DefsEntry<'a>> {
    let (Some(root), Some(kind)) = (view.root(file), view.kind(file)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for unit in units(root, kind, default_draft) {
        let Some(unit_root) = root.pointer(&unit.pointer) else {
            continue;
        };
        for sub in walk(unit_root, &unit.pointer, unit.draft) {
            out.extend(entries_of(sub.node, &sub.pointer));
        }
    }
    out
}

/// The entries needing escaping of the containers directly in `schema` (at `pointer`).
pub(crate) fn entries_of<'a>(schema: &'a Node, pointer: &str) -> Vec<DefsEntry<'a>> {
    let mut out = Vec::new();
    for keyword in ["$defs", "definitions"] {
        let Some(member) = schema
            .as_object()
            .and_then(|m| m.iter().find(|m| m.key == keyword))
        else {
            continue;
        };
        let Some(entries) = member.value.as_object() else {
            continue;
        };
        let container = format!("{pointer}/{}", escape_pointer_token(keyword));
        for entry in entries.iter().filter(|e| needs_escaping(&e.key)) {
            out.push(DefsEntry {
                pointer: format!("{container}/{}", escape_pointer_token(&entry.key)),
                container: container.clone(),
                keyword: member.key.as_str(),
                key: &entry.key,
                key_span: entry.key_span,
                container_node: &member.value,
            });
        }
    }
    out
}

/// One token of a pointer fragment: percent-decoded, then also `~`-unescaped.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub decoded: String,
    pub value: String,
}

/// The tokens of a pointer fragment (`/a/b`, as written after `#`); `None` when it is not one or
/// does not decode.
pub(crate) fn fragment_tokens(fragment: &str) -> Option<Vec<Token>> {
    let pointer = percent_decode(fragment)?;
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| Token {
                decoded: t.to_owned(),
                value: unescape_pointer_token(t),
            })
            .collect(),
    )
}

/// What an engine reads when `key` is written raw into a pointer fragment; `None` when the
/// raw key is not even a URI fragment (SL301's business).
fn raw_reading(key: &str) -> Option<Vec<String>> {
    fragment_tokens(&format!("/{key}")).map(|t| t.into_iter().map(|t| t.value).collect())
}

/// How a reference names a key that needs escaping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// Escaped as it must be.
    Escaped,
    /// With a `~` not followed by `0` or `1`: the engines read it as a plain `~`, but it is not
    /// a valid JSON pointer.
    BareTilde,
    /// Written out raw (`#/$defs/a/b` for the key `a/b`): the engines read something else.
    Raw,
}

/// A step of a pointer through a `$defs`/`definitions` key that needs escaping.
#[derive(Clone, Debug)]
pub(crate) struct KeyStep {
    /// The tokens `[start, start + len)` of the fragment name the key.
    pub start: usize,
    pub len: usize,
    /// Pointer of the entry (in its file).
    pub pointer: String,
    pub spelling: Spelling,
}

/// Follows `tokens` from `node` (at `pointer`), reading a `$defs`/`definitions` key that needs
/// escaping as written raw where the escaped reading leads nowhere. Returns the steps through
/// such keys of the first reading that reaches a value, or `None` when none does.
pub(crate) fn follow(node: &Node, pointer: &str, tokens: &[Token]) -> Option<Vec<KeyStep>> {
    let mut steps = Vec::new();
    go(node, pointer, tokens, 0, false, &mut steps).then_some(steps)
}

fn go(
    node: &Node,
    pointer: &str,
    tokens: &[Token],
    i: usize,
    in_container: bool,
    steps: &mut Vec<KeyStep>,
) -> bool {
    let Some(token) = tokens.get(i) else {
        return true;
    };
    match &node.kind {
        NodeKind::Object(members) => {
            if let Some(value) = node.get(&token.value) {
                let child = format!("{pointer}/{}", escape_pointer_token(&token.value));
                let is_key = in_container && needs_escaping(&token.value);
                if is_key {
                    let bare = token.decoded.match_indices('~').any(|(at, _)| {
                        !matches!(token.decoded.as_bytes().get(at + 1), Some(b'0' | b'1'))
                    });
                    steps.push(KeyStep {
                        start: i,
                        len: 1,
                        pointer: child.clone(),
                        spelling: if bare {
                            Spelling::BareTilde
                        } else {
                            Spelling::Escaped
                        },
                    });
                }
                let container = matches!(token.value.as_str(), "$defs" | "definitions");
                if go(value, &child, tokens, i + 1, container, steps) {
                    return true;
                }
                if is_key {
                    steps.pop();
                }
            }
            if !in_container {
                return false;
            }
            for member in members.iter().filter(|m| needs_escaping(&m.key)) {
                let Some(reading) = raw_reading(&member.key) else {
                    continue;
                };
                let matches = reading.len() <= tokens.len() - i
                    && reading.iter().zip(&tokens[i..]).all(|(r, t)| *r == t.value);
                if !matches || reading == [member.key.clone()] {
                    continue;
                }
                let child = format!("{pointer}/{}", escape_pointer_token(&member.key));
                steps.push(KeyStep {
                    start: i,
                    len: reading.len(),
                    pointer: child.clone(),
                    spelling: Spelling::Raw,
                });
                if go(
                    &member.value,
                    &child,
                    tokens,
                    i + reading.len(),
                    false,
                    steps,
                ) {
                    return true;
                }
                steps.pop();
            }
            false
        }
        NodeKind::Array(items) => {
            let index = token
                .value
                .parse::<usize>()
                .ok()
                .filter(|_| token.value == "0" || !token.value.starts_with('0'));
            match index.and_then(|n| items.get(n)) {
                Some(item) => go(
                    item,
                    &format!("{pointer}/{}", token.value),
                    tokens,
                    i + 1,
                    false,
                    steps,
                ),
                None => false,
            }
        }
        _ => false,
    }
}

/// How a reference reaches the value it names, step by step ([`ref_steps`]).
pub(crate) struct RefSteps {
    /// The file of the resource the fragment starts from.
    pub file: FileId,
    /// The fragment's tokens.
    pub tokens: Vec<Token>,
    /// The step each token takes.
    pub steps: Vec<KeyStep>,
}

/// How reference `r` reaches entries that need escaping: its steps, when its fragment is a
/// pointer that reaches a value in the run (raw spellings allowed).
pub(crate) fn ref_steps(view: &RunView<'_>, r: &RefEntry) -> Option<RefSteps> {
    let (_, fragment) = r.raw.split_once('#')?;
    if !fragment.starts_with('/') {
        return None;
    }
    let target = view.index.target_resource(r).ok()?;
    let resource = &view.index.resources[target];
    let node = view.root(resource.file)?.pointer(&resource.pointer)?;
    let tokens = fragment_tokens(fragment)?;
    let steps = follow(node, &resource.pointer, &tokens)?;
    Some(RefSteps {
        file: resource.file,
        tokens,
        steps,
    })
}

/// The step of `r` that names an entry written in a way that SL304 reports (raw or with a bare
/// `~`), if any.
pub(crate) fn misspelled_step(
    view: &RunView<'_>,
    r: &RefEntry,
    default_draft: Draft,
) -> Option<KeyStep> {
    if !view.index.escaped_defs_keys {
        return None;
    }
    let RefSteps { file, steps, .. } = ref_steps(view, r)?;
    let mut misspelled = steps
        .into_iter()
        .filter(|s| s.spelling != Spelling::Escaped)
        .peekable();
    misspelled.peek()?;
    let real = escaped_entries(view, file, default_draft);
    misspelled.find(|s| real.iter().any(|e| e.pointer == s.pointer))
}

/// `r` with the tokens `[start, start + len)` of its fragment replaced by `new_key` (which
/// needs no escaping). Raw segments outside the replaced ones keep their spelling where the
/// fragment's segments and tokens line up.
pub(crate) fn rewrite_ref(
    raw: &str,
    tokens: &[Token],
    step: &KeyStep,
    new_key: &str,
) -> Option<String> {
    let (uri_part, fragment) = raw.split_once('#')?;
    let segments: Vec<&str> = fragment.strip_prefix('/')?.split('/').collect();
    let end = step.start + step.len;
    let body = if segments.len() == tokens.len() {
        let mut out: Vec<&str> = segments[..step.start].to_vec();
        out.push(new_key);
        out.extend(&segments[end..]);
        out.join("/")
    } else {
        let mut out: Vec<String> = tokens[..step.start]
            .iter()
            .map(|t| encode_token(&t.value))
            .collect();
        out.push(new_key.to_owned());
        out.extend(tokens[end..].iter().map(|t| encode_token(&t.value)));
        out.join("/")
    };
    Some(format!("{uri_part}#/{body}"))
}

/// A pointer token as it is written in a URI fragment: `~` and `/` escaped, then every byte
/// that a fragment does not allow (and `%`) percent-encoded.
pub(crate) fn encode_token(token: &str) -> String {
    let mut out = String::new();
    for b in escape_pointer_token(token).bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@?".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn steps(doc: &str, fragment: &str) -> Option<Vec<(usize, usize, String, Spelling)>> {
        let root = parse(doc).unwrap();
        let tokens = fragment_tokens(fragment).unwrap();
        follow(&root, "", &tokens).map(|s| {
            s.into_iter()
                .map(|s| (s.start, s.len, s.pointer, s.spelling))
                .collect()
        })
    }

    #[test]
    fn escaped_raw_and_bare_tilde_spellings() {
        let doc =
            r#"{"$defs": {"a/b": {"properties": {"x": {}}}, "t~n": {}, "p%41": {}, "ok": {}}}"#;
        assert_eq!(
            steps(doc, "/$defs/a~1b/properties/x"),
            Some(vec![(1, 1, "/$defs/a~1b".into(), Spelling::Escaped)])
        );
        assert_eq!(
            steps(doc, "/$defs/a/b/properties/x"),
            Some(vec![(1, 2, "/$defs/a~1b".into(), Spelling::Raw)])
        );
        assert_eq!(
            steps(doc, "/$defs/t~n"),
            Some(vec![(1, 1, "/$defs/t~0n".into(), Spelling::BareTilde)])
        );
        assert_eq!(
            steps(doc, "/$defs/t~0n"),
            Some(vec![(1, 1, "/$defs/t~0n".into(), Spelling::Escaped)])
        );
        assert_eq!(
            steps(doc, "/$defs/p%41"),
            Some(vec![(1, 1, "/$defs/p%41".into(), Spelling::Raw)])
        );
        assert_eq!(steps(doc, "/$defs/ok"), Some(vec![]));
        assert_eq!(steps(doc, "/$defs/nope"), None);
        // Raw readings count only inside `$defs`/`definitions`.
        assert_eq!(
            steps(r#"{"properties": {"a/b": {}}}"#, "/properties/a/b"),
            None
        );
    }

    #[test]
    fn rewrites_keep_other_segments() {
        let doc = r#"{"$defs": {"a/b": {"properties": {"x y": {}}}}}"#;
        let root = parse(doc).unwrap();
        for (raw, want) in [
            (
                "#/$defs/a~1b/properties/x%20y",
                "#/$defs/a_b/properties/x%20y",
            ),
            (
                "#/$defs/a/b/properties/x%20y",
                "#/$defs/a_b/properties/x%20y",
            ),
            (
                "t.json#/$defs/a%2Fb/properties/x%20y",
                "t.json#/$defs/a_b/properties/x%20y",
            ),
        ] {
            let fragment = raw.split_once('#').unwrap().1;
            let tokens = fragment_tokens(fragment).unwrap();
            let found = follow(&root, "", &tokens).unwrap();
            assert_eq!(
                rewrite_ref(raw, &tokens, &found[0], "a_b").as_deref(),
                Some(want)
            );
        }
    }
}

//! SL406 pattern-not-portable: a `pattern` or `patternProperties` key that the regex engine of
//! some client refuses. Ajv (the TypeScript clients) compiles it as ECMA-262 with the `u` flag
//! ([`regex_ecma`]); the Python client's `check_schema` compiles it with Python's `re`
//! ([`regex_python`]). An ECMA-invalid pattern that the draft-04/06/07 meta-schema's
//! `format: regex` already rejects is left to SL401.

use crate::diagnostic::breaks::{classes, Class, Client};
use crate::diagnostic::fix::{Applicability, Edit, Fix, Move};
use crate::diagnostic::meta::SL406 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::document::{push_pointer_token, Node};
use crate::syntax::regex_ecma::{self, EcmaError, EcmaPattern, EcmaRefusal};
use crate::syntax::regex_python::{self, PyError, PyRefusal};
use crate::syntax::source::Span;
use std::ops::Range;
use std::sync::LazyLock;

pub struct PatternNotPortable;

impl Rule for PatternNotPortable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            if let Some(member) = sub.node.member("pattern") {
                if let Some(pattern) = member.value.as_str() {
                    let place = Place {
                        span: member.value.span,
                        pointer: format!("{}/pattern", sub.pointer),
                        what: "`pattern`",
                        step: None,
                        keys: None,
                    };
                    check(cx, sub.draft, pattern, &place, out);
                }
            }
            let Some(keys) = sub.node.get("patternProperties").and_then(Node::as_object) else {
                continue;
            };
            for member in keys {
                let mut pointer = format!("{}/patternProperties", sub.pointer);
                push_pointer_token(&mut pointer, &member.key);
                let mut step = String::from("/patternProperties");
                push_pointer_token(&mut step, &member.key);
                let place = Place {
                    span: member.key_span,
                    keys: Some(format!("{}/patternProperties", sub.pointer)),
                    pointer,
                    what: "the `patternProperties` key",
                    step: Some(step),
                };
                check(cx, sub.draft, &member.key, &place, out);
            }
        }
    }
}

/// Where a pattern is written: its string literal, its pointer, and how to name it.
struct Place {
    span: Span,
    pointer: String,
    what: &'static str,
    /// For a `patternProperties` key, its pointer suffix (`/patternProperties/<key>`): its
    /// text may not change when a `$ref` names the key through it (looked up only for a key
    /// with a finding: it means searching the whole document).
    step: Option<String>,
    /// For a `patternProperties` key, the pointer of the object that holds it: a fix renames
    /// the key, which moves the subschema under it.
    keys: Option<String>,
}

impl Place {
    /// The move a fix that rewrites the pattern to `new` makes: none for a `pattern` value.
    fn moves(&self, file: crate::syntax::source::FileId, new: &str) -> Vec<Move> {
        self.keys
            .iter()
            .map(|keys| {
                let mut to = keys.clone();
                push_pointer_token(&mut to, new);
                Move {
                    file,
                    from: self.pointer.clone(),
                    to,
                }
            })
            .collect()
    }
}

/// Whether a `$ref` anywhere in the document has `step` (a `/patternProperties/<key>` pointer
/// suffix) in its fragment, percent-decoded.
fn referenced(node: &Node, step: &str) -> bool {
    if let Some(members) = node.as_object() {
        return members.iter().any(|m| {
            (m.key == "$ref"
                && m.value
                    .as_str()
                    .and_then(|r| r.split_once('#'))
                    .is_some_and(|(_, fragment)| percent_decode(fragment).contains(step)))
                || referenced(&m.value, step)
        });
    }
    node.as_array()
        .is_some_and(|items| items.iter().any(|i| referenced(i, step)))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = text
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What is wrong with a pattern, in the engine tier's model.
struct Finding {
    class: Class,
    /// The offending bytes of the pattern's value.
    range: Range<usize>,
    message: String,
    label: String,
    help: String,
}

/// Whether the `jsonschema` crate's `format: regex` (which SL401 applies through the draft-04,
/// draft-06 and draft-07 meta-schemas) accepts the pattern.
fn crate_accepts(pattern: &str) -> bool {
    static FORMAT: LazyLock<Option<jsonschema::Validator>> = LazyLock::new(|| {
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft7)
            .should_validate_formats(true)
            .build(&serde_json::json!({"format": "regex"}))
            .ok()
    });
    FORMAT
        .as_ref()
        .is_none_or(|v| v.is_valid(&serde_json::Value::from(pattern)))
}

/// Whether the `jsonschema` crate compiles the pattern as a `pattern` keyword (it translates
/// ECMA-262 into Rust regex syntax, which accepts some of what its `format: regex` refuses).
fn crate_compiles(pattern: &str) -> bool {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(false)
        .build(&serde_json::json!({ "pattern": pattern }))
        .is_ok()
}

fn check(
    cx: &UnitContext<'_>,
    draft: Draft,
    pattern: &str,
    place: &Place,
    out: &mut Vec<Diagnostic>,
) {
    let ecma = regex_ecma::check(pattern);
    let python = regex_python::check(pattern);
    let lookaround = ecma
        .as_ref()
        .ok()
        .filter(|_| cx.clients.contains(&Client::Deepseek))
        .and_then(|parsed| parsed.lookarounds.first().cloned());
    let finding = match (&ecma, &python) {
        (Ok(parsed), Ok(())) => match (parsed.modifiers.first(), &lookaround) {
            (Some(range), _) => modifiers_finding(pattern, range.clone(), place.what),
            (None, Some(range)) => lookaround_finding(pattern, range.clone(), place.what),
            (None, None) => return,
        },
        (Ok(parsed), Err(refusal)) => python_finding(pattern, parsed, refusal, place.what),
        (Err(refusal), py) => {
            let reported_by_sl401 = matches!(draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7)
                && !crate_accepts(pattern);
            if reported_by_sl401 {
                return;
            }
            ecma_finding(
                pattern,
                refusal,
                py.as_ref().err(),
                crate_compiles(pattern),
                place.what,
            )
        }
    };
    let text = cx.text();
    let offsets = literal_offsets(&text[place.span.start..place.span.end], pattern);
    let span = offsets.as_ref().map_or(place.span, |o| {
        Span::new(
            place.span.start + o[finding.range.start],
            place.span.start + o[finding.range.end],
        )
    });
    // Renaming a key would leave a `$ref` into it dangling.
    let fixable = place
        .step
        .as_ref()
        .is_none_or(|step| !referenced(cx.root, step));
    let help = if fixable {
        finding.help
    } else {
        format!(
            "{}; a `$ref` names this key: change it there too",
            finding.help
        )
    };
    let mut diagnostic = cx
        .report(span, finding.message)
        .label(finding.label)
        .help(help)
        .note(if finding.class == classes::SL406_DEEPSEEK_LOOKAROUND {
            "DeepSeek validates every tool's schema before the model runs and compiles `pattern` \
             with an engine that has no look-around; Ajv, Python's `re` and the Rust crate \
             compile the pattern"
        } else {
            "Ajv, in the TypeScript SDKs, compiles patterns as ECMA-262 regular expressions with \
             the `u` flag; the Python SDK's `check_schema` compiles them with Python's `re`"
        })
        .class(finding.class)
        .pointer(place.pointer.clone());
    if lookaround.is_some() && finding.class != classes::SL406_DEEPSEEK_LOOKAROUND {
        diagnostic = diagnostic.also(classes::SL406_DEEPSEEK_LOOKAROUND);
    }
    let offsets = offsets.filter(|_| fixable);
    if let (Some(offsets), Ok(parsed)) = (&offsets, &ecma) {
        if let Some(fix) = unnamed_groups(cx, place, offsets, pattern, parsed, finding.class) {
            diagnostic = diagnostic.fix(fix);
        }
    }
    if let (Some(offsets), Err(refusal)) = (&offsets, &ecma) {
        if finding.class == classes::SL406_IDENTITY_ESCAPE
            && refusal.kind == EcmaError::IdentityEscape
        {
            if let Some(fix) = drop_backslashes(cx, place, offsets, pattern) {
                diagnostic = diagnostic.fix(fix);
            }
        }
    }
    out.push(diagnostic);
}

/// A pattern Ajv compiles and Python's `re` refuses.
#[allow(clippy::too_many_lines)]
fn python_finding(pattern: &str, parsed: &EcmaPattern, refusal: &PyRefusal, what: &str) -> Finding {
    let at = &pattern[refusal.range.start..];
    let quoted = |r: &Range<usize>| pattern[r.clone()].to_owned();
    let python = format!("Python: {}", refusal.message);
    if refusal.kind == PyError::TooDeep {
        return Finding {
            class: classes::SL406_PYTHON_REJECTS,
            range: refusal.range.clone(),
            message: format!("{what} nests its groups deeper than Python's `re` can parse"),
            label: python,
            help: "Nest fewer groups: Python's `re` parses each level with calls of its own and \
                   stops at the recursion limit, about 495 levels down"
                .to_owned(),
        };
    }
    let (class, range, construct, help) = match refusal.kind {
        PyError::UnknownExtension if at.starts_with("(?<") => {
            let group = parsed
                .named_groups
                .iter()
                .find(|g| g.start == refusal.range.start + 2)
                .map_or(refusal.range.clone(), |g| refusal.range.start..g.end);
            let help = if parsed.backreferences {
                "Python spells a named group `(?P<name>...)`, which Ajv refuses: use numbered groups \
                 `(...)` and `\\1` back-references"
            } else {
                "Drop the group names: `(?:...)` matches the same, and no back-reference uses them"
            };
            // The Rust crate refuses `\k<name>` (measured), so that case is a class of its own.
            let class = if pattern.contains("\\k<") {
                classes::SL406_NAMED_BACKREFERENCE
            } else {
                classes::SL406_NAMED_GROUP
            };
            (class, group, "a named group", help.to_owned())
        }
        PyError::BadEscape('k') => (
            classes::SL406_NAMED_BACKREFERENCE,
            refusal.range.start..end_of(pattern, refusal.range.start, '>'),
            "a named back-reference",
            "Python spells it `(?P=name)`, which Ajv refuses: use numbered groups and `\\1`".to_owned(),
        ),
        PyError::BadEscape('p' | 'P') => (
            classes::SL406_PROPERTY_ESCAPE,
            refusal.range.start..end_of(pattern, refusal.range.start, '}'),
            "a Unicode property escape",
            "Python's `re` has no property escapes: list the characters in a class (`[A-Za-zÀ-ÖØ-öø-ÿ]`), \
             or drop the `pattern`"
                .to_owned(),
        ),
        PyError::BadEscape('c') => {
            let letter_len = pattern[refusal.range.end..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
            let range = refusal.range.start..refusal.range.end + letter_len;
            let letter = pattern[range.clone()].chars().last().unwrap_or('@');
            (
                classes::SL406_CONTROL_ESCAPE,
                range,
                "a control escape",
                format!("Write it as `\\x{:02X}`, which both engines read", u32::from(letter) % 32),
            )
        }
        PyError::IncompleteEscape('u') if at.starts_with("\\u{") => (
            classes::SL406_CODE_POINT_ESCAPE,
            refusal.range.start..end_of(pattern, refusal.range.start, '}'),
            "a code point escape",
            "Write the character itself (or `\\uHHHH` below U+10000): Python's `\\u` takes exactly four \
             digits"
                .to_owned(),
        ),
        PyError::LookBehindWidth => (
            classes::SL406_LOOKBEHIND_WIDTH,
            refusal.range.clone(),
            "a look-behind of varying width",
            "Python needs each look-behind to match one length: split it into one look-behind per \
             length, as in `(?:(?<=\\.json)|(?<=\\.yml))`"
                .to_owned(),
        ),
        PyError::UnterminatedSet if at.starts_with("[]") || at.starts_with("[^]") => {
            let len = if at.starts_with("[]") { 2 } else { 3 };
            (
                classes::SL406_EMPTY_CLASS,
                refusal.range.start..refusal.range.start + len,
                "an empty class",
                "Write `[\\s\\S]` for any character; `[]` matches nothing, and Python reads `]` right \
                 after `[` as a member"
                    .to_owned(),
            )
        }
        PyError::GroupReference => (
            classes::SL406_GROUP_REFERENCE,
            refusal.range.clone(),
            "a back-reference to a group not closed yet",
            "Refer only to groups closed before the reference; in ECMA-262 this one matches the \
             empty string"
                .to_owned(),
        ),
        _ => (
            classes::SL406_PYTHON_REJECTS,
            refusal.range.clone(),
            "a construct",
            "Rewrite it in the syntax both engines share".to_owned(),
        ),
    };
    let construct_text = quoted(&range);
    Finding {
        class,
        message: format!("{what} uses {construct} `{construct_text}`, which Python's `re` refuses"),
        label: python,
        help,
        range,
    }
}

/// The flags of an inline flag group at the start of `text` (`(?si)` gives `si`), if it opens
/// one.
fn inline_flags(text: &str) -> &str {
    text.strip_prefix("(?").map_or("", |rest| {
        let end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        &rest[..end]
    })
}

/// A pattern modifier group (`(?i:...)`, ES2025): V8 parses it from Node 23 (V8 12.5) on; Node
/// 20 and 22, which the TS SDK clients still run on, refuse the pattern (measured on Node 20 in
/// `pat-inline-flag-scoped`). Python's `re` and the Rust crate accept it.
fn modifiers_finding(pattern: &str, range: Range<usize>, what: &str) -> Finding {
    let text = &pattern[range.clone()];
    Finding {
        class: classes::SL406_MODIFIERS,
        message: format!("{what} uses the pattern modifier `{text}`, which Node before 23 refuses"),
        label: "Node 20 and 22: `Invalid group`".to_owned(),
        help: "Write the pattern without modifiers (both cases in a class, `[Aa]`, for `(?i:a)`): \
               the TS clients compile it with the Node they run on"
            .to_owned(),
        range,
    }
}

/// A look-around, which the tier's engines compile and `deepseek` refuses (documented).
fn lookaround_finding(pattern: &str, range: Range<usize>, what: &str) -> Finding {
    let text = &pattern[range.clone()];
    Finding {
        class: classes::SL406_DEEPSEEK_LOOKAROUND,
        message: format!("{what} uses the look-around `{text}`, which DeepSeek refuses"),
        label: "DeepSeek: `is not a \"regex\"`".to_owned(),
        help: "Write the pattern without look-around (`^[^.][^@]*@...` for a `(?!\\.)` at the \
               start), or leave the rule to the server's own validation and drop `pattern`: \
               DeepSeek compiles it with an engine that has no look-around"
            .to_owned(),
        range,
    }
}

/// A pattern Ajv refuses.
/// `rust` says whether the `jsonschema` crate compiles it.
fn ecma_finding(
    pattern: &str,
    refusal: &EcmaRefusal,
    python: Option<&PyRefusal>,
    rust: bool,
    what: &str,
) -> Finding {
    let text = &pattern[refusal.range.clone()];
    let ajv = format!("Ajv: {}", refusal.message);
    let (class, message, label, help) = match (python, refusal.kind) {
        (Some(py), _) => (
            if rust {
                classes::SL406_ECMA_AND_PYTHON
            } else {
                classes::SL406_INVALID
            },
            format!("{what} is refused by both Ajv and Python's `re`"),
            ajv,
            format!(
                "Correct the syntax: Ajv compiles it as ECMA-262 with the `u` flag, and Python's `re` says \
                 `{}`",
                py.message
            ),
        ),
        (None, _) if !rust => (
            classes::SL406_ECMA_AND_RUST,
            format!("{what} uses `{text}`, which Python's `re` accepts but ECMA-262 refuses"),
            ajv,
            "Write it in the syntax every engine shares (ECMA-262 with the `u` flag): `^` and `$` for \
             `\\A` and `\\Z`, `(...)` for `(?P<name>...)`"
                .to_owned(),
        ),
        (None, EcmaError::IdentityEscape) => (
            classes::SL406_IDENTITY_ESCAPE,
            format!("{what} escapes `{}`, which ECMA-262 refuses with the `u` flag", &text[1..]),
            ajv,
            "Remove the backslash: the character means itself without it (only syntax characters and \
             `/`, and `-` in a class, may be escaped)"
                .to_owned(),
        ),
        (None, EcmaError::LoneBracket) => (
            classes::SL406_LONE_BRACKET,
            format!("{what} has a lone `{}`, which ECMA-262 refuses with the `u` flag", &text[..1]),
            ajv,
            format!("Escape it as `\\{}`", &text[..1]),
        ),
        (None, EcmaError::Other) if rust && inline_flags(&pattern[refusal.range.start..]).contains('s') => (
            classes::SL406_DOTALL_FLAG,
            format!("{what} uses `{text}`, which Python's `re` accepts but ECMA-262 refuses"),
            ajv,
            "Write `[\\s\\S]` for a `.` that must match a line break too, and drop `(?s)`: \
             ECMA-262 has no inline `s` flag, and the Rust crate, which compiles it, still \
             refuses a line break there"
                .to_owned(),
        ),
        (None, EcmaError::Other) => (
            classes::SL406_ECMA_INVALID,
            format!("{what} uses `{text}`, which Python's `re` accepts but ECMA-262 refuses"),
            ajv,
            "Write it in the syntax both engines share: `(...)` for `(?P<name>...)`, both cases in a \
             class for `(?i)`"
                .to_owned(),
        ),
    };
    Finding {
        class,
        range: refusal.range.clone(),
        message,
        label,
        help,
    }
}

/// The end of the construct starting at `start` that closes with `close` (`\p{L}`), or two
/// characters on.
fn end_of(pattern: &str, start: usize, close: char) -> usize {
    pattern[start..]
        .find(close)
        .map_or((start + 2).min(pattern.len()), |i| {
            start + i + close.len_utf8()
        })
}

/// The safe fix of named groups: `(?<name>` becomes `(?:` when no back-reference uses a group
/// (capture names and numbers do not change what matches).
fn unnamed_groups(
    cx: &UnitContext<'_>,
    place: &Place,
    offsets: &[usize],
    pattern: &str,
    parsed: &EcmaPattern,
    class: Class,
) -> Option<Fix> {
    if class != classes::SL406_NAMED_GROUP
        || parsed.backreferences
        || parsed.named_groups.is_empty()
    {
        return None;
    }
    let mut renamed = pattern.to_owned();
    for g in parsed.named_groups.iter().rev() {
        renamed.replace_range(g.clone(), ":");
    }
    let edits = parsed
        .named_groups
        .iter()
        .map(|g| Edit {
            file: cx.file.id,
            span: Span::new(
                place.span.start + offsets[g.start],
                place.span.start + offsets[g.end],
            ),
            content: ":".to_owned(),
        })
        .collect();
    Some(Fix {
        title: "Replace the named groups `(?<name>` with `(?:`".to_owned(),
        applicability: Applicability::Safe,
        edits,
        moves: place.moves(cx.file.id, &renamed),
    })
}

/// The safe fix of identity escapes: the backslash before a character that is not special is
/// removed, one escape after the other, as long as that is all Ajv refuses. Python, the Rust
/// crate and ECMA-262 without `u` read `\:` as `:`.
fn drop_backslashes(
    cx: &UnitContext<'_>,
    place: &Place,
    offsets: &[usize],
    pattern: &str,
) -> Option<Fix> {
    let mut current = pattern.to_owned();
    let mut removed = Vec::new();
    loop {
        match regex_ecma::check(&current) {
            Ok(_) => break,
            Err(r) if r.kind == EcmaError::IdentityEscape => {
                removed.push(r.range.start + removed.len());
                current.remove(r.range.start);
            }
            Err(_) => return None,
        }
    }
    if removed.is_empty() || regex_python::check(&current).is_err() {
        return None;
    }
    let edits = removed
        .iter()
        .map(|&at| Edit {
            file: cx.file.id,
            span: Span::new(
                place.span.start + offsets[at],
                place.span.start + offsets[at + 1],
            ),
            content: String::new(),
        })
        .collect();
    Some(Fix {
        title: "Remove the backslashes that ECMA-262 refuses with the `u` flag".to_owned(),
        applicability: Applicability::Safe,
        edits,
        moves: place.moves(cx.file.id, &current),
    })
}

/// For each byte of the decoded `value` (and its end), where it starts in the string literal
/// `raw` (quotes included); `None` when they do not line up.
fn literal_offsets(raw: &str, value: &str) -> Option<Vec<usize>> {
    let bytes = raw.as_bytes();
    if bytes.len() < 2 || bytes[0] != b'"' {
        return None;
    }
    let mut offsets = Vec::with_capacity(value.len() + 1);
    let mut i = 1;
    let end = raw.len() - 1;
    while i < end {
        let (decoded_len, source_len) = if bytes[i] == b'\\' {
            match bytes.get(i + 1)? {
                b'u' => {
                    let unit = u32::from_str_radix(raw.get(i + 2..i + 6)?, 16).ok()?;
                    if (0xD800..0xDC00).contains(&unit) && raw.get(i + 6..i + 8) == Some("\\u") {
                        (4, 12)
                    } else {
                        (char::from_u32(unit).map_or(3, char::len_utf8), 6)
                    }
                }
                _ => (1, 2),
            }
        } else {
            let c = raw[i..].chars().next()?;
            (c.len_utf8(), c.len_utf8())
        };
        for _ in 0..decoded_len {
            offsets.push(i);
        }
        i += source_len;
    }
    offsets.push(end);
    (offsets.len() == value.len() + 1).then_some(offsets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_value_bytes_to_the_literal() {
        let o = literal_offsets(r#""^\\p{L}\u00e9\ud83d\ude00""#, "^\\p{L}é😀").unwrap();
        assert_eq!(o[0], 1);
        assert_eq!(o[1], 2);
        assert_eq!(o[2], 4);
        assert_eq!(o[6], 8);
        assert_eq!(o[8], 14);
        assert_eq!(o[12], 26);
        assert!(literal_offsets(r#""ab""#, "abc").is_none());
    }

    #[test]
    fn classes_follow_the_construct() {
        let class = |p: &str| match (regex_ecma::check(p), regex_python::check(p)) {
            (Ok(e), Err(r)) => Some(python_finding(p, &e, &r, "x").class),
            (Err(e), py) => {
                Some(ecma_finding(p, &e, py.as_ref().err(), crate_compiles(p), "x").class)
            }
            (Ok(_), Ok(())) => None,
        };
        assert_eq!(class(r"^(?<y>\d+)$"), Some(classes::SL406_NAMED_GROUP));
        assert_eq!(
            class(r"\k<a>(?<a>x)"),
            Some(classes::SL406_NAMED_BACKREFERENCE)
        );
        assert_eq!(
            class(r"(?<a>x)\k<a>"),
            Some(classes::SL406_NAMED_BACKREFERENCE)
        );
        assert_eq!(class(r"^\p{L}+$"), Some(classes::SL406_PROPERTY_ESCAPE));
        assert_eq!(class(r"[\P{L}]"), Some(classes::SL406_PROPERTY_ESCAPE));
        assert_eq!(class(r"\cJ"), Some(classes::SL406_CONTROL_ESCAPE));
        assert_eq!(class(r"\u{41}"), Some(classes::SL406_CODE_POINT_ESCAPE));
        assert_eq!(class(r"(?<=a|bc)x"), Some(classes::SL406_LOOKBEHIND_WIDTH));
        assert_eq!(class(r"[^]"), Some(classes::SL406_EMPTY_CLASS));
        assert_eq!(class(r"(a\1)"), Some(classes::SL406_GROUP_REFERENCE));
        assert_eq!(
            class(r"[\uD83D\uDE00-\uD83D\uDE4F]"),
            Some(classes::SL406_PYTHON_REJECTS)
        );
        assert_eq!(class(r"a\:b"), Some(classes::SL406_IDENTITY_ESCAPE));
        assert_eq!(class(r"a]"), Some(classes::SL406_LONE_BRACKET));
        assert_eq!(class(r"(?P<n>a)"), Some(classes::SL406_ECMA_INVALID));
        assert_eq!(class(r"(a"), Some(classes::SL406_INVALID));
        assert_eq!(
            class(r"^x\_(?<s>[a-z]+)$"),
            Some(classes::SL406_ECMA_AND_PYTHON)
        );
        assert_eq!(class(r"\A[a-z]+\Z"), Some(classes::SL406_ECMA_AND_RUST));
        assert_eq!(class(r"(?s)^a.b$"), Some(classes::SL406_DOTALL_FLAG));
        assert_eq!(class(r"(?i)^a.b$"), Some(classes::SL406_ECMA_INVALID));
        assert_eq!(class(r"^[a-z]+(?:\.[a-z]+)*$"), None);
    }

    proptest::proptest! {
        /// No pattern makes the scanners or the messages panic, and every range they give lies
        /// on character boundaries of the pattern.
        #[test]
        fn never_panics(pattern in "[\\\\()\\[\\]{}?*+|^$.<>=!:PpkcuxN0-9a-zé😀,-]{0,12}") {
            let ecma = regex_ecma::check(&pattern);
            let python = regex_python::check(&pattern);
            let finding = match (&ecma, &python) {
                (Ok(e), Err(r)) => Some(python_finding(&pattern, e, r, "x")),
                (Err(e), py) => Some(ecma_finding(&pattern, e, py.as_ref().err(), true, "x")),
                (Ok(_), Ok(())) => None,
            };
            if let Some(f) = finding {
                proptest::prop_assert!(pattern.get(f.range.clone()).is_some());
            }
        }
    }
}

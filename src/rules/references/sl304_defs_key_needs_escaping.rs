//! SL304 defs-key-needs-escaping: a `$defs`/`definitions` key with `/`, `~` or `%`, which every
//! reference must escape, and the references that do not.

use super::defs_keys::{
    encode_token, entries_of, escaped_entries, misspelled_step, ref_steps, rewrite_ref, DefsEntry,
    RefSteps, Spelling,
};
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL304 as META;
use crate::diagnostic::Diagnostic;
use crate::index::RefEntry;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::defs::safe_key;
use crate::syntax::document::unescape_pointer_token;
use crate::syntax::literal::literal;
use crate::syntax::source::Span;

pub struct DefsKeyNeedsEscaping;

const NOTE: &str = "In a `$ref`, a JSON pointer must write `/` in a key as `~1` and `~` as `~0` \
(RFC 6901), and `%` as `%25` (RFC 3986); people and generators often do not (fast-uri #85: `$defs` \
keys with `/` or `%` need `~1` / `%25` in pointers)";

/// How each character of a key must be written in a reference.
fn escape_of(c: char) -> &'static str {
    match c {
        '/' => "~1",
        '~' => "~0",
        _ => "%25",
    }
}

impl Rule for DefsKeyNeedsEscaping {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            for entry in entries_of(sub.node, &sub.pointer) {
                out.push(key_finding(cx, &entry));
            }
        }
        let index = cx.run.index;
        for r in index.refs_in(cx.file.id, cx.unit_no) {
            if let Some(d) = ref_finding(cx, r) {
                out.push(d);
            }
        }
    }
}

fn key_finding(cx: &UnitContext<'_>, entry: &DefsEntry<'_>) -> Diagnostic {
    let (at, c) = entry
        .key
        .char_indices()
        .find(|(_, c)| "/~%".contains(*c))
        .unwrap_or((0, '/'));
    let raw = cx
        .text()
        .get(entry.key_span.start..entry.key_span.end)
        .unwrap_or_default();
    let span = if raw.len() == entry.key.len() + 2 && raw.get(1..raw.len() - 1) == Some(entry.key) {
        let start = entry.key_span.start + 1 + at;
        Span::new(start, start + 1)
    } else {
        entry.key_span
    };
    let new_key = safe_key(entry.key, Some(entry.container_node));
    let escaped = encode_token(entry.key);
    let mut diagnostic = cx
        .report(
            span,
            format!(
                "`{}` key `{}` must be escaped in every reference to it",
                entry.keyword, entry.key
            ),
        )
        .label(format!(
            "`{c}` is written `{}` in a reference",
            escape_of(c)
        ))
        .help(format!(
        "Rename the key to `{new_key}`, or make sure every reference escapes it: `#{}/{escaped}`",
        container_fragment(&entry.container)
    ))
        .note(NOTE)
        .class(classes::SL304_KEY)
        .pointer(entry.pointer.clone());
    let mut edits = vec![Edit {
        file: cx.file.id,
        span: entry.key_span,
        content: literal(&new_key),
    }];
    // Only references that name a resource of this file can reach its keys.
    for r in cx.run.index.refs_into(cx.file.id) {
        let Some(RefSteps {
            file,
            tokens,
            steps,
        }) = ref_steps(cx.run, r)
        else {
            continue;
        };
        if file != cx.file.id {
            continue;
        }
        let Some(step) = steps.iter().find(|s| s.pointer == entry.pointer) else {
            continue;
        };
        let label = if step.spelling == Spelling::Escaped {
            "referenced here"
        } else {
            "referenced here without the escapes"
        };
        if r.file == cx.file.id {
            diagnostic = diagnostic.related(r.file, r.span, label);
        }
        let Some(new_ref) = rewrite_ref(&r.raw, &tokens, step, &new_key) else {
            continue;
        };
        edits.push(Edit {
            file: r.file,
            span: r.span,
            content: literal(&new_ref),
        });
    }
    let refs = edits.len() - 1;
    let what = format!("`{}` key `{}` to `{new_key}`", entry.keyword, entry.key);
    let title = match refs {
        0 => format!("Rename {what}"),
        1 => format!("Rename {what} and the `$ref` that names it"),
        n => format!("Rename {what} and the {n} `$ref`s that name it"),
    };
    // Renaming the key moves everything below it to a new pointer.
    let renamed = entry.pointer.rsplit_once('/').map(|(parent, _)| {
        format!(
            "{parent}/{}",
            crate::syntax::document::escape_pointer_token(&new_key)
        )
    });
    diagnostic.fix(Fix {
        title,
        applicability: Applicability::Safe,
        edits,
        moves: renamed
            .map(|to| crate::diagnostic::fix::Move {
                file: cx.file.id,
                from: entry.pointer.clone(),
                to,
            })
            .into_iter()
            .collect(),
    })
}

/// A JSON pointer (`/$defs`) as it is written in a URI fragment.
fn container_fragment(container: &str) -> String {
    let mut out = String::new();
    for token in container.split('/').skip(1) {
        out.push('/');
        out.push_str(&encode_token(&unescape_pointer_token(token)));
    }
    out
}

/// A reference that names a key needing escaping without its escapes.
fn ref_finding(cx: &UnitContext<'_>, r: &RefEntry) -> Option<Diagnostic> {
    let step = misspelled_step(cx.run, r, cx.settings.default_draft)?;
    let RefSteps { file, tokens, .. } = ref_steps(cx.run, r)?;
    let entry = escaped_entries(cx.run, file, cx.settings.default_draft)
        .into_iter()
        .find(|e| e.pointer == step.pointer)?;
    let correct = rewrite_ref(&r.raw, &tokens, &step, &encode_token(entry.key))?;
    let pointer = r.pointer(cx.root);
    let (message, label, class) = match step.spelling {
        Spelling::BareTilde => (
            format!(
                "`{}` `{}` does not escape `~` in the key `{}`",
                r.keyword, r.raw, entry.key
            ),
            "`~` must be written `~0`".to_owned(),
            classes::SL304_BARE_TILDE,
        ),
        _ => (
            format!(
                "`{}` `{}` names the `{}` key `{}` without escaping it",
                r.keyword, r.raw, entry.keyword, entry.key
            ),
            "this reference does not name the key".to_owned(),
            // `%2F` for the `/`: Ajv decodes the fragment and finds the key, the other
            // engines read two tokens.
            if entry.key.contains('/') && r.raw.to_ascii_uppercase().contains("%2F") {
                classes::SL304_PERCENT_SLASH
            } else if entry.key.contains('/') {
                classes::SL304_UNESCAPED_SLASH
            } else {
                classes::SL304_UNESCAPED_PERCENT
            },
        ),
    };
    let mut diagnostic = cx.report(r.span, message).class(class).label(label);
    if file == cx.file.id {
        diagnostic = diagnostic.related(file, entry.key_span, "the key");
    }
    Some(
        diagnostic
            .help(if cx.live() {
                format!("Write `{correct}` in the server, or rename the key there")
            } else {
                format!(
                    "Write `{correct}`, or rename the key (the fix on the key's finding rewrites every reference)"
                )
            })
            .note(NOTE)
            .pointer(pointer),
    )
}

//! SL301 invalid-ref-uri: a `$ref` or `$dynamicRef` that is not an RFC 3986 URI-reference.

use crate::diagnostic::breaks::{classes, Class};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL301 as META;
use crate::diagnostic::Diagnostic;
use crate::index::Resolution;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::literal::literal;
use crate::syntax::uri::{check_uri_reference, has_malformed_scheme, percent_encode_repair};

pub struct InvalidRefUri;

impl Rule for InvalidRefUri {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let index = cx.run.index;
        for r in index.refs_in(cx.file.id, cx.unit_no) {
            let Err(problem) = check_uri_reference(&r.raw) else {
                continue;
            };
            let pointer = r.pointer(cx.root);
            let Some(node) = cx.root.pointer(&pointer) else {
                continue;
            };
            let target = index.target_resource(r).ok();
            let mut diagnostic = cx
                .report(
                    node.string_sub_span(cx.text(), problem.range.clone()),
                    format!("`{}` `{}` is not a valid URI reference", r.keyword, r.raw),
                )
                .label(problem.label)
                .note(crate::syntax::literal::capitalise(&problem.reason))
                .class(class_of(&r.raw))
                .pointer(pointer);
            match target.and_then(|t| crate::rules::edits::id_fix::resource_id_fix(cx, t)) {
                Some(fix) => {
                    diagnostic = diagnostic
                        .help("It names a `$id` spelled the same way: renaming that `$id` rewrites this reference too")
                        .fix(fix);
                }
                None => match encoded_fix(cx, r) {
                    Some(fix) => {
                        diagnostic = diagnostic
                            .help("Percent-encode the offending characters: the encoded reference resolves")
                            .fix(fix);
                    }
                    None => {
                        diagnostic = diagnostic.help(
                            "Percent-encode or replace the offending character, and make sure the target exists",
                        );
                    }
                },
            }
            out.push(diagnostic);
        }
    }
}

/// The class of an invalid reference in the engine tier's model. Ajv parses a reference with
/// fast-uri, which refuses a malformed scheme and a `%` that starts no escape; it drops a `#`
/// that ends the fragment (`#/$defs/C#` becomes `#/$defs/C`, `item.json##` becomes `item.json#`);
/// it binds a JSON-pointer fragment with other characters RFC 3986 does not allow (`<`, a space,
/// `{`, non-ASCII ...) to the subschema it names, but escapes them in a plain-name fragment
/// (`#my item`), which then names no `$id` or anchor; it does not find a `$id` through a
/// reference with such characters before the `#`.
fn class_of(raw: &str) -> Class {
    let bytes = raw.as_bytes();
    let bad_percent = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    });
    if has_malformed_scheme(raw) {
        return classes::SL301_MALFORMED_SCHEME;
    }
    if bad_percent {
        return classes::SL301_BAD_PERCENT;
    }
    let Some((before, fragment)) = raw.split_once('#') else {
        return classes::SL301_INVALID_CHAR;
    };
    // `item.json##`: Ajv reads `item.json#`, the document; Python looks for an anchor `#`.
    if fragment == "#" && check_uri_reference(before).is_ok() {
        return classes::SL301_DOUBLE_HASH;
    }
    if fragment.ends_with('#') || fragment.ends_with("#/") {
        return classes::SL301_TRAILING_HASH;
    }
    if check_uri_reference(before).is_err() {
        return classes::SL301_INVALID_CHAR;
    }
    if fragment.starts_with('/') {
        classes::SL301_FRAGMENT_CHARS
    } else {
        classes::SL301_NAME_CHARS
    }
}

/// Percent-encoding the offending characters, when the encoded reference resolves in the run.
fn encoded_fix(cx: &UnitContext<'_>, r: &crate::index::RefEntry) -> Option<Fix> {
    let encoded = percent_encode_repair(&r.raw)?;
    let mut probe = r.clone();
    probe.raw = encoded.as_str().into();
    let resolves = matches!(
        cx.run.index.resolve(&probe, |f| cx.run.root(f)),
        Resolution::Found { .. }
    );
    resolves.then(|| Fix {
        title: format!("Percent-encode `{}` as `{encoded}`", r.raw),
        applicability: Applicability::Safe,
        edits: vec![Edit {
            file: r.file,
            span: r.span,
            content: literal(&encoded),
        }],
        moves: Vec::new(),
    })
}

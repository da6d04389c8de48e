//! SL202 id-has-fragment: under 2019-09 and 2020-12 a `$id` may not carry a non-empty fragment.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL202 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::literal::literal;
use crate::syntax::uri::check_uri_reference;

pub struct IdHasFragment;

/// Whether `name` can be an `$anchor`.
pub(crate) fn is_anchor_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
}

impl Rule for IdHasFragment {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            if sub.draft.allows_id_fragment() {
                continue;
            }
            let Some(id) = sub.id() else { continue };
            let Some(value) = id.as_str() else { continue };
            let Some(hash) = value.find('#') else {
                continue;
            };
            // An invalid `$id` is SL201's, but the meta-schema's pattern refuses a second `#`
            // all the same (`x.json##`, `#a#b`: measured), which SL201's class does not say.
            if hash + 1 == value.len()
                || (check_uri_reference(value).is_err() && !value[hash + 1..].contains('#'))
            {
                continue;
            }
            let fragment = &value[hash + 1..];
            let help = if hash == 0 && is_anchor_name(fragment) {
                format!("Replace `\"$id\": \"#{fragment}\"` with `\"$anchor\": \"{fragment}\"`; `$ref`s to `#{fragment}` keep working")
            } else {
                format!(
                    "Remove `#{fragment}` from the `$id` and name the subschema with `$anchor` instead"
                )
            };
            let diagnostic = cx.report(id.string_sub_span(cx.text(), hash..value.len()),
                    format!("`$id` `{value}` has a fragment, which {} does not allow", sub.draft),
                )
                .label("fragment not allowed in `$id`")
                .help(help)
                .note(format!(
                    "The {} meta-schema restricts `$id` to the pattern `^[^#]*#?$`, so the schema is \
                     invalid in its dialect, and engines that check a schema against its meta-schema \
                     refuse it. Plain-name fragments moved to `$anchor` in 2019-09",
                    sub.draft
                ))
                .class(classes::SL202_FRAGMENT)
                .pointer(format!("{}/$id", sub.pointer));
            // `{"$id": "#foo"}` -> `{"$anchor": "foo"}`: `$ref`s to `#foo` keep working.
            let member = sub.node.member("$id");
            let fix = member.filter(|_| {
                hash == 0 && is_anchor_name(fragment) && sub.node.get("$anchor").is_none()
            });
            out.push(match fix {
                Some(member) => diagnostic.fix(Fix {
                    title: format!(
                        "Replace `\"$id\": \"#{fragment}\"` with `\"$anchor\": \"{fragment}\"`"
                    ),
                    applicability: Applicability::Safe,
                    edits: vec![
                        Edit {
                            file: cx.file.id,
                            span: member.key_span,
                            content: literal("$anchor"),
                        },
                        Edit {
                            file: cx.file.id,
                            span: member.value.span,
                            content: literal(fragment),
                        },
                    ],
                    moves: Vec::new(),
                }),
                None => diagnostic,
            });
        }
    }
}

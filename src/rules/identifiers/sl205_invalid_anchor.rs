//! SL205 invalid-anchor: a `$anchor` or `$dynamicAnchor` that is not a valid anchor name.

use crate::diagnostic::breaks::{classes, Class};
use crate::diagnostic::meta::SL205 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use std::ops::Range;

pub struct InvalidAnchor;

/// What is wrong with an anchor name, and where.
struct Problem {
    range: Range<usize>,
    label: String,
}

/// Checks `name` against Ajv's `^[A-Za-z_][-A-Za-z0-9._]*$` (the 2020-12 meta-schema's pattern)
/// and, under 2019-09, also against that meta-schema's `^[A-Za-z][-A-Za-z0-9.:_]*$`.
fn problem(name: &str, draft: Draft) -> Option<Problem> {
    let mut chars = name.char_indices();
    let Some((_, first)) = chars.next() else {
        return Some(Problem {
            range: 0..0,
            label: "an anchor name cannot be empty".to_owned(),
        });
    };
    let at = |i: usize, c: char| i..i + c.len_utf8();
    if !(first.is_ascii_alphabetic() || first == '_') {
        return Some(Problem {
            range: at(0, first),
            label: format!("`{}` cannot start an anchor name", first.escape_debug()),
        });
    }
    if first == '_' && draft == Draft::Draft201909 {
        return Some(Problem {
            range: at(0, first),
            label: "a 2019-09 anchor name must start with a letter".to_owned(),
        });
    }
    let (i, c) = chars.find(|(_, c)| !(c.is_ascii_alphanumeric() || "-._".contains(*c)))?;
    let label = if c == ':' && draft == Draft::Draft201909 {
        "2019-09 allows `:` here, but Ajv does not".to_owned()
    } else {
        format!("`{}` is not allowed in an anchor name", c.escape_debug())
    };
    Some(Problem {
        range: at(i, c),
        label,
    })
}

/// Whether Ajv takes `name` as an anchor: `^[A-Za-z_][-A-Za-z0-9._]*$`, whatever the dialect.
fn ajv_accepts(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
}

/// Whether the 2019-09 meta-schema takes `name`: `^[A-Za-z][-A-Za-z0-9.:_]*$`.
fn meta_2019_accepts(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "-.:_".contains(c))
}

/// The class of an invalid name in the engine tier's model: refused by Ajv and the
/// meta-schema alike, or (2019-09 only) by one of the two.
fn class_of(name: &str, draft: Draft) -> Class {
    if draft != Draft::Draft201909 {
        return classes::SL205_INVALID_NAME;
    }
    match (ajv_accepts(name), meta_2019_accepts(name)) {
        (true, false) => classes::SL205_UNDERSCORE_2019,
        (false, true) => classes::SL205_COLON_2019,
        _ => classes::SL205_INVALID_NAME,
    }
}

/// A valid name close to `name`: each offending character becomes `_`, with a prefix where the
/// first character cannot start a name.
fn suggestion(name: &str, draft: Draft) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-._".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let starts_well = out
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || (c == '_' && draft != Draft::Draft201909));
    if !starts_well {
        out.insert_str(
            0,
            if draft == Draft::Draft201909 {
                "a"
            } else {
                "_"
            },
        );
    }
    out
}

impl Rule for InvalidAnchor {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            let keywords: &[&str] = match sub.draft {
                Draft::Draft202012 => &["$anchor", "$dynamicAnchor"],
                Draft::Draft201909 => &["$anchor"],
                _ => &[],
            };
            for &keyword in keywords {
                let Some(node) = sub.node.get(keyword) else {
                    continue;
                };
                let Some(name) = node.as_str() else { continue };
                let Some(p) = problem(name, sub.draft) else {
                    continue;
                };
                let span = if p.range.is_empty() {
                    node.span
                } else {
                    node.string_sub_span(cx.text(), p.range)
                };
                out.push(
                    cx.report(span,
                        format!("`{keyword}` `{name}` is not a valid anchor name"),
                    )
                    .label(p.label)
                    .help(format!(
                        "Rename it (say, to `{}`) and update the `$ref`s to `#{name}`: an anchor name is a \
                         letter or `_` followed by letters, digits, `-`, `.` and `_`",
                        suggestion(name, sub.draft)
                    ))
                    .note(format!(
                        "Ajv takes an anchor name matching `^[A-Za-z_][-A-Za-z0-9._]*$`, the {} \
                         meta-schema one matching `{}`",
                        sub.draft,
                        if sub.draft == Draft::Draft201909 {
                            "^[A-Za-z][-A-Za-z0-9.:_]*$"
                        } else {
                            "^[A-Za-z_][-A-Za-z0-9._]*$"
                        }
                    ))
                    .class(class_of(name, sub.draft))
                    .pointer(format!("{}/{keyword}", sub.pointer)),
                );
            }
        }
        ajv_only(cx, out);
    }
}

/// Anchors only Ajv looks at: under draft-07 and earlier (where `$anchor` is no keyword), and
/// in objects it reaches through an unknown keyword. Ajv checks their names all the same.
fn ajv_only(cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(unit_root) = cx.root.pointer(&cx.unit.pointer) else {
        return;
    };
    let legacy = cx.unit.draft < Draft::Draft201909;
    for s in super::ajv_ids::seen(unit_root, &cx.unit.pointer) {
        if s.keyword == "$id" || !(s.hidden || legacy) {
            continue;
        }
        let Some(name) = s.value.as_str() else {
            continue;
        };
        if super::ajv_ids::ajv_anchor_name(name) {
            continue;
        }
        let keyword = s.keyword;
        out.push(
            cx.report(s.value.span,
                format!("`{keyword}` `{name}` is not a valid anchor name, and Ajv reads it"),
            )
            .label(if s.hidden {
                "inside an unknown keyword, where Ajv still looks"
            } else {
                "not a keyword of this dialect, but Ajv checks it"
            })
            .help(format!(
                "Rename it (say, to `{}`), or remove it: this dialect gives it no meaning",
                suggestion(name, Draft::Draft202012)
            ))
            .note(
                "Ajv collects anchors wherever it walks, in every dialect and through the object \
                 values of unknown keywords, and takes a name matching `^[A-Za-z_][-A-Za-z0-9._]*$`",
            )
            .class(classes::SL205_AJV_ONLY)
            .pointer(format!("{}/{keyword}", s.pointer)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchor_names() {
        for ok in ["foo", "_foo", "a-b.c_d", "A1"] {
            assert!(problem(ok, Draft::Draft202012).is_none(), "{ok}");
        }
        for (bad, range) in [
            ("1abc", 0..1),
            ("a b", 1..2),
            ("a:b", 1..2),
            ("", 0..0),
            ("-x", 0..1),
            ("aé", 1..3),
        ] {
            assert_eq!(
                problem(bad, Draft::Draft202012).map(|p| p.range),
                Some(range),
                "{bad}"
            );
        }
        assert!(problem("_foo", Draft::Draft201909).is_some());
        assert!(problem("a:b", Draft::Draft201909).is_some());
        assert_eq!(suggestion("1abc", Draft::Draft202012), "_1abc");
        assert_eq!(suggestion("my anchor", Draft::Draft202012), "my_anchor");
        assert_eq!(suggestion("_x", Draft::Draft201909), "a_x");
    }
}

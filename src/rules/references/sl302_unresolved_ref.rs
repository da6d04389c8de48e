//! SL302 unresolved-ref: a `$ref` or `$dynamicRef` that names nothing in its document or in
//! the linted set.

use super::defs_keys::{fragment_tokens, misspelled_step};
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL302 as META;
use crate::diagnostic::Diagnostic;
use crate::index::{RefEntry, Resolution};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::is_within;
use crate::syntax::document::{Node, NodeKind};
use crate::syntax::literal::literal;
use crate::syntax::uri::{absolute_uri, strip_fragment};
use std::ops::Range;

pub struct UnresolvedRef;

const NOTE: &str = "Nothing in this document or in the linted set answers to it, and a tool's \
schema reaches a client alone";

/// Why a reference leads nowhere: where in its value, and what is missing there.
struct Why {
    range: Range<usize>,
    label: String,
    help: String,
}

impl Rule for UnresolvedRef {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let index = cx.run.index;
        for r in index.refs_in(cx.file.id, cx.unit_no) {
            // A reference that is not a URI reference at all is SL301's finding.
            if crate::syntax::uri::check_uri_reference(&r.raw).is_err() {
                continue;
            }
            let resolution = index.resolve(r, |f| cx.run.root(f));
            if let Resolution::Found { file, pointer } = &resolution {
                out.extend(
                    dynamic_to_anchor(cx, r, *file, pointer).or_else(|| encoded_spelling(cx, r)),
                );
                continue;
            }
            let Resolution::Missing(_) = resolution else {
                continue;
            };
            // A `$defs` key written without its escapes is SL304's finding.
            if misspelled_step(cx.run, r, cx.settings.default_draft).is_some() {
                continue;
            }
            if resolves_ignoring_sibling_id(cx, r) {
                continue;
            }
            // A `$dynamicRef` to a name some schema declares may be bound at evaluation time,
            // through the dynamic scope, which a static look-up does not see.
            if r.keyword == "$dynamicRef"
                && r.raw
                    .split_once('#')
                    .is_some_and(|(_, f)| !f.starts_with('/') && index.anchor_declared(f))
            {
                continue;
            }
            // `#/items/01`: Python and the crate read an array index with leading zeros as the
            // number, Ajv does not (measured).
            if let Some(d) = leading_zeros(cx, r) {
                out.push(d);
                continue;
            }
            let Some(why) = explain(cx, r) else { continue };
            let pointer = r.pointer(cx.root);
            let span = cx.root.pointer(&pointer).map_or(r.span, |node| {
                node.string_sub_span(cx.text(), why.range.clone())
            });
            let mut diagnostic = cx
                .report(
                    span,
                    format!("`{}` `{}` resolves to nothing", r.keyword, r.raw),
                )
                .label(why.label)
                .note(NOTE)
                .class(if !cx.reach().is_reached(&r.holder(cx.root)) {
                    // No client compiles the entry that holds it.
                    classes::SL302_UNREACHABLE
                } else if r.keyword == "$dynamicRef" {
                    // Ajv's draft-07 class ignores `$dynamicRef`; its 2020-12 class binds one it
                    // cannot resolve to the root: neither throws (measured).
                    classes::SL302_DYNAMIC_MISSING
                } else if super::id_written_as(cx.root, &r.raw) {
                    classes::SL302_UNREGISTERED_ID
                } else if strip_fragment(&r.raw).is_empty() {
                    classes::SL302_MISSING
                } else {
                    classes::SL302_OTHER_DOCUMENT
                })
                .pointer(pointer);
            diagnostic = match container_swap(cx, r) {
                Some(new) => diagnostic
                    .help(format!(
                        "The subschema is under the other container: write `{new}`"
                    ))
                    .fix(Fix {
                        title: format!("Rewrite `{}` `{}` as `{new}`", r.keyword, r.raw),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: r.file,
                            span: r.span,
                            content: literal(&new),
                        }],
                        moves: Vec::new(),
                    }),
                None => diagnostic.help(why.help),
            };
            out.push(diagnostic);
        }
    }
}

/// A `$dynamicRef` to a plain-name fragment that only an `$anchor` declares, no `$dynamicAnchor`:
/// 2020-12 reads it as a `$ref` (Python and the crate do), Ajv's 2020-12 class (TS v2) binds it to
/// the root instead and its draft-07 class (TS v1) ignores it (measured). Written as a `$ref`, it
/// means the same to every engine.
fn dynamic_to_anchor(
    cx: &UnitContext<'_>,
    r: &RefEntry,
    file: crate::syntax::source::FileId,
    pointer: &str,
) -> Option<Diagnostic> {
    if r.keyword != "$dynamicRef" {
        return None;
    }
    let (_, name) = r.raw.split_once('#')?;
    if name.is_empty() || name.starts_with('/') {
        return None;
    }
    let target = cx.run.root(file)?.pointer(pointer)?;
    let dynamic = target.get("$dynamicAnchor").and_then(Node::as_str) == Some(name);
    if dynamic || target.get("$anchor").and_then(Node::as_str) != Some(name) {
        return None;
    }
    let holder = cx.root.pointer(&r.holder(cx.root))?;
    let member = holder.member("$dynamicRef")?;
    let diagnostic = cx
        .report(
            member.key_span,
            format!(
                "`$dynamicRef` `{}` names an `$anchor`, not a `$dynamicAnchor`",
                r.raw
            ),
        )
        .label("acts as a `$ref` here")
        .note(
            "A `$dynamicRef` whose target declares no `$dynamicAnchor` is a plain `$ref` in \
             2020-12, as Python's `jsonschema` and the Rust crate read it; Ajv's 2020-12 class \
             (TS v2) binds it to the schema's root instead, and its draft-07 class (TS v1) ignores \
             it",
        )
        .class(classes::SL302_DYNAMIC_TO_ANCHOR)
        .pointer(r.pointer(cx.root));
    // Beside a `$ref` of its own, the keyword cannot be renamed.
    if holder.get("$ref").is_some() {
        return Some(diagnostic.help(
            "Move it into an `allOf` entry of its own as a `$ref`: it means the same there, to \
             every engine",
        ));
    }
    Some(
        diagnostic
            .help("Write `$ref`: it means the same here, to every engine")
            .fix(Fix {
                title: format!("Rewrite `$dynamicRef` `{}` as a `$ref`", r.raw),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    file: r.file,
                    span: member.key_span,
                    content: literal("$ref"),
                }],
                moves: Vec::new(),
            }),
    )
}

/// A reference that names an invalid `$id` (`my region.json`) only percent-encoded
/// (`my%20region.json`). Python's `referencing` compares the URIs as written and finds nothing;
/// Ajv percent-encodes a `$id` it resolves against an enclosing `$id` and then finds it, but
/// keeps one that has no `$id` above it as written, and finds nothing either; the Rust crate
/// refuses the `$id` (SL201) (measured).
fn encoded_spelling(cx: &UnitContext<'_>, r: &RefEntry) -> Option<Diagnostic> {
    let index = cx.run.index;
    let target = index.target_resource(r).ok()?;
    let id = index.resources[target].id.as_ref().filter(|id| !id.valid)?;
    let uri_part = strip_fragment(&r.raw);
    let id_part = strip_fragment(&id.raw);
    if uri_part == id_part || !uri_part.contains('%') {
        return None;
    }
    let mut above = index.parent_resource(target);
    let mut based = false;
    while let Some(p) = above {
        based |= index.resources[p].id.is_some();
        above = index.parent_resource(p);
    }
    let pointer = r.pointer(cx.root);
    let span = cx.root.pointer(&pointer).map_or(r.span, |node| {
        node.string_sub_span(cx.text(), 0..uri_part.len())
    });
    Some(
        cx.report(
            span,
            format!(
                "`{}` `{}` names the `$id` `{}` only percent-encoded",
                r.keyword, r.raw, id.raw
            ),
        )
        .label("spelled otherwise than the `$id`")
        .note(if based {
            "Python's `referencing` compares URIs as written and finds nothing here; Ajv \
             percent-encodes the `$id` against the `$id` above it and finds it"
        } else {
            "Python's `referencing` compares URIs as written and finds nothing here, and so does \
             Ajv, which keeps a `$id` with no `$id` above it as written"
        })
        .help(
            "Fix the `$id` (SL201's fix renames it and rewrites every `$ref` to it, this one \
             included): then both are spelled the same",
        )
        .class(if based {
            classes::SL302_ENCODED_ID
        } else {
            classes::SL302_ENCODED_ID_UNBASED
        })
        .pointer(pointer),
    )
}

/// A reference whose JSON pointer resolves only once its array indexes lose their leading zeros
/// (`#/$defs/pair/prefixItems/01`), reported with the fix that drops them.
fn leading_zeros(cx: &UnitContext<'_>, r: &RefEntry) -> Option<Diagnostic> {
    let (uri, fragment) = r.raw.split_once('#')?;
    if !fragment.starts_with('/') {
        return None;
    }
    let mut changed = false;
    let tokens: Vec<&str> = fragment
        .split('/')
        .map(|t| {
            let zeros = t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit());
            if zeros {
                changed = true;
                let rest = t.trim_start_matches('0');
                if rest.is_empty() {
                    "0"
                } else {
                    rest
                }
            } else {
                t
            }
        })
        .collect();
    if !changed {
        return None;
    }
    let new = format!("{uri}#{}", tokens.join("/"));
    let mut probe = r.clone();
    probe.raw = new.as_str().into();
    let index = cx.run.index;
    if !matches!(
        index.resolve(&probe, |f| cx.run.root(f)),
        Resolution::Found { .. }
    ) {
        return None;
    }
    Some(
        cx.report(
            r.span,
            format!("`{}` `{}` writes an array index with leading zeros", r.keyword, r.raw),
        )
        .label("an array index with leading zeros")
        .help(format!("Write `{new}`"))
        .note(
            "RFC 6901 array indexes have no leading zeros: Ajv finds nothing there (`can't resolve \
             reference`), while Python's `referencing` and the Rust crate read the number",
        )
        .class(classes::SL302_LEADING_ZERO)
        .pointer(r.pointer(cx.root))
        .fix(Fix {
            title: format!("Rewrite `{}` `{}` as `{new}`", r.keyword, r.raw),
            applicability: Applicability::Safe,
            edits: vec![Edit {
                file: r.file,
                span: r.span,
                content: literal(&new),
            }],
            moves: Vec::new(),
        }),
    )
}

/// Up to draft-07 a `$ref` makes its siblings, `$id` included, be ignored: the reference then
/// resolves against the enclosing resource. Ajv honours the `$id` (and so does the index), so a
/// reference that resolves only the draft's way is left alone.
fn resolves_ignoring_sibling_id(cx: &UnitContext<'_>, r: &RefEntry) -> bool {
    let index = cx.run.index;
    let res = &index.resources[r.resource];
    if !res.draft.allows_id_fragment() || res.pointer != r.holder(cx.root) || res.id.is_none() {
        return false;
    }
    let Some(parent) = index.resources[..r.resource].iter().rposition(|p| {
        p.file == res.file
            && p.unit == res.unit
            && p.pointer != res.pointer
            && is_within(&res.pointer, &p.pointer)
    }) else {
        return false;
    };
    let mut probe = r.clone();
    probe.resource = parent;
    matches!(
        index.resolve(&probe, |f| cx.run.root(f)),
        Resolution::Found { .. }
    )
}

/// `reference` (no fragment) with its last path segment replaced by `name`.
pub(super) fn replace_last_segment(reference: &str, name: &str) -> String {
    match reference.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name.to_owned(),
    }
}

/// What is missing, or `None` when nothing is claimed (a reference to a whole document of the
/// set). A reference to a file outside the linted set is reported whether or not a file is there:
/// the disk is never looked at, so a schema cannot learn through the report which paths exist on
/// the machine that lints it.
fn explain(cx: &UnitContext<'_>, r: &RefEntry) -> Option<Why> {
    let index = cx.run.index;
    let uri_part = strip_fragment(&r.raw);
    let Ok(target) = index.target_resource(r) else {
        let base = index.resources[r.resource].base.as_deref();
        let range = 0..uri_part.len();
        let near = absolute_uri(base, uri_part)
            .and_then(|doc| super::did_you_mean(index, strip_fragment(&doc)));
        if let Some(near) = near {
            return Some(Why {
                range,
                label: format!(
                    "no document of the linted set has this name: did you mean `{near}`?"
                ),
                help: format!(
                    "Did you mean `{near}`? A document of the linted set beside it has that name: \
                     write `{}`",
                    replace_last_segment(uri_part, &near)
                ),
            });
        }
        return match absolute_uri(base, uri_part) {
            Some(doc) if doc.starts_with("file:") => Some(Why {
                range,
                label: "no file of the linted set has this path".to_owned(),
                help: "Lint the referenced file together with this one, or point the reference \
                       at a subschema of this document"
                    .to_owned(),
            }),
            Some(_) => Some(Why {
                range,
                label: "no schema of the linted set has this URI".to_owned(),
                help:
                    "Lint the file that declares this `$id` together with this one, or point the \
                       reference at a subschema of this document"
                        .to_owned(),
            }),
            None => Some(Why {
                range,
                label: "a tool's schema has no base URI to resolve this against".to_owned(),
                help:
                    "A tool's schema travels alone: move the referenced schema into this schema's \
                       `$defs` and reference it as `#/$defs/...`"
                        .to_owned(),
            }),
        };
    };
    let resource = &index.resources[target];
    let fragment_start = uri_part.len() + 1;
    let fragment = r.raw.get(fragment_start..).unwrap_or_default();
    if fragment.is_empty() {
        return None;
    }
    let whole_fragment = fragment_start..r.raw.len();
    if !fragment.starts_with('/') {
        let label = if resource.draft.allows_id_fragment() {
            format!("no `$id` `#{fragment}` in the target schema")
        } else {
            format!("no `$anchor` or `$dynamicAnchor` named `{fragment}` in the target schema")
        };
        return Some(Why {
            range: whole_fragment,
            label,
            help: "Name an anchor the target schema declares, or point at the subschema with a JSON pointer (`#/$defs/...`)".to_owned(),
        });
    }
    let help =
        "Point the reference at an existing subschema, or add the missing definition".to_owned();
    let Some(tokens) = fragment_tokens(fragment) else {
        return Some(Why {
            range: whole_fragment,
            label: "the percent-encoded pointer is not UTF-8".to_owned(),
            help,
        });
    };
    let node = cx.run.root(resource.file)?.pointer(&resource.pointer)?;
    let (k, parent) = first_missing(
        node,
        &tokens.iter().map(|t| t.value.as_str()).collect::<Vec<_>>(),
    )?;
    let token = &tokens[k].value;
    let label = match (k, parent) {
        (0, _) => format!("the target schema has no `{token}`"),
        (_, Some(NodeKind::Array(_))) => format!("`{}` has no item `{token}`", tokens[k - 1].value),
        (_, Some(NodeKind::Object(_))) => format!("`{}` has no `{token}`", tokens[k - 1].value),
        _ => format!("`{}` is not an object or array", tokens[k - 1].value),
    };
    // Point at the missing token where the fragment's segments line up with its tokens.
    let segments: Vec<&str> = fragment[1..].split('/').collect();
    let range = if segments.len() == tokens.len() {
        let start = fragment_start + 1 + segments[..k].iter().map(|s| s.len() + 1).sum::<usize>();
        start..start + segments[k].len()
    } else {
        whole_fragment
    };
    Some(Why { range, label, help })
}

/// The index of the first token that names nothing, with the kind of value it was looked up in.
fn first_missing<'n>(node: &'n Node, tokens: &[&str]) -> Option<(usize, Option<&'n NodeKind>)> {
    let mut current = node;
    for (k, token) in tokens.iter().enumerate() {
        let next = match &current.kind {
            NodeKind::Object(_) => current.get(token),
            NodeKind::Array(items) => token
                .parse::<usize>()
                .ok()
                .filter(|_| *token == "0" || !token.starts_with('0'))
                .and_then(|n| items.get(n)),
            _ => None,
        };
        match next {
            Some(n) => current = n,
            None => return Some((k, Some(&current.kind))),
        }
    }
    None
}

/// `#/definitions/X` for `#/$defs/X` (or the other way round), when exactly one such swap of a
/// container token makes the reference resolve.
fn container_swap(cx: &UnitContext<'_>, r: &RefEntry) -> Option<String> {
    let (uri_part, fragment) = r.raw.split_once('#')?;
    let segments: Vec<&str> = fragment.strip_prefix('/')?.split('/').collect();
    let mut found = Vec::new();
    for (k, segment) in segments.iter().enumerate() {
        let other = match *segment {
            "definitions" => "$defs",
            "$defs" => "definitions",
            _ => continue,
        };
        let mut swapped = segments.clone();
        swapped[k] = other;
        let candidate = format!("{uri_part}#/{}", swapped.join("/"));
        let mut probe = r.clone();
        probe.raw = candidate.as_str().into();
        if matches!(
            cx.run.index.resolve(&probe, |f| cx.run.root(f)),
            Resolution::Found { .. }
        ) {
            found.push(candidate);
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

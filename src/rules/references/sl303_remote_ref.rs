//! SL303 remote-ref: a `$ref` or `$dynamicRef` to an `http(s)` URI that no schema of the linted
//! set declares. Nothing is ever fetched, so it resolves only where someone preloads it. A
//! meta-schema is reported only where a client does not ship it (measured: each Ajv class and the
//! Rust crate ship the meta-schema of their own dialect only).

use crate::diagnostic::breaks::{classes, Class};
use crate::diagnostic::meta::SL303 as META;
use crate::diagnostic::target::Target;
use crate::diagnostic::Diagnostic;
use crate::index::Resolution;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::uri::strip_fragment;

pub struct RemoteRef;

/// Whether `uri` (no fragment) is a JSON Schema meta-schema or vocabulary meta-schema, which
/// the engines ship with.
fn is_meta_schema(uri: &str) -> bool {
    if Draft::from_schema_uri(uri).is_some() {
        return true;
    }
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(uri);
    rest.starts_with("json-schema.org/draft/2019-09/meta/")
        || rest.starts_with("json-schema.org/draft/2020-12/meta/")
}

/// Whether `uri` is the meta-schema of a 2019-09 or 2020-12 schema's own dialect, on a plain
/// schema file: every consumer of plain schemas that reads the file in its dialect ships that
/// meta-schema (measured: vscode-json resolves both without a request, Python's `jsonschema`
/// and the Rust crate their own dialect's, Ajv2019 and Ajv2020 theirs). Only the TS v1 client
/// fails, as it reads every schema with Ajv's draft-07 class: an MCP client's configuration.
fn own_meta_schema_on_plain(target: Target, draft: Draft, uri: &str) -> bool {
    target == Target::JsonSchema
        && matches!(draft, Draft::Draft201909 | Draft::Draft202012)
        && Draft::from_schema_uri(uri) == Some(draft)
}

/// Whether `uri` (no fragment) names a dialect's meta-schema in another spelling than its own
/// (`https://json-schema.org/draft-07/schema`, `http://json-schema.org/draft/2020-12/schema`).
fn misspelt_meta_schema(uri: &str) -> bool {
    Draft::from_schema_uri(uri).is_some_and(|d| {
        let own = d.uri().trim_end_matches('#');
        uri.trim_end_matches('#') != own
    })
}

impl Rule for RemoteRef {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let index = cx.run.index;
        for r in index.refs_in(cx.file.id, cx.unit_no) {
            let Resolution::Remote(uri) = index.resolve(r, |f| cx.run.root(f)) else {
                continue;
            };
            let Some(class) = class_of(cx, r, &uri) else {
                continue;
            };
            let pointer = r.pointer(cx.root);
            let uri_part = strip_fragment(&r.raw);
            let span = cx.root.pointer(&pointer).map_or(r.span, |node| {
                node.string_sub_span(cx.text(), 0..uri_part.len())
            });
            if class == classes::SL303_UNREGISTERED_ID {
                out.push(unregistered(cx, r, span, pointer));
                continue;
            }
            if let Some(id) = whole_id_with_fragment(cx, &uri)
                .filter(|_| cx.reach().is_reached(&r.holder(cx.root)))
            {
                out.push(
                    cx.report(
                        span,
                        format!(
                            "`{}` `{}` names the document of the `$id` `{id}`, which engines \
                             register only whole",
                            r.keyword, r.raw
                        ),
                    )
                    .label("no schema is registered under this URI")
                    .help(format!(
                        "Remove the fragment from the `$id` (`{}`), so that it names the document",
                        strip_fragment(id)
                    ))
                    .note(format!(
                        "Up to draft-07, every engine registers a `$id` with a fragment under the \
                         whole URI, fragment included; nothing answers to `{uri}`, and nothing \
                         is fetched"
                    ))
                    .class(class)
                    .pointer(pointer),
                );
                continue;
            }
            let remote = class == classes::SL303_REMOTE || class == classes::SL303_UNREACHABLE;
            let message = if remote {
                format!(
                    "`{}` `{}` names a remote schema that is never fetched",
                    r.keyword, r.raw
                )
            } else {
                format!(
                    "`{}` `{}` names a meta-schema that not every client ships",
                    r.keyword, r.raw
                )
            };
            // A relative reference with a typo, resolved against an absolute base, reads as a
            // remote schema: name the document of the run it was meant for.
            if remote && !uri_part.contains(':') {
                if let Some(d) = typo(cx, r, &uri, span, &pointer, class) {
                    out.push(d);
                    continue;
                }
            }
            out.push(
                cx.report(span, message)
                .label(if remote {
                    "not in the linted set, never fetched"
                } else {
                    "a meta-schema that some clients do not ship"
                })
                .help(if remote {
                    "Copy the referenced schema into this schema's `$defs` and reference it as \
                     `#/$defs/...`, or lint the file that declares this `$id` together with this one"
                } else {
                    "Copy the part of the meta-schema you need into this schema's `$defs`, or \
                     describe the value with a schema of your own"
                })
                .note(if remote && cx.target == Target::JsonSchema {
                    "A plain schema file is read by editors and validators with a retriever, \
                     which fetch the remote schema, and by validators that work offline, which \
                     cannot resolve it: the schema then depends on that host serving it"
                } else if remote {
                    "MCP 2026-07-28 says a `$ref` to a network URI MUST NOT be dereferenced \
                     automatically, and SHOULD be rejected when it does not resolve"
                } else {
                    "A meta-schema resolves where the engine ships it, and engines ship the \
                     meta-schemas of the dialects they implement"
                })
                .class(class)
                .pointer(pointer),
            );
        }
    }
}

/// The class of a reference that resolves to the remote `uri`, or `None` for a meta-schema
/// reference no client breaks on (or one a plain file's consumers all ship).
fn class_of(cx: &UnitContext<'_>, r: &crate::index::RefEntry, uri: &str) -> Option<Class> {
    // No client compiles a `$defs` entry that nothing references.
    let reached = cx.reach().is_reached(&r.holder(cx.root));
    let class = if misspelt_meta_schema(uri) {
        // Engines ship each meta-schema under its own spelling only (measured: the
        // `https:` draft-07 and the `http:` 2020-12 meta-schemas resolve nowhere).
        classes::SL303_REMOTE
    } else if is_meta_schema(uri) {
        match meta_schema_class(cx.unit.draft, uri).or_else(|| vocabulary_class(cx.unit.draft, uri))
        {
            Some(class)
                if !class.breaks.is_empty()
                    && !own_meta_schema_on_plain(cx.target, cx.unit.draft, uri) =>
            {
                class
            }
            _ => return None,
        }
    } else if reached && super::id_written_as(cx.root, &r.raw) {
        classes::SL303_UNREGISTERED_ID
    } else if reached {
        classes::SL303_REMOTE
    } else {
        classes::SL303_UNREACHABLE
    };
    Some(class)
}

/// The finding on a relative reference that, but for a small typo, names a document of the run
/// (`line-item.json` beside `line_item.json`): "did you mean", rather than a remote schema.
fn typo(
    cx: &UnitContext<'_>,
    r: &crate::index::RefEntry,
    uri: &str,
    span: crate::syntax::source::Span,
    pointer: &str,
    class: Class,
) -> Option<Diagnostic> {
    let near = super::did_you_mean(cx.run.index, uri)?;
    let uri_part = strip_fragment(&r.raw);
    Some(
        cx.report(
            span,
            format!(
                "`{}` `{}` names a document the linted set does not hold: did you mean `{near}`?",
                r.keyword, r.raw
            ),
        )
        .label(format!(
            "no document of the linted set has this name: did you mean `{near}`?"
        ))
        .help(format!(
            "Did you mean `{near}`? A schema of the linted set beside it declares that name: \
             write `{}`",
            super::sl302_unresolved_ref::replace_last_segment(uri_part, &near)
        ))
        .note(
            "Resolved against the base URI, the reference names a network URI that no schema of \
             the linted set declares, so it is never fetched",
        )
        .class(class)
        .pointer(pointer.to_owned()),
    )
}

/// The `$id` of this unit, written with a fragment in a dialect that allows one
/// (`https://example.com/item.json#foo`), whose document part is `uri`.
fn whole_id_with_fragment<'a>(cx: &UnitContext<'a>, uri: &str) -> Option<&'a str> {
    let index = cx.run.index;
    index
        .resources_in(cx.file.id, cx.unit_no)
        .map(|i| &index.resources[i])
        .filter(|res| res.draft.allows_id_fragment() && res.base.as_deref() == Some(uri))
        .find_map(|res| {
            let id = res.id.as_ref()?;
            let (_, fragment) = id.raw.split_once('#')?;
            (!fragment.is_empty()).then_some(id.raw.as_str())
        })
}

/// A reference to an `$id` of this document that its dialect does not read as a resource
/// ([`super::id_written_as`]): Ajv finds it, the Python clients and the crate look for a remote
/// schema.
fn unregistered(
    cx: &UnitContext<'_>,
    r: &crate::index::RefEntry,
    span: crate::syntax::source::Span,
    pointer: String,
) -> Diagnostic {
    cx.report(
        span,
        format!(
            "`{}` `{}` names an `$id` of this schema that {} does not read as a resource",
            r.keyword, r.raw, cx.unit.draft
        ),
    )
    .label("Ajv finds this `$id`; the Python clients and the Rust crate do not")
    .help(
        "Put the subschema under `definitions` in draft-07 (or `$defs` in 2019-09 and later), \
         write `id` for its identifier in draft-04, or reference it by its JSON pointer \
         (`#/definitions/...`)",
    )
    .note(
        "Each dialect reads `$id` only where it expects a schema: an `$id` under a keyword the \
         dialect does not know is data to the Python clients and the crate, which then look for \
         a remote schema they never fetch",
    )
    .class(classes::SL303_UNREGISTERED_ID)
    .pointer(pointer)
}

/// The class of a `$ref` from a 2020-12 schema to a vocabulary meta-schema
/// (`https://json-schema.org/draft/2020-12/meta/validation`), measured: the TS v1 client's
/// draft-07 Ajv ships none (`can't resolve reference`); TS v2's Ajv2020 and the crate ship
/// 2020-12's but not 2019-09's; Python resolves both and checks less. `None` for another
/// dialect, which no case measures.
fn vocabulary_class(draft: Draft, uri: &str) -> Option<Class> {
    if draft != Draft::Draft202012 || Draft::from_schema_uri(uri).is_some() {
        return None;
    }
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(uri);
    if rest.starts_with("json-schema.org/draft/2020-12/meta/") {
        Some(classes::SL303_VOCABULARY_2020_12)
    } else if rest.starts_with("json-schema.org/draft/2019-09/meta/") {
        Some(classes::SL303_VOCABULARY_2019_09)
    } else {
        None
    }
}

/// The class of a `$ref` to a dialect's meta-schema from a schema of `draft`
/// (`SL303/meta-schema:draft7>2020-12`); `None` from a draft-04 schema, which the TS v2 client
/// refuses whatever it references (SL402), or for another URI (a vocabulary meta-schema).
fn meta_schema_class(draft: Draft, uri: &str) -> Option<Class> {
    let named = Draft::from_schema_uri(uri)?;
    let class = match (draft, named) {
        (Draft::Draft4, _) => return None,
        (Draft::Draft6, Draft::Draft4) => classes::SL303_META_SCHEMA_DRAFT6_DRAFT4,
        (Draft::Draft6, Draft::Draft6) => classes::SL303_META_SCHEMA_DRAFT6_DRAFT6,
        (Draft::Draft6, Draft::Draft7) => classes::SL303_META_SCHEMA_DRAFT6_DRAFT7,
        (Draft::Draft6, Draft::Draft201909) => classes::SL303_META_SCHEMA_DRAFT6_2019_09,
        (Draft::Draft6, Draft::Draft202012) => classes::SL303_META_SCHEMA_DRAFT6_2020_12,
        (Draft::Draft7, Draft::Draft4) => classes::SL303_META_SCHEMA_DRAFT7_DRAFT4,
        (Draft::Draft7, Draft::Draft6) => classes::SL303_META_SCHEMA_DRAFT7_DRAFT6,
        (Draft::Draft7, Draft::Draft7) => classes::SL303_META_SCHEMA_DRAFT7_DRAFT7,
        (Draft::Draft7, Draft::Draft201909) => classes::SL303_META_SCHEMA_DRAFT7_2019_09,
        (Draft::Draft7, Draft::Draft202012) => classes::SL303_META_SCHEMA_DRAFT7_2020_12,
        (Draft::Draft201909, Draft::Draft4) => classes::SL303_META_SCHEMA_2019_09_DRAFT4,
        (Draft::Draft201909, Draft::Draft6) => classes::SL303_META_SCHEMA_2019_09_DRAFT6,
        (Draft::Draft201909, Draft::Draft7) => classes::SL303_META_SCHEMA_2019_09_DRAFT7,
        (Draft::Draft201909, Draft::Draft201909) => classes::SL303_META_SCHEMA_2019_09_2019_09,
        (Draft::Draft201909, Draft::Draft202012) => classes::SL303_META_SCHEMA_2019_09_2020_12,
        (Draft::Draft202012, Draft::Draft4) => classes::SL303_META_SCHEMA_2020_12_DRAFT4,
        (Draft::Draft202012, Draft::Draft6) => classes::SL303_META_SCHEMA_2020_12_DRAFT6,
        (Draft::Draft202012, Draft::Draft7) => classes::SL303_META_SCHEMA_2020_12_DRAFT7,
        (Draft::Draft202012, Draft::Draft201909) => classes::SL303_META_SCHEMA_2020_12_2019_09,
        (Draft::Draft202012, Draft::Draft202012) => classes::SL303_META_SCHEMA_2020_12_2020_12,
    };
    Some(class)
}

#[cfg(test)]
mod tests {
    use super::is_meta_schema;

    #[test]
    fn meta_schemas_are_known() {
        assert!(is_meta_schema("http://json-schema.org/draft-07/schema"));
        assert!(is_meta_schema(
            "https://json-schema.org/draft/2020-12/schema"
        ));
        assert!(is_meta_schema(
            "https://json-schema.org/draft/2020-12/meta/core"
        ));
        assert!(!is_meta_schema("https://example.com/schema"));
        assert!(super::misspelt_meta_schema(
            "https://json-schema.org/draft-07/schema"
        ));
        assert!(super::misspelt_meta_schema(
            "http://json-schema.org/draft/2020-12/schema"
        ));
        assert!(!super::misspelt_meta_schema(
            "http://json-schema.org/draft-07/schema"
        ));
    }
}

//! SL303 remote-ref: a `$ref` or `$dynamicRef` to an `http(s)` URI that no schema of the linted
//! set declares. Nothing is ever fetched, so it resolves only where someone preloads it.

use crate::diagnostic::meta::SL303 as META;
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
            if is_meta_schema(&uri) {
                continue;
            }
            let pointer = r.pointer(cx.root);
            let uri_part = strip_fragment(&r.raw);
            let span = cx.root.pointer(&pointer).map_or(r.span, |node| {
                node.string_sub_span(cx.text(), 0..uri_part.len())
            });
            out.push(
                Diagnostic::new(
                    &META,
                    cx.file.id,
                    span,
                    format!("`{}` `{}` names a remote schema that is never fetched", r.keyword, r.raw),
                )
                .label("not in the linted set, never fetched")
                .help(
                    "Copy the referenced schema into this schema's `$defs` and reference it as \
                     `#/$defs/...`, or lint the file that declares this `$id` together with this one",
                )
                .note(
                    "MCP 2026-07-28 says a `$ref` to a network URI MUST NOT be dereferenced automatically, \
                     and no MCP SDK fetches one: the TypeScript v1 client's `listTools()` throws on the \
                     unresolvable reference (every tool of the server is lost), the TS v2 client fails \
                     this tool, and the Python client resolves only same-document references",
                )
                .pointer(pointer),
            );
        }
    }
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
    }
}

//! SL203 urn-not-portable: an absolute `urn:` `$id` that RFC 3986 accepts but Ajv rejects.

use crate::diagnostic::meta::SL203 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::uri::{check_uri_reference, underscore_repair, urn_problem};

pub struct UrnNotPortable;

impl Rule for UrnNotPortable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            let Some(id) = sub.id() else { continue };
            let Some(value) = id.as_str() else { continue };
            if check_uri_reference(value).is_err() {
                continue;
            }
            let Some(problem) = urn_problem(value) else {
                continue;
            };
            let keyword = sub.draft.id_keyword();
            let help = match underscore_repair(value) {
                Some(fixed) => format!("Rename it to `{fixed}` and update the `$ref`s that name it"),
                None => "Give the URN a namespace and a namespace-specific string, as in `urn:mcp:my_tool:output`".to_owned(),
            };
            let diagnostic = Diagnostic::new(
                    &META,
                    cx.file.id,
                    id.string_sub_span(cx.text(), problem.range.clone()),
                    format!("`{keyword}` `{value}` is a URN that Ajv cannot handle"),
                )
                .label(problem.label)
                .help(help)
                .note(format!(
                    "RFC 3986 accepts it, but {}: Ajv (fast-uri) throws `URN without nid cannot be \
                     serialized` or loses part of the id, so TypeScript clients cannot compile the schema",
                    problem.reason
                ))
                .pointer(format!("{}/{keyword}", sub.pointer));
            out.push(match crate::rules::edits::id_fix::invalid_id_fix(cx, sub) {
                Some(fix) => diagnostic.fix(fix),
                None => diagnostic,
            });
        }
    }
}

//! SL203 urn-not-portable: a root `urn:` `$id` that RFC 3986 accepts but Ajv rejects. Ajv
//! handles the same URN on a nested subschema (measured: `testdata/engines/`), so only a
//! schema's root is reported.

use crate::diagnostic::breaks::classes;
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
        // The root comes first; Ajv refuses such a URN only there.
        for sub in cx.subschemas.iter().take(1) {
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
                None => "Give the URN a namespace and a namespace-specific string: `urn:<namespace>:<name>`".to_owned(),
            };
            let diagnostic = cx
                .report(
                    id.string_sub_span(cx.text(), problem.range.clone()),
                    format!("`{keyword}` `{value}` is a URN that Ajv cannot handle"),
                )
                .label(problem.label)
                .help(help)
                .note(format!(
                "RFC 3986 accepts it, but {}: fast-uri, Ajv's URI library, cannot serialise it \
                     when it is a schema's root `$id`",
                problem.reason
            ))
                .class(classes::SL203_ROOT)
                .pointer(format!("{}/{keyword}", sub.pointer));
            out.push(match crate::rules::edits::id_fix::invalid_id_fix(cx, sub) {
                Some(fix) => diagnostic.fix(fix),
                None => diagnostic,
            });
        }
    }
}

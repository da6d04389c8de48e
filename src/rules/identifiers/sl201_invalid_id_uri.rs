//! SL201 invalid-id-uri: a `$id` (draft-04: `id`) that is not an RFC 3986 URI-reference.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL201 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::edits::id_fix::repaired_id;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::uri::{check_uri_reference, has_malformed_scheme};

pub struct InvalidIdUri;

impl Rule for InvalidIdUri {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            let Some(id) = sub.id() else { continue };
            let Some(value) = id.as_str() else { continue };
            let Err(problem) = check_uri_reference(value) else {
                continue;
            };
            let keyword = sub.draft.id_keyword();
            let help = match repaired_id(value, sub.draft) {
                // A bare name (`my_tool_output`) can become a URN; a path (`./b_ase.json`) or
                // a URL stays what it is.
                Some(fixed) if fixed.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
                    && !fixed.starts_with('.')
                    && !fixed.to_ascii_lowercase().ends_with(".json") =>
                {
                    format!(
                        "Rename it to `{fixed}`, or to an absolute URI such as `urn:mcp:{fixed}`, and update the \
                         `$ref`s that name it; or drop the `{keyword}` and reach this schema through `$defs`"
                    )
                }
                Some(fixed) => format!(
                    "Rename it to `{fixed}` and update the `$ref`s that name it; or drop the `{keyword}` \
                     and reach this schema through `$defs`"
                ),
                None => format!(
                    "This value needs a human: write a valid URI reference ({}), or drop the `{keyword}`",
                    problem.reason
                ),
            };
            let help = match (generated_by(cx), repaired_id(value, sub.draft)) {
                (Some(made_by), Some(fixed)) => match where_to_set(made_by, &fixed) {
                    Some(there) => format!("{help}. {there}"),
                    None => help,
                },
                _ => help,
            };
            let diagnostic = cx
                .report(
                    id.string_sub_span(cx.text(), problem.range.clone()),
                    format!("`{keyword}` `{value}` is not a valid URI reference"),
                )
                .label(problem.label)
                .help(help)
                .note(crate::syntax::literal::capitalise(&problem.reason))
                .class(if has_malformed_scheme(value) {
                    classes::SL201_MALFORMED_SCHEME
                } else {
                    classes::SL201_INVALID
                })
                .pointer(format!("{}/{keyword}", sub.pointer));
            out.push(match crate::rules::edits::id_fix::invalid_id_fix(cx, sub) {
                Some(fix) => diagnostic.fix(fix),
                None => diagnostic,
            });
        }
    }
}

/// The generator that wrote the schema, for a schema that is a tool's output or input schema
/// or one linted for an MCP target (where a generator writes it): not a scope, SL201 lints every
/// schema, but where its help names the server's code.
fn generated_by(cx: &UnitContext<'_>) -> Option<Generator> {
    (cx.target.is_mcp() || cx.unit.tool.is_some())
        .then(|| cx.generator())
        .flatten()
}

/// Where the generator takes the `$id` from, in the server's code (for the generators whose
/// spelling of it is known).
fn where_to_set(made_by: Generator, fixed: &str) -> Option<String> {
    match made_by {
        Generator::Zod => Some(format!(
            "The id comes from the zod schema's metadata: set it there, `.meta({{ $id: '{fixed}' }})`"
        )),
        Generator::Pydantic => Some(format!(
            "The id comes from the Pydantic model: set it there, \
             `model_config = ConfigDict(json_schema_extra={{\"$id\": \"{fixed}\"}})`"
        )),
        Generator::Schemars => None,
    }
}

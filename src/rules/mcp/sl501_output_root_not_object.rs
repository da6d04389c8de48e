//! SL501 output-root-not-object: an output schema whose root is not `"type": "object"`, which
//! MCP requires through 2025-11-25.

use super::shape as mcp;
use crate::diagnostic::breaks::{classes, Class};
use crate::diagnostic::fix::Applicability;
use crate::diagnostic::meta::SL501 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::settings::target::Target;
use crate::syntax::document::{Member, Node, NodeKind};

pub struct OutputRootNotObject;

const NOTE: &str = "MCP 2025-06-18 and 2025-11-25 restrict output schemas to `\"type\": \"object\"` at the \
     root, and the SDK clients parse `tools/list` by that rule (the TS clients with `type: \
     z.literal(\"object\")`, the Python client with `type: Literal[\"object\"]`): one such schema fails \
     the whole listing (typescript-sdk #1149, fastmcp #2455)";

const WRAP_HELP: &str = "Wrap the output in an object, `{\"type\": \"object\", \"properties\": {\"result\": ...}, \
     \"required\": [\"result\"]}`, as the Python SDK and the TS v2 server do for non-object results";

impl Rule for OutputRootNotObject {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.subschemas.first().map(|s| s.node) else {
            return;
        };
        let pointer = &cx.unit.pointer;
        let members = match &root.kind {
            NodeKind::Object(members) => members,
            NodeKind::Bool(b) => {
                let diagnostic = cx
                    .report(
                        root.span,
                        format!("Output schema is the boolean `{b}`, not an object schema"),
                    )
                    .label("not `{\"type\": \"object\"}`")
                    .help(WRAP_HELP)
                    .pointer(pointer.clone());
                out.push(measured(diagnostic, cx.target, classes::SL501_BOOLEAN_ROOT));
                return;
            }
            _ => return,
        };
        match root.member("type") {
            Some(m) if m.value.as_str() == Some("object") => {}
            Some(m) => out.push(wrong_type(cx, m)),
            None => out.push(missing_type(cx, root, members)),
        }
    }
}

/// `"type"` is there but is not the string `"object"`.
fn wrong_type(cx: &UnitContext<'_>, m: &Member) -> Diagnostic {
    let shown = m.value.to_value().to_string();
    let diagnostic = cx
        .report(
            m.value.span,
            format!("Output schema root has `\"type\": {shown}` instead of `\"type\": \"object\"`"),
        )
        .label("must be the string `\"object\"`")
        .pointer(format!("{}/type", cx.unit.pointer));
    let object_listed = m
        .value
        .as_array()
        .is_some_and(|a| a.iter().any(|t| t.as_str() == Some("object")));
    // A list that names `"object"` fails the 2.x clients' literal comparison, but not the
    // Python 1.x client's looser model.
    let class = if object_listed {
        classes::SL501_OBJECT_IN_TYPE_LIST
    } else {
        classes::SL501_OTHER_TYPE
    };
    let diagnostic = measured(diagnostic, cx.target, class);
    if let Some(fix) = mcp::single_object_type(cx, m) {
        // `["object"]` validates exactly what `"object"` does.
        diagnostic
            .help("Write the type as the string `\"object\"`: the clients compare it literally")
            .fix(fix)
    } else if object_listed {
        diagnostic.help(
            "Keep only `\"object\"`: the 2025 revisions allow nothing else at the root; put a value \
             that may be null in a property instead",
        )
    } else {
        diagnostic.help(WRAP_HELP)
    }
}

/// No `"type"` at the root.
fn missing_type(cx: &UnitContext<'_>, root: &Node, members: &[Member]) -> Diagnostic {
    let diagnostic = cx
        .report(
            mcp::opening(root),
            "Output schema root has no `\"type\": \"object\"`",
        )
        .label("no `type` in this object")
        .pointer(cx.unit.pointer.clone());
    let diagnostic = measured(diagnostic, cx.target, classes::SL501_MISSING_TYPE);
    // Every instance the root accepts is an object already (its `$ref` or every branch of its
    // union says so): `"type": "object"` beside it validates exactly the same values.
    let proven = mcp::object_only_root(cx, root).map(|how| (how, Applicability::Safe));
    let keyword = mcp::OBJECT_KEYWORDS
        .iter()
        .find(|k| root.get(k).is_some())
        .map(|k| (format!("it has `{k}`"), Applicability::Unsafe));
    let fix = proven
        .or(keyword)
        .and_then(|(reason, a)| Some((reason, mcp::add_object_type(cx, root, members, a)?)));
    let help = match &fix {
        Some((reason, _)) => {
            format!("The root is meant to be an object ({reason}): add `\"type\": \"object\"`")
        }
        None => WRAP_HELP.to_owned(),
    };
    let help = match in_code(cx, root) {
        Some(there) => format!("{help}. {there}"),
        None => help,
    };
    match fix {
        Some((_, fix)) => diagnostic.help(help).fix(fix),
        None => diagnostic.help(help),
    }
}

/// Where a typeless root comes from in the server's code, when the schema shows the generator
/// that wrote it (see [`generator`]), and what to change there; the JSON is regenerated from it.
/// Checked with zod 4.6.7 and the TS v1 server 1.32.2, Pydantic 2.14.4 and the `mcp` 2.3.0
/// server, schemars 1.
fn in_code(cx: &UnitContext<'_>, root: &Node) -> Option<&'static str> {
    let by_ref = root.get("$ref").is_some();
    let union = root.get("oneOf").is_some() || root.get("anyOf").is_some();
    match cx.generator()? {
        // `z.toJSONSchema` moves a root with an `id` into `definitions`/`$defs` and refers to it.
        Generator::Zod if by_ref => Some(
            "zod writes this root `$ref` for an output schema declared with `.meta({ id })`: \
             drop the `id` (`.meta({ title })` keeps a name); the TS v2 server adds the type to \
             such a root itself, the TS v1 server does not",
        ),
        // `model_json_schema()` of a recursive model is `{"$defs": {...}, "$ref": ...}`.
        Generator::Pydantic if by_ref => Some(
            "Pydantic writes a recursive model as a root `$ref`: the `mcp` 2.3.0 server writes \
             it inline, with the type; with a server that passes it on as it is, return a model \
             that holds the recursive one as a field",
        ),
        Generator::Schemars if union => Some(
            "schemars writes a Rust enum as a root `oneOf`/`anyOf` without `type`: add it on the \
             enum, `#[schemars(extend(\"type\" = \"object\"))]`, when every variant is an object",
        ),
        _ => None,
    }
}

/// The note and class of a finding: measured on the 2025 revisions; on 2026-07-28 the 2025
/// clients' breaks in the note, a warning (see [`mcp::measured`]).
fn measured(d: Diagnostic, target: Target, class: Class) -> Diagnostic {
    mcp::measured(
        d,
        target.requires_object_root(),
        NOTE,
        class,
        "A server that also serves 2025 sessions should keep an object root",
    )
}

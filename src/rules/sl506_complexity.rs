//! SL506 complexity: an output schema nested deeper, or holding more subschemas or `$defs`
//! entries, than a client that bounds schema complexity (as MCP 2026-07-28 asks) may accept.

use super::mcp;
use super::{Category, FixAvailability, Rule, RuleMeta, UnitContext};
use crate::diagnostic::{Diagnostic, Severity};
use crate::target::Target;

pub struct Complexity;

static META: RuleMeta = RuleMeta {
    code: "SL506",
    name: "complexity",
    summary: "An output schema is nested deeper, or holds more subschemas or `$defs`, than clients may bound",
    category: Category::Mcp,
    severity: Severity::Warning,
    fix: FixAvailability::None,
    default_enabled: false,
};

/// Deepest nesting of subschemas below the root (the root is depth 0).
pub const MAX_DEPTH: usize = 32;
/// Most subschemas in one output schema, the root included.
pub const MAX_SUBSCHEMAS: usize = 1000;
/// Most `$defs` (or `definitions`) entries in one output schema, at any depth.
pub const MAX_DEFS: usize = 200;

const NOTE: &str = "MCP 2026-07-28 asks implementations to bound the complexity of the schemas they \
     accept (nesting depth, number of subschemas): a client may refuse a schema above its bounds, and \
     compiling a large one costs every client time on each `tools/list`. The bounds used here: depth 32, \
     1000 subschemas, 200 `$defs` entries";

impl Rule for Complexity {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn severity(&self, target: Target) -> Option<Severity> {
        target.is_mcp().then_some(META.severity)
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        if !mcp::applies(cx) {
            return;
        }
        let Some(root) = cx.subschemas.first() else {
            return;
        };
        if let Some(deepest) = cx
            .subschemas
            .iter()
            .max_by_key(|s| (s.depth, usize::MAX - s.node.span.start))
        {
            if deepest.depth > MAX_DEPTH {
                out.push(
                    Diagnostic::new(
                        &META,
                        cx.file.id,
                        mcp::opening(deepest.node),
                        format!(
                            "Output schema nests subschemas {} levels deep, more than {MAX_DEPTH}",
                            deepest.depth
                        ),
                    )
                    .label(format!("{} levels below the root", deepest.depth))
                    .help("Flatten the schema: name repeated shapes in `$defs` and reference them")
                    .note(NOTE)
                    .pointer(deepest.pointer.clone()),
                );
            }
        }
        let count = cx.subschemas.len();
        if count > MAX_SUBSCHEMAS {
            out.push(
                Diagnostic::new(
                    &META,
                    cx.file.id,
                    mcp::opening(root.node),
                    format!("Output schema holds {count} subschemas, more than {MAX_SUBSCHEMAS}"),
                )
                .label("this schema")
                .help("Split the tool, or describe less of its output")
                .note(NOTE)
                .pointer(root.pointer.clone()),
            );
        }
        let defs = cx
            .subschemas
            .iter()
            .filter(|s| matches!(s.keyword, Some("$defs" | "definitions")))
            .count();
        if defs > MAX_DEFS {
            let span = ["$defs", "definitions"]
                .iter()
                .find_map(|k| root.node.member(k))
                .map_or_else(|| mcp::opening(root.node), |m| m.key_span);
            out.push(
                Diagnostic::new(
                    &META,
                    cx.file.id,
                    span,
                    format!("Output schema holds {defs} `$defs` entries, more than {MAX_DEFS}"),
                )
                .label("too many definitions")
                .help("Drop the definitions the schema does not reference, or split the tool")
                .note(NOTE)
                .pointer(root.pointer.clone()),
            );
        }
    }
}

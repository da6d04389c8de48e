//! SL506 complexity: an output schema nested deeper, or holding more subschemas or `$defs`
//! entries, than a client that bounds schema complexity (as MCP 2026-07-28 asks) may accept.

use super::shape as mcp;
use crate::diagnostic::meta::SL506 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};

pub struct Complexity;

/// Deepest nesting of subschemas below the root (the root is depth 0), by default.
pub const MAX_DEPTH: usize = 32;
/// Most subschemas in one output schema, the root included, by default.
pub const MAX_SUBSCHEMAS: usize = 1000;
/// Most `$defs` (or `definitions`) entries in one output schema, at any depth, by default.
pub const MAX_DEFS: usize = 200;

/// The bounds in force: `[rules.SL506]` of `schema-lint.toml` over the defaults.
#[derive(Clone, Copy)]
struct Bounds {
    depth: usize,
    subschemas: usize,
    defs: usize,
}

impl Bounds {
    fn of(cx: &UnitContext<'_>) -> Self {
        let set = cx
            .settings
            .config
            .as_deref()
            .map(|c| c.complexity)
            .unwrap_or_default();
        Self {
            depth: set.max_depth.unwrap_or(MAX_DEPTH),
            subschemas: set.max_subschemas.unwrap_or(MAX_SUBSCHEMAS),
            defs: set.max_defs.unwrap_or(MAX_DEFS),
        }
    }

    fn note(self) -> String {
        format!(
            "MCP 2026-07-28 asks implementations to bound the complexity of the schemas they accept \
             (nesting depth, number of subschemas): a client may refuse a schema above its bounds, and \
             compiling a large one costs every client time on each `tools/list`. The bounds used here: \
             depth {}, {} subschemas, {} `$defs` entries (`[rules.SL506]` in `schema-lint.toml` sets them)",
            self.depth, self.subschemas, self.defs
        )
    }
}

impl Rule for Complexity {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.subschemas.first() else {
            return;
        };
        let bounds = Bounds::of(cx);
        if let Some(deepest) = cx
            .subschemas
            .iter()
            .max_by_key(|s| (s.depth, usize::MAX - s.node.span.start))
        {
            if deepest.depth > bounds.depth {
                out.push(
                    cx.report(
                        mcp::opening(deepest.node),
                        format!(
                            "Output schema nests subschemas {} levels deep, more than {}",
                            deepest.depth, bounds.depth
                        ),
                    )
                    .label(format!("{} levels below the root", deepest.depth))
                    .help("Flatten the schema: name repeated shapes in `$defs` and reference them")
                    .note(bounds.note())
                    .pointer(deepest.pointer.clone()),
                );
            }
        }
        let count = cx.subschemas.len();
        if count > bounds.subschemas {
            out.push(
                cx.report(
                    mcp::opening(root.node),
                    format!(
                        "Output schema holds {count} subschemas, more than {}",
                        bounds.subschemas
                    ),
                )
                .label("this schema")
                .help("Split the tool, or describe less of its output")
                .note(bounds.note())
                .pointer(root.pointer.clone()),
            );
        }
        let defs = cx
            .subschemas
            .iter()
            .filter(|s| matches!(s.keyword, Some("$defs" | "definitions")))
            .count();
        if defs > bounds.defs {
            let span = ["$defs", "definitions"]
                .iter()
                .find_map(|k| root.node.member(k))
                .map_or_else(|| mcp::opening(root.node), |m| m.key_span);
            out.push(
                cx.report(
                    span,
                    format!(
                        "Output schema holds {defs} `$defs` entries, more than {}",
                        bounds.defs
                    ),
                )
                .label("too many definitions")
                .help("Drop the definitions the schema does not reference, or split the tool")
                .note(bounds.note())
                .pointer(root.pointer.clone()),
            );
        }
    }
}

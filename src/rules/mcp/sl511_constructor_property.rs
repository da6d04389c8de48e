//! SL511 constructor-property: an argument named `constructor` in the root `properties` of a
//! tool's input schema, which zod's record check (before colinhacks/zod#5098) takes for an
//! object that is not plain, so Claude Code cannot read the server's `tools/list` result
//! (documented: anthropics/claude-code#17742).

use super::shape as mcp;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL511 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::escape_pointer_token;

pub struct ConstructorProperty;

const NOTE: &str = "Claude Code checks a tool's `inputSchema.properties` with zod's `z.record`, \
     whose plain-object test reads the object's `constructor` member: a `constructor` that is \
     not a function fails it (`Invalid input: expected record, received object`, \
     colinhacks/zod#5066), although the schema is valid";

const HELP: &str = "Rename the argument (`constructor_name`): in Rust, \
     `#[serde(rename = \"constructor_name\")]` on the field renames it in the schema and in the \
     arguments alike";

impl Rule for ConstructorProperty {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    // Roles: input (the scope line of rules/SL511.md): only the root `properties` of an input
    // schema is reported refused.
    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(properties) = mcp::root_properties(cx) else {
            return;
        };
        for member in properties.iter().filter(|m| m.key == "constructor") {
            out.push(
                cx.report(
                    member.key_span,
                    "Argument `constructor` makes the input schema's `properties` fail zod's \
                     record check",
                )
                .label("zod reads this member as the object's constructor")
                .note(NOTE)
                .help(HELP)
                .pointer(format!(
                    "{}/properties/{}",
                    cx.unit.pointer,
                    escape_pointer_token(&member.key)
                ))
                .class(classes::SL511_CONSTRUCTOR_PROPERTY),
            );
        }
    }
}

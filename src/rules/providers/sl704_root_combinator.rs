//! SL704 root-combinator: a tool's input schema with `anyOf`, `oneOf` or `allOf` at its root,
//! which Anthropic and `OpenAI` refuse (every request that offers the tool fails) and Claude Code
//! drops; and `not` or `if` at the root, over which Claude Code drops the tool too.

use super::listing;
use crate::diagnostic::breaks::{classes, Client};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL704 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{Member, Node};

pub struct RootCombinator;

/// The combinators the providers refuse at the root.
const COMBINATORS: [&str; 3] = ["anyOf", "oneOf", "allOf"];

/// The conditional keywords at the root over which Claude Code drops the tool (`then` and
/// `else` apply only beside an `if`, which is reported).
const CONDITIONALS: [&str; 2] = ["not", "if"];

/// Keywords a branch may hold and still only restrict which declared properties are present
/// (an "at least one of" or "exactly one of" over the root's `properties`).
const PRESENCE_ONLY: [&str; 4] = ["required", "description", "title", "$comment"];

impl Rule for RootCombinator {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.subschemas.first().map(|s| s.node) else {
            return;
        };
        let Some(members) = root.as_object() else {
            return;
        };
        // A root that does not say `"type": "object"` is SL507's, and costs Claude Code the
        // whole server (anthropics/claude-code#88049), more than this tool.
        let claude_code = cx.clients.contains(&Client::ClaudeCode)
            && root.get("type").and_then(Node::as_str) == Some("object");
        for (i, member) in members.iter().enumerate() {
            let key = member.key.as_str();
            if COMBINATORS.contains(&key) {
                out.push(report(cx, root, members, i, member));
            } else if claude_code && CONDITIONALS.contains(&key) {
                out.push(conditional(cx, member));
            }
        }
    }
}

/// A root `not` or `if`: Claude Code leaves the tool out.
fn conditional(cx: &UnitContext<'_>, member: &Member) -> Diagnostic {
    let key = member.key.as_str();
    cx.report(
        member.key_span,
        format!("Input schema has `{key}` at its root, over which Claude Code drops the tool"),
    )
    .label("Claude Code leaves the tool out")
    .help(format!(
        "Move the condition off the root: check it in the tool and say it in the description \
         (or put `{key}` inside the property it is about)"
    ))
    .pointer(format!("{}/{}", cx.unit.pointer, listing::escape(key)))
    .class(classes::SL704_ROOT_CONDITIONAL)
}

fn report(
    cx: &UnitContext<'_>,
    root: &Node,
    members: &[Member],
    i: usize,
    member: &Member,
) -> Diagnostic {
    let key = member.key.as_str();
    let diagnostic = cx
        .report(
            member.key_span,
            format!("Input schema has `{key}` at its root, which Anthropic and OpenAI refuse"),
        )
        .label("not allowed at the root of a tool's parameters")
        .pointer(format!("{}/{}", cx.unit.pointer, listing::escape(key)))
        .class(classes::SL704_ROOT_COMBINATOR);
    let help = format!(
        "Describe the arguments as one object: every property of the branches in the root's \
         `properties`, optional where a branch may leave it out, and check the rule between them \
         in the tool (say it in the description). {} Adding `\"type\": \"object\"` beside \
         `{key}` is not enough",
        in_code(cx.generator())
    );
    if presence_only(root, member) {
        let fix = Fix {
            title: format!("Remove the root `{key}`"),
            applicability: Applicability::Unsafe,
            edits: vec![Edit {
                file: cx.file.id,
                span: listing::removal_span(root, members, i),
                content: String::new(),
            }],
            moves: Vec::new(),
        };
        diagnostic
            .help(format!(
                "Remove `{key}`: its branches only say which properties must be present, which \
                 the tool then has to check itself (say it in the description)"
            ))
            .fix(fix)
    } else {
        diagnostic.help(help)
    }
}

/// Where the root combinator comes from in the server's code, for the generator the schema shows
/// (see [`crate::rules::analysis::generator`]), and what to write there instead. Measured with
/// zod 4.6.7 (`z.toJSONSchema`; the TS v2 server 2.4.0 lists a `z.union` input as a root
/// `anyOf` beside `"type": "object"`, a `z.discriminatedUnion` as a `oneOf`; the TS v1 server
/// 1.32.2 lists either as `{"type": "object", "properties": {}}`, a tool without arguments;
/// `.and()` of two objects is one merged object), Pydantic 2.14.4 (`TypeAdapter(A | B)` writes a
/// root `anyOf` of `$ref`s, a discriminated union a `oneOf` with a `discriminator`; `T | None =
/// None` fields are left out of `required`) and schemars 1.2.3 (an enum is a root `oneOf`, an
/// untagged one an `anyOf`).
fn in_code(made_by: Option<Generator>) -> &'static str {
    match made_by {
        Some(Generator::Zod) => {
            "zod wrote this schema: `z.union` writes a root `anyOf` and `z.discriminatedUnion` a \
             `oneOf` (the TS SDK v1 server lists such a tool with no arguments at all); declare \
             one `z.object` with each branch's fields `.optional()`."
        }
        Some(Generator::Pydantic) => {
            "Pydantic wrote this schema: a `Union` of models is a root `anyOf` of `$ref`s (a \
             discriminated one a `oneOf`); take the arguments as one model whose branch fields \
             are `T | None = None`, as the Python SDK does for a tool function's parameters."
        }
        Some(Generator::Schemars) => {
            "schemars wrote this schema: a Rust enum is a root `oneOf` (`anyOf` when untagged); \
             take the arguments as one struct with each variant's fields as `Option<T>`."
        }
        None => {
            "In zod, one `z.object` instead of a `z.union`/`z.discriminatedUnion`; in Pydantic, \
             one model instead of a root `Union`."
        }
    }
}

/// Whether the combinator's branches only say which of the root's declared properties must be
/// present, so that removing it keeps every argument's shape (and only accepts more objects).
fn presence_only(root: &Node, member: &Member) -> bool {
    let declared = root.get("properties").and_then(Node::as_object);
    let (Some(declared), Some(branches)) = (declared, member.value.as_array()) else {
        return false;
    };
    root.get("type").and_then(Node::as_str) == Some("object")
        && !branches.is_empty()
        && branches.iter().all(|b| {
            b.as_object().is_some_and(|keys| {
                keys.iter().all(|k| PRESENCE_ONLY.contains(&k.key.as_str()))
                    && keys.iter().any(|k| k.key == "required")
            }) && b
                .get("required")
                .and_then(Node::as_array)
                .is_some_and(|names| {
                    names.iter().all(|n| {
                        n.as_str()
                            .is_some_and(|n| declared.iter().any(|p| p.key == n))
                    })
                })
        })
}

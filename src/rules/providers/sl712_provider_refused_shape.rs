//! SL712 provider-refused-shape: a shape of a tool's input schema that one of the smaller model
//! providers or an MCP gateway refuses outright, each as its users quote it: Moonshot (a keyword
//! beside a `$ref` that its target holds too, `type` beside a `$ref`, a `$ref` outside
//! `#/$defs/`), xAI (`pattern`, `format`), LM Studio's grammar conversion (a boolean
//! subschema), the Kuadrant gateway (a `type` array); and what Codex, before 0.131.0, sends the
//! model in place of an `anyOf` that has no `type` beside it (`{"type": "string"}`).

use crate::diagnostic::breaks::{classes, Class, Client};
use crate::diagnostic::meta::SL712 as META;
use crate::diagnostic::verdict;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::walk::Subschema;
use crate::syntax::document::{Member, Node};

pub struct ProviderRefusedShape;

/// Keywords beside a `$ref` that say nothing of the value (or are the reference's own), which
/// Moonshot is not reported to refuse.
const BESIDE_REF_FINE: [&str; 6] = ["$ref", "$defs", "definitions", "$schema", "$id", "$comment"];

/// Where LM Studio's grammar conversion visits a subschema (llama.cpp's `visit`):
/// `additionalProperties: true` and `false` it reads as a flag, not as a schema.
const VISITED: [&str; 6] = [
    "properties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
];

impl Rule for ProviderRefusedShape {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let on = |c: Client| cx.clients.contains(&c);
        let codex = codex_flattens(cx);
        for sub in cx.subschemas {
            if on(Client::Lmstudio) && sub.depth > 0 {
                boolean(cx, sub, out);
            }
            let Some(members) = sub.node.as_object() else {
                continue;
            };
            if on(Client::Moonshot) {
                moonshot(cx, sub, members, out);
                moonshot_any_of(cx, sub, members, out);
                moonshot_untyped(cx, sub, members, out);
            }
            if on(Client::Xai) {
                xai(cx, sub, members, out);
            }
            if on(Client::Kuadrant) {
                type_array(cx, sub, members, out);
            }
            if codex {
                codex_any_of(cx, sub, members, out);
            }
        }
    }
}

fn pointer(sub: &Subschema<'_>, key: &str) -> String {
    format!(
        "{}/{}",
        sub.pointer,
        crate::syntax::document::escape_pointer_token(key)
    )
}

fn report(
    cx: &UnitContext<'_>,
    m: &Member,
    sub: &Subschema<'_>,
    message: String,
    class: Class,
) -> Diagnostic {
    cx.report(m.key_span, message)
        .pointer(pointer(sub, &m.key))
        .class(class)
}

/// Moonshot: `type` beside a `$ref`, or a keyword the `$ref`'s target holds too ("conflicting
/// keywords found after $ref expansion"); a `$ref` that does not start with `#/$defs/`.
fn moonshot(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    out: &mut Vec<Diagnostic>,
) {
    let Some(reference) = sub.node.member("$ref") else {
        return;
    };
    let Some(target) = reference.value.as_str() else {
        return;
    };
    let Some(name) = target.strip_prefix("#/$defs/") else {
        out.push(
            report(
                cx,
                reference,
                sub,
                format!("`$ref` `{target}` does not point into `#/$defs/`, which Moonshot refuses"),
                classes::SL712_MOONSHOT_REF_PREFIX,
            )
            .label("not `#/$defs/...`")
            .help(
                "Move the schema it names under the root's `$defs` and point the `$ref` there \
                 (`#/$defs/Name`)",
            ),
        );
        return;
    };
    let resolved = cx.subschemas.first().and_then(|root| {
        root.node
            .get("$defs")?
            .get(&name.replace("~1", "/").replace("~0", "~"))
    });
    for m in members {
        let key = m.key.as_str();
        if BESIDE_REF_FINE.contains(&key) {
            continue;
        }
        let both = resolved.is_some_and(|t: &Node| t.get(key).is_some());
        if key != "type" && !both {
            continue;
        }
        let (why, class) = if key == "type" {
            (
                "`type` belongs in the schema it names".to_owned(),
                classes::SL712_MOONSHOT_REF_TYPE,
            )
        } else {
            (
                format!("`{target}` holds `{key}` too"),
                classes::SL712_MOONSHOT_REF_SIBLINGS,
            )
        };
        out.push(
            report(
                cx,
                m,
                sub,
                format!("`{key}` beside a `$ref` ({why}), which Moonshot refuses"),
                class,
            )
            .label("beside `$ref`")
            .help(format!(
                "Remove `{key}` here and keep it in `{target}` (or write the target out here, \
                 without the `$ref`)"
            )),
        );
    }
}

/// Keywords that say what a schema's values are as well as `type` does, for Moonshot's "type is
/// not defined" (its reports name a schema with none of them).
const TYPED_BY: [&str; 7] = ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"];

fn untyped(node: &Node) -> bool {
    node.as_object()
        .is_some_and(|members| !members.iter().any(|m| TYPED_BY.contains(&m.key.as_str())))
}

/// Moonshot: an `anyOf` with a `type` beside it, or with a branch that says no `type` ("when
/// using anyOf, type should be defined in anyOf items instead of the parent schema").
fn moonshot_any_of(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    out: &mut Vec<Diagnostic>,
) {
    let Some(any_of) = members.iter().find(|m| m.key == "anyOf") else {
        return;
    };
    let Some(branches) = any_of.value.as_array() else {
        return;
    };
    let why = if members.iter().any(|m| m.key == "type") {
        "a `type` beside it"
    } else if branches.iter().any(untyped) {
        "a branch without `type`"
    } else {
        return;
    };
    out.push(
        report(
            cx,
            any_of,
            sub,
            format!("`anyOf` with {why}, which Moonshot refuses"),
            classes::SL712_MOONSHOT_ANY_OF_TYPE,
        )
        .label("`type` belongs in each branch")
        .help(
            "Say `type` in each branch of the `anyOf` and not beside it (`{\"anyOf\":              [{\"type\": \"object\", ...}, ...]}`)",
        ),
    );
}

/// Moonshot: a property whose schema says nothing of its type ("type is not defined").
fn moonshot_untyped(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    out: &mut Vec<Diagnostic>,
) {
    let Some(properties) = members
        .iter()
        .find(|m| m.key == "properties")
        .and_then(|m| m.value.as_object())
    else {
        return;
    };
    for p in properties.iter().filter(|p| untyped(&p.value)) {
        out.push(
            cx.report(
                p.key_span,
                format!(
                    "Property `{}` says no `type`, which Moonshot refuses (`type is not defined`)",
                    p.key
                ),
            )
            .label("no `type`")
            .help(
                "Give the property a `type` (`\"string\"`, or the types it takes in an `anyOf`                  of typed branches)",
            )
            .pointer(format!(
                "{}/{}",
                pointer(sub, "properties"),
                crate::syntax::document::escape_pointer_token(&p.key)
            ))
            .class(classes::SL712_MOONSHOT_MISSING_TYPE),
        );
    }
}

/// xAI: `pattern` and `format`, whatever their value.
fn xai(cx: &UnitContext<'_>, sub: &Subschema<'_>, members: &[Member], out: &mut Vec<Diagnostic>) {
    for m in members {
        let key = m.key.as_str();
        if (key != "pattern" && key != "format") || m.value.as_str().is_none() {
            continue;
        }
        out.push(
            report(
                cx,
                m,
                sub,
                format!("`{key}` in a tool's input schema, which xAI's Responses API refuses"),
                classes::SL712_XAI_KEYWORD,
            )
            .label("refused by xAI")
            .help(format!(
                "Check the value in the server and say the rule in `description` (\"an email \
                 address\"): with `{key}` in it, no request that offers the tool reaches grok"
            )),
        );
    }
}

/// LM Studio (llama.cpp's conversion to a grammar): a boolean where it visits a subschema.
fn boolean(cx: &UnitContext<'_>, sub: &Subschema<'_>, out: &mut Vec<Diagnostic>) {
    let Some(value) = sub.node.as_bool() else {
        return;
    };
    if !sub.keyword.is_some_and(|k| VISITED.contains(&k)) {
        return;
    }
    out.push(
        cx.report(
            sub.node.span,
            format!(
                "Boolean subschema `{value}`, which LM Studio cannot turn into a grammar \
                 (`Unrecognized schema: {value}`)"
            ),
        )
        .label("a boolean, not a schema object")
        .help(if value {
            "Write `{}` for \"anything\" (or the type the value has, `{\"type\": \"string\"}`)"
        } else {
            "Remove what can never be valid (a property that must be absent: leave it out and \
             set `\"additionalProperties\": false`)"
        })
        .pointer(sub.pointer.clone())
        .class(classes::SL712_BOOLEAN_SUBSCHEMA),
    );
}

/// Kuadrant's gateway: `type` must be a string.
fn type_array(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    out: &mut Vec<Diagnostic>,
) {
    let Some(m) = members
        .iter()
        .find(|m| m.key == "type" && m.value.as_array().is_some())
    else {
        return;
    };
    out.push(
        report(
            cx,
            m,
            sub,
            "`type` is an array, which the Kuadrant mcp-gateway refuses (`type must be a \
             string`): it drops the tool"
                .to_owned(),
            classes::SL712_TYPE_ARRAY,
        )
        .label("not a string")
        .help(
            "Give `type` one string: `[\"T\", \"null\"]` becomes `\"T\"` (the argument left out \
             stands for null), other unions an `anyOf` of one-type branches",
        ),
    );
}

/// Whether Codex is selected at a version that turns an untyped `anyOf` into a string
/// (`SL712/codex-any-of-string`): by default, Codex is its newest known version, which keeps the
/// `anyOf`, and nothing is reported.
fn codex_flattens(cx: &UnitContext<'_>) -> bool {
    cx.clients.contains(&Client::Codex)
        && verdict::holding(
            std::borrow::Cow::Borrowed(classes::SL712_CODEX_ANY_OF_STRING.breaks),
            &cx.settings.versions,
        )
        .iter()
        .any(|b| b.client == Client::Codex)
}

/// What lets Codex's old sanitizer (`sanitize_json_schema`, before its `JsonSchema` kept
/// `anyOf`) infer a type for a schema without `type`: with none of them, it wrote `"string"`.
const INFERS_TYPE: [&str; 14] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "enum",
    "const",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The `type` names a branch says (`"array"`, or each of `["array", "null"]`).
fn branch_types(node: &Node) -> Vec<&str> {
    match node.get("type") {
        Some(t) => t.as_str().map_or_else(
            || {
                t.as_array()
                    .map(|a| a.iter().filter_map(Node::as_str).collect())
                    .unwrap_or_default()
            },
            |s| vec![s],
        ),
        None => Vec::new(),
    }
}

/// Codex before 0.131.0: a property's or an item's `anyOf` with nothing beside it that names a
/// type, one of whose branches takes a value that is not a string. Codex sent the model
/// `{"type": "string"}` in its place, so the model sends a string (`"me"`, or the array written
/// out as JSON text) where the server wants an array or an object.
fn codex_any_of(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    out: &mut Vec<Diagnostic>,
) {
    if sub.depth == 0 || !matches!(sub.keyword, Some("properties" | "items")) {
        return;
    }
    let Some(any_of) = members.iter().find(|m| m.key == "anyOf") else {
        return;
    };
    if members
        .iter()
        .any(|m| INFERS_TYPE.contains(&m.key.as_str()))
    {
        return;
    }
    let Some(branches) = any_of.value.as_array() else {
        return;
    };
    let mut lost: Vec<&str> = Vec::new();
    for t in branches.iter().flat_map(branch_types) {
        if t != "string" && t != "null" && !lost.contains(&t) {
            lost.push(t);
        }
    }
    if lost.is_empty() {
        return;
    }
    let lost = lost
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    out.push(
        report(
            cx,
            any_of,
            sub,
            format!(
                "`anyOf` without a `type` beside it, which Codex before 0.131.0 sends the model \
                 as `{{\"type\": \"string\"}}`: its {lost} is lost"
            ),
            classes::SL712_CODEX_ANY_OF_STRING,
        )
        .label("sent as `{\"type\": \"string\"}`")
        .help(
            "Write a nullable union as a `type` array beside the branch's keywords (`{\"type\": \
             [\"array\", \"null\"], \"items\": {...}}` means what `anyOf` of the array and \
             `null` means, and those Codex versions keep it as an array), or use Codex 0.131.0 \
             or later",
        ),
    );
}

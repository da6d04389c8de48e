//! SL707 gemini-parameters: what Gemini's legacy `parameters` field (an `OpenAPI` 3.0 subset)
//! refuses in a tool's input schema: fields outside its allowlist, type arrays, enums of other
//! values than strings, formats it does not take, `required` names it cannot find, schemas
//! without a type, nesting past its depth, and more than 512 declarations in one request.

use super::gemini::{FIELDS, SCHEMA_FIELDS, STRING_FORMATS};
use super::gemini_code::{tell, Finding};
use super::gemini_fixes as fixes;
use super::gemini_inline::inline_defs;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::Fix;
use crate::diagnostic::meta::SL707 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::tree::Tree;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::walk::Subschema;
use crate::syntax::document::{push_pointer_token, Member, Node, NodeKind};

pub struct GeminiParameters;

/// Gemini refuses a function declaration nested deeper than this many schema levels (the root
/// is level 1): the limit is not published; zereight/gitlab-mcp#223 hits it at 5.
pub const MAX_LEVELS: usize = 4;

/// Gemini takes at most this many function declarations in one request.
pub const MAX_DECLARATIONS: usize = 512;

const UNKNOWN_NOTE: &str =
    "Gemini's `parameters` field takes a subset of OpenAPI 3.0 (type, format, \
     title, description, nullable, enum, items, minItems, maxItems, properties, required, \
     minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf, \
     propertyOrdering, default, minimum, maximum) and refuses the whole request over any other \
     field";

/// Why `additionalProperties` fails: not as the other fields (google-genai 3.6.1's own model
/// refuses those before the request), but in the API or in google-genai's MCP conversion.
const ADDITIONAL_NOTE: &str =
    "Gemini's `parameters` field takes a subset of OpenAPI 3.0 without `additionalProperties`. \
     google-genai's `FunctionDeclaration(parameters=...)` accepts it (its `Schema` has an \
     `additional_properties` field) and sends it, and the API refuses the whole request: \
     `Invalid JSON payload received. Unknown name \"additional_properties\" at \
     'tools[0].function_declarations[0].parameters'` (GetStream/Vision-Agents#513; \
     `\"additionalProperties\"` from clients that send the schema as JSON, promptfoo/promptfoo#6902); \
     its MCP conversion (`mcp_to_gemini_tool`) fails before the request on `false`";

impl Rule for GeminiParameters {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let tree = cx.tree();
        let mut inline = Inline::Pending;
        for (i, sub) in cx.subschemas.iter().enumerate() {
            if !visible(tree, i) {
                continue;
            }
            match &sub.node.kind {
                NodeKind::Object(members) => {
                    check_object(cx, sub, members, &mut inline, out);
                }
                NodeKind::Bool(b) => out.push(boolean(cx, sub, *b)),
                _ => {}
            }
        }
        if let Some(d) = depth(cx, tree) {
            out.push(d);
        }
        if let Some(d) = declarations(cx) {
            out.push(d);
        }
    }
}

/// Whether Gemini reads subschema `i` as a schema: every keyword above it is one of
/// [`SCHEMA_FIELDS`] (a subschema under an unknown field is reported with that field).
fn visible(tree: &Tree<'_>, i: usize) -> bool {
    tree.keywords_above(i).all(|k| SCHEMA_FIELDS.contains(&k))
}

/// The fix that inlines the schema's references, worked out on first use.
enum Inline {
    Pending,
    Offered,
    Done(Option<Fix>),
}

impl Inline {
    /// The fix, for the first finding that asks for it; `None` for the others (the fix is
    /// offered once).
    fn take(&mut self, cx: &UnitContext<'_>) -> Option<Fix> {
        if matches!(self, Inline::Pending) {
            *self = Inline::Done(inline_defs(cx));
        }
        match std::mem::replace(self, Inline::Offered) {
            Inline::Done(fix) => fix,
            _ => None,
        }
    }
}

fn member_pointer(sub: &Subschema<'_>, key: &str) -> String {
    let mut p = sub.pointer.clone();
    push_pointer_token(&mut p, key);
    p
}

fn check_object(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    inline: &mut Inline,
    out: &mut Vec<Diagnostic>,
) {
    let node = sub.node;
    let type_name = node.get("type").and_then(Node::as_str);
    for m in members {
        let key = m.key.as_str();
        if !FIELDS.contains(&key) {
            out.push(unknown_field(cx, sub, members, m, inline));
            continue;
        }
        match key {
            "type" if m.value.as_array().is_some() => out.push(type_array(cx, sub, m)),
            "enum" => out.extend(enum_not_string(cx, sub, m, type_name)),
            "format" => out.extend(format(cx, sub, members, m, type_name)),
            "required" => required_undeclared(cx, sub, m, out),
            _ => {}
        }
    }
    // A `$ref`, `allOf` or `oneOf` (reported above) stands where Gemini would look for a type.
    let stands_in = ["type", "anyOf", "$ref", "allOf", "oneOf"];
    if !stands_in.iter().any(|k| node.get(k).is_some()) {
        out.push(missing_type(cx, sub, members));
    }
}

fn unknown_field(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    m: &Member,
    inline: &mut Inline,
) -> Diagnostic {
    let d = unknown_field_alone(cx, sub, members, m, inline);
    tell(d, cx.generator(), Finding::UnknownField(m.key.as_str()))
}

fn unknown_field_alone(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    m: &Member,
    inline: &mut Inline,
) -> Diagnostic {
    let key = m.key.as_str();
    // `additionalProperties` is a class of its own: google-genai takes it (its `Schema` has an
    // `additional_properties` field) and fails elsewhere than on the other fields.
    let (label, note, class) = if key == "additionalProperties" {
        (
            "Gemini answers `Unknown name \"additional_properties\"`".to_owned(),
            ADDITIONAL_NOTE,
            classes::SL707_ADDITIONAL_PROPERTIES,
        )
    } else {
        (
            format!("Gemini answers `Unknown name \"{key}\"`"),
            UNKNOWN_NOTE,
            classes::SL707_UNKNOWN_FIELD,
        )
    };
    let d = cx
        .report(
            m.key_span,
            format!("`{key}` is not a field of Gemini's `parameters` schema"),
        )
        .label(label)
        .note(note)
        .pointer(member_pointer(sub, key))
        .class(class);
    let at_root = sub.pointer == cx.unit.pointer;
    let reference = key == "$ref" || (at_root && (key == "$defs" || key == "definitions"));
    if reference {
        let defs_here = at_root && (key == "$defs" || key == "definitions");
        let root = cx.subschemas[0].node;
        let asks = defs_here || root.get("$defs").is_none() && root.get("definitions").is_none();
        return match asks.then(|| inline.take(cx)).flatten() {
            Some(fix) => d
                .help(
                    "Write each `$ref`'s target out where it is named and drop the definitions: \
                     Gemini's `parameters` has no references, and the inlined schema validates \
                     the same arguments",
                )
                .fix(fix),
            None => d.help(
                "Gemini's `parameters` has no references: write each target out where it is \
                 named (a recursive schema cannot be; send it as `parametersJsonSchema`)",
            ),
        };
    }
    match fixes::for_unknown(cx, sub.node, members, m) {
        Some((help, fix)) => d.help(help).fix(fix),
        None => d.help(format!(
            "Remove `{key}`, or send the schema as `parametersJsonSchema`, which takes JSON Schema"
        )),
    }
}

fn type_array(cx: &UnitContext<'_>, sub: &Subschema<'_>, m: &Member) -> Diagnostic {
    let shown = m.value.to_value().to_string();
    let d = cx
        .report(
            m.value.span,
            format!(
                "`type` is the array `{shown}`, which Gemini's `parameters` schema cannot hold"
            ),
        )
        .label("one type name, not a list")
        .note(
            "Gemini's `type` is one value of an enum (`STRING`, `INTEGER`, `OBJECT`, ...), not a \
             list",
        )
        .pointer(member_pointer(sub, "type"))
        .class(classes::SL707_TYPE_ARRAY);
    let d = match fixes::for_type_array(cx, sub.node, m) {
        Some((help, fix)) => d.help(help).fix(fix),
        None => d.help(
            "Write one type; for a value that may be null, the type and `\"nullable\": true`",
        ),
    };
    tell(d, cx.generator(), Finding::TypeArray)
}

fn enum_not_string(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    m: &Member,
    type_name: Option<&str>,
) -> Option<Diagnostic> {
    let values = m.value.as_array()?;
    let pointer = member_pointer(sub, "enum");
    if let Some((i, v)) = values
        .iter()
        .enumerate()
        .find(|(_, v)| v.as_str().is_none())
    {
        let shown = v.to_value().to_string();
        let d = cx
            .report(
                v.span,
                format!(
                    "`enum` value `{shown}` is not a string, and Gemini takes string enums only"
                ),
            )
            .label("not a string")
            .note("Gemini's `enum` is a list of strings, on a string schema")
            .help(
                "Make the argument a string with string values (and convert them in the \
                 server), or describe the allowed values in `description`",
            )
            .pointer(format!("{pointer}/{i}"))
            .class(classes::SL707_ENUM_NOT_STRING);
        return Some(tell(d, cx.generator(), Finding::EnumNotString));
    }
    let t = type_name.filter(|t| *t != "string")?;
    let type_member = sub.node.member("type")?;
    let d = cx
        .report(
            type_member.value.span,
            format!("`enum` on `\"type\": \"{t}\"`, and Gemini takes enums on strings only"),
        )
        .label("not `\"string\"`")
        .note(
            "Gemini's `Schema` takes `enum` on strings only (its API definition: \
             `Possible values of the element of Type.STRING with enum format.`)",
        )
        .help("Make the argument a string, or describe the allowed values in `description`")
        .pointer(pointer)
        .class(classes::SL707_ENUM_NOT_STRING);
    Some(tell(d, cx.generator(), Finding::EnumNotString))
}

fn format(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    m: &Member,
    type_name: Option<&str>,
) -> Option<Diagnostic> {
    if type_name != Some("string") {
        return None;
    }
    let value = m.value.as_str()?;
    if STRING_FORMATS.contains(&value) {
        return None;
    }
    let d = cx
        .report(
            m.value.span,
            format!("`format` `{value}` is not one Gemini takes on a string"),
        )
        .label("only `enum` and `date-time`")
        .note(
            "Gemini takes the formats `enum` and `date-time` on a string and refuses the request \
             over any other",
        )
        .pointer(member_pointer(sub, "format"))
        .class(classes::SL707_FORMAT);
    let d = match fixes::into_description(cx, sub.node, members, m) {
        Some((help, fix)) => d.help(help).fix(fix),
        None => d.help("Remove the `format`, and say what it meant in `description`"),
    };
    Some(tell(d, cx.generator(), Finding::Format(value)))
}

fn required_undeclared(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    m: &Member,
    out: &mut Vec<Diagnostic>,
) {
    let Some(names) = m.value.as_array() else {
        return;
    };
    let declared = sub.node.get("properties").and_then(Node::as_object);
    for (i, n) in names.iter().enumerate() {
        let Some(name) = n.as_str() else {
            continue;
        };
        if declared.is_some_and(|d| d.iter().any(|p| p.key == name)) {
            continue;
        }
        out.push(
            cx.report(
                n.span,
                format!("`required` names `{name}`, which `properties` does not declare"),
            )
            .label("not in `properties`")
            .note(
                "Gemini checks every name of `required` against `properties` and refuses the \
                 request over one it does not find",
            )
            .help(format!(
                "Declare `{name}` in `properties` with its type, or take it out of `required`"
            ))
            .pointer(format!("{}/{i}", member_pointer(sub, "required")))
            .class(classes::SL707_REQUIRED_UNDECLARED),
        );
    }
}

fn missing_type(cx: &UnitContext<'_>, sub: &Subschema<'_>, members: &[Member]) -> Diagnostic {
    let d = cx
        .report(
            opening(sub.node),
            "Schema has no `type`, which Gemini requires",
        )
        .label("no `type` here")
        .note(
            "Gemini reads a schema's type from `type` (or its `anyOf`) and refuses a schema \
             without one",
        )
        .pointer(sub.pointer.clone())
        .class(classes::SL707_MISSING_TYPE);
    let d = match fixes::add_string_type(cx, sub.node, members) {
        Some((help, fix)) => d.help(help).fix(fix),
        None => d.help(
            "Give the schema the `type` the server expects (`string`, `number`, `integer`, \
             `boolean`, `array` or `object`)",
        ),
    };
    tell(d, cx.generator(), Finding::MissingType)
}

fn boolean(cx: &UnitContext<'_>, sub: &Subschema<'_>, value: bool) -> Diagnostic {
    let d = cx
        .report(
            sub.node.span,
            format!("Schema is the boolean `{value}`, which Gemini cannot read as a schema"),
        )
        .label("no `type` here")
        .note(
            "Gemini reads a schema's type from `type` (or its `anyOf`) and refuses a schema \
         without one",
        )
        .help("Write an object schema with the `type` the server expects")
        .pointer(sub.pointer.clone())
        .class(classes::SL707_MISSING_TYPE);
    tell(d, cx.generator(), Finding::Boolean)
}

use crate::rules::analysis::node::opening;

/// The first subschema Gemini reads past [`MAX_LEVELS`], reported once per schema.
fn depth(cx: &UnitContext<'_>, tree: &Tree<'_>) -> Option<Diagnostic> {
    let levels = |i: usize| cx.subschemas[i].depth + 1;
    let deepest = (0..cx.subschemas.len())
        .filter(|&i| visible(tree, i))
        .map(levels)
        .max()?;
    let first = (0..cx.subschemas.len()).find(|&i| visible(tree, i) && levels(i) > MAX_LEVELS)?;
    let sub = &cx.subschemas[first];
    Some(
        cx.report(
            opening(sub.node),
            format!(
                "Input schema nests {deepest} levels deep, past the {MAX_LEVELS} levels Gemini \
                 accepts in a function declaration"
            ),
        )
        .label(format!("level {}", levels(first)))
        .note(
            "Gemini refuses a function declaration nested past a depth it does not publish; \
             zereight/gitlab-mcp#223 reports the refusal for 5 levels",
        )
        .help(
            "Flatten the arguments: lift nested objects' fields to the top, or take a deep \
             structure as a JSON string",
        )
        .pointer(sub.pointer.clone())
        .class(classes::SL707_DEPTH),
    )
}

/// The tool past the 512th of the listing (the first one with an input schema), reported once.
fn declarations(cx: &UnitContext<'_>) -> Option<Diagnostic> {
    let (tools_pointer, rest) = cx.unit.pointer.rsplit_once("/inputSchema")?;
    if !rest.is_empty() {
        return None;
    }
    let (tools_pointer, index) = tools_pointer.rsplit_once('/')?;
    let index: usize = index.parse().ok()?;
    let tools = cx.root.pointer(tools_pointer)?.as_array()?;
    let first_past = tools
        .iter()
        .enumerate()
        .skip(MAX_DECLARATIONS)
        .find(|(_, t)| {
            t.get("inputSchema")
                .is_some_and(|s| matches!(s.kind, NodeKind::Object(_) | NodeKind::Bool(_)))
        })
        .map(|(i, _)| i)?;
    if index != first_past {
        return None;
    }
    let count = tools.len();
    Some(
        cx.report(
            opening(&tools[index]),
            format!(
                "The listing has {count} tools, more than the {MAX_DECLARATIONS} function \
                 declarations Gemini accepts in one request"
            ),
        )
        .label(format!("tool {} of {count}", index + 1))
        .note(
            "A host that offers every tool of the listing to Gemini sends one function \
             declaration each, and Gemini takes at most 512 in one request",
        )
        .help("Split the tools across servers, or let the host offer a subset")
        .pointer(format!("{tools_pointer}/{index}"))
        .class(classes::SL707_DECLARATIONS),
    )
}

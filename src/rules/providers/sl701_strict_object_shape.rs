//! SL701 strict-object-shape: an object or array of a tool's input schema that `OpenAI` strict
//! mode refuses to compile: a property left out of `required`, an object without
//! `additionalProperties: false` or without `properties`, an array without `items`.

use super::strict;
use crate::diagnostic::breaks::{classes, Client};
use crate::diagnostic::fix::{Applicability, Edit, Fix, Move};
use crate::diagnostic::meta::SL701 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::walk::Subschema;
use crate::syntax::document::{Member, Node, NodeKind};

const NOTE: &str = "OpenAI strict mode (`strict: true` on a function tool, the default of the Responses API, and \
     what the OpenAI Agents SDK asks for MCP tools) compiles the schema into a grammar and accepts only \
     objects whose keys are all required and closed with `additionalProperties: false`, and arrays that \
     say what their items are; any other schema makes the request fail with HTTP 400, for every call that \
     offers the tool";

/// Keywords beside which a subschema's verdict on an instance also depends on other subschemas.
const APPLICATORS: [&str; 8] = [
    "$ref",
    "$dynamicRef",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "const",
];

/// Keywords whose subschemas are conditions, not shapes of the arguments: strict mode refuses
/// them (SL702), and what they hold is not checked here.
const CONDITIONS: [&str; 5] = ["not", "if", "then", "else", "dependentSchemas"];

pub struct StrictObjectShape;

impl Rule for StrictObjectShape {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let start = out.len();
        check(cx, out);
        // Visual Studio's Copilot chat is documented refusing open objects only: without
        // `openai-strict`, the other shapes are no finding.
        if !cx.clients.contains(&Client::OpenaiStrict) {
            let found = out.split_off(start);
            out.extend(
                found
                    .into_iter()
                    .filter(|d| d.class == Some(classes::SL701_OPEN_OBJECT.name)),
            );
        }
    }
}

/// Reports every object and array of the input schema that strict mode refuses.
fn check(cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
    // The tree is only worked out for a schema that has conditions.
    let conditional = cx
        .subschemas
        .iter()
        .any(|s| s.keyword.is_some_and(|k| CONDITIONS.contains(&k)));
    for (i, sub) in cx.subschemas.iter().enumerate() {
        let Some(members) = sub.node.as_object() else {
            continue;
        };
        if conditional && cx.tree().keywords_above(i).any(|k| CONDITIONS.contains(&k)) {
            continue;
        }
        if strict::is_object(sub.node) {
            optional_properties(cx, sub, out);
            if let Some(d) = open_object(cx, i, sub) {
                out.push(d);
            }
            if let Some(d) = no_properties(cx, sub, members) {
                out.push(d);
            }
        }
        if strict::is_array(sub.node) {
            if let Some(d) = array_without_items(cx, i, sub) {
                out.push(d);
            }
        }
    }
}

/// The properties of an object that its `required` leaves out, in document order (each key
/// once, the member that counts being the last with that key).
fn optional_keys(node: &Node) -> Vec<&Member> {
    let Some(props) = node.get("properties").and_then(Node::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = node
        .get("required")
        .and_then(Node::as_array)
        .map(|r| r.iter().filter_map(Node::as_str).collect())
        .unwrap_or_default();
    props
        .iter()
        .enumerate()
        .filter(|(i, m)| !props[i + 1..].iter().any(|later| later.key == m.key))
        .map(|(_, m)| m)
        .filter(|m| !required.contains(&m.key.as_str()))
        .collect()
}

fn optional_properties(cx: &UnitContext<'_>, sub: &Subschema<'_>, out: &mut Vec<Diagnostic>) {
    let optional = optional_keys(sub.node);
    if optional.is_empty() {
        return;
    }
    let fix = require_all(cx, sub, &optional);
    let names: Vec<String> = optional.iter().map(|m| format!("`{}`", m.key)).collect();
    for member in &optional {
        let diagnostic = cx
            .report(
                member.key_span,
                format!(
                    "Property `{}` is not in `required`: OpenAI strict mode requires every property",
                    member.key
                ),
            )
            .label("optional here")
            .note(NOTE)
            .class(classes::SL701_OPTIONAL_PROPERTY)
            .help(optional_help(cx.generator()))
            .pointer(format!(
                "{}/properties/{}",
                sub.pointer,
                crate::syntax::document::escape_pointer_token(&member.key)
            ));
        out.push(match &fix {
            Some(fix) => diagnostic.fix(Fix {
                title: if optional.len() == 1 {
                    format!("Require {} and let it be null", names[0])
                } else {
                    format!("Require {} and let them be null", names.join(", "))
                },
                ..fix.clone()
            }),
            None => diagnostic,
        });
    }
}

fn optional_help(made_by: Option<Generator>) -> String {
    let how = match made_by {
        Some(Generator::Zod) => {
            "zod wrote this schema: write `.nullable()` instead of `.optional()` (or `.default(...)`) on the \
             field, and treat `null` as absent in the handler"
        }
        Some(Generator::Pydantic) => {
            "Pydantic wrote this schema: declare the parameter as `T | None` without a default, and treat \
             `None` as absent in the tool"
        }
        Some(Generator::Schemars) => {
            "schemars wrote this schema: keep the field an `Option<T>` and add `#[schemars(required)]` (and \
             no `#[serde(default)]`), so that it is listed in `required` and may be null"
        }
        None => "In the server, treat `null` as absent, and list the property in `required`",
    };
    format!(
        "Make the property required and nullable (`\"type\": [\"string\", \"null\"]`), as OpenAI advises for \
         optional parameters. {how}"
    )
}

/// The unsafe fix that lists every optional key of the object in `required` and lets each of
/// them be null: the object then rejects calls that leave a key out, and accepts `null` for it.
/// The same fix for every finding of the object, so that one pass applies it once.
fn require_all(cx: &UnitContext<'_>, sub: &Subschema<'_>, optional: &[&Member]) -> Option<Fix> {
    let node = sub.node;
    let mut edits = Vec::new();
    let mut moves = Vec::new();
    for member in optional {
        let pointer = format!(
            "{}/properties/{}",
            sub.pointer,
            crate::syntax::document::escape_pointer_token(&member.key)
        );
        let (e, wrapped) = nullable(cx, &member.value)?;
        edits.extend(e);
        if wrapped {
            moves.push(Move {
                file: cx.file.id,
                to: format!("{pointer}/anyOf/0"),
                from: pointer,
            });
        }
    }
    let names: Vec<String> = optional
        .iter()
        .map(|m| serde_json::to_string(m.key.as_str()).unwrap_or_default())
        .collect();
    match node.get("required") {
        Some(required) => {
            let strings = required.as_array()?.iter().all(|r| r.as_str().is_some());
            if !strings {
                return None;
            }
            edits.push(strict::append_items(cx, required, &names)?);
        }
        None => edits.push(strict::append_member(
            cx,
            node,
            "required",
            &format!("[{}]", names.join(", ")),
        )?),
    }
    Some(Fix {
        title: String::new(),
        applicability: Applicability::Unsafe,
        edits,
        moves,
    })
}

/// The edits that let the property schema `node` accept `null` as well as what it accepts
/// today, and whether they wrap it in an `anyOf` (moving it one level down); `None` where that
/// cannot be written (a `false` schema).
fn nullable(cx: &UnitContext<'_>, node: &Node) -> Option<(Vec<Edit>, bool)> {
    let members = match &node.kind {
        NodeKind::Bool(true) => return Some((Vec::new(), false)),
        NodeKind::Object(members) => members,
        _ => return None,
    };
    if APPLICATORS.iter().any(|k| node.get(k).is_some()) {
        // A reference or a combinator may reject null: offer null beside it.
        let text = &cx.text()[node.span.start..node.span.end];
        let wrap = Edit {
            file: cx.file.id,
            span: node.span,
            content: format!("{{\"anyOf\": [{text}, {{\"type\": \"null\"}}]}}"),
        };
        return Some((vec![wrap], true));
    }
    let mut edits = Vec::new();
    if let Some(t) = members.iter().rev().find(|m| m.key == "type") {
        match &t.value.kind {
            NodeKind::String(s) if s == "null" => {}
            NodeKind::String(s) => edits.push(Edit {
                file: cx.file.id,
                span: t.value.span,
                content: format!("[{}, \"null\"]", serde_json::to_string(s.as_str()).ok()?),
            }),
            NodeKind::Array(names) if names.iter().any(|n| n.as_str() == Some("null")) => {}
            NodeKind::Array(names) if !names.is_empty() => {
                edits.push(strict::append_items(
                    cx,
                    &t.value,
                    &["\"null\"".to_owned()],
                )?);
            }
            _ => return None,
        }
    }
    if let Some(e) = members.iter().rev().find(|m| m.key == "enum") {
        let values = e.value.as_array()?;
        if values.is_empty() {
            return None;
        }
        if !values.iter().any(|v| matches!(v.kind, NodeKind::Null)) {
            edits.push(strict::append_items(cx, &e.value, &["null".to_owned()])?);
        }
    }
    Some((edits, false))
}

/// An object without `additionalProperties: false`.
fn open_object(cx: &UnitContext<'_>, i: usize, sub: &Subschema<'_>) -> Option<Diagnostic> {
    let member = sub.node.member("additionalProperties");
    if member.is_some_and(|m| m.value.as_bool() == Some(false)) {
        return None;
    }
    let (span, message, label) = match member {
        Some(m) => (
            m.value.span,
            format!(
                "Object allows additional properties (`\"additionalProperties\": {}`): OpenAI strict mode \
                 requires `false`",
                shown(&m.value)
            ),
            "must be `false`",
        ),
        None => (
            strict::anchor(sub.node),
            "Object has no `\"additionalProperties\": false`, which OpenAI strict mode requires".to_owned(),
            "this object is open",
        ),
    };
    // An object that declares no property at all (`"properties": {}`, a tool without
    // arguments): the OpenAI Agents SDK cannot close it without changing what it accepts, and
    // serves the tool non-strict (measured), where it closes an object with properties itself.
    let empty = sub
        .node
        .get("properties")
        .and_then(Node::as_object)
        .is_some_and(<[Member]>::is_empty)
        && sub.node.get("patternProperties").is_none();
    let class = if empty {
        classes::SL701_EMPTY_OBJECT
    } else {
        classes::SL701_OPEN_OBJECT
    };
    let diagnostic = cx
        .report(span, message)
        .label(label)
        .note(NOTE)
        .class(class)
        .help(open_help(cx.generator(), signature_root(cx, sub)))
        .pointer(format!("{}/additionalProperties", sub.pointer));
    // Closing an object that shares its instance with others (`allOf` branches, a `$ref`
    // beside `properties`) rejects the properties they declare: no fix there.
    let shared = cx.tree().same_instance(i).is_none_or(|set| {
        set.iter().any(|&j| {
            j != i
                && ["properties", "patternProperties", "additionalProperties"]
                    .iter()
                    .any(|k| cx.subschemas[j].node.get(k).is_some())
        })
    });
    if shared {
        return Some(diagnostic);
    }
    let edit = match member {
        Some(m) => Edit {
            file: cx.file.id,
            span: m.value.span,
            content: "false".to_owned(),
        },
        None => strict::append_member(cx, sub.node, "additionalProperties", "false")?,
    };
    Some(diagnostic.fix(Fix {
        title: "Set `\"additionalProperties\": false`".to_owned(),
        applicability: Applicability::Unsafe,
        edits: vec![edit],
        moves: Vec::new(),
    }))
}

/// The title the Python SDK gives the argument schema it builds from a tool function's
/// signature (`get_weatherArguments`), when `sub` is that root: no model of the author's is
/// behind it, so no `model_config` reaches it.
fn signature_root<'s>(cx: &UnitContext<'_>, sub: &'s Subschema<'_>) -> Option<&'s str> {
    if sub.pointer != cx.unit.pointer || cx.generator() != Some(Generator::Pydantic) {
        return None;
    }
    sub.node
        .get("title")
        .and_then(Node::as_str)
        .filter(|t| t.len() > "Arguments".len() && t.ends_with("Arguments"))
}

fn open_help(made_by: Option<Generator>, signature: Option<&str>) -> String {
    let signature_how;
    let how = match (made_by, signature) {
        (_, Some(title)) => {
            signature_how = format!(
                "The Python SDK builds this schema (`{title}`) from the tool function's signature, \
                 and no `ConfigDict` reaches it (`extra=\"forbid\"` on a model closes only the \
                 objects that model describes). The OpenAI Agents SDK closes an object like this \
                 itself when it converts the tool; for a client that sends the schema as it is, \
                 list the tool from a `tools/list` handler of your own (the low-level `Server`'s \
                 `list_tools`) with `\"additionalProperties\": false` in its `inputSchema`"
            );
            signature_how.as_str()
        }
        (Some(Generator::Zod), None) => "zod wrote this schema: declare the object with `z.strictObject(...)` (or `.strict()`)",
        (Some(Generator::Pydantic), None) => {
            "Pydantic wrote this schema: give the model it describes `model_config = ConfigDict(extra=\"forbid\")`"
        }
        (Some(Generator::Schemars), None) => "schemars wrote this schema: add `#[serde(deny_unknown_fields)]` to the struct",
        (None, None) => "Close the object where the server declares it",
    };
    format!(
        "Set `\"additionalProperties\": false`, so that calls with keys the tool does not declare are refused \
         (a map of free keys cannot be expressed in strict mode: list its keys as properties, or take an array \
         of `{{\"key\", \"value\"}}` objects). {how}"
    )
}

/// An object without `properties` (a map, or an object of any shape).
fn no_properties(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
) -> Option<Diagnostic> {
    if sub.node.get("properties").is_some() {
        return None;
    }
    let diagnostic = cx
        .report(
            strict::anchor(sub.node),
            "Object has no `properties`, which OpenAI strict mode requires",
        )
        .label("no `properties` in this object")
        .note(NOTE)
        .class(classes::SL701_NO_PROPERTIES)
        .help(
            "Declare the object's keys in `properties` (a tool without arguments: `\"properties\": {}`). \
             `\"properties\": {}` alone accepts what the object accepts today",
        )
        .pointer(sub.pointer.clone());
    if members.is_empty() {
        return Some(diagnostic);
    }
    // `properties: {}` constrains nothing and evaluates no property, in every draft.
    let edit = strict::append_member(cx, sub.node, "properties", "{}")?;
    Some(diagnostic.fix(Fix {
        title: "Add `\"properties\": {}`".to_owned(),
        applicability: Applicability::Safe,
        edits: vec![edit],
        moves: Vec::new(),
    }))
}

/// An array without `items`.
fn array_without_items(cx: &UnitContext<'_>, i: usize, sub: &Subschema<'_>) -> Option<Diagnostic> {
    if sub.node.get("items").is_some() {
        return None;
    }
    let diagnostic = cx
        .report(
            strict::anchor(sub.node),
            "Array has no `items`, which OpenAI strict mode requires",
        )
        .label("no `items` in this array")
        .note(NOTE)
        .class(classes::SL701_ARRAY_WITHOUT_ITEMS)
        .help(
            "Say what the items are (`\"items\": {\"type\": \"string\"}`); `\"items\": {}` accepts what the \
             array accepts today, but strict mode then wants the items typed",
        )
        .pointer(format!("{}/items", sub.pointer));
    // `items: {}` accepts every item, but it marks every item evaluated, which an
    // `unevaluatedItems` applying to the same array would then let through: no fix there.
    let unevaluated = cx.tree().same_instance(i).is_none_or(|set| {
        set.iter()
            .any(|&j| cx.subschemas[j].node.get("unevaluatedItems").is_some())
    });
    if unevaluated {
        return Some(diagnostic);
    }
    let edit = strict::append_member(cx, sub.node, "items", "{}")?;
    Some(diagnostic.fix(Fix {
        title: "Add `\"items\": {}`".to_owned(),
        applicability: Applicability::Safe,
        edits: vec![edit],
        moves: Vec::new(),
    }))
}

/// A short rendering of a value for a message: a schema object as `{...}`.
fn shown(node: &Node) -> String {
    match &node.kind {
        NodeKind::Object(m) if !m.is_empty() => "{...}".to_owned(),
        _ => node.to_value().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    /// Instances of every JSON kind, nested two levels: objects over the keys `a`, `b`, `x`,
    /// arrays of up to three items.
    fn instances() -> Vec<Value> {
        let scalars = vec![
            json!(null),
            json!(true),
            json!(0),
            json!(1.5),
            json!(""),
            json!("a"),
        ];
        let mut level1 = scalars.clone();
        for s in &scalars {
            level1.push(json!([s]));
            level1.push(json!({ "a": s }));
            level1.push(json!({ "x": s }));
        }
        let mut all = level1.clone();
        all.push(json!([]));
        all.push(json!({}));
        for (i, s) in level1.iter().enumerate() {
            let t = &level1[(i * 7 + 3) % level1.len()];
            all.push(json!(["a", s]));
            all.push(json!([s, t, 1]));
            all.push(json!({ "a": s, "b": t }));
            all.push(json!({ "x": s, "a": "a" }));
        }
        all
    }

    /// The instances on which the two schemas disagree.
    fn disagreements(before: &Value, after: &Value) -> Vec<Value> {
        let before = jsonschema::validator_for(before).unwrap();
        let after = jsonschema::validator_for(after).unwrap();
        instances()
            .into_iter()
            .filter(|i| before.is_valid(i) != after.is_valid(i))
            .collect()
    }

    fn with(schema: &Value, key: &str, value: Value) -> Value {
        let mut fixed = schema.clone();
        fixed[key] = value;
        fixed
    }

    #[test]
    fn empty_properties_and_items_keep_every_verdict() {
        let d2020 = "https://json-schema.org/draft/2020-12/schema";
        let d7 = "http://json-schema.org/draft-07/schema#";
        for object in [
            json!({"type": "object"}),
            json!({"type": "object", "additionalProperties": false}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "patternProperties": {"^a": {"type": "string"}}, "additionalProperties": false}),
            json!({"$schema": d2020, "type": "object", "unevaluatedProperties": false}),
            json!({"$schema": d7, "type": ["object", "null"], "required": ["a"]}),
        ] {
            let fixed = with(&object, "properties", json!({}));
            assert_eq!(
                disagreements(&object, &fixed),
                Vec::<Value>::new(),
                "{object}"
            );
        }
        for array in [
            json!({"type": "array"}),
            json!({"type": "array", "minItems": 1}),
            json!({"$schema": d2020, "type": "array", "prefixItems": [{"type": "string"}]}),
            json!({"$schema": d7, "type": "array", "additionalItems": false}),
            json!({"$schema": d2020, "type": "array", "contains": {"type": "string"}}),
        ] {
            let fixed = with(&array, "items", json!({}));
            assert_eq!(
                disagreements(&array, &fixed),
                Vec::<Value>::new(),
                "{array}"
            );
        }
    }

    #[test]
    fn closing_an_object_or_items_beside_unevaluated_items_changes_verdicts() {
        // What the safe fixes stay away from: `items: {}` beside `unevaluatedItems: false`
        // evaluates the items `unevaluatedItems` refused...
        let array = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "array",
            "prefixItems": [{"type": "string"}],
            "unevaluatedItems": false
        });
        assert!(
            disagreements(&array, &with(&array, "items", json!({}))).contains(&json!(["a", "a"]))
        );
        // ...and `properties: {}` with `additionalProperties: false` (what strict mode wants of a
        // map) accepts only `{}`: that part is SL701's unsafe open-object fix.
        let map = json!({"type": "object"});
        let closed = with(
            &with(&map, "properties", json!({})),
            "additionalProperties",
            json!(false),
        );
        let changed = disagreements(&map, &closed);
        assert!(changed.contains(&json!({"a": null})), "{changed:?}");
        assert!(!changed.contains(&json!({})));
    }

    #[test]
    fn required_and_nullable_changes_verdicts() {
        let optional = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let fixed = json!({
            "type": "object",
            "properties": {"a": {"type": ["string", "null"]}},
            "required": ["a"]
        });
        let changed = disagreements(&optional, &fixed);
        assert!(changed.contains(&json!({})));
        assert!(changed.contains(&json!({"a": null})));
        assert!(!changed.contains(&json!({"a": "a"})));
    }
}

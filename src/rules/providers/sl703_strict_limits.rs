//! SL703 strict-limits: a tool's input schema larger than `OpenAI` strict mode compiles: more than
//! 5,000 properties, nesting deeper than 10 levels, more than 120,000 characters of property
//! names, definition names, enum values and consts, more than 1,000 enum values, or a string
//! enum of more than 250 values longer than 15,000 characters.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL703 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::mcp::shape::opening;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::walk::Subschema;
use crate::syntax::document::{Node, NodeKind};

/// Most object properties in one schema, counted over every `properties` (in `$defs` too).
pub const MAX_PROPERTIES: usize = 5_000;
/// Deepest nesting: subschema steps below the root (into `properties`, `items`, `anyOf`,
/// `$defs`, ...), the root being level 0; a `$ref` is not followed.
pub const MAX_DEPTH: usize = 10;
/// Most characters of property names, definition names, enum values and consts in one schema.
pub const MAX_CHARACTERS: usize = 120_000;
/// Most enum values in one schema, over every `enum`.
pub const MAX_ENUM_VALUES: usize = 1_000;
/// Enums of more string values than this are held to [`MAX_ENUM_CHARACTERS`].
pub const LONG_ENUM: usize = 250;
/// Most characters of the string values of one enum of more than [`LONG_ENUM`] values.
pub const MAX_ENUM_CHARACTERS: usize = 15_000;

const NOTE: &str = "OpenAI strict mode compiles the schema into a grammar and refuses schemas above its limits \
     (its documentation: up to 5,000 object properties in total, 10 levels of nesting, 120,000 characters \
     of property names, definition names, enum values and consts, 1,000 enum values, and 15,000 characters \
     for one string enum of more than 250 values): the request fails with HTTP 400, for every call that \
     offers the tool. The counts follow OpenAI's Java SDK, which checks the same limits before sending: \
     each step into `properties`, `items`, `anyOf` or `$defs` is one level, a `$ref` is not followed";

/// What the limits count over one schema.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Object properties, over every `properties`.
    pub properties: usize,
    /// The deepest subschema's depth, and its index (the first of the deepest).
    pub deepest: (usize, usize),
    /// Characters of property names, definition names, enum values and consts.
    pub characters: usize,
    /// Enum values, over every `enum`.
    pub enum_values: usize,
    /// Each enum of more than [`LONG_ENUM`] string values: its subschema's index, how many
    /// values and how many characters they hold.
    pub long_enums: Vec<(usize, usize, usize)>,
}

/// The characters a value adds: a string's, a scalar's JSON text; nothing for arrays and
/// objects (as `OpenAI`'s Java SDK counts them).
fn value_chars(node: &Node) -> usize {
    match &node.kind {
        NodeKind::String(s) => s.chars().count(),
        NodeKind::Array(_) | NodeKind::Object(_) => 0,
        _ => node.to_value().to_string().chars().count(),
    }
}

/// Counts what the limits bound over the subschemas of one schema.
#[must_use]
pub fn count(subs: &[Subschema<'_>]) -> Counts {
    let mut counts = Counts::default();
    for (i, sub) in subs.iter().enumerate() {
        if sub.depth > counts.deepest.0 {
            counts.deepest = (sub.depth, i);
        }
        let Some(members) = sub.node.as_object() else {
            continue;
        };
        for member in members {
            match member.key.as_str() {
                "properties" => {
                    for p in member.value.as_object().unwrap_or_default() {
                        counts.properties += 1;
                        counts.characters += p.key.chars().count();
                    }
                }
                "$defs" | "definitions" => {
                    for d in member.value.as_object().unwrap_or_default() {
                        counts.characters += d.key.chars().count();
                    }
                }
                "const" => counts.characters += value_chars(&member.value),
                "enum" => {
                    let values = member.value.as_array().unwrap_or_default();
                    counts.enum_values += values.len();
                    let chars: usize = values.iter().map(value_chars).sum();
                    counts.characters += chars;
                    let strings: Vec<&str> = values.iter().filter_map(Node::as_str).collect();
                    if strings.len() > LONG_ENUM {
                        let string_chars = strings.iter().map(|s| s.chars().count()).sum();
                        counts.long_enums.push((i, strings.len(), string_chars));
                    }
                }
                _ => {}
            }
        }
    }
    counts
}

pub struct StrictLimits;

impl Rule for StrictLimits {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        check(cx, out);
    }
}

/// Reports each limit the input schema exceeds, with the figure counted and the limit.
fn check(cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(root) = cx.subschemas.first() else {
        return;
    };
    let counts = count(cx.subschemas);
    let at_root = opening(root.node);
    if counts.properties > MAX_PROPERTIES {
        let span = root
            .node
            .member("properties")
            .map_or(at_root, |m| m.key_span);
        out.push(
            cx.report(
                span,
                format!(
                    "Input schema declares {} properties, more than the {} OpenAI strict mode allows",
                    thousands(counts.properties),
                    thousands(MAX_PROPERTIES)
                ),
            )
            .label("counted over every `properties` of the schema")
            .class(classes::SL703_PROPERTIES)
            .note(NOTE)
            .help("Split the tool, or take the rarely used arguments as one string")
            .pointer(root.pointer.clone()),
        );
    }
    let (depth, deepest) = counts.deepest;
    if depth > MAX_DEPTH {
        let sub = &cx.subschemas[deepest];
        out.push(
            cx.report(
                opening(sub.node),
                format!(
                    "Input schema nests {depth} levels deep, more than the {MAX_DEPTH} OpenAI strict mode allows"
                ),
            )
            .label(format!("{depth} levels below the root"))
            .class(classes::SL703_DEPTH)
            .note(NOTE)
            .help("Flatten the arguments: fewer nested objects, or a nested part taken as a string")
            .pointer(sub.pointer.clone()),
        );
    }
    if counts.characters > MAX_CHARACTERS {
        out.push(
            cx.report(
                at_root,
                format!(
                    "Input schema holds {} characters of property names, definition names, enum values and \
                     consts, more than the {} OpenAI strict mode allows",
                    thousands(counts.characters),
                    thousands(MAX_CHARACTERS)
                ),
            )
            .label("counted over the whole schema")
            .class(classes::SL703_CHARACTERS)
            .note(NOTE)
            .help("Shorten the enums (or take such a value as a string described in `description`), or split the tool")
            .pointer(root.pointer.clone()),
        );
    }
    if counts.enum_values > MAX_ENUM_VALUES {
        out.push(
            cx.report(
                at_root,
                format!(
                    "Input schema holds {} enum values, more than the {} OpenAI strict mode allows",
                    thousands(counts.enum_values),
                    thousands(MAX_ENUM_VALUES)
                ),
            )
            .label("counted over every `enum` of the schema")
            .class(classes::SL703_ENUM_VALUES)
            .note(NOTE)
            .help("Take the long enums as strings (list a few values in `description`) and check them in the tool")
            .pointer(root.pointer.clone()),
        );
    }
    long_enums(cx, &counts, out);
}

/// Each enum of more than [`LONG_ENUM`] string values whose strings are too long.
fn long_enums(cx: &UnitContext<'_>, counts: &Counts, out: &mut Vec<Diagnostic>) {
    for &(i, values, chars) in &counts.long_enums {
        if chars <= MAX_ENUM_CHARACTERS {
            continue;
        }
        let sub = &cx.subschemas[i];
        let Some(member) = sub.node.member("enum") else {
            continue;
        };
        out.push(
            cx.report(
                member.key_span,
                format!(
                    "Enum of {values} string values holds {} characters, more than the {} OpenAI strict mode \
                     allows for an enum of more than {LONG_ENUM} values",
                    thousands(chars),
                    thousands(MAX_ENUM_CHARACTERS)
                ),
            )
            .label("too long an enum")
            .class(classes::SL703_ENUM_CHARACTERS)
            .note(NOTE)
            .help("Take the value as a string (list a few values in `description`) and check it in the tool")
            .pointer(format!("{}/enum", sub.pointer)),
        );
    }
}

/// `120000` as `120,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::dialect::Draft;
    use crate::schema::walk::walk;
    use crate::syntax::document::parse;

    fn counts(text: &str) -> Counts {
        let root = parse(text).unwrap();
        count(&walk(&root, "", Draft::Draft202012))
    }

    #[test]
    fn counts_names_values_and_levels_as_openais_java_sdk() {
        let c = counts(
            r##"{
              "type": "object",
              "properties": {
                "mode": {"type": "string", "enum": ["fast", "slow"]},
                "n": {"enum": [1, 20, null]},
                "tag": {"const": "x"},
                "deep": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"type": "null"}]}}
              },
              "$defs": {"Leaf": {"type": "object", "properties": {"id": {"type": "string"}}}}
            }"##,
        );
        assert_eq!(c.properties, 5);
        // mode n tag deep id (14) + Leaf (4) + fast slow (8) + 1 20 null (7) + x (1)
        assert_eq!(c.characters, 14 + 4 + 8 + 7 + 1);
        assert_eq!(c.enum_values, 5);
        // properties/deep, items, anyOf/0: three steps; $defs/Leaf, properties/id: two.
        assert_eq!(c.deepest.0, 3);
        assert!(c.long_enums.is_empty());
    }

    #[test]
    fn long_string_enums_are_counted_each() {
        let values: Vec<String> = (0..251).map(|i| format!("\"v{i:03}\"")).collect();
        let c = counts(&format!(
            r#"{{"type": "object", "properties": {{"a": {{"enum": [{}]}}}}}}"#,
            values.join(",")
        ));
        assert_eq!(c.long_enums, vec![(1, 251, 251 * 4)]);
        assert_eq!(c.enum_values, 251);
    }

    #[test]
    fn writes_thousands() {
        assert_eq!(thousands(5), "5");
        assert_eq!(thousands(5000), "5,000");
        assert_eq!(thousands(120_000), "120,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}

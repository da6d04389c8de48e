//! What the `OpenAI` strict-mode rules (SL701 strict-object-shape, SL702
//! strict-unsupported-keyword, SL703 strict-limits) share: which subschemas `OpenAI` reads as
//! objects and arrays, the formats it allows, and the edits that add a member to an object or an
//! item to an array in the layout the file already has.

use crate::diagnostic::fix::Edit;
use crate::rules::UnitContext;
use crate::syntax::document::{Member, Node};
use crate::syntax::source::Span;

/// The formats `OpenAI` strict mode accepts on a string (its documentation's list); any other
/// `format` is refused with `'uri' is not a valid format`.
pub const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

use crate::rules::analysis::node::type_names;

/// Whether `OpenAI` reads the subschema as an object schema: its `type` names `object`, or it has
/// no `type` but declares `properties`.
#[must_use]
pub fn is_object(node: &Node) -> bool {
    match type_names(node) {
        Some(names) => names.contains(&"object"),
        None => node.get("properties").is_some(),
    }
}

/// Whether the subschema's `type` names `array`.
#[must_use]
pub fn is_array(node: &Node) -> bool {
    type_names(node).is_some_and(|names| names.contains(&"array"))
}

/// Where a finding about a keyword the schema lacks points: the value of its `type`, which says
/// what the schema is, or else its opening brace.
#[must_use]
pub fn anchor(node: &Node) -> Span {
    node.get("type").map_or_else(
        || Span::new(node.span.start, node.span.start + 1),
        |t| t.span,
    )
}

/// The edit that adds `"key": value` (`value` already JSON text) as the last member of the
/// object `node`, laid out like its members: the same separator between members, the same
/// spacing around the colon. `None` for an empty object without members to copy from.
#[must_use]
pub fn append_member(cx: &UnitContext<'_>, node: &Node, key: &str, value: &str) -> Option<Edit> {
    let members = node.as_object()?;
    let (span, content) = append_member_text(cx.text(), node, members, key, value)?;
    Some(Edit {
        file: cx.file.id,
        span,
        content,
    })
}

fn append_member_text(
    text: &str,
    node: &Node,
    members: &[Member],
    key: &str,
    value: &str,
) -> Option<(Span, String)> {
    let key = serde_json::to_string(key).ok()?;
    let Some(last) = members.last() else {
        // `{}`: write the member between the braces.
        let inside = Span::new(node.span.start + 1, node.span.end - 1);
        return Some((inside, format!("{key}: {value}")));
    };
    let colon = &text[last.key_span.end..last.value.span.start];
    let separator = match members.len() {
        1 => {
            let leading = &text[node.span.start + 1..last.key_span.start];
            if leading.contains('\n') {
                leading.to_owned()
            } else {
                " ".to_owned()
            }
        }
        n => {
            let between = &text[members[n - 2].value.span.end..last.key_span.start];
            between
                .trim_start()
                .strip_prefix(',')
                .unwrap_or(" ")
                .to_owned()
        }
    };
    let at = Span::new(last.value.span.end, last.value.span.end);
    Some((at, format!(",{separator}{key}{colon}{value}")))
}

/// The edit that appends `items` (each JSON text) to the array `node`, laid out like its items;
/// an empty array is written whole.
#[must_use]
pub fn append_items(cx: &UnitContext<'_>, node: &Node, items: &[String]) -> Option<Edit> {
    let existing = node.as_array()?;
    let (span, content) = append_items_text(cx.text(), node, existing, items);
    Some(Edit {
        file: cx.file.id,
        span,
        content,
    })
}

fn append_items_text(
    text: &str,
    node: &Node,
    existing: &[Node],
    items: &[String],
) -> (Span, String) {
    let Some(last) = existing.last() else {
        return (node.span, format!("[{}]", items.join(", ")));
    };
    let separator = match existing.len() {
        1 => {
            let leading = &text[node.span.start + 1..last.span.start];
            if leading.contains('\n') {
                leading.to_owned()
            } else {
                " ".to_owned()
            }
        }
        n => {
            let between = &text[existing[n - 2].span.end..last.span.start];
            between
                .trim_start()
                .strip_prefix(',')
                .unwrap_or(" ")
                .to_owned()
        }
    };
    let mut content = String::new();
    for item in items {
        content.push(',');
        content.push_str(&separator);
        content.push_str(item);
    }
    (Span::new(last.span.end, last.span.end), content)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn apply(text: &str, (span, content): (Span, String)) -> String {
        let mut out = text.to_owned();
        out.replace_range(span.start..span.end, &content);
        out
    }

    fn member(text: &str, key: &str, value: &str) -> String {
        let node = parse(text).unwrap();
        let members = node.as_object().unwrap();
        apply(
            text,
            append_member_text(text, &node, members, key, value).unwrap(),
        )
    }

    fn items(text: &str, new: &[&str]) -> String {
        let node = parse(text).unwrap();
        let existing = node.as_array().unwrap();
        let new: Vec<String> = new.iter().map(|s| (*s).to_owned()).collect();
        apply(text, append_items_text(text, &node, existing, &new))
    }

    #[test]
    fn appends_a_member_in_the_files_layout() {
        assert_eq!(
            member(r#"{"type": "object"}"#, "properties", "{}"),
            r#"{"type": "object", "properties": {}}"#
        );
        assert_eq!(
            member(r#"{"type":"object","a":1}"#, "items", "{}"),
            r#"{"type":"object","a":1,"items":{}}"#
        );
        assert_eq!(
            member(
                "{\n  \"type\": \"object\"\n}",
                "additionalProperties",
                "false"
            ),
            "{\n  \"type\": \"object\",\n  \"additionalProperties\": false\n}"
        );
        assert_eq!(
            member(
                "{\r\n    \"a\": 1,\r\n    \"b\": 2\r\n}",
                "required",
                "[\"a\"]"
            ),
            "{\r\n    \"a\": 1,\r\n    \"b\": 2,\r\n    \"required\": [\"a\"]\r\n}"
        );
        assert_eq!(member("{}", "a", "1"), r#"{"a": 1}"#);
    }

    #[test]
    fn appends_items_in_the_files_layout() {
        assert_eq!(items("[]", &["\"a\"", "\"b\""]), r#"["a", "b"]"#);
        assert_eq!(items(r#"["a"]"#, &["\"b\""]), r#"["a", "b"]"#);
        assert_eq!(items(r#"["a","b"]"#, &["null"]), r#"["a","b",null]"#);
        assert_eq!(
            items("[\n  \"a\",\n  \"b\"\n]", &["\"c\""]),
            "[\n  \"a\",\n  \"b\",\n  \"c\"\n]"
        );
    }

    #[test]
    fn reads_objects_and_arrays_as_openai_does() {
        let object = |t: &str| is_object(&parse(t).unwrap());
        assert!(object(r#"{"type": "object"}"#));
        assert!(object(r#"{"type": ["object", "null"]}"#));
        assert!(object(r#"{"properties": {}}"#));
        assert!(!object(r#"{"type": "string", "properties": {}}"#));
        assert!(!object("{}"));
        assert!(is_array(&parse(r#"{"type": ["array", "null"]}"#).unwrap()));
        assert!(!is_array(&parse(r#"{"items": {}}"#).unwrap()));
    }
}

//! Removing the repeated values of an array (`"enum": ["a", "a", "b"]`), each with the comma
//! before it, in the file's own layout.

use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::syntax::document::{Node, NodeKind};
use crate::syntax::source::{FileId, Span};
use serde_json::Value;

/// The fix that removes every value of `array` equal to an earlier one (numbers equal by value,
/// `1` and `1.0` alike, as JSON Schema's equality says), and the repeated values as written, or
/// `None` when no value repeats.
#[must_use]
pub fn repeated_items_fix(file: FileId, text: &str, array: &Node) -> Option<(Vec<String>, Fix)> {
    let NodeKind::Array(items) = &array.kind else {
        return None;
    };
    let values: Vec<Value> = items.iter().map(Node::to_value).collect();
    let mut edits = Vec::new();
    let mut repeated = Vec::new();
    for (i, value) in values.iter().enumerate().skip(1) {
        if values[..i].iter().any(|v| equal(v, value)) {
            edits.push(Edit {
                file,
                span: Span {
                    start: items[i - 1].span.end,
                    end: items[i].span.end,
                },
                content: String::new(),
            });
            repeated.push(text[items[i].span.start..items[i].span.end].to_owned());
        }
    }
    if edits.is_empty() {
        return None;
    }
    let fix = Fix {
        title: "Remove the repeated values".to_owned(),
        applicability: Applicability::Safe,
        edits,
        moves: Vec::new(),
    };
    Some((repeated, fix))
}

/// JSON Schema's equality: numbers by value, arrays item by item, objects member by member.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn fixed(text: &str) -> Option<String> {
        let root = parse(text).ok()?;
        let (_, fix) = repeated_items_fix(FileId(0), text, &root)?;
        let mut out = text.to_owned();
        for e in fix.edits.iter().rev() {
            out.replace_range(e.span.start..e.span.end, &e.content);
        }
        Some(out)
    }

    #[test]
    fn removes_each_repeat_with_the_comma_before_it() {
        assert_eq!(
            fixed(r#"["a", "a", "b"]"#).as_deref(),
            Some(r#"["a", "b"]"#)
        );
        assert_eq!(
            fixed("[1,\n  1.0,\n  2,\n  1]").as_deref(),
            Some("[1,\n  2]")
        );
        assert_eq!(
            fixed(r#"[{"x": 1}, {"x": 1.0}, "a", "a"]"#).as_deref(),
            Some(r#"[{"x": 1}, "a"]"#)
        );
        assert_eq!(fixed(r#"["a", "b", true, 1]"#), None);
    }
}

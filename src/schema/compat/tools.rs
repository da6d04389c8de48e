//! Two `tools/list` documents compared: tools matched by name; a tool removed (or renamed) is
//! breaking, one added is information, a changed description, title or annotations a warning
//! (models read them), and so is a changed `execution` (whether clients may, or must, call it
//! as a task); each `inputSchema` is compared for its consumer (the server reads what
//! callers send) and each `outputSchema` for its producer (callers read what the server sends).

use super::{compare, Counterexample, Finding, Role, Side, Verdict};
use serde_json::{json, Value};

/// The `tools` array of a document and its pointer (`/tools` or `/result/tools`).
fn tools(document: &Value) -> Option<(&Vec<Value>, &'static str)> {
    if let Some(tools) = document.get("tools").and_then(Value::as_array) {
        return Some((tools, "/tools"));
    }
    Some((
        document.get("result")?.get("tools")?.as_array()?,
        "/result/tools",
    ))
}

/// Whether `document` is a `tools/list` result (or a response or dump carrying one).
#[must_use]
pub fn is_tools_list(document: &Value) -> bool {
    tools(document).is_some_and(|(t, _)| t.iter().all(Value::is_object))
}

fn named(list: &[Value]) -> Vec<(usize, &str, &Value)> {
    list.iter()
        .enumerate()
        .filter_map(|(i, t)| Some((i, t.get("name")?.as_str()?, t)))
        .collect()
}

/// How many tools a document has.
#[must_use]
pub fn count(document: &Value) -> usize {
    tools(document).map_or(0, |(t, _)| t.len())
}

/// The findings from the tools of `old` to those of `new`.
#[must_use]
pub fn compare_tools(old: &Value, new: &Value) -> Vec<Finding> {
    let (Some((old_list, old_base)), Some((new_list, new_base))) = (tools(old), tools(new)) else {
        return Vec::new();
    };
    let (old_tools, new_tools) = (named(old_list), named(new_list));
    let mut out = Vec::new();
    for &(i, name, tool) in &old_tools {
        let old_at = format!("{old_base}/{i}");
        let Some(&(j, _, new_tool)) = new_tools.iter().find(|(_, n, _)| *n == name) else {
            let mut f = Finding::new(
                "tool-removed",
                Verdict::Breaking,
                format!("tool `{name}` removed (or renamed)"),
            );
            f.old_pointer = Some(old_at);
            f.tool = Some(name.to_owned());
            out.push(f);
            continue;
        };
        let new_at = format!("{new_base}/{j}");
        let mut found = fields(name, tool, new_tool, &old_at, &new_at);
        let empty = json!({"type": "object"});
        let input = (tool.get("inputSchema"), new_tool.get("inputSchema"));
        let of = |schema: &'static str, found: Vec<Finding>| {
            found.into_iter().map(move |mut f| {
                f.schema = Some(schema);
                f
            })
        };
        found.extend(of(
            "inputSchema",
            compare(
                input.0.unwrap_or(&empty),
                input.1.unwrap_or(&empty),
                Role::Consumer,
                &format!("{old_at}/inputSchema"),
                &format!("{new_at}/inputSchema"),
            ),
        ));
        match (tool.get("outputSchema"), new_tool.get("outputSchema")) {
            (Some(a), Some(b)) => found.extend(of(
                "outputSchema",
                compare(
                    a,
                    b,
                    Role::Producer,
                    &format!("{old_at}/outputSchema"),
                    &format!("{new_at}/outputSchema"),
                ),
            )),
            (None, Some(_)) => {
                let message =
                    "`outputSchema` added: clients start validating `structuredContent` against it"
                        .to_owned();
                let mut f = Finding::new("output-schema-added", Verdict::Warning, message);
                f.schema = Some("outputSchema");
                f.new_pointer = Some(format!("{new_at}/outputSchema"));
                found.push(f);
            }
            (Some(a), None) => found.push(output_removed(a, &old_at, &new_at)),
            (None, None) => {}
        }
        for mut f in found {
            f.tool = Some(name.to_owned());
            out.push(f);
        }
    }
    for &(j, name, _) in &new_tools {
        if !old_tools.iter().any(|(_, n, _)| *n == name) {
            let mut f = Finding::new(
                "tool-added",
                Verdict::Compatible,
                format!("tool `{name}` added"),
            );
            f.new_pointer = Some(format!("{new_base}/{j}"));
            f.tool = Some(name.to_owned());
            out.push(f);
        }
    }
    out
}

/// The members of a tool that are not schemas, compared: `description`, `title`,
/// `annotations` (models read them) and `execution` (clients call by it).
fn fields(name: &str, tool: &Value, new_tool: &Value, old_at: &str, new_at: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    for (key, kind, who) in [
        ("description", "description-changed", "models read it"),
        ("title", "title-changed", "models read it"),
        ("annotations", "annotations-changed", "models read it"),
        ("execution", "execution-changed", "clients call by it"),
    ] {
        let (a, b) = (tool.get(key), new_tool.get(key));
        if a != b {
            let mut f = Finding::new(
                kind,
                Verdict::Warning,
                format!("tool `{name}`: `{key}` changed ({who})"),
            );
            f.old_pointer = a.map(|_| format!("{old_at}/{key}"));
            f.new_pointer = Some(if b.is_some() {
                format!("{new_at}/{key}")
            } else {
                new_at.to_owned()
            });
            found.push(f);
        }
    }
    found
}

/// An `outputSchema` removed: callers lose the contract on `structuredContent`; the proof is a
/// value OLD rejects, which NEW (no schema) lets through.
fn output_removed(old: &Value, old_at: &str, new_at: &str) -> Finding {
    let message = "`outputSchema` removed: `structuredContent` is no longer checked".to_owned();
    let mut f = Finding::new("output-schema-removed", Verdict::Warning, message);
    f.schema = Some("outputSchema");
    f.old_pointer = Some(format!("{old_at}/outputSchema"));
    f.new_pointer = Some(new_at.to_owned());
    f.instance_pointer = Some(String::new());
    let Ok(validator) = super::witness::compile(old) else {
        f.verdict = Verdict::Unproven;
        f.message = format!("cannot prove compatible: {}", f.message);
        return f;
    };
    let tries = [
        json!({}),
        json!({"a": "a"}),
        json!([]),
        json!(null),
        json!("a"),
        json!(0),
    ];
    if let Some(instance) = tries.into_iter().find(|t| !validator.is_valid(t)) {
        f.verdict = Verdict::Breaking;
        f.counterexample = Some(Counterexample {
            instance,
            valid_under: Side::New,
        });
    }
    f
}

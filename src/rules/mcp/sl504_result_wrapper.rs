//! SL504 result-wrapper: the output schema is the `{"result": ...}` envelope that SDKs put
//! around non-object results; says what the envelope holds, for whoever reads
//! `structuredContent`.

use super::shape as mcp;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL504 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::{unescape_pointer_token, Node, NodeKind};

pub struct ResultWrapper;

/// How deep [`describe`] looks into nested schemas.
const DESCRIBE_DEPTH: usize = 3;

impl Rule for ResultWrapper {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.subschemas.first().map(|s| s.node) else {
            return;
        };
        let Some([member]) = root.get("properties").and_then(Node::as_object) else {
            return;
        };
        let required = root
            .get("required")
            .and_then(Node::as_array)
            .is_some_and(|r| r.iter().any(|n| n.as_str() == Some("result")));
        if member.key != "result" || !required || !mcp::may_be_object(root) {
            return;
        }
        let inner = describe(&member.value, DESCRIBE_DEPTH);
        out.push(
            cx.report(member.key_span,
                format!("Output is wrapped in `{{\"result\": ...}}`; the result is `{inner}`"),
            )
            .label(format!("`structuredContent.result` holds `{inner}`"))
            .help(help(root, &inner, cx.generator()))
            .note(
                "The Python SDK wraps scalars, lists, tuples, unions and `dict[int, T]` this way (title \
                 `<tool>Output`), and the TS v2 server wraps non-object results on 2025 sessions; the TS v2 \
                 server sends them bare on 2026-07-28, and since TS v2 2.4.0 a `.meta({id})` tool's fields come \
                 at the root: whoever validates `structuredContent` must not assume the wrapper",
            )
            .pointer(format!("{}/properties/result", cx.unit.pointer))
            .class(classes::SL504_RESULT_WRAPPER),
        );
    }
}

/// What the server's author can do, for the generator that wrote the schema: the wrapper is how
/// the SDKs send a result that is not an object, so the change, if one is wanted, is the tool's
/// return type; clients read `structuredContent.result` either way.
fn help(root: &Node, inner: &str, made_by: Option<Generator>) -> String {
    let keep = "or keep it: clients then read the value at `structuredContent.result`";
    if root.get("x-fastmcp-wrap-result").is_some() {
        return format!(
            "FastMCP wraps a result that is not an object by design (`x-fastmcp-wrap-result`) and \
             unwraps it for its own clients: to send fields at the root, return a Pydantic model or a \
             `dict[str, Any]`; {keep}"
        );
    }
    match made_by {
        Some(Generator::Pydantic) if inner.starts_with("object") => format!(
            "The Python SDK wraps a bare `-> Dict` result: annotate the tool `-> dict[str, Any]`, or \
             return a Pydantic model, to send its fields at the root; {keep}"
        ),
        Some(Generator::Pydantic) => format!(
            "The Python SDK wraps a result that is not a model or a dict: return a Pydantic model (or a \
             `TypedDict`) to send its fields at the root; {keep}"
        ),
        Some(Generator::Zod) => format!(
            "The TS server wraps a result that is not an object on 2025 sessions: give the tool an \
             object `outputSchema` (`z.object({{...}})`) to send its fields at the root; {keep}"
        ),
        _ => "Read and validate the value at `structuredContent.result`, not the object around it"
            .to_owned(),
    }
}

/// A short name for what a schema holds: `integer`, `array of WeatherData`, `integer or null`,
/// `tuple of (integer, string)`.
fn describe(node: &Node, depth: usize) -> String {
    let deeper = |n: &Node| describe(n, depth.saturating_sub(1));
    match &node.kind {
        NodeKind::Bool(true) => return "any value".to_owned(),
        NodeKind::Bool(false) => return "no value".to_owned(),
        NodeKind::Object(_) => {}
        _ => return "a value".to_owned(),
    }
    if depth == 0 {
        return node
            .get("title")
            .and_then(Node::as_str)
            .unwrap_or("a value")
            .to_owned();
    }
    if let Some(r) = node.get("$ref").and_then(Node::as_str) {
        let name = r
            .rsplit('/')
            .next()
            .map_or(r.to_owned(), unescape_pointer_token);
        if !name.is_empty() && !name.starts_with('#') {
            return name;
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(branches) = node.get(keyword).and_then(Node::as_array) {
            let parts: Vec<String> = branches.iter().map(deeper).collect();
            if !parts.is_empty() {
                return parts.join(" or ");
            }
        }
    }
    let types = mcp::type_names(node).unwrap_or_default();
    if types.len() > 1 {
        return types.join(" or ");
    }
    match types.first().copied() {
        Some("array") => {
            if let Some(prefix) = node
                .get("prefixItems")
                .or_else(|| node.get("items").filter(|i| i.as_array().is_some()))
                .and_then(Node::as_array)
            {
                let parts: Vec<String> = prefix.iter().map(deeper).collect();
                return format!("tuple of ({})", parts.join(", "));
            }
            match node.get("items") {
                Some(items) => format!("array of {}", deeper(items)),
                None => "array".to_owned(),
            }
        }
        Some("object") => match node.get("additionalProperties") {
            Some(values) if node.get("properties").is_none() && values.as_object().is_some() => {
                format!("object of {}", deeper(values))
            }
            // Pydantic titles the wrapper's property `Result`, which names nothing.
            _ => node
                .get("title")
                .and_then(Node::as_str)
                .filter(|t| *t != "Result")
                .unwrap_or("object")
                .to_owned(),
        },
        Some(t) => t.to_owned(),
        None if node.get("const").is_some() => "constant".to_owned(),
        None if node.get("enum").is_some() => "enum".to_owned(),
        None => "any value".to_owned(),
    }
}

//! What in a parsed file is a schema: the whole document, or each tool's `inputSchema` and
//! `outputSchema` in an MCP `tools/list` document.

use crate::schema::dialect::Draft;
use crate::schema::walk::declared_draft;
use crate::syntax::document::{Node, NodeKind};

/// The key under a dumped `tools/list` result's `_meta` where `schema-lint dump` notes the
/// server, its protocol revision and how it was reached.
pub const DUMP_META: &str = "schema-lint/dump";

/// The protocol revision a `tools/list` document notes it was listed with
/// (`result._meta["schema-lint/dump"].protocol`, as `schema-lint dump` writes it), if any.
#[must_use]
pub fn noted_protocol(root: &Node) -> Option<&str> {
    let result = root.get("result").unwrap_or(root);
    result
        .get("_meta")?
        .get(DUMP_META)?
        .get("protocol")?
        .as_str()
}

/// What kind of JSON a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A JSON Schema document.
    Schema,
    /// An MCP `tools/list` result (`{"tools": [...]}`) or a JSON-RPC response carrying one.
    ToolsList,
    /// Other JSON (`package.json`, `tsconfig.json`, data): not linted when found by a folder walk.
    Other,
}

/// Which schema of a tool a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The whole document of a schema file.
    Schema,
    /// A tool's `inputSchema` in a `tools/list` document.
    InputSchema,
    /// A tool's `outputSchema` in a `tools/list` document.
    OutputSchema,
}

/// A schema to lint: its root's pointer in the file, and its dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaUnit {
    /// JSON pointer of the schema's root within its file (empty for the whole document).
    pub pointer: String,
    /// Which schema of the file it is.
    pub role: Role,
    /// The tool's `name`, for the schemas of a `tools/list` document.
    pub tool: Option<String>,
    /// The dialect: the root's `$schema` when it names a known one, else the default.
    pub draft: Draft,
}

/// Keywords whose presence (with a value of the right shape) marks an object as a schema.
fn is_schema_keyword(key: &str, value: &Node) -> bool {
    match key {
        "$schema" => value.as_str().and_then(Draft::from_schema_uri).is_some(),
        "$id" | "$ref" => value.as_str().is_some(),
        // draft-04's `id`: only when it looks like a URI, so data records with an `id` stay out.
        "id" => value.as_str().is_some_and(|s| {
            s.contains([':', '/', '#']) || s.to_ascii_lowercase().ends_with(".json")
        }),
        "type" => is_type_value(value),
        "properties" | "$defs" | "definitions" | "patternProperties" => value.as_object().is_some(),
        "allOf" | "anyOf" | "oneOf" => value.as_array().is_some_and(|a| {
            a.iter()
                .all(|s| matches!(s.kind, NodeKind::Object(_) | NodeKind::Bool(_)))
        }),
        "items" => {
            matches!(value.kind, NodeKind::Object(_) | NodeKind::Bool(_))
                || value.as_array().is_some_and(|a| {
                    a.iter()
                        .all(|s| matches!(s.kind, NodeKind::Object(_) | NodeKind::Bool(_)))
                })
        }
        _ => false,
    }
}

const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

fn is_type_value(value: &Node) -> bool {
    match &value.kind {
        NodeKind::String(s) => TYPE_NAMES.contains(&s.as_str()),
        NodeKind::Array(items) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|t| t.as_str().is_some_and(|s| TYPE_NAMES.contains(&s)))
        }
        _ => false,
    }
}

/// The `tools` array of a `tools/list` document, with its pointer.
fn tools_array(root: &Node) -> Option<(&[Node], &'static str)> {
    if let Some(tools) = root.get("tools").and_then(Node::as_array) {
        return Some((tools, "/tools"));
    }
    let tools = root.get("result")?.get("tools")?.as_array()?;
    Some((tools, "/result/tools"))
}

/// A tool of a `tools/list` document: where it is and what it is called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tool {
    /// JSON pointer of the tool's object (`/tools/3`).
    pub pointer: String,
    /// Its `name`, when it is a string.
    pub name: Option<String>,
}

/// The tools of a `tools/list` document, in order; none for another document.
#[must_use]
pub fn tools(root: &Node) -> Vec<Tool> {
    let Some((tools, base)) = tools_array(root) else {
        return Vec::new();
    };
    tools
        .iter()
        .enumerate()
        .map(|(i, tool)| Tool {
            pointer: format!("{base}/{i}"),
            name: tool.get("name").and_then(Node::as_str).map(str::to_owned),
        })
        .collect()
}

/// Decides what a file holds. `explicit` files (named on the command line) are linted as a
/// schema even when nothing marks them as one; a boolean root is a schema only then.
#[must_use]
pub fn classify(root: &Node, explicit: bool) -> FileKind {
    if root.as_object().is_some()
        && tools_array(root).is_some_and(|(tools, _)| tools.iter().all(|t| t.as_object().is_some()))
    {
        return FileKind::ToolsList;
    }
    let marked = match &root.kind {
        NodeKind::Object(members) => members.iter().any(|m| is_schema_keyword(&m.key, &m.value)),
        NodeKind::Bool(_) => explicit,
        _ => false,
    };
    if marked || explicit {
        FileKind::Schema
    } else {
        FileKind::Other
    }
}

/// The schemas of a file of kind `kind`.
#[must_use]
pub fn units(root: &Node, kind: FileKind, default_draft: Draft) -> Vec<SchemaUnit> {
    match kind {
        FileKind::Other => Vec::new(),
        FileKind::Schema => vec![SchemaUnit {
            pointer: String::new(),
            role: Role::Schema,
            tool: None,
            draft: declared_draft(root).unwrap_or(default_draft),
        }],
        FileKind::ToolsList => {
            let Some((tools, base)) = tools_array(root) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for (i, tool) in tools.iter().enumerate() {
                let name = tool.get("name").and_then(Node::as_str).map(str::to_owned);
                for (key, role) in [
                    ("inputSchema", Role::InputSchema),
                    ("outputSchema", Role::OutputSchema),
                ] {
                    if let Some(schema) = tool.get(key) {
                        if matches!(schema.kind, NodeKind::Object(_) | NodeKind::Bool(_)) {
                            out.push(SchemaUnit {
                                pointer: format!("{base}/{i}/{key}"),
                                role,
                                tool: name.clone(),
                                draft: declared_draft(schema).unwrap_or(default_draft),
                            });
                        }
                    }
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn kind(text: &str) -> FileKind {
        classify(&parse(text).unwrap(), false)
    }

    #[test]
    fn tells_schemas_from_other_json() {
        assert_eq!(kind(r#"{"type": "object"}"#), FileKind::Schema);
        assert_eq!(kind(r#"{"$id": "x"}"#), FileKind::Schema);
        assert_eq!(
            kind(r#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#),
            FileKind::Schema
        );
        assert_eq!(
            kind(r#"{"name": "pkg", "type": "module", "dependencies": {}}"#),
            FileKind::Other
        );
        assert_eq!(
            kind(r#"{"$schema": "https://json.schemastore.org/tsconfig", "compilerOptions": {}}"#),
            FileKind::Other
        );
        assert_eq!(kind(r#"{"id": 7, "items": 3}"#), FileKind::Other);
        assert_eq!(kind("true"), FileKind::Other);
        assert_eq!(classify(&parse("true").unwrap(), true), FileKind::Schema);
        assert_eq!(kind(r#"{"tools": [{"name": "t"}]}"#), FileKind::ToolsList);
        assert_eq!(
            kind(r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}"#),
            FileKind::ToolsList
        );
    }

    #[test]
    fn one_unit_per_tool_schema() {
        let root = parse(r#"{"result": {"tools": [
            {"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}},
            {"name": "b", "inputSchema": {"type": "object"}}]}}"#).unwrap();
        let u = units(&root, FileKind::ToolsList, Draft::Draft202012);
        assert_eq!(u.len(), 3);
        assert_eq!(u[1].pointer, "/result/tools/0/outputSchema");
        assert_eq!(u[1].draft, Draft::Draft7);
        assert_eq!(u[2].tool.as_deref(), Some("b"));
    }
}

//! The tools `schema-lint mcp` offers, as its `tools/list` shows them: names, descriptions and
//! schemas. Each schema is itself linted by the tests (`tests.rs`): the whole listing passes
//! schema-lint for every default client, on every MCP revision.

use crate::diagnostic::breaks::Client;
use serde_json::{json, Value};

/// `lint_schema`.
pub(super) const LINT_SCHEMA: &str = "lint_schema";
/// `fix_schema`.
pub(super) const FIX_SCHEMA: &str = "fix_schema";
/// `lint_tools_list`.
pub(super) const LINT_TOOLS_LIST: &str = "lint_tools_list";
/// `explain_rule`.
pub(super) const EXPLAIN_RULE: &str = "explain_rule";

/// The targets a `target` argument names.
pub(super) const TARGETS: [&str; 4] = [
    "mcp-2025-06-18",
    "mcp-2025-11-25",
    "mcp-2026-07-28",
    "json-schema",
];

/// The listing: every tool.
pub(super) fn tools() -> Value {
    json!([
        {
            "name": LINT_SCHEMA,
            "title": "Lint a JSON Schema",
            "description": "Lint one JSON Schema (a tool's outputSchema or inputSchema, or any schema) \
                for the MCP clients that will read it. Returns every finding with the clients it \
                breaks (`breaks`) and the fix schema-lint offers. Nothing is read from disk or \
                the network: a `$ref` to another file cannot resolve here.",
            "inputSchema": linting_input(
                "The schema: a JSON object (or boolean), or its text as a string (then lines, \
                 columns and duplicate keys refer to that text).",
                false,
            ),
            "outputSchema": lint_output(),
            "annotations": annotations("Lint a JSON Schema"),
        },
        {
            "name": FIX_SCHEMA,
            "title": "Repair a JSON Schema",
            "description": "Apply schema-lint's fixes to one JSON Schema, the way `schema-lint \
                --fix` does: each fix is proven (the result parses, lints, resolves and compiles \
                with the jsonschema crate) before it is kept. Returns the fixed schema, what \
                changed, and the findings that remain. Unsafe fixes (they change which outputs \
                validate) only with `unsafe: true`.",
            "inputSchema": linting_input(
                "The schema to repair: a JSON object (or boolean), or its text as a string (then \
                 `text` keeps its layout).",
                true,
            ),
            "outputSchema": fix_output(),
            "annotations": annotations("Repair a JSON Schema"),
        },
        {
            "name": LINT_TOOLS_LIST,
            "title": "Lint a tools/list result",
            "description": "Lint every tool of an MCP `tools/list` result (`{\"tools\": [...]}`, or \
                the whole JSON-RPC response): the input and output schemas, the tool names, and \
                what breaks across tools (duplicate `$id`s). Returns the findings, with the \
                clients each breaks.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "document": {
                        "description": "The tools/list result: a JSON object, or its text as a string.",
                        "type": ["object", "string"]
                    },
                    "target": target_input("The MCP revision (default: the one a dump notes, else mcp-2025-11-25)."),
                    "clients": clients_input()
                },
                "required": ["document"]
            },
            "outputSchema": lint_output(),
            "annotations": annotations("Lint a tools/list result"),
        },
        {
            "name": EXPLAIN_RULE,
            "title": "Explain a rule",
            "description": "The documentation of a schema-lint rule: what it checks, why it \
                matters, which clients break, an example and how the fix works.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "code": {
                        "description": "A rule's code (`SL201`) or name (`invalid-id-uri`).",
                        "type": "string"
                    }
                },
                "required": ["code"]
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "code": {"type": "string"},
                    "name": {"type": "string"},
                    "severity": severity(),
                    "summary": {"type": "string"},
                    "doc": {"description": "The rule's doc, in Markdown.", "type": "string"}
                },
                "required": ["code", "name", "severity", "summary", "doc"]
            },
            "annotations": annotations("Explain a rule"),
        }
    ])
}

/// What every tool is: it reads only its arguments, changes nothing, reaches nothing.
fn annotations(title: &str) -> Value {
    json!({
        "title": title,
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
    })
}

fn target_input(description: &str) -> Value {
    json!({"description": description, "type": "string", "enum": TARGETS})
}

fn clients_input() -> Value {
    let mut names = vec!["default"];
    names.extend(Client::ALL.iter().map(|c| c.name()));
    json!({
        "description": "The clients to lint for: `default` (the MCP SDK clients and the hosts) \
            and model providers by name. Default: `default`.",
        "type": "array",
        "items": {"type": "string", "enum": names}
    })
}

fn linting_input(schema: &str, fix: bool) -> Value {
    let mut properties = json!({
        "schema": {"description": schema, "type": ["object", "boolean", "string"]},
        "target": target_input(
            "The MCP revision the schema is for, or `json-schema` for a plain schema \
             (default: mcp-2025-11-25).",
        ),
        "clients": clients_input()
    });
    if fix {
        properties["unsafe"] = json!({
            "description": "Also apply unsafe fixes (default: false).",
            "type": "boolean"
        });
    }
    json!({"type": "object", "properties": properties, "required": ["schema"]})
}

fn severity() -> Value {
    json!({"type": "string", "enum": ["error", "warning", "info"]})
}

/// A finding, as `--output-format json` gives it.
fn finding() -> Value {
    json!({
        "type": "object",
        "properties": {
            "code": {"description": "The rule's code (`SL201`).", "type": "string"},
            "name": {"type": "string"},
            "severity": severity(),
            "line": {"type": "integer"},
            "column": {"type": "integer"},
            "end_line": {"type": "integer"},
            "end_column": {"type": "integer"},
            "start": {"description": "Byte offset in the text linted.", "type": "integer"},
            "end": {"type": "integer"},
            "pointer": {"description": "JSON pointer of the offending value.", "type": "string"},
            "message": {"type": "string"},
            "help": {"type": "string"},
            "note": {"type": "string"},
            "breaks": {
                "description": "The clients the finding's class names, each with its verdict \
                    (`breaks`: it fails whatever the server sends; `warns`: it fails only on some \
                    values the server may send, checks less or rewrites the schema), what it \
                    does, in its own words where known, and how that is backed.",
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "client": {"type": "string"},
                        "verdict": {"type": "string", "enum": ["works", "warns", "breaks"]},
                        "effect": {"type": "string"},
                        "depends_on_data": {"type": "boolean"},
                        "detail": {
                            "description": "The client's own words; absent where only another \
                                schema's values would be quoted.",
                            "type": "string"
                        },
                        "evidence": {"type": "string", "enum": ["measured", "documented"]},
                        "source": {"type": "array", "items": {"type": "string"}},
                        "quote": {
                            "description": "What each source says that backs the claim, in order.",
                            "type": "array",
                            "items": {"type": "string"}
                        },
                        "read": {
                            "description": "The day each source was read (YYYY-MM-DD), in order.",
                            "type": "array",
                            "items": {"type": "string"}
                        },
                        "versions": {
                            "description": "The client's versions the claim holds for, where \
                                not every version: from the first it was seen in, until the one \
                                that fixed it (excluded); null for an open end.",
                            "type": "object",
                            "properties": {
                                "from": {"type": ["string", "null"]},
                                "until": {"type": ["string", "null"]}
                            },
                            "required": ["from", "until"]
                        }
                    },
                    "required": ["client", "verdict", "effect", "depends_on_data", "evidence"]
                }
            },
            "decided_by": {
                "description": "The selected clients whose verdict made the severity (absent \
                    where the rule's own severity decided).",
                "type": "array",
                "items": {"type": "string"}
            },
            "fix": {
                "description": "The fix offered, when there is one.",
                "type": "object",
                "properties": {
                    "applicability": {"type": "string", "enum": ["safe", "unsafe", "display-only"]},
                    "title": {"type": "string"}
                },
                "required": ["applicability", "title"]
            }
        },
        "required": ["code", "name", "severity", "pointer", "message", "breaks"]
    })
}

fn summary() -> Value {
    json!({
        "type": "object",
        "properties": {
            "findings": {"type": "integer"},
            "errors": {"type": "integer"},
            "warnings": {"type": "integer"},
            "infos": {"type": "integer"},
            "omitted": {
                "description": "Findings counted above but left out of the list, so that the \
                    result stays within what MCP clients read in one message (the first ones of \
                    the text are kept); lint a smaller part, or run the CLI, for the rest.",
                "type": "integer"
            }
        },
        "required": ["findings", "errors", "warnings", "infos"]
    })
}

fn lint_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "target": {"type": "string"},
            "findings": {"type": "array", "items": finding()},
            "summary": summary()
        },
        "required": ["target", "findings", "summary"]
    })
}

fn fix_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "target": {"type": "string"},
            "changed": {"description": "Whether any fix was applied.", "type": "boolean"},
            "schema": {
                "description": "The fixed schema (the schema given, when nothing changed).",
                "type": ["object", "boolean"]
            },
            "text": {
                "description": "The fixed text: the text given with only the fixed bytes changed, \
                    or the object given printed with two-space indentation.",
                "type": "string"
            },
            "applied": {
                "description": "The fixes applied, in order; each passed the proof.",
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "title": {"type": "string"},
                        "applicability": {"type": "string", "enum": ["safe", "unsafe"]}
                    },
                    "required": ["code", "title", "applicability"]
                }
            },
            "rejected": {
                "description": "The fixes refused because their proof failed, with why.",
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "title": {"type": "string"},
                        "reason": {"type": "string"}
                    },
                    "required": ["code", "title", "reason"]
                }
            },
            "findings": {
                "description": "What remains after the fixes.",
                "type": "array",
                "items": finding()
            },
            "summary": summary()
        },
        "required": ["target", "changed", "schema", "text", "applied", "rejected", "findings", "summary"]
    })
}

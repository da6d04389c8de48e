//! What the audit compiles of each tool's output schema: the two validators (as the Python
//! client validates, and as the TS clients do, see [`super::formats`]), and, for a schema it
//! cannot compile, the clients that cannot use it either, from its lint ([`SchemaBreak`]).

use super::verdicts;
use super::{findings, formats, CallError, Finding};
use crate::diagnostic::breaks::Effect;
use crate::diagnostic::client::Client;
use crate::diagnostic::verdict::Verdict;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A tool's output schema compiled twice: as the Python client validates (`format` an
/// annotation), and as the TS clients do (`format` asserted), see [`formats`]; and the clients
/// that cannot use it, as the lint of the schema finds them ([`SchemaBreak`]).
pub struct Validators {
    pub(super) compiled: Result<(jsonschema::Validator, jsonschema::Validator), String>,
    pub(super) breaks: Vec<SchemaBreak>,
}

pub(super) fn validator_for<'a>(
    cache: &'a mut HashMap<String, Validators>,
    tool: &str,
    schema: &Value,
) -> &'a Validators {
    cache.entry(tool.to_owned()).or_insert_with(|| {
        let compiled = formats::python_client(schema)
            .and_then(|python| Ok((python, formats::ts_clients(schema)?)));
        // Every output schema a call names is linted once, as `check` lints it, so that a
        // schema only a client refuses (SL501, SL201 ...) is said by `audit` too. The lint runs
        // on the engine's pool, which `schema-lint audit` keeps to one thread with a smaller
        // stack (`pool::prefer`): an audit streaming a large capture under a memory limit
        // cannot afford the address space of the default pool (`tests/it/hostile.rs`).
        let breaks = schema_breaks(tool, schema);
        Validators { compiled, breaks }
    })
}

/// A client that cannot use a tool's output schema: it cannot compile it, or resolve a
/// reference of it, and loses the tool (or every tool of the server). Found by linting the
/// schema as `check` lints a `tools/list` (the finding's `breaks`, measured by the engine tier
/// or documented), so that `audit` and `check` say the same of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaBreak {
    /// The client.
    pub client: Client,
    /// What it does with the schema (`compile-error`, `loses-tool`, ...).
    pub effect: Effect,
    /// The rule of the finding (`SL201`).
    pub code: &'static str,
    /// The finding's message (`` `$id` `x:output` is not a valid URI reference ``).
    pub message: String,
    /// The client's own words, where known (`URI scheme is malformed.`).
    pub detail: Option<String>,
    /// How the claim is backed: `measured` or `documented`.
    pub evidence: &'static str,
}

/// The clients of [`verdicts::CLIENTS`] that cannot use `schema` as the output schema of
/// `tool`, from its lint.
fn schema_breaks(tool: &str, schema: &Value) -> Vec<SchemaBreak> {
    use crate::syntax::source::{FileId, SourceFile};
    let listing = json!({"tools": [{
        "name": tool,
        "inputSchema": {"type": "object"},
        "outputSchema": schema,
    }]});
    let Ok(text) = serde_json::to_string_pretty(&listing) else {
        return Vec::new();
    };
    let file = SourceFile::from_string(FileId(0), "tools-list.json".to_owned(), None, text, true);
    let linted = crate::engine::lint_source(file, &crate::settings::Settings::default(), false);
    let mut out: Vec<SchemaBreak> = Vec::new();
    for d in &linted.diagnostics {
        for b in d.breaks.iter() {
            let fails = matches!(
                b.effect,
                Effect::CompileError
                    | Effect::UnresolvedReference
                    | Effect::LosesTool
                    | Effect::LosesToolList
            );
            let reported = b.reported(Some(tool), d.depends_on_output);
            // The lint's verdict, for the effects that leave the client no schema to check the
            // result with.
            if !fails
                || reported.verdict != Verdict::Breaks
                || !verdicts::CLIENTS.contains(&b.client)
            {
                continue;
            }
            let found = SchemaBreak {
                client: b.client,
                effect: b.effect,
                code: d.rule.code,
                message: d.message.clone(),
                detail: reported.detail,
                evidence: reported.evidence.name(),
            };
            if !out.contains(&found) {
                out.push(found);
            }
        }
    }
    out
}

/// `clients` with each client that cannot use the schema rejecting the result, whatever it
/// is: its verdict turned, or added.
pub(super) fn with_schema_breaks(
    mut clients: Vec<(Client, bool)>,
    breaks: &[SchemaBreak],
) -> Vec<(Client, bool)> {
    for b in breaks {
        match clients.iter_mut().find(|(c, _)| *c == b.client) {
            Some(verdict) => verdict.1 = false,
            None => clients.push((b.client, false)),
        }
    }
    clients.sort_by_key(|(c, _)| verdicts::CLIENTS.iter().position(|x| x == c));
    clients
}

/// The validated layer's verdict as the Python client gives it (`None`: the schema does not
/// compile), its errors, and the fields whose `format` only the TS clients reject (SL605).
pub(super) fn validate(
    compiled: &Result<(jsonschema::Validator, jsonschema::Validator), String>,
    instance: &Value,
) -> (Option<bool>, Vec<CallError>, Vec<Finding>) {
    match compiled {
        Ok((python, ts)) => {
            let errors: Vec<CallError> = python
                .iter_errors(instance)
                .map(|e| CallError {
                    instance_pointer: e.instance_path().as_str().to_owned(),
                    keyword: e.kind().keyword().to_owned(),
                    message: e.to_string(),
                })
                .collect();
            let disagreements = if errors.is_empty() {
                findings::format_disagreements(ts, instance)
            } else {
                Vec::new()
            };
            (Some(errors.is_empty()), errors, disagreements)
        }
        Err(why) => (
            None,
            vec![CallError {
                instance_pointer: String::new(),
                keyword: String::new(),
                message: format!("the output schema does not compile: {why}"),
            }],
            Vec::new(),
        ),
    }
}

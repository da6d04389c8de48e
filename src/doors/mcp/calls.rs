//! The bodies of the tools of `schema-lint mcp`. Everything they lint comes in the call's
//! arguments: no file is read or written, nothing is fetched, no command is run. A schema is
//! linted as a file of its own (`schema.json`, no path on disk), so a `$ref` to another document
//! cannot resolve, and its finding says why.

use super::tools::{EXPLAIN_RULE, FIX_SCHEMA, LINT_SCHEMA, LINT_TOOLS_LIST, TARGETS};
use crate::diagnostic::fix::Applicability;
use crate::diagnostic::meta;
use crate::engine::{lint_loaded, HeldRun, Run};
use crate::fix::Offer;
use crate::report::{self, OutputFormat};
use crate::rules::docs;
use crate::schema::units::FileKind;
use crate::settings::target::Target;
use crate::settings::Settings;
use crate::syntax::message::parse_message;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::load_source;
use serde_json::{json, Map, Value};

/// The name findings give the text linted.
const NAME: &str = "schema.json";

/// What the note of a finding on a `$ref` to another document adds.
const NO_FILES: &str = "schema-lint mcp reads no file and fetches nothing, so a `$ref` to another \
    document cannot resolve here: put the schema it names under this one's `$defs`, or lint the \
    files together with `schema-lint` on the command line";

/// The outcome of a call of a known tool: its structured content, or why the call failed (an
/// `isError` result).
pub(super) type Called = Result<Value, String>;

/// Runs the tool `name`; `None` when there is no such tool.
pub(super) fn call(name: &str, arguments: &Map<String, Value>) -> Option<Called> {
    Some(match name {
        LINT_SCHEMA => lint_schema(arguments),
        FIX_SCHEMA => fix_schema(arguments),
        LINT_TOOLS_LIST => lint_tools_list(arguments),
        EXPLAIN_RULE => explain_rule(arguments),
        _ => return None,
    })
}

/// A text to lint, from an argument: a string is the text itself, a JSON value is printed.
struct Input {
    text: String,
    /// The text's value, when it parses.
    value: Option<Value>,
}

fn input(arguments: &Map<String, Value>, key: &str, kinds: &str) -> Result<Input, String> {
    match arguments.get(key) {
        Some(Value::String(text)) => Ok(Input {
            value: parse_message(text).ok(),
            text: text.clone(),
        }),
        Some(value @ (Value::Object(_) | Value::Bool(_))) if kinds.contains("boolean") => {
            Ok(printed(value))
        }
        Some(value @ Value::Object(_)) => Ok(printed(value)),
        Some(_) => Err(format!("`{key}` must be {kinds}")),
        None => Err(format!("`{key}` is required: {kinds}")),
    }
}

fn printed(value: &Value) -> Input {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    Input {
        text,
        value: Some(value.clone()),
    }
}

/// The settings of a call: its `target` (else `default`) and `clients`.
fn settings(arguments: &Map<String, Value>, default: Option<Target>) -> Result<Settings, String> {
    let mut settings = Settings {
        target: default,
        ..Settings::default()
    };
    match arguments.get("target") {
        None | Some(Value::Null) => {}
        Some(Value::String(name)) => {
            let all = [
                Target::Mcp20250618,
                Target::Mcp20251125,
                Target::Mcp20260728,
                Target::JsonSchema,
            ];
            settings.target =
                Some(all.into_iter().find(|t| t.name() == name).ok_or_else(|| {
                    format!("unknown target `{name}`: one of {}", TARGETS.join(", "))
                })?);
        }
        Some(_) => return Err("`target` must be a string".to_owned()),
    }
    match arguments.get("clients") {
        None | Some(Value::Null) => {}
        Some(Value::Array(names)) => {
            let names: Option<Vec<&str>> = names.iter().map(Value::as_str).collect();
            let names = names.ok_or("`clients` must be an array of strings")?;
            let chosen = crate::settings::clients::parse(&names)?;
            settings.clients = chosen.clients;
            settings.versions = chosen.versions;
        }
        Some(_) => return Err("`clients` must be an array of strings".to_owned()),
    }
    Ok(settings)
}

fn lint(text: String, settings: &Settings) -> HeldRun {
    let file = SourceFile::from_string(FileId(0), NAME.to_owned(), None, text, true);
    lint_loaded(vec![load_source(file, true)], settings)
}

/// The target a run linted its one file for.
fn target_of(run: &Run, settings: &Settings) -> String {
    let file = &run.files[0];
    let target = match (file.schema_kind(), file.root()) {
        (Some(kind), Some(root)) => settings.target_for(kind, root, None),
        _ => settings.target.unwrap_or(Target::Mcp20251125),
    };
    target.name().to_owned()
}

/// The findings of a run as `--output-format json` gives them, without the file name (there is
/// one text), and the summary of their severities. A finding on a `$ref` to another document
/// says that it cannot resolve here.
fn findings(run: &Run, value: Option<&Value>) -> (Value, Value) {
    let rendered = report::render(run, OutputFormat::Json, report::Style::default());
    let mut list = match parse_message(&rendered)
        .ok()
        .map(|mut r| r["diagnostics"].take())
    {
        Some(Value::Array(list)) => list,
        _ => Vec::new(),
    };
    let (mut errors, mut warnings, mut infos) = (0, 0, 0);
    for finding in &mut list {
        let Some(object) = finding.as_object_mut() else {
            continue;
        };
        object.remove("path");
        if let Some(Value::Array(related)) = object.get_mut("related") {
            for r in related.iter_mut().filter_map(Value::as_object_mut) {
                r.remove("path");
            }
        }
        if let Some(Value::Object(fix)) = object.get_mut("fix") {
            if let Some(Value::Array(edits)) = fix.get_mut("edits") {
                for e in edits.iter_mut().filter_map(Value::as_object_mut) {
                    e.remove("path");
                }
            }
        }
        if object.get("note").is_some_and(Value::is_null) {
            object.remove("note");
        }
        if object.get("help").is_some_and(Value::is_null) {
            object.remove("help");
        }
        if object.get("fix").is_some_and(Value::is_null) {
            object.remove("fix");
        }
        match object.get("severity").and_then(Value::as_str) {
            Some("error") => errors += 1,
            Some("warning") => warnings += 1,
            _ => infos += 1,
        }
        let external = object
            .get("pointer")
            .and_then(Value::as_str)
            .filter(|p| p.ends_with("/$ref"))
            .and_then(|p| value?.pointer(p))
            .and_then(Value::as_str)
            .is_some_and(|r| !r.starts_with('#'));
        if external {
            let note = match object.get("note").and_then(Value::as_str) {
                Some(note) => format!("{NO_FILES}. {note}"),
                None => NO_FILES.to_owned(),
            };
            object.insert("note".to_owned(), Value::String(note));
        }
    }
    let mut summary = json!({
        "findings": list.len(),
        "errors": errors,
        "warnings": warnings,
        "infos": infos,
    });
    let omitted = keep_within(&mut list, FINDINGS_BUDGET);
    if omitted > 0 {
        summary["omitted"] = json!(omitted);
    }
    (Value::Array(list), summary)
}

/// How many bytes of findings a result carries at most. A result holds them twice (the
/// `structuredContent` and the same JSON as text), and the TypeScript SDK clients close the
/// connection on a message over 10 MiB (`ReadBuffer exceeded maximum size of 10485760 bytes`,
/// measured with `@modelcontextprotocol/client` 2.4.0 on a schema of 5,000 properties linted for
/// every client): 3 MiB each leaves room for the rest.
const FINDINGS_BUDGET: usize = 3 << 20;

/// Keeps the first findings of `list` whose JSON fits in `budget` bytes (the most serious first
/// is not the order: they stay in the order of the text, so the first ones a reader meets); the
/// number of findings left out.
fn keep_within(list: &mut Vec<Value>, budget: usize) -> usize {
    let mut used = 0;
    let kept = list
        .iter()
        .take_while(|f| {
            used += f.to_string().len() + 1;
            used <= budget
        })
        .count();
    let omitted = list.len() - kept;
    list.truncate(kept);
    omitted
}

fn lint_schema(arguments: &Map<String, Value>) -> Called {
    let input = input(arguments, "schema", "a JSON object, a boolean or a string")?;
    let settings = settings(arguments, Some(Target::Mcp20251125))?;
    let run = lint(input.text, &settings);
    let (findings, summary) = findings(&run, input.value.as_ref());
    Ok(json!({
        "target": target_of(&run, &settings),
        "findings": findings,
        "summary": summary,
    }))
}

fn lint_tools_list(arguments: &Map<String, Value>) -> Called {
    let input = input(arguments, "document", "a JSON object or a string")?;
    let settings = settings(arguments, None)?;
    let run = lint(input.text, &settings);
    let file = &run.files[0];
    if file.root().is_some() && file.kind() != Some(FileKind::ToolsList) {
        return Err(
            "`document` is not a tools/list result: an object with a `tools` array, or \
            a JSON-RPC response whose `result` is one"
                .to_owned(),
        );
    }
    let (findings, summary) = findings(&run, None);
    Ok(json!({
        "target": target_of(&run, &settings),
        "findings": findings,
        "summary": summary,
    }))
}

fn fix_schema(arguments: &Map<String, Value>) -> Called {
    let input = input(arguments, "schema", "a JSON object, a boolean or a string")?;
    if !input
        .value
        .as_ref()
        .is_some_and(|v| v.is_object() || v.is_boolean())
    {
        return Err(match &input.value {
            Some(_) => {
                "`schema` is not a schema: a schema is a JSON object or a boolean".to_owned()
            }
            None => "`schema` does not parse as JSON: `lint_schema` says where".to_owned(),
        });
    }
    let unsafe_fixes = match arguments.get("unsafe") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("`unsafe` must be a boolean".to_owned()),
    };
    let settings = settings(arguments, Some(Target::Mcp20251125))?;
    let before = input.text.clone();
    let run = lint(input.text, &settings);
    let mut outcome = crate::fix::fix_run(
        run,
        &settings,
        Offer {
            unsafe_fixes,
            follow_on: false,
        },
        &|_| Ok(()),
    );
    crate::fix::rejections::attach_rejections(&mut outcome);
    let text = outcome.run.files[0].file.text.to_string();
    let schema = if text == before {
        input.value.clone()
    } else {
        parse_message(&text).ok()
    };
    let Some(schema) = schema else {
        return Err("the fixed text does not parse: this is a bug in schema-lint".to_owned());
    };
    let applied: Vec<Value> = outcome
        .applied
        .iter()
        .map(|a| {
            json!({
                "code": a.code,
                "title": a.title,
                "applicability": if a.applicability == Applicability::Safe { "safe" } else { "unsafe" },
            })
        })
        .collect();
    let rejected: Vec<Value> = outcome
        .rejected
        .iter()
        .map(|r| json!({"code": r.code, "title": r.title, "reason": r.reason}))
        .collect();
    let (findings, summary) = findings(&outcome.run, Some(&schema));
    Ok(json!({
        "target": target_of(&outcome.run, &settings),
        "changed": text != before,
        "schema": schema,
        "text": text,
        "applied": applied,
        "rejected": rejected,
        "findings": findings,
        "summary": summary,
    }))
}

fn explain_rule(arguments: &Map<String, Value>) -> Called {
    let code = match arguments.get("code") {
        Some(Value::String(code)) => code,
        Some(_) => return Err("`code` must be a string".to_owned()),
        None => return Err("`code` is required: a rule's code (`SL201`) or name".to_owned()),
    };
    let rule = meta::find(code.trim())
        .ok_or_else(|| format!("no rule `{code}`: codes run from SL100 to SL901"))?;
    let doc = docs::doc_for(rule).unwrap_or_default();
    Ok(json!({
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity,
        "summary": rule.summary,
        "doc": doc,
    }))
}

//! `schema-lint audit --server CMD` / `--url URL`: call the tools the user names on a live
//! server, keep the exchange as a capture (`--save` writes it), and audit that capture as
//! `audit FILE` would, so that the report's positions are lines of the saved file.
//!
//! No tool is called unless named, and none at all when a named tool is not listed or its
//! `inputSchema` rejects the arguments given for it.

use super::args::AuditArgs;
use super::{exit, Outcome};
use crate::report::printable;
use crate::workspace::live::{self, CallsError, Server, ToolCall};
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The most calls one run makes.
const MAX_CALLS: usize = 10_000;

/// The most bytes read of `--calls FILE` and of `--call NAME=@FILE`: as much as one message.
const MAX_SIDE: u64 = crate::audit::capture::MAX_LINE as u64;

fn error(message: &str) -> Outcome {
    Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
        ..Outcome::default()
    }
}

/// `schema-lint audit --server/--url`.
pub(super) fn audit_live(args: &AuditArgs) -> Outcome {
    let options = crate::audit::Options {
        meta_id_tools: args.meta_id_tools.clone(),
        protocol: args.protocol.clone(),
        ..crate::audit::Options::default()
    };
    let server = match (&args.server, &args.url) {
        (Some(line), _) => Server::command(line, &args.env),
        (None, Some(url)) => Server::url(url, &args.headers),
        (None, None) => Err("`audit` needs a capture, or `--server`/`--url`".to_owned()),
    };
    let server = match server {
        Ok(s) => s,
        Err(why) => return error(&why),
    };
    let talk = match super::live::options_of(args.protocol.clone(), args.timeout) {
        Ok(o) => o,
        Err(why) => return error(&why),
    };
    let calls = match calls(&args.calls, args.calls_file.as_deref()) {
        Ok(c) if c.is_empty() => {
            return error("name the tools to call with `--call NAME=JSON` or `--calls FILE`: no tool is called unless named")
        }
        Ok(c) => c,
        Err(why) => return error(&why),
    };
    let label = printable(&server.label);
    let session = match live::call_tools(&server, &talk, &calls, &|tools| vet(tools, &calls)) {
        Ok(s) => s,
        Err(CallsError::Listing(why)) => {
            return error(&format!(
                "cannot list the tools of `{label}`: {}",
                printable(&why)
            ))
        }
        Err(CallsError::Refused(why)) => {
            return error(&format!(
                "{}; no tool of `{label}` was called",
                printable(&why)
            ))
        }
    };
    let (name, path) = match &args.save {
        Some(file) => match save(file, session.capture.as_bytes()) {
            Ok(()) => (file.display().to_string(), Some(file.clone())),
            Err(e) => {
                return error(&format!(
                    "{}: cannot write the capture: {e} (nothing else was written)",
                    file.display()
                ))
            }
        },
        None => (format!("<{}>", server.label), None),
    };
    let mut result = crate::audit::audit(&session.capture, &options);
    // The call the exchange stopped at is the last request sent: say what became of it.
    if let (Some(cause), Some(last)) = (
        &session.cause,
        result.unanswered.iter_mut().max_by_key(|u| u.line),
    ) {
        last.why = Some(printable(cause).into_owned());
    }
    let mut outcome = super::audit::render(args, &result, name, path, session.capture);
    if let Some(why) = &session.broken {
        let said = format!("error: `{label}`: {}\n", printable(why));
        outcome.stderr.insert_str(0, &said);
        outcome.code = exit::ERROR;
    }
    outcome
}

/// The calls of `--call` (in order), then those of `--calls`.
fn calls(items: &[String], file: Option<&Path>) -> Result<Vec<ToolCall>, String> {
    let mut calls = Vec::new();
    for item in items {
        let Some((name, arguments)) = item.split_once('=') else {
            return Err(format!(
                "`--call {item}` is not of the form NAME=JSON (or NAME=@FILE)"
            ));
        };
        let arguments = match arguments.strip_prefix('@') {
            Some(path) => super::audit::read_input(Path::new(path), MAX_SIDE)
                .map_err(|e| format!("`--call {item}`: cannot read {path}: {e}"))?,
            None => arguments.to_owned(),
        };
        let arguments = serde_json::from_str::<Value>(&arguments)
            .map_err(|e| format!("`--call {item}`: the arguments are not JSON: {e}"))?;
        calls.push(call(name, arguments, &format!("`--call {item}`"))?);
    }
    if let Some(file) = file {
        let text = super::audit::read_input(file, MAX_SIDE)
            .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", file.display(), n + 1);
            let value =
                serde_json::from_str::<Value>(line).map_err(|e| format!("{at}: not JSON: {e}"))?;
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{at}: a call is {{\"name\": \"TOOL\", \"arguments\": {{...}}}}: `name` is missing or not a string"))?;
            let arguments = value
                .get("arguments")
                .cloned()
                .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
            calls.push(call(name, arguments, &at)?);
        }
    }
    if calls.len() > MAX_CALLS {
        return Err(format!(
            "{} calls named: schema-lint makes at most {MAX_CALLS} in one run",
            calls.len()
        ));
    }
    Ok(calls)
}

fn call(name: &str, arguments: Value, at: &str) -> Result<ToolCall, String> {
    if name.is_empty() {
        return Err(format!("{at}: the tool's name is empty"));
    }
    if !arguments.is_object() {
        return Err(format!(
            "{at}: the arguments of a call are a JSON object, not {}",
            kind(&arguments)
        ));
    }
    Ok(ToolCall {
        name: name.to_owned(),
        arguments,
    })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Whether every call names a listed tool, with arguments its `inputSchema` accepts (`format`
/// as an annotation, as servers' validators mostly treat it). A schema the crate cannot compile
/// refuses the calls to its tool: its arguments cannot be checked.
fn vet(tools: &[Value], calls: &[ToolCall]) -> Result<(), String> {
    for call in calls {
        let name = printable(&call.name);
        let Some(tool) = tools
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(call.name.as_str()))
        else {
            let mut names: Vec<&str> = tools
                .iter()
                .filter_map(|t| t.get("name").and_then(Value::as_str))
                .collect();
            names.sort_unstable();
            let listed = match names.len() {
                0 => "it lists no tool".to_owned(),
                n if n <= 12 => format!("it lists {}", names.join(", ")),
                n => format!("it lists {} and {} more", names[..12].join(", "), n - 12),
            };
            return Err(format!(
                "`--call {name}`: the server has no tool `{name}` ({})",
                printable(&listed)
            ));
        };
        let Some(schema) = tool.get("inputSchema") else {
            continue;
        };
        let validator = jsonschema::options()
            .should_validate_formats(false)
            .build(schema)
            .map_err(|e| {
                format!(
                    "`--call {name}`: its inputSchema does not compile ({}), so its arguments cannot be checked",
                    printable(&e.to_string())
                )
            })?;
        let first = validator
            .iter_errors(&call.arguments)
            .next()
            .map(|e| (e.to_string(), e.instance_path().as_str().to_owned()));
        if let Some((why, at)) = first {
            return Err(format!(
                "`--call {name}`: its inputSchema rejects the arguments: {}{}",
                printable(&why),
                if at.is_empty() {
                    String::new()
                } else {
                    format!(" (at `{at}`)")
                }
            ));
        }
    }
    Ok(())
}

/// Writes `bytes` to `file` whole or not at all: a temporary file beside it, synced, then
/// renamed over it. The file keeps the mode of the one it replaces; a new one is `0600` (a
/// capture holds what the tools answered).
pub(super) fn save(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let temp: PathBuf =
        file.with_file_name(format!(".{name}.{}.schema-lint.tmp", std::process::id()));
    let written = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        options.mode(0o600);
        let mut f = options.open(&temp)?;
        #[cfg(unix)]
        if let Ok(old) = std::fs::metadata(file) {
            f.set_permissions(std::fs::Permissions::from_mode(
                old.permissions().mode() & 0o7777,
            ))?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&temp, file)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn calls_come_from_the_options_then_the_file() {
        let dir = std::env::temp_dir().join(format!("sl-calls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let args = dir.join("args.json");
        std::fs::write(&args, r#"{"city": "Köln"}"#).unwrap();
        let file = dir.join("calls.jsonl");
        std::fs::write(
            &file,
            "{\"name\": \"b\"}\n\n{\"name\": \"c\", \"arguments\": {\"n\": 1}}\n",
        )
        .unwrap();
        let items = vec![format!("a=@{}", args.display()), "x={}".to_owned()];
        let calls = calls(&items, Some(&file)).unwrap();
        let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "x", "b", "c"]);
        assert_eq!(calls[0].arguments, json!({"city": "Köln"}));
        assert_eq!(calls[2].arguments, json!({}));
        for (bad, says) in [
            ("nameonly", "not of the form NAME=JSON"),
            ("a=[1]", "a JSON object, not an array"),
            ("a={", "not JSON"),
            ("a=1", "a JSON object, not a number"),
            ("={}", "the tool's name is empty"),
        ] {
            let e = super::calls(&[bad.to_owned()], None).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        std::fs::write(&file, "{\"arguments\": {}}\n").unwrap();
        let e = super::calls(&[], Some(&file)).unwrap_err();
        assert!(e.ends_with("`name` is missing or not a string"), "{e}");
        assert!(e.contains("calls.jsonl:1: "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_tools_and_rejected_arguments_refuse_every_call() {
        let tools = vec![
            json!({"name": "get_weather", "inputSchema": {"type": "object",
                "properties": {"city": {"type": "string", "format": "email"}}, "required": ["city"]}}),
            json!({"name": "free"}),
        ];
        let call = |name: &str, arguments: Value| ToolCall {
            name: name.to_owned(),
            arguments,
        };
        assert!(vet(
            &tools,
            &[
                call("get_weather", json!({"city": "Köln"})),
                call("free", json!({"any": 1}))
            ]
        )
        .is_ok());
        let e = vet(
            &tools,
            &[
                call("get_weather", json!({"city": "x"})),
                call("nope", json!({})),
            ],
        )
        .unwrap_err();
        assert_eq!(
            e,
            "`--call nope`: the server has no tool `nope` (it lists free, get_weather)"
        );
        let e = vet(&tools, &[call("get_weather", json!({"city": 3}))]).unwrap_err();
        assert!(e.starts_with("`--call get_weather`: its inputSchema rejects the arguments: 3 is not of type \"string\""), "{e}");
        assert!(e.ends_with("(at `/city`)"), "{e}");
        let e = vet(&tools, &[call("get_weather", json!({}))]).unwrap_err();
        assert!(e.contains("\"city\" is a required property"), "{e}");
        assert!(!e.contains("(at"), "{e}");
    }

    #[test]
    fn a_capture_is_saved_whole_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("sl-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("capture.jsonl");
        std::fs::write(&file, "old\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |f: &Path| std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
            save(&file, b"{}\n").unwrap();
            assert_eq!(mode(&file), 0o640, "the mode of the file replaced");
            let new = dir.join("new.jsonl");
            save(&new, b"{}\n").unwrap();
            assert_eq!(mode(&new), 0o600, "a new capture is the owner's only");
            std::fs::remove_file(&new).unwrap();
        }
        save(&file, b"{\"jsonrpc\":\"2.0\"}\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "{\"jsonrpc\":\"2.0\"}\n"
        );
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        assert!(save(&dir.join("missing/capture.jsonl"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! `schema-lint port --for CLIENT` and [`crate::port`]: a schema, a tool or a `tools/list`
//! rewritten for one client, by the fix loop itself. The run is linted for that client alone;
//! every fix offered on a finding that names it (safe and unsafe) goes through the loop and its
//! proof, as `--fix --unsafe-fixes` does; nothing else is touched. Each schema of the document is
//! then compared with what it was ([`crate::schema::compat::compare`], both ways): where no
//! instance tells them apart its changes are `kept`; where one does, the changes are `changed`
//! and say what the client will no longer enforce. What the loop cannot repair is `left`: the
//! port is partial, and the command exits 2 with the reasons.

use super::{fix_run_where, Applied, Offer};
use crate::diagnostic::breaks::Client;
use crate::diagnostic::fix::Applicability;
use crate::diagnostic::Diagnostic;
use crate::engine::lint_loaded;
use crate::schema::compat::{self, Role as CompatRole, Verdict};
use crate::schema::units::units;
use crate::settings::Settings;
use crate::syntax::document::is_within;
use crate::syntax::source::{FileId, LineIndex, SourceFile};
use crate::workspace::{load_source, State};
use serde_json::Value;
use std::fmt::Write as _;

/// Whether a change keeps the schema's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Meaning {
    /// The same instances validate before and after: no instance the comparison builds tells
    /// the two schemas apart.
    Kept,
    /// Some instance validates under one and not the other: `differs` says what.
    Changed,
}

/// One rewrite of a port.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Change {
    /// The tool whose schema changed, in a `tools/list` document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// JSON pointer of the finding the change answers, in the document as it was.
    pub pointer: String,
    /// The rule whose finding offered it.
    pub rule: &'static str,
    /// What changed (the fix's title).
    pub change: String,
    /// Whether the schema still means the same.
    pub meaning: Meaning,
    /// For a `changed` schema: what validates differently in it now, one sentence each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differs: Vec<String>,
}

/// What a port made.
#[derive(Clone, Debug)]
pub struct Ported {
    /// The document rewritten, with the bytes of the input everywhere it did not change.
    pub text: String,
    /// The same, as a value.
    pub schema: Value,
    /// Each rewrite, in the order the loop applied them.
    pub changes: Vec<Change>,
    /// What could not be ported: each place of a finding that still breaks the client (a finding
    /// of several tools once per tool), as
    /// `POINTER: MESSAGE` (with its tool).
    pub left: Vec<String>,
    /// The tools renamed because the client refuses their names.
    pub renamed: Vec<Renamed>,
}

/// A tool sent under another name than its own.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Renamed {
    /// The name the client sees.
    pub sent: String,
    /// The server's own name for it, which a call must use.
    pub original: String,
    /// JSON pointer of the name in the document.
    pub pointer: String,
}

/// Ports `schema` (a schema, a tool, or a `tools/list` document) for `client` at its newest
/// known version.
///
/// ```
/// use schema_lint::diagnostic::breaks::Client;
/// use serde_json::json;
///
/// let tool = json!({"tools": [{"name": "get_weather", "inputSchema": {
///     "type": "object",
///     "properties": {"city": {"type": ["string", "null"]}}
/// }}]});
/// let client = Client::named("gemini").unwrap();
/// let ported = schema_lint::port(&tool, client);
/// assert!(ported.left.is_empty());
/// // Gemini refuses a type list: `nullable` says the same in the words it reads.
/// assert_eq!(ported.schema["tools"][0]["inputSchema"]["properties"]["city"],
///            json!({"type": "string", "nullable": true}));
/// assert_eq!(ported.changes[0].meaning, schema_lint::fix::port::Meaning::Kept);
/// // Porting the output again changes nothing.
/// assert!(schema_lint::port(&ported.schema, client).changes.is_empty());
/// ```
#[must_use]
pub fn port(schema: &Value, client: Client) -> Ported {
    let text = serde_json::to_string_pretty(schema).unwrap_or_default();
    let file = SourceFile::new(FileId(0), "schema.json".to_owned(), None, &text, true);
    let settings = Settings {
        clients: vec![client],
        ..Settings::default()
    };
    port_source(file, &settings).unwrap_or_else(|reason| Ported {
        text,
        schema: schema.clone(),
        changes: Vec::new(),
        left: vec![reason],
        renamed: Vec::new(),
    })
}

/// Ports the document of `file` for the one client `settings` selects (its version too).
///
/// # Errors
/// When the file is not JSON, or holds neither a schema nor a tool: why, with its place.
pub fn port_source(file: SourceFile, settings: &Settings) -> Result<Ported, String> {
    let [client] = settings.clients[..] else {
        return Err("a port is for one client".to_owned());
    };
    let name = file.name.clone();
    let loaded = load_source(file, true);
    if let Some(d) = loaded.diagnostics.first() {
        let at = LineIndex::new(&loaded.file.text).line_col(&loaded.file.text, d.span.start);
        return Err(format!("{name}:{}:{}: {}", at.line, at.column, d.message));
    }
    let State::Parsed { root, kind } = &loaded.state else {
        return Err(format!("{name}: neither a JSON Schema nor a tool"));
    };
    let (root, kind) = (root.to_value(), *kind);
    let run = lint_loaded(vec![loaded], settings);
    let outcome = fix_run_where(
        run,
        settings,
        Offer {
            unsafe_fixes: true,
            follow_on: true,
        },
        &|_| Ok(()),
        &|d: &Diagnostic| names(d, client),
    );
    let mut text = outcome.run.files[0].file.text.to_string();
    let mut found: Vec<Diagnostic> = outcome.run.diagnostics().into_iter().cloned().collect();
    let renamed = rename_refused(&mut text, &found, client);
    if !renamed.is_empty() {
        let file = SourceFile::new(FileId(0), name.clone(), None, &text, true);
        found = lint_loaded(vec![load_source(file, true)], settings)
            .diagnostics()
            .into_iter()
            .cloned()
            .collect();
    }
    let schema = crate::syntax::document::parse(&text).map_or(Value::Null, |r| r.to_value());
    let left = found
        .iter()
        .filter(|d| names(d, client) && d.severity == crate::Severity::Error)
        // A finding that groups one cause in several tools is left at each of its places.
        .flat_map(|d| {
            std::iter::once(&d.pointer)
                .chain(d.related.iter().map(|r| &r.pointer))
                .map(|at| format!("{at}: {} ({})", d.message, d.rule.code))
                .collect::<Vec<_>>()
        })
        .collect();
    let meanings: Vec<Unit> = units(
        &crate::syntax::document::parse(&text).map_err(|e| e.message)?,
        kind,
        settings.default_draft,
    )
    .iter()
    .map(|u| {
        // Both ways: a `kept` schema accepts exactly the instances it accepted.
        let role = CompatRole::Both;
        let old = pointer(&root, &u.pointer);
        let mut new = pointer(&schema, &u.pointer);
        read_as(client, &mut new);
        let differs = compat::compare(&old, &new, role, &u.pointer, &u.pointer)
            .into_iter()
            .filter(|f| matches!(f.verdict, Verdict::Breaking | Verdict::Unproven))
            .map(|f| {
                // The more precise of its two places (a removed keyword's is in the old schema).
                let at = [f.old_pointer, f.new_pointer]
                    .into_iter()
                    .flatten()
                    .max_by_key(String::len)
                    .unwrap_or_else(|| u.pointer.clone());
                (at, f.message)
            })
            .collect();
        Unit {
            pointer: u.pointer.clone(),
            differs,
        }
    })
    .collect();
    let mut changes: Vec<Change> = outcome
        .applied
        .iter()
        .map(|a| change(a, &root, &meanings, &outcome.applied))
        .collect();
    changes.extend(renamed.iter().map(|r| Change {
        tool: Some(r.original.clone()),
        pointer: r.pointer.clone(),
        rule: "SL710",
        change: format!(
            "Rename `{}` to `{}` (a proxy maps a call to `{}` back to `{}`)",
            r.original, r.sent, r.sent, r.original
        ),
        meaning: Meaning::Kept,
        differs: Vec::new(),
    }));
    Ok(Ported {
        text,
        schema,
        changes,
        left,
        renamed,
    })
}

/// `schema` as `client` reads it, in JSON Schema's words: Gemini's `parameters` take
/// `"nullable": true` (an `OpenAPI` keyword), which admits `null` beside the `type` (the port writes it for a
/// `["T", "null"]` type list, which Gemini refuses), where JSON Schema ignores the keyword.
fn read_as(client: Client, schema: &mut Value) {
    if client.name() != "gemini" {
        return;
    }
    match schema {
        Value::Object(map) => {
            if map.get("nullable") == Some(&Value::Bool(true)) {
                if let Some(Value::String(t)) = map.get("type") {
                    let t = Value::String(t.clone());
                    map.insert(
                        "type".to_owned(),
                        Value::Array(vec![t, Value::String("null".to_owned())]),
                    );
                }
                map.remove("nullable");
            }
            for v in map.values_mut() {
                read_as(client, v);
            }
        }
        Value::Array(items) => {
            for v in items {
                read_as(client, v);
            }
        }
        _ => {}
    }
}

/// The longest name every provider takes (`OpenAI`, Anthropic, Bedrock, Gemini).
const MAX_NAME: usize = 64;

/// Renames in `text` each tool whose name SL710 says `client` refuses: characters outside
/// `[A-Za-z0-9_-]` become `_`, a name that starts with neither a letter nor `_` gets a `_` before
/// it, a reserved one (`search`) gets `_tool` after it, and a name still over 64 characters keeps
/// its first 55 and a hash of the whole; a name another tool has gets `_2`, `_3` ...
fn rename_refused(text: &mut String, found: &[Diagnostic], client: Client) -> Vec<Renamed> {
    let Ok(root) = crate::syntax::document::parse(text) else {
        return Vec::new();
    };
    let mut taken: Vec<String> = Vec::new();
    if let Some(tools) = root
        .pointer("/tools")
        .or_else(|| root.pointer("/result/tools"))
        .and_then(|t| t.as_array())
    {
        taken.extend(
            tools
                .iter()
                .filter_map(|t| t.get("name").and_then(|n| n.as_str()).map(str::to_owned)),
        );
    }
    let mut out: Vec<Renamed> = Vec::new();
    let mut edits = Vec::new();
    for d in found
        .iter()
        .filter(|d| d.rule.code == "SL710" && names(d, client) && d.pointer.ends_with("/name"))
    {
        if out.iter().any(|r| r.pointer == d.pointer) {
            continue;
        }
        let Some(node) = root.pointer(&d.pointer) else {
            continue;
        };
        let Some(original) = node.as_str() else {
            continue;
        };
        let sent = unique(safe_name(original), &taken);
        if sent == original {
            continue;
        }
        taken.push(sent.clone());
        edits.push((node.span, serde_json::to_string(&sent).unwrap_or_default()));
        out.push(Renamed {
            sent,
            original: original.to_owned(),
            pointer: d.pointer.clone(),
        });
    }
    edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    for (span, literal) in edits {
        text.replace_range(span.start..span.end, &literal);
    }
    out
}

fn safe_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if out == "search" {
        out.push_str("_tool");
    }
    if out.len() > MAX_NAME {
        // FNV-1a of the whole name: two long names that share their first 55 characters differ.
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        out.truncate(55);
        let _ = write!(out, "_{:08x}", hash & 0xffff_ffff);
    }
    out
}

fn unique(name: String, taken: &[String]) -> String {
    if !taken.contains(&name) {
        return name;
    }
    // As many candidates as names taken, plus one: one of them is free.
    (2..taken.len() + 3)
        .map(|n| {
            let suffix = format!("_{n}");
            let keep = name.len().min(MAX_NAME - suffix.len());
            format!("{}{suffix}", &name[..keep])
        })
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or(name)
}

/// Whether a finding is about `client`: one of its claims names it.
fn names(d: &Diagnostic, client: Client) -> bool {
    d.breaks.iter().any(|b| b.client == client)
}

fn pointer(root: &Value, at: &str) -> Value {
    root.pointer(at).cloned().unwrap_or(Value::Null)
}

/// A schema of the document, and where and how it validates differently after the port.
struct Unit {
    pointer: String,
    differs: Vec<(String, String)>,
}

/// The change `a` made, with what validates differently because of it: each difference of its
/// schema goes to the change at the same place or around it (the innermost one), else, when no
/// change is there, to the unsafe changes of the schema (every change, if all were safe).
fn change(a: &Applied, root: &Value, meanings: &[Unit], all: &[Applied]) -> Change {
    let unit = meanings
        .iter()
        .filter(|u| is_within(&a.pointer, &u.pointer))
        .max_by_key(|u| u.pointer.len());
    let in_unit = |o: &Applied| unit.is_some_and(|u| is_within(&o.pointer, &u.pointer));
    let unsafe_in_unit = all
        .iter()
        .any(|o| in_unit(o) && o.applicability == Applicability::Unsafe);
    let mut differs: Vec<String> = Vec::new();
    for (at, message) in unit.map(|u| u.differs.as_slice()).unwrap_or_default() {
        let near = |o: &Applied| is_within(at, &o.pointer) || is_within(&o.pointer, at);
        let owner = all
            .iter()
            .filter(|o| in_unit(o) && near(o))
            .max_by_key(|o| o.pointer.len());
        let mine = match owner {
            Some(o) => std::ptr::eq(o, a),
            None => a.applicability == Applicability::Unsafe || !unsafe_in_unit,
        };
        if mine && !differs.contains(message) {
            differs.push(message.clone());
        }
    }
    let changed = !differs.is_empty();
    // A tool's schema is a member of the tool: its `name` is beside it.
    let tool = unit
        .and_then(|u| u.pointer.rsplit_once('/'))
        .and_then(|(tool, _)| root.pointer(&format!("{tool}/name")))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Change {
        tool,
        pointer: a.pointer.clone(),
        rule: a.code,
        change: a.title.clone(),
        meaning: if changed {
            Meaning::Changed
        } else {
            Meaning::Kept
        },
        differs,
    }
}

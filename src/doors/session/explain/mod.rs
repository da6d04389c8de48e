//! `schema-lint session --explain-error TEXT`: the error a user pastes, mapped to the server, the
//! tool and the JSON pointer in the request a host builds, then that tool's findings and their
//! fixes, rendered from the session's own judgement ([`super::request::Judged`]); nothing is
//! judged here again.
//!
//! The forms read (each from a public report):
//! - Anthropic: `tools.187.custom.name: String should have at most 64 characters`
//!   (anthropics/claude-code#2412), `tools.N.custom.input_schema: ...` (anomalyco/opencode#2082),
//!   `tools.585.FrontendRemoteMcpToolDefinition.name` (Claude Desktop), and
//!   `messages.N.content.M....tool_reference.tool_name`, which names no tool index;
//! - `OpenAI`: `Invalid 'tools[N].function.name': ...` (LibreChat#7435), `tools[85].parameters`
//!   (smallmain/vscode-unify-chat-provider#162), `Invalid schema for function 'NAME': In
//!   context=('properties', 'x'), ...` (lastmile-ai/openai-agents-mcp#2);
//! - Bedrock: `The value at toolConfig.tools.26.toolSpec.inputSchema.json.type must be one of the
//!   following: object` (kirodotdev/Kiro#11027), `toolConfig.tools.8.member.toolSpec.description`
//!   (LibreChat#13208);
//! - Gemini: `tools[0].function_declarations[6].parameters.properties[4].value` and
//!   `Unknown name "const" at '...'` (zed-industries/zed#53919, LibreChat#11761), where
//!   `properties[4]` is the fifth entry of `properties`, in the order the request holds them;
//! - zod paths, from a client that validates one server's `tools/list` with the TypeScript SDK
//!   (Cursor and others): `"path": ["tools", 18, "inputSchema", "type"]`
//!   (cloudflare/playwright-mcp#28, zereight/gitlab-mcp#286): the index counts that server's
//!   listing, not the request;
//! - a host's own texts that name a tool: Claude Code's `mcp__server__tool`
//!   (`Tool reference 'mcp__...' not found in available tools`, anthropics/claude-code#81863),
//!   VS Code's `Failed to validate tool mcp_...: ...` (microsoft/vscode#325618), a name quoted.
//!
//! A provider's index counts the whole request, in which a host may put its own tools before the
//! MCP tools (Claude Code's `Bash`, `Read`, ...); how many depends on the host's version and
//! settings, and schema-lint's model does not hold those counts: unless `--builtin-tools N` says
//! it, the index only bounds the MCP tool's place (at most N), and the error's content (the name
//! it quotes, a name too long, a place only one tool has, a finding there) decides.

mod map;
mod read;

pub use map::{map, Mapped, OwnTools, Place};
pub use read::parse;

use super::config::Found;
use super::render::{finding_json, finding_lines};
use super::request::{Finding, Judged};
use super::{Format, Options, Printed};
use crate::diagnostic::verdict::Verdict;
use map::{findings_of, plural, shown_path};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The longest tool name the hosts' providers take.
const MAX_NAME: usize = 64;

/// How many places an explanation lists before it says how many more there are.
const SHOWN: usize = 12;

/// One step of a path inside a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A key (a property, a keyword) or an array index, as written.
    Key(String),
    /// The n-th entry of an object, counted from 0 (Gemini's `properties[4].value`).
    Nth(usize),
}

/// What an error's tool index counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    /// The tools of the request the host sends its model (the host's own tools first, if any).
    Request,
    /// The tools of one server's `tools/list` listing (a client validating it).
    Listing,
    /// No index: the error names the tool by its content only.
    Nothing,
}

/// Who wrote the error, from its form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The Anthropic API (`tools.N.custom...`, `messages.N...tool_reference`).
    Anthropic,
    /// The `OpenAI` API (`tools[N].function...`, `Invalid schema for function 'NAME'`).
    OpenAi,
    /// Amazon Bedrock's Converse API (`toolConfig.tools.N.toolSpec...`).
    Bedrock,
    /// The Gemini API (`function_declarations[N]...`).
    Gemini,
    /// A zod validation of a server's listing (`["tools", N, ...]`).
    Zod,
    /// A host's own text naming a tool.
    Host,
}

impl Form {
    /// The form's name in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Form::Anthropic => "anthropic",
            Form::OpenAi => "openai",
            Form::Bedrock => "bedrock",
            Form::Gemini => "gemini",
            Form::Zod => "zod",
            Form::Host => "host",
        }
    }
}

/// What one place of a pasted error says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clue {
    /// Who wrote it.
    pub form: Form,
    /// The tool's index, if the error gives one.
    pub index: Option<usize>,
    /// What the index counts.
    pub counts: Counts,
    /// The place inside the tool, in MCP's terms (`name`, `inputSchema`, ...).
    pub path: Vec<Seg>,
    /// A tool name the error quotes (as the host sends it, or the tool's own).
    pub name: Option<String>,
    /// The error says the name is too long.
    pub too_long: bool,
    /// The words of the error this clue was read from.
    pub quote: String,
}

/// The explanation of every clue in every host judged, with the session's exit code (2 when a
/// configuration could not be read).
#[must_use]
pub fn render(clues: &[Clue], judged: &[Judged], found: &Found, options: &Options) -> Printed {
    let mut stderr = String::new();
    for e in &found.errors {
        let _ = writeln!(stderr, "error: {e}");
    }
    let own = options
        .builtin_tools
        .map_or(OwnTools::Unknown, OwnTools::Known);
    let mut mapped: Vec<(&Clue, Vec<(&Judged, Mapped)>)> = clues
        .iter()
        .map(|c| (c, judged.iter().map(|j| (j, map(c, j, own))).collect()))
        .collect();
    // A word read as a name (a host's own text) that names no tool of any request is dropped
    // when another clue does name one (`Failed to validate tool X: ... tool parameters ...`).
    let names_none = |(c, hosts): &(&Clue, Vec<(&Judged, Mapped)>)| {
        c.form == Form::Host && hosts.iter().all(|(_, m)| m.places.is_empty())
    };
    if mapped.iter().any(|m| !names_none(m)) {
        mapped.retain(|m| !names_none(m));
    }
    let stdout = match options.format {
        Format::Json => json_of(&mapped, found),
        Format::Human => human(&mapped),
        Format::Markdown => markdown(&mapped),
    };
    let code = if found.errors.is_empty() {
        u8::from(judged.iter().any(|j| j.fails))
    } else {
        2
    };
    Printed {
        stdout,
        stderr,
        code,
    }
}

type Explained<'a> = [(&'a Clue, Vec<(&'a Judged, Mapped)>)];

fn clue_json(c: &Clue) -> Value {
    json!({
        "form": c.form.name(),
        "index": c.index,
        "counts": match c.counts {
            Counts::Request => "request",
            Counts::Listing => "listing",
            Counts::Nothing => "none",
        },
        "path": shown_path(&c.path),
        "name": c.name,
        "too_long": c.too_long,
        "quote": c.quote,
    })
}

fn json_of(mapped: &Explained<'_>, found: &Found) -> String {
    let errors: Vec<Value> = mapped
        .iter()
        .map(|(c, hosts)| {
            let hosts: Vec<Value> = hosts
                .iter()
                .map(|(j, m)| {
                    let places: Vec<Value> = m
                        .places
                        .iter()
                        .take(if m.places.len() == 1 { 1 } else { SHOWN })
                        .map(|p| {
                            let (findings, at) = findings_of(j, p);
                            let findings: Vec<Value> = if m.places.len() == 1 {
                                findings.iter().map(|f| finding_json(j, f)).collect()
                            } else {
                                Vec::new()
                            };
                            json!({
                                "server": p.server,
                                "tool": p.tool,
                                "sent_as": p.sent_as,
                                "position": p.position,
                                "pointer": p.pointer,
                                "finding_at_pointer": at,
                                "findings": findings,
                            })
                        })
                        .collect();
                    json!({
                        "host": j.host,
                        "mapped": m.places.len() == 1,
                        "candidates": m.places.len(),
                        "by": m.by,
                        "notes": m.notes,
                        "places": places,
                    })
                })
                .collect();
            let mut v = clue_json(c);
            if let Some(obj) = v.as_object_mut() {
                obj.insert("hosts".to_owned(), Value::Array(hosts));
            }
            v
        })
        .collect();
    let document = json!({"version": 1, "explained": errors, "errors": found.errors});
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

fn headline(c: &Clue) -> String {
    let mut out = format!("`{}` ({}", c.quote, c.form.name());
    match (c.counts, c.index) {
        (Counts::Request, Some(n)) => {
            let _ = write!(out, ", index {n} of the request");
        }
        (Counts::Listing, Some(n)) => {
            let _ = write!(out, ", index {n} of a server's listing");
        }
        _ => {}
    }
    if !c.path.is_empty() {
        let _ = write!(out, ", at `{}`", shown_path(&c.path));
    }
    if c.too_long {
        out.push_str(", a name too long");
    }
    out.push(')');
    out
}

fn at(p: &Place) -> String {
    let mut out = format!("{}/{}", p.server, p.tool);
    if let Some(sent) = &p.sent_as {
        if *sent != p.tool {
            let _ = write!(out, " (sent as `{sent}`)");
        }
    } else {
        out.push_str(" (left out of the request by the host's filters)");
    }
    out
}

/// The words saying where a place is in the request (`at /result/tools/3/name` in backticks),
/// nothing for a tool the host leaves out.
fn pointer(p: &Place) -> String {
    p.pointer
        .as_deref()
        .map_or_else(String::new, |at| format!(" at `{at}`"))
}

fn human(mapped: &Explained<'_>) -> String {
    let mut out = String::new();
    for (c, hosts) in mapped {
        let _ = writeln!(out, "error: {}", headline(c));
        for (j, m) in hosts {
            match m.places.as_slice() {
                [] => {
                    let _ = writeln!(out, "  {}: no tool of its request matches", j.host);
                }
                [p] => {
                    let _ = writeln!(
                        out,
                        "  {}: {}{} (by {})",
                        j.host,
                        at(p),
                        pointer(p),
                        m.by.join("; ")
                    );
                    let (findings, here) = findings_of(j, p);
                    if p.position.is_none() {
                        let _ = writeln!(out, "    not in {}'s request: not judged for it", j.host);
                    } else if !here {
                        let _ = writeln!(out, "    schema-lint has no finding at this place");
                    }
                    for f in findings {
                        finding_lines(&mut out, f, "    ");
                    }
                }
                many => {
                    let _ = writeln!(
                        out,
                        "  {}: one of {} tools{}",
                        j.host,
                        many.len(),
                        if m.by.is_empty() {
                            String::new()
                        } else {
                            format!(" (by {})", m.by.join("; "))
                        }
                    );
                    for p in many.iter().take(SHOWN) {
                        let (findings, _) = findings_of(j, p);
                        let breaks = findings
                            .iter()
                            .filter(|f| f.verdict == Verdict::Breaks)
                            .count();
                        let _ = writeln!(
                            out,
                            "    {}{}{}",
                            at(p),
                            pointer(p),
                            if breaks == 0 {
                                String::new()
                            } else {
                                format!(
                                    ", {breaks} finding{} that break{}",
                                    plural(breaks),
                                    if breaks == 1 { "s" } else { "" }
                                )
                            }
                        );
                    }
                    if many.len() > SHOWN {
                        let _ = writeln!(out, "    and {} more", many.len() - SHOWN);
                    }
                }
            }
            for note in &m.notes {
                let _ = writeln!(out, "    note: {note}");
            }
        }
    }
    out
}

/// A finding in one markdown cell: code, verdict, message, the user's fix, the author's.
fn finding_cell(f: &Finding) -> String {
    let d = &f.diagnostic;
    let mut out = format!("{} ({}): {}", d.rule.code, f.verdict, d.message);
    if let Some(fix) = &f.user_fix {
        let _ = write!(out, "; your fix: {fix}");
    }
    if let Some(help) = &d.help {
        let _ = write!(out, "; the author's fix: {help}");
    }
    out
}

fn markdown(mapped: &Explained<'_>) -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut out = String::new();
    for (c, hosts) in mapped {
        let _ = writeln!(out, "### {}\n", cell(&headline(c)));
        out.push_str(
            "| host | server | tool | pointer | by | findings |\n|---|---|---|---|---|---|\n",
        );
        for (j, m) in hosts {
            if m.places.is_empty() {
                let _ = writeln!(
                    out,
                    "| {} | | | | {} | |",
                    j.host,
                    cell(&m.notes.join("; "))
                );
            }
            for p in m.places.iter().take(SHOWN) {
                let (findings, _) = findings_of(j, p);
                let listed: Vec<String> = findings
                    .iter()
                    .filter(|f| f.verdict != Verdict::Works)
                    .map(|f| finding_cell(f))
                    .collect();
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    j.host,
                    cell(&p.server),
                    cell(&p.tool),
                    cell(p.pointer.as_deref().unwrap_or("")),
                    cell(&if m.places.len() == 1 {
                        m.by.join("; ")
                    } else {
                        format!("one of {}", m.places.len())
                    }),
                    cell(&listed.join("<br>"))
                );
            }
        }
        out.push('\n');
    }
    out
}

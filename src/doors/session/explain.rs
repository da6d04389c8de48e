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

use super::config::Found;
use super::request::{Finding, Judged, State};
use super::{render, Format, Host, Options, Printed};
use crate::diagnostic::verdict::Verdict;
use regex::Regex;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::sync::LazyLock;

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

/// The error text with JSON's escapes undone (a message quoted inside a JSON string inside
/// another): `\"` is `"`, `\n` a space.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        if let Some('n' | 't' | 'r') = chars.peek() {
            chars.next();
            out.push(' ');
        }
    }
    out
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| unreachable!("pattern {pattern}: {e}"))
}

static BEDROCK: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"toolConfig\.tools\.(\d+)\.(?:member\.)?toolSpec(?:\.([A-Za-z0-9_$.\-]+))?")
});
static ANTHROPIC: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?:^|[^A-Za-z0-9_.\]])tools\.(\d+)\.([A-Za-z]\w*)(?:\.([A-Za-z0-9_$.\-]+))?")
});
static MESSAGES: LazyLock<Regex> =
    LazyLock::new(|| regex(r"messages\.\d+\.[A-Za-z0-9_.]*tool_reference\.tool_name"));
static GEMINI_UNKNOWN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"Unknown name "([^"]+)" at '(?:request\.)?(?:tools\[(\d+)\]\.)?function_declarations\[(\d+)\]([^']*)'"#,
    )
});
static GEMINI: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?:tools\[(\d+)\]\.)?function_declarations\[(\d+)\]((?:\.[A-Za-z_]\w*(?:\[\d+\])?)*)")
});
static OPENAI: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"tools\[(\d+)\]\.(?:function\.)?(name|parameters|description|strict)((?:\.[A-Za-z0-9_$\-]+|\[\d+\])*)",
    )
});
static OPENAI_FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"(?i:invalid schema for function) ['"`]([^'"`]+)['"`](?::[^\n]*?context=\(([^)]*)\))?"#)
});
static ZOD: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"\[\s*"tools"\s*,\s*(\d+)\s*((?:,\s*(?:"[^"]*"|\d+)\s*)*)\]"#));
static CLAUDE_CODE_NAME: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\bmcp__[A-Za-z0-9_.\-]+?__[A-Za-z0-9_.\-]+"));
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?i:tool reference|tool|function|tool name)\s+['"`]?([A-Za-z0-9_.:\-]{2,})['"`]?|['"`]([A-Za-z0-9_.:\-]{2,})['"`]|\b(mcp_[A-Za-z0-9_.:\-]+)"#,
    )
});
static TOO_LONG: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)at most 64 char|maximum length (?:of )?64|too long|exceeds? (?:the )?64|longer than 64|64[- ]char",
    )
});

/// A dotted rest (`input_schema.properties.x`, `parameters.properties[4].value.any_of[0]`) as a
/// path in MCP's terms, the first step naming the tool's field.
fn rest_path(rest: &str, gemini: bool) -> Vec<Seg> {
    let mut path = Vec::new();
    let mut parts = rest.split('.').filter(|p| !p.is_empty()).peekable();
    let mut first = true;
    while let Some(part) = parts.next() {
        let (key, nth) = match part.split_once('[') {
            Some((k, n)) => (k, n.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        let key = if first {
            first = false;
            match key {
                "input_schema"
                | "inputSchema"
                | "parameters"
                | "parameters_json_schema"
                | "parametersJsonSchema" => "inputSchema".to_owned(),
                other => other.to_owned(),
            }
        } else if key == "json" && path == [Seg::Key("inputSchema".to_owned())] && !gemini {
            // Bedrock's `inputSchema.json`: the schema itself.
            continue;
        } else if gemini {
            camel(key)
        } else {
            key.to_owned()
        };
        if key.is_empty() {
            if let Some(n) = nth {
                path.push(Seg::Key(n.to_string()));
            }
            continue;
        }
        let map_entry = gemini && key == "properties" && nth.is_some();
        path.push(Seg::Key(key));
        match nth {
            Some(n) if map_entry => {
                path.push(Seg::Nth(n));
                // Gemini's map entry `properties[4].value`: the value is the entry's schema.
                if parts.peek() == Some(&"value") {
                    parts.next();
                }
            }
            Some(n) => path.push(Seg::Key(n.to_string())),
            None => {}
        }
    }
    path
}

/// `any_of` as `anyOf` (Gemini's proto names of JSON Schema's keywords).
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut up = false;
    for c in key.chars() {
        if c == '_' && !out.is_empty() {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The path of `OpenAI`'s `context=('properties', 'x')`.
fn context_path(context: &str) -> Vec<Seg> {
    let mut path = vec![Seg::Key("inputSchema".to_owned())];
    for part in context.split(',') {
        let part = part.trim().trim_matches(|c| c == '\'' || c == '"');
        if !part.is_empty() {
            path.push(Seg::Key(part.to_owned()));
        }
    }
    path
}

/// The clues found in a text so far, each at its span of the text (a span read once).
struct Reader {
    text: String,
    too_long: bool,
    found: Vec<(usize, Clue)>,
    taken: Vec<(usize, usize)>,
}

/// A clue's fields but its quote, read from one match.
struct Read {
    form: Form,
    index: Option<usize>,
    counts: Counts,
    path: Vec<Seg>,
    name: Option<String>,
    too_long: bool,
}

impl Read {
    /// A clue of `form` at a tool index of the request.
    fn request(form: Form, index: Option<usize>, path: Vec<Seg>) -> Self {
        Read {
            form,
            index,
            counts: Counts::Request,
            path,
            name: None,
            too_long: false,
        }
    }

    /// A clue of `form` naming a tool, with no index.
    fn named(form: Form, name: Option<String>, path: Vec<Seg>) -> Self {
        Read {
            form,
            index: None,
            counts: Counts::Nothing,
            path,
            name,
            too_long: false,
        }
    }
}

fn span(m: &regex::Captures<'_>) -> (usize, usize) {
    m.get(0).map_or((0, 0), |g| (g.start(), g.end()))
}

fn group<'t>(m: &regex::Captures<'t>, i: usize) -> &'t str {
    m.get(i).map_or("", |g| g.as_str())
}

impl Reader {
    fn new(text: &str) -> Self {
        let text = unescape(text);
        Reader {
            too_long: TOO_LONG.is_match(&text),
            text,
            found: Vec::new(),
            taken: Vec::new(),
        }
    }

    /// Keeps `read` at `at`, unless an earlier form read that span; a name's clue says the name
    /// is too long when the text does.
    fn add(&mut self, at: (usize, usize), mut read: Read) {
        if self.taken.iter().any(|&(s, e)| at.0 < e && s < at.1) {
            return;
        }
        self.taken.push(at);
        if self.too_long
            && read
                .path
                .iter()
                .all(|seg| *seg == Seg::Key("name".to_owned()))
        {
            read.too_long = true;
        }
        let quote = self.text[at.0..at.1].trim().to_owned();
        self.found.push((
            at.0,
            Clue {
                form: read.form,
                index: read.index,
                counts: read.counts,
                path: read.path,
                name: read.name,
                too_long: read.too_long,
                quote,
            },
        ));
    }

    /// Each match of `pattern`, as `read` makes it a clue.
    fn each(&mut self, pattern: &Regex, read: impl Fn(&regex::Captures<'_>) -> Option<Read>) {
        let text = self.text.clone();
        for m in pattern.captures_iter(&text) {
            if let Some(r) = read(&m) {
                self.add(span(&m), r);
            }
        }
    }

    fn gemini(&mut self) {
        self.each(&GEMINI_UNKNOWN, |m| {
            let mut path = rest_path(group(m, 4), true);
            if path.is_empty() {
                path.push(Seg::Key("inputSchema".to_owned()));
            }
            path.push(Seg::Key(m[1].to_owned()));
            Some(Read::request(
                Form::Gemini,
                gemini_index(m.get(2), m.get(3)),
                path,
            ))
        });
        self.each(&GEMINI, |m| {
            let path = rest_path(group(m, 3), true);
            Some(Read::request(
                Form::Gemini,
                gemini_index(m.get(1), m.get(2)),
                path,
            ))
        });
    }

    fn bedrock(&mut self) {
        self.each(&BEDROCK, |m| {
            let path = rest_path(group(m, 2), false);
            Some(Read::request(Form::Bedrock, m[1].parse().ok(), path))
        });
    }

    fn anthropic(&mut self) {
        let text = self.text.clone();
        for m in ANTHROPIC.captures_iter(&text) {
            let (Some(all), Some(index)) = (m.get(0), m.get(1)) else {
                continue;
            };
            let start = index.start() - "tools.".len();
            let kind = &m[2];
            let rest = group(&m, 3).trim_end_matches('.');
            // `tools.3.custom.name`; `tools.3.input_schema` when no kind stands between.
            let rest = if matches!(kind, "name" | "input_schema" | "description") {
                format!("{kind}.{rest}")
            } else {
                rest.to_owned()
            };
            let read = Read::request(Form::Anthropic, m[1].parse().ok(), rest_path(&rest, false));
            self.add((start, all.end()), read);
        }
        for m in MESSAGES.find_iter(&text) {
            let read = Read::named(Form::Anthropic, None, vec![Seg::Key("name".to_owned())]);
            self.add((m.start(), m.end()), read);
        }
    }

    fn openai(&mut self) {
        self.each(&OPENAI, |m| {
            let path = rest_path(&format!("{}{}", &m[2], group(m, 3)), false);
            Some(Read::request(Form::OpenAi, m[1].parse().ok(), path))
        });
        self.each(&OPENAI_FUNCTION, |m| {
            let path = m.get(2).map_or_else(
                || vec![Seg::Key("inputSchema".to_owned())],
                |c| context_path(c.as_str()),
            );
            Some(Read::named(Form::OpenAi, Some(m[1].to_owned()), path))
        });
    }

    fn zod(&mut self) {
        self.each(&ZOD, |m| {
            let path = group(m, 2)
                .split(',')
                .map(|p| p.trim().trim_matches('"'))
                .filter(|p| !p.is_empty())
                .map(|p| Seg::Key(p.to_owned()))
                .collect();
            Some(Read {
                counts: Counts::Listing,
                ..Read::request(Form::Zod, m[1].parse().ok(), path)
            })
        });
    }

    fn host_names(&mut self) {
        self.each(&CLAUDE_CODE_NAME, |m| {
            Some(Read::named(Form::Host, Some(m[0].to_owned()), Vec::new()))
        });
        if !self.found.is_empty() {
            return;
        }
        // Only when no form above matched: a tool's name, quoted or after `tool`.
        self.each(&NAMED, |m| {
            let name = m.get(1).or_else(|| m.get(2)).or_else(|| m.get(3))?;
            let name = name.as_str().trim_end_matches(['.', ':']);
            (name.len() >= 2).then(|| Read::named(Form::Host, Some(name.to_owned()), Vec::new()))
        });
    }

    /// The clues in the order of the text, each place once: the same place said again more
    /// precisely (Gemini's `field` beside its `Unknown name "X" at '...'`) keeps the more precise.
    fn clues(mut self) -> Vec<Clue> {
        self.found.sort_by_key(|(at, _)| *at);
        let mut clues: Vec<Clue> = Vec::new();
        for (_, clue) in self.found {
            let same = |c: &Clue| {
                c.form == clue.form
                    && c.index == clue.index
                    && c.counts == clue.counts
                    && c.name == clue.name
            };
            if let Some(c) = clues
                .iter_mut()
                .find(|c| same(c) && clue.path.starts_with(&c.path))
            {
                *c = clue;
            } else if !clues
                .iter()
                .any(|c| same(c) && c.path.starts_with(&clue.path))
            {
                clues.push(clue);
            }
        }
        clues
    }
}

/// The clues of a pasted error, in the order they appear, each place once.
///
/// # Errors
/// A text with no tool index, no tool path and no tool name in it.
pub fn parse(text: &str) -> Result<Vec<Clue>, String> {
    let mut reader = Reader::new(text);
    reader.gemini();
    reader.bedrock();
    reader.anthropic();
    reader.openai();
    reader.zod();
    reader.host_names();
    let clues = reader.clues();
    if clues.is_empty() {
        return Err(
            "the error names no tool: give a provider's error as it was printed (`tools.N.custom...`, \
             `tools[N].function...`, `toolConfig.tools.N...`, `function_declarations[N]`, \
             `[\"tools\",N,...]`) or a text that names the tool"
                .to_owned(),
        );
    }
    Ok(clues)
}

/// Gemini's index: `tools[0].function_declarations[N]` (one tool, N declarations) counts N;
/// `tools[K].function_declarations[0]` (a tool each) counts K.
fn gemini_index(
    tools: Option<regex::Match<'_>>,
    declaration: Option<regex::Match<'_>>,
) -> Option<usize> {
    let k: usize = tools.and_then(|t| t.as_str().parse().ok()).unwrap_or(0);
    let n: usize = declaration.and_then(|d| d.as_str().parse().ok())?;
    Some(if n == 0 { k } else { n })
}

/// How many tools of its own a host sends before the MCP tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnTools {
    /// This many (`--builtin-tools`).
    Known(usize),
    /// Not known: the index only bounds the MCP tool's place.
    Unknown,
}

/// Why the count of a host's own tools is not known.
fn unknown_own_tools(host: Host) -> &'static str {
    match host {
        Host::ClaudeCode => {
            "Claude Code sends its own tools (Bash, Read, Edit, ...) before the MCP tools; how many \
             depends on its version and settings"
        }
        Host::GeminiCli => {
            "gemini-cli declares its own tools (read_file, run_shell_command, ...) before the MCP \
             tools; how many depends on its version and settings"
        }
        Host::Codex => {
            "Codex sends its own tools (shell, apply_patch, ...) before the MCP tools; how many \
             depends on its version and settings"
        }
        Host::Vscode => {
            "VS Code sends its own and its extensions' tools with the MCP tools; how many depends on \
             the tools picked"
        }
        Host::Cursor | Host::ClaudeDesktop | Host::Windsurf => {
            "its code is not open: how many tools of its own precede the MCP tools is not known"
        }
    }
}

/// A tool an error may be about.
#[derive(Clone, Debug)]
pub struct Place {
    /// The server's key.
    pub server: String,
    /// The tool's own name.
    pub tool: String,
    /// The name the host sends (none when the host's filters leave it out).
    pub sent_as: Option<String>,
    /// Its index in the request (MCP tools only, from 0), when sent.
    pub position: Option<usize>,
    /// The pointer of the place in the request document (`/result/tools/3/inputSchema/type`),
    /// as far as the tool has it.
    pub pointer: Option<String>,
    /// The place, as far as it is found in the tool.
    resolved: bool,
}

/// What an error's clue is, in one host's request.
#[derive(Clone, Debug)]
pub struct Mapped {
    /// The tools it may be about (one when mapped).
    pub places: Vec<Place>,
    /// How it was told (`index`, `name`, `content: ...`).
    pub by: Vec<String>,
    /// What is not known, or why nothing matched.
    pub notes: Vec<String>,
}

/// The tool of a request's server by its own name.
fn raw_tool<'a>(j: &'a Judged, server: &str, tool: &str) -> Option<&'a Value> {
    j.servers
        .iter()
        .filter(|s| s.entry.key == server)
        .find_map(|s| match &s.state {
            State::Listed(l) => l
                .tools
                .iter()
                .find(|t| t.get("name").and_then(Value::as_str) == Some(tool)),
            _ => None,
        })
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The pointer of `path` inside `tool` (Gemini's n-th entries named), and whether all of it is
/// in the tool.
fn resolve(tool: Option<&Value>, path: &[Seg]) -> (String, bool) {
    let mut pointer = String::new();
    let mut at = tool;
    for seg in path {
        let key = match (seg, at) {
            (Seg::Key(k), _) => Some(k.clone()),
            (Seg::Nth(n), Some(Value::Object(map))) => map.keys().nth(*n).cloned(),
            (Seg::Nth(_), _) => None,
        };
        let Some(key) = key else {
            return (pointer, false);
        };
        at = at.and_then(|v| match v {
            Value::Object(map) => map.get(&key),
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        });
        let _ = write!(pointer, "/{}", escape(&key));
    }
    (pointer, at.is_some() || path.is_empty())
}

/// Whether finding pointer `found` and the error's `place` overlap (one is in the other).
fn overlaps(found: &str, place: &str) -> bool {
    found == place
        || found
            .strip_prefix(place)
            .is_some_and(|r| r.starts_with('/'))
        || place
            .strip_prefix(found)
            .is_some_and(|r| r.starts_with('/'))
}

/// The findings the session has on `place`'s tool, the ones at the error's place first; and
/// whether any is at it.
fn findings_of<'a>(j: &'a Judged, place: &Place) -> (Vec<&'a Finding>, bool) {
    let mut at: Vec<&Finding> = Vec::new();
    let mut rest: Vec<&Finding> = Vec::new();
    for f in &j.findings {
        if f.server.as_deref() != Some(&place.server) || f.tool.as_deref() != Some(&place.tool) {
            continue;
        }
        if place
            .pointer
            .as_deref()
            .is_some_and(|p| overlaps(&f.diagnostic.pointer, p))
        {
            at.push(f);
        } else if f.verdict != Verdict::Works {
            rest.push(f);
        }
    }
    let any_at = !at.is_empty();
    at.extend(rest);
    (at, any_at)
}

/// Whether the session has a finding that warns or breaks at `place` (or in it, or around it).
fn breaks_at(j: &Judged, place: &Place) -> bool {
    let Some(pointer) = place.pointer.as_deref() else {
        return false;
    };
    j.findings.iter().any(|f| {
        f.verdict != Verdict::Works
            && f.server.as_deref() == Some(&place.server)
            && f.tool.as_deref() == Some(&place.tool)
            && overlaps(&f.diagnostic.pointer, pointer)
    })
}

/// The request's tool at `position`, as a place not yet resolved.
fn place_at(j: &Judged, position: usize) -> Place {
    let t = &j.tools[position];
    Place {
        server: t.server.clone(),
        tool: t.tool.clone(),
        sent_as: Some(t.name.clone()),
        position: Some(position),
        pointer: None,
        resolved: false,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The tools an index may be: in a server's listing (each server's n-th), or in the request
/// (after the host's own tools, or up to the index when their count is not known).
fn by_index(clue: &Clue, j: &Judged, own: OwnTools, out: &mut Mapped) {
    let host = j.host;
    match (clue.counts, clue.index) {
        (Counts::Listing, Some(n)) => {
            for server in &j.servers {
                let State::Listed(listing) = &server.state else {
                    continue;
                };
                let Some(listed) = listing.tools.get(n) else {
                    continue;
                };
                let own_name = listed
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let position = j
                    .tools
                    .iter()
                    .position(|t| t.server == server.entry.key && t.tool == own_name);
                out.places.push(Place {
                    server: server.entry.key.clone(),
                    tool: own_name.to_owned(),
                    sent_as: position.map(|at| j.tools[at].name.clone()),
                    position,
                    pointer: None,
                    resolved: false,
                });
            }
            out.by.push(format!("index {n} of a server's listing"));
            out.notes.push(
                "a zod path counts the tools of one server's `tools/list`, before the host's \
                 filters and names"
                    .to_owned(),
            );
        }
        (Counts::Request, Some(n)) => {
            let (from, to) = match own {
                OwnTools::Known(k) if n < k => {
                    out.notes.push(format!(
                        "index {n} is one of {host}'s own {k} tools (`--builtin-tools {k}`), not an MCP tool"
                    ));
                    return;
                }
                OwnTools::Known(k) => {
                    out.by
                        .push(format!("index {n}, after {k} tools of {host}'s own"));
                    (n - k, n - k)
                }
                OwnTools::Unknown => {
                    out.notes.push(format!(
                        "{}: index {n} is at most the MCP tool's place (`--builtin-tools N` says how many come first)",
                        unknown_own_tools(host)
                    ));
                    (0, n)
                }
            };
            out.places.extend(
                (from..=to)
                    .take_while(|&at| at < j.tools.len())
                    .map(|at| place_at(j, at)),
            );
            if out.places.is_empty() {
                out.notes.push(format!(
                    "{host}'s request holds {} MCP tool{}: none at index {n}",
                    j.tools.len(),
                    plural(j.tools.len())
                ));
            }
        }
        _ => out
            .places
            .extend((0..j.tools.len()).map(|at| place_at(j, at))),
    }
}

/// Keeps the tools the quoted name names (the name sent, the tool's own, or Claude Code's
/// `mcp__key__tool`), and those whose name is too long when the error says so.
fn by_name(clue: &Clue, j: &Judged, m: &mut Mapped) {
    let host = j.host;
    if let Some(name) = &clue.name {
        let before = m.places.len();
        m.places.retain(|p| {
            p.sent_as.as_deref() == Some(name)
                || p.tool == *name
                || *name == format!("mcp__{}__{}", p.server, p.tool)
        });
        if m.places.is_empty() {
            m.notes.push(format!(
                "no tool of {host}'s request is named `{name}` ({before} looked at)"
            ));
            // Claude Code's `mcp__key__tool`: say whether the server was read at all.
            let key = name
                .strip_prefix("mcp__")
                .and_then(|rest| rest.split_once("__"))
                .map(|(key, _)| key);
            if let Some(key) = key.filter(|k| !j.servers.iter().any(|s| s.entry.key == *k)) {
                m.notes.push(format!(
                    "no server is keyed `{key}` in {host}'s configurations read"
                ));
            }
        } else {
            m.by.push(format!("the name `{name}`"));
        }
    }
    if clue.too_long && clue.path.iter().all(|s| *s == Seg::Key("name".to_owned())) {
        let before = m.places.len();
        m.places.retain(|p| {
            p.sent_as
                .as_deref()
                .is_some_and(|s| s.chars().count() > MAX_NAME)
        });
        if m.places.is_empty() {
            if before > 0 {
                m.notes.push(format!(
                    "no name {host} sends is over {MAX_NAME} characters"
                ));
            }
        } else {
            m.by.push(format!(
                "content: {} over {MAX_NAME} characters",
                if m.places.len() == 1 {
                    "its name is the only one"
                } else {
                    "their names are"
                }
            ));
        }
    }
}

/// Resolves the error's place in each tool, then narrows to the tools that have it, then to
/// those with a finding there, each only if some tool is left.
fn by_content(clue: &Clue, j: &Judged, m: &mut Mapped) {
    for p in &mut m.places {
        let raw = raw_tool(j, &p.server, &p.tool);
        let (inside, resolved) = resolve(raw, &clue.path);
        p.resolved = resolved;
        p.pointer = p.position.map(|at| format!("/result/tools/{at}{inside}"));
    }
    if m.places.len() > 1 && clue.path.len() > 1 {
        let having: Vec<Place> = m.places.iter().filter(|p| p.resolved).cloned().collect();
        if !having.is_empty() && having.len() < m.places.len() {
            m.by.push(format!(
                "content: the only tool{} with `{}`",
                plural(having.len()),
                shown_path(&clue.path)
            ));
            m.places = having;
        }
    }
    if m.places.len() > 1 && !clue.path.is_empty() {
        let with: Vec<Place> = m
            .places
            .iter()
            .filter(|p| breaks_at(j, p))
            .cloned()
            .collect();
        if !with.is_empty() && with.len() < m.places.len() {
            m.by.push(format!(
                "content: the only tool{} with a finding at `{}`",
                plural(with.len()),
                shown_path(&clue.path)
            ));
            m.places = with;
        }
    }
}

/// Maps one clue into one host's request.
#[must_use]
pub fn map(clue: &Clue, j: &Judged, own: OwnTools) -> Mapped {
    let mut m = Mapped {
        places: Vec::new(),
        by: Vec::new(),
        notes: Vec::new(),
    };
    by_index(clue, j, own, &mut m);
    by_name(clue, j, &mut m);
    by_content(clue, j, &mut m);
    if let [only] = m.places.as_slice() {
        if let (OwnTools::Unknown, Counts::Request, Some(n), Some(p)) =
            (own, clue.counts, clue.index, only.position)
        {
            m.notes.push(format!(
                "if this is the tool, {} sent {} tool{} of its own before the MCP tools",
                j.host,
                n - p,
                plural(n - p)
            ));
        }
        if m.by.is_empty() {
            m.by.push("the only tool of the request".to_owned());
        }
    }
    m
}

/// A path as the error's place reads in MCP's terms (`inputSchema.properties[4]`).
fn shown_path(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Nth(n) => {
                let _ = write!(out, "[{n}]");
            }
        }
    }
    out
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
                                findings
                                    .iter()
                                    .map(|f| render::finding_json(j, f))
                                    .collect()
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
                        "  {}: {} at `{}` (by {})",
                        j.host,
                        at(p),
                        p.pointer.as_deref().unwrap_or("?"),
                        m.by.join("; ")
                    );
                    let (findings, here) = findings_of(j, p);
                    if !here {
                        let _ = writeln!(out, "    schema-lint has no finding at this place");
                    }
                    for f in findings {
                        render::finding_lines(&mut out, f, "    ");
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
                            "    {} at `{}`{}",
                            at(p),
                            p.pointer.as_deref().unwrap_or("?"),
                            if breaks == 0 {
                                String::new()
                            } else {
                                format!(", {breaks} finding{} that break", plural(breaks))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Seg {
        Seg::Key(k.to_owned())
    }

    fn one(text: &str) -> Clue {
        let clues = parse(text).unwrap();
        assert_eq!(clues.len(), 1, "{clues:#?}");
        clues.into_iter().next().unwrap()
    }

    #[test]
    fn anthropic_forms() {
        let c = one(
            r#"API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"tools.187.custom.name: String should have at most 64 characters"}}"#,
        );
        assert_eq!(
            (c.form, c.index, c.counts),
            (Form::Anthropic, Some(187), Counts::Request)
        );
        assert_eq!(c.path, [key("name")]);
        assert!(c.too_long);
        let c = one("tools.3.custom.input_schema: JSON schema is invalid");
        assert_eq!(c.path, [key("inputSchema")]);
        let c = one("tools.585.FrontendRemoteMcpToolDefinition.name: String should match pattern");
        assert_eq!((c.index, c.too_long), (Some(585), false));
        let c = one("messages.4.content.0.tool_result.content.1.tool_reference.tool_name: String should have at most 64 characters");
        assert_eq!((c.counts, c.too_long), (Counts::Nothing, true));
    }

    #[test]
    fn openai_bedrock_gemini_and_zod_forms() {
        let c = one("Invalid 'tools[12].function.name': string too long. Expected a string with maximum length 64");
        assert_eq!(
            (c.form, c.index, c.too_long),
            (Form::OpenAi, Some(12), true)
        );
        let c = one("tools[85].parameters: 'object' is not of type 'object', 'boolean'");
        assert_eq!(
            (c.index, c.path.clone()),
            (Some(85), vec![key("inputSchema")])
        );
        let c = one("400 Invalid schema for function 'get_perms': In context=('properties', 'permissions'), 'additionalProperties' is required to be supplied and to be false.");
        assert_eq!(c.name.as_deref(), Some("get_perms"));
        assert_eq!(
            c.path,
            [key("inputSchema"), key("properties"), key("permissions")]
        );
        let c = one("The value at toolConfig.tools.26.toolSpec.inputSchema.json.type must be one of the following: object");
        assert_eq!((c.form, c.index), (Form::Bedrock, Some(26)));
        assert_eq!(c.path, [key("inputSchema"), key("type")]);
        let c = one(
            r#"Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[6].parameters.properties[4].value.any_of[1]': Cannot find field."#,
        );
        assert_eq!((c.form, c.index), (Form::Gemini, Some(6)));
        assert_eq!(
            c.path,
            [
                key("inputSchema"),
                key("properties"),
                Seg::Nth(4),
                key("anyOf"),
                key("1"),
                key("const")
            ]
        );
        let c = one(
            r#"[{"code":"invalid_literal","expected":"object","path":["tools",18,"inputSchema","type"],"message":"x"}]"#,
        );
        assert_eq!(
            (c.form, c.index, c.counts),
            (Form::Zod, Some(18), Counts::Listing)
        );
        assert_eq!(c.path, [key("inputSchema"), key("type")]);
        let c = one(
            "API Error: 400 Tool reference 'mcp__gh__search_code' not found in available tools",
        );
        assert_eq!(
            (c.form, c.name.as_deref()),
            (Form::Host, Some("mcp__gh__search_code"))
        );
        assert!(parse("something went wrong").is_err());
    }

    #[test]
    fn a_place_said_twice_is_one_clue() {
        let text = r#"{"field": "tools[0].function_declarations[75].parameters", "description": "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[75].parameters': Cannot find field."}"#;
        let c = one(text);
        assert_eq!(c.path, [key("inputSchema"), key("additionalProperties")]);
    }
}

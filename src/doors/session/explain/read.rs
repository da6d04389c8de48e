//! Reading a pasted error: each form's places, as [`Clue`]s.

use super::{Clue, Counts, Form, Seg};
use regex::Regex;
use std::sync::LazyLock;

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

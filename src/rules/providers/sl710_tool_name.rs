//! SL710 tool-name: a tool's name that a host or a model provider refuses, by its characters or
//! its length, after the host put its prefix before it (Claude Code's `mcp__<server>__<tool>`).

use super::listing;
use crate::diagnostic::breaks::{classes, Class, Client};
use crate::diagnostic::meta::SL710 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::syntax::document::Node;

pub struct ToolName;

/// The longest tool name that `OpenAI`'s API, Bedrock, Gemini and Claude's hosts accept.
const MAX: usize = 64;

/// Claude Code's prefix and separator around the server's name: `mcp__<server>__<tool>`.
const CLAUDE_CODE_PREFIX: &str = "mcp__";
const CLAUDE_CODE_SEPARATOR: &str = "__";

/// The providers that accept `[a-zA-Z0-9_-]` only in a tool's name.
const PATTERN_CLIENTS: [Client; 4] = [
    Client::Anthropic,
    Client::Openai,
    Client::OpenaiStrict,
    Client::Bedrock,
];

/// The names `DashScope` refuses for a tool, as its error quotes them.
const DASHSCOPE_RESERVED: [&str; 1] = ["search"];

/// The clients that refuse a name over [`MAX`] characters, before any prefix.
const LENGTH_CLIENTS: [Client; 6] = [
    Client::Openai,
    Client::OpenaiStrict,
    Client::Bedrock,
    Client::Gemini,
    Client::ClaudeCode,
    Client::ClaudeDesktop,
];

impl Rule for ToolName {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some((tool, pointer)) = listing::tool(cx) else {
            return;
        };
        let Some(member) = tool.member("name") else {
            return;
        };
        let Some(name) = member.value.as_str() else {
            return;
        };
        let cx = Named {
            cx,
            node: &member.value,
            name,
            pointer: format!("{pointer}/name"),
        };
        if let Some(d) = cx.pattern() {
            out.push(d);
        }
        if let Some(d) = cx.gemini() {
            out.push(d);
        }
        if let Some(d) = cx.reserved() {
            out.push(d);
        }
        if let Some(d) = cx.length().or_else(|| cx.prefixed_length()) {
            out.push(d);
        }
    }
}

/// A tool's name, where the rule found it.
struct Named<'c, 'a> {
    cx: &'c UnitContext<'a>,
    node: &'a Node,
    name: &'a str,
    pointer: String,
}

impl Named<'_, '_> {
    fn selected(&self, clients: &[Client]) -> bool {
        clients.iter().any(|c| self.cx.clients.contains(c))
    }

    fn report(&self, message: String, label: &str, class: Class) -> Diagnostic {
        self.cx
            .report(self.node.span, message)
            .label(label.to_owned())
            .pointer(self.pointer.clone())
            .class(class)
    }

    /// The first character outside `[a-zA-Z0-9_-]`, which Anthropic, `OpenAI` and Bedrock refuse.
    fn pattern(&self) -> Option<Diagnostic> {
        if !self.selected(&PATTERN_CLIENTS) {
            return None;
        }
        let (at, bad) = self
            .name
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))?;
        let shown = shown_char(bad);
        let span = self
            .node
            .string_sub_span(self.cx.text(), at..at + bad.len_utf8());
        Some(
            self.cx
                .report(
                    span,
                    format!(
                        "Tool name `{}` has {shown}, which Anthropic, OpenAI and Bedrock refuse \
                         in a tool name (`^[a-zA-Z0-9_-]+$`)",
                        self.name
                    ),
                )
                .label("not a letter, digit, `_` or `-`")
                .help(format!(
                    "Rename the tool with letters, digits, `_` and `-` only (say `{}`): the \
                     MCP spec allows `.` and `/` in names, these providers do not",
                    suggestion(self.name)
                ))
                .pointer(self.pointer.clone())
                .class(classes::SL710_PATTERN),
        )
    }

    /// Gemini's rule: a letter or `_` first, then letters, digits, `_`, `.`, `:` and `-`.
    fn gemini(&self) -> Option<Diagnostic> {
        if !self.cx.clients.contains(&Client::Gemini) {
            return None;
        }
        let first = self.name.chars().next()?;
        let why = if first.is_ascii_alphabetic() || first == '_' {
            let bad = self
                .name
                .chars()
                .find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')))?;
            format!("has {}", shown_char(bad))
        } else {
            format!("starts with {}", shown_char(first))
        };
        Some(
            self.report(
                format!(
                    "Tool name `{}` {why}, which Gemini refuses in a function name",
                    self.name
                ),
                "Gemini: a letter or `_` first, then letters, digits, `_`, `.`, `:` or `-`",
                classes::SL710_GEMINI_NAME,
            )
            .help("Rename the tool: start it with a letter, and use letters, digits and `_` only"),
        )
    }

    /// A name `DashScope` (Qwen) reserves for its own tools: `search`.
    fn reserved(&self) -> Option<Diagnostic> {
        if !self.cx.clients.contains(&Client::Dashscope) || !DASHSCOPE_RESERVED.contains(&self.name)
        {
            return None;
        }
        Some(
            self.report(
                format!(
                    "Tool name `{}` is reserved by DashScope, which refuses every request that \
                     offers it (`Tool names are not allowed to be [{}]`)",
                    self.name, self.name
                ),
                "reserved by DashScope",
                classes::SL710_RESERVED_NAME,
            )
            .help("Rename the tool (`search_docs`, or the server's name before it)"),
        )
    }

    /// A name over [`MAX`] characters, before any host's prefix.
    fn length(&self) -> Option<Diagnostic> {
        let length = self.name.chars().count();
        if length <= MAX || !self.selected(&LENGTH_CLIENTS) {
            return None;
        }
        Some(
            self.report(
                format!(
                    "Tool name is {length} characters long, over the {MAX} that OpenAI, \
                     Bedrock, Gemini and Claude's hosts accept"
                ),
                "over 64 characters",
                classes::SL710_LENGTH,
            )
            .help(format!(
                "Shorten the name to at most {MAX} characters, better to {} or fewer: Claude Code \
                 puts `mcp__<server>__` before it, within the same {MAX}",
                MAX - CLAUDE_CODE_PREFIX.len() - CLAUDE_CODE_SEPARATOR.len() - 10
            )),
        )
    }

    /// A name that Claude Code's `mcp__<server>__` prefix takes over [`MAX`] characters. The
    /// server's name there is the key the user chose in Claude Code's configuration, not the
    /// server's own `serverInfo.name` (which a dump notes): a listing does not show it, so only
    /// names over the limit with a server name of one character are reported, from a file and
    /// from a running server alike.
    fn prefixed_length(&self) -> Option<Diagnostic> {
        if !self.cx.clients.contains(&Client::ClaudeCode) {
            return None;
        }
        // A name that already carries the prefix (`mcp__<key>__<tool>`, the request Claude Code
        // builds, as `schema-lint session` lints it) was measured whole by `length`.
        if self
            .name
            .strip_prefix(CLAUDE_CODE_PREFIX)
            .is_some_and(|rest| rest.contains(CLAUDE_CODE_SEPARATOR))
        {
            return None;
        }
        let own = self.name.chars().count();
        let around = CLAUDE_CODE_PREFIX.len() + CLAUDE_CODE_SEPARATOR.len();
        if around + 1 + own <= MAX {
            return None;
        }
        let message = format!(
            "Claude Code names this tool `{CLAUDE_CODE_PREFIX}<server>{CLAUDE_CODE_SEPARATOR}{}`: \
             {} characters without the server's name, so over the {MAX} the Anthropic API accepts \
             whatever the server is called",
            self.name,
            around + own
        );
        let help = format!(
            "Shorten the tool's name to at most {} characters, leaving room for the name users \
             give the server in Claude Code's configuration",
            MAX - around - 10
        );
        Some(
            self.report(
                message,
                "too long with Claude Code's prefix",
                classes::SL710_PREFIXED_LENGTH,
            )
            .help(help),
        )
    }
}

/// A character as a message shows it: `` `.` ``, or "a space".
fn shown_char(c: char) -> String {
    match c {
        ' ' => "a space".to_owned(),
        '`' => "a backtick".to_owned(),
        c if c.is_control() => format!("the control character U+{:04X}", u32::from(c)),
        c => format!("`{c}`"),
    }
}

/// The name with every character outside `[a-zA-Z0-9_-]` written as `_`.
fn suggestion(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

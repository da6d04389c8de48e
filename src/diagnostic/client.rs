//! Who reads a tool's schema ([`Client`]): the MCP SDK clients' schema engines, which the engine
//! tier runs, the hosts that load MCP tools, and the model providers the hosts forward them to;
//! and who reads a plain schema file (the `json-schema` target): the editors' JSON language
//! service.
//! Each client has a page, `rules/clients/<name>.md`, which `build.rs` embeds
//! (`schema-lint clients NAME` prints it).

use serde::Serialize;
use std::fmt;

/// Who reads a tool's schema: an MCP SDK client's schema engine, a host that loads the tools,
/// or a model provider the host forwards them to. Each has a page, `rules/clients/<name>.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[allow(clippy::doc_markdown)]
pub enum Client {
    /// The TypeScript SDK 1.x client: Ajv's draft-07 class for every schema.
    #[serde(rename = "ts-sdk-v1")]
    TsSdkV1,
    /// The TypeScript SDK 2.x client: the Ajv class the `$schema` names.
    #[serde(rename = "ts-sdk-v2")]
    TsSdkV2,
    /// The Python SDK client: `jsonschema`, without its format extras.
    #[serde(rename = "python-sdk")]
    PythonSdk,
    /// The Python SDK client where `jsonschema`'s format extras are installed.
    #[serde(rename = "python-sdk+format")]
    PythonSdkFormat,
    /// The Python SDK client of the 1.x line (`mcp` 1.x): the same `jsonschema`, a laxer
    /// listing.
    #[serde(rename = "python-sdk-v1")]
    PythonSdkV1,
    /// The Rust `jsonschema` crate.
    #[serde(rename = "jsonschema-rs")]
    JsonschemaRs,
    /// Claude Code, the host.
    #[serde(rename = "claude-code")]
    ClaudeCode,
    /// Claude Desktop, the host.
    #[serde(rename = "claude-desktop")]
    ClaudeDesktop,
    /// VS Code's Copilot chat, the host.
    #[serde(rename = "vscode-copilot")]
    VscodeCopilot,
    /// Cursor, the host.
    #[serde(rename = "cursor")]
    Cursor,
    /// gemini-cli, the host (`@google/gemini-cli-core`).
    #[serde(rename = "gemini-cli")]
    GeminiCli,
    /// OpenAI's Codex CLI, the host.
    #[serde(rename = "codex")]
    Codex,
    /// The OpenAI Agents SDK, which turns MCP tools into strict function tools.
    #[serde(rename = "openai-agents")]
    OpenaiAgents,
    /// Qwen Code, the host (a gemini-cli fork): its own Ajv for the tools' input schemas.
    #[serde(rename = "qwen-code")]
    QwenCode,
    /// OpenClaw, the host: pi's Ajv for the tools' input schemas.
    #[serde(rename = "openclaw")]
    Openclaw,
    /// OpenClaude, the host: its own Ajv for the tools' input schemas.
    #[serde(rename = "openclaude")]
    Openclaude,
    /// LLxprt Code, the host (a gemini-cli fork): its own Ajv for the tools' input schemas.
    #[serde(rename = "llxprt-code")]
    LlxprtCode,
    /// pi-mcp-adapter, MCP tools for the pi agent: pi's Ajv for their input schemas.
    #[serde(rename = "pi-mcp-adapter")]
    PiMcpAdapter,
    /// Mastra, the agent framework: `@mastra/schema-compat`'s Ajv for MCP tools' input schemas.
    #[serde(rename = "mastra")]
    Mastra,
    /// OpenAI function calling, not strict.
    #[serde(rename = "openai")]
    Openai,
    /// OpenAI strict function calling and structured outputs (the Responses API's default).
    #[serde(rename = "openai-strict")]
    OpenaiStrict,
    /// Anthropic's Messages API tools (`input_schema`).
    #[serde(rename = "anthropic")]
    Anthropic,
    /// Anthropic's strict tools (structured outputs).
    #[serde(rename = "anthropic-strict")]
    AnthropicStrict,
    /// Gemini function declarations' `parameters` (an OpenAPI 3.0 subset).
    #[serde(rename = "gemini")]
    Gemini,
    /// Gemini function declarations' `parametersJsonSchema`.
    #[serde(rename = "gemini-jsonschema")]
    GeminiJsonschema,
    /// Amazon Bedrock's Converse API (`toolSpec.inputSchema`).
    #[serde(rename = "bedrock")]
    Bedrock,
    /// Mistral's function calling.
    #[serde(rename = "mistral")]
    Mistral,
    /// Ollama's tool calling.
    #[serde(rename = "ollama")]
    Ollama,
    /// Moonshot's Kimi API (`tools.function.parameters`, "Moonshot flavored" JSON Schema).
    #[serde(rename = "moonshot")]
    Moonshot,
    /// xAI's API (grok), whose Responses API refuses `pattern` and `format`.
    #[serde(rename = "xai")]
    Xai,
    /// LM Studio, and llama.cpp's server beneath it, which turn tools into a grammar.
    #[serde(rename = "lmstudio")]
    Lmstudio,
    /// Alibaba's DashScope (Qwen), which reserves tool names.
    #[serde(rename = "dashscope")]
    Dashscope,
    /// DeepSeek's API (and gateways that forward to it), which compiles every tool's `pattern`
    /// with a regex engine that has no look-around.
    #[serde(rename = "deepseek")]
    Deepseek,
    /// The Kuadrant mcp-gateway, a broker that validates each upstream tool before listing it.
    #[serde(rename = "kuadrant")]
    Kuadrant,
    /// Visual Studio's (2026) Copilot chat, the host.
    #[serde(rename = "visual-studio")]
    VisualStudio,
    /// vscode-json-languageservice, VS Code's JSON language service, which reads plain schema
    /// files (SchemaStore's) and fetches the remote schemas they reference. Last of all: a
    /// finding on an MCP target leaves the plain-schema consumers out ([`super::breaks::read_by`]).
    #[serde(rename = "vscode-json")]
    VscodeJson,
}

/// What kind of reader a [`Client`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// An MCP SDK client's schema engine, which the engine tier runs.
    Sdk,
    /// An application that loads MCP tools and forwards them to a model.
    Host,
    /// A model provider's API, which receives the tools' schemas as functions.
    Provider,
    /// A consumer of plain schema files (the `json-schema` target): an editor's JSON language
    /// service, which the engine tier runs on the plain-schema cases.
    Plain,
}

impl Kind {
    /// The kind's name in reports (`host`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sdk => "sdk",
            Kind::Host => "host",
            Kind::Provider => "provider",
            Kind::Plain => "plain",
        }
    }
}

impl Client {
    /// Every client, in the order reports list them: the SDK engines, the hosts, the providers
    /// (then the gateways and hosts opted into like them), the consumers of plain schema files.
    pub const ALL: [Client; 36] = [
        Client::TsSdkV1,
        Client::TsSdkV2,
        Client::PythonSdk,
        Client::PythonSdkFormat,
        Client::PythonSdkV1,
        Client::JsonschemaRs,
        Client::ClaudeCode,
        Client::ClaudeDesktop,
        Client::VscodeCopilot,
        Client::Cursor,
        Client::GeminiCli,
        Client::Codex,
        Client::OpenaiAgents,
        Client::QwenCode,
        Client::Openclaw,
        Client::Openclaude,
        Client::LlxprtCode,
        Client::PiMcpAdapter,
        Client::Mastra,
        Client::Openai,
        Client::OpenaiStrict,
        Client::Anthropic,
        Client::AnthropicStrict,
        Client::Gemini,
        Client::GeminiJsonschema,
        Client::Bedrock,
        Client::Mistral,
        Client::Ollama,
        Client::Moonshot,
        Client::Xai,
        Client::Lmstudio,
        Client::Dashscope,
        Client::Deepseek,
        Client::Kuadrant,
        Client::VisualStudio,
        Client::VscodeJson,
    ];

    /// The SDK clients' engines, which the engine tier runs on every case.
    pub const SDK: [Client; 6] = [
        Client::TsSdkV1,
        Client::TsSdkV2,
        Client::PythonSdk,
        Client::PythonSdkFormat,
        Client::PythonSdkV1,
        Client::JsonschemaRs,
    ];

    /// The clients a run selects unless told otherwise: the engines MCP SDKs run as installed
    /// by default (the Python client's format extras and the Rust crate are stricter engines
    /// some users run) and every host. Model providers are opted into (`--clients`).
    pub const DEFAULT: [Client; 11] = [
        Client::TsSdkV1,
        Client::TsSdkV2,
        Client::PythonSdk,
        Client::PythonSdkV1,
        Client::ClaudeCode,
        Client::ClaudeDesktop,
        Client::VscodeCopilot,
        Client::Cursor,
        Client::GeminiCli,
        Client::Codex,
        Client::OpenaiAgents,
    ];

    /// The client's name in reports, in `--clients` and in `breaks.json` (`ts-sdk-v1`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Client::TsSdkV1 => "ts-sdk-v1",
            Client::TsSdkV2 => "ts-sdk-v2",
            Client::PythonSdk => "python-sdk",
            Client::PythonSdkV1 => "python-sdk-v1",
            Client::PythonSdkFormat => "python-sdk+format",
            Client::JsonschemaRs => "jsonschema-rs",
            Client::ClaudeCode => "claude-code",
            Client::ClaudeDesktop => "claude-desktop",
            Client::VscodeCopilot => "vscode-copilot",
            Client::Cursor => "cursor",
            Client::GeminiCli => "gemini-cli",
            Client::Codex => "codex",
            Client::OpenaiAgents => "openai-agents",
            Client::QwenCode => "qwen-code",
            Client::Openclaw => "openclaw",
            Client::Openclaude => "openclaude",
            Client::LlxprtCode => "llxprt-code",
            Client::PiMcpAdapter => "pi-mcp-adapter",
            Client::Mastra => "mastra",
            Client::Openai => "openai",
            Client::OpenaiStrict => "openai-strict",
            Client::Anthropic => "anthropic",
            Client::AnthropicStrict => "anthropic-strict",
            Client::Gemini => "gemini",
            Client::GeminiJsonschema => "gemini-jsonschema",
            Client::Bedrock => "bedrock",
            Client::Mistral => "mistral",
            Client::Ollama => "ollama",
            Client::Moonshot => "moonshot",
            Client::Xai => "xai",
            Client::Lmstudio => "lmstudio",
            Client::Dashscope => "dashscope",
            Client::Deepseek => "deepseek",
            Client::Kuadrant => "kuadrant",
            Client::VisualStudio => "visual-studio",
            Client::VscodeJson => "vscode-json",
        }
    }

    /// The client named `name` (`openai-strict`).
    #[must_use]
    pub fn named(name: &str) -> Option<Client> {
        Client::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What kind of reader the client is.
    #[must_use]
    pub fn kind(self) -> Kind {
        match self {
            Client::TsSdkV1
            | Client::TsSdkV2
            | Client::PythonSdk
            | Client::PythonSdkFormat
            | Client::PythonSdkV1
            | Client::JsonschemaRs => Kind::Sdk,
            Client::ClaudeCode
            | Client::ClaudeDesktop
            | Client::VscodeCopilot
            | Client::Cursor
            | Client::GeminiCli
            | Client::Codex
            | Client::OpenaiAgents
            | Client::QwenCode
            | Client::Openclaw
            | Client::Openclaude
            | Client::LlxprtCode
            | Client::PiMcpAdapter
            | Client::Mastra
            | Client::Kuadrant
            | Client::VisualStudio => Kind::Host,
            Client::VscodeJson => Kind::Plain,
            _ => Kind::Provider,
        }
    }

    /// Whether a run selects the client unless told otherwise ([`Client::DEFAULT`]).
    #[must_use]
    pub fn is_default(self) -> bool {
        Client::DEFAULT.contains(&self)
    }
}

/// Every client's page, `rules/clients/<name>.md` (`PAGES`, in [`Client::ALL`]'s order),
/// generated by `build.rs`, which fails on a client without one.
#[allow(clippy::doc_markdown, clippy::unreadable_literal)]
mod pages {
    include!(concat!(env!("OUT_DIR"), "/clients.rs"));
}

impl Client {
    /// The client's page: what it does with a schema, which versions, where the evidence
    /// comes from.
    #[must_use]
    pub fn page(self) -> &'static str {
        pages::PAGES
            .iter()
            .find(|(name, _, _)| *name == self.name())
            .map_or("", |(_, start, end)| super::texts::slice(*start, *end))
    }

    /// The one-line summary of the client's page.
    #[must_use]
    pub fn summary(self) -> &'static str {
        self.page()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .nth(2)
            .unwrap_or("")
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The versions of a client a behaviour holds for: from `from` (the first version it was seen
/// in) up to `until` (the version that fixed it), `until` excluded; an open end is `None`. A
/// behaviour with no range holds for every version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Versions {
    /// The first version the behaviour was seen in; `None`: every version before `until`.
    pub from: Option<&'static str>,
    /// The version that no longer behaves so; `None`: it still does, in the newest known.
    pub until: Option<&'static str>,
}

impl Versions {
    /// Every version.
    pub const ALL: Versions = Versions {
        from: None,
        until: None,
    };

    /// Whether the range is every version.
    #[must_use]
    pub fn is_all(&self) -> bool {
        self.from.is_none() && self.until.is_none()
    }

    /// Whether the behaviour holds at `version` (`None`: the newest known, `latest`, which is at
    /// or after every version a range names: a range with an `until` no longer holds there).
    #[must_use]
    pub fn holds_at(&self, version: Option<&str>) -> bool {
        let Some(version) = version else {
            return self.until.is_none();
        };
        self.from
            .is_none_or(|from| compare(from, version) != std::cmp::Ordering::Greater)
            && self
                .until
                .is_none_or(|until| compare(version, until) == std::cmp::Ordering::Less)
    }
}

impl Versions {
    /// The range as the start of a sentence's clause: `before 0.12.0`, `from 2.1.260 on`,
    /// `from 1.0 until 1.5`, `in every version`.
    #[must_use]
    pub fn when(&self) -> String {
        match (self.from, self.until) {
            (None, None) => "in every version".to_owned(),
            (Some(from), None) => format!("from {from} on"),
            (None, Some(until)) => format!("before {until}"),
            (Some(from), Some(until)) => format!("from {from} until {until}"),
        }
    }
}

impl fmt::Display for Versions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from, self.until) {
            (None, None) => f.write_str("every version"),
            (Some(from), None) => write!(f, "{from} and later"),
            (None, Some(until)) => write!(f, "before {until}"),
            (Some(from), Some(until)) => write!(f, "{from} up to {until} (fixed there)"),
        }
    }
}

/// Whether `text` is a version a range or `--clients NAME@VERSION` can name: numbers separated
/// by dots (`2.1.260`, `2026.4.21`).
#[must_use]
pub fn is_version(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|part| {
            !part.is_empty() && part.len() <= 9 && part.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Two versions ([`is_version`]) in release order, number by number; a missing number is 0
/// (`2.1` is `2.1.0`).
#[must_use]
pub fn compare(a: &str, b: &str) -> std::cmp::Ordering {
    let numbers = |v: &str| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    let (a, b) = (numbers(a), numbers(b));
    let len = a.len().max(b.len());
    (0..len)
        .map(|i| {
            a.get(i)
                .copied()
                .unwrap_or(0)
                .cmp(&b.get(i).copied().unwrap_or(0))
        })
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

#[cfg(test)]
mod version_tests {
    use super::*;

    #[test]
    fn versions_compare_by_number_and_ranges_hold_where_they_say() {
        use std::cmp::Ordering;
        assert_eq!(compare("2.1.260", "2.1.37"), Ordering::Greater);
        assert_eq!(compare("2.1", "2.1.0"), Ordering::Equal);
        assert_eq!(compare("2.0.0", "2.1.260"), Ordering::Less);
        assert!(
            is_version("2026.4.21") && !is_version("2.x") && !is_version("") && !is_version("1..2")
        );
        let since = Versions {
            from: Some("2.1.260"),
            until: None,
        };
        assert!(
            since.holds_at(None) && since.holds_at(Some("2.1.260")) && since.holds_at(Some("3"))
        );
        assert!(!since.holds_at(Some("2.0.0")) && !since.holds_at(Some("2.1.259")));
        let fixed = Versions {
            from: None,
            until: Some("1.5"),
        };
        assert!(fixed.holds_at(Some("1.4.9")) && !fixed.holds_at(Some("1.5")));
        // The newest known is past every fix.
        assert!(!fixed.holds_at(None));
        assert!(Versions::ALL.holds_at(None) && Versions::ALL.holds_at(Some("0.1")));
        assert_eq!(since.to_string(), "2.1.260 and later");
    }
}

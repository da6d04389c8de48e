//! Command-line arguments (clap derive).

use crate::report::OutputFormat;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The command line: a subcommand, or the options of `check` (the default command).
#[derive(Debug, Parser)]
#[command(
    name = "schema-lint",
    version,
    about = "Lint and repair JSON Schema files, first of all MCP tool output schemas",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// The subcommand; none means `check`.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The options of `check` given without the subcommand's name.
    #[command(flatten)]
    pub check: CheckArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint files and folders (the default command)
    Check(CheckArgs),
    /// List every rule
    Rules(RulesArgs),
    /// Check captured tools/call results against their tools' output schemas
    Audit(AuditArgs),
    /// What breaks between two versions of a tool contract or a schema, each breaking change
    /// proven by a counterexample
    Diff(DiffArgs),
    /// Print what a running MCP server advertises (its tools/list) as a document to commit
    /// and lint offline
    #[command(
        mut_arg("servers", |a| a.help(
            "List the tools of the MCP server this command line starts (stdio; split like a \
             shell's words, no shell is run); one `--server` or one `--url`"
        )),
        mut_arg("urls", |a| a.help(
            "List the tools of the MCP server at this Streamable HTTP URL; one `--server` or one \
             `--url`"
        )),
        mut_arg("env", |a| a.help(
            "Set an environment variable for the `--server` command; repeatable"
        )),
        mut_arg("headers", |a| a.help(
            "Send a header to the `--url` server (for authentication); repeatable"
        )),
    )]
    Dump(DumpArgs),
    /// A stdio proxy for a host's server configuration: runs the server, passes its traffic
    /// through unchanged, and appends each message to a capture that `audit` reads
    Record(RecordArgs),
    /// Lint your MCP configurations as the one request each host (Claude Code, Cursor, VS Code,
    /// gemini-cli, Codex, Claude Desktop, Windsurf) sends its model: starts every enabled server,
    /// names each tool as the host does, and says per host whether it works and which tool
    /// breaks it
    Session(SessionArgs),
    /// Print a rule's documentation
    Rule {
        /// A code (`SL201`) or a name (`invalid-id-uri`)
        rule: String,
    },
    /// Run the language server (LSP over standard input and output): findings and fixes in
    /// editors as you type
    Server(LanguageServerArgs),
    /// Run an MCP server over standard input and output, so that coding agents lint the schemas
    /// of the MCP server they write as they go (`lint_schema`, `fix_schema`, `lint_tools_list`,
    /// `explain_rule`); it reads no file and reaches no network
    Mcp,
    /// Tools as rows, clients as columns: which client works with each tool, warns or breaks
    Matrix(MatrixArgs),
    /// Rewrite a schema, a tool or a `tools/list` for one client: the document on standard
    /// output, every change proven as `--fix` proves it and said (`kept` or `changed`)
    Port(PortArgs),
    /// Put between a host and an MCP server (a stdio command, or a Streamable HTTP `--url`):
    /// passes the traffic and rewrites each `tools/list` answer for one client as `port` does
    /// (a call of a renamed tool reaches its own name); each rewrite logged
    Proxy(ProxyArgs),
    /// List the clients `--clients` selects from (MCP SDKs, hosts, model providers), or print
    /// one client's page
    Clients {
        /// A client's name (`openai-strict`): print its page
        client: Option<String>,
    },
}

/// The options of `schema-lint server`.
#[derive(Debug, Args)]
pub struct LanguageServerArgs {
    /// Speak over standard input and output: the only transport, and the default (accepted
    /// because language clients pass it)
    #[arg(long)]
    pub stdio: bool,
}

/// When the human format uses colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The options of `check`.
#[derive(Debug, Args, Clone)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "command-line flags are bools"
)]
pub struct CheckArgs {
    /// Files and folders to lint; `-` reads standard input. Default: `.` (unless servers are
    /// named)
    pub paths: Vec<PathBuf>,

    /// The running servers to lint besides the paths.
    #[command(flatten)]
    pub live: ServerArgs,

    /// The name to show for standard input (`-`) in the output
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,

    /// How to print findings
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub output_format: OutputFormat,

    /// When to use colour in the human format (`NO_COLOR` is honoured under `auto`)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Dialect of schemas without a known `$schema`: draft4, draft6, draft7, 2019-09, 2020-12,
    /// or a `$schema` URI [default: 2020-12]
    #[arg(long, value_name = "DIALECT")]
    pub default_dialect: Option<crate::schema::dialect::Draft>,

    /// Apply the safe fixes, after proving that each one still parses, lints and compiles
    #[arg(long)]
    pub fix: bool,

    /// Also apply unsafe fixes (with `--fix` or `--diff`)
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print a unified diff of what `--fix` would change, and write nothing
    #[arg(long)]
    pub diff: bool,

    /// How `--fix` repairs an invalid `$id`
    #[arg(long, value_enum, default_value_t = crate::settings::FixIdMode::Underscore)]
    pub fix_id: crate::settings::FixIdMode,

    /// The clients and protocol revision to lint for (default: mcp-2025-11-25 for tools/list
    /// documents, json-schema for schema files)
    #[arg(long, value_enum)]
    pub target: Option<crate::settings::target::Target>,

    /// Run only these rules: codes, names or code prefixes (`SL5`), comma-separated
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Option<Vec<String>>,

    /// Also run these rules (say, ones that are off by default)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub extend_select: Vec<String>,

    /// Do not run these rules
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,

    /// Use this configuration file instead of the nearest schema-lint.toml
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Ignore every schema-lint.toml
    #[arg(long, conflicts_with = "config")]
    pub isolated: bool,

    /// Lint named files only when they hold a schema or a tools/list document, as in a folder
    /// walk (for hooks that pass every `.json` file)
    #[arg(long)]
    pub only_schemas: bool,

    /// Walk folders without honouring `.gitignore`, `.ignore` and `.git/info/exclude`
    #[arg(long)]
    pub no_respect_gitignore: bool,

    /// With `--fix`, never change a file that was not named: a fix that would change one (to
    /// follow a renamed `$id` that another file of the project names) is refused
    #[arg(long)]
    pub fix_only_named: bool,

    /// Report as errors the findings that break only stricter engines (Python's jsonschema
    /// with its format extras, the Rust jsonschema crate), not just those that break a default
    /// MCP client
    #[arg(long)]
    pub strict: bool,

    /// The clients to lint for, comma-separated: `default` (the MCP SDK clients and the hosts)
    /// and model providers by name (`--clients default,openai-strict,gemini`); `schema-lint
    /// clients` lists them
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub clients: Vec<String>,

    /// Print the number of findings per rule instead of the findings
    #[arg(long)]
    pub statistics: bool,

    /// With `--fix`, list the fixes applied, per file
    #[arg(long)]
    pub show_fixes: bool,

    /// Print only errors and warnings: no infos, no summary lines
    #[arg(short, long)]
    pub quiet: bool,

    /// The least serious finding that fails the run (exit code 1)
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,

    /// Exit with 0 even when findings are reported (2 still means an error)
    #[arg(long)]
    pub exit_zero: bool,

    /// MiB of file text and parsed trees a check keeps between indexing files and linting
    /// them; files past it, and files over 4 MiB, are read again when linted (`--fix` keeps
    /// every file)
    #[arg(long, value_name = "MIB", default_value_t = crate::settings::DEFAULT_MEMORY_BUDGET_MIB)]
    pub memory_budget: usize,

    /// Lint only the files changed since this git ref (`git diff REF` plus untracked files),
    /// with the rest of the project read as context, as a pre-commit run does
    #[arg(long, value_name = "REF", conflicts_with = "watch")]
    pub since: Option<String>,

    /// Report only the findings not recorded in this baseline file (matched by rule, file and
    /// JSON pointer); recorded findings that are gone are listed so the file can be pruned
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fix", "diff"])]
    pub baseline: Option<PathBuf>,

    /// With `--baseline FILE`, write today's findings to FILE (pruning the fixed ones) instead
    /// of failing on them
    #[arg(long, requires = "baseline")]
    pub write_baseline: bool,

    /// Lint again whenever a file changes (polling), clearing the terminal before each report;
    /// stop with Ctrl-C
    #[arg(long, conflicts_with_all = ["fix", "diff"])]
    pub watch: bool,
}

/// `--fail-on`: the least serious finding that makes a run exit with 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Only errors fail the run
    Error,
    /// Errors and warnings fail the run
    Warning,
    /// Every finding fails the run, infos too
    Info,
}

impl FailOn {
    /// The severity this threshold names.
    #[must_use]
    pub fn severity(self) -> crate::diagnostic::Severity {
        match self {
            FailOn::Error => crate::diagnostic::Severity::Error,
            FailOn::Warning => crate::diagnostic::Severity::Warning,
            FailOn::Info => crate::diagnostic::Severity::Info,
        }
    }
}

/// How `schema-lint rules` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// A table
    Human,
    /// A JSON array of objects
    Json,
}

/// The options of `schema-lint rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// How to print the list
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    pub output_format: RulesFormat,
}

/// How `schema-lint audit` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// A line per failing call, then the summary
    Human,
    /// Versioned JSON: every call, its target and validation errors
    Json,
    /// `path:line:col: severity: CODE message`, a line per finding, in the capture
    Concise,
    /// GitHub Actions workflow commands, a finding each, in the capture
    Github,
    /// SARIF 2.1.0, a result per finding, in the capture
    Sarif,
    /// XML test reports (`JUnit`): the capture as a test suite, a failing case per finding
    Junit,
}

/// The options of `schema-lint audit`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("live").args(["server", "url"]).multiple(false))]
pub struct AuditArgs {
    /// The capture: JSON Lines of JSON-RPC messages (bare, or under a logger's `message` or
    /// `data` key), a JSON array of them, or JSON Lines of `{"record", "body"}`; `-` reads
    /// standard input. Not with `--server`/`--url`, which make the capture
    #[arg(required_unless_present_any = ["server", "url"], conflicts_with_all = ["server", "url"])]
    pub capture: Option<PathBuf>,

    /// Call tools of the MCP server this command line starts (stdio; split like a shell's
    /// words, no shell is run) and audit their results: only the tools `--call`/`--calls` name
    #[arg(long, value_name = "COMMAND", conflicts_with = "url")]
    pub server: Option<String>,

    /// Call tools of the MCP server at this Streamable HTTP URL and audit their results
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// With `--server`/`--url`: call this tool with these arguments (a JSON object, or `@FILE`
    /// holding one), in the order given; repeatable
    #[arg(long = "call", value_name = "NAME=JSON", requires = "live")]
    pub calls: Vec<String>,

    /// With `--server`/`--url`: the calls of this file, JSON Lines of `{"name": ...,
    /// "arguments": {...}}`, after those of `--call`
    #[arg(long = "calls", value_name = "FILE", requires = "live")]
    pub calls_file: Option<PathBuf>,

    /// With `--server`/`--url`: also write the capture of the exchange to FILE (JSON Lines,
    /// what `schema-lint audit FILE` reads again offline); findings are placed in it
    #[arg(long, value_name = "FILE", requires = "live")]
    pub save: Option<PathBuf>,

    /// Set an environment variable for the `--server` command; repeatable
    #[arg(long = "env", value_name = "KEY=VALUE", requires = "server")]
    pub env: Vec<String>,

    /// Send a header to the `--url` server (for authentication); repeatable
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    pub headers: Vec<String>,

    /// With `--server`/`--url`: seconds the listing may take, and then each call
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        requires = "live"
    )]
    pub timeout: f64,

    /// A tools/list document with the output schemas (needed for the record form; adds to the
    /// tools/list results found in a capture)
    #[arg(long, value_name = "FILE")]
    pub tools: Vec<PathBuf>,

    /// Exactly these tools are `.meta({ id })` tools (default: a root `$id`, or a root `$ref`
    /// into the schema's own `$defs`/`definitions`)
    #[arg(long, value_delimiter = ',', value_name = "TOOLS")]
    pub meta_id_tools: Option<Vec<String>>,

    /// The protocol of calls whose capture gives none (no protocol in the request's `_meta`,
    /// no `initialize` result before it; or an explicit record without one); with
    /// `--server`/`--url`, the revision to ask for [default: the newest the server offers]
    #[arg(long, value_name = "PROTOCOL", value_parser = ["2025-06-18", "2025-11-25", "2026-07-28"])]
    pub protocol: Option<String>,

    /// Also fail on calls that still use the legacy `{"result": ...}` wrapper
    #[arg(long)]
    pub deny_legacy: bool,

    /// How to print the audit
    #[arg(long, value_enum, default_value_t = AuditFormat::Human)]
    pub output_format: AuditFormat,
}

/// The options of `schema-lint record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// Append the traffic here (JSON Lines, each message with its direction and time; created
    /// if missing)
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,

    /// The server's command line, after `--` (stdio)
    #[arg(
        last = true,
        value_name = "COMMAND",
        required_unless_present = "listen",
        conflicts_with = "listen"
    )]
    pub command: Vec<String>,

    /// Streamable HTTP instead: listen on this loopback address (`127.0.0.1:8765`; port 0 picks
    /// a free one, printed on standard error) and forward every request to `--upstream`
    #[arg(long, value_name = "ADDRESS", requires = "upstream")]
    pub listen: Option<String>,

    /// With `--listen`: the server's Streamable HTTP URL
    #[arg(long, value_name = "URL", requires = "listen")]
    pub upstream: Option<String>,

    /// The most the capture file may hold, in MiB: past it, messages still pass but are not
    /// recorded, said on standard error, and the exit status is 2
    #[arg(long, value_name = "MIB", default_value_t = crate::doors::record::log::DEFAULT_MAX_SIZE)]
    pub max_size: u64,
}

/// The options of `schema-lint port`.
#[derive(Debug, Args)]
pub struct PortArgs {
    /// The client to port for (`gemini`, `openai-strict@...`); `schema-lint clients` lists them
    #[arg(long = "for", value_name = "CLIENT")]
    pub client: String,

    /// The document: a schema, a tool or a `tools/list` (`-`: standard input)
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    /// Write each change as JSON to FILE: `tool`, `pointer`, `rule`, `change`, `meaning`
    /// (`kept`: the same instances validate; `changed`: `differs` says what validates
    /// differently), the tools sent under another name (`renamed`), and what could not be
    /// ported (`left`)
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// The options of `schema-lint proxy`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("server").args(["command", "url"]).required(true))]
pub struct ProxyArgs {
    /// The client the host forwards the tools to (`gemini`, `openai-strict`)
    #[arg(long = "for", value_name = "CLIENT")]
    pub client: String,

    /// Append each rewrite here instead of standard error
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// The server's command line, after `--` (stdio); or `--url`
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    /// The remote server's Streamable HTTP endpoint, instead of a command: the host speaks
    /// stdio to the proxy, the proxy HTTP to the server
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// Send a header to the `--url` server (for authentication; never logged); repeatable
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    pub headers: Vec<String>,
}

/// The options of `schema-lint matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// Files and folders to read (default: the current folder, unless a server is named)
    pub paths: Vec<PathBuf>,

    /// Servers to list
    #[command(flatten)]
    pub live: ServerArgs,

    /// The columns, comma-separated: client names, `default` for the default set (default:
    /// every client)
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub clients: Vec<String>,

    /// `human` (a table for a terminal), `json`, `markdown` (for CI summaries and pull-request
    /// comments)
    #[arg(long, value_enum, default_value_t = MatrixFormat::Human)]
    pub output_format: MatrixFormat,

    /// When to colour the human table
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The target of every file (as `check --target`)
    #[arg(long)]
    pub target: Option<crate::settings::target::Target>,

    /// The dialect of schemas without `$schema` (as `check --default-dialect`)
    #[arg(long, value_name = "DIALECT")]
    pub default_dialect: Option<crate::schema::dialect::Draft>,

    /// Use this `schema-lint.toml`
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Ignore every `schema-lint.toml`
    #[arg(long)]
    pub isolated: bool,

    /// No summary line
    #[arg(long, short)]
    pub quiet: bool,
}

/// The formats of `schema-lint matrix`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MatrixFormat {
    /// A table for a terminal, then why each cell that is not `works` is what it is.
    Human,
    /// Versioned JSON.
    Json,
    /// A Markdown table.
    Markdown,
}

/// The running MCP servers to list, and how to talk to them.
#[derive(Debug, Args, Clone, Default)]
pub struct ServerArgs {
    /// Lint the tools of the MCP server this command line starts (stdio; split like a shell's
    /// words, no shell is run); repeatable
    #[arg(long = "server", value_name = "COMMAND")]
    pub servers: Vec<String>,

    /// Lint the tools of the MCP server at this Streamable HTTP URL; repeatable
    #[arg(long = "url", value_name = "URL")]
    pub urls: Vec<String>,

    /// Set an environment variable for the `--server` commands; repeatable
    #[arg(long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,

    /// Send a header to the `--url` servers (for authentication); repeatable
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,

    /// The MCP protocol revision to ask for [default: the newest, falling back to what the
    /// server offers]
    #[arg(long, value_name = "REVISION", value_parser = ["2025-06-18", "2025-11-25", "2026-07-28"])]
    pub protocol: Option<String>,

    /// Seconds the whole exchange with each server may take
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
}

impl ServerArgs {
    /// Whether any server is named.
    #[must_use]
    pub fn any(&self) -> bool {
        !self.servers.is_empty() || !self.urls.is_empty()
    }
}

/// Who must keep working across a change of a plain schema (`diff --role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffRole {
    /// The schema's readers: every document valid under OLD must stay valid under NEW
    Consumer,
    /// The schema's writers are checked by readers that know OLD: every document valid under
    /// NEW must have been valid under OLD
    Producer,
    /// Both: OLD and NEW accept the same documents
    Both,
}

/// The options of `schema-lint diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// OLD then NEW: two schemas, two tools/list documents (or dumps), or two folders (files
    /// matched by path); NEW is left out with `--server`/`--url`. With `--base`: the files and
    /// folders to compare with their versions at the ref [default: .]
    #[arg(value_name = "OLD NEW")]
    pub paths: Vec<PathBuf>,

    /// Compare what `check` lints of the paths named (the files named, the `.json` files a walk
    /// of the folders takes) with its version at this git ref (nothing is checked out)
    #[arg(long, value_name = "REF")]
    pub base: Option<String>,

    /// Who must keep working, for plain schemas (a tool's inputSchema is always compared for
    /// the server that reads it, its outputSchema for the callers that read it)
    #[arg(long, value_enum, default_value_t = DiffRole::Consumer)]
    pub role: DiffRole,

    /// How to print findings
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub output_format: OutputFormat,

    /// When to use colour in the human format
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The least serious finding that fails the run (exit code 1): by default a breaking change
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Error)]
    pub fail_on: FailOn,

    /// Print only breaking changes and warnings: no compatible changes, no summary line
    #[arg(short, long)]
    pub quiet: bool,

    /// The clients whose lint findings NEW introduces are reported apart, comma-separated, as
    /// for `check --clients` (default: the MCP SDK clients and the hosts)
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub clients: Vec<String>,

    /// NEW is what this running server advertises (`--server COMMAND` or `--url URL`)
    #[command(
        flatten,
        next_help_heading = "NEW from a running server (one --server or --url)"
    )]
    pub live: ServerArgs,
}

/// `schema-lint dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// The server to list.
    #[command(flatten)]
    pub live: ServerArgs,
}

/// How `schema-lint session` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SessionFormat {
    /// The verdict per host, then the findings
    Human,
    /// Versioned JSON: per host its request, servers and findings (with `server` and `tool`)
    Json,
    /// Markdown tables
    Markdown,
}

/// The options of `schema-lint session`.
#[derive(Debug, Args)]
pub struct SessionArgs {
    /// Configuration files (`.mcp.json`, `.vscode/mcp.json`, `~/.codex/config.toml`, ...); none:
    /// the current project's and the user's ($HOME)
    #[arg(value_name = "CONFIG")]
    pub configs: Vec<PathBuf>,

    /// The host that reads the files named, where their place and shape do not say it; without
    /// files: judge only these hosts (repeatable): claude-code, claude-desktop, vscode, cursor,
    /// gemini-cli, codex, windsurf; `NAME@VERSION` judges the host at that version
    /// (`claude-code@2.1.260`; `@latest`, the default, is the newest known)
    #[arg(long = "host", value_name = "HOST[@VERSION]")]
    pub hosts: Vec<String>,

    /// Start the servers of the project's own configurations without asking (they run commands
    /// that whoever wrote the repository chose)
    #[arg(long)]
    pub trust_project: bool,

    /// Clients judged beside each host's own, comma-separated: the model provider it uses
    /// (`anthropic`, `openai`, `gemini`); `schema-lint clients` lists them
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub clients: Vec<String>,

    /// Seconds each server may take to start and list its tools
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,

    /// How many servers are started at once: the session lasts about as long as the slowest
    /// server's start only while every server of the configuration starts in the first wave
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub jobs: usize,

    /// How to print
    #[arg(long, value_enum, default_value_t = SessionFormat::Human)]
    pub output_format: SessionFormat,

    /// An error a host printed (`tools.187.custom.name: ...`, `toolConfig.tools.26...`,
    /// `function_declarations[3]...`; `-` reads it from standard input): the server, tool and
    /// place in the request it names, and that tool's findings with their fixes
    #[arg(long, value_name = "TEXT")]
    pub explain_error: Option<String>,

    /// With `--explain-error`: how many tools of its own the host sends before the MCP tools,
    /// when you know it (a provider's index counts them)
    #[arg(long, value_name = "N", requires = "explain_error")]
    pub builtin_tools: Option<usize>,

    /// Wrap each server whose tools break a host, where the port repairs them, in `schema-lint
    /// proxy --for CLIENT` in that host's configuration (only its `command` and `args` change;
    /// the original is kept beside it as `FILE.schema-lint-backup`)
    #[arg(long, conflicts_with_all = ["unfix", "explain_error"])]
    pub fix: bool,

    /// Take every wrap `--fix` made out of the configurations (the server's own command back);
    /// starts no server
    #[arg(long, conflicts_with = "explain_error")]
    pub unfix: bool,
}

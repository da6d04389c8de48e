//! Command-line arguments (clap derive).

use crate::report::OutputFormat;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "schema-lint",
    version,
    about = "Lint and repair JSON Schema files, first of all MCP tool output schemas",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub check: CheckArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint files and folders (the default command)
    Check(CheckArgs),
    /// List every rule
    Rules(RulesArgs),
    /// Check captured tools/call results against their tools' output schemas
    Audit(AuditArgs),
    /// Print a rule's documentation
    Rule {
        /// A code (`SL201`) or a name (`invalid-id-uri`)
        rule: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args, Clone)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "command-line flags are bools"
)]
pub struct CheckArgs {
    /// Files and folders to lint; `-` reads standard input. Default: `.`
    pub paths: Vec<PathBuf>,

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

    /// Print the number of findings per rule instead of the findings
    #[arg(long)]
    pub statistics: bool,

    /// With `--fix`, list the fixes applied, per file
    #[arg(long)]
    pub show_fixes: bool,

    /// Print only the findings: no summary lines
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with 0 even when findings are reported (2 still means an error)
    #[arg(long)]
    pub exit_zero: bool,

    /// MiB of file text and parsed trees a check keeps between indexing files and linting
    /// them; files past it, and files over 64 KiB, are read again when linted (`--fix` keeps
    /// every file)
    #[arg(long, value_name = "MIB", default_value_t = crate::settings::DEFAULT_MEMORY_BUDGET_MIB)]
    pub memory_budget: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// A table
    Human,
    /// A JSON array of objects
    Json,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// How to print the list
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    pub output_format: RulesFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// A line per failing call, then the summary
    Human,
    /// Versioned JSON: every call, its target and validation errors
    Json,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The capture: JSON Lines of JSON-RPC messages, a JSON array of them, or JSON Lines of
    /// `{"record", "body"}`; `-` reads standard input
    pub capture: PathBuf,

    /// A tools/list document with the output schemas (needed for the record form; adds to the
    /// tools/list results found in a capture)
    #[arg(long, value_name = "FILE")]
    pub tools: Vec<PathBuf>,

    /// Exactly these tools are `.meta({ id })` tools (default: a root `$id`, or a root `$ref`
    /// into the schema's own `$defs`/`definitions`)
    #[arg(long, value_delimiter = ',', value_name = "TOOLS")]
    pub meta_id_tools: Option<Vec<String>>,

    /// Also fail on calls that still use the legacy `{"result": ...}` wrapper
    #[arg(long)]
    pub deny_legacy: bool,

    /// How to print the audit
    #[arg(long, value_enum, default_value_t = AuditFormat::Human)]
    pub output_format: AuditFormat,
}

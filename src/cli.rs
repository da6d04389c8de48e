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
    /// or a `$schema` URI
    #[arg(long, value_name = "DIALECT", default_value = "2020-12")]
    pub default_dialect: crate::dialect::Draft,

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
    #[arg(long, value_enum, default_value_t = crate::lint::FixIdMode::Underscore)]
    pub fix_id: crate::lint::FixIdMode,
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

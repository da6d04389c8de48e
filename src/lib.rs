//! schema-lint: lints and repairs JSON Schema files, first of all MCP tool output schemas.
//!
//! The path of a run: discover ([`walk`]) -> parse ([`document`]) -> find the schemas
//! ([`units`]) -> visit subschemas ([`schema_walk`]) -> run the rules ([`rules`]) -> report
//! ([`report`]). [`execute`] runs a parsed command line and returns what to print.
//!
//! Linting a buffer through the library:
//! ```
//! use schema_lint::lint::{lint_source, Settings};
//! use schema_lint::source::{FileId, SourceFile};
//!
//! let text = r#"{"$id": "my_tool:output", "type": "object"}"#;
//! let file = SourceFile::new(FileId(0), "tool.json".into(), None, text, true);
//! let linted = lint_source(file, &Settings::default(), true);
//! let codes: Vec<_> = linted.diagnostics.iter().map(|d| d.rule.code).collect();
//! assert_eq!(codes, ["SL201"]);
//! // The primary span is the offending `:`.
//! assert_eq!(&text[linted.diagnostics[0].span.start..linted.diagnostics[0].span.end], ":");
//! ```

pub mod cli;
pub mod diagnostic;
pub mod dialect;
pub mod docs;
pub mod document;
pub mod fix;
pub mod index;
pub mod lint;
pub mod report;
pub mod rules;
pub mod schema_walk;
pub mod source;
pub mod units;
pub mod uri;
pub mod walk;

use cli::{CheckArgs, Cli, ColorChoice, Command, RulesFormat};
use std::io::IsTerminal;
use std::path::PathBuf;

/// What a command wants printed, and its exit code.
#[derive(Debug, Default)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

/// Exit codes.
pub mod exit {
    /// Nothing left to report.
    pub const CLEAN: u8 = 0;
    /// Findings reported.
    pub const FINDINGS: u8 = 1;
    /// A file could not be read or parsed, or the command line was wrong.
    pub const ERROR: u8 = 2;
}

/// Runs a parsed command line.
#[must_use]
pub fn execute(cli: Cli) -> Outcome {
    match cli.command {
        None => check(&cli.check),
        Some(Command::Check(args)) => check(&args),
        Some(Command::Rules(args)) => {
            let metas = rules::all_meta();
            Outcome {
                stdout: match args.output_format {
                    RulesFormat::Human => report::catalogue::table(&metas),
                    RulesFormat::Json => report::catalogue::json(&metas),
                },
                ..Outcome::default()
            }
        }
        Some(Command::Rule { rule }) => match rules::find_meta(&rule).and_then(docs::doc_for) {
            Some(doc) => Outcome {
                stdout: doc.to_owned(),
                ..Outcome::default()
            },
            None => Outcome {
                stderr: format!("error: no rule `{rule}`; `schema-lint rules` lists them\n"),
                code: exit::ERROR,
                ..Outcome::default()
            },
        },
    }
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

fn check(args: &CheckArgs) -> Outcome {
    let settings = lint::Settings {
        default_draft: args.default_dialect,
    };
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let run = lint::run(&paths, args.stdin_filename.as_deref(), &settings);
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100);
    let style = report::Style {
        color: use_color(args.color),
        width,
    };
    let stdout = report::render(&run, args.output_format, style);
    let code = if run.has_load_errors() {
        exit::ERROR
    } else if run.diagnostics().is_empty() {
        exit::CLEAN
    } else {
        exit::FINDINGS
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code,
    }
}

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

pub mod audit;
pub mod cli;
pub mod config;
pub mod defs_fix;
pub mod diagnostic;
pub mod dialect;
pub mod docs;
pub mod document;
pub mod fix;
pub mod fixer;
pub mod index;
pub mod json_view;
pub mod lint;
pub mod pool;
pub mod rename;
pub mod report;
pub mod rules;
pub mod schema_walk;
pub mod source;
pub mod target;
pub mod units;
pub mod uri;
pub mod verify;
pub mod walk;
pub mod write;

use cli::{CheckArgs, Cli, ColorChoice, Command, RulesFormat};
use std::fmt::Write as _;
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
    /// Errors or warnings reported (info findings alone do not fail a run).
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
        Some(Command::Audit(args)) => audit_command(&args),
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

fn read_input(path: &std::path::Path) -> std::io::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}

/// `schema-lint audit`.
fn audit_command(args: &cli::AuditArgs) -> Outcome {
    let mut options = audit::Options {
        meta_id_tools: args.meta_id_tools.clone(),
        ..audit::Options::default()
    };
    for path in &args.tools {
        let tools = read_input(path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
        match tools {
            Ok(v) => options.tools.push(v),
            Err(why) => {
                return Outcome {
                    stderr: format!("error: {}: {why}\n", path.display()),
                    code: exit::ERROR,
                    ..Outcome::default()
                }
            }
        }
    }
    let text = match read_input(&args.capture) {
        Ok(t) => t,
        Err(e) => {
            return Outcome {
                stderr: format!("error: {}: cannot read: {e}\n", args.capture.display()),
                code: exit::ERROR,
                ..Outcome::default()
            }
        }
    };
    let result = audit::audit(&text, &options);
    let name = args.capture.display().to_string();
    let stdout = match args.output_format {
        cli::AuditFormat::Human => report::audit::human(&result, &name, args.deny_legacy),
        cli::AuditFormat::Json => report::audit::json(&result),
    };
    let code = if !result.input_errors.is_empty() {
        exit::ERROR
    } else if result.fails(args.deny_legacy) {
        exit::FINDINGS
    } else {
        exit::CLEAN
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code,
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

/// The settings of a run: the configuration file, then the command line over it.
fn settings(args: &CheckArgs, paths: &[PathBuf]) -> Result<lint::Settings, String> {
    let config = if args.isolated {
        None
    } else {
        let path = if let Some(p) = &args.config {
            Some(p.clone())
        } else {
            let start = paths
                .iter()
                .find(|p| p.as_os_str() != "-")
                .cloned()
                .unwrap_or_else(|| PathBuf::from("."));
            config::find(&start)
        };
        path.map(|p| config::load(&p)).transpose()?
    };
    let cfg = config.as_ref();
    let selection = rules::select::Selection {
        select: args
            .select
            .clone()
            .or_else(|| cfg.and_then(|c| c.select.clone())),
        extend_select: args
            .extend_select
            .iter()
            .chain(cfg.map(|c| &c.extend_select).into_iter().flatten())
            .cloned()
            .collect(),
        ignore: args
            .ignore
            .iter()
            .chain(cfg.map(|c| &c.ignore).into_iter().flatten())
            .cloned()
            .collect(),
    };
    let unknown = selection.unknown();
    if !unknown.is_empty() {
        return Err(format!(
            "no rule matches `{}`; `schema-lint rules` lists them",
            unknown.join("`, `")
        ));
    }
    Ok(lint::Settings {
        default_draft: args
            .default_dialect
            .or_else(|| cfg.and_then(|c| c.default_dialect))
            .unwrap_or(dialect::Draft::Draft202012),
        fix_id: args.fix_id,
        target: args.target.or_else(|| cfg.and_then(|c| c.target)),
        selection,
        config: config.map(std::sync::Arc::new),
        only_schemas: args.only_schemas,
        memory_budget: (!args.fix && !args.diff)
            .then_some(args.memory_budget.saturating_mul(1 << 20)),
    })
}

fn check(args: &CheckArgs) -> Outcome {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let settings = match settings(args, &paths) {
        Ok(s) => s,
        Err(message) => {
            return Outcome {
                stderr: format!("error: {message}\n"),
                code: exit::ERROR,
                ..Outcome::default()
            }
        }
    };
    let run = lint::run(&paths, args.stdin_filename.as_deref(), &settings);
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100);
    let style = report::Style {
        color: use_color(args.color),
        width,
        quiet: args.quiet,
    };
    let mut outcome = if args.fix || args.diff {
        fix(run, args, &settings, style)
    } else {
        let outcome = Outcome {
            stdout: if args.statistics {
                report::statistics(&run)
            } else {
                report::render(&run, args.output_format, style)
            },
            stderr: String::new(),
            code: exit_code(&run),
        };
        // The process ends right after printing: freeing every span tree one allocation at a
        // time would only cost time (a tenth of a 10,000-file run).
        std::mem::forget(run);
        outcome
    };
    if args.exit_zero && outcome.code == exit::FINDINGS {
        outcome.code = exit::CLEAN;
    }
    outcome
}

/// 2 when a file could not be loaded; 1 when an error or a warning is reported; else 0 (info
/// findings are reported but do not fail a run).
fn exit_code(run: &lint::Run) -> u8 {
    if run.has_load_errors() {
        exit::ERROR
    } else if run
        .diagnostics()
        .iter()
        .any(|d| d.severity != diagnostic::Severity::Info)
    {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `--diff`: what `--fix` would change, as unified diffs; nothing is written.
fn diff(
    outcome: &fixer::FixOutcome,
    changed: &[(PathBuf, Vec<u8>, String, String)],
    fixed: usize,
) -> Outcome {
    let mut out = Outcome::default();
    for (_, _, old, name) in changed {
        let new = outcome
            .run
            .files
            .iter()
            .find(|f| &f.file.name == name)
            .map(|f| f.file.text.to_string())
            .unwrap_or_default();
        out.stdout.push_str(&report::unified_diff(name, old, &new));
    }
    out.stderr = format!(
        "Would fix {} in {}\n",
        plural(fixed, "finding"),
        plural(changed.len(), "file")
    );
    out.code = if changed.is_empty() {
        exit::CLEAN
    } else {
        exit::FINDINGS
    };
    out
}

/// `--fix` and `--diff`: run the fix loop, then write (or show) what it proved.
fn fix(
    run: lint::Run,
    args: &CheckArgs,
    settings: &lint::Settings,
    style: report::Style,
) -> Outcome {
    let findings_before = run.diagnostics().len();
    let mut outcome = fixer::fix_run(run, settings, args.unsafe_fixes, &write::can_write);
    let mut out = Outcome::default();
    let changed: Vec<(PathBuf, Vec<u8>, String, String)> = outcome
        .changed()
        .into_iter()
        .map(|(f, old)| {
            let path = f.file.path.clone().unwrap_or_default();
            (
                path,
                write::stored_bytes(&f.file, &f.file.text),
                old.to_string(),
                f.file.name.clone(),
            )
        })
        .collect();
    let findings_after = outcome.run.diagnostics().len();
    let fixed = findings_before.saturating_sub(findings_after);
    if args.diff {
        return diff(&outcome, &changed, fixed);
    }
    let mut write_failed = false;
    let on_disk: Vec<(PathBuf, Vec<u8>)> = changed
        .iter()
        .filter(|(p, ..)| !p.as_os_str().is_empty())
        .map(|(p, b, ..)| (p.clone(), b.clone()))
        .collect();
    if let Err((path, why)) = write::write_all(&on_disk) {
        let _ = writeln!(
            out.stderr,
            "error: could not write `{}`: {why}; no file was changed",
            report::printable(&path.display().to_string())
        );
        write_failed = true;
    }
    report::attach_rejections(&mut outcome);
    let stdin_fixed = outcome
        .run
        .files
        .iter()
        .find(|f| f.file.path.is_none() && f.root.is_some())
        .map(|f| String::from_utf8_lossy(&write::stored_bytes(&f.file, &f.file.text)).into_owned());
    let left = outcome.run.diagnostics().len();
    let summary = format!(
        "Fixed {} in {}; {} left{}\n",
        plural(fixed, "finding"),
        plural(if write_failed { 0 } else { changed.len() }, "file"),
        left,
        if outcome.applied.is_empty() {
            String::new()
        } else {
            " (every fix applied was verified: it parses, lints, resolves and compiles)".to_owned()
        }
    );
    let mut report = if args.statistics {
        report::statistics(&outcome.run)
    } else {
        report::render(&outcome.run, args.output_format, style)
    };
    if args.show_fixes {
        report.push_str(&report::applied_fixes(&outcome));
    }
    let summary = if args.quiet { String::new() } else { summary };
    if let Some(text) = stdin_fixed {
        // Editors: the fixed buffer goes to stdout, the report to stderr.
        out.stdout = text;
        out.stderr.push_str(&report);
        out.stderr.push_str(&summary);
    } else {
        out.stdout = report;
        if args.output_format == report::OutputFormat::Human {
            out.stdout.push_str(&summary);
        } else {
            out.stderr.push_str(&summary);
        }
    }
    out.code = if write_failed {
        exit::ERROR
    } else {
        exit_code(&outcome.run)
    };
    out
}

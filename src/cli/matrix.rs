//! `schema-lint matrix`: the run's tools against the selected clients, as a table
//! ([`crate::report::matrix`]).

use super::args::{Cli, Command, MatrixArgs, MatrixFormat};
use super::{exit, Outcome};
use crate::diagnostic::breaks::{Client, Kind};
use crate::report::matrix::{self, Matrix};
use crate::report::Style;
use clap::Parser;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Lints what `args` names for the selected clients (every reader of tools unless `--clients`
/// says otherwise) and prints the table. Exit 1 when some client breaks on some tool, 2 when an
/// input could not be read.
pub(super) fn matrix(args: &MatrixArgs) -> Outcome {
    let error = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
        ..Outcome::default()
    };
    // `check`'s options at their defaults, then the ones `matrix` takes: one way to settle
    // settings for both commands.
    let Ok(Cli {
        command: Some(Command::Check(mut check)),
        ..
    }) = Cli::try_parse_from(["schema-lint", "check"])
    else {
        return error("cannot settle the options of `check`".to_owned());
    };
    check.paths.clone_from(&args.paths);
    check.live = args.live.clone();
    // Every reader of a server's tools: the consumers of plain schema files read none.
    check.clients = if args.clients.is_empty() {
        Client::ALL
            .iter()
            .filter(|c| c.kind() != Kind::Plain)
            .map(|c| c.name().to_owned())
            .collect()
    } else {
        args.clients.clone()
    };
    check.target = args.target;
    check.default_dialect = args.default_dialect;
    check.config.clone_from(&args.config);
    check.isolated = args.isolated;
    let paths = if args.paths.is_empty() && !args.live.any() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut settings = match super::check::settings(&check, &paths) {
        Ok(s) => s,
        Err(message) => return error(message),
    };
    // Every tool's row needs its document's tree, clean files' too.
    settings.memory_budget = None;
    let live = match super::live::inputs(&args.live) {
        Ok(inputs) => inputs,
        Err(message) => return error(message),
    };
    let run = crate::engine::run_with(&paths, None, live, &settings);
    let table = Matrix::of(&run, &settings.clients);
    let style = Style {
        color: super::check::use_color(args.color),
        width: 100,
        quiet: args.quiet,
        summary: true,
        baselined: 0,
    };
    let mut stderr = String::new();
    for note in &run.notes {
        let _ = writeln!(stderr, "{note}");
    }
    if table.rows.is_empty() && !args.quiet {
        stderr.push_str(
            "warning: No schema files found: no JSON Schema or MCP `tools/list` document to lint\n",
        );
    }
    for d in run.diagnostics() {
        // A file that does not parse, a server that could not be listed.
        if d.rule.code == crate::diagnostic::meta::PARSE_ERROR.code
            || d.rule.code == crate::diagnostic::meta::SL102.code
        {
            let name = &run.files[d.file.0].file.name;
            let _ = writeln!(
                stderr,
                "error: {}: {}",
                crate::report::printable(name),
                d.message
            );
        }
    }
    Outcome {
        stdout: match args.output_format {
            MatrixFormat::Human => matrix::human(&table, style),
            MatrixFormat::Json => matrix::json(&table),
            MatrixFormat::Markdown => matrix::markdown(&table),
        },
        stderr,
        code: if run.has_load_errors() {
            exit::ERROR
        } else if table.breaks() {
            exit::FINDINGS
        } else {
            exit::CLEAN
        },
    }
}

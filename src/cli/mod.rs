//! The command line: its arguments ([`args`], clap) and the body of each command. Printing
//! itself happens in `main.rs`: a command returns an [`Outcome`].

pub mod args;
mod audit;
mod audit_live;
mod baseline;
mod check;
mod diff;
mod fix;
mod live;
mod matrix;
mod port;
mod session;
mod since;
mod watch;

use crate::report;
use crate::rules::docs;
pub use args::*;

/// What a command wants printed, and its exit code.
#[derive(Debug, Default)]
pub struct Outcome {
    /// What goes to standard output.
    pub stdout: String,
    /// What goes to standard error.
    pub stderr: String,
    /// The exit code (see [`exit`]).
    pub code: u8,
}

/// Exit codes.
pub mod exit {
    /// Nothing left to report.
    pub const CLEAN: u8 = 0;
    /// A finding at least as serious as `--fail-on` reported (by default an error or a
    /// warning: info findings alone do not fail a run).
    pub const FINDINGS: u8 = 1;
    /// A file could not be read or parsed, or the command line was wrong.
    pub const ERROR: u8 = 2;
    /// `--fix` stopped by Ctrl-C or `SIGTERM` while writing (what shells expect of an
    /// interrupted command); no file was changed.
    pub const INTERRUPTED: u8 = 130;

    /// The exit code of a run's report: [`ERROR`] when a file could not be loaded; else
    /// [`FINDINGS`] when a finding at least as serious as `fail_on` is reported (`--fail-on`,
    /// by default a warning); else [`CLEAN`].
    #[must_use]
    pub fn of_run(run: &crate::engine::Run, fail_on: crate::diagnostic::Severity) -> u8 {
        if run.has_load_errors() {
            ERROR
        } else if run.diagnostics().iter().any(|d| d.severity <= fail_on) {
            FINDINGS
        } else {
            CLEAN
        }
    }
}

/// Runs a parsed command line.
#[must_use]
pub fn execute(cli: Cli) -> Outcome {
    match cli.command {
        None if cli.check.watch => watch::watch(&cli.check),
        None => check::check(&cli.check),
        Some(Command::Check(args)) if args.watch => watch::watch(&args),
        Some(Command::Check(args)) => check::check(&args),
        Some(Command::Rules(args)) => {
            let metas = crate::diagnostic::meta::ALL;
            Outcome {
                stdout: match args.output_format {
                    RulesFormat::Human => report::catalogue::table(metas),
                    RulesFormat::Json => report::catalogue::json(metas),
                },
                ..Outcome::default()
            }
        }
        Some(Command::Audit(args)) if args.server.is_some() || args.url.is_some() => {
            audit_live::audit_live(&args)
        }
        Some(Command::Audit(args)) => audit::audit_command(&args),
        Some(Command::Diff(args)) => diff::diff(&args),
        Some(Command::Dump(args)) => live::dump_command(&args),
        #[cfg(unix)]
        Some(Command::Record(args)) => {
            use crate::doors::record;
            let options = record::Options {
                output: args.output.clone(),
                command: args.command.clone(),
                upstream: args.upstream.clone(),
                max_size: args.max_size,
            };
            let ended = match args.listen.as_deref() {
                Some(listen) => record::http::record_http(&options, listen),
                None => record::record(&options),
            };
            Outcome {
                stderr: ended.stderr,
                code: ended.code,
                ..Outcome::default()
            }
        }
        #[cfg(not(unix))]
        Some(Command::Record(_)) => Outcome {
            stderr: "error: `record` runs on Unix only\n".to_owned(),
            code: exit::ERROR,
            ..Outcome::default()
        },
        Some(Command::Server(_)) => match crate::doors::lsp::serve_stdio() {
            Ok(code) => Outcome {
                code,
                ..Outcome::default()
            },
            Err(why) => Outcome {
                stderr: format!("error: {why}\n"),
                code: exit::ERROR,
                ..Outcome::default()
            },
        },
        Some(Command::Session(args)) => session::session(&args),
        Some(Command::Mcp) => match crate::doors::mcp::serve_stdio() {
            Ok(()) => Outcome::default(),
            Err(e) => Outcome {
                stderr: format!("error: {e}\n"),
                code: exit::ERROR,
                ..Outcome::default()
            },
        },
        Some(Command::Clients { client }) => clients(client.as_deref()),
        Some(Command::Matrix(args)) => matrix::matrix(&args),
        Some(Command::Port(args)) => port::port(&args),
        Some(Command::Proxy(args)) => port::proxy(&args),
        Some(Command::Rule { rule }) => {
            match crate::diagnostic::meta::find(&rule).and_then(docs::doc_for) {
                Some(doc) => Outcome {
                    stdout: doc.to_owned(),
                    ..Outcome::default()
                },
                None => Outcome {
                    stderr: format!("error: no rule `{rule}`; `schema-lint rules` lists them\n"),
                    code: exit::ERROR,
                    ..Outcome::default()
                },
            }
        }
    }
}

/// The versions section of a client's page: the versions the model knows of it and, for each
/// claim that holds for some of them only, the range, the class, the effect and the sources.
/// Empty for a client whose claims all hold for every version.
fn versions_of(client: crate::diagnostic::breaks::Client) -> String {
    use crate::diagnostic::breaks::{self, Evidence};
    use std::fmt::Write as _;
    let known = breaks::known_versions(client);
    let Some(newest) = known.last() else {
        return String::new();
    };
    let mut out = format!(
        "\n## Versions\nKnown: {}; `{client}@latest` (a bare `{client}`) is the newest known, \
         {newest} or later. `--clients {client}@VERSION` lints for another.\n",
        known.join(", ")
    );
    for (class, b) in breaks::ranged(client) {
        let _ = write!(out, "- {}: `{class}` {}", b.versions, b.effect);
        match b.evidence {
            Evidence::Measured => out.push_str(" (measured)\n"),
            Evidence::Documented { sources, .. } => {
                let _ = writeln!(out, " (documented: {})", sources.join(", "));
            }
        }
    }
    out
}

/// `schema-lint clients [NAME]`: the clients, a line each (name, kind, whether the default set
/// holds it, what it is), or one client's page.
fn clients(name: Option<&str>) -> Outcome {
    use crate::diagnostic::breaks::Client;
    use std::fmt::Write as _;
    if let Some(name) = name {
        return match Client::named(name) {
            Some(client) => Outcome {
                stdout: format!("{}{}", client.page(), versions_of(client)),
                ..Outcome::default()
            },
            None => Outcome {
                stderr: format!("error: no client `{name}`; `schema-lint clients` lists them\n"),
                code: exit::ERROR,
                ..Outcome::default()
            },
        };
    }
    let width = Client::ALL
        .iter()
        .map(|c| c.name().len())
        .max()
        .unwrap_or(0);
    let mut stdout = String::new();
    for client in Client::ALL {
        let default = if client.is_default() { "default" } else { "" };
        let _ = writeln!(
            stdout,
            "{:width$}  {:8}  {:7}  {}",
            client.name(),
            client.kind().name(),
            default,
            client.summary()
        );
    }
    stdout.push_str(
        "\n`--clients default,NAME,...` selects; `schema-lint clients NAME` prints a page.\n",
    );
    Outcome {
        stdout,
        ..Outcome::default()
    }
}

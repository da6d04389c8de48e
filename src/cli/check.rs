//! `schema-lint check`: the settings of a run (configuration, then the command line), the run,
//! and its report or, with `--fix` / `--diff`, the fix loop.

use super::args::{CheckArgs, ColorChoice};
use super::{exit, Outcome};
use crate::engine::Run;
use crate::report::{self, OutputFormat};
use crate::schema::units::FileKind;
use crate::settings::resolve::in_force;
use crate::settings::{Overrides, Settings};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

pub(super) fn use_color(choice: ColorChoice) -> bool {
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
pub(super) fn settings(args: &CheckArgs, paths: &[PathBuf]) -> Result<Settings, String> {
    let start = paths
        .iter()
        .find(|p| p.as_os_str() != "-")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("."));
    let config = in_force(args.isolated, args.config.as_deref(), Some(&start))?;
    let overrides = Overrides {
        target: args.target,
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
        default_dialect: args.default_dialect,
        fix_id: args.fix_id,
        strict: args.strict,
        only_schemas: args.only_schemas,
        memory_budget: (!args.fix && !args.diff)
            .then_some(args.memory_budget.saturating_mul(1 << 20)),
        respect_ignore_files: !args.no_respect_gitignore,
        project_root: partial_run_root(paths, config.as_ref().and_then(|c| c.dir.as_deref())),
        clients: if args.clients.is_empty() {
            None
        } else {
            Some(
                crate::settings::clients::parse(&args.clients)
                    .map_err(|e| format!("--clients: {e}"))?,
            )
        },
    };
    let settings = Settings::resolve(config, overrides);
    let unknown = settings.selection.unknown();
    if !unknown.is_empty() {
        return Err(format!(
            "no rule matches `{}`; `schema-lint rules` lists them",
            unknown.join("`, `")
        ));
    }
    Ok(settings)
}

/// The project whose other files a run reads as context: when paths are named (rather than
/// the whole project walked), the project the first one belongs to by its real path (a path
/// through a symlinked folder belongs where the folder leads), unless one of them is that
/// project's folder or holds it, or the project would be too wide (`/`, a home folder: a file
/// named there is linted with no context rather than with the whole disk's).
pub(super) fn partial_run_root(paths: &[PathBuf], config_dir: Option<&Path>) -> Option<PathBuf> {
    use crate::workspace::discover::{project_root, too_wide};
    if paths.is_empty() {
        return None;
    }
    let start = paths
        .iter()
        .find(|p| p.as_os_str() != "-")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("."));
    let start = std::fs::canonicalize(&start).unwrap_or(start);
    let root = project_root(&start, config_dir);
    let real_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    let covers = |p: &PathBuf| {
        p.as_os_str() != "-"
            && p.is_dir()
            && (std::path::absolute(p).is_ok_and(|p| root.starts_with(&p))
                || std::fs::canonicalize(p).is_ok_and(|p| real_root.starts_with(&p)))
    };
    (!paths.iter().any(covers) && !too_wide(&root)).then_some(root)
}

/// `check` without `--watch` (which [`super::watch`] runs, calling [`check_once`] each time).
pub(super) fn check(args: &CheckArgs) -> Outcome {
    let Some(reference) = &args.since else {
        return check_once(args);
    };
    match super::since::changed(reference, &args.paths) {
        Ok(files) if files.is_empty() => Outcome {
            stdout: if args.quiet {
                String::new()
            } else {
                format!(
                    "No JSON file changed since `{}`\n",
                    report::printable(reference)
                )
            },
            ..Outcome::default()
        },
        Ok(files) => {
            // Named as a pre-commit hook names them: linted when they hold a schema, with
            // the project around them as context.
            let mut args = args.clone();
            args.paths = files;
            args.only_schemas = true;
            check_once(&args)
        }
        Err(message) => Outcome {
            stderr: format!("error: {message}\n"),
            code: exit::ERROR,
            ..Outcome::default()
        },
    }
}

/// One `check` run over `args.paths` (no `--watch`, `--since` already turned into paths).
pub(super) fn check_once(args: &CheckArgs) -> Outcome {
    let paths = if args.paths.is_empty() && !args.live.any() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    if args.live.any() && (args.fix || args.diff) {
        return Outcome {
            stderr:
                "error: `--fix` and `--diff` cannot change a running server: `schema-lint dump` \
                     it to a file and lint that\n"
                    .to_owned(),
            code: exit::ERROR,
            ..Outcome::default()
        };
    }
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
    let live = match super::live::inputs(&args.live) {
        Ok(inputs) => inputs,
        Err(message) => {
            return Outcome {
                stderr: format!("error: {message}\n"),
                code: exit::ERROR,
                ..Outcome::default()
            }
        }
    };
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100);
    let style = report::Style {
        color: use_color(args.color),
        width,
        quiet: args.quiet,
        summary: !args.fix,
        baselined: 0,
    };
    let stdin_name = args.stdin_filename.as_deref();
    let (notes, mut outcome) = if args.fix || args.diff {
        // The fix loop takes a run that holds every text: no memory budget applies.
        let mut run = crate::engine::run_held(&paths, stdin_name, live, &settings);
        let notes = run.take_notes();
        (notes, super::fix::fix(run, args, &settings, style))
    } else {
        let mut run = crate::engine::run_with(&paths, stdin_name, live, &settings);
        let notes = std::mem::take(&mut run.notes);
        (notes, lint_report(run, args, &settings, style))
    };
    if !args.quiet {
        for note in notes.iter().rev() {
            outcome.stderr.insert_str(0, &format!("{note}\n"));
        }
    }
    if args.exit_zero && outcome.code == exit::FINDINGS {
        outcome.code = exit::CLEAN;
    }
    outcome
}

/// The report of a check run (no `--fix`, no `--diff`).
fn lint_report(
    mut run: Run,
    args: &CheckArgs,
    settings: &Settings,
    mut style: report::Style,
) -> Outcome {
    let nothing = run.linted_count() == 0 && !args.quiet;
    let mut baseline_note = String::new();
    if let Some(file) = &args.baseline {
        if args.write_baseline {
            match super::baseline::write(&run, file) {
                Ok(n) => {
                    baseline_note = format!(
                        "Wrote {n} finding{} to the baseline `{}`\n",
                        if n == 1 { "" } else { "s" },
                        report::printable(&file.display().to_string())
                    );
                }
                Err(message) => {
                    return Outcome {
                        stderr: format!("error: {message}\n"),
                        code: exit::ERROR,
                        ..Outcome::default()
                    }
                }
            }
        }
        match super::baseline::apply(&mut run, file) {
            Ok(applied) => {
                style.baselined = applied.suppressed;
                if !args.quiet {
                    baseline_note.push_str(&super::baseline::stale_note(file, &applied.stale));
                }
            }
            Err(message) => {
                return Outcome {
                    stderr: format!("error: {message}\n"),
                    code: exit::ERROR,
                    ..Outcome::default()
                }
            }
        }
    }
    let mut stderr = if nothing && (args.statistics || args.output_format != OutputFormat::Human) {
        "warning: No schema files found: no JSON Schema or MCP `tools/list` document to lint\n"
            .to_owned()
    } else {
        String::new()
    };
    if !args.quiet {
        stderr.push_str(&mcp_hint(&run, settings));
    }
    stderr.push_str(&baseline_note);
    let outcome = Outcome {
        stdout: if args.statistics {
            report::statistics(&run)
        } else {
            report::render(&run, args.output_format, style)
        },
        stderr,
        code: exit::of_run(&run, args.fail_on.severity()),
    };
    // The process ends right after printing: freeing every span tree one allocation at a
    // time would only cost time (a tenth of a 10,000-file run).
    std::mem::forget(run);
    outcome
}

/// A note, once per run, when schema files that look like MCP tool output schemas (named or
/// filed as outputs) are linted as plain JSON Schema, where the MCP rules are off.
fn mcp_hint(run: &Run, settings: &Settings) -> String {
    if settings.target.is_some() {
        return String::new();
    }
    let looks_like_output = |path: &Path| {
        path.components().any(|c| {
            let c = c.as_os_str().to_string_lossy().to_ascii_lowercase();
            c.contains("output")
        })
    };
    let outputs: Vec<&str> = run
        .files
        .iter()
        .filter(|f| f.kind() == Some(FileKind::Schema) && f.is_linted())
        .filter(|f| {
            f.file
                .path
                .as_deref()
                .is_some_and(|p| looks_like_output(p) && !settings.is_mcp_file(Some(p)))
        })
        .map(|f| f.file.name.as_str())
        .collect();
    let Some(first) = outputs.first() else {
        return String::new();
    };
    format!(
        "note: {} look{} like MCP tool output schemas (such as `{}`), but schema files are linted \
         as plain JSON Schema, where the MCP rules (SL5xx) are off: turn them on with \
         `mcp-files = [\"<glob>\"]` or `target = \"mcp-2025-11-25\"` in schema-lint.toml, or \
         with `--target mcp-2025-11-25`\n",
        if outputs.len() == 1 {
            "1 schema file".to_owned()
        } else {
            format!("{} schema files", outputs.len())
        },
        if outputs.len() == 1 { "s" } else { "" },
        report::printable(first)
    )
}

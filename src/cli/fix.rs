//! `--fix` and `--diff`: run the fix loop, then write the files it proved, or show their diff.

use super::args::CheckArgs;
use super::{exit, Outcome};
use crate::engine::Run;
use crate::report;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `--diff`: what `--fix` would change, as unified diffs; nothing is written.
fn diff(
    outcome: crate::fix::FixOutcome,
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
    // Not freed: the process ends right after printing (see `fix`).
    std::mem::forget(outcome);
    out
}

/// `--fix` and `--diff`: run the fix loop, then write (or show) what it proved.
pub(super) fn fix(
    run: Run,
    args: &CheckArgs,
    settings: &Settings,
    style: report::Style,
) -> Outcome {
    let findings_before = run.diagnostics().len();
    let guard = Guard::of(&run, args.fix_only_named);
    let can_write = |file: &SourceFile| guard.check(file);
    let mut outcome = crate::fix::fix_run(run, settings, args.unsafe_fixes, &can_write);
    let mut out = Outcome::default();
    let also: Vec<String> = outcome
        .changed()
        .into_iter()
        .filter(|(f, _)| guard.context.contains(&f.file.id))
        .map(|(f, _)| format!("`{}`", report::printable(&f.file.name)))
        .collect();
    let changed: Vec<(PathBuf, Vec<u8>, String, String)> = outcome
        .changed()
        .into_iter()
        .map(|(f, old)| {
            let path = f.file.path.clone().unwrap_or_default();
            (
                path,
                crate::fix::write::stored_bytes(&f.file, &f.file.text),
                old.to_string(),
                f.file.name.clone(),
            )
        })
        .collect();
    let findings_after = outcome.run.diagnostics().len();
    let fixed = findings_before.saturating_sub(findings_after);
    if args.diff {
        return diff(outcome, &changed, fixed);
    }
    let mut write_failed = false;
    let on_disk: Vec<(PathBuf, Vec<u8>)> = changed
        .iter()
        .filter(|(p, ..)| !p.as_os_str().is_empty())
        .map(|(p, b, ..)| (p.clone(), b.clone()))
        .collect();
    if let Err((path, why)) = crate::fix::write::write_all(&on_disk) {
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
        .map(|f| {
            String::from_utf8_lossy(&crate::fix::write::stored_bytes(&f.file, &f.file.text))
                .into_owned()
        });
    let left = outcome.run.diagnostics().len();
    let mut summary = format!(
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
    if !also.is_empty() && !write_failed {
        let _ = writeln!(
            summary,
            "Also changed, to follow a renamed `$id`: {} (not named; `--fix-only-named` keeps such files as they are)",
            also.join(", ")
        );
    }
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
        exit::of_run(&outcome.run)
    };
    // The process ends right after printing (as after a check): freeing every tree and proof
    // one allocation at a time would only cost time.
    std::mem::forget(outcome);
    out
}

/// Which files a fix may write besides the named ones.
struct Guard {
    /// Files of the project that were not named (context): a fix may follow a renamed `$id` into
    /// them, unless `--fix-only-named` says not to or the named text is standard input (which is
    /// printed, not written, so no other file may change with it).
    context: HashSet<FileId>,
    only_named: bool,
    from_stdin: bool,
}

impl Guard {
    fn of(run: &Run, only_named: bool) -> Self {
        Self {
            context: run
                .files
                .iter()
                .filter(|f| f.context)
                .map(|f| f.file.id)
                .collect(),
            only_named,
            from_stdin: run
                .files
                .iter()
                .any(|f| f.file.path.is_none() && !f.context),
        }
    }

    /// Why `file` may not be written, if it may not.
    fn check(&self, file: &SourceFile) -> Result<(), String> {
        if self.context.contains(&file.id) {
            if self.only_named {
                return Err(format!(
                    "the fix would also change `{}`, which was not named (`--fix-only-named`)",
                    file.name
                ));
            }
            if self.from_stdin {
                return Err(format!(
                    "the fix would also change `{}`, and fixing standard input changes no other file",
                    file.name
                ));
            }
        }
        crate::fix::write::can_write(file)
    }
}

//! `--fix` and `--diff`: run the fix loop, then write the files it proved, or show their diff.

use super::args::CheckArgs;
use super::{exit, Outcome};
use crate::engine::{HeldRun, Run};
use crate::report;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use std::collections::HashSet;
use std::fmt::Write as _;

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `--diff`: what `--fix` would change, as unified diffs; nothing is written.
fn diff(outcome: crate::fix::FixOutcome, changed: &[(String, String)], fixed: usize) -> Outcome {
    let mut out = Outcome::default();
    for (old, name) in changed {
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

/// The line that says why the write failed, and which file it left changed, if any.
fn write_error(failure: &crate::fix::write::Failure) -> String {
    let what = if failure.interrupted {
        "error: interrupted".to_owned()
    } else {
        format!(
            "error: could not write `{}`: {}",
            report::printable(&failure.name),
            failure.reason
        )
    };
    let rest = if failure.unrestored.is_empty() {
        "no file was changed".to_owned()
    } else {
        let names: Vec<String> = failure
            .unrestored
            .iter()
            .map(|u| report::printable(&u.what).into_owned())
            .collect();
        format!(
            "changed and could not be put back: {}; no other file was changed",
            names.join(", ")
        )
    };
    format!("{what}; {rest}")
}

/// `--fix` and `--diff`: run the fix loop, then write (or show) what it proved.
pub(super) fn fix(
    run: HeldRun,
    args: &CheckArgs,
    settings: &Settings,
    style: report::Style,
) -> Outcome {
    let findings_before = run.diagnostics().len();
    let guard = Guard::of(&run, args.fix_only_named, settings);
    let can_write = |file: &SourceFile| guard.check(file);
    let offer = crate::fix::Offer {
        unsafe_fixes: args.unsafe_fixes,
        follow_on: false,
    };
    let mut outcome = crate::fix::fix_run(run, settings, offer, &can_write);
    let mut out = Outcome::default();
    if args.diff {
        let changed: Vec<(String, String)> = outcome
            .changed()
            .into_iter()
            .map(|c| (c.before.to_string(), c.file.file.name.clone()))
            .collect();
        let fixed = findings_before.saturating_sub(outcome.run.diagnostics().len());
        return diff(outcome, &changed, fixed);
    }
    let written = crate::fix::commit::write_outcome(&mut outcome, settings);
    if let Err(failure) = &written {
        let _ = writeln!(out.stderr, "{}", write_error(failure));
    }
    let changed = outcome.changed().len();
    let also: Vec<String> = outcome
        .changed()
        .into_iter()
        .filter(|c| guard.context.contains(&c.file.file.id))
        .map(|c| format!("`{}`", report::printable(&c.file.file.name)))
        .collect();
    let fixed = findings_before.saturating_sub(outcome.run.diagnostics().len());
    crate::fix::rejections::attach_rejections(&mut outcome);
    let stdin_fixed = outcome
        .run
        .files
        .iter()
        .find(|f| f.file.path.is_none() && f.root().is_some())
        .map(|f| {
            String::from_utf8_lossy(&crate::fix::write::stored_bytes(&f.file, &f.file.text))
                .into_owned()
        });
    let mut summary = report::fix_summary(&outcome.run, fixed);
    if !outcome.applied.is_empty() {
        let _ = writeln!(
            summary,
            "{} changed; every fix applied was verified: it parses, lints, resolves and compiles",
            plural(changed, "file")
        );
    }
    if !also.is_empty() && written.is_ok() {
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
    out.code = match &written {
        Err(failure) if failure.interrupted => exit::INTERRUPTED,
        Err(_) => exit::ERROR,
        Ok(()) => exit::of_run(&outcome.run, args.fail_on.severity()),
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
    /// Named files reached through a symlinked folder that leads out of their project, with
    /// the real folder: writing them would change a file of another project.
    outside: std::collections::HashMap<FileId, std::path::PathBuf>,
}

impl Guard {
    fn of(run: &Run, only_named: bool, settings: &Settings) -> Self {
        let config_dir = settings.config.as_ref().and_then(|c| c.dir.as_deref());
        let outside = run
            .files
            .iter()
            .filter(|f| f.file.explicit && !f.is_context())
            .filter_map(|f| {
                let path = f.file.path.as_deref()?;
                let real = crate::workspace::discover::leaves_its_project(path, config_dir)?;
                Some((f.file.id, real))
            })
            .collect();
        Self {
            outside,
            context: run
                .files
                .iter()
                .filter(|f| f.is_context())
                .map(|f| f.file.id)
                .collect(),
            only_named,
            from_stdin: run
                .files
                .iter()
                .any(|f| f.file.path.is_none() && !f.is_context()),
        }
    }

    /// Why `file` may not be written, if it may not.
    fn check(&self, file: &SourceFile) -> Result<(), String> {
        if let Some(real) = self.outside.get(&file.id) {
            return Err(format!(
                "`{}` is reached through a symlinked folder that leads out of its project (to \
                 `{}`); schema-lint does not write through symlinks",
                file.name,
                report::printable(&real.display().to_string())
            ));
        }
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
        crate::fix::write::can_replace(file)
    }
}

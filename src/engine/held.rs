//! A run that holds every text ([`HeldRun`]): what the fix loop takes, since a fix may reach any
//! file of the run and its proof reads them all.

use super::Run;
use crate::syntax::source::FileId;
use crate::workspace::reloads::{reload, Reloaded};
use crate::workspace::{Origin, State};
use std::collections::BTreeSet;

/// A run that kept the text and tree of every file it read: nothing was let go to bound its
/// memory. Only the paths that keep every file make one ([`super::run_held`], for `--fix` and
/// `--diff`, and [`super::lint_loaded`], over files just loaded); a streaming check run is a
/// plain [`Run`], which the fix loop does not take:
///
/// ```
/// use schema_lint::fix::{fix_run, Offer};
/// use schema_lint::Settings;
///
/// let settings = Settings::default();
/// let run = schema_lint::engine::run_held(&[], None, Vec::new(), &settings);
/// let outcome = fix_run(run, &settings, Offer::SAFE, &|_| Ok(()));
/// assert!(outcome.applied.is_empty());
/// ```
///
/// ```compile_fail
/// use schema_lint::fix::{fix_run, Offer};
/// use schema_lint::Settings;
///
/// let settings = Settings::default();
/// let run = schema_lint::engine::run(&[], None, &settings);
/// let outcome = fix_run(run, &settings, Offer::SAFE, &|_| Ok(()));
/// ```
#[derive(Debug, Default, Clone)]
pub struct HeldRun(Run);

impl HeldRun {
    /// Wraps a run of the paths that keep every file.
    pub(super) fn new(run: Run) -> Self {
        debug_assert!(
            run.files.iter().all(|f| f.released().is_none()),
            "a held run let no file go"
        );
        Self(run)
    }

    /// A run that may have let files go, with the released files that a chain of references
    /// ties to `file` (either way) read and parsed again, for the fixes of `file` in a run the
    /// language server keeps small. The other released files are left out (held as holding
    /// nothing), as `check --fix FILE` leaves out the files of the project that nothing ties to
    /// the file: no reference leads from them into what a fix of `file` changes, or from what it
    /// changes to them. A file that is gone or changed since it was indexed is left out too.
    #[must_use]
    pub fn reloaded_around(run: &Run, file: FileId) -> HeldRun {
        use rayon::prelude::*;
        let mut reached = BTreeSet::from([file]);
        let mut last = reached.clone();
        while !last.is_empty() {
            let found = run.index.tied_to(&last);
            last = found.into_iter().filter(|f| !reached.contains(f)).collect();
            reached.extend(&last);
        }
        let files = crate::workspace::pool::run(|| {
            run.files
                .par_iter()
                .map(|f| {
                    let mut f = f.clone();
                    if let Some(kind) = f.released().and(f.schema_kind()) {
                        let again = reached.contains(&f.file.id).then(|| reload(&f)).flatten();
                        f.state = match again {
                            Some(Reloaded { text, root }) => {
                                f.file.text = text;
                                State::Parsed { root, kind }
                            }
                            None => State::NotSchema { root: None },
                        };
                    }
                    f
                })
                .collect()
        });
        Self::new(Run {
            files,
            index: run.index.clone(),
            notes: run.notes.clone(),
        })
    }

    /// The run itself, for what only reads it (reports) or changes its findings.
    #[must_use]
    pub fn into_run(self) -> Run {
        self.0
    }

    /// What the run could not do in full, taken out of it (see [`Run::notes`]).
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.0.notes)
    }

    /// The run as a fix of `file` alone sees it: every other named file becomes context, as
    /// the files not named are for `check --fix FILE`: their findings are dropped (not fixed),
    /// but a fix may follow a renamed `$id` into them.
    #[must_use]
    pub fn focused_on(&self, file: FileId) -> HeldRun {
        let mut files = self.0.files.clone();
        for (i, f) in files.iter_mut().enumerate() {
            if i != file.0 && !f.is_context() {
                f.origin = Origin::Context;
                f.diagnostics.clear();
            }
        }
        Self(Run {
            files,
            index: self.0.index.clone(),
            notes: Vec::new(),
        })
    }
}

impl std::ops::Deref for HeldRun {
    type Target = Run;

    fn deref(&self) -> &Run {
        &self.0
    }
}

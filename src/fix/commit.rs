//! Writing what the fix loop proved: the changed files, in sets of the files tied by a fix, as
//! one transaction ([`write::write_sets`]). What was not written (a set refused because one of
//! its files changed on disk, or everything, when the write failed) goes back to its text as read
//! and is linted again, so that the report tells what is on disk: its findings are left, and the
//! fixes of a refused set are refused (SL901) with the reason.

use super::write::{self, Failure, Target};
use super::{FixOutcome, Rejected};
use crate::engine::lint_loaded;
use crate::settings::Settings;
use crate::syntax::source::FileId;
use crate::workspace::load_source;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// Writes the files the outcome changed (standard input excepted: it is printed). A refused set
/// or a failure leaves the outcome as the files are on disk.
///
/// # Errors
/// The failure of the write: no file was changed, but for the ones it names.
pub fn write_outcome(outcome: &mut FixOutcome, settings: &Settings) -> Result<(), Failure> {
    let sets = tied_sets(outcome);
    let mut ids = Vec::new();
    let targets: Vec<Target> = outcome
        .changed()
        .into_iter()
        .filter_map(
            |super::Changed {
                 file: f,
                 before: old,
             }| {
                let path = f.file.path.clone()?;
                ids.push(f.file.id);
                Some(Target {
                    path,
                    name: f.file.name.clone(),
                    read: write::stored_bytes(&f.file, old),
                    bytes: write::stored_bytes(&f.file, &f.file.text),
                    set: sets.get(&f.file.id).copied().unwrap_or(f.file.id.0),
                })
            },
        )
        .collect();
    match write::write_sets(&targets) {
        Ok(refused) if refused.is_empty() => Ok(()),
        Ok(refused) => {
            let mut reasons: BTreeMap<usize, String> = BTreeMap::new();
            for r in refused {
                reasons.entry(r.set).or_insert(r.reason);
            }
            let back: HashSet<FileId> = ids
                .iter()
                .zip(&targets)
                .filter(|(_, t)| reasons.contains_key(&t.set))
                .map(|(id, _)| *id)
                .collect();
            let refused_fixes = revert(outcome, &back, settings);
            for a in refused_fixes {
                let set = sets.get(&a.files[0]).copied().unwrap_or(a.files[0].0);
                let reason = reasons.get(&set).cloned().unwrap_or_default();
                // The finding that offers the fix again, in the text as read.
                let (file, pointer) = a
                    .files
                    .iter()
                    .flat_map(|f| &outcome.run.files[f.0].diagnostics)
                    .find(|d| {
                        d.rule.code == a.code && d.fix.as_ref().is_some_and(|f| f.title == a.title)
                    })
                    .map_or((a.files[0], String::new()), |d| (d.file, d.pointer.clone()));
                outcome.rejected.push(Rejected {
                    code: a.code,
                    file,
                    pointer,
                    title: a.title,
                    reason,
                });
            }
            Ok(())
        }
        Err(failure) => {
            let changed: HashSet<usize> = failure.unrestored.iter().map(|u| u.target).collect();
            let back: HashSet<FileId> = ids
                .iter()
                .enumerate()
                .filter(|(i, _)| !changed.contains(i))
                .map(|(_, id)| *id)
                .collect();
            revert(outcome, &back, settings);
            Err(failure)
        }
    }
}

/// Each changed file's set: the files tied by the fixes applied (a fix whose edits span several
/// files ties them), named by the smallest file id in it.
fn tied_sets(outcome: &FixOutcome) -> BTreeMap<FileId, usize> {
    let mut parent: Vec<usize> = (0..outcome.run.files.len()).collect();
    for a in &outcome.applied {
        for pair in a.files.windows(2) {
            let (x, y) = (root(&mut parent, pair[0].0), root(&mut parent, pair[1].0));
            parent[x.max(y)] = x.min(y);
        }
    }
    outcome
        .changed()
        .into_iter()
        .map(|c| (c.file.file.id, root(&mut parent, c.file.file.id.0)))
        .collect()
}

/// The representative of `i`'s set (union-find, halving the path).
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Gives the files `back` their text as read, lints the run again, and takes out the applied
/// fixes that touched them, which it returns.
fn revert(
    outcome: &mut FixOutcome,
    back: &HashSet<FileId>,
    settings: &Settings,
) -> Vec<super::Applied> {
    if back.is_empty() {
        return Vec::new();
    }
    let mut files = std::mem::take(&mut outcome.run.files);
    let original = &outcome.original;
    crate::workspace::pool::run(|| {
        for f in files.iter_mut().filter(|f| back.contains(&f.file.id)) {
            let mut source = f.file.clone();
            source.text = Arc::clone(&original[f.file.id.0]);
            let origin = f.origin;
            *f = load_source(source, true);
            f.origin = origin;
        }
    });
    outcome.run = lint_loaded(files, settings).into_run();
    let (taken, kept) = std::mem::take(&mut outcome.applied)
        .into_iter()
        .partition(|a| a.files.iter().any(|f| back.contains(f)));
    outcome.applied = kept;
    taken
}

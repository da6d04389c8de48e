//! The fix loop: collect the fixes the findings offer ([`Offer`] says which count), apply a
//! batch of non-overlapping ones, re-parse and re-lint and prove them ([`prove`], with
//! [`verify`]), keep the ones that pass, and go again until nothing more applies (bounded). Nothing is written here: the result is the fixed run,
//! in memory, for [`commit`] (which writes it with [`write`]) or `--diff`.

pub mod commit;
mod compile;
mod compiled;
mod inlined;
mod keep;
pub mod port;
pub mod prove;
pub mod rejections;
pub mod verify;
pub mod write;

use crate::diagnostic::fix::{Applicability, Fix};
use crate::diagnostic::Diagnostic;
use crate::engine::{HeldRun, Run};
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::LintedFile;
pub use compile::{documents_built, documents_compiled_against};
pub use prove::{prove, prove_tolerating, Proof};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// How many passes the loop makes at most.
pub const MAX_PASSES: usize = 16;

/// A fix that was applied.
#[derive(Clone, Debug)]
pub struct Applied {
    /// Code of the rule whose finding offered the fix (`SL201`).
    pub code: &'static str,
    /// JSON pointer of that finding's offending value, in the text of the pass that applied it.
    pub pointer: String,
    /// The fix's title.
    pub title: String,
    /// How safe the fix is.
    pub applicability: Applicability,
    /// The files its edits touch, sorted, each once.
    pub files: Vec<FileId>,
    /// The pass of the loop that applied it (0 first): its edits are offsets into the texts as
    /// they stood at the start of that pass.
    pub pass: usize,
    /// The fix's edits.
    pub edits: Vec<crate::diagnostic::fix::Edit>,
}

/// A fix that failed its proof (or could not be written) and was not applied.
#[derive(Clone, Debug)]
pub struct Rejected {
    /// Code of the rule whose finding offered the fix.
    pub code: &'static str,
    /// The file of that finding.
    pub file: FileId,
    /// JSON pointer of that finding's offending value.
    pub pointer: String,
    /// The fix's title.
    pub title: String,
    /// Why the fix was not applied.
    pub reason: String,
}

/// What the loop did.
#[derive(Debug)]
pub struct FixOutcome {
    /// The run after every applied fix, linted again.
    pub run: Run,
    /// Each file's text before the loop, by file id.
    pub original: Vec<Arc<String>>,
    /// The fixes applied, in the order the loop applied them.
    pub applied: Vec<Applied>,
    /// The fixes refused whose finding remains at the end, each finding once with its last
    /// refusal.
    pub rejected: Vec<Rejected>,
    /// Whether the loop ended with nothing left to try (rather than after [`MAX_PASSES`]).
    pub converged: bool,
}

/// A file whose text the loop changed.
#[derive(Clone, Copy, Debug)]
pub struct Changed<'a> {
    /// The file, with its new text.
    pub file: &'a LintedFile,
    /// Its text before the loop.
    pub before: &'a Arc<String>,
}

impl FixOutcome {
    /// The files whose text changed.
    #[must_use]
    pub fn changed(&self) -> Vec<Changed<'_>> {
        self.run
            .files
            .iter()
            .zip(&self.original)
            .filter(|(f, old)| f.file.text != **old)
            .map(|(file, before)| Changed { file, before })
            .collect()
    }
}

/// Identifies a finding's fix across passes.
type Key = (&'static str, FileId, String, String);

fn key(d: &Diagnostic, fix: &Fix) -> Key {
    (d.rule.code, d.file, d.pointer.clone(), fix.title.clone())
}

/// Whether a fix may change the bytes of `file` (`Err` says why not).
pub type WriteCheck<'a> = &'a (dyn Fn(&SourceFile) -> Result<(), String> + Sync);

/// Which fixes are applied by the loop or offered by an editor: safe ones always, unsafe ones
/// when asked for (`--unsafe-fixes`, the editor's `unsafeFixes`), display-only ones never; and
/// only fixes that change some bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// Unsafe fixes too.
    pub unsafe_fixes: bool,
    /// A fix may bring a new finding that the loop takes and another fix it offers repairs in a
    /// later pass (a port: inlining a `$ref` for Gemini brings the target's `format: email` into
    /// the tool, which the next pass moves into the description). Never a finding at the place
    /// of a fix already applied, so two fixes cannot undo each other pass after pass. Off for
    /// `--fix`: a fix there brings no finding at all.
    pub follow_on: bool,
}

impl Offer {
    /// Safe fixes only (`--fix`, the editor's fix-all).
    pub const SAFE: Offer = Offer {
        unsafe_fixes: false,
        follow_on: false,
    };

    /// Safe and unsafe fixes (`--fix --unsafe-fixes`, the editor's `unsafeFixes`).
    pub const UNSAFE: Offer = Offer {
        unsafe_fixes: true,
        follow_on: false,
    };

    /// Whether `fix` is one to apply or offer.
    #[must_use]
    pub fn includes(self, fix: &Fix) -> bool {
        let allowed = match fix.applicability {
            Applicability::Safe => true,
            Applicability::Unsafe => self.unsafe_fixes,
            Applicability::DisplayOnly => false,
        };
        allowed && !fix.edits.is_empty()
    }
}

/// Runs the loop over the fixes `offer` includes, on a run that holds every text (a fix may reach
/// any file, and its proof reads them all); `can_write` vetoes files the fixes may not touch
/// (read-only files, symlinks).
#[must_use]
pub fn fix_run(
    run: HeldRun,
    settings: &Settings,
    offer: Offer,
    can_write: WriteCheck<'_>,
) -> FixOutcome {
    fix_run_where(run, settings, offer, can_write, &|_| true)
}

/// Which findings' fixes a loop takes ([`fix_run_where`]): all of them for `--fix`, those about
/// one client for a port ([`port`]).
pub type Wanted<'a> = &'a (dyn Fn(&Diagnostic) -> bool + Sync);

/// [`fix_run`] over the fixes of the findings `wanted` takes only.
#[must_use]
pub fn fix_run_where(
    run: HeldRun,
    settings: &Settings,
    offer: Offer,
    can_write: WriteCheck<'_>,
    wanted: Wanted<'_>,
) -> FixOutcome {
    crate::workspace::pool::run(|| fix_run_in_pool(run, settings, offer, can_write, wanted))
}

fn fix_run_in_pool(
    run: HeldRun,
    settings: &Settings,
    offer: Offer,
    can_write: WriteCheck<'_>,
    wanted: Wanted<'_>,
) -> FixOutcome {
    let original: Vec<Arc<String>> = run.files.iter().map(|f| Arc::clone(&f.file.text)).collect();
    let mut run = run;
    let mut applied = Vec::new();
    let mut rejected = Rejections::default();
    // Fixes that failed inside a batch are tried alone next, so another fix cannot sink them.
    let mut alone: HashSet<Key> = HashSet::new();
    let mut converged = false;
    // How many fixes were applied when the refused ones were last given another chance.
    let mut retried_at = 0;
    let mut pass = 0;
    while pass < MAX_PASSES {
        let batch = select(&run, offer, &rejected.tried, &alone, wanted);
        if batch.is_empty() {
            // A fix refused earlier (its proof failed while another finding was still there,
            // say an invalid `$id` whose placeholder broke a relative reference) may pass now:
            // once the loop has nothing left, the refused fixes get another chance, as long as
            // fixes were applied since the last one. Without it, a second `--fix` would apply
            // them.
            if applied.len() > retried_at && !rejected.tried.is_empty() {
                retried_at = applied.len();
                rejected.tried.clear();
                alone.clear();
                continue;
            }
            converged = true;
            break;
        }
        pass += 1;
        let mut batch = batch;
        let mut blocked = Vec::new();
        batch.retain(|(k, d, fix)| {
            match fix
                .edits
                .iter()
                .map(|e| can_write(run.source(e.file)))
                .find_map(Result::err)
            {
                Some(reason) => {
                    blocked.push(rejection(k, d, fix, reason));
                    false
                }
                None => true,
            }
        });
        for r in blocked {
            rejected.add((r.code, r.file, r.pointer.clone(), r.title.clone()), r);
        }
        if batch.is_empty() {
            continue;
        }
        let fixes: Vec<&Fix> = batch.iter().map(|(_, _, fix)| fix).collect();
        let proof = prove_tolerating(&run, &fixes, settings, &follow_ons(offer, wanted, &applied));
        match proof {
            Ok(Proof { after, failures }) => {
                if failures.is_empty() {
                    applied.extend(
                        batch
                            .iter()
                            .map(|(_, d, fix)| applied_entry(d, fix, pass - 1)),
                    );
                    run = after;
                    continue;
                }
                for failure in failures.iter().rev() {
                    let (k, d, fix) = batch.remove(failure.fix);
                    if alone.contains(&k) || batch.is_empty() && failures.len() == 1 {
                        rejected.add(k.clone(), rejection(&k, &d, &fix, failure.reason.clone()));
                    } else {
                        alone.insert(k);
                    }
                }
            }
            Err(reason) => {
                for (k, d, fix) in &batch {
                    if batch.len() == 1 || alone.contains(k) {
                        rejected.add(k.clone(), rejection(k, d, fix, reason.clone()));
                    } else {
                        alone.insert(k.clone());
                    }
                }
            }
        }
    }
    // A refusal counts while its finding remains: another variant of the fix, or another fix,
    // may have dealt with it in a later pass.
    let rejected: Vec<Rejected> = rejected
        .latest
        .into_values()
        .filter(|r| {
            run.files[r.file.0]
                .diagnostics
                .iter()
                .any(|d| d.rule.code == r.code && d.pointer == r.pointer)
        })
        .collect();
    FixOutcome {
        run: run.into_run(),
        original,
        applied,
        rejected,
        converged,
    }
}

/// The new findings a fix may bring in this pass ([`Offer::follow_on`]): findings the loop
/// takes, with a fix it offers, and not where a fix was applied already.
fn follow_ons<'a>(
    offer: Offer,
    wanted: Wanted<'a>,
    applied: &'a [Applied],
) -> impl Fn(&Diagnostic) -> bool + Sync + 'a {
    let done: HashSet<(&'static str, &str)> = applied
        .iter()
        .map(|a| (a.code, a.pointer.as_str()))
        .collect();
    move |d| {
        offer.follow_on
            && wanted(d)
            && d.fix.as_ref().is_some_and(|f| offer.includes(f))
            && !done.contains(&(d.rule.code, d.pointer.as_str()))
    }
}

/// The fixes refused so far: every variant tried (a finding's fix can change between passes,
/// say `_2` once another fix took a name), and per finding the last refusal, which is the one
/// reported (once, not once per variant).
#[derive(Default)]
struct Rejections {
    tried: HashMap<Key, Rejected>,
    latest: BTreeMap<(FileId, String, &'static str), Rejected>,
}

impl Rejections {
    fn add(&mut self, key: Key, r: Rejected) {
        self.latest
            .insert((r.file, r.pointer.clone(), r.code), r.clone());
        self.tried.insert(key, r);
    }
}

fn rejection(k: &Key, d: &Diagnostic, fix: &Fix, reason: String) -> Rejected {
    Rejected {
        code: k.0,
        file: d.file,
        pointer: d.pointer.clone(),
        title: fix.title.clone(),
        reason,
    }
}

fn applied_entry(d: &Diagnostic, fix: &Fix, pass: usize) -> Applied {
    let files: BTreeSet<FileId> = fix.edits.iter().map(|e| e.file).collect();
    Applied {
        pass,
        edits: fix.edits.clone(),
        code: d.rule.code,
        pointer: d.pointer.clone(),
        title: fix.title.clone(),
        applicability: fix.applicability,
        files: files.into_iter().collect(),
    }
}

/// The fixes to try this pass: allowed, not rejected, one per distinct edit set, and no two
/// touching the same bytes. A fix marked `alone` makes a batch of its own.
fn select(
    run: &Run,
    offer: Offer,
    rejected: &HashMap<Key, Rejected>,
    alone: &HashSet<Key>,
    wanted: Wanted<'_>,
) -> Vec<(Key, Diagnostic, Fix)> {
    let mut seen_edits = HashSet::new();
    let mut taken: BTreeMap<FileId, Vec<(usize, usize)>> = BTreeMap::new();
    let mut batch = Vec::new();
    for d in run.diagnostics().into_iter().filter(|d| wanted(d)) {
        let Some(fix) = d.fix.as_ref().filter(|f| offer.includes(f)) else {
            continue;
        };
        let k = key(d, fix);
        if rejected.contains_key(&k) {
            continue;
        }
        let signature: Vec<_> = fix
            .edits
            .iter()
            .map(|e| (e.file, e.span, e.content.clone()))
            .collect();
        if !seen_edits.insert(signature) {
            continue;
        }
        let overlaps = fix.edits.iter().any(|e| {
            taken.get(&e.file).is_some_and(|spans| {
                spans
                    .iter()
                    .any(|&(s, t)| e.span.start < t && s < e.span.end || e.span.start == s)
            })
        });
        if overlaps {
            continue;
        }
        if alone.contains(&k) {
            if batch.is_empty() {
                return vec![(k, d.clone(), fix.clone())];
            }
            continue;
        }
        for e in &fix.edits {
            taken
                .entry(e.file)
                .or_default()
                .push((e.span.start, e.span.end));
        }
        batch.push((k, d.clone(), fix.clone()));
    }
    batch
}

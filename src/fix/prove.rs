//! The proof of a batch of fixes, one function for the fix loop and the editor's code actions:
//! apply every edit, lint the run again (the files the batch changed and those tied to them:
//! [`lint_changed`]), and check with [`verify`] that each rewritten schema
//! parses, lints, resolves and compiles as before.

use super::verify::{verify_alone, verify_tolerating, Tolerated};
use crate::diagnostic::fix::{apply_edits, Applicability, Edit, Fix};
use crate::engine::{lint_changed, HeldRun, Run};
use crate::settings::Settings;
use crate::syntax::source::FileId;
use crate::workspace::{load_source, LintedFile};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A batch of fixes applied to a run and proven.
#[derive(Debug)]
pub struct Proof {
    /// The run with every edit of the batch applied, linted again.
    pub after: HeldRun,
    /// The fixes of the batch that fail the proof, with why; empty when the batch passes.
    pub failures: Vec<Failure>,
}

/// A fix of a batch that failed its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Its place in the batch.
    pub fix: usize,
    /// Which check failed and why, in one sentence.
    pub reason: String,
}

impl Proof {
    /// Whether every fix of the batch passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Applies every edit of `fixes` (which touch no byte twice) to `run`, which holds every text
/// (a fix may reach any file), lints the result and proves it. The batch is proven once, as one fix made of every edit and move of its fixes:
/// the same checks, over every file the batch touched, each file compiled once. Only when the
/// batch fails is each fix proven alone, to find the culprits; should each pass alone, they
/// failed together, and every one of them is a failure.
///
/// # Errors
/// When the edits cannot be applied (they overlap, or fall outside the text): why.
pub fn prove(run: &HeldRun, fixes: &[&Fix], settings: &Settings) -> Result<Proof, String> {
    prove_tolerating(run, fixes, settings, &|_| false)
}

/// [`prove`], where the new findings `tolerated` accepts do not fail a fix: the fix loop of a
/// port lets a fix bring a finding that another of its fixes repairs in a later pass
/// ([`super::Offer::follow_on`]).
///
/// # Errors
/// As [`prove`].
pub fn prove_tolerating(
    run: &HeldRun,
    fixes: &[&Fix],
    settings: &Settings,
    tolerated: Tolerated<'_>,
) -> Result<Proof, String> {
    let after = apply(run, fixes, settings)?;
    let failures = failures(run, &after, fixes, settings, tolerated);
    Ok(Proof { after, failures })
}

/// Applies every edit of the `batch` and lints the result.
fn apply(run: &Run, batch: &[&Fix], settings: &Settings) -> Result<HeldRun, String> {
    let mut by_file: BTreeMap<FileId, Vec<&Edit>> = BTreeMap::new();
    for fix in batch {
        for e in &fix.edits {
            by_file.entry(e.file).or_default().push(e);
        }
    }
    let mut files: Vec<LintedFile> = run.files.clone();
    let changed: BTreeSet<FileId> = by_file.keys().copied().collect();
    for (file, edits) in by_file {
        let old = &files[file.0];
        let text = apply_edits(&old.file.text, &edits)?;
        let mut source = old.file.clone();
        source.text = Arc::new(text);
        let origin = old.origin;
        files[file.0] = load_source(source, true);
        files[file.0].origin = origin;
    }
    Ok(lint_changed(run, files, &changed, settings))
}

/// Which fixes of an applied batch fail their proof, with why (see [`prove`]).
fn failures(
    before: &Run,
    after: &Run,
    fixes: &[&Fix],
    settings: &Settings,
    tolerated: Tolerated<'_>,
) -> Vec<Failure> {
    let whole = Fix {
        title: String::new(),
        applicability: Applicability::Safe,
        edits: fixes.iter().flat_map(|f| f.edits.iter().cloned()).collect(),
        moves: fixes.iter().flat_map(|f| f.moves.iter().cloned()).collect(),
    };
    let Err(together) = verify_tolerating(before, after, &whole, settings.default_draft, tolerated)
    else {
        return Vec::new();
    };
    let failure = |fix, reason| Failure { fix, reason };
    if fixes.len() == 1 {
        return vec![failure(0, together)];
    }
    let alone: Vec<Failure> = fixes
        .iter()
        .enumerate()
        .filter_map(|(i, fix)| {
            verify_alone(before, after, fix, settings.default_draft, tolerated)
                .err()
                .map(|e| failure(i, e))
        })
        .collect();
    if alone.is_empty() {
        (0..fixes.len())
            .map(|i| failure(i, together.clone()))
            .collect()
    } else {
        alone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lint_loaded;
    use crate::fix::Offer;
    use crate::syntax::source::{SourceFile, Span};

    fn run_of(texts: &[&str]) -> HeldRun {
        let files = texts
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let name = format!("tool{i}.json");
                load_source(SourceFile::new(FileId(i), name, None, text, true), true)
            })
            .collect();
        lint_loaded(files, &Settings::default())
    }

    fn edit(file: usize, start: usize, end: usize, content: &str) -> Fix {
        Fix {
            title: "Edit".to_owned(),
            applicability: Applicability::Safe,
            edits: vec![Edit {
                file: FileId(file),
                span: Span::new(start, end),
                content: content.to_owned(),
            }],
            moves: Vec::new(),
        }
    }

    #[test]
    fn a_batch_is_proven_whole_and_its_culprits_named() {
        let run = run_of(&[
            r#"{"$id": "my_tool:output", "type": "object"}"#,
            r#"{"type": "object"}"#,
        ]);
        let offered = run.files[0].diagnostics[0].fix.clone().unwrap();
        let proof = prove(&run, &[&offered], &Settings::default()).unwrap();
        assert!(proof.passed(), "{:?}", proof.failures);
        assert!(proof.after.files[0].diagnostics.is_empty());
        // An edit that breaks another file's JSON sinks only itself.
        let breaks = edit(1, 0, 1, "[");
        let proof = prove(&run, &[&offered, &breaks], &Settings::default()).unwrap();
        assert_eq!(proof.failures.len(), 1, "{:?}", proof.failures);
        assert_eq!(proof.failures[0].fix, 1);
        assert!(proof.failures[0].reason.contains("does not parse"));
        // Edits that overlap cannot be applied at all.
        let overlaps = edit(1, 0, 2, "{");
        assert!(prove(&run, &[&breaks, &overlaps], &Settings::default()).is_err());
    }

    #[test]
    fn in_a_listing_a_new_finding_sinks_only_the_fix_of_its_tool() {
        let text = r#"{"tools": [
  {"name": "a", "inputSchema": {"type": "object"}},
  {"name": "b", "inputSchema": {"type": "object", "$id": "b input"}}
]}"#;
        let run = run_of(&[text]);
        let renames = run.files[0]
            .diagnostics
            .iter()
            .find(|d| d.rule.code == "SL201")
            .and_then(|d| d.fix.clone())
            .expect("the fix of tool b's `$id`");
        // A fix of tool `a` that brings an invalid `$id` of its own.
        let at = text.find(r#""type": "object"}}"#).unwrap();
        let brings = edit(0, at, at, r#""$id": "a input", "#);
        let proof = prove(&run, &[&renames, &brings], &Settings::default()).unwrap();
        assert_eq!(proof.failures.len(), 1, "{:?}", proof.failures);
        assert_eq!(proof.failures[0].fix, 1);
        assert!(
            proof.failures[0]
                .reason
                .contains("it would introduce SL201"),
            "{:?}",
            proof.failures
        );
    }

    #[test]
    fn a_port_lets_a_fix_bring_a_finding_that_a_later_pass_repairs() {
        // Inlining the `$ref` for Gemini brings `format: email` into the tool, which Gemini
        // refuses too: `--fix` refuses the inlining, a port lets it through and moves the
        // `format` into the description in the next pass.
        let text = r##"{"tools": [{"name": "t", "inputSchema": {"type": "object",
  "properties": {"c": {"$ref": "#/$defs/C"}},
  "$defs": {"C": {"type": "object", "properties": {"e": {"type": "string", "format": "email"}}}}}}]}"##;
        let settings = Settings {
            clients: crate::settings::clients::parse(&["gemini"])
                .unwrap()
                .clients,
            ..Settings::default()
        };
        let fixed = |follow_on| {
            let file = SourceFile::new(FileId(0), "tools.json".into(), None, text, true);
            let run = lint_loaded(vec![load_source(file, true)], &settings);
            let offer = Offer {
                unsafe_fixes: true,
                follow_on,
            };
            let outcome = crate::fix::fix_run(run, &settings, offer, &|_| Ok(()));
            let left: Vec<String> = outcome.run.files[0]
                .diagnostics
                .iter()
                .map(|d| format!("{} {}", d.rule.code, d.pointer))
                .collect();
            let text = outcome.run.files[0].file.text.to_string();
            (text, left, outcome.rejected.len())
        };
        let (text, left, rejected) = fixed(false);
        assert!(text.contains("$defs"), "{text}");
        assert!(rejected > 0, "{left:?}");
        let (text, left, rejected) = fixed(true);
        assert!(
            !text.contains("$ref") && !text.contains("\"format\""),
            "{text}"
        );
        assert!(left.is_empty() && rejected == 0, "{left:?} {text}");
    }

    /// Each file's findings, as the run has them.
    fn findings(run: &Run) -> Vec<Vec<(&'static str, Span, String)>> {
        run.files
            .iter()
            .map(|f| {
                f.diagnostics
                    .iter()
                    .map(|d| (d.rule.code, d.span, d.message.clone()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_proof_lints_again_only_what_the_batch_can_change_and_agrees_with_a_full_lint() {
        let run = run_of(&[
            // An invalid `$id`, which a reference of the next file names (a rename reaches it).
            r#"{"$id": "my_tool:output", "type": "object"}"#,
            r#"{"type": "object", "properties": {"a": {"$ref": "my_tool:output"}}}"#,
            // Tied to nothing: its finding is kept as it was, not found again.
            r#"{"$id": "other_tool:output", "type": "object"}"#,
            r#"{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"x": {}}}"#,
        ]);
        let rename = run.files[0].diagnostics[0].fix.clone().unwrap();
        assert!(
            rename.edits.iter().any(|e| e.file == FileId(1)),
            "{rename:?}"
        );
        // A batch that changes no declaration: a space in file 3, tied to nothing.
        let space = edit(3, 1, 1, " ");
        for batch in [vec![&rename], vec![&space], vec![&rename, &space]] {
            let proof = prove(&run, &batch, &Settings::default()).unwrap();
            assert!(proof.passed(), "{:?}", proof.failures);
            let fresh = lint_loaded(proof.after.files.clone(), &Settings::default());
            assert_eq!(findings(&proof.after), findings(&fresh), "{batch:?}");
        }
    }

    #[test]
    fn the_offer_is_safe_fixes_then_unsafe_ones_never_display_only_ones() {
        let with = |applicability| Fix {
            applicability,
            ..edit(0, 0, 0, " ")
        };
        let unsafe_too = Offer::UNSAFE;
        for (fix, safe, unsafe_) in [
            (with(Applicability::Safe), true, true),
            (with(Applicability::Unsafe), false, true),
            (with(Applicability::DisplayOnly), false, false),
            (
                Fix {
                    edits: Vec::new(),
                    ..with(Applicability::Safe)
                },
                false,
                false,
            ),
        ] {
            assert_eq!(Offer::SAFE.includes(&fix), safe, "{fix:?}");
            assert_eq!(unsafe_too.includes(&fix), unsafe_, "{fix:?}");
        }
    }

    /// A root `$ref` whose target's members take its place passes, with or without the target
    /// left in `$defs`; one beside a keyword that reads its neighbours does not (beside the
    /// `$ref`, `additionalProperties` sees no `properties`; beside the members, it does).
    #[test]
    fn a_root_ref_may_give_way_to_its_targets_members() {
        let defs = r#""$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}"#;
        let members = r#""type": "object", "properties": {"a": {"type": "string"}}"#;
        for (before, after, passes) in [
            (
                format!(r##"{{"$ref": "#/$defs/A", {defs}}}"##),
                format!("{{{members}}}"),
                true,
            ),
            (
                format!(r##"{{"$ref": "#/$defs/A", {defs}}}"##),
                format!("{{{members}, {defs}}}"),
                true,
            ),
            (
                format!(r##"{{"$ref": "#/$defs/A", "additionalProperties": false, {defs}}}"##),
                format!(r#"{{"additionalProperties": false, {members}}}"#),
                false,
            ),
            (
                format!(r##"{{"$ref": "#/$defs/A", {defs}}}"##),
                r#"{"type": "object", "properties": {"a": {"type": "integer"}}}"#.to_owned(),
                false,
            ),
        ] {
            let run = run_of(&[&before]);
            let lift = edit(0, 0, before.len(), &after);
            let proof = prove(&run, &[&lift], &Settings::default()).unwrap();
            assert_eq!(proof.passed(), passes, "{after}: {:?}", proof.failures);
        }
    }
}

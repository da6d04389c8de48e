//! How the proof of a fix batch scales (#24 item 21): `--fix` over files whose `$ref`s form a
//! cycle, each with a fixable finding, proves one batch touching every file. Each file's
//! compile needs every file of the cycle in its registry; building each file's registered
//! document once per proof keeps that linear in the files, where building it once per fixed
//! file was quadratic. Counted, not timed.

use schema_lint::settings::Settings;
use schema_lint::syntax::source::SourceFile;
use std::path::PathBuf;

/// `n` schema files in a `$ref` cycle, each with an invalid `$id` (SL201) the fix renames, as
/// `benches/ref_cycle.py` writes them.
fn cycle(n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-lint-cycle-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..n {
        let text = format!(
            "{{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": \
             \"tool_{i}:output\",\n  \"type\": \"object\",\n  \"properties\": {{\"next\": \
             {{\"$ref\": \"tool_{}:output\"}}}}\n}}\n",
            (i + 1) % n
        );
        std::fs::write(dir.join(format!("s{i:05}.json")), text).unwrap();
    }
    dir
}

/// The tests of this file read the process's counters: one at a time.
static COUNTERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// What fixing a cycle of `n` files cost the proofs.
struct Cost {
    /// Documents built for a registry.
    built: usize,
    /// Documents the compiles' registries held, summed over the compiles.
    compiled_against: usize,
    /// Files the fix changed.
    changed: usize,
}

/// Fixes the cycle of `n` files, every finding, and says what the proofs cost.
fn fix_cycle(n: usize) -> Cost {
    let _one_at_a_time = COUNTERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = cycle(n);
    let settings = Settings::default();
    let run =
        schema_lint::engine::run_held(std::slice::from_ref(&dir), None, Vec::new(), &settings);
    assert_eq!(
        run.diagnostics().len(),
        2 * n,
        "an SL201 and an SL301 per file"
    );
    let can_write = |_: &SourceFile| Ok(());
    let (built, compiled) = (
        schema_lint::fix::documents_built(),
        schema_lint::fix::documents_compiled_against(),
    );
    let outcome =
        schema_lint::fix::fix_run(run, &settings, schema_lint::fix::Offer::SAFE, &can_write);
    let cost = Cost {
        built: schema_lint::fix::documents_built() - built,
        compiled_against: schema_lint::fix::documents_compiled_against() - compiled,
        changed: outcome.changed().len(),
    };
    assert!(outcome.run.diagnostics().is_empty(), "every finding fixed");
    assert!(outcome.rejected.is_empty(), "no fix refused");
    let _ = std::fs::remove_dir_all(&dir);
    cost
}

#[test]
fn proving_a_fix_over_a_ref_cycle_compiles_the_cycle_once() {
    for n in [50, 200] {
        let cost = fix_cycle(n);
        assert_eq!(cost.changed, n);
        // The crate compiles every `$ref` target eagerly: compiling each fixed file of the
        // cycle as the root compiled the whole cycle n times (n * n documents: 2,500 and
        // 40,000). One compile proves them all.
        assert!(
            cost.compiled_against <= 2 * n,
            "the compiles of a fix over {n} files held {} documents (at most {})",
            cost.compiled_against,
            2 * n
        );
        assert!(cost.built <= 2 * n);
    }
}

#[test]
fn proving_a_fix_over_a_ref_cycle_builds_each_document_once() {
    for n in [20, 60] {
        let Cost { built, changed, .. } = fix_cycle(n);
        assert_eq!(changed, n);
        // One batch, proven once: each file of the cycle registered once. Building them per
        // fixed file would make it n * n.
        assert!(
            built <= 2 * n,
            "{built} documents built to prove a fix over {n} files (at most {})",
            2 * n
        );
    }
}

//! Property tests: on generated runs of schemas (`tests/it/gen`, the same generator as the
//! structured fuzz target), `--fix` keeps its promises: every fixed file parses, gains no
//! finding, keeps its byte order mark, and differs from its input only inside the applied
//! fixes' edit ranges; a second `--fix` changes nothing; the findings do not depend on how a
//! file is formatted; linting, fixing and rendering never panic, whatever the bytes.
//!
//! `PROPTEST_CASES` sets the number of cases of each property (defaults: 96 to 256, about 15 s
//! in all in a debug build); the seed is fixed unless `PROPTEST_RNG_SEED` is set.

use crate::gen;

use arbitrary::Unstructured;
use gen::check::{check, load, settings, Knobs};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn knobs(g: &gen::Generated) -> Knobs {
    Knobs {
        default_draft: g.default_draft,
        fix_id_defs: g.fix_id_defs,
        target: g.target,
        unsafe_fixes: g.unsafe_fixes,
    }
}

fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default);
    let defaults = ProptestConfig::default();
    ProptestConfig {
        cases,
        max_shrink_iters: 2000,
        // The same cases on every run (CI stays deterministic); `PROPTEST_RNG_SEED` explores.
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            defaults.rng_seed
        } else {
            proptest::test_runner::RngSeed::Fixed(0x5c4e_3a11)
        },
        ..defaults
    }
}

/// Texts from the CLI fixtures, to mutate.
fn seeds() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json")
                && path.to_string_lossy().contains("/files/")
            {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    if text.len() < 4096 {
                        out.push(text);
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// An edit of a text at byte `at` (moved to a character boundary).
#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut s = text.to_owned();
    let boundary = |s: &str, at: usize| {
        let mut at = at % (s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    for m in mutations {
        match m {
            Mutation::Delete(at, len) => {
                let a = boundary(&s, *at);
                let b = boundary(&s, a + len);
                s.replace_range(a..b.max(a), "");
            }
            Mutation::Insert(at, what) => {
                let a = boundary(&s, *at);
                s.insert_str(a, what);
            }
            Mutation::Duplicate(at, len) => {
                let a = boundary(&s, *at);
                let b = boundary(&s, a + len).max(a);
                let piece = s[a..b].to_owned();
                s.insert_str(b, &piece);
            }
        }
    }
    s
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let snippets = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "\\",
        "\"$id\": \"my_tool:x\"",
        "\"$ref\": \"#\"",
        "\"$ref\": \"#/$defs/a\"",
        "\"$defs\": {\"a\": {}}",
        "\u{feff}",
        "\r\n",
        "\u{0}",
        "é",
        "\\ud800",
        "1e400",
        "-0",
        "//",
        "/*",
        "'",
        "true",
        "null",
        "#",
        "%",
        "\u{1b}[2J",
    ]);
    prop_oneof![
        (any::<usize>(), 0..16_usize).prop_map(|(a, l)| Mutation::Delete(a, l)),
        (any::<usize>(), snippets).prop_map(|(a, s)| Mutation::Insert(a, s.to_owned())),
        (any::<usize>(), 0..64_usize).prop_map(|(a, l)| Mutation::Duplicate(a, l)),
    ]
}

/// The findings of a run as (file, code, pointer), with how often each occurs.
fn findings(
    files: &[(String, String)],
    k: Knobs,
) -> BTreeMap<(String, &'static str, String), usize> {
    let run = schema_lint::engine::lint_loaded(load(files), &settings(k));
    let mut out = BTreeMap::new();
    for d in run.diagnostics() {
        let key = (
            run.source(d.file).name.clone(),
            d.rule.code,
            d.pointer.clone(),
        );
        *out.entry(key).or_default() += 1;
    }
    out
}

proptest! {
    #![proptest_config(cases(96))]

    #[test]
    fn generated_runs_keep_the_fix_promises(bytes in prop::collection::vec(any::<u8>(), 64..4096)) {
        let Ok(g) = gen::generated(&mut Unstructured::new(&bytes)) else {
            return Ok(());
        };
        check(&g.files, knobs(&g), true);
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn findings_do_not_depend_on_formatting(bytes in prop::collection::vec(any::<u8>(), 64..2048)) {
        let mut u = Unstructured::new(&bytes);
        let Ok(g) = gen::generated(&mut u) else {
            return Ok(());
        };
        // The same documents, re-written in one plain style each (parsed back from the text).
        let plain: Vec<(String, String)> = g
            .files
            .iter()
            .map(|(name, text)| {
                let value = serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}'));
                (name.clone(), value.map_or_else(|_| text.clone(), |v| v.to_string()))
            })
            .collect();
        // serde_json drops duplicate keys and reorders members: compare only files without
        // duplicate keys, whose findings cannot depend on either.
        let k = knobs(&g);
        let styled = findings(&g.files, k);
        if styled.keys().any(|(_, code, _)| *code == "SL101" || *code == "SL100") {
            return Ok(());
        }
        let plain_findings = findings(&plain, k);
        prop_assert_eq!(styled, plain_findings);
    }

}

proptest! {
    #![proptest_config(cases(128))]

    #[test]
    fn mutated_fixtures_never_break_the_pipeline(
        seed in any::<prop::sample::Index>(),
        other in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..6),
        knob_bits in any::<u8>(),
    ) {
        let seeds = seeds();
        prop_assume!(!seeds.is_empty());
        let first: &String = seed.get(&seeds);
        let second: &String = other.get(&seeds);
        let files = vec![
            ("a.json".to_owned(), mutate(first, &mutations)),
            ("sub/b.json".to_owned(), second.clone()),
        ];
        let k = Knobs {
            default_draft: knob_bits & 3,
            fix_id_defs: knob_bits & 4 != 0,
            target: (knob_bits >> 3) & 3,
            unsafe_fixes: knob_bits & 32 != 0,
        };
        check(&files, k, true);
    }

}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn arbitrary_bytes_never_break_the_pipeline(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        check(&[("a.json".to_owned(), text)], Knobs::default(), false);
    }
}

/// Writes generated files into a fresh folder, for runs that read them from disk.
fn write_run(files: &[(String, String)], case: usize) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("schema-lint-stream-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Every output format of a run, as one text.
fn outputs(run: &schema_lint::engine::Run) -> String {
    use schema_lint::report::{render, OutputFormat, Style};
    [
        OutputFormat::Concise,
        OutputFormat::Json,
        OutputFormat::Human,
    ]
    .into_iter()
    .map(|f| render(run, f, Style::default()))
    .collect::<Vec<_>>()
    .join("\n")
}

proptest! {
    #![proptest_config(cases(96))]

    /// A run that lets go of every file once indexed, and reads it again to lint it (or to follow
    /// a reference into it), reports exactly what a run that keeps every file reports.
    #[test]
    fn streaming_runs_report_what_whole_runs_report(bytes in prop::collection::vec(any::<u8>(), 64..4096)) {
        static CASE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let Ok(g) = gen::generated(&mut Unstructured::new(&bytes)) else {
            return Ok(());
        };
        let dir = write_run(&g.files, CASE.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        let k = knobs(&g);
        let whole = schema_lint::engine::run(std::slice::from_ref(&dir), None, &settings(k));
        let streaming = schema_lint::engine::run(
            std::slice::from_ref(&dir),
            None,
            &schema_lint::settings::Settings { memory_budget: Some(0), ..settings(k) },
        );
        let (a, b) = (outputs(&whole), outputs(&streaming));
        let _ = std::fs::remove_dir_all(&dir);
        prop_assert_eq!(a, b);
    }
}

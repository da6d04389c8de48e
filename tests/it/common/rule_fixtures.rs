//! The fixture folders of the schema rules (`SL2xx`-`SL5xx`), where their regression cases live
//! rather than in the rule docs: `testdata/rules/<CODE>/<name>.json`, each named `bad-...` (it
//! triggers exactly its rule) or `good-...` (it triggers nothing), with beside it
//!
//! - `<name>.options`, optional: the words a doc example's fence holds after its kind
//!   (`target=mcp-2025-11-25 also=SL402 unsafe`), and `engine-key=doc/SL201-3` for a case that
//!   the engine tier observed under that name before it moved out of its doc (otherwise the tier
//!   names it `rules/<CODE>/<name>`);
//! - `<name>.fixed.json`, for a bad one whose fix `--fix` applies: the text it must write, which
//!   must lint clean and compile;
//! - `<name>.txt`: its snapshot (the human report, and for a bad one the text `--fix` writes and
//!   the report after the fix), blessed with `SCHEMA_LINT_BLESS=1 cargo test --test it rule_docs::`.
//!
//! Read by `tests/it/rule_docs.rs`, `tests/it/engines.rs` and `examples/engines.rs` (the engine tier).

#![allow(dead_code, reason = "each reader uses its own part of this module")]

use std::path::{Path, PathBuf};

/// What a fixture is meant to show, from the start of its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `bad-...`: triggers exactly its rule (and what `also=` names).
    Bad,
    /// `good-...`: triggers nothing.
    Good,
}

/// One fixture of a rule's folder.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// The rule's code, the folder's name (`SL201`).
    pub code: String,
    /// The file's stem (`bad-fix-id-defs`).
    pub name: String,
    /// The input file.
    pub path: PathBuf,
    /// Bad or good.
    pub kind: Kind,
    /// The input, byte for byte.
    pub text: String,
    /// The words of `<name>.options` but `engine-key=`.
    pub options: Vec<String>,
    /// The content of `<name>.fixed.json`, if any.
    pub fixed: Option<String>,
    /// The name the engine tier gives the case (`observed.json`'s key).
    pub engine_key: String,
}

impl Fixture {
    /// `testdata/rules/SL201/bad-fix-id-defs`, for messages.
    #[must_use]
    pub fn label(&self) -> String {
        format!("testdata/rules/{}/{}", self.code, self.name)
    }

    /// The snapshot file beside the fixture.
    #[must_use]
    pub fn snapshot_path(&self) -> PathBuf {
        self.path.with_file_name(format!("{}.txt", self.name))
    }
}

/// `testdata/rules/`.
#[must_use]
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules")
}

/// The fixture folders (`testdata/rules/<CODE>/`), by code.
#[must_use]
pub fn folders() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

/// Every fixture, by code then name.
#[must_use]
pub fn all() -> Vec<Fixture> {
    folders()
        .into_iter()
        .flat_map(|(code, dir)| of_folder(&code, &dir))
        .collect()
}

fn of_folder(code: &str, dir: &Path) -> Vec<Fixture> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".json") && !name.ends_with(".fixed.json")
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let kind = if name.starts_with("bad-") {
                Kind::Bad
            } else if name.starts_with("good-") {
                Kind::Good
            } else {
                panic!(
                    "{}: a fixture is named `bad-...` or `good-...`",
                    path.display()
                )
            };
            let beside =
                |ext: &str| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).ok();
            let words: Vec<String> = beside("options")
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_owned)
                .collect();
            let engine_key = words
                .iter()
                .find_map(|w| w.strip_prefix("engine-key="))
                .map_or_else(|| format!("rules/{code}/{name}"), str::to_owned);
            Fixture {
                code: code.to_owned(),
                text: std::fs::read_to_string(&path).unwrap(),
                options: words
                    .into_iter()
                    .filter(|w| !w.starts_with("engine-key="))
                    .collect(),
                fixed: beside("fixed.json"),
                engine_key,
                kind,
                name,
                path,
            }
        })
        .collect()
}

//! The layering of `src/` cannot drift: each top-level module uses only the modules listed before
//! it in [`LAYERS`] (any `crate::name` in a file, doc links included, counts as a use), so no two
//! modules import each other in a circle. Files stay small enough to read in one sitting.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The top-level modules, from the bottom layer up (the order of `src/lib.rs`).
const LAYERS: &[&str] = &[
    "syntax",
    "schema",
    "diagnostic",
    "settings",
    "workspace",
    "index",
    "rules",
    "engine",
    "fix",
    "audit",
    "report",
    "cli",
];

const MAX_LINES: usize = 700;
const MAX_LIB_LINES: usize = 200;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for `lib.rs` and `main.rs`).
fn top_module(path: &Path) -> Option<String> {
    let first = path.strip_prefix(src()).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    let name = name.strip_suffix(".rs").unwrap_or(name);
    (name != "lib" && name != "main").then(|| name.to_owned())
}

/// Every `crate::<name>` a text names, and the names inside `use crate::{a, b::c}`.
fn crate_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + "crate::".len()..];
        if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            if let Some(group) = after.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                names.extend(group.split(',').map(|g| ident(g.trim())));
            } else {
                names.insert(ident(after));
            }
        }
        rest = after;
    }
    names
}

#[test]
fn each_module_uses_only_the_layers_below_it() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut tops: BTreeSet<String> = files.iter().filter_map(|f| top_module(f)).collect();
    let listed: BTreeSet<String> = LAYERS.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        tops, listed,
        "the top-level modules of src/ are the layers of this test, and no others"
    );
    assert!(LAYERS.len() <= 12, "at most 12 top-level modules");
    let mut violations = Vec::new();
    for file in &files {
        let Some(me) = top_module(file) else { continue };
        let rank = LAYERS.iter().position(|l| *l == me).unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        for name in crate_names(&text) {
            if let Some(other) = LAYERS.iter().position(|l| *l == name) {
                if other > rank {
                    violations.push(format!(
                        "{} (layer `{me}`) uses `crate::{name}`, a layer above it",
                        file.strip_prefix(src()).unwrap().display()
                    ));
                }
            }
        }
    }
    tops.clear();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn files_are_small_enough_to_read_in_one_sitting() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut long = Vec::new();
    for file in &files {
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        let bound = if file.ends_with("lib.rs") {
            MAX_LIB_LINES
        } else {
            MAX_LINES
        };
        if lines > bound {
            long.push(format!(
                "{}: {lines} lines (at most {bound})",
                file.display()
            ));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_scanner_sees_grouped_and_doc_uses() {
    let text =
        "use crate::{syntax::source, rules};\n/// See [`crate::engine::run`].\nmy_crate::fix";
    let names: Vec<String> = crate_names(text).into_iter().collect();
    assert_eq!(names, ["engine", "rules", "syntax"]);
}

//! The layering of `src/` cannot drift: each top-level module uses only the modules listed before
//! it in [`LAYERS`] (any `crate::name` in a file, doc links included, counts as a use), so no two
//! modules import each other in a circle; nor do two files, inside a layer too (by `crate::` and
//! `super::` paths, as `file_circles.py` finds them). Files stay small enough to read in one
//! sitting.

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
    "doors",
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
    assert!(LAYERS.len() <= 13, "at most 13 top-level modules");
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

/// A file's module path under `src/` (`cli/server/state.rs` -> `cli::server::state`; a
/// `mod.rs`, `lib.rs` or `main.rs` is its folder's module).
fn module_path(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if parts
        .last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        parts.pop();
    }
    parts
}

fn is_folder_module(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    matches!(name, "mod.rs" | "lib.rs" | "main.rs")
}

/// The text without its comments (doc comments included): line comments first, then block
/// comments, as `file_circles.py` strips them.
fn without_comments(text: &str) -> String {
    let lines: String = text
        .split_inclusive('\n')
        .map(|line| match line.find("//") {
            Some(at) if line.ends_with('\n') => format!("{}\n", &line[..at]),
            Some(at) => line[..at].to_owned(),
            None => line.to_owned(),
        })
        .collect();
    let mut out = String::new();
    let mut rest = lines.as_str();
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        if let Some(end) = rest[at + 2..].find("*/") {
            rest = &rest[at + 2 + end + 2..];
        } else {
            // An unclosed `/*` is no comment.
            out.push_str(&rest[at..at + 2]);
            rest = &rest[at + 2..];
        }
    }
    out.push_str(rest);
    out
}

/// Every `crate::a::b` and `super::super::c` path of a text: its first word and the names after.
fn module_uses(text: &str) -> Vec<(&'static str, Vec<String>)> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let head = ["crate", "super"].into_iter().find(|h| rest.starts_with(h));
        let boundary = !text[..at].chars().next_back().is_some_and(word);
        let (Some(head), true) = (head, boundary) else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let mut end = at + head.len();
        let mut parts = Vec::new();
        while let Some(after) = text[end..].strip_prefix("::") {
            let len: usize = after
                .chars()
                .take_while(|c| word(*c))
                .map(char::len_utf8)
                .sum();
            if len == 0 {
                break;
            }
            parts.push(after[..len].to_owned());
            end += 2 + len;
        }
        if parts.is_empty() {
            at += head.len();
        } else {
            out.push((head, parts));
            at = end;
        }
    }
    out
}

/// The circles of files that use each other (by `crate::` and `super::` paths), each sorted, as
/// `file_circles.py` finds them. `files` are (path relative to `src/`, text). A folder's module
/// naming its own children (`mod.rs` using `self`'s submodules) is the module tree, not a use.
fn file_circles(files: &[(String, String)]) -> Vec<Vec<String>> {
    use std::collections::HashMap;
    let by_module: HashMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, (rel, _))| (module_path(rel), i))
        .collect();
    let resolve = |parts: &[String]| {
        (1..=parts.len())
            .rev()
            .find_map(|n| by_module.get(&parts[..n]).copied())
    };
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for (p, (rel, text)) in files.iter().enumerate() {
        let me = module_path(rel);
        let folder = is_folder_module(rel);
        let here: Vec<String> = if folder {
            me.clone()
        } else {
            me[..me.len().saturating_sub(1)].to_vec()
        };
        for (head, mut parts) in module_uses(&without_comments(text)) {
            let target: Vec<String> = if head == "crate" {
                parts
            } else {
                let mut base = here.clone();
                while parts.first().is_some_and(|p| p == "super") {
                    parts.remove(0);
                    base.pop();
                }
                if folder {
                    base.pop();
                }
                base.into_iter().chain(parts).collect()
            };
            if let Some(q) = resolve(&target).filter(|&q| q != p) {
                let child = folder && module_path(&files[q].0).starts_with(&me);
                if !child {
                    edges[p].insert(q);
                }
            }
        }
    }
    // Strongly connected components (Tarjan, without recursion).
    let n = files.len();
    let (mut order, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut stack, mut on_stack, mut next) = (Vec::new(), vec![false; n], 0);
    let mut circles = BTreeSet::new();
    for start in 0..n {
        if order[start] != usize::MAX {
            continue;
        }
        let mut calls: Vec<(usize, Vec<usize>)> = Vec::new();
        order[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        calls.push((start, edges[start].iter().copied().collect()));
        while let Some((v, todo)) = calls.last_mut() {
            let v = *v;
            if let Some(w) = todo.pop() {
                if order[w] == usize::MAX {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, edges[w].iter().copied().collect()));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            calls.pop();
            if let Some((parent, _)) = calls.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(files[w].0.clone());
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 {
                    members.sort();
                    circles.insert(members.clone());
                }
            }
        }
    }
    circles.into_iter().collect()
}

#[test]
fn no_two_files_use_each_other() {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let rel = p
                .strip_prefix(src())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    let circles: Vec<String> = file_circles(&files)
        .into_iter()
        .map(|c| c.join(" <-> "))
        .collect();
    assert!(
        circles.is_empty(),
        "files of src/ that use each other (move what both need into a third file, or into \
         their parent module):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_circle_finder_sees_circles_and_only_them() {
    let tree = |files: &[(&str, &str)]| -> Vec<(String, String)> {
        files
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect()
    };
    // Two siblings through `super::`, and a longer circle through `crate::` across folders.
    let found = file_circles(&tree(&[
        ("lib.rs", "pub mod a;\npub mod b;\nuse crate::a::x::f;"),
        (
            "a/mod.rs",
            "mod x;\nmod y;\nuse crate::a::x::f;\npub fn g() {}",
        ),
        ("a/x.rs", "use super::y::h;\npub fn f() {}"),
        ("a/y.rs", "pub fn h() { super::x::f(); super::g(); }"),
        ("b/mod.rs", "mod p;\nuse crate::b::p::q;"),
        (
            "b/p.rs",
            "pub fn q() { crate::b::r(); super::super::c::s(); }\n",
        ),
        ("c.rs", "pub fn s() { crate::b::p::q(); }"),
    ]));
    assert_eq!(
        found,
        [
            vec!["a/x.rs".to_owned(), "a/y.rs".to_owned()],
            vec!["b/p.rs".to_owned(), "c.rs".to_owned()],
        ]
    );
    // A parent naming its children, a child naming its parent, comments and longer names
    // (`my_crate::`, `supers::`) make no circle.
    let none = file_circles(&tree(&[
        ("lib.rs", "pub mod a;\nuse crate::a::x;"),
        ("a/mod.rs", "mod x;\npub use x::f;\nuse crate::a::x::f as g;\npub fn top() {}"),
        (
            "a/x.rs",
            "use super::top;\n// crate::a::z::w\n/* super::z */\nfn f() { my_crate::a::z(); supers::z(); }",
        ),
        ("a/z.rs", "use crate::a::x::f;"),
    ]));
    assert!(none.is_empty(), "{none:?}");
}

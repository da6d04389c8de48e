//! Context for partial runs: when files are named (pre-commit, one file, standard input), the
//! project's other schema files are read too, so that references resolve as in a run over the
//! whole project and a fix can follow a renamed `$id` into the files that name it.
//!
//! Reading is cheap and parsing is not, so a file of the project is parsed only when its text
//! can tie it to the named files: it mentions one of their file names or one of the ids they
//! declare (a reference into them), or a file name or id their references name (the file a
//! reference leads to), or its own file name is one their references name. Every other file
//! cannot change what the named files resolve to, nor be changed by their fixes.

use crate::settings::Settings;
use crate::syntax::document::{Node, NodeKind};
use crate::syntax::read::{read_file_bounded, MAX_FILE};
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::discover::{
    other_files_bounded, Candidate, Configured, Walked, MAX_CONTEXT_ENTRIES, MAX_CONTEXT_FILES,
};
use crate::workspace::load::display_name;
use crate::workspace::{load_source, LintedFile, Origin};
use aho_corasick::AhoCorasick;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the named files say about the rest of the project.
#[derive(Debug, Default)]
pub(super) struct Needles {
    /// Strings whose presence in a file's text may tie it to the named files.
    texts: HashSet<String>,
    /// File names that the named files' references name.
    names: HashSet<String>,
}

impl Needles {
    /// Adds what one named file says: its own file name, the ids it declares and what its
    /// references name.
    pub(super) fn add(&mut self, path: Option<&Path>, root: &Node) {
        if let Some(name) = path.and_then(Path::file_name) {
            self.texts.insert(name.to_string_lossy().into_owned());
        }
        self.visit(root);
    }

    /// Joins the needles of several files.
    pub(super) fn merge(&mut self, other: Needles) {
        self.texts.extend(other.texts);
        self.names.extend(other.names);
    }

    fn visit(&mut self, node: &Node) {
        match &node.kind {
            NodeKind::Object(members) => {
                for member in members {
                    let keyword = member.key.as_str();
                    if let Some(value) = member.value.as_str() {
                        match keyword {
                            "$id" | "id" => self.add_uri(value, false),
                            "$ref" | "$dynamicRef" => self.add_uri(value, true),
                            _ => {}
                        }
                    }
                    self.visit(&member.value);
                }
            }
            NodeKind::Array(items) => items.iter().for_each(|i| self.visit(i)),
            _ => {}
        }
    }

    fn add_uri(&mut self, value: &str, reference: bool) {
        let document = value.split('#').next().unwrap_or_default();
        if document.is_empty() {
            return;
        }
        self.texts.insert(document.to_owned());
        let last = document
            .rsplit(['/', ':'])
            .find(|s| !s.is_empty())
            .unwrap_or(document);
        self.texts.insert(last.to_owned());
        if reference {
            self.names.insert(last.to_owned());
        }
    }
}

/// The context of a partial run: its files, and the note that says a bound stopped their walk.
#[derive(Debug, Default)]
pub(super) struct Context {
    /// The files, loaded as context.
    pub files: Vec<LintedFile>,
    /// Why not every file of the project was read, when a bound stopped the walk.
    pub note: Option<String>,
}

/// The most bytes of context files a partial run reads.
const MAX_CONTEXT_BYTES: u64 = 512 << 20;

/// The project's other files that can tie to the named ones, loaded as context, with ids from
/// `first_id` on. `named` are the files the run was given (so the walk leaves them out). The walk
/// and the reading are bounded (files, entries walked, bytes read): when a bound stops them, the
/// note says so.
pub(super) fn context_files(
    root: &Path,
    named: &[Candidate],
    needles: &Needles,
    first_id: usize,
    settings: &Settings,
) -> Context {
    let accept = Configured(settings.config.as_deref());
    let walked = as_walked(root);
    let Walked { paths, mut stopped } =
        other_files_bounded(&walked, &accept, settings.respect_ignore_files, named);
    let texts: Vec<&String> = needles.texts.iter().filter(|t| !t.is_empty()).collect();
    let Ok(matcher) = AhoCorasick::new(&texts) else {
        return Context::default();
    };
    let read = AtomicU64::new(0);
    let over = AtomicBool::new(false);
    let candidates: Vec<(PathBuf, String)> = paths
        .into_par_iter()
        .filter_map(|path| {
            if over.load(Ordering::Relaxed) {
                return None;
            }
            let bytes = read_file_bounded(&path, MAX_FILE, true).ok()?;
            let total = read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
            if total.saturating_add(bytes.len() as u64) > MAX_CONTEXT_BYTES {
                over.store(true, Ordering::Relaxed);
                return None;
            }
            let named_by_a_reference = path
                .file_name()
                .is_some_and(|n| needles.names.contains(n.to_string_lossy().as_ref()));
            if !named_by_a_reference && !matcher.is_match(&bytes) {
                return None;
            }
            let text = String::from_utf8(bytes).ok()?;
            Some((path, text))
        })
        .collect();
    stopped |= over.into_inner();
    let note = stopped.then(|| {
        format!(
            "note: the project `{}` is larger than schema-lint reads for context (at most {} \
             `*.json` files, {} entries walked, {} MiB): the files past that bound were not read, \
             so references into them may be reported as unresolved and fixes do not follow \
             renamed ids into them; name the files, or run over the whole project",
            crate::workspace::load::display_name(&walked),
            MAX_CONTEXT_FILES,
            MAX_CONTEXT_ENTRIES,
            MAX_CONTEXT_BYTES >> 20
        )
    });
    let files = candidates
        .into_par_iter()
        .enumerate()
        .filter_map(|(i, (path, text))| {
            let name = display_name(&path);
            let file = SourceFile::from_string(FileId(first_id + i), name, Some(path), text, false);
            let mut loaded = load_source(file, false);
            loaded.root()?;
            loaded.schema_kind()?;
            loaded.origin = Origin::Context;
            Some(loaded)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .enumerate()
        .map(|(i, mut f)| {
            // Ids are dense: a file dropped above leaves no hole.
            f.file.id = FileId(first_id + i);
            f
        })
        .collect();
    Context { files, note }
}

/// `root` as a walk from the working folder reaches it (`.`, `../..`, `schemas`), so that the
/// context files are named as the named ones are; an absolute path when it lies elsewhere.
fn as_walked(root: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return root.to_path_buf();
    };
    if let Ok(below) = root.strip_prefix(&cwd) {
        return if below.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            below.to_path_buf()
        };
    }
    if let Ok(above) = cwd.strip_prefix(root) {
        return above.components().map(|_| "..").collect();
    }
    root.to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    #[test]
    fn needles_are_file_names_ids_and_what_references_name() {
        let root = parse(
            r##"{"$id": "urn:my_tool:ticket", "properties": {
                "a": {"$ref": "common/defs.json#/$defs/x"},
                "b": {"$ref": "#/$defs/local"},
                "c": {"$ref": "https://example.com/schemas/user.json"}}}"##,
        )
        .unwrap();
        let mut needles = Needles::default();
        needles.add(Some(Path::new("schemas/ticket.json")), &root);
        for wanted in [
            "ticket.json",
            "urn:my_tool:ticket",
            "ticket",
            "common/defs.json",
            "defs.json",
            "user.json",
        ] {
            assert!(needles.texts.contains(wanted), "{wanted}: {needles:?}");
        }
        assert!(needles.names.contains("defs.json") && needles.names.contains("user.json"));
        assert!(!needles.names.contains("ticket"));
    }
}

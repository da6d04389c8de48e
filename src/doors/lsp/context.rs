//! The files of a project the server reads from disk (its context): each parsed once, indexed on
//! its own, and let go: what the server keeps of one is its index ([`RunIndex::of_file`]) and a
//! fingerprint of its text, by which a rule that needs its tree, or a fix, reads it again
//! ([`crate::workspace::reloads`]). A file is read again when its length or modification time
//! changes.

use crate::index::{IndexInput, RunIndex};
use crate::schema::dialect::Draft;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::load::display_name;
use crate::workspace::{load_source, Fingerprint, LintedFile, State};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// A file's length and modification time, by which a change on disk is noticed.
pub(super) type Stamp = (u64, Option<SystemTime>);

/// A context file as last read from disk.
struct Cached {
    stamp: Stamp,
    /// The dialect its schemas were indexed with where they name none.
    draft: Draft,
    /// The file, let go, and its index; `None`: it holds no schema, or could not be read.
    file: Option<(LintedFile, RunIndex)>,
}

/// The context files read so far, by path.
#[derive(Default)]
pub(super) struct Cache(HashMap<PathBuf, Cached>);

impl Cache {
    /// Forgets what was read of these files, so that they are read again.
    pub(super) fn forget(&mut self, paths: &[PathBuf]) {
        for path in paths {
            self.0.remove(path);
        }
    }

    /// The context files of a project at `paths`, each with its index (as file 0): from the
    /// cache while their length and modification time stay the same, else read, parsed, indexed
    /// and let go again (in parallel). Paths in `skip` (open documents, read from their
    /// buffers) are not read; files under `root` that `paths` no longer lists are forgotten.
    pub(super) fn files(
        &mut self,
        root: &Path,
        paths: &[PathBuf],
        skip: &dyn Fn(&Path) -> bool,
        draft: Draft,
    ) -> Vec<Option<(LintedFile, RunIndex)>> {
        let seen: HashSet<&PathBuf> = paths.iter().collect();
        self.0
            .retain(|p, _| !p.starts_with(root) || seen.contains(p));
        let stamps: Vec<Option<Stamp>> = paths.iter().map(|p| stamp(p)).collect();
        let stale: Vec<(usize, &PathBuf)> = paths
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                !skip(p)
                    && stamps[*i].is_some()
                    && self
                        .0
                        .get(*p)
                        .is_none_or(|c| Some(c.stamp) != stamps[*i] || c.draft != draft)
            })
            .collect();
        let loaded: Vec<(usize, Option<(LintedFile, RunIndex)>)> =
            crate::workspace::pool::run(|| {
                stale
                    .par_iter()
                    .map(|&(i, path)| (i, read(path, root, draft)))
                    .collect()
            });
        for (i, file) in loaded {
            if let Some(stamp) = stamps[i] {
                let cached = Cached { stamp, draft, file };
                self.0.insert(paths[i].clone(), cached);
            }
        }
        paths
            .iter()
            .map(|p| self.0.get(p).and_then(|c| c.file.clone()))
            .collect()
    }

    /// A context file read again after it changed on disk, and kept.
    pub(super) fn reread(
        &mut self,
        path: &Path,
        root: &Path,
        draft: Draft,
    ) -> Option<(LintedFile, RunIndex)> {
        let file = read(path, root, draft);
        match stamp(path) {
            Some(stamp) => {
                let cached = Cached {
                    stamp,
                    draft,
                    file: file.clone(),
                };
                self.0.insert(path.to_path_buf(), cached);
            }
            None => {
                self.0.remove(path);
            }
        }
        file
    }
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// A context file read, parsed, indexed and let go.
fn read(path: &Path, root: &Path, draft: Draft) -> Option<(LintedFile, RunIndex)> {
    let bound = crate::syntax::read::MAX_FILE;
    let bytes = crate::syntax::read::read_file_bounded(path, bound, true).ok()?;
    let mut file = parse_context(path, root, String::from_utf8(bytes).ok()?)?;
    let part = index_of(&file, draft);
    let kind = file.schema_kind()?;
    file.state = State::Released {
        kind,
        fingerprint: Fingerprint::of(&file.file.text),
        settled: false,
    };
    file.file.text = Arc::default();
    Some((file, part))
}

/// A context file parsed, when it holds a schema or a `tools/list` document.
pub(super) fn parse_context(path: &Path, root: &Path, text: String) -> Option<LintedFile> {
    let name = name_in(path, Some(root));
    let source = SourceFile::from_string(FileId(0), name, Some(path.to_path_buf()), text, false);
    let file = load_source(source, false);
    file.root()?;
    file.schema_kind()?;
    Some(file)
}

/// The index of one file of a run on its own (empty for a file that holds no schema).
pub(super) fn index_of(file: &LintedFile, draft: Draft) -> RunIndex {
    match (file.root(), file.schema_kind()) {
        (Some(root), Some(kind)) => RunIndex::of_file(
            &IndexInput {
                file: file.file.id,
                path: file.file.path.as_deref(),
                name: &file.file.name,
                root,
                kind,
            },
            draft,
        ),
        _ => RunIndex::default(),
    }
}

/// How findings name a file: relative to its project when it lies inside it.
pub(super) fn name_in(path: &Path, root: Option<&Path>) -> String {
    let relative = root.and_then(|r| path.strip_prefix(r).ok());
    display_name(relative.unwrap_or(path))
}

//! Files that a streaming run let go of (to bound its memory), read again: for linting them, and
//! for another file's rules (a `$ref` into them, a rename reaching them), once each per run.

use super::file::{Fingerprint, LintedFile};
use crate::syntax::document::{self, Node};
use crate::syntax::source::SourceFile;
use std::sync::Arc;

/// A released file read again and parsed.
#[derive(Debug)]
pub struct Reloaded {
    /// Its text.
    pub text: Arc<String>,
    /// Its tree.
    pub root: Arc<Node>,
}

/// A file of the run with its tree at hand.
#[derive(Clone, Copy, Debug)]
pub struct Tree<'a> {
    /// The file, with its text.
    pub file: &'a SourceFile,
    /// Its tree.
    pub root: &'a Node,
}

/// Reads and parses a released file again; `None` if it is gone or no longer what was indexed.
#[must_use]
pub fn reload(file: &LintedFile) -> Option<Reloaded> {
    let text = reread(file)?;
    let root = Arc::new(document::parse_as(&text, file.file.is_jsonc()).ok()?);
    Some(Reloaded { text, root })
}

/// The text of a released file, read again; `None` if it is gone or no longer what was indexed.
#[must_use]
pub fn reread(file: &LintedFile) -> Option<Arc<String>> {
    let path = file.file.path.as_ref()?;
    let bytes =
        crate::syntax::read::read_file_bounded(path, crate::syntax::read::MAX_FILE, true).ok()?;
    let mut text = String::from_utf8(bytes).ok()?;
    crate::syntax::source::drain_bom(&mut text);
    (Some(Fingerprint::of(&text)) == file.released()).then(|| Arc::new(text))
}

/// Released files read again for another file's rules (a `$ref` into them, a rename reaching
/// them), once each per run.
pub struct Reloads {
    slots: Vec<std::sync::OnceLock<Option<Reread>>>,
}

/// A file of a [`Reloads`], read again.
struct Reread {
    file: SourceFile,
    root: Arc<Node>,
}

impl Reloads {
    /// Room for a run of `files` files, none read again yet.
    #[must_use]
    pub fn new(files: usize) -> Self {
        Self {
            slots: (0..files).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// Lets go of the files read again, on every thread of the pool: one thread freeing the
    /// trees of every file that others reference was the last step of a check's lint.
    pub fn release(self) {
        use rayon::prelude::*;
        self.slots.into_par_iter().with_max_len(1).for_each(drop);
    }

    /// The text and tree of `file`, read again if it was released.
    pub(crate) fn get<'a>(&'a self, file: &'a LintedFile) -> Option<Tree<'a>> {
        if let Some(root) = file.tree() {
            return Some(Tree {
                file: &file.file,
                root,
            });
        }
        file.released()?;
        let slot = self.slots.get(file.file.id.0)?.get_or_init(|| {
            reload(file).map(|Reloaded { text, root }| Reread {
                file: SourceFile {
                    text,
                    ..file.file.clone()
                },
                root,
            })
        });
        slot.as_ref().map(|r| Tree {
            file: &r.file,
            root: &r.root,
        })
    }
}

//! Files that a streaming run let go of (to bound its memory), read again: for linting them, and
//! for another file's rules (a `$ref` into them, a rename reaching them), once each per run.

use super::file::{Fingerprint, LintedFile};
use crate::syntax::document::{self, Node};
use crate::syntax::source::SourceFile;
use std::sync::Arc;

/// Reads and parses a released file again; `None` if it is gone or no longer what was indexed.
#[must_use]
pub fn reload(file: &LintedFile) -> Option<(Arc<String>, Arc<Node>)> {
    let text = reread(file)?;
    let root = document::parse(&text).ok()?;
    Some((text, Arc::new(root)))
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
    slots: Vec<std::sync::OnceLock<Option<Reloaded>>>,
}

/// A released file read again: its text and tree.
type Reloaded = (SourceFile, Arc<Node>);

impl Reloads {
    /// Room for a run of `files` files, none read again yet.
    #[must_use]
    pub fn new(files: usize) -> Self {
        Self {
            slots: (0..files).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// The text and tree of `file`, read again if it was released.
    pub(crate) fn get<'a>(&'a self, file: &'a LintedFile) -> Option<(&'a SourceFile, &'a Node)> {
        if let Some(root) = file.root() {
            return Some((&file.file, root));
        }
        file.released()?;
        let slot = self.slots.get(file.file.id.0)?.get_or_init(|| {
            reload(file).map(|(text, root)| {
                (
                    SourceFile {
                        text,
                        ..file.file.clone()
                    },
                    root,
                )
            })
        });
        slot.as_ref().map(|(f, root)| (f, &**root))
    }
}

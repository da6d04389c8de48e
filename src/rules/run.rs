//! What a rule sees of the run around a file ([`RunView`]): the index, and every file's text and
//! tree.

use crate::index::RunIndex;
use crate::schema::units::FileKind;
use crate::syntax::document::Node;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::reloads::Tree;
use crate::workspace::{LintedFile, Reloads};

/// What a rule sees of the whole run: the index and every file.
pub struct RunView<'a> {
    /// The index of every schema of the run (or of the current file alone, when a streaming
    /// run lints a file on its own).
    pub index: &'a RunIndex,
    /// Every file of the run, indexed by file id; empty when a file is linted on its own.
    pub files: &'a [LintedFile],
    /// The file being linted, with its tree and kind (which `files` may not hold in a
    /// streaming run).
    pub current: Option<Current<'a>>,
    /// Where files that a streaming run let go are read again.
    pub reloads: Option<&'a Reloads>,
}

/// The file a [`RunView`] is linting.
#[derive(Clone, Copy, Debug)]
pub struct Current<'a> {
    /// The file, with its text.
    pub file: &'a SourceFile,
    /// Its tree.
    pub root: &'a Node,
    /// What it holds.
    pub kind: FileKind,
}

impl<'a> RunView<'a> {
    /// The text and tree of a file of the run.
    fn loaded(&self, file: FileId) -> Option<Tree<'a>> {
        if let Some(current) = self.current.filter(|c| c.file.id == file) {
            return Some(Tree {
                file: current.file,
                root: current.root,
            });
        }
        let lf: &'a LintedFile = self.files.get(file.0)?;
        match (lf.tree(), self.reloads) {
            (Some(root), _) => Some(Tree {
                file: &lf.file,
                root,
            }),
            (None, Some(reloads)) => reloads.get(lf),
            (None, None) => None,
        }
    }

    /// The parsed root of a file of the run.
    #[must_use]
    pub fn root(&self, file: FileId) -> Option<&'a Node> {
        self.loaded(file).map(|t| t.root)
    }

    /// A file of the run, with its text.
    ///
    /// # Panics
    /// If `file` is not a file of the view: the index names only files of the view.
    #[must_use]
    pub fn source(&self, file: FileId) -> &'a SourceFile {
        match self.loaded(file) {
            Some(t) => t.file,
            None => &self.files[file.0].file,
        }
    }

    /// Whether a file is what a running server advertised (`check --server` or `--url`):
    /// nothing can be written back to it, so no fix applies there.
    #[must_use]
    pub fn is_server(&self, file: FileId) -> bool {
        self.files.get(file.0).is_some_and(LintedFile::is_server)
    }

    /// What kind of document a file is.
    #[must_use]
    pub fn kind(&self, file: FileId) -> Option<FileKind> {
        if let Some(current) = self.current.filter(|c| c.file.id == file) {
            return Some(current.kind);
        }
        self.files.get(file.0)?.kind()
    }
}

//! What a rule sees: a whole file ([`FileContext`]), one schema with its subschemas
//! ([`UnitContext`]), and the run around it ([`RunView`]).

use crate::index::RunIndex;
use crate::schema::units::{FileKind, SchemaUnit};
use crate::schema::walk::Subschema;
use crate::settings::target::Target;
use crate::settings::Settings;
use crate::syntax::document::Node;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::{LintedFile, Reloads};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// What a rule sees of a whole file.
pub struct FileContext<'a> {
    /// The file, with its text.
    pub file: &'a SourceFile,
    /// The file's parsed document.
    pub root: &'a Node,
}

/// What a rule sees of the whole run: the index and every file.
pub struct RunView<'a> {
    /// The index of every schema of the run (or of the current file alone, when a streaming
    /// run lints a file on its own).
    pub index: &'a RunIndex,
    /// Every file of the run, indexed by file id; empty when a file is linted on its own.
    pub files: &'a [LintedFile],
    /// The file being linted, with its tree and kind (which `files` may not hold in a
    /// streaming run).
    pub current: Option<(&'a SourceFile, &'a Node, FileKind)>,
    /// Where files that a streaming run let go are read again.
    pub reloads: Option<&'a Reloads>,
}

impl<'a> RunView<'a> {
    /// The text and tree of a file of the run.
    fn loaded(&self, file: FileId) -> Option<(&'a SourceFile, &'a Node)> {
        if let Some((f, root, _)) = self.current.filter(|(f, _, _)| f.id == file) {
            return Some((f, root));
        }
        let lf: &'a LintedFile = self.files.get(file.0)?;
        match (&lf.root, self.reloads) {
            (Some(root), _) => Some((&lf.file, root)),
            (None, Some(reloads)) => reloads.get(lf),
            (None, None) => None,
        }
    }

    /// The parsed root of a file of the run.
    #[must_use]
    pub fn root(&self, file: FileId) -> Option<&'a Node> {
        self.loaded(file).map(|(_, root)| root)
    }

    /// A file of the run, with its text.
    ///
    /// # Panics
    /// If `file` is not a file of the view: the index names only files of the view.
    #[must_use]
    pub fn source(&self, file: FileId) -> &'a SourceFile {
        match self.loaded(file) {
            Some((f, _)) => f,
            None => &self.files[file.0].file,
        }
    }

    /// What kind of document a file is.
    #[must_use]
    pub fn kind(&self, file: FileId) -> Option<FileKind> {
        if let Some((_, _, kind)) = self.current.filter(|(f, _, _)| f.id == file) {
            return Some(kind);
        }
        self.files.get(file.0)?.kind
    }
}

/// What a rule sees of one schema: its file, its unit, every subschema in document order, and
/// the run around it.
pub struct UnitContext<'a> {
    /// The file that holds the schema, with its text.
    pub file: &'a SourceFile,
    /// The file's whole parsed document; the schema's root is at `unit.pointer` in it.
    pub root: &'a Node,
    /// Which schema of the file this is, and its dialect.
    pub unit: &'a SchemaUnit,
    /// Index of the unit within its file (as in [`RunIndex`]).
    pub unit_no: usize,
    /// Every subschema of the unit in document order, its root first.
    pub subschemas: &'a [Subschema<'a>],
    /// The run around the file.
    pub run: &'a RunView<'a>,
    /// The settings of the run.
    pub settings: &'a Settings,
    /// The target this unit is linted for.
    pub target: Target,
    /// What the rules work out once for the file and share among its schemas.
    pub memo: &'a FileMemo,
}

/// What a rule works out once for a whole file and reads again for each of its schemas (say,
/// every identifier the tools of a `tools/list` declare), so that a file of many schemas costs
/// time in proportion to its size, not to its size times its number of schemas. Each rule keeps
/// its values under its own key; a memo lives as long as one lint of one file.
#[derive(Default)]
pub struct FileMemo {
    slots: RefCell<Vec<(&'static str, Rc<dyn Any>)>>,
}

impl FileMemo {
    /// The value under `key`, made by `make` the first time it is asked for.
    ///
    /// # Panics
    /// If `key` was first used with another type: each rule uses its own key.
    pub fn get_or_make<T: Any>(&self, key: &'static str, make: impl FnOnce() -> T) -> Rc<T> {
        let found = self
            .slots
            .borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| Rc::clone(v));
        let value = found.unwrap_or_else(|| {
            // Made outside the borrow: `make` may ask the memo for something else.
            let value: Rc<dyn Any> = Rc::new(make());
            self.slots.borrow_mut().push((key, Rc::clone(&value)));
            value
        });
        value
            .downcast::<T>()
            .unwrap_or_else(|_| panic!("the memo key `{key}` holds a value of another type"))
    }
}

impl UnitContext<'_> {
    /// The text of the file (spans are byte offsets into it).
    #[must_use]
    pub fn text(&self) -> &str {
        &self.file.text
    }
}

//! What a rule sees: a whole file ([`FileContext`]), one schema with its subschemas and the
//! analyses rules share of it ([`UnitContext`]), and the run around it
//! ([`RunView`](crate::rules::run::RunView)); both contexts make the rule's findings
//! ([`UnitContext::report`]).

use crate::diagnostic::breaks::Client;
use crate::diagnostic::meta::RuleMeta;
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;
use crate::rules::analysis::reach::Reach;
use crate::rules::analysis::tree::Tree;
use crate::rules::analysis::{Analyses, Unit};
use crate::rules::run::RunView;
use crate::schema::units::SchemaUnit;
use crate::schema::walk::Subschema;
use crate::settings::target::Target;
use crate::settings::Settings;
use crate::syntax::document::Node;
use crate::syntax::source::{SourceFile, Span};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// What a rule sees of a whole file.
pub struct FileContext<'a> {
    /// The rule being run, whose findings [`FileContext::report`] makes.
    pub rule: &'static RuleMeta,
    /// The file, with its text.
    pub file: &'a SourceFile,
    /// The file's parsed document.
    pub root: &'a Node,
}

impl FileContext<'_> {
    /// A finding of the rule in the file, at `span`: the rest is added with the builder methods
    /// of [`Diagnostic`].
    #[must_use]
    pub fn report(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.rule, self.file.id, span, message)
    }
}

/// What a rule sees of one schema: its file, its unit, every subschema in document order, the
/// run around it, and the analyses of the schema that rules share.
pub struct UnitContext<'a> {
    /// The rule being run, whose findings [`UnitContext::report`] makes.
    pub rule: &'static RuleMeta,
    /// The file that holds the schema, with its text.
    pub file: &'a SourceFile,
    /// The file's whole parsed document; the schema's root is at `unit.pointer` in it.
    pub root: &'a Node,
    /// Which schema of the file this is, and its dialect.
    pub unit: &'a SchemaUnit,
    /// Index of the unit within its file (as in [`crate::index::RunIndex`]).
    pub unit_no: usize,
    /// Every subschema of the unit in document order, its root first.
    pub subschemas: &'a [Subschema<'a>],
    /// The run around the file.
    pub run: &'a RunView<'a>,
    /// The settings of the run.
    pub settings: &'a Settings,
    /// The target this unit is linted for.
    pub target: Target,
    /// The clients the run is for.
    pub clients: &'a [Client],
    /// The analyses of the schema, shared by every rule that runs on it.
    pub analyses: &'a Analyses<'a>,
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

impl<'a> UnitContext<'a> {
    /// The text of the file (spans are byte offsets into it).
    #[must_use]
    pub fn text(&self) -> &str {
        &self.file.text
    }

    /// A finding of the rule in the schema's file, at `span`: the rest is added with the builder
    /// methods of [`Diagnostic`].
    #[must_use]
    pub fn report(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.rule, self.file.id, span, message)
    }

    /// Whether the schema is what a running server advertised (`check --server` or `--url`):
    /// no fix applies to it (the run drops them), so a help names the change in the server's
    /// code, never what `--fix` or `--unsafe-fixes` would do.
    #[must_use]
    pub fn live(&self) -> bool {
        self.run.is_server(self.file.id)
    }

    /// What the analyses read of the schema.
    fn analysed(&self) -> Unit<'a> {
        Unit {
            file: self.file.id,
            root: self.root,
            unit_no: self.unit_no,
            subschemas: self.subschemas,
            run: self.run,
        }
    }

    /// The tree of the schema's subschemas and local references, worked out once.
    #[must_use]
    pub fn tree(&self) -> &'a Tree<'a> {
        self.analyses.tree(&self.analysed())
    }

    /// The generator that wrote the schema, if its signs show one (worked out once).
    #[must_use]
    pub fn generator(&self) -> Option<Generator> {
        self.analyses.generator(&self.analysed())
    }

    /// Which `$defs` entries the schema's root reaches, worked out once.
    #[must_use]
    pub fn reach(&self) -> &'a Reach {
        self.analyses.reach(&self.analysed())
    }
}

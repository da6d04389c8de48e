//! Analyses of a schema that rules of several families share, each worked out at most once per
//! schema, the first time a rule asks for it ([`crate::rules::UnitContext::tree`],
//! [`crate::rules::UnitContext::generator`], [`crate::rules::UnitContext::reach`]): the tree of
//! its subschemas ([`tree`]), the generator that wrote it ([`generator`]), and which
//! `$defs` entries its root reaches ([`reach`]).

pub mod generator;
pub mod node;
pub mod reach;
pub mod tree;

use crate::rules::run::RunView;
use crate::schema::walk::Subschema;
use crate::syntax::document::Node;
use crate::syntax::source::FileId;
use generator::Generator;
use reach::Reach;
use std::cell::OnceCell;
use tree::Tree;

/// What the analyses read of a schema: its file, unit and subschemas, and the run around it.
#[derive(Clone, Copy)]
pub struct Unit<'a> {
    /// The file that holds the schema.
    pub file: FileId,
    /// The file's whole parsed document.
    pub root: &'a Node,
    /// Index of the unit within its file (as in [`crate::index::RunIndex`]).
    pub unit_no: usize,
    /// Every subschema of the unit in document order, its root first.
    pub subschemas: &'a [Subschema<'a>],
    /// The run around the file.
    pub run: &'a RunView<'a>,
}

/// The analyses of one schema, empty until a rule asks for one; dispatch holds one per schema
/// and lends it to every rule.
#[derive(Default)]
pub struct Analyses<'a> {
    tree: OnceCell<Tree<'a>>,
    generator: OnceCell<Option<Generator>>,
    reach: OnceCell<Reach>,
}

impl<'a> Analyses<'a> {
    /// The tree of the unit's subschemas.
    pub fn tree(&self, unit: &Unit<'a>) -> &Tree<'a> {
        self.tree.get_or_init(|| Tree::new(unit))
    }

    /// The generator that wrote the unit, if its signs show one.
    pub fn generator(&self, unit: &Unit<'a>) -> Option<Generator> {
        *self
            .generator
            .get_or_init(|| generator::detect(unit.subschemas))
    }

    /// Which `$defs` entries of the unit its root reaches.
    pub fn reach(&self, unit: &Unit<'a>) -> &Reach {
        self.reach.get_or_init(|| Reach::of(unit))
    }
}

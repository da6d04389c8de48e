//! The rule trait, rule metadata and the registry.

use crate::diagnostic::{Diagnostic, Severity};
use crate::document::Node;
use crate::index::RunIndex;
use crate::lint::{LintedFile, Reloads, Settings};
use crate::schema_walk::Subschema;
use crate::source::FileId;
use crate::source::SourceFile;
use crate::target::Target;
use crate::units::SchemaUnit;
use serde::Serialize;
use std::fmt;

mod ancestry;
pub(crate) mod defs_keys;
mod id_fix;
mod mcp;
pub mod select;
mod sl100_parse_error;
mod sl101_duplicate_key;
mod sl201_invalid_id_uri;
mod sl202_id_has_fragment;
mod sl203_urn_not_portable;
mod sl204_duplicate_id;
mod sl205_invalid_anchor;
mod sl206_id_not_normalized;
mod sl301_invalid_ref_uri;
mod sl302_unresolved_ref;
mod sl303_remote_ref;
mod sl304_defs_key_needs_escaping;
mod sl401_schema_invalid;
mod sl402_unknown_dialect;
mod sl403_dialect_keyword_mismatch;
mod sl404_nested_schema_keyword;
mod sl501_output_root_not_object;
mod sl502_boolean_property_schema;
mod sl503_required_not_declared;
mod sl504_result_wrapper;
mod sl505_closed_output_object;
mod sl506_complexity;
mod sl60x_audit;
mod sl901_fix_not_verified;

pub use sl100_parse_error::PARSE_ERROR;
pub use sl901_fix_not_verified::FIX_NOT_VERIFIED;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Document,
    Identifiers,
    References,
    Dialect,
    Mcp,
    Audit,
    Tool,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Document => "document",
            Category::Identifiers => "identifiers",
            Category::References => "references",
            Category::Dialect => "dialect",
            Category::Mcp => "mcp",
            Category::Audit => "audit",
            Category::Tool => "tool",
        })
    }
}

/// Whether a rule can offer a fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FixAvailability {
    None,
    Sometimes,
    Always,
}

impl fmt::Display for FixAvailability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FixAvailability::None => "none",
            FixAvailability::Sometimes => "sometimes",
            FixAvailability::Always => "always",
        })
    }
}

/// What `schema-lint rules` lists; the rule's doc in `rules/<CODE>.md` repeats it in its header.
#[derive(Debug, Serialize)]
pub struct RuleMeta {
    pub code: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub fix: FixAvailability,
    /// Whether the rule runs without `--select` naming it.
    pub default_enabled: bool,
}

/// What a rule sees of a whole file.
pub struct FileContext<'a> {
    pub file: &'a SourceFile,
    pub root: &'a Node,
}

/// What a rule sees of the whole run: the index and every file.
pub struct RunView<'a> {
    pub index: &'a RunIndex,
    pub files: &'a [LintedFile],
    /// The file being linted, with its tree and kind (which `files` may not hold in a
    /// streaming run).
    pub current: Option<(&'a SourceFile, &'a Node, crate::units::FileKind)>,
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
    pub fn kind(&self, file: FileId) -> Option<crate::units::FileKind> {
        if let Some((_, _, kind)) = self.current.filter(|(f, _, _)| f.id == file) {
            return Some(kind);
        }
        self.files.get(file.0)?.kind
    }
}

/// What a rule sees of one schema: its file, its unit, every subschema in document order, and
/// the run around it.
pub struct UnitContext<'a> {
    pub file: &'a SourceFile,
    pub root: &'a Node,
    pub unit: &'a SchemaUnit,
    /// Index of the unit within its file (as in [`RunIndex`]).
    pub unit_no: usize,
    pub subschemas: &'a [Subschema<'a>],
    pub run: &'a RunView<'a>,
    pub settings: &'a Settings,
    /// The target this unit is linted for.
    pub target: Target,
}

impl UnitContext<'_> {
    #[must_use]
    pub fn text(&self) -> &str {
        &self.file.text
    }
}

/// A lint rule. A rule looks at a file as a whole, at each schema in it, or both.
pub trait Rule: Send + Sync {
    fn meta(&self) -> &'static RuleMeta;

    /// The rule's severity for a target, or `None` where it is silent.
    fn severity(&self, _target: Target) -> Option<Severity> {
        Some(self.meta().severity)
    }

    fn check_file(&self, _cx: &FileContext<'_>, _out: &mut Vec<Diagnostic>) {}

    fn check_unit(&self, _cx: &UnitContext<'_>, _out: &mut Vec<Diagnostic>) {}
}

/// Every rule, in code order. `SL100` is reported by the parser, not run as a rule.
#[must_use]
pub fn all() -> &'static [&'static dyn Rule] {
    static RULES: &[&dyn Rule] = &[
        &sl101_duplicate_key::DuplicateKey,
        &sl201_invalid_id_uri::InvalidIdUri,
        &sl202_id_has_fragment::IdHasFragment,
        &sl203_urn_not_portable::UrnNotPortable,
        &sl204_duplicate_id::DuplicateId,
        &sl205_invalid_anchor::InvalidAnchor,
        &sl206_id_not_normalized::IdNotNormalized,
        &sl301_invalid_ref_uri::InvalidRefUri,
        &sl302_unresolved_ref::UnresolvedRef,
        &sl303_remote_ref::RemoteRef,
        &sl304_defs_key_needs_escaping::DefsKeyNeedsEscaping,
        &sl401_schema_invalid::SchemaInvalid,
        &sl402_unknown_dialect::UnknownDialect,
        &sl403_dialect_keyword_mismatch::DialectKeywordMismatch,
        &sl404_nested_schema_keyword::NestedSchemaKeyword,
        &sl501_output_root_not_object::OutputRootNotObject,
        &sl502_boolean_property_schema::BooleanPropertySchema,
        &sl503_required_not_declared::RequiredNotDeclared,
        &sl504_result_wrapper::ResultWrapper,
        &sl505_closed_output_object::ClosedOutputObject,
        &sl506_complexity::Complexity,
    ];
    RULES
}

/// Every rule's metadata in code order: the lint rules, and those reported elsewhere (`SL100`
/// by the parser, `SL6xx` by `audit`, `SL901` by the fix loop).
#[must_use]
pub fn all_meta() -> Vec<&'static RuleMeta> {
    std::iter::once(&PARSE_ERROR)
        .chain(all().iter().map(|r| r.meta()))
        .chain([
            &sl60x_audit::MISSING_STRUCTURED_CONTENT,
            &sl60x_audit::NON_OBJECT_STRUCTURED_CONTENT,
            &sl60x_audit::WRAPPER_MISMATCH,
            &sl60x_audit::TEXT_FALLBACK_MISSING,
            &FIX_NOT_VERIFIED,
        ])
        .collect()
}

/// The rule with this code or name (case-insensitive code).
#[must_use]
pub fn find_meta(code_or_name: &str) -> Option<&'static RuleMeta> {
    all_meta()
        .into_iter()
        .find(|m| m.code.eq_ignore_ascii_case(code_or_name) || m.name == code_or_name)
}

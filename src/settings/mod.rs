//! What decides how files are linted: the [`Settings`] of a run, built from `schema-lint.toml`
//! ([`config`]) and the command line or the editor ([`resolve`]); the [`target`] a schema is
//! linted for; which rules run ([`select`]).

pub mod clients;
pub mod config;
pub mod resolve;
pub mod select;
pub mod target;

use crate::schema::dialect::Draft;
use crate::schema::units::{noted_protocol, FileKind};
use crate::syntax::document::Node;
use config::Config;
pub use resolve::Overrides;
use select::Selection;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use target::Target;

/// The default of `--memory-budget`, in MiB.
pub const DEFAULT_MEMORY_BUDGET_MIB: usize = 32;

/// What decides how files are linted.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The dialect of schemas without a known `$schema`.
    pub default_draft: Draft,
    /// How an invalid `$id` is repaired.
    pub fix_id: FixIdMode,
    /// The target of every file; `None`: `mcp-2025-11-25` for `tools/list` documents,
    /// `json-schema` for schema files.
    pub target: Option<Target>,
    /// Which rules run.
    pub selection: Selection,
    /// The `schema-lint.toml` in force: file filters and per-file ignores.
    pub config: Option<Arc<Config>>,
    /// Named files go through the same detection as files found in folders.
    pub only_schemas: bool,
    /// How many bytes of text and trees a run may keep between indexing a file and linting it;
    /// files past it are let go once indexed and read again when linted. `None` keeps every
    /// file (what `--fix` needs).
    pub memory_budget: Option<usize>,
    /// Whether folder walks honour `.gitignore`, `.ignore` and `.git/info/exclude`.
    pub respect_ignore_files: bool,
    /// The project the named files belong to, when the run names files rather than walking the
    /// whole project (pre-commit, one file, standard input): its other schema files are read as
    /// context, so that references resolve as in a full run. `None`: no context.
    pub project_root: Option<PathBuf>,
    /// `--strict` (or `strict = true`): findings that break only stricter engines (Python's
    /// `jsonschema` with its format extras, the Rust crate), or that clients only check less
    /// for, are errors rather than warnings.
    pub strict: bool,
    /// The clients the run is for (`--clients`, `clients = [...]`): rules about other clients
    /// stay silent, and a finding is an error when one of these fails on it.
    pub clients: Vec<crate::diagnostic::breaks::Client>,
    /// The version named for some of them (`--clients claude-code@2.1.260`); the others are at
    /// their newest known version. Claims that do not hold there are no claims.
    pub versions: Vec<(crate::diagnostic::breaks::Client, String)>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            default_draft: Draft::Draft202012,
            fix_id: FixIdMode::Underscore,
            target: None,
            selection: Selection::default(),
            config: None,
            only_schemas: false,
            memory_budget: None,
            respect_ignore_files: true,
            project_root: None,
            strict: false,
            clients: crate::diagnostic::breaks::Client::DEFAULT.to_vec(),
            versions: Vec::new(),
        }
    }
}

impl Settings {
    /// The target a file of `kind` whose tree is `root` is linted for: `--target` (or the
    /// configuration's), else the protocol revision a dumped `tools/list` notes it was listed
    /// with, else `mcp-2025-11-25` for `tools/list` documents and `json-schema` for schemas.
    #[must_use]
    pub fn target_for(&self, kind: FileKind, root: &Node, path: Option<&Path>) -> Target {
        if let Some(target) = self.target {
            return target;
        }
        match kind {
            FileKind::ToolsList => noted_protocol(root)
                .and_then(Target::of_protocol)
                .unwrap_or(Target::Mcp20251125),
            _ if self.is_mcp_file(path) => Target::Mcp20251125,
            _ => Target::JsonSchema,
        }
    }

    /// Whether the configuration's `mcp-files` lists the schema file at `path`.
    #[must_use]
    pub fn is_mcp_file(&self, path: Option<&Path>) -> bool {
        match (&self.config, path) {
            (Some(config), Some(path)) => config.is_mcp_file(path),
            _ => false,
        }
    }

    /// The selectors `per-file-ignores` gives the file at `path`.
    #[must_use]
    pub fn ignored_in(&self, path: Option<&std::path::Path>) -> Vec<&str> {
        match (&self.config, path) {
            (Some(config), Some(path)) => config.ignored_in(path),
            _ => Vec::new(),
        }
    }
}

/// The repair for an invalid `$id` (SL201, SL203).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FixIdMode {
    /// Replace each offending character with `_` and rewrite the `$ref`s that name the id
    Underscore,
    /// Drop the `$id` and reach the subschema through the root's `$defs`
    Defs,
}

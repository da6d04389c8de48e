//! The one way the settings of a run are made: the configuration in force ([`in_force`]), with
//! what the command line (`check`) or the editor (`server`) says over it ([`Overrides`]), by
//! [`Settings::resolve`].

use super::config::{self, Config};
use super::select::Selection;
use super::target::Target;
use super::{FixIdMode, Settings};
use crate::diagnostic::breaks::Client;
use crate::schema::dialect::Draft;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the command line or the editor says over the configuration. A setting left at its
/// default here is the configuration's (or, without one, the built-in default).
#[derive(Clone, Debug)]
pub struct Overrides {
    /// `--target`.
    pub target: Option<Target>,
    /// `--select`: replaces the configuration's `select`.
    pub select: Option<Vec<String>>,
    /// `--extend-select`: added to the configuration's.
    pub extend_select: Vec<String>,
    /// `--ignore`: added to the configuration's.
    pub ignore: Vec<String>,
    /// `--default-dialect`.
    pub default_dialect: Option<Draft>,
    /// `--fix-id` (not in the configuration).
    pub fix_id: FixIdMode,
    /// `--strict`: on when either it or the configuration's `strict` is.
    pub strict: bool,
    /// `--only-schemas` (the command line only).
    pub only_schemas: bool,
    /// `--memory-budget`, in bytes; `None` keeps every file (`--fix`, `--diff`, the editor).
    pub memory_budget: Option<usize>,
    /// `false` with `--no-respect-gitignore`.
    pub respect_ignore_files: bool,
    /// The project whose other files are read as context (a `check` that names files).
    pub project_root: Option<PathBuf>,
    /// `--clients`, parsed ([`super::clients::parse`]): replaces the configuration's `clients`.
    pub clients: Option<super::clients::Selection>,
}

impl Default for Overrides {
    /// Nothing said over the configuration: what the editor's settings are when it says nothing.
    fn default() -> Self {
        Self {
            target: None,
            select: None,
            extend_select: Vec::new(),
            ignore: Vec::new(),
            default_dialect: None,
            fix_id: FixIdMode::Underscore,
            strict: false,
            only_schemas: false,
            memory_budget: None,
            respect_ignore_files: true,
            project_root: None,
            clients: None,
        }
    }
}

impl Settings {
    /// The settings of `config` (the `schema-lint.toml` in force, if any) with `overrides` over
    /// it. Selectors that name no rule are kept: [`Selection::unknown`] lists them.
    #[must_use]
    pub fn resolve(config: Option<Config>, overrides: Overrides) -> Self {
        let cfg = config.as_ref();
        let chosen = overrides
            .clients
            .or_else(|| cfg.and_then(|c| c.clients.clone()));
        let selection = Selection::over_config(
            overrides.select.as_deref(),
            &overrides.extend_select,
            &overrides.ignore,
            cfg,
        );
        Self {
            default_draft: overrides
                .default_dialect
                .or_else(|| cfg.and_then(|c| c.default_dialect))
                .unwrap_or(Draft::Draft202012),
            fix_id: overrides.fix_id,
            target: overrides.target.or_else(|| cfg.and_then(|c| c.target)),
            selection,
            only_schemas: overrides.only_schemas,
            memory_budget: overrides.memory_budget,
            respect_ignore_files: overrides.respect_ignore_files,
            project_root: overrides.project_root,
            strict: overrides.strict || cfg.is_some_and(|c| c.strict),
            clients: chosen
                .as_ref()
                .map_or_else(|| Client::DEFAULT.to_vec(), |c| c.clients.clone()),
            versions: chosen.map(|c| c.versions).unwrap_or_default(),
            config: config.map(Arc::new),
        }
    }
}

/// The configuration in force: none when `isolated`, else the file named (`--config`), else
/// the nearest `schema-lint.toml` at or above `start` (none without a `start`).
///
/// # Errors
/// When the file cannot be read or is not a valid configuration.
pub fn in_force(
    isolated: bool,
    named: Option<&Path>,
    start: Option<&Path>,
) -> Result<Option<Config>, String> {
    if isolated {
        return Ok(None);
    }
    let file = match named {
        Some(file) => Some(file.to_path_buf()),
        None => start.and_then(config::find),
    };
    file.map(|file| config::load(&file)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_win_over_the_configuration_which_wins_over_defaults() {
        let config = || Config {
            target: Some(Target::Mcp20250618),
            default_dialect: Some(Draft::Draft7),
            select: Some(vec!["SL2".into()]),
            ignore: vec!["SL203".into()],
            strict: true,
            ..Config::default()
        };
        let plain = Settings::resolve(Some(config()), Overrides::default());
        assert_eq!(plain.target, Some(Target::Mcp20250618));
        assert_eq!(plain.default_draft, Draft::Draft7);
        assert!(plain.strict && plain.respect_ignore_files && plain.memory_budget.is_none());
        assert_eq!(
            plain.selection.select.as_deref(),
            Some(&["SL2".to_owned()][..])
        );
        let over = Settings::resolve(
            Some(config()),
            Overrides {
                target: Some(Target::JsonSchema),
                select: Some(vec!["SL3".into()]),
                ignore: vec!["SL301".into()],
                default_dialect: Some(Draft::Draft4),
                memory_budget: Some(1),
                ..Overrides::default()
            },
        );
        assert_eq!(over.target, Some(Target::JsonSchema));
        assert_eq!(over.default_draft, Draft::Draft4);
        assert_eq!(
            over.selection.select.as_deref(),
            Some(&["SL3".to_owned()][..])
        );
        assert_eq!(over.selection.ignore, ["SL301", "SL203"]);
        assert!(over.strict, "`strict` in the configuration holds");
        assert_eq!(over.memory_budget, Some(1));
        let none = Settings::resolve(None, Overrides::default());
        assert_eq!(none.default_draft, Draft::Draft202012);
        assert!(none.target.is_none() && !none.strict && none.config.is_none());
    }

    #[test]
    fn no_configuration_is_in_force_when_isolated_or_without_a_start() {
        assert!(in_force(true, Some(Path::new("/nowhere.toml")), None)
            .unwrap()
            .is_none());
        assert!(in_force(false, None, None).unwrap().is_none());
        assert!(in_force(false, Some(Path::new("/nowhere/schema-lint.toml")), None).is_err());
    }
}

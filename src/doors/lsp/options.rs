//! What the editor says about the run (`initializationOptions`, then
//! `workspace/didChangeConfiguration`), and the [`Settings`] of each project: its
//! `schema-lint.toml`, read again whenever the runs are built (a document opened, saved or
//! closed, the file changed on disk), with the editor's options over it as the command line's
//! are over it in `check`.

use crate::schema::dialect::Draft;
use crate::settings::resolve::in_force;
use crate::settings::target::Target;
use crate::settings::{FixIdMode, Overrides, Settings};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The editor's options; every one may be left out. The names are camelCase as editors write
/// them (the kebab-case of `schema-lint.toml` is accepted too).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Options {
    /// `--target`.
    pub target: Option<Target>,
    /// `--select`.
    pub select: Option<Vec<String>>,
    /// `--extend-select`.
    #[serde(alias = "extend-select")]
    pub extend_select: Vec<String>,
    /// `--ignore`.
    pub ignore: Vec<String>,
    /// `--default-dialect`.
    #[serde(alias = "default-dialect")]
    pub default_dialect: Option<String>,
    /// `--fix-id`: `underscore` or `defs`.
    #[serde(alias = "fix-id")]
    pub fix_id: Option<String>,
    /// Offer unsafe fixes as quick fixes too (`source.fixAll` applies safe ones only).
    #[serde(alias = "unsafe-fixes")]
    pub unsafe_fixes: bool,
    /// `true` (default): a document is linted when a folder walk would lint it (it holds a
    /// schema or a `tools/list` document, and `include`/`exclude` take it); `false`: every JSON
    /// document opened is linted, as a file named on the command line is.
    #[serde(alias = "only-schemas")]
    pub only_schemas: Option<bool>,
    /// `--config`.
    pub config: Option<PathBuf>,
    /// `--isolated`.
    pub isolated: bool,
    /// `--strict`.
    pub strict: bool,
    /// `--clients`: client names, `default` for the default set.
    pub clients: Option<Vec<String>>,
}

impl Options {
    /// The options in `value`: the object itself, or its `schema-lint` member (how editors nest
    /// a server's settings); `null` leaves every option at its default.
    pub(crate) fn from_value(value: serde_json::Value) -> Result<Self, String> {
        let value = match value {
            serde_json::Value::Object(mut map) if map.contains_key("schema-lint") => {
                map.remove("schema-lint").unwrap_or_default()
            }
            other => other,
        };
        if value.is_null() {
            return Ok(Self::default());
        }
        serde_json::from_value(value).map_err(|e| format!("schema-lint: ignored the options: {e}"))
    }

    /// Whether a document is linted the way a folder walk would lint it.
    pub(crate) fn walk_like(&self) -> bool {
        self.only_schemas.unwrap_or(true)
    }
}

/// The settings of the project of the document at `path` (`None`: a document with no file,
/// linted on its own), and what is wrong with the options or the configuration, each in one
/// line: the lint goes on without what is wrong.
pub(crate) fn settings_for(options: &Options, path: Option<&Path>) -> ProjectSettings {
    let mut problems = Vec::new();
    let config = in_force(options.isolated, options.config.as_deref(), path)
        .map_err(|e| problems.push(format!("schema-lint: {e}")))
        .ok()
        .flatten();
    // What is wrong with the options themselves, said after what is wrong with the selection.
    let mut invalid = Vec::new();
    let default_dialect = options.default_dialect.as_deref().and_then(|d| {
        d.parse::<Draft>()
            .map_err(|e| invalid.push(format!("schema-lint: defaultDialect: {e}")))
            .ok()
    });
    let fix_id = match options.fix_id.as_deref() {
        None | Some("underscore") => FixIdMode::Underscore,
        Some("defs") => FixIdMode::Defs,
        Some(other) => {
            invalid.push(format!(
                "schema-lint: fixId: `{other}` is neither `underscore` nor `defs`"
            ));
            FixIdMode::Underscore
        }
    };
    let clients = match options
        .clients
        .as_deref()
        .map(crate::settings::clients::parse)
    {
        Some(Ok(clients)) => Some(clients),
        Some(Err(e)) => {
            problems.push(format!("schema-lint: clients: {e}"));
            None
        }
        None => None,
    };
    let overrides = Overrides {
        target: options.target,
        select: options.select.clone(),
        extend_select: options.extend_select.clone(),
        ignore: options.ignore.clone(),
        default_dialect,
        fix_id,
        strict: options.strict,
        clients,
        ..Overrides::default()
    };
    let settings = Settings::resolve(config, overrides);
    let unknown = settings.selection.unknown();
    if !unknown.is_empty() {
        problems.push(format!(
            "schema-lint: no rule matches `{}`",
            unknown.join("`, `")
        ));
    }
    problems.extend(invalid);
    ProjectSettings { settings, problems }
}

/// The settings of a project, and what is wrong with the options or its configuration.
pub(crate) struct ProjectSettings {
    /// The settings.
    pub settings: Settings,
    /// What is wrong, one line each; the lint goes on without it.
    pub problems: Vec<String>,
}

/// The project a document at `path` belongs to, whose other files are its context: the folder
/// of the `schema-lint.toml` in force, else the version-control checkout holding it, else the
/// workspace folder holding it, else its own folder. A workspace folder too wide to be a
/// project (`/`, a home folder) is passed over: walking it for every keystroke would read the
/// whole disk. (The context walk is bounded whatever the folder.)
pub(crate) fn project_root(path: &Path, settings: &Settings, workspace: &[PathBuf]) -> PathBuf {
    let config_dir = settings.config.as_ref().and_then(|c| c.dir.as_deref());
    let found = crate::workspace::discover::project_root(path, config_dir);
    let marked = config_dir.is_some()
        || [".git", ".hg", ".jj", ".svn"]
            .iter()
            .any(|m| found.join(m).exists());
    if marked {
        return found;
    }
    workspace
        .iter()
        .filter(|w| path.starts_with(w) && !crate::workspace::discover::too_wide(w))
        .max_by_key(|w| w.components().count())
        .cloned()
        .or_else(|| path.parent().map(Path::to_path_buf))
        .unwrap_or(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_are_read_flat_or_nested() {
        let flat =
            Options::from_value(json!({"target": "mcp-2025-06-18", "ignore": ["SL203"]})).unwrap();
        assert_eq!(flat.target, Some(Target::Mcp20250618));
        assert_eq!(flat.ignore, ["SL203"]);
        let nested = Options::from_value(
            json!({"schema-lint": {"defaultDialect": "draft7", "select": ["SL2"]}}),
        )
        .unwrap();
        assert_eq!(nested.default_dialect.as_deref(), Some("draft7"));
        assert!(Options::from_value(json!(null)).unwrap().walk_like());
        assert!(Options::from_value(json!({"target": "nope"})).is_err());
    }

    #[test]
    fn options_win_over_defaults_and_problems_are_reported() {
        let options = Options {
            default_dialect: Some("draft7".into()),
            select: Some(vec!["SL2".into(), "nope".into()]),
            isolated: true,
            ..Options::default()
        };
        let ProjectSettings { settings, problems } = settings_for(&options, None);
        assert_eq!(settings.default_draft, Draft::Draft7);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("nope"));
    }

    #[test]
    fn the_clients_setting_selects_as_the_command_line_does() {
        use crate::diagnostic::breaks::Client;
        let options =
            Options::from_value(json!({"clients": ["default", "openai-strict"]})).unwrap();
        let ProjectSettings { settings, problems } = settings_for(&options, None);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(settings.clients.contains(&Client::OpenaiStrict));
        assert!(settings.clients.contains(&Client::ClaudeCode));
        let wrong = Options::from_value(json!({"clients": ["open-ai"]})).unwrap();
        let ProjectSettings { settings, problems } = settings_for(&wrong, None);
        assert_eq!(settings.clients, Client::DEFAULT.to_vec());
        assert!(
            problems[0].contains("unknown client `open-ai`"),
            "{problems:?}"
        );
        // Without the setting, the run is for the default set.
        let settings = settings_for(&Options::default(), None).settings;
        assert_eq!(settings.clients, Client::DEFAULT.to_vec());
    }
}

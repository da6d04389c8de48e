//! `schema-lint.toml`: found by walking up from the first linted path (or named with
//! `--config`). Command-line options win over it.

use crate::schema::dialect::Draft;
use crate::settings::target::Target;
use globset::{Glob, GlobMatcher};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The name of the configuration file.
pub const FILE_NAME: &str = "schema-lint.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    include: Option<Vec<Spanned<String>>>,
    exclude: Option<Vec<Spanned<String>>>,
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    target: Option<Target>,
    default_dialect: Option<String>,
    per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<String>>>,
    mcp_files: Option<Vec<Spanned<String>>>,
    strict: Option<bool>,
    clients: Option<Spanned<Vec<String>>>,
    rules: Option<RulesRaw>,
}

/// `[rules.<CODE>]` tables: the options of rules that take some.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesRaw {
    #[serde(rename = "SL506")]
    sl506: Option<ComplexityBounds>,
}

/// `[rules.SL506]`: the bounds of the complexity rule; unset ones keep the rule's defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ComplexityBounds {
    /// `max-depth`: most subschema steps allowed from an output schema's root to its deepest
    /// subschema.
    pub max_depth: Option<usize>,
    /// `max-subschemas`: most subschemas allowed in one output schema, its root included.
    pub max_subschemas: Option<usize>,
    /// `max-defs`: most `$defs` and `definitions` entries allowed in one output schema, at any
    /// depth.
    pub max_defs: Option<usize>,
}

/// A loaded configuration; globs are relative to `dir`.
#[derive(Debug, Default)]
pub struct Config {
    /// The file it was loaded from; `None` for the empty default.
    pub path: Option<PathBuf>,
    /// The folder of that file, which `include`, `exclude` and `per-file-ignores` globs are
    /// relative to.
    pub dir: Option<PathBuf>,
    /// `include`: a file found by a folder walk is linted only if it matches one (empty: all).
    pub include: Vec<GlobMatcher>,
    /// `exclude`: files found by a folder walk that match one are skipped.
    pub exclude: Vec<GlobMatcher>,
    /// `select`: the selectors replacing the default rule set, when given.
    pub select: Option<Vec<String>>,
    /// `extend-select`: selectors of rules to run on top of the selected ones.
    pub extend_select: Vec<String>,
    /// `ignore`: selectors of rules not to run.
    pub ignore: Vec<String>,
    /// `target`: the target of every file, when given.
    pub target: Option<Target>,
    /// `default-dialect`: the dialect of schemas without a known `$schema`, when given.
    pub default_dialect: Option<Draft>,
    /// `[per-file-ignores]`: for files matching each glob, the selectors of rules not reported.
    pub per_file_ignores: Vec<(GlobMatcher, Vec<String>)>,
    /// Schema files linted as MCP tool schemas (`mcp-files`): `mcp-2025-11-25` instead of
    /// `json-schema`, unless a target is set.
    pub mcp_files: Vec<GlobMatcher>,
    /// `[rules.SL506]`.
    pub complexity: ComplexityBounds,
    /// `strict`: findings that break only stricter engines are errors (as `--strict`).
    pub strict: bool,
    /// `clients`: the clients runs are for (as `--clients`, versions included), `None` for the
    /// default set.
    pub clients: Option<super::clients::Selection>,
}

/// The nearest `schema-lint.toml` in `start`'s folder or above, relative to the working
/// directory when it lies below it (so messages show a short, stable path).
#[must_use]
pub fn find(start: &Path) -> Option<PathBuf> {
    let start = std::path::absolute(start).ok()?;
    let mut dir = if start.is_dir() {
        Some(start.as_path())
    } else {
        start.parent()
    };
    while let Some(d) = dir {
        let candidate = d.join(FILE_NAME);
        if candidate.is_file() {
            let cwd = std::env::current_dir().ok();
            let short = cwd.and_then(|c| candidate.strip_prefix(c).ok().map(Path::to_path_buf));
            return Some(short.unwrap_or(candidate));
        }
        dir = d.parent();
    }
    None
}

fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The longest glob taken, in characters. `globset` panics on a glob whose matcher outgrows its
/// size limit (some 200,000 characters); every glob up to this bound compiles.
const MAX_GLOB_CHARS: usize = 4096;

/// The glob at `pattern` (its text and where it is in the file `text` read from `path`), or a
/// `path:line:column:` error that shows at most the start of a long one.
fn glob(pattern: &Spanned<String>, text: &str, path: &Path) -> Result<GlobMatcher, String> {
    let (line, column) = position(text, pattern.span().start);
    let value = pattern.get_ref();
    let chars = value.chars().count();
    let shown: String = value.chars().take(60).collect();
    let shown = if chars > 60 {
        format!("`{shown}…` ({chars} characters)")
    } else {
        format!("`{shown}`")
    };
    let invalid = |why: String| {
        format!(
            "{}:{line}:{column}: invalid glob {shown}: {why}",
            path.display()
        )
    };
    if chars > MAX_GLOB_CHARS {
        return Err(invalid(format!("longer than {MAX_GLOB_CHARS} characters")));
    }
    Glob::new(value)
        .map(|g| g.compile_matcher())
        .map_err(|e| invalid(e.kind().to_string()))
}

/// The most bytes read of a configuration file (`--config /dev/zero` stops there).
const MAX_CONFIG: u64 = 1 << 20;

/// Loads the configuration at `path`.
///
/// # Errors
/// `path:line:column: what is wrong`, for a file that cannot be read or is not a valid
/// configuration.
pub fn load(path: &Path) -> Result<Config, String> {
    let bytes = crate::syntax::read::read_file_bounded(path, MAX_CONFIG, false)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: cannot read: it is not valid UTF-8", path.display()))?;
    let raw: Raw = toml::from_str(&text).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| position(&text, s.start));
        format!("{}:{line}:{column}: {}", path.display(), e.message())
    })?;
    let globs = |list: Option<Vec<Spanned<String>>>| -> Result<Vec<GlobMatcher>, String> {
        list.unwrap_or_default()
            .iter()
            .map(|p| glob(p, &text, path))
            .collect()
    };
    let default_dialect = match raw.default_dialect {
        Some(d) => Some(
            d.parse::<Draft>()
                .map_err(|e| format!("{}: default-dialect: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut per_file_ignores = Vec::new();
    for (pattern, codes) in raw.per_file_ignores.unwrap_or_default() {
        per_file_ignores.push((glob(&pattern, &text, path)?, codes));
    }
    Ok(Config {
        path: Some(path.to_path_buf()),
        // Absolute, so that patterns match whatever the working folder (a config found in the
        // working folder itself has an empty parent).
        dir: std::path::absolute(path)
            .ok()
            .and_then(|p| lexical(&p).parent().map(Path::to_path_buf)),
        include: globs(raw.include)?,
        exclude: globs(raw.exclude)?,
        select: raw.select,
        extend_select: raw.extend_select.unwrap_or_default(),
        ignore: raw.ignore.unwrap_or_default(),
        target: raw.target,
        default_dialect,
        per_file_ignores,
        mcp_files: globs(raw.mcp_files)?,
        complexity: raw.rules.and_then(|r| r.sl506).unwrap_or_default(),
        strict: raw.strict.unwrap_or(false),
        clients: raw
            .clients
            .map(|names| {
                super::clients::parse(names.get_ref()).map_err(|e| {
                    let (line, column) = position(&text, names.span().start);
                    format!("{}:{line}:{column}: clients: {e}", path.display())
                })
            })
            .transpose()?,
    })
}

impl Config {
    /// `path` relative to the configuration's folder, for matching globs.
    fn relative(&self, path: &Path) -> PathBuf {
        let absolute = lexical(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
        self.dir
            .as_ref()
            .and_then(|d| {
                absolute
                    .strip_prefix(std::path::absolute(d).unwrap_or_else(|_| d.clone()))
                    .ok()
            })
            .map_or_else(|| path.to_path_buf(), Path::to_path_buf)
    }

    /// Whether a file found by walking a folder is linted: it matches `include` (when given)
    /// and no `exclude`, by its path relative to the configuration's folder.
    #[must_use]
    pub fn accepts(&self, path: &Path) -> bool {
        let relative = self.relative(path);
        (self.include.is_empty() || self.include.iter().any(|g| g.is_match(&relative)))
            && !self.exclude.iter().any(|g| g.is_match(&relative))
    }

    /// The folder names the `include` patterns hold (`venv/schemas/*.json` holds `venv`,
    /// `**/node_modules/@acme/schemas/*.json` holds `node_modules`): a walk goes into such a
    /// folder although it passes over it by default.
    #[must_use]
    pub fn included_folders(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .include
            .iter()
            .flat_map(|g| {
                g.glob()
                    .glob()
                    .split('/')
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Whether `mcp-files` lists the file at `path`.
    #[must_use]
    pub fn is_mcp_file(&self, path: &Path) -> bool {
        let relative = self.relative(path);
        self.mcp_files.iter().any(|g| g.is_match(&relative))
    }

    /// The selectors `per-file-ignores` gives the file at `path`.
    #[must_use]
    pub fn ignored_in(&self, path: &Path) -> Vec<&str> {
        let relative = self.relative(path);
        self.per_file_ignores
            .iter()
            .filter(|(glob, _)| glob.is_match(&relative))
            .flat_map(|(_, codes)| codes.iter().map(String::as_str))
            .collect()
    }
}

/// `path` with its `.` and `..` components resolved by name (`a/b/../c` -> `a/c`), as
/// `std::path::absolute` leaves them.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("schema-lint-config-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn loads_every_key() {
        let path = write(
            "ok",
            "select = [\"SL2\"]\nclients = [\"default\", \"gemini\"]\nignore = [\"SL203\"]\ntarget = \"mcp-2026-07-28\"\ndefault-dialect = \"draft7\"\n\
             exclude = [\"vendor/**\"]\n[per-file-ignores]\n\"legacy/*.json\" = [\"invalid-id-uri\"]\n\
             [rules.SL506]\nmax-depth = 8\n",
        );
        let c = load(&path).unwrap();
        let clients = c.clients.clone().unwrap().clients;
        assert!(clients.contains(&crate::diagnostic::breaks::Client::Gemini));
        assert!(clients.contains(&crate::diagnostic::breaks::Client::TsSdkV1));
        assert_eq!(c.target, Some(Target::Mcp20260728));
        assert_eq!(c.default_dialect, Some(Draft::Draft7));
        assert!(!c.accepts(&path.parent().unwrap().join("vendor/x/a.json")));
        assert!(c.accepts(&path.parent().unwrap().join("schemas/a.json")));
        assert_eq!(c.per_file_ignores.len(), 1);
        assert_eq!(c.complexity.max_depth, Some(8));
        assert_eq!(c.complexity.max_defs, None);
        let found = find(&path.parent().unwrap().join("schemas/deep")).unwrap();
        assert_eq!(std::path::absolute(found).unwrap(), path);
    }

    #[test]
    fn errors_name_the_position() {
        let e = load(&write("bad", "select = [\"SL2\"]\nselct = 1\n")).unwrap_err();
        assert!(e.contains(":2:1:") && e.contains("selct"), "{e}");
        let e = load(&write("bad2", "target = \"mcp-1999\"\n")).unwrap_err();
        assert!(e.contains(":1:10:"), "{e}");
        let e = load(&write("bad3", "[rules.SL506]\nmax-dept = 3\n")).unwrap_err();
        assert!(e.contains(":2:1:") && e.contains("max-dept"), "{e}");
    }

    #[test]
    fn a_glob_too_long_or_invalid_is_an_error_at_its_position() {
        let long = "?".repeat(300_000);
        let e = load(&write(
            "long",
            &format!("select = []\nexclude = [\"a\", \"{long}\"]\n"),
        ))
        .unwrap_err();
        assert!(e.ends_with(":2:17: invalid glob `????????????????????????????????????????????????????????????…` (300000 characters): longer than 4096 characters"), "{e}");
        let e = load(&write("pfi", "[per-file-ignores]\n\"{a\" = [\"SL201\"]\n")).unwrap_err();
        assert!(e.ends_with(":2:1: invalid glob `{a`: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"), "{e}");
        let e = load(&write("mcp", "mcp-files = [\"a/[b\"]\n")).unwrap_err();
        assert!(e.contains(":1:14: invalid glob `a/[b`"), "{e}");
    }

    /// Every glob up to the bound compiles: the tokens whose matchers are largest, repeated to
    /// the bound, do not reach `globset`'s size limit (which panics).
    #[test]
    fn every_glob_up_to_the_bound_compiles() {
        for token in ["?", "*", "**/", "[!é]", "[a-zé-ü]", "{a,b}"] {
            let n = MAX_GLOB_CHARS / token.chars().count();
            let pattern = Spanned::new(0..0, token.repeat(n));
            assert!(glob(&pattern, "", Path::new("x")).is_ok(), "{token}");
        }
    }
}

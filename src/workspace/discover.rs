//! Discovery: the files named on the command line, and the `*.json` files under the folders named
//! there, sorted, without following symlinked folders (so no loops), skipping hidden folders
//! (`.git`, `.venv` ...) and what holds other people's files or build output
//! ([`is_vendored_dir`]: virtualenvs, `site-packages`, `node_modules`, `target`, and the
//! build-output folders ruff skips by default), unless the folder is the one named or the
//! configuration's `include` names it ([`Accept::folders`]). A walk takes regular files only: a `*.json`
//! symlink is taken when it leads to a regular file under the walked folder, or nowhere
//! (dangling, or a loop: reading it reports the reason), never when it leads out of the folder or
//! to a device; a file reached twice is taken once, by its own path rather than a symlink's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A file to read. `explicit` files are always linted; the others only when they hold a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Where the file is (`-` for standard input).
    pub path: PathBuf,
    /// Named on the command line rather than found by walking a folder.
    pub explicit: bool,
}

/// A path that could not be walked, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkError {
    /// The folder or entry that could not be walked.
    pub path: PathBuf,
    /// Why, as the walk reported it.
    pub message: String,
}

/// Folders a walk passes over unless asked for: packages installed for another tool
/// (`node_modules`, `site-packages`, `__pypackages__`, a virtualenv named `venv`) and build
/// output (`target`, and ruff's default `exclude` besides its hidden folders: `_build`,
/// `buck-out`, `build`, `dist`). Their schemas are other projects' or copies of the project's
/// own: linting them reports what the user cannot fix, twice.
const VENDORED_DIRS: [&str; 9] = [
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "target",
    "venv",
];

/// Whether a walk passes over a folder whatever it is asked: hidden folders (`.git`, `.venv`,
/// `.tox` ...).
fn is_hidden_dir(name: &str) -> bool {
    name.starts_with('.') && name != "." && name != ".."
}

/// Whether a walk passes over the folder `path` unless it is asked for: one of
/// [`VENDORED_DIRS`] by name, or a virtualenv under any name (a folder holding `pyvenv.cfg`,
/// which `python -m venv`, virtualenv and uv all write).
#[must_use]
pub fn is_vendored_dir(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| VENDORED_DIRS.contains(&n.to_string_lossy().as_ref()))
        || path.join("pyvenv.cfg").is_file()
}

/// What a folder walk takes.
pub trait Accept {
    /// Whether the walk takes a `*.json` file it found (named files are always taken).
    fn file(&self, path: &Path) -> bool;

    /// The names of the folders the walk goes into although it passes over such folders by
    /// default ([`is_vendored_dir`]).
    fn folders(&self) -> Vec<String> {
        Vec::new()
    }
}

impl<F: Fn(&Path) -> bool> Accept for F {
    fn file(&self, path: &Path) -> bool {
        self(path)
    }
}

/// The walk a configuration asks for: its `include` and `exclude` filter the files, and a folder
/// passed over by default is walked when an `include` pattern names it
/// ([`crate::settings::config::Config::included_folders`]).
pub struct Configured<'a>(pub Option<&'a crate::settings::config::Config>);

impl Accept for Configured<'_> {
    fn file(&self, path: &Path) -> bool {
        self.0.is_none_or(|c| c.accepts(path))
    }

    fn folders(&self) -> Vec<String> {
        self.0
            .map(crate::settings::config::Config::included_folders)
            .unwrap_or_default()
    }
}

/// Whether a file's name marks it as a schema or a tool's schema, so that a parse failure found
/// by a walk is reported: a folder on its path whose name has the word `schema`, `tool` or
/// `output` (`schemas/`, `tools/`, `output_schemas/`), or a file name that has one of them beside
/// another word (`tool.schema.json`, `get_weather.output.json`; not `schemas.json`, a list more
/// often than a schema).
#[must_use]
pub fn named_as_schema(path: &Path) -> bool {
    const WORDS: [&str; 6] = ["schema", "schemas", "tool", "tools", "output", "outputs"];
    let words = |name: &str| -> Vec<String> {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let in_folder = path.parent().is_some_and(|dir| {
        dir.components().any(|c| {
            words(&c.as_os_str().to_string_lossy())
                .iter()
                .any(|w| WORDS.contains(&w.as_str()))
        })
    });
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem_words = words(&stem);
    in_folder || (stem_words.len() > 1 && stem_words.iter().any(|w| WORDS.contains(&w.as_str())))
}

/// Whether a file that does not parse meant to be a schema or a `tools/list` document, so that
/// a walk reports it instead of passing over it: its name says so ([`named_as_schema`]) or its
/// text holds `"$id"`, `"outputSchema"`, `"inputSchema"`, or a `"$schema"` naming a
/// json-schema.org meta-schema. Configuration files that editors let hold comments
/// (`tsconfig.json`, `.eslintrc.json`, VS Code's `settings.json` ...) name the schema they follow
/// in `$schema` too, and are left alone.
#[must_use]
pub fn meant_as_schema(path: &Path, bytes: &[u8]) -> bool {
    const COMMENTED_CONFIGS: [&str; 9] = [
        "tsconfig",
        "jsconfig",
        ".eslintrc",
        "devcontainer",
        "settings.json",
        "launch.json",
        "tasks.json",
        "extensions.json",
        "biome.json",
    ];
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if COMMENTED_CONFIGS.iter().any(|c| name.starts_with(c)) {
        return false;
    }
    let holds = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    named_as_schema(path)
        || holds(b"\"$id\"")
        || holds(b"\"outputSchema\"")
        || holds(b"\"inputSchema\"")
        || (holds(b"\"$schema\"") && holds(b"json-schema.org/"))
}

/// `*.json`, and `*.jsonc` (JSON with comments, read as such: [`crate::syntax::document::parse_jsonc`]).
fn is_json(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("jsonc"))
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// What identifies a file whatever the path that reaches it.
#[derive(PartialEq, Eq, Hash)]
enum FileKey {
    /// Device and inode: one `stat`, where resolving the real path takes a call per component.
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

fn file_key(path: &Path) -> FileKey {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(m) = std::fs::metadata(path) {
            return FileKey::Inode(m.dev(), m.ino());
        }
    }
    FileKey::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// What a discovery found: the files to lint, and the folders that could not be walked.
#[derive(Debug, Default)]
pub struct Discovered {
    /// The files to lint, in order, each once.
    pub files: Vec<Candidate>,
    /// The folders (or files) that could not be walked.
    pub errors: Vec<WalkError>,
}

/// The other files of a project a bounded walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// The files, in walk order.
    pub paths: Vec<PathBuf>,
    /// Whether the walk stopped at its bound before the end of the project.
    pub stopped: bool,
}

/// Expands `paths` into the files to lint, in order, each once. `-` is passed through for stdin.
/// `accept` filters the files found in folders (files named explicitly are always linted).
/// Folder walks honour `.gitignore`, `.ignore` and `.git/info/exclude`.
#[must_use]
pub fn discover(paths: &[PathBuf], accept: &dyn Fn(&Path) -> bool) -> Discovered {
    discover_with(paths, &accept, true)
}

/// [`discover`], with `respect_ignore_files` deciding whether folder walks honour `.gitignore`,
/// `.ignore` and `.git/info/exclude` (`--no-respect-gitignore` turns it off).
#[must_use]
pub fn discover_with(
    paths: &[PathBuf],
    accept: &dyn Accept,
    respect_ignore_files: bool,
) -> Discovered {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    // The file itself -> index in `out`: a file reached twice is linted once, under its own
    // path rather than a symlink's (`--fix` never writes through a symlink).
    let mut seen: HashMap<FileKey, usize> = HashMap::new();
    let mut push = |out: &mut Vec<Candidate>, path: PathBuf, explicit: bool| {
        let key = file_key(&path);
        if let Some(&i) = seen.get(&key) {
            let kept: &mut Candidate = &mut out[i];
            if is_symlink(&kept.path) && !is_symlink(&path) {
                kept.path = path;
            }
            kept.explicit |= explicit;
        } else {
            seen.insert(key, out.len());
            out.push(Candidate { path, explicit });
        }
    };
    for root in paths {
        if root.as_os_str() == "-" {
            out.push(Candidate {
                path: root.clone(),
                explicit: true,
            });
            continue;
        }
        if !root.is_dir() {
            // A missing or unreadable file is reported when it is read.
            push(&mut out, real_named_path(root), true);
            continue;
        }
        walk_folder(
            root,
            accept,
            respect_ignore_files,
            &mut errors,
            usize::MAX,
            &mut |path, _| {
                push(&mut out, path, false);
                true
            },
        );
    }
    Discovered { files: out, errors }
}

/// The `*.json` files under `root` that `accept` takes, in sorted order, without following
/// symlinked folders, skipping hidden folders, the vendored ones ([`is_vendored_dir`]) unless
/// `accept` asks for them or `root` is one itself (then the user asked for what it holds),
/// and, when `respect_ignore_files`, what `.gitignore`, `.ignore` and `.git/info/exclude`
/// ignore. The walk stops when `found` returns `false` or after `max_entries` entries (files
/// and folders); it returns whether it stopped early.
fn walk_folder(
    root: &Path,
    accept: &dyn Accept,
    respect_ignore_files: bool,
    errors: &mut Vec<WalkError>,
    max_entries: usize,
    found: &mut dyn FnMut(PathBuf, Option<u64>) -> bool,
) -> bool {
    let inside_vendored = is_vendored_dir(root);
    let included = accept.folders();
    let walker = ignore::WalkBuilder::new(root)
        .follow_links(false)
        .hidden(false)
        .parents(true)
        .ignore(respect_ignore_files)
        .git_ignore(respect_ignore_files)
        .git_global(false)
        .git_exclude(respect_ignore_files)
        .require_git(false)
        .sort_by_file_name(std::cmp::Ord::cmp)
        .filter_entry(move |e| {
            if e.depth() == 0 || !e.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let asked = inside_vendored || included.iter().any(|n| e.file_name() == n.as_str());
            !is_hidden_dir(&e.file_name().to_string_lossy())
                && (asked || !is_vendored_dir(e.path()))
        })
        .build();
    // Where a symlink may lead: a file under the walked folder itself.
    let real_root = std::fs::canonicalize(root).ok();
    for (n, entry) in walker.enumerate() {
        if n >= max_entries {
            return true;
        }
        match entry {
            Ok(entry) => {
                let path = entry.path();
                let Some(kind) = entry.file_type() else {
                    continue;
                };
                let is_file = kind.is_file()
                    || (kind.is_symlink()
                        && is_json(path)
                        && link_stays_in(path, real_root.as_deref()));
                if is_file
                    && is_json(path)
                    && accept.file(path)
                    && !found(path.to_path_buf(), inode(&entry))
                {
                    return true;
                }
            }
            Err(e) => errors.push(WalkError {
                path: walk_error_path(&e).unwrap_or_else(|| root.to_path_buf()),
                message: walk_error_message(&e),
            }),
        }
    }
    false
}

/// Whether the walk takes the symlink at `path`: it leads to a regular file under `real_root`
/// (the walked folder's real path), or nowhere (dangling, or a loop: taken like a file, so that
/// reading it reports why). A link to a folder is not followed, nor one to a device or a pipe
/// (`/dev/zero` would be read without end), nor one that leaves the walked folder (to a secret
/// in the home folder, whose first line the report would show).
fn link_stays_in(path: &Path, real_root: Option<&Path>) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return true;
    };
    real_root.is_some_and(|r| real.starts_with(r))
        && std::fs::metadata(&real).is_ok_and(|m| m.is_file())
}

/// The path a walk error is about.
fn walk_error_path(error: &ignore::Error) -> Option<PathBuf> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        _ => None,
    }
}

/// A walk error's reason, without the path it names (reports show the path already).
fn walk_error_message(error: &ignore::Error) -> String {
    match error {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => walk_error_message(err),
        ignore::Error::Io(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// The project a run belongs to: `config_dir` (the folder of the `schema-lint.toml` in force),
/// else the root of the version-control checkout holding `start` (the nearest folder with a
/// `.git`, `.hg`, `.jj` or `.svn`), else `start`'s own folder (`start` when it is a folder). A
/// folder too wide to be anyone's project ([`too_wide`]: `/`, a home folder) is never taken for
/// a configuration or a marker found there: `start`'s own folder is, and the caller decides
/// what to do when that one is too wide as well.
#[must_use]
pub fn project_root(start: &Path, config_dir: Option<&Path>) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let start = std::path::absolute(start).unwrap_or_else(|_| cwd.clone());
    let own = if start.is_dir() {
        start.clone()
    } else {
        start.parent().map_or(cwd, Path::to_path_buf)
    };
    let found = config_dir.map(Path::to_path_buf).or_else(|| {
        own.ancestors()
            .find(|d| {
                [".git", ".hg", ".jj", ".svn"]
                    .iter()
                    .any(|m| d.join(m).exists())
            })
            .map(Path::to_path_buf)
    });
    match found {
        Some(dir) if !too_wide(&dir) => dir,
        _ => own,
    }
}

/// The real folder of `path` when `path` reaches it through a symlinked folder that leads out
/// of the project `path` names ([`project_root`] of `path` as written): `linked/a.json` with
/// `linked -> ../outside`. `None` when the real folder is inside that project, or when either
/// cannot be resolved (the file is then not there to write).
#[must_use]
pub fn leaves_its_project(path: &Path, config_dir: Option<&Path>) -> Option<PathBuf> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let real = std::fs::canonicalize(folder).ok()?;
    let project = std::fs::canonicalize(project_root(path, config_dir)).ok()?;
    (!real.starts_with(&project)).then_some(real)
}

/// A named file's path with its folder's symlinks resolved, when they lead to another folder of
/// the same project (`linked/a.json` with `linked -> real` becomes `real/a.json`), so that its
/// base URI, its project and the files a fix reaches are those of its real folder. A path
/// without symlinked folders, or one whose symlinked folder leads out of the project (which
/// `--fix` refuses to write: [`leaves_its_project`]), is kept as written.
fn real_named_path(path: &Path) -> PathBuf {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return path.to_path_buf();
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let Ok(real) = std::fs::canonicalize(folder) else {
        return path.to_path_buf();
    };
    if lexical(folder) == real || leaves_its_project(path, None).is_some() {
        return path.to_path_buf();
    }
    let file = real.join(name);
    match std::env::current_dir() {
        Ok(cwd) => file
            .strip_prefix(&cwd)
            .map_or_else(|_| file.clone(), Path::to_path_buf),
        Err(_) => file,
    }
}

/// `path` made absolute, with `.` and `..` resolved by its text alone.
fn lexical(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Whether `dir` is too wide to be a project: the root of the file system, or a home folder
/// (`$HOME`, `/root`, a folder of `/home`), by its path or by its real path. Walking one for the
/// context of a partial run would read the whole disk or every project of a user.
#[must_use]
pub fn too_wide(dir: &Path) -> bool {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let wide = |d: &Path| {
        d.parent().is_none()
            || d == Path::new("/root")
            || d.parent() == Some(Path::new("/home"))
            || home
                .as_deref()
                .is_some_and(|h| d == h || std::fs::canonicalize(h).is_ok_and(|h| d == h))
    };
    let lexical = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    wide(&lexical) || std::fs::canonicalize(dir).is_ok_and(|real| wide(&real))
}

/// How far the context walk of a partial run goes: at most this many `*.json` files ...
pub const MAX_CONTEXT_FILES: usize = 20_000;

/// ... and this many entries (files and folders) walked.
pub const MAX_CONTEXT_ENTRIES: usize = 200_000;

/// The files of the project under `root` (as a folder walk of it finds them) that are not among
/// `named`: what a partial run (pre-commit, one file, standard input) reads as context. At most
/// [`MAX_CONTEXT_FILES`] files, found in at most [`MAX_CONTEXT_ENTRIES`] entries
/// ([`other_files_bounded`] says whether the bound was hit).
#[must_use]
pub fn other_files(
    root: &Path,
    accept: &dyn Accept,
    respect_ignore_files: bool,
    named: &[Candidate],
) -> Vec<PathBuf> {
    other_files_bounded(root, accept, respect_ignore_files, named).paths
}

/// [`other_files`], and whether the walk stopped at its bound before the end of the project.
#[must_use]
pub fn other_files_bounded(
    root: &Path,
    accept: &dyn Accept,
    respect_ignore_files: bool,
    named: &[Candidate],
) -> Walked {
    let named: std::collections::HashSet<FileKey> = named
        .iter()
        .filter(|c| c.path.as_os_str() != "-")
        .map(|c| file_key(&c.path))
        .collect();
    // The walk knows each file's inode without a `stat`: only a file whose inode is a named
    // file's needs the full comparison (device and inode).
    let named_inodes: std::collections::HashSet<u64> = named
        .iter()
        .filter_map(|k| match k {
            #[cfg(unix)]
            FileKey::Inode(_, ino) => Some(*ino),
            FileKey::Path(_) => None,
        })
        .collect();
    let by_path = named.iter().any(|k| matches!(k, FileKey::Path(_)));
    let mut out = Vec::new();
    let stopped = walk_folder(
        root,
        accept,
        respect_ignore_files,
        &mut Vec::new(),
        MAX_CONTEXT_ENTRIES,
        &mut |path, ino| {
            let maybe_named = by_path || ino.is_none_or(|i| named_inodes.contains(&i));
            if !maybe_named || !named.contains(&file_key(&path)) {
                if out.len() == MAX_CONTEXT_FILES {
                    return false;
                }
                out.push(path);
            }
            true
        },
    );
    Walked {
        paths: out,
        stopped,
    }
}

/// The inode of a walked entry, when the platform gives it without a `stat`.
fn inode(entry: &ignore::DirEntry) -> Option<u64> {
    #[cfg(unix)]
    {
        entry.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = entry;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names() {
        assert!(named_as_schema(Path::new("a/tool.schema.json")));
        assert!(named_as_schema(Path::new("schemas/tool.json")));
        assert!(named_as_schema(Path::new("x/Schema/deep/tool.json")));
        assert!(!named_as_schema(Path::new("tsconfig.json")));
        assert!(!named_as_schema(Path::new("schemas.json")));
        assert!(named_as_schema(Path::new(
            "outputs/get_weather.output.json"
        )));
        assert!(named_as_schema(Path::new("get_weather.output.json")));
        assert!(named_as_schema(Path::new("output_schemas/a.json")));
        assert!(!named_as_schema(Path::new("src/config.json")));
        assert!(!named_as_schema(Path::new("toolbox/settings.json")));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_loops_and_duplicates() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("schema-lint-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("real.json"), "{}").unwrap();
        // Sorts before `real.json`: the real path is still the one kept.
        symlink(dir.join("real.json"), dir.join("a-link.json")).unwrap();
        symlink("loop.json", dir.join("loop.json")).unwrap();
        symlink("nowhere.json", dir.join("dangling.json")).unwrap();
        // A folder loop is not followed.
        symlink("..", dir.join("sub/up")).unwrap();
        let Discovered {
            files: found,
            errors,
        } = discover(std::slice::from_ref(&dir), &|_| true);
        let names: Vec<String> = found
            .iter()
            .map(|c| c.path.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["real.json", "dangling.json", "loop.json"]);
        assert!(errors.is_empty(), "{errors:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn skips_hidden_and_vendored_folders() {
        assert!(is_hidden_dir(".git"));
        assert!(is_hidden_dir(".venv"));
        assert!(!is_hidden_dir("."));
        for name in [
            "node_modules",
            "site-packages",
            "__pypackages__",
            "dist",
            "build",
            "venv",
        ] {
            assert!(is_vendored_dir(Path::new(name)), "{name}");
        }
        assert!(!is_vendored_dir(Path::new("src")));
        assert!(!is_vendored_dir(Path::new("schemas")));
    }
}

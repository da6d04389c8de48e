//! Discovery: the files named on the command line, and the `*.json` files under the folders named
//! there, sorted, without following symlinked folders (so no loops), skipping `.git`,
//! `node_modules`, `target` and hidden folders. A `*.json` symlink that leads nowhere (dangling,
//! or a loop) is taken, so that reading it reports the reason; a file reached twice is taken once,
//! by its own path rather than a symlink's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

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

const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

fn is_skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name) || (name.starts_with('.') && name != "." && name != "..")
}

/// Whether a file's name marks it as a schema, so that a parse failure found by a walk is
/// reported: `*.schema.json`, or a file inside a folder named `schema` or `schemas`.
#[must_use]
pub fn named_as_schema(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name.to_ascii_lowercase().ends_with(".schema.json") {
        return true;
    }
    path.parent().is_some_and(|dir| {
        dir.components().any(|c| {
            let c = c.as_os_str().to_string_lossy().to_ascii_lowercase();
            c == "schema" || c == "schemas"
        })
    })
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
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

/// Expands `paths` into the files to lint, in order, each once. `-` is passed through for stdin.
/// `accept` filters the files found in folders (files named explicitly are always linted).
#[must_use]
pub fn discover(
    paths: &[PathBuf],
    accept: &dyn Fn(&Path) -> bool,
) -> (Vec<Candidate>, Vec<WalkError>) {
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
            push(&mut out, root.clone(), true);
            continue;
        }
        let walker = WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                e.depth() == 0
                    || !e.file_type().is_dir()
                    || !is_skipped_dir(&e.file_name().to_string_lossy())
            });
        for entry in walker {
            match entry {
                Ok(entry) => {
                    let path = entry.path();
                    // A symlink to a folder is not followed. One that leads nowhere (dangling,
                    // or a loop) is taken like a file, so that reading it reports why.
                    let is_file = entry.file_type().is_file()
                        || (entry.file_type().is_symlink()
                            && std::fs::metadata(path).map_or(true, |m| !m.is_dir()));
                    if is_file && is_json(path) && accept(path) {
                        push(&mut out, path.to_path_buf(), false);
                    }
                }
                Err(e) => errors.push(WalkError {
                    path: e.path().map_or_else(|| root.clone(), Path::to_path_buf),
                    message: e
                        .io_error()
                        .map_or_else(|| e.to_string(), ToString::to_string),
                }),
            }
        }
    }
    (out, errors)
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
        let (found, errors) = discover(std::slice::from_ref(&dir), &|_| true);
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
        assert!(is_skipped_dir(".git"));
        assert!(is_skipped_dir(".venv"));
        assert!(is_skipped_dir("node_modules"));
        assert!(!is_skipped_dir("src"));
        assert!(!is_skipped_dir("."));
    }
}

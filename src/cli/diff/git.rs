//! The git side of `diff --base`: what a tree at a ref lists (`ls-tree`, NUL-separated), its
//! blobs (`cat-file --batch`, each only when its size is within what `check` reads) and where a
//! symbolic link of it leads in that tree, never on the disk.

use crate::syntax::read::{read_line_bounded, MAX_FILE};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{Read as _, Write as _};
use std::path::{Component, Path, PathBuf};

/// Runs git with `args` (paths as the OS has them: names git would quote pass as they are),
/// returning its standard output.
pub(super) fn git<S: AsRef<OsStr>>(args: &[S]) -> Result<Vec<u8>, String> {
    let output = std::process::Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
    }
}

/// A path git printed (NUL-separated output: the bytes of the name, never quoted).
pub(super) fn path_of(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// `path` without `.` components (`./schemas/a.json` is `schemas/a.json`): how the work tree's
/// files and git's are matched.
pub(super) fn key(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| *c != Component::CurDir)
        .collect()
}

/// `path` with `..` resolved by its text alone; `None` when it climbs above where it starts.
pub(super) fn normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The regular files (and symbolic links) of a tree at a ref, as `git ls-tree -l` lists them.
#[derive(Clone, Debug)]
pub(super) struct TreeEntry {
    /// `100644`, `100755` (regular files), `120000` (a symbolic link), `160000` (a submodule).
    pub(super) mode: String,
    /// The blob's id.
    pub(super) oid: String,
    /// The blob's size in bytes (`None` for what is not a blob).
    pub(super) size: Option<u64>,
    /// Its path, relative to the working folder (`--full-tree`: to the repository's root).
    pub(super) path: PathBuf,
}

pub(super) const SYMLINK: &str = "120000";

impl TreeEntry {
    pub(super) fn regular(&self) -> bool {
        self.size.is_some() && (self.mode == "100644" || self.mode == "100755")
    }
}

/// `git ls-tree -r -z -l REF -- PATHS` (`recursive`: the files under folders too; `full_tree`:
/// the paths are the repository's, not the working folder's): NUL-separated, so that no name is
/// quoted, and `--literal-pathspecs`, so that a name with `*` is itself.
pub(super) fn ls_tree(
    base: &str,
    paths: &[&OsStr],
    recursive: bool,
    full_tree: bool,
) -> Result<Vec<TreeEntry>, String> {
    let mut out = Vec::new();
    for chunk in paths.chunks(500) {
        let mut args: Vec<&OsStr> = vec![
            OsStr::new("--literal-pathspecs"),
            OsStr::new("ls-tree"),
            OsStr::new("-z"),
            OsStr::new("-l"),
        ];
        if recursive {
            args.push(OsStr::new("-r"));
        }
        if full_tree {
            args.push(OsStr::new("--full-tree"));
        }
        args.push(OsStr::new(base));
        args.push(OsStr::new("--"));
        args.extend(chunk);
        let listed = git(&args)?;
        for record in listed.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let Some(tab) = record.iter().position(|b| *b == b'\t') else {
                continue;
            };
            let meta = String::from_utf8_lossy(&record[..tab]);
            let mut fields = meta.split_whitespace();
            let (Some(mode), Some(kind), Some(oid), Some(size)) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            out.push(TreeEntry {
                mode: mode.to_owned(),
                oid: oid.to_owned(),
                size: (kind == "blob").then(|| size.parse().ok()).flatten(),
                path: path_of(&record[tab + 1..]),
            });
        }
    }
    Ok(out)
}

/// The blobs `oids` name, read through one `git cat-file --batch`, each only when its size (read
/// first) is at most [`MAX_FILE`], as `check` reads files: a larger one is skipped unread and
/// given as the error `check` gives.
pub(super) fn blobs(oids: &[&str]) -> Result<HashMap<String, std::io::Result<Vec<u8>>>, String> {
    let mut out = HashMap::new();
    if oids.is_empty() {
        return Ok(out);
    }
    let mut child = std::process::Command::new("git")
        .args(["cat-file", "--batch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("cannot run git: no pipe".to_owned());
    };
    let mut request = oids.join("\n");
    request.push('\n');
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(request.as_bytes());
    });
    let mut reader = std::io::BufReader::new(stdout);
    let mut line = Vec::new();
    let mut failed = None;
    for oid in oids {
        if let Err(e) = read_line_bounded(&mut reader, &mut line, 4096) {
            failed = Some(format!("git cat-file: {e}"));
            break;
        }
        let header = String::from_utf8_lossy(&line);
        let mut fields = header.split_whitespace();
        let size = match (fields.next(), fields.next(), fields.next()) {
            (Some(_), Some(_), Some(size)) => size.parse::<u64>().ok(),
            _ => None,
        };
        let Some(size) = size else {
            out.insert(
                (*oid).to_owned(),
                Err(std::io::Error::other("not in the repository")),
            );
            continue;
        };
        // What git sends of the blob: read whole when `check` would read it, else skipped.
        let (blob, got) = if size > MAX_FILE {
            let skipped = std::io::copy(&mut (&mut reader).take(size), &mut std::io::sink());
            (Err(too_large()), skipped.unwrap_or(0))
        } else {
            let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            let got = (&mut reader)
                .take(size)
                .read_to_end(&mut bytes)
                .unwrap_or(0);
            (Ok(bytes), got as u64)
        };
        let mut newline = [0u8; 1];
        if got != size || reader.read_exact(&mut newline).is_err() {
            failed = Some("git cat-file: its output ended early".to_owned());
            break;
        }
        out.insert((*oid).to_owned(), blob);
    }
    drop(reader);
    let _ = child.kill();
    let _ = child.wait();
    let _ = writer.join();
    match failed {
        Some(why) => Err(why),
        None => Ok(out),
    }
}

/// How many symbolic links in a row a version at a ref may go through (a loop stops there).
const MAX_LINKS: usize = 40;

/// The regular file a symbolic link `link` of the tree at `base` leads to in that tree (its path
/// the repository's), when it
/// stays under `within` (a path of the repository: the folder walked, or the whole repository
/// for a file named); `None` when it leads out of it (an absolute target, `..` above it), to
/// nothing, to a folder, a submodule, or round a loop. The link's target is a blob of the tree
/// (what `git show` prints of it): it is never looked up on the disk.
pub(super) fn follow(
    base: &str,
    link: &TreeEntry,
    prefix: &Path,
    within: &Path,
) -> Result<Option<TreeEntry>, String> {
    let mut at = normal(&prefix.join(&link.path));
    let mut entry = link.clone();
    for _ in 0..MAX_LINKS {
        if entry.mode != SYMLINK {
            return Ok(entry.regular().then_some(entry));
        }
        let (Some(here), Some(size)) = (at.take(), entry.size) else {
            return Ok(None);
        };
        if size > 4096 {
            return Ok(None);
        }
        let target = git(&["cat-file", "blob", entry.oid.as_str()])?;
        let target = path_of(&target);
        if target.is_absolute() {
            return Ok(None);
        }
        let Some(next) = normal(&here.parent().unwrap_or(Path::new("")).join(target)) else {
            return Ok(None);
        };
        if !next.starts_with(within) || next.as_os_str().is_empty() {
            return Ok(None);
        }
        let found = ls_tree(base, &[next.as_os_str()], false, true)?;
        let Some(found) = found.into_iter().find(|e| e.path == next) else {
            return Ok(None);
        };
        entry = found;
        at = Some(next);
    }
    Ok(None)
}

/// The error `check` gives a file larger than it reads.
pub(super) fn too_large() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!(
            "it is larger than {} MiB, the most schema-lint reads",
            MAX_FILE >> 20
        ),
    )
}

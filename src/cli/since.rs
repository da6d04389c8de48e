//! `check --since REF`: the files changed since a git ref (`git diff --name-only REF` and the
//! untracked files), which the run names as a pre-commit hook names its files: linted when they
//! hold a schema or a `tools/list` document, with the rest of the project read as context.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The JSON files changed since `reference` (modified, added or renamed in the work tree or the
/// index, and untracked files not ignored), relative to the current folder and below it, keeping
/// those inside one of `within` (every one when `within` is empty). Git's output is read
/// NUL-separated (`-z`): a name is never quoted or escaped.
pub(super) fn changed(reference: &str, within: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if reference.starts_with('-') {
        return Err(format!("--since: `{reference}` is not a git ref"));
    }
    let diff = git(&[
        "diff",
        "--name-only",
        "-z",
        "--relative",
        "--no-renames",
        "--diff-filter=d",
        reference,
        "--",
    ])
    .map_err(|e| format!("--since: `git diff {reference}` failed: {e}"))?;
    let untracked = git(&["ls-files", "--others", "--exclude-standard", "-z"])
        .map_err(|e| format!("--since: `git ls-files` failed: {e}"))?;
    let within: Vec<PathBuf> = within
        .iter()
        .filter_map(|p| std::path::absolute(p).ok())
        .collect();
    let mut files: Vec<PathBuf> = names(&diff)
        .chain(names(&untracked))
        .filter(|p| is_json(p) && p.is_file())
        .filter(|p| {
            within.is_empty()
                || std::path::absolute(p).is_ok_and(|p| within.iter().any(|w| p.starts_with(w)))
        })
        .collect();
    files.sort();
    files.dedup();
    Ok(files)
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("jsonc"))
}

/// The NUL-separated names of `out`, as paths (bytes as they are on Unix).
fn names(out: &[u8]) -> impl Iterator<Item = PathBuf> + '_ {
    out.split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(|n| PathBuf::from(os_string(n)))
}

#[cfg(unix)]
fn os_string(bytes: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes.to_vec())
}

#[cfg(not(unix))]
fn os_string(bytes: &[u8]) -> OsString {
    OsString::from(String::from_utf8_lossy(bytes).into_owned())
}

/// The standard output of `git ARGS` in the current folder, or what went wrong: git missing,
/// or its first line of error (not a repository, an unknown ref).
fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(["-c", "core.quotepath=off"])
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("git could not be run ({e})"))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("git exited with an error")
        .trim()
        .to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_on_nul_and_keep_bytes() {
        let got: Vec<PathBuf> = names(b"caf\xc3\xa9.json\0a b/\"q\".json\0\0").collect();
        assert_eq!(
            got,
            vec![PathBuf::from("café.json"), PathBuf::from("a b/\"q\".json")]
        );
    }
}

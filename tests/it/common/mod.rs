//! What the robustness and containment tests share: scratch folders, running the binary with a
//! time limit, and snapshots of a tree to prove what did or did not change.

#![allow(dead_code, reason = "each test file uses its own part of this module")]

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

/// The case folders of `testdata/<under>`, sorted.
#[must_use]
pub fn case_dirs(under: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(under);
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// A fresh folder under the temp dir, removed when dropped (unless the test failed, so that
/// what it left can be looked at).
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "schema-lint-{name}-{}-{}",
            std::process::id(),
            std::thread::current()
                .name()
                .unwrap_or("t")
                .replace("::", "-")
        ));
        let _ = make_writable_and_remove(&path);
        std::fs::create_dir_all(&path).unwrap();
        Self { path }
    }

    pub fn join(&self, rel: &str) -> PathBuf {
        self.path.join(rel)
    }

    /// Writes `bytes` at `rel`, creating folders.
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = make_writable_and_remove(&self.path);
        }
    }
}

#[cfg(unix)]
fn make_writable_and_remove(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if !path.exists() {
        return Ok(());
    }
    // Folders a test locked (mode 000) are opened up first, top down.
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
            if let Ok(entries) = std::fs::read_dir(&dir) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        }
    }
    std::fs::remove_dir_all(path)
}

#[cfg(not(unix))]
fn make_writable_and_remove(path: &Path) -> std::io::Result<()> {
    std::fs::remove_dir_all(path)
}

/// Every path below `dir` (folders included), without following symlinks.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        let d = out[i].clone();
        i += 1;
        if std::fs::symlink_metadata(&d).is_ok_and(|m| m.is_dir()) {
            if let Ok(entries) = std::fs::read_dir(&d) {
                out.extend(entries.flatten().map(|e| e.path()));
            }
        }
    }
    out
}

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Ran {
    /// The exit code, after checking the run neither panicked (101) nor died of a signal
    /// (a stack overflow aborts).
    pub fn exit(&self) -> i32 {
        let code = self
            .code
            .unwrap_or_else(|| panic!("killed by a signal (stack overflow?): {self:#?}"));
        assert_ne!(code, 101, "schema-lint panicked: {self:#?}");
        code
    }
}

/// Runs `cmd` to its end, or kills it and fails after `limit`.
pub fn run_with_limit(mut cmd: Command, limit: Duration) -> Ran {
    let start = Instant::now();
    let mut child = cmd
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("schema-lint did not finish within {limit:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ran {
        code: status.code(),
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// `schema-lint ARGS` in `dir`, within `limit`.
pub fn lint_in(dir: &Path, args: &[&str], limit: Duration) -> Ran {
    let mut cmd = Command::new(BIN);
    cmd.args(args).current_dir(dir);
    run_with_limit(cmd, limit)
}

/// One entry of a tree snapshot: a file's bytes, or a symlink's target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    File(Vec<u8>),
    Link(PathBuf),
    Unreadable,
}

/// Every file and symlink below `dir` (symlinks not followed), by relative path.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    for path in walkdir(dir) {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let rel = path
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if meta.file_type().is_symlink() {
            out.insert(rel, Entry::Link(std::fs::read_link(&path).unwrap()));
        } else if meta.is_file() {
            out.insert(
                rel,
                std::fs::read(&path).map_or(Entry::Unreadable, Entry::File),
            );
        }
    }
    out
}

/// The relative paths whose entry differs between two snapshots.
pub fn changed(before: &BTreeMap<String, Entry>, after: &BTreeMap<String, Entry>) -> Vec<String> {
    before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .cloned()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// A small schema with one SL201 finding whose safe fix renames the `$id`.
pub const FIXABLE: &str = "{\n  \"$id\": \"my_tool:output\",\n  \"type\": \"object\"\n}\n";
/// What `--fix` makes of [`FIXABLE`].
pub const FIXED: &str = "{\n  \"$id\": \"my_tool_output\",\n  \"type\": \"object\"\n}\n";

/// Holds the tests that bound memory, threads or time (`hostile`, `live`, `record`) one at a
/// time, as when each module was a test binary of its own: they share one process now, and a
/// bounded test must not share the machine with another. The other modules run beside them.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

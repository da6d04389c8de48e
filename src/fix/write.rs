//! Writing fixed files as one transaction. Every new text goes to a temporary file in the same
//! folder (same permissions, owner and group, extended attributes and ACLs, byte order mark
//! kept). Only when every temporary
//! file is written, each target is checked: still the bytes that were read (a file another
//! program changed meanwhile is not overwritten: its set is refused), still one link, writable,
//! and its original kept under a second name. Then one rename each, set after set; a file
//! replaced between its check and its rename (another `--fix` run, an editor) puts its set back
//! and refuses it, and the other sets are still written. Should a rename fail, or an interrupt
//! come, the files already renamed get their originals back. A file is either as it was
//! or fully fixed, and a set is either all old or all new; when that cannot be restored, the
//! failure names each file that stays changed.

use super::keep::{keep_attributes, keep_owner};
use crate::syntax::source::SourceFile;
use crate::workspace::live::children;
use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Whether `--fix` may write `file`: a regular, writable file reached by its own path (never
/// through a symlink, which could lead outside the linted set). Standard input is "written" to
/// standard output.
///
/// # Errors
/// Why the file must not be written.
pub fn can_write(file: &SourceFile) -> Result<(), String> {
    writable(file).map(|_| ())
}

/// [`can_write`], with the file's metadata when it is on disk.
fn writable(file: &SourceFile) -> Result<Option<fs::Metadata>, String> {
    let Some(path) = &file.path else {
        return Ok(None);
    };
    let meta = fs::symlink_metadata(path)
        .map_err(|e| format!("`{}` cannot be inspected: {e}", file.name))?;
    if meta.file_type().is_symlink() {
        return Err(format!(
            "`{}` is a symlink; schema-lint does not write through symlinks",
            file.name
        ));
    }
    if !meta.is_file() {
        return Err(format!("`{}` is not a regular file", file.name));
    }
    if meta.permissions().readonly() {
        return Err(format!("`{}` is read-only", file.name));
    }
    Ok(Some(meta))
}

/// Whether `--fix` may replace `file` on disk: as [`can_write`], and the file has no other hard
/// link. A new file renamed over it would leave the other names with the old text, and writing
/// in place would change those other names too, wherever they are (a package store, another
/// checkout): outside the linted set, which `--fix` never writes.
///
/// # Errors
/// Why the file must not be replaced.
pub fn can_replace(file: &SourceFile) -> Result<(), String> {
    match writable(file)? {
        Some(meta) => single_link(&meta, &file.name),
        None => Ok(()),
    }
}

fn single_link(meta: &fs::Metadata, name: &str) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(format!(
                "`{name}` has {} hard links; schema-lint does not replace a file that has other names (they would keep the old text)",
                meta.nlink()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = (meta, name);
    Ok(())
}

/// The bytes to store for `text` in `file`: the byte order mark comes back if it was there.
#[must_use]
pub fn stored_bytes(file: &SourceFile, text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 3);
    if file.bom {
        out.extend_from_slice("\u{feff}".as_bytes());
    }
    out.extend_from_slice(text.as_bytes());
    out
}

/// One file to replace.
#[derive(Debug)]
pub struct Target {
    /// Where it is.
    pub path: PathBuf,
    /// How reports name it.
    pub name: String,
    /// Its bytes when it was read: it is replaced only while it still holds them.
    pub read: Vec<u8>,
    /// The bytes to store.
    pub bytes: Vec<u8>,
    /// Its set: the files of one set (tied by a fix: a renamed `$id` and the `$ref`s that name
    /// it) are written together or not at all.
    pub set: usize,
}

/// A file no longer as it was read: its set was not written.
#[derive(Debug)]
pub struct Refusal {
    /// The set of the file.
    pub set: usize,
    /// Why, naming the file.
    pub reason: String,
}

/// Why the write failed: nothing was changed, but for [`Failure::unrestored`].
#[derive(Debug)]
pub struct Failure {
    /// How reports name the file that could not be written (the first one, in order).
    pub name: String,
    /// Why.
    pub reason: String,
    /// Whether an interrupt (Ctrl-C, `SIGTERM`) stopped the write.
    pub interrupted: bool,
    /// The targets (by index) that were replaced and could not be given their original back,
    /// each with its name and where that original is.
    pub unrestored: Vec<Unrestored>,
}

/// A file the write replaced and could not give its original back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrestored {
    /// Which target it is (its index).
    pub target: usize,
    /// Its name, and where its original is.
    pub what: String,
}

impl Failure {
    fn new(t: &Target, reason: String) -> Self {
        Self {
            name: t.name.clone(),
            reason,
            interrupted: false,
            unrestored: Vec::new(),
        }
    }

    fn interrupted(t: &Target) -> Self {
        Self {
            interrupted: true,
            ..Self::new(t, "interrupted".to_owned())
        }
    }
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(
        ".{name}.{}.{n}.schema-lint.{suffix}",
        std::process::id()
    ))
}

fn write_temp(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let temp = sibling(path, "tmp");
    let original = fs::metadata(path)?;
    let result = (|| {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        f.write_all(bytes)?;
        keep_owner(&f, &original)?;
        f.set_permissions(original.permissions())?;
        keep_attributes(&f, path)?;
        f.sync_all()
    })();
    match result {
        Ok(()) => Ok(temp),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(e)
        }
    }
}

/// What identifies a file's state between the check and its rename.
#[derive(Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    inode: u64,
}

fn stamp(meta: &fs::Metadata) -> Stamp {
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(meta);
    #[cfg(not(unix))]
    let inode = 0;
    Stamp {
        len: meta.len(),
        modified: meta.modified().ok(),
        inode,
    }
}

/// Whether the file still holds the bytes that were read (size, then content), as a regular
/// file with one link; its stamp for the checks before its rename.
fn as_read(t: &Target) -> Result<Stamp, String> {
    let changed = || format!("`{}` changed on disk after it was read", t.name);
    let meta = fs::symlink_metadata(&t.path).map_err(|_| changed())?;
    if !meta.is_file() {
        return Err(changed());
    }
    single_link(&meta, &t.name)?;
    if meta.len() != t.read.len() as u64 {
        return Err(changed());
    }
    match fs::read(&t.path) {
        Ok(now) if now == t.read => Ok(stamp(&meta)),
        _ => Err(changed()),
    }
}

/// A target on its way: its temporary file, then its original kept under a second name.
struct Staged {
    index: usize,
    temp: PathBuf,
    backup: Option<PathBuf>,
    stamp: Option<Stamp>,
}

/// Checks that `t` can be replaced and keeps its original under a second name (a hard link:
/// no copy, and the original file itself comes back on a restore).
fn prepare(t: &Target, s: &mut Staged) -> Result<(), Failure> {
    let fail = |why: String| Failure::new(t, why);
    // An immutable file or a read-only file system refuses this, and would refuse the rename.
    may_write(&t.path).map_err(|e| fail(e.to_string()))?;
    let backup = sibling(&t.path, "orig");
    if let Err(e) = fs::hard_link(&t.path, &backup) {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::EXDEV) {
            return Err(fail(
                "it is mounted on its own (a bind mount), so it cannot be replaced".to_owned(),
            ));
        }
        // A file system without hard links: a copy does.
        if let Err(e) = copy_new(&t.path, &backup) {
            let _ = fs::remove_file(&backup);
            return Err(fail(e.to_string()));
        }
    }
    s.backup = Some(backup);
    Ok(())
}

/// Whether this process may write `path` (`faccessat(2)` with the effective ids): asks, opens
/// nothing.
#[cfg(unix)]
fn may_write(path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call; no memory is written.
    let rc = unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(unix))]
fn may_write(path: &Path) -> std::io::Result<()> {
    if fs::metadata(path)?.permissions().readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "read-only",
        ));
    }
    Ok(())
}

/// Copies `from` to a new file `to` (never over an existing one), with its permissions.
fn copy_new(from: &Path, to: &Path) -> std::io::Result<()> {
    let mut source = fs::File::open(from)?;
    let mut target = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)?;
    std::io::copy(&mut source, &mut target)?;
    target.set_permissions(source.metadata()?.permissions())?;
    keep_attributes(&target, from)?;
    target.sync_all()
}

/// Writes `bytes` to a new file `path` (never over an existing one) that has the owner, group,
/// permissions, extended attributes and ACLs of the file `like`: a copy of a file kept beside it
/// (a backup), readable by no one its original does not let read, not even while it is written.
///
/// # Errors
/// `path` exists, or cannot be written; then nothing is left at `path`.
pub fn write_new(path: &Path, bytes: &[u8], like: &Path) -> std::io::Result<()> {
    let original = fs::metadata(like)?;
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(path)?;
    let result = (|| {
        f.write_all(bytes)?;
        keep_owner(&f, &original)?;
        f.set_permissions(original.permissions())?;
        keep_attributes(&f, like)?;
        f.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(path);
    }
    result
}

/// Removes what staged files left: temporary files and kept originals.
fn discard(staged: &[Staged]) {
    for s in staged {
        let _ = fs::remove_file(&s.temp);
        if let Some(b) = &s.backup {
            let _ = fs::remove_file(b);
        }
    }
}

/// Puts the originals of the renamed files (`renamed`, indices into `staged`) back, last first;
/// what cannot be put back is returned.
fn restore(staged: &[Staged], renamed: &[usize], targets: &[Target]) -> Vec<Unrestored> {
    let mut unrestored = Vec::new();
    for s in renamed.iter().rev().map(|&r| &staged[r]) {
        let Some(backup) = &s.backup else { continue };
        if let Err(e) = fs::rename(backup, &targets[s.index].path) {
            unrestored.push(Unrestored {
                target: s.index,
                what: format!(
                    "`{}` (its original text is in `{}`: {e})",
                    targets[s.index].name,
                    backup.display()
                ),
            });
        }
    }
    unrestored
}

/// Writes every target, as one transaction: temporary files first (if any fails, all are
/// removed and nothing changes); then the checks of each target (a set with a file no longer
/// as read is refused and left alone); then one rename each, undone on failure or interrupt.
///
/// # Errors
/// The first file that could not be written and why; nothing was changed, but for the files
/// the failure names as not restored.
pub fn write_sets(targets: &[Target]) -> Result<Vec<Refusal>, Failure> {
    if targets.is_empty() {
        return Ok(Vec::new());
    }
    // Ctrl-C or `SIGTERM` from here on is noted, and the write stops at the next step, clean.
    let _deferral = children::defer_interrupts();
    let mut staged: Vec<Staged> = Vec::with_capacity(targets.len());
    for (index, t) in targets.iter().enumerate() {
        let written = if children::interrupted() {
            Err(Failure::interrupted(t))
        } else {
            write_temp(&t.path, &t.bytes).map_err(|e| Failure::new(t, e.to_string()))
        };
        match written {
            Ok(temp) => staged.push(Staged {
                index,
                temp,
                backup: None,
                stamp: None,
            }),
            Err(f) => {
                discard(&staged);
                return Err(f);
            }
        }
    }
    pause("renames");
    let mut refused = Vec::new();
    let mut refused_sets = HashSet::new();
    for s in &mut staged {
        let t = &targets[s.index];
        match as_read(t) {
            Ok(stamp) => s.stamp = Some(stamp),
            Err(reason) => {
                refused_sets.insert(t.set);
                refused.push(Refusal { set: t.set, reason });
            }
        }
    }
    let (left_alone, mut staged): (Vec<Staged>, Vec<Staged>) = staged
        .into_iter()
        .partition(|s| refused_sets.contains(&targets[s.index].set));
    discard(&left_alone);
    for i in 0..staged.len() {
        let t = &targets[staged[i].index];
        let prepared = if children::interrupted() {
            Err(Failure::interrupted(t))
        } else {
            prepare(t, &mut staged[i])
        };
        if let Err(f) = prepared {
            discard(&staged);
            return Err(f);
        }
    }
    let renamed = rename_sets(&mut staged, targets, &mut refused)?;
    for &r in &renamed {
        staged_done(&staged[r]);
    }
    Ok(refused)
}

/// Renames the staged files over their targets, one set after another, so that a set whose file
/// another program replaces meanwhile is put back alone (and refused) while the other sets are
/// still written; the files renamed.
fn rename_sets(
    staged: &mut [Staged],
    targets: &[Target],
    refused: &mut Vec<Refusal>,
) -> Result<Vec<usize>, Failure> {
    staged.sort_by_key(|s| (targets[s.index].set, s.index));
    // The files renamed so far, in the sets not put back.
    let mut renamed: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < staged.len() {
        let set = targets[staged[i].index].set;
        let end = i + staged[i..]
            .iter()
            .take_while(|s| targets[s.index].set == set)
            .count();
        let first = renamed.len();
        for j in i..end {
            if j == 1 {
                pause("renamed-one");
            }
            let s = &staged[j];
            let t = &targets[s.index];
            let (failure, restored) = if children::interrupted() {
                (Failure::interrupted(t), 0)
            } else if fs::symlink_metadata(&t.path).ok().map(|m| stamp(&m)) != s.stamp {
                let reason = format!("`{}` changed on disk while the fixes were written", t.name);
                // The set goes back to the files as read; the other program's file stays.
                let unrestored = restore(staged, &renamed[first..], targets);
                if unrestored.is_empty() {
                    renamed.truncate(first);
                    discard(&staged[j..end]);
                    refused.push(Refusal { set, reason });
                    break;
                }
                let mut f = Failure::new(t, reason);
                f.unrestored = unrestored;
                (f, renamed.len() - first)
            } else {
                match fs::rename(&s.temp, &t.path) {
                    Ok(()) => {
                        renamed.push(j);
                        continue;
                    }
                    Err(e) => (Failure::new(t, e.to_string()), 0),
                }
            };
            let mut f = failure;
            let left = renamed.len() - restored;
            f.unrestored
                .extend(restore(staged, &renamed[..left], targets));
            let kept: HashSet<usize> = f.unrestored.iter().map(|u| u.target).collect();
            // What was restored consumed its kept original; what was not keeps it.
            for &r in &renamed {
                if !kept.contains(&staged[r].index) {
                    staged_done(&staged[r]);
                }
            }
            discard(&staged[j..]);
            return Err(f);
        }
        i = end;
    }
    Ok(renamed)
}

/// Forgets a target whose rename (or restore) is done: only a kept original may be left.
fn staged_done(s: &Staged) {
    if let Some(b) = &s.backup {
        let _ = fs::remove_file(b);
    }
}

/// Test hook, in debug builds only: with `SCHEMA_LINT_TEST_PAUSE=STAGE:PATH`, a write that
/// reaches `STAGE` (`renames`: every temporary file written, nothing checked or renamed yet;
/// `renamed-one`: the first file renamed) writes its process id to the file `PATH` and waits
/// until that file is removed (or an interrupt comes, or a minute passes), so that a test can act
/// between two steps.
#[cfg(debug_assertions)]
fn pause(stage: &str) {
    let Some(value) = std::env::var_os("SCHEMA_LINT_TEST_PAUSE") else {
        return;
    };
    let value = value.to_string_lossy();
    let Some((at, flag)) = value.split_once(':') else {
        return;
    };
    let flag = Path::new(flag);
    if at != stage || fs::write(flag, std::process::id().to_string()).is_err() {
        return;
    }
    let start = std::time::Instant::now();
    while flag.exists()
        && !children::interrupted()
        && start.elapsed() < std::time::Duration::from_secs(60)
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[cfg(not(debug_assertions))]
fn pause(_: &str) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(path: &Path, read: &str, bytes: &str, set: usize) -> Target {
        Target {
            path: path.to_path_buf(),
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            read: read.as_bytes().to_vec(),
            bytes: bytes.as_bytes().to_vec(),
            set,
        }
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".schema-lint."))
            .collect()
    }

    #[test]
    fn writes_through_a_temp_file_and_keeps_permissions() {
        let dir = std::env::temp_dir().join(format!("schema-lint-write-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        fs::write(&path, "{}").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        }
        let refused = write_sets(&[target(&path, "{}", "{\"a\": 1}", 0)]).unwrap();
        assert!(refused.is_empty());
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o640
            );
        }
        assert!(leftovers(&dir).is_empty());
        // A set with a file that cannot be written changes nothing.
        let missing = dir.join("no/such/dir/b.json");
        assert!(write_sets(&[
            target(&path, "{\"a\": 1}", "changed", 0),
            target(&missing, "", "x", 0)
        ])
        .is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_changed_since_it_was_read_refuses_its_set_only() {
        let dir = std::env::temp_dir().join(format!("schema-lint-asread-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (a, b, c) = (dir.join("a.json"), dir.join("b.json"), dir.join("c.json"));
        fs::write(&a, "a").unwrap();
        fs::write(&b, "b, edited meanwhile").unwrap();
        fs::write(&c, "c").unwrap();
        let refused = write_sets(&[
            target(&a, "a", "A", 0),
            target(&b, "b", "B", 0),
            target(&c, "c", "C", 1),
        ])
        .unwrap();
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].set, 0);
        assert_eq!(
            refused[0].reason,
            "`b.json` changed on disk after it was read"
        );
        assert_eq!(fs::read_to_string(&a).unwrap(), "a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "b, edited meanwhile");
        assert_eq!(fs::read_to_string(&c).unwrap(), "C");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}

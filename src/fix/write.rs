//! Writing fixed files: every new text goes to a temporary file in the same folder (same
//! permissions, byte order mark kept), and only when every temporary file is written are they
//! renamed over the originals. A file is either as it was or fully fixed, never half-written.

use crate::syntax::source::SourceFile;
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
    let Some(path) = &file.path else {
        return Ok(());
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

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(
        ".{name}.{}.{n}.schema-lint.tmp",
        std::process::id()
    ))
}

fn write_temp(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let temp = temp_path(path);
    let permissions = fs::metadata(path)?.permissions();
    let result = (|| {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        f.write_all(bytes)?;
        f.set_permissions(permissions)?;
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

/// Writes every `(path, bytes)` atomically as a set: temporary files first; if any fails, all
/// are removed and nothing changes; then one rename each.
///
/// # Errors
/// The path and the reason for the first file that could not be written.
pub fn write_all(files: &[(PathBuf, Vec<u8>)]) -> Result<(), (PathBuf, String)> {
    let mut temps = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        match write_temp(path, bytes) {
            Ok(temp) => temps.push((temp, path)),
            Err(e) => {
                for (temp, _) in &temps {
                    let _ = fs::remove_file(temp);
                }
                return Err((path.clone(), e.to_string()));
            }
        }
    }
    for (i, (temp, path)) in temps.iter().enumerate() {
        if let Err(e) = fs::rename(temp, path) {
            for (rest, _) in &temps[i..] {
                let _ = fs::remove_file(rest);
            }
            return Err(((*path).clone(), e.to_string()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        write_all(&[(path.clone(), b"{\"a\": 1}".to_vec())]).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o640
            );
        }
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .collect();
        assert!(leftovers.is_empty());
        // A set with a file that cannot be written changes nothing.
        let missing = dir.join("no/such/dir/b.json");
        assert!(write_all(&[
            (path.clone(), b"changed".to_vec()),
            (missing, b"x".to_vec())
        ])
        .is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

//! What a fixed file keeps of the original besides its bytes: its owner and group, its extended
//! attributes and its POSIX ACL ([`super::write`] gives them to the new file before the rename).

use std::fs;
use std::path::Path;

/// Gives the new file the owner and group of the original. Root can, and must (a fix run as root
/// on a user's checkout leaves the user's files the user's); anyone else keeps the group where
/// allowed, and otherwise owns what they wrote, as with any editor.
#[cfg(unix)]
pub(super) fn keep_owner(f: &fs::File, original: &fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::{fchown, MetadataExt};
    let mine = f.metadata()?;
    if (mine.uid(), mine.gid()) == (original.uid(), original.gid()) {
        return Ok(());
    }
    match fchown(f, Some(original.uid()), Some(original.gid())) {
        // The new file is owned by the effective user: 0 is root, which may give any owner.
        Err(e) if mine.uid() == 0 => Err(e),
        Err(_) => {
            let _ = fchown(f, None, Some(original.gid()));
            Ok(())
        }
        Ok(()) => Ok(()),
    }
}

#[cfg(not(unix))]
#[allow(clippy::unnecessary_wraps, reason = "the same signature as on unix")]
pub(super) fn keep_owner(_: &fs::File, _: &fs::Metadata) -> std::io::Result<()> {
    Ok(())
}

/// Gives the new file `f` the extended attributes of the file at `path`, its POSIX ACL
/// (`system.posix_acl_access`) among them: a fix may not take away the access an ACL gave
/// another user, nor what other tools keep in attributes. An attribute the new file cannot be
/// given fails the write, which then changes nothing.
#[cfg(target_os = "linux")]
pub(super) fn keep_attributes(f: &fs::File, path: &Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    let names = match xattr_read(|buf, len| {
        // SAFETY: `path` is NUL-terminated and `buf` holds `len` writable bytes (or is null
        // with `len` 0, which asks for the size).
        unsafe { libc::llistxattr(path.as_ptr(), buf.cast(), len) }
    }) {
        Ok(names) => names,
        // A file system without attributes: nothing to keep.
        Err(e) if e.raw_os_error() == Some(libc::ENOTSUP) => return Ok(()),
        Err(e) => return Err(e),
    };
    for name in names.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let Ok(name) = std::ffi::CString::new(name) else {
            continue;
        };
        let kept = |e: std::io::Error| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "its extended attribute `{}` could not be kept: {e}",
                    name.to_string_lossy()
                ),
            )
        };
        let value = xattr_read(|buf, len| {
            // SAFETY: as above, with `name` NUL-terminated too.
            unsafe { libc::lgetxattr(path.as_ptr(), name.as_ptr(), buf.cast(), len) }
        })
        .map_err(kept)?;
        let fd = f.as_raw_fd();
        let now = xattr_read(|buf, len| {
            // SAFETY: `fd` is the open new file; as above for `name` and `buf`.
            unsafe { libc::fgetxattr(fd, name.as_ptr(), buf.cast(), len) }
        });
        // The new file may have it already (an SELinux label, given by policy): setting it
        // again could need a permission the user lacks.
        if now.is_ok_and(|now| now == value) {
            continue;
        }
        // SAFETY: `fd` is open, `name` NUL-terminated, `value` readable for its length.
        let rc =
            unsafe { libc::fsetxattr(fd, name.as_ptr(), value.as_ptr().cast(), value.len(), 0) };
        if rc != 0 {
            return Err(kept(std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
#[allow(clippy::unnecessary_wraps, reason = "the same signature as on Linux")]
pub(super) fn keep_attributes(_: &fs::File, _: &Path) -> std::io::Result<()> {
    Ok(())
}

/// What a call of the `*xattr` family of the form `call(buffer, length) -> size` reads: asked
/// for the size first, then read, again while it grows meanwhile.
#[cfg(target_os = "linux")]
fn xattr_read(call: impl Fn(*mut u8, usize) -> libc::ssize_t) -> std::io::Result<Vec<u8>> {
    loop {
        let size = call(std::ptr::null_mut(), 0);
        let Ok(size) = usize::try_from(size) else {
            return Err(std::io::Error::last_os_error());
        };
        let mut buf = vec![0u8; size];
        let got = call(buf.as_mut_ptr(), buf.len());
        match usize::try_from(got) {
            Ok(got) => {
                buf.truncate(got);
                return Ok(buf);
            }
            Err(_) if std::io::Error::last_os_error().raw_os_error() == Some(libc::ERANGE) => {}
            Err(_) => return Err(std::io::Error::last_os_error()),
        }
    }
}

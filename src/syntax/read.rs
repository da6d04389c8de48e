//! Bounded reads: no file, configuration or input is read past a limit, whatever it is (a
//! `*.json` that is `/dev/zero`, a header line without an end), so that memory stays bounded.

use std::io::{self, BufRead, Read};
use std::path::Path;

/// The most bytes read from one schema file, configuration file or standard input: twice the
/// largest schema files met in practice many times over, far below what would exhaust memory.
pub const MAX_FILE: u64 = 256 << 20;

/// Reads `input` to its end, failing once it holds more than `limit` bytes (what was read is
/// dropped).
///
/// # Errors
/// The read's own error, or one saying the input is larger than `limit`.
pub fn read_to_end_bounded(input: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    read_into_bounded(input, limit, Vec::new())
}

/// [`read_to_end_bounded`] into `out` (empty, perhaps with room reserved).
fn read_into_bounded(input: impl Read, limit: u64, mut out: Vec<u8>) -> io::Result<Vec<u8>> {
    input.take(limit.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(out)
}

/// Reads the file at `path`, at most `limit` bytes of it; when `regular_only`, a path that is not
/// a regular file once opened (a device, a pipe, a folder) is refused without reading it.
///
/// # Errors
/// The open's or read's error, one saying the file is larger than `limit`, or (when
/// `regular_only`) one saying it is not a regular file.
pub fn read_file_bounded(path: &Path, limit: u64, regular_only: bool) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > limit {
        return Err(too_large(limit));
    }
    if regular_only && !meta.is_file() {
        return Err(io::Error::other("it is not a regular file"));
    }
    // Room for the whole file at once, as `std::fs::read` makes: grown from nothing, the buffer
    // was copied each time it doubled (a file that grew since is still read to its end).
    let room = if meta.is_file() {
        usize::try_from(meta.len()).unwrap_or(0)
    } else {
        0
    };
    read_into_bounded(file, limit, Vec::with_capacity(room))
}

/// Reads one line (through `\n`) into `line`, at most `limit` bytes of it; `Ok(0)` at the end of
/// the input.
///
/// # Errors
/// The read's own error, or one saying the line is longer than `limit` (the input is then left
/// in the middle of it).
pub fn read_line_bounded(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<usize> {
    line.clear();
    let n = input.take(limit as u64 + 1).read_until(b'\n', line)?;
    if line.len() > limit && line.last() != Some(&b'\n') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a line longer than {}", size(limit as u64)),
        ));
    }
    Ok(n)
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "it is larger than {}, the most schema-lint reads",
            size(limit)
        ),
    )
}

/// `limit` in the largest binary unit that divides it (`256 MiB`, `8 KiB`).
fn size(limit: u64) -> String {
    match limit {
        l if l >= 1 << 20 && l % (1 << 20) == 0 => format!("{} MiB", l >> 20),
        l if l >= 1 << 10 && l % (1 << 10) == 0 => format!("{} KiB", l >> 10),
        l => format!("{l} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_limit() {
        assert_eq!(read_to_end_bounded(&b"abcd"[..], 4).unwrap(), b"abcd");
        let err = read_to_end_bounded(io::repeat(0), 1 << 20).unwrap_err();
        assert!(err.to_string().contains("larger than 1 MiB"), "{err}");
        let mut line = Vec::new();
        let mut input = io::Cursor::new(b"short\nxxxxxxxxxx\n".to_vec());
        assert_eq!(read_line_bounded(&mut input, &mut line, 6).unwrap(), 6);
        assert_eq!(line, b"short\n");
        let err = read_line_bounded(&mut input, &mut line, 6).unwrap_err();
        assert!(err.to_string().contains("longer than 6 bytes"), "{err}");
        let mut endless = io::BufReader::new(io::repeat(b'x'));
        assert!(read_line_bounded(&mut endless, &mut line, 8 << 10).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_or_bounded() {
        let zero = Path::new("/dev/zero");
        let err = read_file_bounded(zero, 1 << 20, true).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let err = read_file_bounded(zero, 1 << 20, false).unwrap_err();
        assert!(err.to_string().contains("larger than"), "{err}");
    }
}

//! The capture `schema-lint record` writes: JSON Lines, one entry per message, each
//! `{"direction": "to-server" | "to-client", "time": "<RFC 3339, UTC>", "message": <the message,
//! byte for byte>}` (the logger form `audit` unwraps), or `"line": "<text>"` for what is not JSON.

//!
//! Every write is checked. The first that fails (a full disk, `ulimit -f`, `/dev/full`) is said
//! on standard error at once, naming the file, and ends the capture there: what it half wrote is
//! cut off again (on a regular file), so the capture stays whole lines, and the proxy exits with
//! status 2 at the end (traffic still passes: the host's session is not broken for the capture's
//! sake). The capture holds at most `--max-size` MiB ([`DEFAULT_MAX_SIZE`]); the entry that would
//! take it past is not written, and that ends it the same way.
//!
//! A capture appended to that does not end with a newline (a session killed mid-write) gets one
//! first, so the cut line stays alone and the new session's first entry whole. A message whose
//! bytes are not all UTF-8 is kept with each such byte as U+FFFD, and the entry says so:
//! `"note": "bytes that are not UTF-8 were replaced by U+FFFD"` (a capture is UTF-8 text, and
//! `audit` refuses a line that is not).

use crate::syntax::message::tolerant;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The longest message kept whole in the capture; a longer one is forwarded all the same, and
/// the capture says how long it was.
pub(super) const MAX_LINE: usize = 64 << 20;

/// The most a capture file may hold (MiB) unless `--max-size` says otherwise.
pub const DEFAULT_MAX_SIZE: u64 = 1024;

/// What the entry of a message that is not all UTF-8 says.
pub(super) const NOT_UTF8: &str = "bytes that are not UTF-8 were replaced by U+FFFD";

/// The capture file, written a whole entry at a time by both directions.
pub(super) struct Log {
    path: PathBuf,
    state: Mutex<State>,
}

struct State {
    file: File,
    /// The bytes in the file.
    size: u64,
    /// The most it may hold.
    cap: u64,
    /// Whether it is a regular file (one that a failed write can be cut back on).
    regular: bool,
    /// Why the capture ended early, once it has.
    failed: Option<String>,
}

impl Log {
    /// The capture in `file` (opened to append), at most `cap` bytes.
    ///
    /// # Errors
    /// The newline that a capture cut mid-line needs cannot be written.
    pub(super) fn new(path: &Path, mut file: File, cap: u64) -> std::io::Result<Self> {
        let metadata = file.metadata()?;
        let regular = metadata.is_file();
        let mut size = if regular { metadata.len() } else { 0 };
        if size > 0 {
            let mut last = [0u8];
            let mut reader = &file;
            let read = reader
                .seek(SeekFrom::Start(size - 1))
                .and_then(|_| reader.read_exact(&mut last));
            // A file that cannot be read back gets the newline anyway: a blank line is nothing.
            if read.is_err() || last[0] != b'\n' {
                file.write_all(b"\n")?;
                size += 1;
            }
        }
        Ok(Self {
            path: path.to_owned(),
            state: Mutex::new(State {
                file,
                size,
                cap,
                regular,
                failed: None,
            }),
        })
    }

    /// The capture at `path`, opened to append (created if missing), at most `max_mib` MiB.
    ///
    /// # Errors
    /// It cannot be opened for writing, or is already full: the path and why, in words.
    pub(super) fn open(path: &Path, max_mib: u64) -> Result<Self, String> {
        let cap = max_mib.saturating_mul(1 << 20);
        let open = |read: bool| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .read(read)
                .open(path)
        };
        let file = open(true)
            .or_else(|_| open(false))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        let log = Self::new(path, file, cap)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        let size = log.state.lock().map_or(0, |s| s.size);
        if size >= cap {
            return Err(format!(
                "{}: the capture already holds {size} bytes, its cap of {max_mib} MiB (`--max-size`): start another file",
                path.display()
            ));
        }
        Ok(log)
    }

    /// Why the capture ended early (said on standard error when it happened), if it did.
    pub(super) fn failure(&self) -> Option<String> {
        self.state.lock().ok().and_then(|s| s.failed.clone())
    }

    /// Appends one message (or, when `line` is not JSON, the text) that went `direction`.
    pub(super) fn entry(&self, direction: &str, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let mut bytes =
            format!("{{\"direction\":\"{direction}\",\"time\":\"{}\",", now()).into_bytes();
        let text = String::from_utf8_lossy(line);
        let lossy = matches!(text, std::borrow::Cow::Owned(_));
        let json = |text: &str| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
        // Valid JSON that serde_json refuses (`1e400`, `"\ud800"`) is a message too, kept as is.
        if json(&text) || tolerant(&text).is_some_and(|t| json(&t)) {
            if lossy {
                bytes.extend_from_slice(format!("\"note\":\"{NOT_UTF8}\",").as_bytes());
            }
            bytes.extend_from_slice(b"\"message\":");
            bytes.extend_from_slice(text.as_bytes());
        } else {
            let text = serde_json::to_string(&text).unwrap_or_default();
            bytes.extend_from_slice(b"\"line\":");
            bytes.extend_from_slice(text.as_bytes());
        }
        bytes.extend_from_slice(b"}\n");
        self.write(&bytes);
    }

    /// Notes a line too long to keep.
    pub(super) fn too_long(&self, direction: &str, length: usize) {
        let entry = format!(
            "{{\"direction\":\"{direction}\",\"time\":\"{}\",\"line\":\"(a line of {length} bytes, longer than schema-lint record keeps)\"}}\n",
            now()
        );
        self.write(entry.as_bytes());
    }

    /// Appends one whole entry, or ends the capture saying why.
    fn write(&self, bytes: &[u8]) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        if state.failed.is_some() {
            return;
        }
        let length = bytes.len() as u64;
        let why = if state.size.saturating_add(length) > state.cap {
            format!(
                "the capture reached its cap of {} MiB (`--max-size`)",
                state.cap >> 20
            )
        } else {
            match state
                .file
                .write_all(bytes)
                .and_then(|()| state.file.flush())
            {
                Ok(()) => {
                    state.size += length;
                    return;
                }
                Err(e) => {
                    if state.regular {
                        // What the failed write left of the entry goes: the capture stays lines.
                        let _ = state.file.set_len(state.size);
                    }
                    format!("cannot write the capture: {e}")
                }
            }
        };
        let message = format!(
            "{}: {why}; the messages from here on are not recorded (they still pass)",
            self.path.display()
        );
        eprintln!("schema-lint record: error: {message}");
        state.failed = Some(message);
    }
}

/// The time now, RFC 3339 in UTC with milliseconds.
fn now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil(i64::try_from(days).unwrap_or(0));
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("sl-log-{}-{name}.jsonl", std::process::id()))
    }

    #[test]
    fn a_cut_line_is_ended_and_the_entries_stay_whole_under_the_cap() {
        let path = scratch("cut");
        std::fs::write(&path, "{\"direction\":\"to-server\",\"message\":{\"jsonr").unwrap();
        let log = Log::open(&path, 1).unwrap();
        log.entry(
            "to-client",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"s\":\"caf\xE9\"}}",
        );
        log.entry("to-client", b"caf\xE9 \xFF");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        let entry: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(entry["message"]["result"]["s"], "caf\u{fffd}");
        assert_eq!(entry["note"], NOT_UTF8);
        let entry: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
        assert_eq!(entry["line"], "caf\u{fffd} \u{fffd}");
        // An entry past the cap ends the capture: nothing more is written.
        let big = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"{}\"}}",
            "x".repeat(1 << 20)
        );
        log.entry("to-server", big.as_bytes());
        log.entry("to-server", b"{}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(log.failure().unwrap().contains("reached its cap of 1 MiB"));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_failed_write_is_said_and_ends_the_capture() {
        let log = Log::open(Path::new("/dev/full"), 1).unwrap();
        assert!(log.failure().is_none());
        log.entry("to-server", b"{}");
        let why = log.failure().unwrap();
        assert!(
            why.starts_with("/dev/full: cannot write the capture: No space left on device"),
            "{why}"
        );
    }

    #[test]
    fn dates_from_days() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_790), (2026, 12, 3));
        assert_eq!(now().len(), "2026-12-03T08:10:00.000Z".len());
    }
}

//! The capture `schema-lint record` writes: JSON Lines, one entry per message, each
//! `{"direction": "to-server" | "to-client", "time": "<RFC 3339, UTC>", "message": <the message,
//! byte for byte>}` (the logger form `audit` unwraps), or `"line": "<text>"` for what is not JSON.

use std::fs::File;
use std::io::Write;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The longest message kept whole in the capture; a longer one is forwarded all the same, and
/// the capture says how long it was.
pub(super) const MAX_LINE: usize = 64 << 20;

/// The capture file, written a whole entry at a time by both directions.
pub(super) struct Log {
    file: Mutex<File>,
}

impl Log {
    /// The capture in `file` (opened to append).
    pub(super) fn new(file: File) -> Self {
        Self {
            file: Mutex::new(file),
        }
    }

    /// The capture at `path`, opened to append (created if missing).
    ///
    /// # Errors
    /// It cannot be opened for writing: the path and why, in words.
    pub(super) fn open(path: &std::path::Path) -> Result<Self, String> {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(Self::new)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))
    }

    /// Appends one message (or, when `line` is not JSON, the text) that went `direction`.
    pub(super) fn entry(&self, direction: &str, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let mut bytes =
            format!("{{\"direction\":\"{direction}\",\"time\":\"{}\",", now()).into_bytes();
        if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok() {
            bytes.extend_from_slice(b"\"message\":");
            bytes.extend_from_slice(line);
        } else {
            let text = serde_json::to_string(&String::from_utf8_lossy(line)).unwrap_or_default();
            bytes.extend_from_slice(b"\"line\":");
            bytes.extend_from_slice(text.as_bytes());
        }
        bytes.extend_from_slice(b"}\n");
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(&bytes);
        }
    }

    /// Notes a line too long to keep.
    pub(super) fn too_long(&self, direction: &str, length: usize) {
        let entry = format!(
            "{{\"direction\":\"{direction}\",\"time\":\"{}\",\"line\":\"(a line of {length} bytes, longer than schema-lint record keeps)\"}}\n",
            now()
        );
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(entry.as_bytes());
        }
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

    #[test]
    fn dates_from_days() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_790), (2026, 12, 3));
        assert_eq!(now().len(), "2026-12-03T08:10:00.000Z".len());
    }
}

//! What a stdio server wrote to its standard error, kept to show when it fails: the last
//! [`LINES`] lines, each cut to its first [`LINE_BYTES`] bytes, so a server that writes without
//! end (or without a newline) costs a bounded amount of memory.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::Mutex;

/// How many lines are kept.
pub const LINES: usize = 10;
/// How much of each line is kept: more than the excerpt shown of it.
pub const LINE_BYTES: usize = 1024;

/// The kept end of a server's standard error.
#[derive(Debug, Default)]
pub struct Tail {
    /// The last complete lines.
    done: VecDeque<Vec<u8>>,
    /// The start of the line being written.
    current: Vec<u8>,
}

impl Tail {
    /// Takes in what the server wrote next.
    pub fn take(&mut self, mut bytes: &[u8]) {
        loop {
            let end = bytes.iter().position(|&b| b == b'\n');
            let piece = &bytes[..end.unwrap_or(bytes.len())];
            let room = LINE_BYTES.saturating_sub(self.current.len());
            self.current
                .extend_from_slice(&piece[..piece.len().min(room)]);
            let Some(end) = end else { return };
            if self.done.len() == LINES {
                self.done.pop_front();
            }
            self.done.push_back(std::mem::take(&mut self.current));
            bytes = &bytes[end + 1..];
        }
    }

    /// The kept lines, the one still being written last, as excerpts; blank lines left out.
    pub fn lines(&self) -> Vec<String> {
        self.done
            .iter()
            .chain(std::iter::once(&self.current))
            .map(|line| super::excerpt(String::from_utf8_lossy(line).trim_end()))
            .filter(|line| !line.is_empty())
            .collect()
    }
}

/// How many of the kept lines a failure quotes.
pub const TOLD: usize = 3;

/// The last [`TOLD`] of `lines` that say something: a traceback's or a stack trace's frames
/// and code excerpts (indented lines, `^~~~` markers, `Traceback (most recent call last):`) are
/// left out, so that what is quoted is the error itself and what the server logged before it.
/// When nothing else is left, the last lines as they are.
#[must_use]
pub fn telling(lines: &[String]) -> Vec<String> {
    let says_something = |line: &&String| {
        !line.starts_with([' ', '\t'])
            && !line.trim().chars().all(|c| matches!(c, '^' | '~' | ' '))
            && line.as_str() != "Traceback (most recent call last):"
    };
    let kept: Vec<&String> = lines.iter().filter(says_something).collect();
    let kept = if kept.is_empty() {
        lines.iter().collect()
    } else {
        kept
    };
    kept[kept.len().saturating_sub(TOLD)..]
        .iter()
        .map(|line| (*line).clone())
        .collect()
}

/// Reads `pipe` to its end into `tail`.
pub fn keep(mut pipe: impl Read, tail: &Mutex<Tail>) {
    let mut buffer = vec![0; 64 << 10];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => return,
            Ok(n) => {
                if let Ok(mut tail) = tail.lock() {
                    tail.take(&buffer[..n]);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_quotes_the_lines_that_say_something() {
        let python: Vec<String> = [
            "INFO starting",
            "Traceback (most recent call last):",
            "  File \"/srv/server.py\", line 3, in <module>",
            "    import nothere",
            "    ^^^^^^^^^^^^^^",
            "ModuleNotFoundError: No module named 'nothere'",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            telling(&python),
            [
                "INFO starting",
                "ModuleNotFoundError: No module named 'nothere'"
            ]
        );
        let node: Vec<String> = [
            "file:///srv/index.js:1",
            "Error: Cannot find module 'x'",
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)",
            "    at Module._load (node:internal/modules/cjs/loader:986:27)",
            "Node.js v22.1.0",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            telling(&node),
            [
                "file:///srv/index.js:1",
                "Error: Cannot find module 'x'",
                "Node.js v22.1.0"
            ]
        );
        // Only frames: the last lines as they are.
        let frames: Vec<String> = ["  a", "  b", "  c", "  d"].map(str::to_owned).to_vec();
        assert_eq!(telling(&frames), ["  b", "  c", "  d"]);
        assert!(telling(&[]).is_empty());
    }

    #[test]
    fn keeps_the_last_lines_and_the_start_of_each() {
        let mut tail = Tail::default();
        for i in 0..100 {
            tail.take(format!("line {i}\n").as_bytes());
        }
        tail.take(b"partial, no new");
        tail.take(b"line yet");
        let lines = tail.lines();
        assert_eq!(lines.len(), LINES + 1);
        assert_eq!(lines[0], "line 90");
        assert_eq!(lines[LINES], "partial, no newline yet");
        // A line without end is kept to its first LINE_BYTES, however much follows.
        let mut tail = Tail::default();
        for _ in 0..1000 {
            tail.take(&[b'x'; 4096]);
        }
        assert_eq!(tail.current.len(), LINE_BYTES);
        tail.take(b"\nnext\r\n\n");
        assert_eq!(tail.lines()[0], format!("{}…", "x".repeat(120)));
        assert_eq!(tail.lines()[1], "next");
        assert_eq!(tail.lines().len(), 2);
    }
}

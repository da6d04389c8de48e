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

//! Server-sent events, as a Streamable HTTP server answers a POST with `text/event-stream`: each
//! event's `data:` lines joined with newlines, dispatched at a blank line; `event:`, `id:` and
//! `retry:` fields and `:` comments are read and dropped (only messages matter here).

use std::io::BufRead;

/// Reads events from `reader` and hands each event's data to `on_event` until it returns
/// `Some`, the stream ends, or an event grows past `limit` bytes.
///
/// # Errors
/// A read error, or an event larger than `limit`, as a one-line reason.
pub fn read_events<R: BufRead, T>(
    mut reader: R,
    limit: usize,
    mut on_event: impl FnMut(&str) -> Option<T>,
) -> Result<Option<T>, String> {
    let mut data = String::new();
    let mut has_data = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = read_line(&mut reader, &mut line, limit)?;
        if read == 0 {
            // A last event without its blank line is still an event.
            return Ok(if has_data { on_event(&data) } else { None });
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if text.is_empty() {
            if has_data {
                if let Some(found) = on_event(&data) {
                    return Ok(Some(found));
                }
            }
            data.clear();
            has_data = false;
            continue;
        }
        if text.starts_with(':') {
            continue;
        }
        let (field, value) = match text.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (text, ""),
        };
        if field == "data" {
            if has_data {
                data.push('\n');
            }
            data.push_str(value);
            has_data = true;
            if data.len() > limit {
                return Err(format!(
                    "an event of the answer is larger than {} MiB",
                    limit >> 20
                ));
            }
        }
    }
}

/// Reads one line (through `\n`) into `line`, refusing lines over `limit` bytes.
fn read_line<R: BufRead>(
    reader: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> Result<usize, String> {
    loop {
        let buf = reader
            .fill_buf()
            .map_err(|e| format!("the answer could not be read: {e}"))?;
        if buf.is_empty() {
            return Ok(line.len());
        }
        let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..taken]);
        reader.consume(taken);
        if line.len() > limit {
            return Err(format!(
                "a line of the answer is larger than {} MiB",
                limit >> 20
            ));
        }
        if done {
            return Ok(line.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut seen = Vec::new();
        let last: Option<()> = read_events(text.as_bytes(), 1 << 20, |d| {
            seen.push(d.to_owned());
            None
        })
        .unwrap();
        assert!(last.is_none());
        seen
    }

    #[test]
    fn events_are_data_lines_joined_and_dispatched_at_a_blank_line() {
        let stream = ": a comment\nevent: message\nid: 7\ndata: {\"a\":\ndata:1}\n\nretry: 10\n\ndata: two\r\n\r\ndata:last";
        assert_eq!(all(stream), ["{\"a\":\n1}", "two", "last"]);
    }

    #[test]
    fn stops_at_the_event_the_caller_wants() {
        let found = read_events(
            "data: 1\n\ndata: 2\n\ndata: 3\n\n".as_bytes(),
            1 << 20,
            |d| (d == "2").then(|| d.to_owned()),
        )
        .unwrap();
        assert_eq!(found.as_deref(), Some("2"));
    }

    #[test]
    fn a_huge_event_is_refused() {
        let big = format!("data: {}\n\n", "x".repeat(5000));
        let err = read_events(big.as_bytes(), 1024, |_| Some(())).unwrap_err();
        assert!(err.contains("larger than"), "{err}");
        let lines = format!("{}\n\n", "data: xx\n".repeat(1000));
        assert!(read_events(lines.as_bytes(), 1024, |_| Some(())).is_err());
    }
}

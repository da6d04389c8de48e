//! Standard input and output, framed as the protocol frames messages (`Content-Length` headers,
//! then a JSON-RPC body). `lsp_server`'s own stdio transport ends at the first body that is not
//! a JSON-RPC message; this one answers such a body with a JSON-RPC error (`-32700` for text
//! that is not JSON, `-32600` for JSON that is not a message) and reads on, so that no message
//! can stop the server. Only the end of standard input (or `exit`) does, or a header line
//! longer than [`MAX_HEADER_LINE`]: no frame can be found after it, so the server says so and
//! stops rather than hold the line in memory.

use crate::syntax::read::read_line_bounded;
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The largest body read; a larger one is skipped and answered with an error.
const MAX_BODY: usize = 256 << 20;

/// The longest header line read (`Content-Length: 123\r\n` takes a few dozen bytes).
pub(crate) const MAX_HEADER_LINE: usize = 8 << 10;

/// The threads that read and write standard input and output.
pub(crate) struct Io {
    writer: Option<JoinHandle<()>>,
    /// Why the reader stopped before the end of the input, if it did.
    failure: Arc<Mutex<Option<String>>>,
}

impl Io {
    /// Waits until every message sent is written (the server's end of the connection must be
    /// dropped first), and says why the reader stopped reading early, if it did. The reader is
    /// not waited for: it may be blocked on standard input.
    pub(crate) fn join(self) -> Option<String> {
        if let Some(writer) = self.writer {
            let _ = writer.join();
        }
        self.failure.lock().ok()?.take()
    }
}

/// The server's end of a connection over standard input and output.
pub(crate) fn stdio() -> (Connection, Io) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let writer = std::thread::Builder::new()
        .name("schema-lint-lsp-writer".to_owned())
        .spawn(move || {
            for message in receiver {
                // One lock per message: a frame is never cut by another thread's.
                let mut out = io::stdout().lock();
                if message.write(&mut out).is_err() {
                    break;
                }
            }
        });
    let failure = Arc::new(Mutex::new(None));
    let failed = Arc::clone(&failure);
    let reader = std::thread::Builder::new()
        .name("schema-lint-lsp-reader".to_owned())
        .spawn(move || {
            let mut input = io::stdin().lock();
            loop {
                let message = match read_frame(&mut input) {
                    Ok(Frame::Body(body)) => match decode(&body) {
                        Ok(message) => message,
                        Err(reply) => {
                            write_raw(&reply);
                            continue;
                        }
                    },
                    Ok(Frame::Malformed(why)) => {
                        write_raw(&error_reply(&serde_json::Value::Null, -32700, &why));
                        continue;
                    }
                    Ok(Frame::End) => break,
                    Err(e) => {
                        if e.kind() == io::ErrorKind::InvalidData {
                            if let Ok(mut slot) = failed.lock() {
                                *slot = Some(format!(
                                    "the client sent {e}; the server stopped reading"
                                ));
                            }
                        }
                        break;
                    }
                };
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if sender.send(message).is_err() || exit {
                    break;
                }
            }
        });
    // A reader that could not start drops its sender: the server sees the connection closed.
    drop(reader);
    (
        server,
        Io {
            writer: writer.ok(),
            failure,
        },
    )
}

/// What one frame of input held.
#[derive(Debug)]
pub(crate) enum Frame {
    /// A body of `Content-Length` bytes.
    Body(Vec<u8>),
    /// Headers without a usable `Content-Length`, or a body too large (it was skipped).
    Malformed(String),
    /// The end of the input.
    End,
}

/// Reads the next frame: header lines up to an empty one, then the body.
///
/// # Errors
/// A read error, or (`InvalidData`) a header line longer than [`MAX_HEADER_LINE`].
pub(crate) fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut headers = 0;
    let mut line = Vec::new();
    loop {
        let read = read_line_bounded(input, &mut line, MAX_HEADER_LINE).map_err(|e| {
            if e.kind() == io::ErrorKind::InvalidData {
                io::Error::new(
                    e.kind(),
                    format!("a header line longer than {} KiB", MAX_HEADER_LINE >> 10),
                )
            } else {
                e
            }
        })?;
        if read == 0 {
            return Ok(Frame::End);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if headers == 0 {
                continue;
            }
            break;
        }
        headers += 1;
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length =
                    Some(value.trim().parse::<usize>().map_err(|_| {
                        format!("malformed header: Content-Length `{}`", value.trim())
                    }));
            }
        }
    }
    let length = match length {
        Some(Ok(length)) => length,
        Some(Err(why)) => return Ok(Frame::Malformed(why)),
        None => {
            return Ok(Frame::Malformed(
                "a message without Content-Length".to_owned(),
            ))
        }
    };
    if length > MAX_BODY {
        io::copy(&mut input.take(length as u64), &mut io::sink())?;
        return Ok(Frame::Malformed(format!(
            "a message of {length} bytes, over the {MAX_BODY} the server reads"
        )));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Frame::Body(body))
}

/// A body as a message, or the error reply it gets.
pub(crate) fn decode(body: &[u8]) -> Result<Message, String> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        error_reply(
            &serde_json::Value::Null,
            -32700,
            &format!("the message is not JSON: {e}"),
        )
    })?;
    let id = value
        .get("id")
        .filter(|id| id.is_number() || id.is_string())
        .cloned()
        .unwrap_or_default();
    serde_json::from_value(value).map_err(|e| {
        error_reply(
            &id,
            -32600,
            &format!("the message is not a JSON-RPC request, response or notification: {e}"),
        )
    })
}

fn error_reply(id: &serde_json::Value, code: i32, message: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    })
    .to_string()
}

fn write_raw(body: &str) {
    let mut out = io::stdout().lock();
    let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len());
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<String> {
        let mut input = io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            match read_frame(&mut input).unwrap() {
                Frame::Body(b) => out.push(String::from_utf8(b).unwrap()),
                Frame::Malformed(why) => out.push(format!("! {why}")),
                Frame::End => return out,
            }
        }
    }

    #[test]
    fn frames_are_read_and_bad_headers_skipped() {
        let got = frames(
            "Content-Length: 2\r\n\r\n{}\
             Content-Type: x\r\n\r\n\
             Content-Length: nope\r\n\r\n\
             content-length: 4\r\nContent-Type: y\r\n\r\nnull",
        );
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0], "{}");
        assert!(got[1].starts_with("! a message without"));
        assert!(got[2].contains("nope"));
        assert_eq!(got[3], "null");
    }

    #[test]
    fn bodies_that_are_not_messages_get_error_replies() {
        let not_json = decode(b"{oops").unwrap_err();
        assert!(not_json.contains("-32700") && not_json.contains("\"id\":null"));
        let not_rpc = decode(br#"{"id": 7, "method": 3}"#).unwrap_err();
        assert!(not_rpc.contains("-32600") && not_rpc.contains("\"id\":7"));
        assert!(matches!(
            decode(br#"{"jsonrpc": "2.0", "method": "initialized", "params": {}}"#),
            Ok(Message::Notification(_))
        ));
    }
}

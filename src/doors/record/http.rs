//! `schema-lint record --listen 127.0.0.1:PORT --upstream URL --output FILE`: the Streamable HTTP
//! form of the recording proxy. A host is pointed at `http://127.0.0.1:PORT/` instead of the
//! server's URL; each request is forwarded to `URL` (method, body and end-to-end headers, the
//! session and protocol headers among them), and the answer comes back as the server sent it:
//! status, headers, and a body passed on chunk by chunk as it arrives, so an event stream reaches
//! the host event by event. Every JSON-RPC message is appended to the capture ([`super::log`]):
//! request bodies as `to-server`, JSON answers and each event of a stream as `to-client`.
//!
//! What one connection holds is bounded: a request body, a JSON answer and each event of a
//! stream at most [`MAX_LINE`] (64 MiB, as a message of the stdio proxy; a longer one is passed
//! on, and the capture says how long it was). At most [`MAX_CONNECTIONS`] connections are served
//! at once, a thread each; one more is answered `503` at once and closed.
//!
//! A write of the capture that fails, or the capture reaching `--max-size`, is said on standard
//! error at once ([`super::log`]); the proxy goes on forwarding until it is stopped.
//!
//! Only loopback addresses are listened on, and only the upstream URL is contacted (redirects
//! are passed back to the host, not followed). One connection carries one request
//! (`Connection: close`).

use super::log::{Log, MAX_LINE};
use super::{exit, Options, Outcome};
use crate::workspace::live::forward;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Headers that belong to one connection, not to the exchange: never forwarded.
const HOP_BY_HOP: [&str; 10] = [
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
];

/// The most header bytes of one request.
const MAX_HEAD: usize = 64 << 10;

/// The most connections served at once (a thread each): a host opens a few.
pub(super) const MAX_CONNECTIONS: usize = 64;

/// A connection being served: counted until it drops.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A slot, unless [`MAX_CONNECTIONS`] are taken.
    fn take(open: &Arc<AtomicUsize>) -> Option<Slot> {
        open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_CONNECTIONS).then_some(n + 1)
        })
        .ok()
        .map(|_| Slot(Arc::clone(open)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Turns a connection away: `503`, without reading it (a write that cannot block for long).
fn refuse(mut stream: TcpStream, why: &str) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = plain(&mut stream, 503, why);
}

/// `schema-lint record --listen`.
#[must_use]
pub fn record_http(args: &Options, listen: &str) -> Outcome {
    let error = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
    };
    let Some(upstream) = args.upstream.clone() else {
        return error("`--listen` forwards to the server at `--upstream URL`".to_owned());
    };
    if let Err(why) = crate::workspace::live::Server::url(&upstream, &[]) {
        return error(why);
    }
    let address: SocketAddr = match listen.parse() {
        Ok(a) => a,
        Err(_) => {
            return error(format!(
                "`--listen {listen}` is not an address and port such as 127.0.0.1:8765"
            ))
        }
    };
    if !address.ip().is_loopback() {
        return error(format!(
            "`--listen {listen}`: the proxy listens on loopback only (127.0.0.1, ::1)"
        ));
    }
    let log = match Log::open(&args.output, args.max_size) {
        Ok(log) => Arc::new(log),
        Err(why) => return error(why),
    };
    let listener = match TcpListener::bind(address) {
        Ok(l) => l,
        Err(e) => return error(format!("`--listen {listen}`: {e}")),
    };
    let bound = listener.local_addr().map_or(address, |a| a);
    eprintln!(
        "schema-lint record: listening on http://{bound}/, forwarding to {upstream}, appending to {}",
        args.output.display()
    );
    super::survive_file_limit();
    few_arenas();
    let agent = forward::Client::default();
    let upstream = Arc::new(upstream);
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let Some(slot) = Slot::take(&open) else {
            refuse(
                stream,
                "schema-lint record: too many connections at once; try again",
            );
            continue;
        };
        let (log, agent, upstream) = (Arc::clone(&log), agent.clone(), Arc::clone(&upstream));
        let Ok(spare) = stream.try_clone() else {
            continue;
        };
        let spawned = std::thread::Builder::new().spawn(move || {
            let _slot = slot;
            let _ = serve(stream, &agent, &upstream, &log);
        });
        if spawned.is_err() {
            refuse(
                spare,
                "schema-lint record: no thread for the connection; try again",
            );
        }
    }
    Outcome::default()
}

/// Caps glibc's malloc arenas at two. Each thread that allocates may get an arena of its own,
/// 64 MiB of address space each (up to eight per core): with [`MAX_CONNECTIONS`] threads that is
/// a gigabyte reserved for nothing, and under an address-space limit (`ulimit -v`) an allocation
/// fails and the proxy aborts while its connections are busy.
fn few_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets a tunable of the allocator; called before the connection threads.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// A request as the host sent it.
struct Request {
    method: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Reads one request: the request line, the headers, a body of `Content-Length` bytes.
fn read_request(reader: &mut impl BufRead) -> Result<Request, (u16, &'static str)> {
    let mut head = 0usize;
    let mut line = String::new();
    let mut next_line = |line: &mut String| -> Result<(), (u16, &'static str)> {
        line.clear();
        let n = reader
            .take((MAX_HEAD - head.min(MAX_HEAD)) as u64)
            .read_line(line)
            .map_err(|_| (400, "unreadable request"))?;
        head += n;
        if n == 0 || head >= MAX_HEAD {
            return Err((400, "the request ended early or its head is too long"));
        }
        Ok(())
    };
    next_line(&mut line)?;
    let method = line
        .split_whitespace()
        .next()
        .ok_or((400, "no request line"))?
        .to_owned();
    let mut headers = Vec::new();
    loop {
        next_line(&mut line)?;
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed
            .split_once(':')
            .ok_or((400, "a header line without `:`"))?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    if header("transfer-encoding").is_some() {
        return Err((
            411,
            "a chunked request body is not supported: send Content-Length",
        ));
    }
    let length: usize = match header("content-length") {
        Some(v) => v
            .parse()
            .map_err(|_| (400, "a Content-Length that is not a number"))?,
        None => 0,
    };
    if length > MAX_LINE {
        return Err((413, "the request body is over 64 MiB"));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|_| (400, "the request body ended early"))?;
    Ok(Request {
        method,
        headers,
        body,
    })
}

fn plain(stream: &mut TcpStream, status: u16, text: &str) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status} {}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        reason(status),
        text.len()
    )?;
    stream.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Content Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// One connection: one request forwarded, its answer passed back and logged.
fn serve(
    stream: TcpStream,
    agent: &forward::Client,
    upstream: &str,
    log: &Log,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let request = match read_request(&mut reader) {
        Ok(r) => r,
        Err((status, why)) => return plain(&mut out, status, why),
    };
    if !request.body.is_empty() {
        log_body(log, "to-server", &request.body);
    }
    let forwarded: Vec<(String, String)> = request
        .headers
        .iter()
        .filter(|(n, _)| !HOP_BY_HOP.contains(&n.to_ascii_lowercase().as_str()))
        .cloned()
        .collect();
    if !matches!(request.method.as_str(), "POST" | "GET" | "DELETE") {
        return plain(&mut out, 405, "MCP over HTTP uses POST, GET and DELETE");
    }
    let mut response =
        match forward::forward(agent, &request.method, upstream, &forwarded, &request.body) {
            Ok(r) => r,
            Err(e) => return plain(&mut out, 502, &format!("the upstream server: {e}")),
        };
    let mut head = format!("HTTP/1.1 {} {}\r\n", response.status, response.reason);
    let mut event_stream = false;
    for (name, value) in &response.headers {
        let lower = name.to_ascii_lowercase();
        if HOP_BY_HOP.contains(&lower.as_str()) {
            continue;
        }
        if lower == "content-type" && value.to_ascii_lowercase().starts_with("text/event-stream") {
            event_stream = true;
        }
        let _ = write!(head, "{name}: {value}\r\n");
    }
    head.push_str("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    out.write_all(head.as_bytes())?;
    out.flush()?;
    let body = &mut response.body;
    let mut tee = Tee::new(event_stream);
    let mut chunk = vec![0u8; 16 << 10];
    loop {
        let n = match body.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // Logged before it is passed on, so that the capture keeps the traffic's order.
        tee.feed(&chunk[..n], log);
        write!(out, "{n:x}\r\n")?;
        out.write_all(&chunk[..n])?;
        out.write_all(b"\r\n")?;
        out.flush()?;
    }
    tee.finish(log);
    out.write_all(b"0\r\n\r\n")?;
    out.flush()?;
    Ok(())
}

/// Logs a body on one line: its bytes as they are, but for each line break, which becomes a
/// space (in JSON a raw line break can only be whitespace, so a message keeps its numbers, its
/// keys' order and every other byte).
fn log_body(log: &Log, direction: &str, body: &[u8]) {
    let body = body.trim_ascii();
    if body.contains(&b'\n') || body.contains(&b'\r') {
        let line: Vec<u8> = body
            .iter()
            .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
            .collect();
        log.entry(direction, &line);
        return;
    }
    log.entry(direction, body);
}

/// What an answer's body holds for the capture: a JSON body (logged whole at its end) or an
/// event stream (each event's data logged as the event ends).
struct Tee {
    event_stream: bool,
    pending: Vec<u8>,
    data: Vec<u8>,
    /// The bytes of the event's data so far, once it is over [`MAX_LINE`] (then not kept).
    event_over: usize,
    over: bool,
}

impl Tee {
    fn new(event_stream: bool) -> Self {
        Self {
            event_stream,
            pending: Vec::new(),
            data: Vec::new(),
            event_over: 0,
            over: false,
        }
    }

    fn feed(&mut self, bytes: &[u8], log: &Log) {
        if self.over {
            return;
        }
        self.pending.extend_from_slice(bytes);
        if self.pending.len() > MAX_LINE {
            self.over = true;
            log.too_long("to-client", self.pending.len());
            self.pending = Vec::new();
            return;
        }
        if !self.event_stream {
            return;
        }
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = line.strip_suffix(b"\n").unwrap_or(&line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                self.dispatch(log);
            } else if let Some(data) = line.strip_prefix(b"data:") {
                let data = data.strip_prefix(b" ").unwrap_or(data);
                if self.event_over > 0 || self.data.len() + 1 + data.len() > MAX_LINE {
                    // An event past the cap (an upstream that never ends it): counted, not held.
                    self.event_over = self.event_over.max(self.data.len()) + 1 + data.len();
                    self.data = Vec::new();
                    continue;
                }
                if !self.data.is_empty() {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(data);
            }
        }
    }

    /// An event ended: its data, when it has some, is a message.
    fn dispatch(&mut self, log: &Log) {
        if self.event_over > 0 {
            log.too_long("to-client", std::mem::take(&mut self.event_over));
        } else if !self.data.is_empty() {
            let data = std::mem::take(&mut self.data);
            log_body(log, "to-client", &data);
        }
    }

    fn finish(mut self, log: &Log) {
        if self.over {
            return;
        }
        if self.event_stream {
            self.dispatch(log);
        } else if !self.pending.trim_ascii().is_empty() {
            log_body(log, "to-client", &self.pending);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_with_their_body_and_bad_ones_refused() {
        let text = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}";
        let r = read_request(&mut &text[..]).unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.body, b"{\"a\":1}");
        assert_eq!(r.headers.len(), 3);
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert_eq!(
            read_request(&mut &chunked[..]).err().map(|e| e.0),
            Some(411)
        );
        let short = b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n{}";
        assert_eq!(read_request(&mut &short[..]).err().map(|e| e.0), Some(400));
        let endless = vec![b'a'; MAX_HEAD + 10];
        assert_eq!(
            read_request(&mut &endless[..]).err().map(|e| e.0),
            Some(400)
        );
    }

    #[test]
    fn each_event_of_a_stream_is_one_entry() {
        let path = std::env::temp_dir().join(format!("sl-tee-{}.jsonl", std::process::id()));
        let log = Log::new(&path, std::fs::File::create(&path).unwrap(), u64::MAX).unwrap();
        let mut tee = Tee::new(true);
        let stream = b": keep-alive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\nid: 2\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\"result\":{}}\r\n\r\n";
        for piece in stream.chunks(5) {
            tee.feed(piece, &log);
        }
        tee.finish(&log);
        let mut json = Tee::new(false);
        json.feed(b"{\"jsonrpc\": \"2.0\",\n \"id\": 2, ", &log);
        json.feed(b"\"result\": {}}", &log);
        json.finish(&log);
        let text = std::fs::read_to_string(&path).unwrap();
        let entries: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(entries.len(), 3, "{text}");
        assert_eq!(entries[0]["message"]["method"], "n");
        assert_eq!(entries[1]["message"]["id"], 1);
        assert_eq!(entries[2]["message"]["id"], 2);
        assert!(entries.iter().all(|e| e["direction"] == "to-client"));
        std::fs::remove_file(&path).unwrap();
    }
}

//! `schema-lint record --output FILE -- CMD ARGS...`: a stdio proxy to put in a host's server
//! configuration in place of the server's command. It starts the server, forwards every byte in
//! both directions unchanged and in order (its standard error passes through untouched), and
//! appends each line (MCP's stdio transport is newline-delimited JSON) to FILE as it goes by:
//! `{"direction": "to-server" | "to-client", "time": "<RFC 3339, UTC>", "message": <the line,
//! byte for byte>}` (bytes that are not UTF-8 aside: see [`log`]), the logger form
//! `audit` unwraps. A line that is not JSON is kept as `"line": "<text>"`, which `audit` reports
//! as skipped.
//!
//! Every write to the capture is checked ([`log`]): when one fails, or the capture reaches
//! `--max-size`, standard error says so at once, the traffic goes on passing, and the proxy
//! exits with status 2.
//!
//! The server's exit status is the proxy's (but for a capture that failed); a signal that ends
//! the server ends the proxy the same way. `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, `SIGUSR1`
//! and `SIGUSR2` sent to the proxy are passed on to the server's process group. The server never
//! outlives the proxy: it runs in a group of its own that is killed when the proxy ends, and on
//! Linux it is killed with the proxy even by `SIGKILL` (`workspace::live::children`).

#[cfg(feature = "http")]
pub mod http;
pub mod log;

/// What `schema-lint record` is told (its command line, parsed by `cli`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The capture file (`--output`).
    pub output: std::path::PathBuf,
    /// The server's command line (stdio).
    pub command: Vec<String>,
    /// The upstream Streamable HTTP URL (`--upstream`, with `--listen`).
    pub upstream: Option<String>,
    /// The capture's size cap, in MiB (`--max-size`).
    pub max_size: u64,
}

/// How a recording ended: what to say on standard error, and the exit status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// What goes to standard error.
    pub stderr: String,
    /// The exit status: the server's own (stdio), 2 when the capture could not be written.
    pub code: u8,
}

/// Exit statuses of a recording that are its own.
mod exit {
    /// The capture could not be written, or the server not started.
    pub const ERROR: u8 = 2;
}

use crate::workspace::live::children;
use log::{Log, MAX_LINE};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The server's process group, for the signal handler (0: none yet).
static GROUP: AtomicI32 = AtomicI32::new(0);

extern "C" fn pass_on(signal: libc::c_int) {
    let group = GROUP.load(Ordering::SeqCst);
    if group > 0 {
        // SAFETY: kill(2) is async-signal-safe; the group is the server's.
        unsafe {
            libc::kill(-group, signal);
        }
    }
}

const PASSED_ON: [libc::c_int; 6] = [
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
];

/// For `SIGXFSZ`: a write past `ulimit -f` then fails with `EFBIG`, said like any failed write
/// of the capture, instead of killing the proxy. (A handler, not `SIG_IGN`: the server started
/// after it gets the default back.)
extern "C" fn write_fails(_: libc::c_int) {}

/// Makes a write past `ulimit -f` fail (`EFBIG`) instead of killing the proxy.
pub(super) fn survive_file_limit() {
    // SAFETY: the handler does nothing.
    unsafe {
        libc::signal(
            libc::SIGXFSZ,
            write_fails as *const () as libc::sighandler_t,
        );
    }
}

fn install_handlers() {
    survive_file_limit();
    for signal in PASSED_ON {
        // SAFETY: the handler only reads an atomic and calls kill(2).
        unsafe {
            libc::signal(signal, pass_on as *const () as libc::sighandler_t);
        }
    }
}

/// Copies `from` to `to` as it comes, chunk by chunk, and logs each line. Returns when `from`
/// ends or `to` refuses a write (then `Err`).
fn pump(
    mut from: impl Read,
    mut to: impl Write,
    log: &Log,
    direction: &str,
) -> std::io::Result<()> {
    let mut chunk = vec![0u8; 64 << 10];
    let mut line: Vec<u8> = Vec::new();
    let mut skipped = 0usize;
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // The lines this chunk completes are logged before it is passed on: the peer cannot
        // answer a message before its end arrives, so the capture keeps the traffic's order.
        let mut rest = &chunk[..n];
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            if skipped > 0 {
                log.too_long(direction, skipped + end);
                skipped = 0;
            } else {
                line.extend_from_slice(&rest[..end]);
                log.entry(direction, &line);
            }
            line.clear();
            rest = &rest[end + 1..];
        }
        if skipped > 0 || line.len() + rest.len() > MAX_LINE {
            skipped += line.len() + rest.len();
            line.clear();
        } else {
            line.extend_from_slice(rest);
        }
        to.write_all(&chunk[..n])?;
        to.flush()?;
    }
    if skipped > 0 {
        log.too_long(direction, skipped);
    } else {
        log.entry(direction, &line);
    }
    Ok(())
}

/// `schema-lint record`.
#[must_use]
pub fn record(args: &Options) -> Outcome {
    let error = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
    };
    let log = match Log::open(&args.output, args.max_size) {
        Ok(log) => Arc::new(log),
        Err(why) => return error(why),
    };
    let (up, down) = (Arc::clone(&log), Arc::clone(&log));
    let status = between(
        "record",
        &args.command,
        // Our input ended (the host closed it), or the server stopped reading: either way the
        // server's input is closed when `server_in` drops.
        move |server_in| {
            let _ = pump(std::io::stdin(), server_in, &up, "to-server");
        },
        move |server_out| pump(server_out, std::io::stdout(), &down, "to-client"),
    );
    if let Some(why) = log.failure() {
        return error(why);
    }
    match status {
        Ok(status) => pass_status(status),
        Err(why) => error(why),
    }
}

/// Starts the server `command` in a process group of its own and stands between it and this
/// process's standard input and output, for the door `door` (`record`, `proxy`): `up` copies the
/// host's lines to the server's input, `down` the server's output to the host, each on a thread
/// of its own (`down` failing means the host is gone: the server is asked to stop). Returns when
/// the server has exited and what it wrote is passed on (2 s at most, should something it started
/// keep its output open), its group killed and reaped.
///
/// # Errors
/// No command, a server that cannot be started or waited for: why, in one sentence.
pub(crate) fn between(
    door: &str,
    command: &[String],
    up: impl FnOnce(std::process::ChildStdin) + Send + 'static,
    down: impl FnOnce(std::process::ChildStdout) -> std::io::Result<()> + Send + 'static,
) -> Result<std::process::ExitStatus, String> {
    let Some((program, arguments)) = command.split_first() else {
        return Err(format!(
            "`{door}` needs the server's command line after `--`"
        ));
    };
    let mut command = Command::new(program);
    command
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    children::own_group(&mut command);
    install_handlers();
    let mut child = command
        .spawn()
        .map_err(|e| format!("`{program}` could not be started: {e}"))?;
    let group = child.id();
    GROUP.store(i32::try_from(group).unwrap_or(0), Ordering::SeqCst);
    let watchdog = children::Watchdog::start(group);
    let (Some(server_in), Some(server_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("the server's standard input and output could not be opened".to_owned());
    };
    let to_server = std::thread::spawn(move || up(server_in));
    let to_client = std::thread::spawn(move || {
        if down(server_out).is_err() {
            // The host is gone: nobody reads the server any more.
            children::signal_group(group, libc::SIGTERM);
        }
    });
    let status = child.wait();
    // What the server wrote before it exited is still forwarded, unless something it started
    // keeps its output open.
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    while !to_client.is_finished() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    children::signal_group(group, libc::SIGKILL);
    children::reap_group(group);
    if let Some(w) = watchdog {
        w.disarm();
    }
    drop(to_server);
    let _ = std::io::stdout().flush();
    status.map_err(|e| format!("waiting for `{program}` failed: {e}"))
}

/// Ends this process as the server ended: with its code, or by its signal.
pub(crate) fn pass_status(status: std::process::ExitStatus) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        // SAFETY: back to the default action for that signal, then raise it on this process.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
        // A signal whose default is not to end the process: say so the shell way.
        return Outcome {
            code: u8::try_from(128 + signal).unwrap_or(exit::ERROR),
            ..Outcome::default()
        };
    }
    Outcome {
        code: status
            .code()
            .and_then(|c| u8::try_from(c).ok())
            .unwrap_or(exit::ERROR),
        ..Outcome::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    #[test]
    fn lines_are_logged_whole_as_messages_or_text_and_bytes_pass_unchanged() {
        let path = std::env::temp_dir().join(format!("sl-record-{}.jsonl", std::process::id()));
        let log = Log::new(&path, File::create(&path).unwrap(), u64::MAX).unwrap();
        let input: &[u8] =
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\nnot json\n{\"a\": [1,\n2]}";
        let mut out = Vec::new();
        // One byte at a time: lines split across reads are logged whole.
        let trickle = std::io::Read::chain(&input[..10], &input[10..]);
        pump(trickle, &mut out, &log, "to-server").unwrap();
        assert_eq!(out, input);
        let text = std::fs::read_to_string(&path).unwrap();
        let entries: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(entries.len(), 4, "{text}");
        assert_eq!(entries[0]["message"]["method"], "ping");
        assert_eq!(entries[0]["direction"], "to-server");
        assert!(text
            .lines()
            .next()
            .unwrap()
            .ends_with(",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}"));
        assert_eq!(entries[1]["line"], "not json");
        assert_eq!(entries[2]["line"], "{\"a\": [1,");
        assert_eq!(entries[3]["line"], "2]}");
        std::fs::remove_file(&path).unwrap();
    }
}

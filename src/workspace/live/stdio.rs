//! MCP over stdio: the server is a child process started without a shell, in a process group of
//! its own ([`super::children`]); messages are JSON-RPC, one per line, on its standard input and
//! output. Every write and read waits at most until the deadline: a thread writes to its input
//! (a server that stops reading fills the pipe, and the write would block), another reads its
//! output. Its standard error is kept (the last lines, each bounded) to show when it fails. It is
//! stopped by closing its input, then `SIGTERM`, then `SIGKILL`, and what is left of its group
//! after it exits is stopped the same way.

use super::children::{self, Watchdog};
use super::stderr::Tail;
use super::{Failure, Transport, MAX_MESSAGE};
use crate::syntax::message::{parse_message, MessageError};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a server may take to exit after each step of stopping it.
const GRACE: Duration = Duration::from_millis(1500);
/// The stack of the thread that parses the server's output: messages nest as deep as files
/// may ([`crate::syntax::message`]).
const READER_STACK: usize = 16 << 20;

/// What the thread reading the server's standard output hands over.
enum Line {
    /// A message, its line number and its bytes (without the line break).
    Message(Value, usize, Vec<u8>),
    NotJson(String, usize, Vec<u8>),
    TooDeep(usize),
    TooLong(usize),
    Closed,
}

/// The thread that writes to the server's standard input: each line sent is written whole, and
/// the outcome handed back, so that the caller waits only until its deadline. Dropping the
/// queue closes the server's input once the writes before are done.
struct Writer {
    queue: Option<Sender<Vec<u8>>>,
    done: Receiver<std::io::Result<()>>,
}

impl Writer {
    fn start(mut stdin: ChildStdin) -> Self {
        let (queue, lines) = mpsc::channel::<Vec<u8>>();
        let (report, done) = mpsc::channel();
        std::thread::spawn(move || {
            for line in lines {
                let written = stdin.write_all(&line).and_then(|()| stdin.flush());
                let failed = written.is_err();
                if report.send(written).is_err() || failed {
                    return;
                }
            }
        });
        Self {
            queue: Some(queue),
            done,
        }
    }
}

/// A running server on stdio.
pub struct StdioServer {
    child: Child,
    /// Its process group (its pid).
    group: u32,
    writer: Writer,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<Tail>>,
    watchdog: Option<Watchdog>,
    /// The bytes of the messages read so far.
    received: usize,
    /// Whether a failure was already reported (the server is not read from again).
    stopped: bool,
    /// The messages both ways, when kept.
    tape: super::Tape,
}

impl StdioServer {
    /// Starts `argv` with `env` added to the environment.
    ///
    /// # Errors
    /// The command cannot be found or started.
    pub fn start(argv: &[String], env: &[(String, String)]) -> Result<Self, Failure> {
        let Some((program, arguments)) = argv.split_first() else {
            return Err(Failure::broken("the server command line is empty"));
        };
        let mut command = Command::new(program);
        command
            .args(arguments)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        children::own_group(&mut command);
        let mut child = command.spawn().map_err(|e| {
            Failure::broken(match e.kind() {
                std::io::ErrorKind::NotFound => format!("command not found: `{program}`"),
                std::io::ErrorKind::PermissionDenied => {
                    format!("`{program}` cannot be run: permission denied")
                }
                _ => format!("`{program}` could not be started: {e}"),
            })
        })?;
        let group = child.id();
        children::register(group);
        let watchdog = Watchdog::start(group);
        let (stdin, stdout, stderr_pipe) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) = (stdin, stdout, stderr_pipe) else {
            return Err(Failure::broken("the server's pipes could not be opened"));
        };
        let (sender, lines) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .stack_size(READER_STACK)
            .spawn(move || read_stdout(BufReader::new(stdout), &sender));
        let stderr = Arc::new(Mutex::new(Tail::default()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || super::stderr::keep(stderr_pipe, &kept));
        let mut server = Self {
            child,
            group,
            writer: Writer::start(stdin),
            lines,
            stderr,
            watchdog,
            received: 0,
            stopped: false,
            tape: super::Tape::default(),
        };
        if let Err(e) = reader {
            server.close();
            return Err(Failure::broken(format!(
                "the server's output cannot be read: {e}"
            )));
        }
        Ok(server)
    }

    /// The last lines the server wrote to its standard error, as ` (stderr: ...)`, or nothing.
    fn stderr_tail(&self) -> String {
        // Give the stderr thread a moment to catch the last lines of a server that just exited.
        std::thread::sleep(Duration::from_millis(50));
        let lines = self.stderr.lock().map(|k| k.lines()).unwrap_or_default();
        let lines = super::stderr::telling(&lines);
        if lines.is_empty() {
            String::new()
        } else {
            format!("; the end of its stderr: {}", lines.join(" | "))
        }
    }

    /// Why the server stopped answering: its exit status, or still running.
    fn exit_reason(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return match status.code() {
                        Some(code) => format!("the server exited with status {code}"),
                        None => format!("the server was stopped by a signal ({status})"),
                    }
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => return "the server closed its standard output".to_owned(),
            }
        }
    }

    /// Writes `message`, waiting for the write until `deadline`.
    fn write(&mut self, message: &Value, deadline: Instant) -> Result<(), Failure> {
        let mut line = serde_json::to_string(message).unwrap_or_default();
        self.tape.message(line.as_bytes());
        line.push('\n');
        let queued = self
            .writer
            .queue
            .as_ref()
            .is_some_and(|queue| queue.send(line.into_bytes()).is_ok());
        let left = deadline.saturating_duration_since(Instant::now());
        let written = if queued {
            match self.writer.done.recv_timeout(left) {
                Ok(result) => result.is_ok(),
                Err(RecvTimeoutError::Timeout) => return Err(Failure::timeout_writing()),
                Err(RecvTimeoutError::Disconnected) => false,
            }
        } else {
            false
        };
        if !written {
            let why = self.exit_reason();
            return Err(Failure::broken(format!(
                "{why} before it read the request{}",
                self.stderr_tail()
            )));
        }
        Ok(())
    }
}

/// Reads the server's standard output line by line, without holding more than one message.
fn read_stdout(mut reader: BufReader<std::process::ChildStdout>, sender: &mpsc::Sender<Line>) {
    let mut number = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        number += 1;
        let mut too_long = false;
        loop {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(_) => &[],
            };
            if buf.is_empty() {
                break;
            }
            let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if line.len() + taken > MAX_MESSAGE {
                too_long = true;
            } else {
                line.extend_from_slice(&buf[..taken]);
            }
            reader.consume(taken);
            if done {
                break;
            }
        }
        if too_long {
            let _ = sender.send(Line::TooLong(number));
            return;
        }
        if line.is_empty() {
            let _ = sender.send(Line::Closed);
            return;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let message = match parse_message(text) {
            Ok(v) if v.is_object() || v.is_array() => {
                Line::Message(v, number, std::mem::take(&mut line))
            }
            Err(MessageError::TooDeep) => Line::TooDeep(number),
            _ => Line::NotJson(text.to_owned(), number, std::mem::take(&mut line)),
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}

impl Transport for StdioServer {
    fn request(&mut self, message: &Value, deadline: Instant) -> Result<Value, Failure> {
        self.write(message, deadline)?;
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::timeout()),
                Err(RecvTimeoutError::Disconnected) => Line::Closed,
            };
            match line {
                Line::Message(value, number, bytes) => {
                    self.received = self.received.saturating_add(bytes.len());
                    self.tape.message(&bytes);
                    drop(bytes);
                    if super::is_echo(&value, message) {
                        self.stopped = true;
                        return Err(Failure::broken(format!(
                            "the program sent back the `{}` request it was given: a program that \
                             echoes its input (such as `cat`) is not an MCP server",
                            super::excerpt(message["method"].as_str().unwrap_or_default())
                        )));
                    }
                    if let Some(answer) = super::answer_for(&value, &id) {
                        return Ok(answer);
                    }
                    // A request from the server (roots, sampling, ping): answered so it does
                    // not wait for us; notifications (logs, progress) are dropped.
                    if let Some(reply) = super::reply_to_server_request(&value) {
                        self.write(&reply, deadline)?;
                    } else if !super::is_message(&value) {
                        return Err(Failure::broken(format!(
                            "line {number} of the server's standard output is JSON but not a JSON-RPC message: `{}`",
                            super::excerpt(&value.to_string())
                        )));
                    }
                }
                Line::NotJson(text, number, bytes) => {
                    self.tape.message(&bytes);
                    self.stopped = true;
                    return Err(Failure::broken(format!(
                        "line {number} of the server's standard output is not JSON-RPC: `{}` (a server on stdio must log to stderr)",
                        super::excerpt(&text)
                    )));
                }
                Line::TooDeep(number) => {
                    self.stopped = true;
                    return Err(Failure::broken(format!(
                        "line {number} of the server's standard output is {}",
                        MessageError::TooDeep
                    )));
                }
                Line::TooLong(number) => {
                    self.stopped = true;
                    return Err(Failure::broken(format!(
                        "line {number} of the server's standard output is larger than {} MiB",
                        MAX_MESSAGE >> 20
                    )));
                }
                Line::Closed => {
                    self.stopped = true;
                    let why = self.exit_reason();
                    return Err(Failure::broken(format!(
                        "{why} before answering{}",
                        self.stderr_tail()
                    )));
                }
            }
        }
    }

    fn notify(&mut self, message: &Value, deadline: Instant) -> Result<(), Failure> {
        self.write(message, deadline)
    }

    fn received(&self) -> usize {
        self.received
    }

    fn close(&mut self) {
        // Closing its input is how a stdio server is asked to exit (once the writes queued
        // before are done; a server that stopped reading gets the signals below).
        drop(self.writer.queue.take());
        if !wait_for(&mut self.child, GRACE) {
            terminate(self.group);
            if !wait_for(&mut self.child, GRACE) {
                kill(self.group);
                let _ = self.child.kill();
                let _ = self.child.wait();
            }
        }
        // The server is gone; what it started in its group (a wrapper's server, the children
        // it forked) goes too.
        stop_group(self.group);
        children::unregister(self.group);
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.disarm();
        }
    }

    fn keep(&mut self) {
        self.tape.start();
    }

    fn kept(&mut self) -> String {
        self.tape.take()
    }

    fn describe_failure(&mut self) -> String {
        if self.stopped {
            String::new()
        } else {
            self.stderr_tail()
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        if self.writer.queue.is_some() || matches!(self.child.try_wait(), Ok(None)) {
            self.close();
        }
    }
}

/// Whether the child exits within `grace`.
fn wait_for(child: &mut Child, grace: Duration) -> bool {
    let deadline = Instant::now() + grace;
    loop {
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => return true,
            Ok(None) if Instant::now() >= deadline => return false,
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// Asks the server's group to stop (`SIGTERM`; on other systems, the kill that follows does
/// it).
fn terminate(group: u32) {
    #[cfg(unix)]
    children::signal_group(group, libc::SIGTERM);
    #[cfg(not(unix))]
    let _ = group;
}

/// Kills the server's group (on other systems, the kill of the server that follows).
fn kill(group: u32) {
    #[cfg(unix)]
    children::signal_group(group, libc::SIGKILL);
    #[cfg(not(unix))]
    let _ = group;
}

/// Stops what is left of the server's group once the server itself has exited: `SIGTERM`, and
/// `SIGKILL` for what is still there after [`GRACE`].
fn stop_group(group: u32) {
    #[cfg(unix)]
    {
        let alive = || {
            children::reap_group(group);
            children::group_alive(group)
        };
        if !alive() {
            return;
        }
        terminate(group);
        let deadline = Instant::now() + GRACE;
        while alive() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        if alive() {
            kill(group);
            let deadline = Instant::now() + GRACE;
            while alive() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

//! MCP over stdio: the server is a child process started without a shell; messages are JSON-RPC,
//! one per line, on its standard input and output. Its standard error is kept (the last lines) to
//! show when it fails. It is stopped by closing its input, then `SIGTERM`, then `SIGKILL`.

use super::{Failure, Transport, MAX_MESSAGE};
use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many lines of the server's standard error are kept to show.
const STDERR_LINES: usize = 10;
/// How long a server may take to exit after each step of stopping it.
const GRACE: Duration = Duration::from_millis(1500);

/// What the thread reading the server's standard output hands over.
enum Line {
    Message(Value, usize),
    NotJson(String, usize),
    TooLong(usize),
    Closed,
}

/// A running server on stdio.
pub struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Whether a failure was already reported (the server is not read from again).
    stopped: bool,
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
        let mut child = command.spawn().map_err(|e| {
            Failure::broken(match e.kind() {
                std::io::ErrorKind::NotFound => format!("command not found: `{program}`"),
                std::io::ErrorKind::PermissionDenied => {
                    format!("`{program}` cannot be run: permission denied")
                }
                _ => format!("`{program}` could not be started: {e}"),
            })
        })?;
        super::children::register(child.id());
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || read_stdout(BufReader::new(stdout), &sender));
        }
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(pipe) = stderr_pipe {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).split(b'\n').map_while(Result::ok) {
                    let text = super::excerpt(String::from_utf8_lossy(&line).trim_end());
                    if let Ok(mut kept) = kept.lock() {
                        if kept.len() == STDERR_LINES {
                            kept.pop_front();
                        }
                        kept.push_back(text);
                    }
                }
            });
        }
        Ok(Self {
            child,
            stdin,
            lines,
            stderr,
            stopped: false,
        })
    }

    /// The last lines the server wrote to its standard error, as ` (stderr: ...)`, or nothing.
    fn stderr_tail(&self) -> String {
        // Give the stderr thread a moment to catch the last lines of a server that just exited.
        std::thread::sleep(Duration::from_millis(50));
        let kept = self.stderr.lock().map(|k| k.clone()).unwrap_or_default();
        let lines: Vec<&str> = kept
            .iter()
            .map(String::as_str)
            .filter(|l| !l.is_empty())
            .collect();
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

    fn write(&mut self, message: &Value) -> Result<(), Failure> {
        let mut line = serde_json::to_string(message).unwrap_or_default();
        line.push('\n');
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
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
        let message = match serde_json::from_str::<Value>(text) {
            Ok(v) if v.is_object() || v.is_array() => Line::Message(v, number),
            _ => Line::NotJson(text.to_owned(), number),
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}

impl Transport for StdioServer {
    fn request(&mut self, message: &Value, deadline: Instant) -> Result<Value, Failure> {
        self.write(message)?;
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::timeout()),
                Err(RecvTimeoutError::Disconnected) => Line::Closed,
            };
            match line {
                Line::Message(value, number) => {
                    if let Some(answer) = super::answer_for(&value, &id) {
                        return Ok(answer);
                    }
                    // A request from the server (roots, sampling, ping): answered so it does
                    // not wait for us; notifications (logs, progress) are dropped.
                    if let Some(reply) = super::reply_to_server_request(&value) {
                        self.write(&reply)?;
                    } else if !super::is_message(&value) {
                        return Err(Failure::broken(format!(
                            "line {number} of the server's standard output is JSON but not a JSON-RPC message: `{}`",
                            super::excerpt(&value.to_string())
                        )));
                    }
                }
                Line::NotJson(text, number) => {
                    self.stopped = true;
                    return Err(Failure::broken(format!(
                        "line {number} of the server's standard output is not JSON-RPC: `{}` (a server on stdio must log to stderr)",
                        super::excerpt(&text)
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

    fn notify(&mut self, message: &Value, _deadline: Instant) -> Result<(), Failure> {
        self.write(message)
    }

    fn close(&mut self) {
        // Closing its input is how a stdio server is asked to exit.
        drop(self.stdin.take());
        let pid = self.child.id();
        if !wait_for(&mut self.child, GRACE) {
            terminate(pid);
            if !wait_for(&mut self.child, GRACE) {
                let _ = self.child.kill();
                let _ = self.child.wait();
            }
        }
        super::children::unregister(pid);
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
        if self.stdin.is_some() || matches!(self.child.try_wait(), Ok(None)) {
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

/// Asks the process to stop (`SIGTERM`; on other systems, the kill that follows does it).
fn terminate(pid: u32) {
    #[cfg(unix)]
    super::children::send(pid, libc::SIGTERM);
    #[cfg(not(unix))]
    let _ = pid;
}

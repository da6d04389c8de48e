//! Calling a live server's tools for `schema-lint audit --server/--url`: list the tools as
//! `check --server` does, let the caller vet the calls against the listing (no tool is called
//! unless every call is acceptable), call exactly the named tools in order, and keep every
//! message of the exchange, in both directions, as a capture: JSON Lines, one JSON-RPC message a
//! line, each as its bytes crossed ([`super::Tape`]), the form `audit` reads and `--save`
//! writes.

use super::session::{call_tool, list_keeping};
use super::{connect, explain, Listing, Options, Server, Transport};
use serde_json::Value;
use std::time::Instant;

/// A call asked for: a tool's name and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The tool's name, as `tools/list` gives it.
    pub name: String,
    /// The `arguments` of the `tools/call` request (an object).
    pub arguments: Value,
}

/// What a run of calls left.
#[derive(Debug)]
pub struct Session {
    /// The server's listing.
    pub listing: Listing,
    /// Every message sent and received, in order, a line each (each line ends with `\n`), as
    /// its bytes crossed (`Tape`): the server's own notifications and requests, and the answers
    /// to them, included.
    pub capture: String,
    /// How many of the calls were made (all of them unless the exchange broke).
    pub called: usize,
    /// Why the exchange stopped before the last call was answered, when it did.
    pub broken: Option<String>,
    /// What became of the call that got no answer, when the exchange stopped: the server's
    /// refusal (`HTTP 400 Bad Request: ...`), a timeout, a transport that broke.
    pub cause: Option<String>,
}

/// Why no call was made.
#[derive(Debug, PartialEq, Eq)]
pub enum CallsError {
    /// The server could not be started, reached or listed.
    Listing(String),
    /// The vetting refused the calls (an unknown tool, arguments its schema rejects).
    Refused(String),
}

/// Lists the tools of `server`, asks `vet` whether `calls` may be made on that listing (its
/// tools, as sent), then calls them one after another, each with `options.timeout` to answer,
/// and stops the server. A call the server answers with an error (a JSON-RPC error or an
/// `isError` result) is kept like any other answer; a call that gets no answer, or a transport
/// that breaks, ends the calls there (`Session::broken`).
///
/// # Errors
/// The server could not be listed, or `vet` refused the calls: then no tool was called.
pub fn call_tools(
    server: &Server,
    options: &Options,
    calls: &[ToolCall],
    vet: &dyn Fn(&[Value]) -> Result<(), String>,
) -> Result<Session, CallsError> {
    let mut transport = connect(server).map_err(CallsError::Listing)?;
    transport.keep();
    let outcome = run(transport.as_mut(), options, calls, vet);
    let capture = transport.kept();
    transport.close();
    outcome.map(|(listing, called, stopped)| {
        let (broken, cause) = stopped.map_or((None, None), |(b, c)| (Some(b), Some(c)));
        Session {
            listing,
            capture,
            called,
            broken,
            cause,
        }
    })
}

/// Why the calls stopped: the sentence for the user, and what became of the call alone.
type Stop = (String, String);

fn run(
    recorder: &mut dyn Transport,
    options: &Options,
    calls: &[ToolCall],
    vet: &dyn Fn(&[Value]) -> Result<(), String>,
) -> Result<(Listing, usize, Option<Stop>), CallsError> {
    let deadline = Instant::now() + options.timeout;
    let (listing, mut requests) = list_keeping(recorder, options, deadline)
        .map_err(|f| CallsError::Listing(explain(recorder, f, options)))?;
    vet(&listing.tools).map_err(CallsError::Refused)?;
    for (done, call) in calls.iter().enumerate() {
        let deadline = Instant::now() + options.timeout;
        if let Err(failure) = call_tool(
            recorder,
            &mut requests,
            &call.name,
            &call.arguments,
            deadline,
        ) {
            let why = explain(recorder, failure, options);
            let left = match calls.len() - done - 1 {
                0 => String::new(),
                1 => "; the call after it was not made".to_owned(),
                n => format!("; the {n} calls after it were not made"),
            };
            let broken = format!(
                "the call to `{}` ({} of {}) failed: {why}{left}",
                super::excerpt(&call.name),
                done + 1,
                calls.len(),
            );
            return Ok((listing, done, Some((broken, why))));
        }
    }
    Ok((listing, calls.len(), None))
}

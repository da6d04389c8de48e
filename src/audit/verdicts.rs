//! What each SDK client does with a call's result: accepts it (the caller gets it) or rejects it
//! (the call fails in the client), from the audit's two validations and the result's kind.
//! Measured by `tests/integration/audit.sh` (`verdicts.mjs`, `verdicts.py`, `verdicts_v1.py`:
//! each real client calls the tools of `tests/live/tool_server.py`, and the audit of the same
//! calls must give the same verdicts):
//!
//! - a result the Python clients accept and that fails a `format` the TS clients assert (a naive
//!   `date-time`, an IRI as `uri`): both TS clients reject it (`Structured content does not
//!   match the tool's output schema`), `mcp` 2.x and 1.x accept it (neither asserts `format`);
//! - an `isError: true` result whose `structuredContent` fails the schema: TS v1 rejects it
//!   (-32602), TS v2 and both Python clients accept it (they validate no error result);
//! - a result without `structuredContent` from a tool with an output schema: every client
//!   rejects it (`has an output schema but did not return structured content`), unless it is an
//!   error result, which every client accepts;
//! - gemini-cli (`@google/gemini-cli-core` 0.61.0, `gemini_cli_verdicts.mjs`: its own MCP code
//!   calling the same tools on 2025-06-18, the last revision its TS SDK 1.23.0 client knows)
//!   rejects exactly what TS v1 rejects, error results included; the model then gets the
//!   client's error as the tool's error instead of the result. It is judged on 2025 sessions only.
//!
//! - a `structuredContent` that is no object (an array, `null`) on a 2025 session, in a result
//!   that is not an error: every client rejects it (the TS clients' result schema wants a record;
//!   `mcp` 2.x and 1.x refuse a list, and `null` as missing or as not an object);
//! - the legacy `{"result": ...}` wrapper of a `.meta({ id })` tool's result: every client
//!   validates it as it is, so each rejects a wrapper the schema does not describe (the audit
//!   checks the inside, what the server meant).
//!
//! A result the audit does not validate (no schema, a schema that does not compile, a malformed
//! record), a non-object `structuredContent` in an error result or on a 2026-07-28 session
//! (neither measured) gets no verdict.

use crate::diagnostic::client::Client;

/// The clients judged, in the order reports list them.
pub const CLIENTS: [Client; 5] = [
    Client::TsSdkV1,
    Client::TsSdkV2,
    Client::PythonSdk,
    Client::PythonSdkV1,
    Client::GeminiCli,
];

/// What the audit knows of one result.
pub(super) struct Seen {
    /// The Python clients' verdict on `structuredContent` (`format` an annotation); `None` where
    /// it was not validated.
    pub valid: Option<bool>,
    /// Whether `structuredContent` passes the Python clients but fails a `format` the TS clients
    /// assert.
    pub format_fails: bool,
    /// `isError: true`.
    pub is_error: bool,
    /// What the result holds as `structuredContent`, where the tool declares an output schema.
    pub shape: Shape,
    /// A 2025 session: gemini-cli speaks no later revision, so it is judged there only.
    pub legacy_session: bool,
}

/// The shape of a result's `structuredContent`, for the tool that declares an output schema.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// An object (or nothing the verdicts depend on: no output schema, a malformed record).
    Object,
    /// None.
    Missing,
    /// Something that is no object (`null` included), on a 2025 session.
    NotObject,
}

impl Shape {
    /// The shape of `content`, for a tool that declares an output schema and a valid record
    /// (`judged`), on `protocol`.
    pub(super) fn of(
        content: Option<&serde_json::Value>,
        judged: bool,
        protocol: Option<&str>,
    ) -> Self {
        match content {
            _ if !judged => Shape::Object,
            None => Shape::Missing,
            Some(c) if !c.is_object() && protocol.is_some_and(|p| p.starts_with("2025-")) => {
                Shape::NotObject
            }
            Some(_) => Shape::Object,
        }
    }
}

/// Each client's verdict (`true`: accepts), or none where the audit cannot tell.
pub(super) fn verdicts(r: &Seen) -> Vec<(Client, bool)> {
    let per = |ts_v1: bool, ts_v2: bool, python: bool| {
        CLIENTS
            .iter()
            .filter(|&&c| c != Client::GeminiCli || r.legacy_session)
            .map(|&c| {
                // gemini-cli calls through the TS SDK 1.x client it bundles, which validates as
                // TS v1 does (its lenient validator only skips schemas Ajv cannot compile).
                let accepts = match c {
                    Client::TsSdkV1 | Client::GeminiCli => ts_v1,
                    Client::TsSdkV2 => ts_v2,
                    _ => python,
                };
                (c, accepts)
            })
            .collect()
    };
    match r.shape {
        Shape::Missing => return per(r.is_error, r.is_error, r.is_error),
        Shape::NotObject if r.is_error => return Vec::new(),
        Shape::NotObject => return per(false, false, false),
        Shape::Object => {}
    }
    let Some(valid) = r.valid else {
        return Vec::new();
    };
    let ts = valid && !r.format_fails;
    if r.is_error {
        per(ts, true, true)
    } else {
        per(ts, ts, valid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[(Client, bool)], accepts: bool) -> Vec<&'static str> {
        v.iter()
            .filter(|(_, a)| *a == accepts)
            .map(|(c, _)| c.name())
            .collect()
    }

    #[test]
    fn each_kind_of_result() {
        let r = |valid, format_fails, is_error, missing| Seen {
            valid,
            format_fails,
            is_error,
            shape: if missing {
                Shape::Missing
            } else {
                Shape::Object
            },
            legacy_session: true,
        };
        let naive = verdicts(&r(Some(true), true, false, false));
        assert_eq!(
            names(&naive, false),
            ["ts-sdk-v1", "ts-sdk-v2", "gemini-cli"]
        );
        assert_eq!(names(&naive, true), ["python-sdk", "python-sdk-v1"]);
        let error = verdicts(&r(Some(false), false, true, false));
        assert_eq!(names(&error, false), ["ts-sdk-v1", "gemini-cli"]);
        let stateless = Seen {
            legacy_session: false,
            ..r(Some(true), true, false, false)
        };
        assert_eq!(
            names(&verdicts(&stateless), false),
            ["ts-sdk-v1", "ts-sdk-v2"]
        );
        let invalid = verdicts(&r(Some(false), false, false, false));
        assert_eq!(names(&invalid, true), Vec::<&str>::new());
        let missing = verdicts(&r(None, false, false, true));
        assert_eq!(names(&missing, false).len(), 5);
        let missing_error = verdicts(&r(None, false, true, true));
        assert_eq!(names(&missing_error, true).len(), 5);
        assert!(verdicts(&r(None, false, false, false)).is_empty());
        let list = |is_error| Seen {
            shape: Shape::NotObject,
            ..r(None, false, is_error, false)
        };
        assert_eq!(names(&verdicts(&list(false)), false).len(), 5);
        assert!(verdicts(&list(true)).is_empty());
    }
}

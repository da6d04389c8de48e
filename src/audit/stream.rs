//! Auditing a capture as a stream, in two passes over it, so that what is held is what pairing
//! needs (the requests still open, the tools' listings, the compiled validators) and the calls
//! decided, never the messages:
//! 1. the survey: whether the capture holds audit records, every tool that a `tools/list` in it
//!    declares (a call is decided against the last listing of its tool, wherever it is), and
//!    the lines that are not JSON;
//! 2. the audit: values are sorted, calls paired with their responses and each one decided as
//!    its response goes by.

use super::capture::{is_explicit_record, stream, Message};
use super::input::{messages_of, Form, Input};
use super::pair::{tools_of, Exchange, Pairing, Tool};
use super::{judge, Audit, Options, Validators};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::BufRead;

/// Opens the capture, from its start, for each pass.
pub type Open<'a> = dyn FnMut() -> std::io::Result<Box<dyn BufRead + 'a>> + 'a;

/// Audits the capture `open` reads (see the module's documentation).
///
/// # Errors
/// When the capture cannot be read.
pub fn audit_stream(open: &mut Open<'_>, options: &Options) -> std::io::Result<Audit> {
    let mut given: HashMap<String, Tool> = HashMap::new();
    for list in &options.tools {
        tools_of(list, &mut given);
    }
    // The survey.
    let mut records = false;
    let mut listed = HashMap::new();
    let layout = stream(open()?, &mut |m| {
        records |= is_explicit_record(&m.value);
        for v in messages_of(m.value).unwrap_or_default() {
            if v.get("method").is_none() && v.get("id").is_some() {
                if let Some(result) = v.get("result") {
                    if result.get("tools").is_some_and(Value::is_array) {
                        tools_of(result, &mut listed);
                    }
                }
            }
        }
    })?;
    // Explicit records are decided against the `--tools` documents only.
    let mut last = given.clone();
    if !records {
        last.extend(listed);
    }
    let broken = layout.broken_array();
    let mut input = Input::new(
        Form {
            array: layout.array,
            records,
        },
        layout.errors,
    );
    // The audit.
    let mut out = Audit::default();
    let mut decider = Decider {
        tools: &last,
        records,
        validators: HashMap::new(),
    };
    let mut pairing = Pairing::default();
    let mut known = given;
    let mut records_seen = 0;
    if !broken {
        stream(open()?, &mut |m| {
            input.take(m, &mut |m| {
                let exchange = if records {
                    records_seen += 1;
                    Some(record_exchange(m, records_seen, options))
                } else {
                    pairing.message(&m, &mut known, &mut out, options)
                };
                if let Some(exchange) = exchange {
                    decider.decide(exchange, &mut out);
                }
            });
        })?;
    }
    pairing.finish(&mut out);
    let unusable = input.unusable();
    if unusable.is_some() {
        out = Audit::default();
    }
    out.unusable = unusable;
    out.skipped = input.skipped;
    out.form = input.form;
    out.input_errors = input.errors;
    Ok(out)
}

/// The exchange of the `n`th explicit record (`{"record", "body"}`), with `--protocol` filled
/// in where the record gives none.
fn record_exchange(m: Message, n: usize, options: &Options) -> Exchange {
    let Message { line, value } = m;
    let mut record = value["record"].clone();
    if let (Value::Object(r), Some(p)) = (&mut record, &options.protocol) {
        r.entry("protocol").or_insert_with(|| json!(p));
    }
    Exchange {
        record,
        body: value["body"].clone(),
        id: json!(n),
        line,
    }
}

/// Decides calls against the tools' last listings, compiling each tool's schema once.
struct Decider<'t> {
    tools: &'t HashMap<String, Tool>,
    records: bool,
    validators: HashMap<String, Validators>,
}

impl Decider<'_> {
    fn decide(&mut self, exchange: Exchange, out: &mut Audit) {
        let tool_name = exchange
            .record
            .get("tool")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let known = tool_name.as_ref().and_then(|t| self.tools.get(t));
        if known.is_some_and(|t| t.output_schema.is_none()) {
            out.without_schema += 1;
            return;
        }
        let schema = known.and_then(|t| t.output_schema.as_ref());
        let call = judge(
            exchange,
            schema,
            tool_name.as_deref(),
            self.records,
            &mut self.validators,
        );
        out.calls.push(call);
    }
}

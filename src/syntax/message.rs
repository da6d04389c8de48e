//! A JSON-RPC message read from a live server or a captured exchange, parsed into a
//! `serde_json::Value` with the depth rule of files ([`document::MAX_DEPTH`] levels), not
//! `serde_json`'s own 128: a message that would be a valid schema file is a valid message.
//!
//! JSON that `serde_json` refuses but a client reads is read too, as the clients read it: a
//! number beyond `f64` (`1e400`, which JavaScript and Python read as infinity) becomes the
//! largest finite `f64` of its sign (as [`document::Node::to_value`] does for files), and a
//! `\u` escape of a lone surrogate (`"\ud800"`, which JavaScript keeps and Python too) becomes
//! U+FFFD, the one character a Rust string can hold in its place ([`tolerant`]).
//!
//! Parsing and dropping a value recurse once per level: at [`document::MAX_DEPTH`] a debug
//! build needs about 1 MiB of stack, so a thread that parses messages should have a few MiB.

use crate::syntax::document::{self, MAX_DEPTH};
use serde::Deserialize;
use serde_json::Value;

/// Why a text is not a message.
#[derive(Debug)]
pub enum MessageError {
    /// JSON nested deeper than files may be.
    TooDeep,
    /// Not JSON at all.
    NotJson(serde_json::Error),
}

impl std::fmt::Display for MessageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooDeep => write!(f, "nested deeper than {MAX_DEPTH} levels"),
            Self::NotJson(e) => e.fmt(f),
        }
    }
}

/// Parses `text` as one JSON value, nested at most as deep as a file may be.
///
/// # Errors
/// The text is not JSON, or is nested deeper than [`MAX_DEPTH`] levels.
pub fn parse_message(text: &str) -> Result<Value, MessageError> {
    match strict(text) {
        Err(MessageError::NotJson(e)) => match tolerant(text) {
            Some(read) => strict(&read),
            None => Err(MessageError::NotJson(e)),
        },
        other => other,
    }
}

/// [`parse_message`] without the tolerance of [`tolerant`].
fn strict(text: &str) -> Result<Value, MessageError> {
    // Nearly every message is shallow: serde_json's own limit decides those in one pass.
    match serde_json::from_str(text) {
        Ok(value) => return Ok(value),
        Err(e) if !e.to_string().starts_with("recursion limit exceeded") => {
            return Err(MessageError::NotJson(e));
        }
        Err(_) => {}
    }
    if document::first_too_deep(text).is_some() {
        return Err(MessageError::TooDeep);
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = Value::deserialize(&mut deserializer).map_err(MessageError::NotJson)?;
    deserializer.end().map_err(MessageError::NotJson)?;
    Ok(value)
}

/// `text` with what `serde_json` refuses of valid JSON rewritten as a client reads it: each
/// number whose value overflows `f64` as the largest finite `f64` of its sign, each `\u`
/// escape of a lone surrogate as `\ufffd`; every other byte as it is. `None` when there is
/// nothing to rewrite (or the text breaks off in a string or an escape). One pass, outside and
/// inside strings told apart.
#[must_use]
pub fn tolerant(text: &str) -> Option<String> {
    const MAX: &str = "1.7976931348623157e308";
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut at = 0;
    let mut copied = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                at += 1;
                loop {
                    match *bytes.get(at)? {
                        b'"' => {
                            at += 1;
                            break;
                        }
                        b'\\' if bytes.get(at + 1) == Some(&b'u') => {
                            let unit = hex4(bytes, at + 2)?;
                            let paired = (0xD800..0xDC00).contains(&unit)
                                && bytes.get(at + 6) == Some(&b'\\')
                                && bytes.get(at + 7) == Some(&b'u')
                                && hex4(bytes, at + 8)
                                    .is_some_and(|low| (0xDC00..0xE000).contains(&low));
                            if paired {
                                at += 12;
                            } else if (0xD800..0xE000).contains(&unit) {
                                out.push_str(&text[copied..at]);
                                out.push_str("\\ufffd");
                                at += 6;
                                copied = at;
                                changed = true;
                            } else {
                                at += 6;
                            }
                        }
                        b'\\' => at += 2,
                        _ => at += 1,
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while at < bytes.len()
                    && matches!(bytes[at], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    at += 1;
                }
                let number = &text[start..at];
                if number.parse::<f64>().is_ok_and(f64::is_infinite) {
                    out.push_str(&text[copied..start]);
                    if number.starts_with('-') {
                        out.push('-');
                    }
                    out.push_str(MAX);
                    copied = at;
                    changed = true;
                }
            }
            _ => at += 1,
        }
    }
    if !changed {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// The value of the four hex digits at `at`.
fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
    u32::from_str_radix(digits, 16).ok()
}

/// [`parse_message`] of bytes, which must be UTF-8.
///
/// # Errors
/// As [`parse_message`]; bytes that are not UTF-8 are not JSON.
pub fn parse_message_bytes(bytes: &[u8]) -> Result<Value, MessageError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_message(text),
        Err(_) => serde_json::from_slice(bytes).map_err(MessageError::NotJson),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!("{}0{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn messages_are_as_deep_as_files_may_be() {
        assert!(parse_message(&nested(200)).is_ok());
        assert!(parse_message(&nested(MAX_DEPTH)).is_ok());
        assert!(document::parse(&nested(MAX_DEPTH)).is_ok());
        let deeper = nested(MAX_DEPTH + 1);
        assert!(document::parse(&deeper).is_err());
        let e = parse_message(&deeper).unwrap_err();
        assert_eq!(e.to_string(), "nested deeper than 256 levels");
        assert!(matches!(
            parse_message(&nested(100_000)),
            Err(MessageError::TooDeep)
        ));
        let deep_object = format!("{}1{}", r#"{"a":"#.repeat(200), "}".repeat(200));
        assert!(parse_message(&deep_object).is_ok());
    }

    #[test]
    fn other_failures_are_serde_json_s() {
        assert!(matches!(
            parse_message("{\"a\": 1"),
            Err(MessageError::NotJson(_))
        ));
        // Deep but broken: still not JSON, not too deep.
        let broken = format!("{}0{}", "[".repeat(200), "]".repeat(199));
        assert!(matches!(
            parse_message(&broken),
            Err(MessageError::NotJson(_))
        ));
        assert!(matches!(
            parse_message_bytes(b"{\"a\": \"\xff\"}"),
            Err(MessageError::NotJson(_))
        ));
        assert_eq!(parse_message_bytes(b"[1]").unwrap(), serde_json::json!([1]));
        assert!(parse_message(&format!("{} x", nested(200))).is_err());
    }

    #[test]
    fn valid_json_that_serde_json_refuses_is_read_as_clients_read_it() {
        let value = parse_message(
            r#"{"big": 1e400, "small": -1E+999, "tiny": 1e-400, "s": "a\ud800b", "low": "\uDC00", "pair": "\ud83d\ude00", "n": [12, "1e400"]}"#,
        )
        .unwrap();
        assert_eq!(value["big"], serde_json::json!(f64::MAX));
        assert_eq!(value["small"], serde_json::json!(-f64::MAX));
        assert_eq!(value["tiny"], serde_json::json!(0.0));
        assert_eq!(value["s"], "a\u{fffd}b");
        assert_eq!(value["low"], "\u{fffd}");
        assert_eq!(value["pair"], "\u{1f600}");
        // Inside a string, `1e400` is text.
        assert_eq!(value["n"], serde_json::json!([12, "1e400"]));
        assert_eq!(tolerant(r#"{"a": "\\ud800"}"#), None);
        assert_eq!(tolerant(r#"{"a": 1e40"#), None);
        assert!(parse_message("[1e400").is_err());
        assert!(parse_message(r#""\ud800"#).is_err());
    }
}

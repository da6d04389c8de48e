//! A JSON-RPC message read from a live server or a captured exchange, parsed into a
//! `serde_json::Value` with the depth rule of files ([`document::MAX_DEPTH`] levels), not
//! `serde_json`'s own 128: a message that would be a valid schema file is a valid message.
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
}

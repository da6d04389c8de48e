//! JSON string literals: how a fix writes a string value, quotes and escapes included.

/// A JSON string literal for `value`, escaped by `serde_json`.
#[must_use]
pub fn literal(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| format!("\"{value}\""))
}

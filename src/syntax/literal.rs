//! JSON string literals (how a fix writes a string value, quotes and escapes included), and the
//! small text helper messages share.

/// A JSON string literal for `value`, escaped by `serde_json`.
#[must_use]
pub fn literal(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| format!("\"{value}\""))
}

/// `text` with its first character in upper case (`not a scheme` -> `Not a scheme`).
#[must_use]
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

//! The `$defs` model shared by the index, the rules and the fixes: which keys a JSON pointer must
//! escape, and the safe key a fix gives an entry.

use crate::syntax::document::Node;

/// Whether a JSON pointer must escape something in `key`.
#[must_use]
pub fn needs_escaping(key: &str) -> bool {
    key.contains(['/', '~', '%'])
}

/// A key made of `[A-Za-z0-9_.-]` for `key`, free in `container`: `a/b` -> `a_b`, then `a_b_2` ...
#[must_use]
pub fn safe_key(key: &str, container: Option<&Node>) -> String {
    let mut base = key_chars(key);
    if base.is_empty() {
        base.push('_');
    }
    let taken = |k: &str| container.is_some_and(|c| c.get(k).is_some());
    if !taken(&base) {
        return base;
    }
    let count = container.and_then(Node::as_object).map_or(0, <[_]>::len);
    (2..count + 3)
        .map(|n| format!("{base}_{n}"))
        .find(|k| !taken(k))
        .unwrap_or(base)
}

/// `key` with every character outside `[A-Za-z0-9_.-]` replaced by `_`.
#[must_use]
pub fn key_chars(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    #[test]
    fn safe_keys_are_unique() {
        let container = parse(r#"{"a/b": {}, "a_b": {}, "a_b_2": {}}"#).unwrap();
        assert_eq!(safe_key("a/b", Some(&container)), "a_b_3");
        assert_eq!(safe_key("x~y%", Some(&container)), "x_y_");
        assert_eq!(safe_key("é", Some(&container)), "_");
    }
}

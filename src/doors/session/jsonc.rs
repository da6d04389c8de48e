//! JSON with comments and trailing commas, as VS Code and gemini-cli read their settings.

/// `text` with its `//` and `/* */` comments and trailing commas blanked (same length, so
/// positions hold).
#[must_use]
pub fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
                for b in &mut out[i..end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
                i = end;
                continue;
            }
            b',' => {
                let next = bytes[i + 1..].iter().find(|b| !b.is_ascii_whitespace());
                if matches!(next, Some(b'}' | b']')) {
                    out[i] = b' ';
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes outside strings were blanked: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn comments_and_trailing_commas_are_blanked_in_place() {
        let text = "{\n // a\n \"a\": \"//x\", /* b */ \"c\": [1,],\n}";
        let clean = strip(text);
        assert_eq!(clean.len(), text.len());
        let v: Value = serde_json::from_str(&clean).unwrap();
        assert_eq!(v["a"], "//x");
        assert_eq!(v["c"], serde_json::json!([1]));
    }
}

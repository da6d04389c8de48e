//! Text from a linted file, made safe to print. A value quoted in a message, a file name, or the
//! source under a finding may hold control characters (`"\u001b[2J"` is a valid JSON string, and
//! a broken file holds raw bytes): printed as they are, they would drive the terminal, or forge a
//! line of `concise` output (`fake.json:1:1: ...`) that a problem matcher believes. Bidirectional
//! overrides would reorder what the reader sees ("Trojan Source").

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal as it is: C0 controls, DEL, C1 controls, and the
/// bidirectional embedding, override and isolate characters.
fn unsafe_char(c: char) -> bool {
    matches!(c, '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with each unsafe character (line breaks and tabs included) written as `\u{..}`: for
/// messages, labels, file names, all of which stay on their line.
#[must_use]
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The source shown under a finding, with every character the same length in bytes as before,
/// so that spans still line up: line breaks and tabs stay; a C0 control or DEL becomes `?`, a C1
/// control (two bytes) `¿`, a bidirectional control (three bytes) U+FFFD.
#[must_use]
pub fn printable_source(s: &str) -> Cow<'_, str> {
    let keep = |c: char| matches!(c, '\n' | '\r' | '\t') || !unsafe_char(c);
    if s.chars().all(keep) {
        return Cow::Borrowed(s);
    }
    let out: String = s
        .chars()
        .map(|c| match c {
            c if keep(c) => c,
            '\u{80}'..='\u{9f}' => '\u{bf}',
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => '\u{fffd}',
            _ => '?',
        })
        .collect();
    debug_assert_eq!(out.len(), s.len());
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_drives_a_terminal() {
        assert!(matches!(printable("my_tool:output"), Cow::Borrowed(_)));
        assert_eq!(
            printable("a\u{1b}[2J\nb.json:1:1: SL000\u{9b}\u{202e}é"),
            "a\\u{1b}[2J\\u{a}b.json:1:1: SL000\\u{9b}\\u{202e}é"
        );
    }

    #[test]
    fn source_keeps_its_length_and_lines() {
        let text = "{\"a\":\u{0} \u{1b}[2J\r\n\t\u{85}\u{2067}é}";
        let shown = printable_source(text);
        assert_eq!(shown.len(), text.len());
        assert_eq!(shown, "{\"a\":? ?[2J\r\n\t\u{bf}\u{fffd}é}");
        assert!(matches!(
            printable_source("{\n\t\"é\": 1\r\n}"),
            Cow::Borrowed(_)
        ));
    }
}

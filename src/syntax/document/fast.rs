//! The fast path of [`super::parse`]: one pass over the bytes straight into the tree, for the
//! texts that are plain strict JSON (nearly all of them).
//!
//! It accepts a subset of what the full path accepts and builds the same tree; on anything else
//! (an error, an escape it does not decode, nesting near the bound) it gives up and the full path
//! (the `jsonc-parser` lexer, then the conversion) runs, so every message and span of a failure
//! comes from one place (`full`). The tests below check that whatever the fast path accepts, the
//! full path accepts as the same tree (every JSON file of `testdata/`, tricky texts, generated
//! ones).

use super::{Member, Members, Node, NodeKind};
use crate::syntax::source::Span;
use compact_str::CompactString;

/// Containers nested deeper than this are left to the full path, which knows the exact bound.
const DEPTH: usize = super::MAX_DEPTH - 8;

/// The tree of `text`, or `None` when the full path must decide.
pub(super) fn parse(text: &str) -> Option<Node> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
        members: Vec::new(),
        items: Vec::new(),
    };
    p.skip_ws();
    let root = p.value(0)?;
    p.skip_ws();
    (p.at == p.bytes.len()).then_some(root)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// The members of the objects being read, innermost last: each object takes its own off the
    /// top into one allocation of the exact size (growing a list per object cost a reallocation
    /// each time it doubled, and one more to shrink it).
    members: Vec<Member>,
    /// The same for the items of the arrays being read.
    items: Vec<Node>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn node(start: usize, end: usize, kind: NodeKind) -> Node {
        Node {
            span: Span::new(start, end),
            kind,
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        let start = self.at;
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => {
                let s = self.string()?;
                Some(Self::node(start, self.at, NodeKind::String(s)))
            }
            b't' => self.word(b"true", NodeKind::Bool(true)),
            b'f' => self.word(b"false", NodeKind::Bool(false)),
            b'n' => self.word(b"null", NodeKind::Null),
            b'-' | b'0'..=b'9' => {
                self.number()?;
                let raw = &self.text[start..self.at];
                Some(Self::node(start, self.at, NodeKind::Number(raw.into())))
            }
            _ => None,
        }
    }

    fn word(&mut self, word: &[u8], kind: NodeKind) -> Option<Node> {
        let start = self.at;
        if !self.bytes[start..].starts_with(word) {
            return None;
        }
        self.at += word.len();
        // `nullx` or `true1` is one word to the lexer: leave it to the full path.
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80)
        {
            return None;
        }
        Some(Self::node(start, self.at, kind))
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, followed by no further number character.
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        // `01`, `1.2.3`, `1x`: the full path names what is wrong.
        match self.peek() {
            Some(b) if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'_') => None,
            _ => Some(()),
        }
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
    }

    /// A string literal from its opening quote, decoded; `None` on a raw control character, an
    /// unknown escape or a surrogate that is not a well-formed pair.
    fn string(&mut self) -> Option<CompactString> {
        self.at += 1;
        let start = self.at;
        self.at = special(self.bytes, self.at);
        match *self.bytes.get(self.at)? {
            b'"' => {
                let s = CompactString::from(&self.text[start..self.at]);
                self.at += 1;
                return Some(s);
            }
            b'\\' => {}
            _ => return None,
        }
        let mut out = String::with_capacity(self.at - start + 16);
        out.push_str(&self.text[start..self.at]);
        loop {
            let b = *self.bytes.get(self.at)?;
            match b {
                b'"' => {
                    self.at += 1;
                    return Some(CompactString::from(out));
                }
                b'\\' => {
                    let e = *self.bytes.get(self.at + 1)?;
                    self.at += 2;
                    out.push(match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    });
                }
                b if b < 0x20 => return None,
                _ => {
                    // Copy the run up to the next quote, backslash or control character at once.
                    let run_end = special(self.bytes, self.at);
                    out.push_str(&self.text[self.at..run_end]);
                    self.at = run_end;
                }
            }
        }
    }

    /// The character of `\uXXXX` (the `\u` read), with a following `\uXXXX` for a surrogate pair.
    fn unicode_escape(&mut self) -> Option<char> {
        let high = self.hex4()?;
        if !(0xD800..0xE000).contains(&high) {
            return char::from_u32(high);
        }
        if high >= 0xDC00 || self.bytes.get(self.at..self.at + 2)? != b"\\u" {
            return None;
        }
        self.at += 2;
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return None;
        }
        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    fn hex4(&mut self) -> Option<u32> {
        let hex = self.bytes.get(self.at..self.at + 4)?;
        let mut v = 0;
        for &h in hex {
            v = v * 16 + char::from(h).to_digit(16)?;
        }
        self.at += 4;
        Some(v)
    }

    fn array(&mut self, depth: usize) -> Option<Node> {
        let start = self.open(depth)?;
        let first = self.items.len();
        if self.peek()? != b']' {
            loop {
                let item = self.value(depth)?;
                self.items.push(item);
                if self.after_item(b']')? {
                    break;
                }
            }
        }
        let items: Box<[Node]> = self.items.drain(first..).collect();
        Some(self.close(start, NodeKind::Array(items)))
    }

    fn object(&mut self, depth: usize) -> Option<Node> {
        let start = self.open(depth)?;
        let first = self.members.len();
        if self.peek()? != b'}' {
            loop {
                if self.peek()? != b'"' {
                    return None;
                }
                let key_start = self.at;
                let key = self.string()?;
                let key_span = Span::new(key_start, self.at);
                self.skip_ws();
                if self.peek()? != b':' {
                    return None;
                }
                self.at += 1;
                self.skip_ws();
                let value = self.value(depth)?;
                self.members.push(Member {
                    key,
                    key_span,
                    value,
                });
                if self.after_item(b'}')? {
                    break;
                }
            }
        }
        let members: Vec<Member> = self.members.drain(first..).collect();
        Some(self.close(start, NodeKind::Object(Members::new(members))))
    }

    /// Past a container's opening bracket and the blanks after it: where it started; `None`
    /// nested deeper than [`DEPTH`].
    fn open(&mut self, depth: usize) -> Option<usize> {
        if depth > DEPTH {
            return None;
        }
        let start = self.at;
        self.at += 1;
        self.skip_ws();
        Some(start)
    }

    /// After an item: `Some(true)` at the closing `close`, `Some(false)` past a comma and the
    /// blanks after it, `None` on anything else.
    fn after_item(&mut self, close: u8) -> Option<bool> {
        self.skip_ws();
        match self.peek()? {
            b',' => {
                self.at += 1;
                self.skip_ws();
                Some(false)
            }
            b => (b == close).then_some(true),
        }
    }

    /// Past the closing bracket: the container from `start`.
    fn close(&mut self, start: usize, kind: NodeKind) -> Node {
        self.at += 1;
        Self::node(start, self.at, kind)
    }
}

/// The first byte from `at` on that ends a plain run of a string literal: `"`, `\\` or a control
/// character (`bytes.len()` if none). Eight bytes are looked at in one step: a byte is flagged
/// where subtracting 1 (or 0x20) from it borrows, which the lowest flagged byte does only when
/// it is one of those (a borrow reaches the bytes above it only).
fn special(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    const QUOTES: u64 = ONES * b'"' as u64;
    const BACKSLASHES: u64 = ONES * b'\\' as u64;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        let (quote, backslash) = (word ^ QUOTES, word ^ BACKSLASHES);
        let found = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | word.wrapping_sub(ONES * 0x20) & !word)
            & HIGH;
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map_or(bytes.len(), |n| at + n)
}

#[cfg(test)]
mod tests {
    use super::parse;
    use std::fmt::Write as _;

    /// Whatever the fast path accepts, the full path accepts as the same tree.
    fn agree(text: &str) -> bool {
        let fast = parse(text);
        if let Some(tree) = &fast {
            assert_eq!(
                super::super::full::parse(text, false).as_ref(),
                Ok(tree),
                "{text:?}"
            );
        }
        fast.is_some()
    }

    /// Eight bytes at a time, the first quote, backslash or control character is the one a
    /// byte-by-byte scan finds, wherever it sits and whatever follows it.
    #[test]
    fn special_finds_the_first_end_of_a_plain_run() {
        let naive = |bytes: &[u8], at: usize| {
            (at..bytes.len())
                .find(|&i| bytes[i] == b'"' || bytes[i] == b'\\' || bytes[i] < 0x20)
                .unwrap_or(bytes.len())
        };
        for len in 0..20 {
            for end in [b'"', b'\\', 0, 0x1f, 0x20, b'!', 0x7f, 0x80, 0xff] {
                for pos in 0..=len {
                    for after in [b'"', 0x01, b'a', 0xff] {
                        let mut bytes = vec![b'a'; len];
                        if pos < len {
                            bytes[pos] = end;
                            if pos + 1 < len {
                                bytes[pos + 1] = after;
                            }
                        }
                        for at in 0..=len {
                            assert_eq!(
                                super::special(&bytes, at),
                                naive(&bytes, at),
                                "{bytes:?} {at}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn fast_and_full_agree_on_tricky_texts() {
        let accepted = [
            r#"{"a": [1, -0, 0.5, -1.5e+3, 2E-2, 10e5], "b": {"c": null, "d": true, "e": false}}"#,
            " \t\r\n[]\n ",
            r#"{"k\"ey": "\u00e9\ud83d\ude00\/\\\b\f\n\r\t", "é😀": "\u0000", "a": 1, "a": 2}"#,
            r#"["plain", "", "\"", "x\\y", "tail\u0041"]"#,
            "\"top\"",
            "0",
            "{}",
        ];
        for text in accepted {
            assert!(agree(text), "the fast path left {text:?}");
        }
        let left = [
            "",
            " ",
            "[01]",
            "[1.]",
            "[.5]",
            "[1e]",
            "[-]",
            "[+1]",
            "[1x]",
            "[1-2]",
            "[NaN]",
            "[truex]",
            "[nul]",
            "{'a': 1}",
            "{a: 1}",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "[1,]",
            "[1 2]",
            "{} {}",
            "\u{feff}{}",
            "\"a\tb\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\x41\"",
            "\"\\u12\"",
            "\"open",
            "[1",
            "{\"a\":1",
            "// c\n{}",
            "[1, /* c */ 2]",
            "[Infinity]",
            "[0x10]",
        ];
        for text in left {
            assert!(!agree(text), "the fast path took {text:?}");
        }
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(agree(&deep(super::super::MAX_DEPTH - 8)));
        assert!(!agree(&deep(super::super::MAX_DEPTH - 7)));
    }

    /// Every JSON file of `testdata/` (thousands, broken ones included): the two paths agree, and
    /// the fast path takes nearly every file the full path parses.
    #[test]
    fn fast_and_full_agree_on_testdata() {
        let mut folders = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")];
        let mut files = Vec::new();
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    files.push(path);
                }
            }
        }
        let (mut parsed, mut fast) = (0, 0);
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            fast += usize::from(agree(&text));
            parsed += usize::from(super::super::full::parse(&text, false).is_ok());
        }
        assert!(parsed > 1000, "{parsed} files parsed");
        assert!(fast * 100 >= parsed * 99, "fast {fast} of {parsed}");
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            (-1e30f64..1e30).prop_map(serde_json::Value::from),
            "[a-z\"\\\\/é😀\u{0}-\u{1f}\u{7f}\u{2028}]{0,6}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(6, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::vec(("[a-z\"\\\\é]{0,4}", inner), 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// Generated JSON, compact or pretty, with `\u` escapes for some characters: the fast path
        /// takes it and builds the full path's tree.
        #[test]
        fn fast_takes_generated_json(value in json_value(), pretty: bool, ascii: bool) {
            let mut text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            if ascii {
                text = text.chars().fold(String::new(), |mut out, c| {
                    if c.is_ascii() {
                        out.push(c);
                    } else {
                        for unit in c.encode_utf16(&mut [0; 2]) {
                            let _ = write!(out, "\\u{unit:04x}");
                        }
                    }
                    out
                });
            }
            proptest::prop_assert!(agree(&text), "{}", text);
        }

        /// Texts from JSON's own characters, mostly broken: wherever the fast path takes one, the
        /// full path agrees.
        #[test]
        fn fast_and_full_agree_on_any_text(text in "[ \t\n{}\\[\\]:,\"\\\\/0-9.eE+\\-truefalsnu\u{1}é]{0,24}") {
            agree(&text);
        }
    }
}

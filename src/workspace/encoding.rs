//! Encodings a file may be saved in that are not UTF-8 but can be told from its first bytes, so
//! that the SL100 finding on it can say what it is.

/// A UTF-16 encoding, with or without its byte order mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf16 {
    /// Little-endian: a `FF FE` mark, or ASCII text as `xx 00 xx 00` (what Windows PowerShell
    /// writes by default).
    Le,
    /// Big-endian: a `FE FF` mark, or ASCII text as `00 xx 00 xx`.
    Be,
}

impl Utf16 {
    /// The encoding's name, as editors show it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Utf16::Le => "UTF-16 LE",
            Utf16::Be => "UTF-16 BE",
        }
    }
}

/// The UTF-16 encoding `bytes` are in, if they start with its byte order mark or with the NUL
/// pattern of RFC 4627's section 3 (JSON text starts with two ASCII characters, and UTF-8 JSON
/// holds no NUL byte).
#[must_use]
pub fn utf16(bytes: &[u8]) -> Option<Utf16> {
    let pattern = |at: usize| match bytes.get(at..at + 2)? {
        [0, 0] => None,
        [_, 0] => Some(Utf16::Le),
        [0, _] => Some(Utf16::Be),
        _ => None,
    };
    match bytes {
        [0xFF, 0xFE, ..] => Some(Utf16::Le),
        [0xFE, 0xFF, ..] => Some(Utf16::Be),
        [_, _] => pattern(0),
        _ => pattern(0).filter(|e| pattern(2) == Some(*e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(text: &str, le: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect()
    }

    #[test]
    fn tells_utf16_with_and_without_its_mark() {
        assert_eq!(utf16(&encode("\u{feff}{}", true)), Some(Utf16::Le));
        assert_eq!(utf16(&encode("\u{feff}{}", false)), Some(Utf16::Be));
        assert_eq!(utf16(&encode("{\"a\": 1}", true)), Some(Utf16::Le));
        assert_eq!(utf16(&encode("{\"a\": 1}", false)), Some(Utf16::Be));
        assert_eq!(utf16(&encode("{}", true)), Some(Utf16::Le));
        assert_eq!(utf16(&encode("1", false)), Some(Utf16::Be));
        assert_eq!(utf16(&encode("1", true)), Some(Utf16::Le));
    }

    #[test]
    fn leaves_utf8_and_other_bytes_alone() {
        for bytes in [
            &b"{\"a\": 1}"[..],
            b"\xEF\xBB\xBF{}",
            b"",
            b"{",
            b"\xFF",
            b"{\x00}",
            b"\x00\x00\x00{",
            "{\"é\": 1}".as_bytes(),
        ] {
            assert_eq!(utf16(bytes), None, "{bytes:?}");
        }
    }
}

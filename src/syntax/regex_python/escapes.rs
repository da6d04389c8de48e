//! The escapes, classes and inline flags of Python's `re`, a part of [`super`]'s parser.

use super::{Item, Parser, PyError, PyRefusal};
use crate::syntax::regex_cursor::Cursor;

impl Parser<'_> {
    /// `_parse_flags`, after `(?` and its first character: `None` for global flags (`(?i)`),
    /// else whether the scoped flags add and remove verbose mode.
    pub(super) fn flags(
        &mut self,
        start: usize,
        first: char,
    ) -> Result<Option<(bool, bool)>, PyRefusal> {
        const FLAGS: &str = "aiLmsxtu";
        let is_type = |c: char| matches!(c, 'a' | 'L' | 'u');
        let mut add = String::new();
        let mut c = first;
        if c != '-' {
            loop {
                if c == 'L' {
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "bad inline flags: cannot use 'L' flag with a str pattern",
                    ));
                }
                add.push(c);
                if is_type(c) && add.chars().filter(|&f| is_type(f) && f != c).count() > 0 {
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                    ));
                }
                match self.bump() {
                    None => return Err(self.err_here(start, PyError::Other, "missing -, : or )")),
                    Some(next @ (')' | '-' | ':')) => {
                        c = next;
                        break;
                    }
                    Some(next) if FLAGS.contains(next) => c = next,
                    Some(_) => return Err(self.err_here(start, PyError::Other, "unknown flag")),
                }
            }
        }
        if c == ')' {
            if add.contains('x') {
                self.global_verbose = true;
            }
            return Ok(None);
        }
        if add.contains('t') {
            return Err(self.err_here(
                start,
                PyError::Other,
                "bad inline flags: cannot turn on global flag",
            ));
        }
        let mut del = String::new();
        if c == '-' {
            c = match self.bump() {
                Some(next) if FLAGS.contains(next) => next,
                _ => return Err(self.err_here(start, PyError::Other, "missing flag")),
            };
            loop {
                if is_type(c) {
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                    ));
                }
                del.push(c);
                match self.bump() {
                    Some(':') => break,
                    Some(next) if FLAGS.contains(next) => c = next,
                    _ => return Err(self.err_here(start, PyError::Other, "missing :")),
                }
            }
        }
        if del.contains('t') {
            return Err(self.err_here(
                start,
                PyError::Other,
                "bad inline flags: cannot turn off global flag",
            ));
        }
        if add.chars().any(|f| del.contains(f)) {
            return Err(self.err_here(
                start,
                PyError::Other,
                "bad inline flags: flag turned on and off",
            ));
        }
        Ok(Some((add.contains('x'), del.contains('x'))))
    }

    /// Up to `n` octal digits appended to `value`.
    fn octal(&mut self, mut value: u32, n: usize) -> u32 {
        for _ in 0..n {
            let Some(d) = self.peek().and_then(|c| c.to_digit(8)) else {
                break;
            };
            value = value * 8 + d;
            self.i += 1;
        }
        value
    }

    /// The escapes both `_escape` and `_class_escape` read: `\x`, `\u`, `\U`, `\N`. `Some` when
    /// `c` is one of them.
    fn code_escape(&mut self, start: usize, c: char) -> Option<Result<u32, PyRefusal>> {
        let digits = match c {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            'N' => {
                if !self.eat('{') {
                    return Some(Err(self.err_here(start, PyError::Other, "missing {")));
                }
                loop {
                    match self.bump() {
                        None => {
                            return Some(Err(self.err_here(
                                start,
                                PyError::Other,
                                "missing }, unterminated name",
                            )))
                        }
                        Some('}') => return Some(Ok(0)),
                        Some(_) => {}
                    }
                }
            }
            _ => return None,
        };
        let (value, count) = self.hex(digits);
        if count != digits {
            let end = self.pos();
            return Some(Err(self.err(
                start..end.max(start + 2),
                PyError::IncompleteEscape(c),
                &format!("incomplete escape {}", &self.text[start..end]),
            )));
        }
        if c == 'U' && value > 0x10_FFFF {
            return Some(Err(self.err_here(start, PyError::Other, "bad escape")));
        }
        Some(Ok(value))
    }

    fn bad_escape(&self, start: usize, c: char) -> PyRefusal {
        self.err(
            start..start + 1 + c.len_utf8(),
            if c.is_ascii_alphabetic() {
                PyError::BadEscape(c)
            } else {
                PyError::Other
            },
            &format!("bad escape \\{c}"),
        )
    }

    /// `_escape`: an escape outside a class, after its backslash (at `start`).
    pub(super) fn escape(&mut self, start: usize) -> Result<Item, PyRefusal> {
        let Some(c) = self.bump() else {
            return Err(self.err(
                start..start + 1,
                PyError::Other,
                "bad escape (end of pattern)",
            ));
        };
        match c {
            'A' | 'b' | 'B' | 'Z' => return Ok(Item::At),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'a' | 'f' | 'n' | 'r' | 't' | 'v' | '\\' => {
                return Ok(Item::Other((1, 1)))
            }
            '0' => {
                self.octal(0, 2);
                return Ok(Item::Other((1, 1)));
            }
            _ => {}
        }
        if let Some(result) = self.code_escape(start, c) {
            return result.map(|_| Item::Other((1, 1)));
        }
        if let Some(d) = c.to_digit(10) {
            let mut group = d;
            if let Some(d2) = self.peek().and_then(|n| n.to_digit(10)) {
                self.i += 1;
                if d < 8 && d2 < 8 {
                    if let Some(d3) = self.peek().and_then(|n| n.to_digit(8)) {
                        self.i += 1;
                        if d * 64 + d2 * 8 + d3 > 0o377 {
                            return Err(self.err_here(
                                start,
                                PyError::Other,
                                "octal escape value outside of range 0-0o377",
                            ));
                        }
                        return Ok(Item::Other((1, 1)));
                    }
                }
                group = d * 10 + d2;
            }
            let group = group as usize;
            if group < self.widths.len() {
                return self.reference(group, start);
            }
            return Err(self.err_here(
                start,
                PyError::GroupReference,
                &format!("invalid group reference {group}"),
            ));
        }
        if c.is_ascii_alphabetic() {
            return Err(self.bad_escape(start, c));
        }
        Ok(Item::Other((1, 1)))
    }

    /// `_class_escape`: an escape inside a class; `Some(code point)` for a literal, `None` for a
    /// category (`\d`).
    fn class_escape(&mut self, start: usize) -> Result<Option<u32>, PyRefusal> {
        let Some(c) = self.bump() else {
            return Err(self.err(
                start..start + 1,
                PyError::Other,
                "bad escape (end of pattern)",
            ));
        };
        let literal = match c {
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'n' => 10,
            'r' => 13,
            't' => 9,
            'v' => 11,
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => return Ok(None),
            _ => {
                if let Some(result) = self.code_escape(start, c) {
                    return result.map(Some);
                }
                if let Some(d) = c.to_digit(8) {
                    let value = self.octal(d, 2);
                    if value > 0o377 {
                        return Err(self.err_here(
                            start,
                            PyError::Other,
                            "octal escape value outside of range 0-0o377",
                        ));
                    }
                    return Ok(Some(value));
                }
                if c.is_ascii_alphanumeric() {
                    return Err(self.bad_escape(start, c));
                }
                u32::from(c)
            }
        };
        Ok(Some(literal))
    }

    /// A class, after its `[` (at `start`).
    pub(super) fn class(&mut self, start: usize) -> Result<(), PyRefusal> {
        let unterminated = |p: &Self| {
            p.err(
                start..start + 1,
                PyError::UnterminatedSet,
                "unterminated character set",
            )
        };
        self.eat('^');
        let mut empty = true;
        loop {
            let at = self.pos();
            let first = match self.bump() {
                None => return Err(unterminated(self)),
                Some(']') if !empty => return Ok(()),
                Some('\\') => self.class_escape(at)?,
                Some(c) => Some(u32::from(c)),
            };
            empty = false;
            if self.eat('-') {
                let at2 = self.pos();
                let second = match self.bump() {
                    None => return Err(unterminated(self)),
                    Some(']') => return Ok(()),
                    Some('\\') => self.class_escape(at2)?,
                    Some(c) => Some(u32::from(c)),
                };
                match (first, second) {
                    (Some(lo), Some(hi)) if lo <= hi => {}
                    _ => {
                        return Err(self.err_here(
                            at,
                            PyError::Other,
                            &format!("bad character range {}", &self.text[at..self.pos()]),
                        ))
                    }
                }
            }
        }
    }
}

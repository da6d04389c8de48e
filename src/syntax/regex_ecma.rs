//! Whether a pattern is a valid ECMA-262 regular expression with the `u` flag, the way Ajv 8
//! compiles `pattern` and `patternProperties` (`new RegExp(pattern, "u")`: its `unicodeRegExp`
//! option is on by default) and V8 parses it.
//!
//! The grammar is `Pattern[+UnicodeMode, +NamedCaptureGroups]`: no Annex B leniency, so `\:`,
//! `\-` outside a class and a lone `{`, `}` or `]` are errors. Unicode property names are checked
//! for shape only. Where V8 versions disagree this follows Node 20 (V8 11.3), except for pattern
//! modifiers (`(?i:...)`, ES2025, refused by Node 20 and 22, accepted from Node 23), which are
//! accepted and listed apart ([`EcmaPattern::modifiers`]) for a rule to say which Node refuses
//! them. A group name used twice is refused, as Node 20
//! does; later versions accept it in two different alternatives.

use super::regex_cursor::Cursor;
use std::ops::Range;

/// Why V8 refuses a pattern under the `u` flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcmaRefusal {
    /// The offending bytes of the pattern.
    pub range: Range<usize>,
    /// What kind of error it is.
    pub kind: EcmaError,
    /// V8's words for it (`Invalid escape`).
    pub message: &'static str,
}

/// The kinds of refusal whose fate in other engines differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcmaError {
    /// `\` before a character that is neither a letter nor a digit and that `u` mode does not
    /// allow to escape (`\:`, `\"`, `\-` outside a class): accepted without the `u` flag.
    IdentityEscape,
    /// A `{`, `}` or `]` that opens or closes nothing: accepted without the `u` flag.
    LoneBracket,
    /// Anything else.
    Other,
}

/// What a valid pattern holds that a repair needs to know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EcmaPattern {
    /// The `<name>` part of each named group `(?<name>...)`, brackets included.
    pub named_groups: Vec<Range<usize>>,
    /// Whether the pattern holds a back-reference (`\1`, `\k<name>`).
    pub backreferences: bool,
    /// Each pattern modifier group's opening (`(?i:`), which Node 20 and 22 refuse.
    pub modifiers: Vec<Range<usize>>,
    /// Each look-around group's opening (`(?=`, `(?!`, `(?<=`, `(?<!`), which engines without
    /// look-around (Go's `regexp`, RE2) refuse.
    pub lookarounds: Vec<Range<usize>>,
}

/// Parses `pattern` as V8 does with the `u` flag.
///
/// # Errors
/// The first refusal, with V8's words.
pub fn check(pattern: &str) -> Result<EcmaPattern, EcmaRefusal> {
    let mut p = Parser {
        chars: pattern.char_indices().collect(),
        len: pattern.len(),
        i: 0,
        groups: 0,
        names: Vec::new(),
        numbered: Vec::new(),
        named: Vec::new(),
        out: EcmaPattern::default(),
    };
    p.disjunction()?;
    if p.peek() == Some(')') {
        let at = p.pos();
        return Err(p.err(at, EcmaError::Other, "Unmatched ')'"));
    }
    for (n, range) in &p.numbered {
        if *n > p.groups {
            return Err(refusal(range.clone(), EcmaError::Other, "Invalid escape"));
        }
    }
    for (name, range) in &p.named {
        if !p.names.iter().any(|(n, _)| n == name) {
            return Err(refusal(
                range.clone(),
                EcmaError::Other,
                "Invalid named capture referenced",
            ));
        }
    }
    p.out.backreferences = !p.numbered.is_empty() || !p.named.is_empty();
    Ok(p.out)
}

struct Parser {
    chars: Vec<(usize, char)>,
    len: usize,
    i: usize,
    groups: u64,
    names: Vec<(String, Range<usize>)>,
    numbered: Vec<(u64, Range<usize>)>,
    named: Vec<(String, Range<usize>)>,
    out: EcmaPattern,
}

type Parsed<T> = Result<T, EcmaRefusal>;

/// The most capture groups V8 compiles in one pattern.
const MAX_CAPTURES: u64 = 32_767;

fn refusal(range: Range<usize>, kind: EcmaError, message: &'static str) -> EcmaRefusal {
    EcmaRefusal {
        range,
        kind,
        message,
    }
}

fn is_syntax(c: char) -> bool {
    "^$\\.*+?()[]{}|/".contains(c)
}

impl Cursor for Parser {
    fn chars(&self) -> &[(usize, char)] {
        &self.chars
    }

    fn at(&self) -> usize {
        self.i
    }

    fn at_mut(&mut self) -> &mut usize {
        &mut self.i
    }
}

impl Parser {
    fn pos(&self) -> usize {
        self.chars.get(self.i).map_or(self.len, |&(at, _)| at)
    }

    /// A refusal of the bytes from `start` to the cursor (at least one character).
    fn err(&self, start: usize, kind: EcmaError, message: &'static str) -> EcmaRefusal {
        let end = self.pos().max(
            start
                + self
                    .chars
                    .iter()
                    .find(|&&(at, _)| at == start)
                    .map_or(0, |&(_, c)| c.len_utf8()),
        );
        refusal(start..end.min(self.len), kind, message)
    }

    /// The whole pattern, up to its end or a `)` that closes no group (left at the cursor).
    ///
    /// A loop over an explicit stack of open groups, not a recursion per group: V8's parser
    /// keeps its open groups on a stack of its own and takes patterns nested a million groups
    /// deep (measured, Node 20), so this may not run out of stack on them either.
    fn disjunction(&mut self) -> Parsed<()> {
        // The open groups, innermost last: where each starts and whether it may be quantified.
        let mut open: Vec<(usize, bool)> = Vec::new();
        loop {
            let start = self.pos();
            let Some(c) = self.peek() else {
                return match open.last() {
                    Some(&(at, _)) => {
                        Err(refusal(at..at + 1, EcmaError::Other, "Unterminated group"))
                    }
                    None => Ok(()),
                };
            };
            self.i += 1;
            let quantifiable = match c {
                '|' => continue,
                ')' => {
                    let Some((_, quantifiable)) = open.pop() else {
                        self.i -= 1;
                        return Ok(());
                    };
                    quantifiable
                }
                '(' => {
                    let quantifiable = self.group(start)?;
                    open.push((start, quantifiable));
                    continue;
                }
                '^' | '$' => false,
                '\\' => self.atom_escape(start)?,
                '[' => {
                    self.class(start)?;
                    true
                }
                '*' | '+' | '?' => {
                    return Err(self.err(start, EcmaError::Other, "Nothing to repeat"))
                }
                '{' => {
                    self.i -= 1;
                    return Err(if self.braces()?.is_some() {
                        self.err(start, EcmaError::Other, "Nothing to repeat")
                    } else {
                        refusal(
                            start..start + 1,
                            EcmaError::LoneBracket,
                            "Lone quantifier brackets",
                        )
                    });
                }
                '}' | ']' => {
                    return Err(refusal(
                        start..start + 1,
                        EcmaError::LoneBracket,
                        "Lone quantifier brackets",
                    ))
                }
                _ => true,
            };
            self.quantifier(quantifiable)?;
        }
    }

    /// The quantifier, if any, after an atom that `quantifiable` says may take one.
    fn quantifier(&mut self, quantifiable: bool) -> Parsed<()> {
        let at = self.pos();
        let quantified = match self.peek() {
            Some('*' | '+' | '?') => {
                self.i += 1;
                true
            }
            Some('{') => match self.braces()? {
                Some(()) => true,
                None => {
                    return Err(refusal(
                        at..at + 1,
                        EcmaError::LoneBracket,
                        "Incomplete quantifier",
                    ))
                }
            },
            _ => false,
        };
        if quantified {
            if !quantifiable {
                return Err(self.err(at, EcmaError::Other, "Nothing to repeat"));
            }
            self.eat('?');
        }
        Ok(())
    }

    /// A `{n}`, `{n,}` or `{n,m}` quantifier at the cursor: consumed and `Some` when it is one,
    /// the cursor left alone and `None` when not.
    fn braces(&mut self) -> Parsed<Option<()>> {
        let start = self.i;
        let at = self.pos();
        self.i += 1;
        let lo = self.number();
        let hi = if self.eat(',') {
            if self.peek() == Some('}') {
                None
            } else {
                self.number()
            }
        } else {
            lo
        };
        if lo.is_none() || !self.eat('}') {
            self.i = start;
            return Ok(None);
        }
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if hi < lo {
                return Err(self.err(
                    at,
                    EcmaError::Other,
                    "numbers out of order in {} quantifier",
                ));
            }
        }
        Ok(Some(()))
    }

    fn number(&mut self) -> Option<u128> {
        let mut value: Option<u128> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = Some(
                value
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(u128::from(d)),
            );
            self.i += 1;
        }
        value
    }

    /// The opening of a group after its `(` (up to its content, which [`Parser::disjunction`]
    /// reads); whether the group may be quantified (lookarounds may not).
    fn group(&mut self, start: usize) -> Parsed<bool> {
        let mut quantifiable = true;
        if self.eat('?') {
            match self.bump() {
                Some(':') => {}
                Some('=' | '!') => {
                    quantifiable = false;
                    self.out.lookarounds.push(start..self.pos());
                }
                Some('<') if self.eat('=') || self.eat('!') => {
                    quantifiable = false;
                    self.out.lookarounds.push(start..self.pos());
                }
                Some('<') => {
                    // V8 counts the group before it reads the name.
                    self.captured(start)?;
                    let name_start = self.pos() - 1;
                    let name = self.group_name(name_start)?;
                    let range = name_start..self.pos();
                    if self.names.iter().any(|(n, _)| *n == name) {
                        return Err(refusal(
                            range,
                            EcmaError::Other,
                            "Duplicate capture group name",
                        ));
                    }
                    self.names.push((name, range.clone()));
                    self.out.named_groups.push(range);
                }
                Some(c) if "ims-".contains(c) => {
                    // Pattern modifiers (ES2025): accepted, see the module's doc.
                    self.i -= 1;
                    while self.peek().is_some_and(|c| "ims-".contains(c)) {
                        self.i += 1;
                    }
                    if !self.eat(':') {
                        return Err(self.err(start, EcmaError::Other, "Invalid group"));
                    }
                    self.out.modifiers.push(start..self.pos());
                }
                _ => return Err(self.err(start, EcmaError::Other, "Invalid group")),
            }
        } else {
            self.captured(start)?;
        }
        Ok(quantifiable)
    }

    /// Counts a capture group opened at `start`: V8 refuses the 32,768th (measured, Node 20:
    /// 32,767 groups compile, 32,768 throw `Too many captures`).
    fn captured(&mut self, start: usize) -> Parsed<()> {
        if self.groups >= MAX_CAPTURES {
            return Err(refusal(
                start..start + 1,
                EcmaError::Other,
                "Too many captures",
            ));
        }
        self.groups += 1;
        Ok(())
    }

    /// A group name after its `<`, up to and including `>`.
    fn group_name(&mut self, start: usize) -> Parsed<String> {
        let mut name = String::new();
        loop {
            let c = match self.bump() {
                None => {
                    return Err(self.err(start, EcmaError::Other, "Invalid capture group name"))
                }
                Some('>') if !name.is_empty() => return Ok(name),
                Some('\\') if self.eat('u') => {
                    let at = self.pos();
                    let value = self.unicode_escape(at)?;
                    char::from_u32(value).unwrap_or('\u{fffd}')
                }
                Some(c) => c,
            };
            let ok = if name.is_empty() {
                c == '$' || c == '_' || c.is_alphabetic()
            } else {
                c == '$' || c == '_' || c == '\u{200c}' || c == '\u{200d}' || c.is_alphanumeric()
            };
            if !ok {
                return Err(self.err(start, EcmaError::Other, "Invalid capture group name"));
            }
            name.push(c);
        }
    }

    /// An escape outside a class, after its backslash; whether it may be quantified.
    fn atom_escape(&mut self, start: usize) -> Parsed<bool> {
        let Some(c) = self.bump() else {
            return Err(self.err(start, EcmaError::Other, "\\ at end of pattern"));
        };
        match c {
            'b' | 'B' => return Ok(false),
            '1'..='9' => {
                self.i -= 1;
                let n = self.number().unwrap_or(0);
                let n = u64::try_from(n).unwrap_or(u64::MAX);
                self.numbered.push((n, start..self.pos()));
            }
            'k' => {
                if !self.eat('<') {
                    return Err(self.err(start, EcmaError::Other, "Invalid named reference"));
                }
                let name = self.group_name(start)?;
                self.named.push((name, start..self.pos()));
            }
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {}
            'p' | 'P' => self.property(start)?,
            _ => {
                self.character_escape(start, c, false)?;
            }
        }
        Ok(true)
    }

    /// `CharacterEscape` (and `-` in a class), after the backslash and `c`: its code point.
    fn character_escape(&mut self, start: usize, c: char, in_class: bool) -> Parsed<u32> {
        Ok(match c {
            'f' => 12,
            'n' => 10,
            'r' => 13,
            't' => 9,
            'v' => 11,
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.i += 1;
                    u32::from(l) % 32
                }
                _ => return Err(self.err(start, EcmaError::Other, "Invalid unicode escape")),
            },
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => 0,
            'x' => {
                let (value, count) = self.hex(2);
                if count != 2 {
                    return Err(self.err(start, EcmaError::Other, "Invalid escape"));
                }
                value
            }
            'u' => self.unicode_escape(start)?,
            '-' if in_class => u32::from('-'),
            c if is_syntax(c) => u32::from(c),
            c if !c.is_alphanumeric() => {
                return Err(self.err(start, EcmaError::IdentityEscape, "Invalid escape"))
            }
            _ => {
                let message = if in_class {
                    "Invalid class escape"
                } else {
                    "Invalid escape"
                };
                return Err(self.err(start, EcmaError::Other, message));
            }
        })
    }

    /// After `\u`: `HHHH` (a surrogate pair of two such escapes makes one code point) or `{H...}`.
    fn unicode_escape(&mut self, start: usize) -> Parsed<u32> {
        let invalid = |p: &Self| p.err(start, EcmaError::Other, "Invalid Unicode escape");
        if self.eat('{') {
            let mut value = 0u32;
            let mut count = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                value = value.saturating_mul(16).saturating_add(d);
                count += 1;
                self.i += 1;
            }
            if count == 0 || value > 0x10_FFFF || !self.eat('}') {
                return Err(invalid(self));
            }
            return Ok(value);
        }
        let (value, count) = self.hex(4);
        if count != 4 {
            return Err(invalid(self));
        }
        if (0xD800..0xDC00).contains(&value)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let saved = self.i;
            self.i += 2;
            let (low, count) = self.hex(4);
            if count == 4 && (0xDC00..0xE000).contains(&low) {
                return Ok(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00));
            }
            self.i = saved;
        }
        Ok(value)
    }

    /// After `\p` or `\P`: `{Name}` or `{Name=Value}`, checked for shape.
    fn property(&mut self, start: usize) -> Parsed<()> {
        let invalid = |p: &Self| p.err(start, EcmaError::Other, "Invalid property name");
        if !self.eat('{') {
            return Err(invalid(self));
        }
        let mut seen_equals = false;
        let mut part = 0;
        loop {
            match self.bump() {
                Some('}') if part > 0 => return Ok(()),
                Some('=') if !seen_equals && part > 0 => {
                    seen_equals = true;
                    part = 0;
                }
                Some(c) if c.is_ascii_alphanumeric() || c == '_' => part += 1,
                _ => return Err(invalid(self)),
            }
        }
    }

    /// A class after its `[`.
    fn class(&mut self, start: usize) -> Parsed<()> {
        self.eat('^');
        loop {
            if self.eat(']') {
                return Ok(());
            }
            let at = self.pos();
            let first = self.class_atom(start)?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.i += 1;
                let second = self.class_atom(start)?;
                match (first, second) {
                    (Some(lo), Some(hi)) if lo > hi => {
                        return Err(self.err(
                            at,
                            EcmaError::Other,
                            "Range out of order in character class",
                        ))
                    }
                    (Some(_), Some(_)) => {}
                    _ => return Err(self.err(at, EcmaError::Other, "Invalid character class")),
                }
            }
        }
    }

    /// One class atom: `Some(code point)`, or `None` for a class escape (`\d`, `\p{L}`).
    fn class_atom(&mut self, class_start: usize) -> Parsed<Option<u32>> {
        let at = self.pos();
        match self.bump() {
            None => Err(refusal(
                class_start..class_start + 1,
                EcmaError::Other,
                "Unterminated character class",
            )),
            Some('\\') => {
                let Some(c) = self.bump() else {
                    return Err(self.err(at, EcmaError::Other, "\\ at end of pattern"));
                };
                match c {
                    'b' => Ok(Some(8)),
                    'd' | 'D' | 's' | 'S' | 'w' | 'W' => Ok(None),
                    'p' | 'P' => self.property(at).map(|()| None),
                    _ => self.character_escape(at, c, true).map(Some),
                }
            }
            Some(c) => Ok(Some(u32::from(c))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn records_each_lookaround_and_nothing_escaped_or_in_a_class() {
        let at = |p: &str| {
            check(p)
                .map(|parsed| parsed.lookarounds)
                .unwrap_or_default()
        };
        assert_eq!(
            at("^(?!\\.)(?=a)(?<=b)(?<!c)x"),
            vec![1..4, 7..10, 12..16, 18..22]
        );
        assert!(at("^\\(\\?=[(?!](?:a)(?<name>b)$").is_empty());
    }
}

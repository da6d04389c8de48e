//! Whether Python's `re` compiles a pattern, decided without Python: a port of the error paths of
//! Python 3.11's `re/_parser.py` (and of the look-behind width check of `re/_compiler.py`), the
//! module the Python `jsonschema` package calls when it checks `"format": "regex"`.
//!
//! Only whether the pattern compiles is modelled, with the place and the words of Python's
//! error; what a pattern matches is not. Constructs whose fate changed between Python versions
//! (possessive quantifiers and atomic groups, 3.11) follow 3.11 and later.

mod escapes;
#[cfg(test)]
mod tests;

use super::regex_cursor::Cursor;
use std::collections::HashMap;
use std::ops::Range;

/// Why Python's `re` refuses a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyRefusal {
    /// The bytes of the pattern Python's error points at.
    pub range: Range<usize>,
    /// What kind of error it is.
    pub kind: PyError,
    /// Python's own message, without the position (`bad escape \p`).
    pub message: String,
}

/// The errors of `re` that a pattern valid in ECMA-262 can run into, and the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyError {
    /// `\` and a letter `re` does not know (`\p`, `\k`, `\c`, `\z`).
    BadEscape(char),
    /// `\x`, `\u` or `\U` without its hexadecimal digits (`\u{41}`).
    IncompleteEscape(char),
    /// `(?` and a character `re` does not know there (`(?<n` of an ECMA-262 named group).
    UnknownExtension,
    /// A `[` without its `]` (ECMA-262's `[]` and `[^]` run to the end of the pattern).
    UnterminatedSet,
    /// A back-reference to a group that is not defined yet, or is still open.
    GroupReference,
    /// A look-behind whose content can match strings of different lengths.
    LookBehindWidth,
    /// Groups nested so deep that `re`'s recursive parser runs into Python's recursion limit
    /// (`RecursionError`, which `re` does not turn into its own `re.error`).
    TooDeep,
    /// Anything else (`nothing to repeat`, `missing )` ...).
    Other,
}

type Width = (u128, u128);
/// `re._parser.MAXWIDTH`.
const MAX_WIDTH: u128 = 1 << 64;
/// `_sre.MAXREPEAT` on 64-bit builds.
const MAX_REPEAT: u128 = 4_294_967_295;
/// The deepest `nested` (the argument `_parse` counts its calls with, one more than the
/// number of `_parse` and `_parse_sub` calls under way) at which Python 3.11's `re.compile`
/// still parses, called at the top of a script with the default recursion limit of 1,000:
/// measured, 495 nested groups compile and 496 raise `RecursionError` (`_parse_sub` and
/// `_parse` for each group), and 990 nested conditionals `(?(1)...)` compile and 991 do not
/// (one `_parse` each). A client calls `re.compile` from further down its own stack, so it
/// gives up a little sooner; and `re` recurses again to compile and measure a pattern, which
/// for alternatives inside the groups costs one level more (494 groups `(a|` compile, 495 do
/// not), not modelled here. It bounds this parser's own recursion too: about 4 MiB of stack
/// in a debug build.
const MAX_NESTED: usize = 991;
/// `_sre.MAXGROUPS` on 64-bit builds.
const MAX_GROUPS: usize = 1_073_741_823;

/// What the opening of a group (`(`, `(?:`, `(?P<name>`...) says is to follow.
enum Opening {
    /// Nothing: the group is complete, its item (if it leaves one) read.
    Done(Option<Item>),
    /// A look-ahead, or a look-behind (`behind`).
    Look { behind: bool },
    /// A conditional group, after its `(?(`.
    Conditional,
    /// Another group: its number if it captures, and whether its content is verbose.
    Group { gid: Option<usize>, verbose: bool },
}

/// What `_parse` keeps of an item: enough to judge a quantifier after it, and its width.
#[derive(Clone, Copy)]
enum Item {
    /// `^`, `$`, `\A`, `\b`, `\B`, `\Z`: nothing to repeat.
    At,
    /// A repeated item: a second quantifier is a "multiple repeat".
    Repeat(Width),
    /// Anything else, with its width.
    Other(Width),
}

impl Item {
    fn width(self) -> Width {
        match self {
            Item::At => (0, 0),
            Item::Repeat(w) | Item::Other(w) => w,
        }
    }
}

/// `Ok` when Python's `re.compile(pattern)` succeeds, else the first error it raises.
///
/// # Errors
/// The refusal, as Python words and places it.
pub fn check(pattern: &str) -> Result<(), PyRefusal> {
    let mut parser = Parser {
        text: pattern,
        chars: pattern.char_indices().collect(),
        i: 0,
        widths: vec![None],
        names: HashMap::new(),
        lookbehind: None,
        refs: Vec::new(),
        global_verbose: false,
    };
    parser.parse_sub(false, 0)?;
    if parser.i < parser.chars.len() {
        let at = parser.pos();
        return Err(parser.err(at..at + 1, PyError::Other, "unbalanced parenthesis"));
    }
    for &(group, at) in &parser.refs {
        if group >= parser.widths.len() {
            return Err(parser.err(
                at..at + 1,
                PyError::GroupReference,
                &format!("invalid group reference {group}"),
            ));
        }
    }
    Ok(())
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    i: usize,
    /// `State.groupwidths`: group 0, then one entry per group, `None` while it is open.
    widths: Vec<Option<Width>>,
    names: HashMap<String, usize>,
    /// `State.lookbehindgroups`.
    lookbehind: Option<usize>,
    /// Conditional group numbers and where they are, checked at the end (`grouprefpos`).
    refs: Vec<(usize, usize)>,
    /// Whether global flags turned on verbose mode (`(?x)`).
    global_verbose: bool,
}

impl Cursor for Parser<'_> {
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

impl Parser<'_> {
    fn pos(&self) -> usize {
        self.chars
            .get(self.i)
            .map_or(self.text.len(), |&(at, _)| at)
    }

    fn err(&self, range: Range<usize>, kind: PyError, message: &str) -> PyRefusal {
        let end = range.end.min(self.text.len()).max(range.start);
        PyRefusal {
            range: range.start..end,
            kind,
            message: message.to_owned(),
        }
    }

    /// An error on the bytes from `start` to the cursor.
    fn err_here(&self, start: usize, kind: PyError, message: &str) -> PyRefusal {
        let end = self.pos().max(start + 1);
        self.err(start..end, kind, message)
    }

    /// `_parse_sub`: alternatives separated by `|`.
    fn parse_sub(&mut self, verbose: bool, nested: usize) -> Result<Width, PyRefusal> {
        let mut width: Option<Width> = None;
        let mut first = nested == 0;
        loop {
            let w = self.parse(verbose, nested + 1, first)?;
            first = false;
            width = Some(width.map_or(w, |(lo, hi)| (lo.min(w.0), hi.max(w.1))));
            if !self.eat('|') {
                break;
            }
        }
        Ok(width.unwrap_or((0, 0)))
    }

    /// `_parse`: one alternative, up to `|`, `)` or the end.
    ///
    /// This, [`Parser::parse_sub`], [`Parser::group`] and [`Parser::conditional`] recurse once
    /// per group, as `re` does, down to [`MAX_NESTED`]: what they do besides recursing is in
    /// functions of their own ([`Parser::repeat`], [`Parser::opening`],
    /// [`Parser::condition`]), so that each level takes little stack.
    fn parse(&mut self, mut verbose: bool, nested: usize, first: bool) -> Result<Width, PyRefusal> {
        let mut items: Vec<Item> = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let start = self.pos();
            self.i += 1;
            if verbose {
                if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') {
                    continue;
                }
                if c == '#' {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                    continue;
                }
            }
            match c {
                '\\' => items.push(self.escape(start)?),
                '[' => {
                    self.class(start)?;
                    items.push(Item::Other((1, 1)));
                }
                '*' | '+' | '?' | '{' => self.repeat(c, start, &mut items)?,
                '^' | '$' => items.push(Item::At),
                '(' => {
                    if let Some(item) =
                        self.group(start, verbose, nested, first, &items, &mut verbose)?
                    {
                        items.push(item);
                    }
                }
                _ => items.push(Item::Other((1, 1))),
            }
        }
        let width = items.iter().fold((0u128, 0u128), |(lo, hi), item| {
            let (l, h) = item.width();
            ((lo + l).min(MAX_WIDTH), (hi + h).min(MAX_WIDTH))
        });
        Ok(width)
    }

    /// A quantifier (`*`, `+`, `?`, `{m,n}`) after its first character `c`, applied to the last
    /// of `items`; a `{` that opens no quantifier is a literal.
    fn repeat(&mut self, c: char, start: usize, items: &mut Vec<Item>) -> Result<(), PyRefusal> {
        let (min, max) = match c {
            '?' => (0, 1),
            '*' => (0, MAX_REPEAT),
            '+' => (1, MAX_REPEAT),
            _ => {
                if self.peek() == Some('}') {
                    items.push(Item::Other((1, 1)));
                    return Ok(());
                }
                let here = self.i;
                let lo = self.digits();
                let hi = if self.eat(',') {
                    self.digits()
                } else {
                    lo.clone()
                };
                if !self.eat('}') {
                    self.i = here;
                    items.push(Item::Other((1, 1)));
                    return Ok(());
                }
                let number = |s: &str| s.parse::<u128>().unwrap_or(u128::MAX);
                let min = if lo.is_empty() { 0 } else { number(&lo) };
                let max = if hi.is_empty() {
                    MAX_REPEAT
                } else {
                    number(&hi)
                };
                if (!lo.is_empty() && min >= MAX_REPEAT) || (!hi.is_empty() && max >= MAX_REPEAT) {
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "the repetition number is too large",
                    ));
                }
                if max < min {
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "min repeat greater than max repeat",
                    ));
                }
                (min, max)
            }
        };
        let item = match items.last() {
            None | Some(Item::At) => {
                return Err(self.err_here(start, PyError::Other, "nothing to repeat"))
            }
            Some(Item::Repeat(_)) => {
                return Err(self.err_here(start, PyError::Other, "multiple repeat"))
            }
            Some(&Item::Other(w)) => w,
        };
        if !self.eat('?') {
            self.eat('+');
        }
        let lo = (item.0 * min).min(MAX_WIDTH);
        let hi = if max == MAX_REPEAT && item.1 > 0 {
            MAX_WIDTH
        } else {
            (item.1 * max).min(MAX_WIDTH)
        };
        items.pop();
        items.push(Item::Repeat((lo, hi)));
        Ok(())
    }

    fn digits(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            s.push(c);
            self.i += 1;
        }
        s
    }

    /// A group, after its `(`; `None` for what leaves no item (a comment, global flags).
    fn group(
        &mut self,
        start: usize,
        verbose: bool,
        nested: usize,
        first: bool,
        items: &[Item],
        outer_verbose: &mut bool,
    ) -> Result<Option<Item>, PyRefusal> {
        let (gid, sub_verbose) = match self.opening(start, verbose, first, items, outer_verbose)? {
            Opening::Done(item) => return Ok(item),
            Opening::Conditional => return self.conditional(start, verbose, nested).map(Some),
            Opening::Look { behind } => {
                let saved = self.lookbehind;
                if behind && saved.is_none() {
                    self.lookbehind = Some(self.widths.len());
                }
                self.descend(start, nested + 2)?;
                let (lo, hi) = self.parse_sub(verbose, nested + 1)?;
                if behind {
                    self.lookbehind = saved;
                }
                self.close(start)?;
                if behind && lo != hi {
                    return Err(self.err_here(
                        start,
                        PyError::LookBehindWidth,
                        "look-behind requires fixed-width pattern",
                    ));
                }
                return Ok(Some(Item::Other((0, 0))));
            }
            Opening::Group { gid, verbose } => (gid, verbose),
        };
        self.descend(start, nested + 2)?;
        let width = self.parse_sub(sub_verbose, nested + 1)?;
        self.close(start)?;
        if let Some(gid) = gid {
            self.widths[gid] = Some(width);
        }
        Ok(Some(Item::Other(width)))
    }

    /// The `)` that closes the group at `start`.
    fn close(&mut self, start: usize) -> Result<(), PyRefusal> {
        if self.eat(')') {
            Ok(())
        } else {
            Err(self.err_here(start, PyError::Other, "missing ), unterminated subpattern"))
        }
    }

    /// What follows the `(` of the group at `start`, up to its content.
    #[allow(clippy::too_many_lines)]
    fn opening(
        &mut self,
        start: usize,
        verbose: bool,
        first: bool,
        items: &[Item],
        outer_verbose: &mut bool,
    ) -> Result<Opening, PyRefusal> {
        let mut name = None;
        let mut capture = true;
        let mut sub_verbose = verbose;
        if self.eat('?') {
            let Some(c) = self.bump() else {
                return Err(self.err_here(start, PyError::Other, "unexpected end of pattern"));
            };
            match c {
                'P' => {
                    if self.eat('<') {
                        name = Some(self.name('>')?);
                    } else if self.eat('=') {
                        let at = self.pos();
                        let n = self.name(')')?;
                        let Some(&gid) = self.names.get(&n) else {
                            return Err(self.err_here(
                                at,
                                PyError::GroupReference,
                                &format!("unknown group name '{n}'"),
                            ));
                        };
                        return self
                            .reference(gid, at)
                            .map(|item| Opening::Done(Some(item)));
                    } else {
                        let next = self.bump().map_or(String::new(), String::from);
                        return Err(self.err_here(
                            start,
                            PyError::UnknownExtension,
                            &format!("unknown extension ?P{next}"),
                        ));
                    }
                }
                ':' | '>' => capture = false,
                '#' => {
                    while let Some(c) = self.bump() {
                        if c == ')' {
                            return Ok(Opening::Done(None));
                        }
                    }
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "missing ), unterminated comment",
                    ));
                }
                '=' | '!' | '<' => {
                    let behind = c == '<';
                    if behind {
                        match self.bump() {
                            Some('=' | '!') => {}
                            other => {
                                let other = other.map_or(String::new(), String::from);
                                return Err(self.err_here(
                                    start,
                                    PyError::UnknownExtension,
                                    &format!("unknown extension ?<{other}"),
                                ));
                            }
                        }
                    }
                    return Ok(Opening::Look { behind });
                }
                '(' => return Ok(Opening::Conditional),
                c if "aiLmsxtu-".contains(c) => match self.flags(start, c)? {
                    None => {
                        if !first || !items.is_empty() {
                            return Err(self.err_here(
                                start,
                                PyError::Other,
                                "global flags not at the start of the expression",
                            ));
                        }
                        *outer_verbose = self.global_verbose;
                        return Ok(Opening::Done(None));
                    }
                    Some((add_x, del_x)) => {
                        capture = false;
                        sub_verbose = (verbose || add_x) && !del_x;
                    }
                },
                c => {
                    return Err(self.err_here(
                        start,
                        PyError::UnknownExtension,
                        &format!("unknown extension ?{c}"),
                    ))
                }
            }
        }
        let gid = if capture {
            let gid = self.widths.len();
            self.widths.push(None);
            if self.widths.len() > MAX_GROUPS {
                return Err(self.err_here(start, PyError::Other, "too many groups"));
            }
            if let Some(n) = &name {
                if self.names.insert(n.clone(), gid).is_some() {
                    return Err(self.err_here(start, PyError::Other, "redefinition of group name"));
                }
            }
            Some(gid)
        } else {
            None
        };
        Ok(Opening::Group {
            gid,
            verbose: sub_verbose,
        })
    }

    /// Before the content of the group at `start` is parsed at depth `nested` (as `_parse`
    /// counts it): the refusal Python's recursion limit makes when that is too deep.
    fn descend(&self, start: usize, nested: usize) -> Result<(), PyRefusal> {
        if nested > MAX_NESTED {
            return Err(self.err(
                start..start + 1,
                PyError::TooDeep,
                "maximum recursion depth exceeded",
            ));
        }
        Ok(())
    }

    /// `getuntil` and `checkgroupname`: a group name up to `terminator`.
    fn name(&mut self, terminator: char) -> Result<String, PyRefusal> {
        let start = self.pos();
        let mut name = String::new();
        loop {
            match self.bump() {
                None => {
                    let message = if name.is_empty() {
                        "missing group name".to_owned()
                    } else {
                        format!("missing {terminator}, unterminated name")
                    };
                    return Err(self.err_here(start, PyError::Other, &message));
                }
                Some(c) if c == terminator => break,
                Some(c) => name.push(c),
            }
        }
        if name.is_empty() {
            return Err(self.err_here(start, PyError::Other, "missing group name"));
        }
        if !is_identifier(&name) {
            return Err(self.err_here(
                start,
                PyError::Other,
                &format!("bad character in group name '{name}'"),
            ));
        }
        Ok(name)
    }

    /// A back-reference to group `gid` (`\1`, `(?P=name)`), at byte `at`.
    fn reference(&self, gid: usize, at: usize) -> Result<Item, PyRefusal> {
        let width = self.widths.get(gid).copied().flatten();
        let Some(width) = width else {
            return Err(self.err_here(
                at,
                PyError::GroupReference,
                "cannot refer to an open group",
            ));
        };
        if let Some(first) = self.lookbehind {
            if gid >= first {
                return Err(self.err_here(
                    at,
                    PyError::Other,
                    "cannot refer to group defined in the same lookbehind subpattern",
                ));
            }
        }
        Ok(Item::Other(width))
    }

    /// `(?(id/name)yes|no)`, after its `(?(`.
    fn conditional(
        &mut self,
        start: usize,
        verbose: bool,
        nested: usize,
    ) -> Result<Item, PyRefusal> {
        self.condition(start)?;
        self.descend(start, nested + 1)?;
        let yes = self.parse(verbose, nested + 1, false)?;
        let no = if self.eat('|') {
            let no = self.parse(verbose, nested + 1, false)?;
            if self.peek() == Some('|') {
                return Err(self.err_here(
                    start,
                    PyError::Other,
                    "conditional backref with more than two branches",
                ));
            }
            Some(no)
        } else {
            None
        };
        self.close(start)?;
        Ok(Item::Other(match no {
            Some(no) => (yes.0.min(no.0), yes.1.max(no.1)),
            None => (0, yes.1),
        }))
    }

    /// The `id/name)` of a conditional group at `start`, checked.
    fn condition(&mut self, start: usize) -> Result<(), PyRefusal> {
        let at = self.pos();
        let mut name = String::new();
        loop {
            match self.bump() {
                None => {
                    return Err(self.err_here(
                        start,
                        PyError::Other,
                        "missing ), unterminated name",
                    ))
                }
                Some(')') => break,
                Some(c) => name.push(c),
            }
        }
        if name.is_empty() {
            return Err(self.err_here(at, PyError::Other, "missing group name"));
        }
        let gid = if is_identifier(&name) {
            match self.names.get(&name) {
                Some(&gid) => gid,
                None => {
                    return Err(self.err_here(
                        at,
                        PyError::GroupReference,
                        &format!("unknown group name '{name}'"),
                    ))
                }
            }
        } else {
            let Some(gid) = name
                .parse::<usize>()
                .ok()
                .filter(|_| name.chars().all(|c| c.is_ascii_digit()))
            else {
                return Err(self.err_here(at, PyError::Other, "bad character in group name"));
            };
            if gid == 0 {
                return Err(self.err_here(at, PyError::Other, "bad group number"));
            }
            if gid >= MAX_GROUPS {
                return Err(self.err_here(at, PyError::GroupReference, "invalid group reference"));
            }
            self.refs.push((gid, at));
            gid
        };
        if let Some(first) = self.lookbehind {
            if self.widths.get(gid).copied().flatten().is_none() {
                return Err(self.err_here(
                    at,
                    PyError::GroupReference,
                    "cannot refer to an open group",
                ));
            }
            if gid >= first {
                return Err(self.err_here(
                    at,
                    PyError::Other,
                    "cannot refer to group defined in the same lookbehind subpattern",
                ));
            }
        }
        Ok(())
    }
}

/// `str.isidentifier`, close enough: a letter or `_`, then letters, digits and `_`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

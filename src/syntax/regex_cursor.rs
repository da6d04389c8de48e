//! The character cursor that both regex checkers ([`super::regex_ecma`] and
//! [`super::regex_python`]) read a pattern with: the pattern's characters with their byte
//! offsets, and the index of the next one.

/// A parser that reads a pattern character by character.
pub(super) trait Cursor {
    /// The pattern's characters, each with its byte offset.
    fn chars(&self) -> &[(usize, char)];

    /// The index in [`Cursor::chars`] of the next character.
    fn at(&self) -> usize;

    /// The index in [`Cursor::chars`] of the next character, to move it.
    fn at_mut(&mut self) -> &mut usize;

    /// The next character, if any.
    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    /// The character `n` places after the next one, if any.
    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars().get(self.at() + n).map(|&(_, c)| c)
    }

    /// Takes the next character.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        *self.at_mut() += 1;
        Some(c)
    }

    /// Takes the next character if it is `c`.
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            *self.at_mut() += 1;
            true
        } else {
            false
        }
    }

    /// Takes up to `n` hexadecimal digits: their value and how many there were.
    fn hex(&mut self, n: usize) -> (u32, usize) {
        let mut value = 0u32;
        let mut count = 0;
        while count < n {
            let Some(d) = self.peek().and_then(|c| c.to_digit(16)) else {
                break;
            };
            value = value.saturating_mul(16).saturating_add(d);
            count += 1;
            *self.at_mut() += 1;
        }
        (value, count)
    }
}

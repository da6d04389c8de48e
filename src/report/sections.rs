//! A finding's text in the order every format that shows more than the headline gives it: the
//! message, the help, then the note, which ends with the clients that break (written from the
//! measured `breaks`). The human format and the language server both build on it.

use crate::diagnostic::Diagnostic;
use std::borrow::Cow;

/// The parts of a finding's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sections<'a> {
    /// The headline: what is wrong.
    pub message: &'a str,
    /// How to resolve it, when there is advice.
    pub help: Option<&'a str>,
    /// The background, ending with the client note for a finding with a class.
    pub note: Option<String>,
}

impl<'a> Sections<'a> {
    /// The sections of `d`.
    #[must_use]
    pub fn of(d: &'a Diagnostic) -> Self {
        Self {
            message: &d.message,
            help: d.help.as_deref(),
            note: d.full_note(),
        }
    }

    /// What follows the headline: the help, then `note: ...` on a line of its own; each part
    /// shown through `shown` (the terminal's `printable`). `None` when there is neither.
    #[must_use]
    pub fn after_message(&self, shown: impl Fn(&str) -> Cow<'_, str>) -> Option<String> {
        let help = self.help.map(&shown);
        let note = self.note.as_deref().map(&shown);
        match (help, note) {
            (None, None) => None,
            (Some(h), None) => Some(h.into_owned()),
            (None, Some(n)) => Some(format!("note: {n}")),
            (Some(h), Some(n)) => Some(format!("{h}\nnote: {n}")),
        }
    }

    /// The message, then a `help: ...` and a `note: ...` line where there are: the finding as
    /// one text, as an editor shows it.
    #[must_use]
    pub fn text(&self) -> String {
        let mut text = self.message.to_owned();
        if let Some(help) = self.help {
            text.push_str("\nhelp: ");
            text.push_str(help);
        }
        if let Some(note) = &self.note {
            text.push_str("\nnote: ");
            text.push_str(note);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::meta::PARSE_ERROR;
    use crate::syntax::source::{FileId, Span};

    #[test]
    fn help_then_note() {
        let d = Diagnostic::new(&PARSE_ERROR, FileId(0), Span::default(), "Bad")
            .help("Do this")
            .note("Because");
        let s = Sections::of(&d);
        assert_eq!(s.text(), "Bad\nhelp: Do this\nnote: Because");
        assert_eq!(
            s.after_message(|t| Cow::Borrowed(t)).as_deref(),
            Some("Do this\nnote: Because")
        );
        let bare = Diagnostic::new(&PARSE_ERROR, FileId(0), Span::default(), "Bad").note("N");
        let s = Sections::of(&bare);
        assert_eq!(
            s.after_message(|t| Cow::Borrowed(t)).as_deref(),
            Some("note: N")
        );
        assert_eq!(s.text(), "Bad\nnote: N");
    }
}

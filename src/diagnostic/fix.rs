//! Fixes as byte-range edits, possibly across several files, and how they are applied.

use crate::syntax::source::{FileId, Span};
use serde::Serialize;

/// How safe it is to apply a fix without a human looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Keeps the meaning for every engine that could use the schema: applied by `--fix`.
    Safe,
    /// Changes which instances validate or what goes over the wire: needs `--unsafe-fixes`.
    Unsafe,
    /// Shown as a suggestion, never applied.
    DisplayOnly,
}

impl std::fmt::Display for Applicability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
            Applicability::DisplayOnly => "display-only",
        })
    }
}

/// Replace the bytes of `span` in `file` with `content`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The file to change.
    pub file: FileId,
    /// The bytes to replace in the file's text (empty to insert at `span.start`).
    pub span: Span,
    /// The replacement text (empty to delete).
    pub content: String,
}

/// A subtree a fix moves from one JSON pointer to another within a file, so that verification
/// can follow the references that move with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The file the subtree moves within.
    pub file: FileId,
    /// JSON pointer of the subtree before the fix.
    pub from: String,
    /// JSON pointer of the subtree after the fix.
    pub to: String,
}

impl Move {
    /// Where `pointer` (in `file`) is after the move.
    #[must_use]
    pub fn apply(&self, file: FileId, pointer: &str) -> Option<String> {
        if file != self.file {
            return None;
        }
        let rest = pointer.strip_prefix(self.from.as_str())?;
        (rest.is_empty() || rest.starts_with('/')).then(|| format!("{}{rest}", self.to))
    }
}

/// A repair: applied whole, across all the files its edits touch, or not at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as a short imperative phrase for the user.
    pub title: String,
    /// How safe it is to apply without review.
    pub applicability: Applicability,
    /// The byte edits, in any order and possibly in several files; they must not overlap.
    pub edits: Vec<Edit>,
    /// Subtrees the edits move (the `defs` repair); empty for in-place edits.
    pub moves: Vec<Move>,
}

/// Applies non-overlapping edits of one file to its text, back to front.
///
/// # Errors
/// When two edits overlap or one lies outside the text.
pub fn apply_edits(text: &str, edits: &[&Edit]) -> Result<String, String> {
    let mut sorted: Vec<&&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    for pair in sorted.windows(2) {
        if pair[0].span.end > pair[1].span.start {
            return Err(format!(
                "edits overlap at bytes {}..{} and {}..{}",
                pair[0].span.start, pair[0].span.end, pair[1].span.start, pair[1].span.end
            ));
        }
    }
    let mut out = text.to_owned();
    for edit in sorted.iter().rev() {
        let range = edit.span.start..edit.span.end;
        if range.end > out.len()
            || !out.is_char_boundary(range.start)
            || !out.is_char_boundary(range.end)
        {
            return Err(format!(
                "edit {}..{} lies outside the text",
                range.start, range.end
            ));
        }
        out.replace_range(range, &edit.content);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, content: &str) -> Edit {
        Edit {
            file: FileId(0),
            span: Span::new(start, end),
            content: content.to_owned(),
        }
    }

    #[test]
    fn applies_back_to_front() {
        let a = edit(1, 2, "XY");
        let b = edit(4, 5, "");
        assert_eq!(apply_edits("abcdef", &[&b, &a]).unwrap(), "aXYcdf");
    }

    #[test]
    fn refuses_overlap_and_out_of_range() {
        assert!(apply_edits("abcdef", &[&edit(1, 3, ""), &edit(2, 4, "")]).is_err());
        assert!(apply_edits("ab", &[&edit(1, 9, "")]).is_err());
    }
}

//! How the human format wraps its messages, helps and notes: as miette does (at Unicode line
//! break opportunities, hyphenated words split at their hyphens), except that a URL is never
//! split. Broken after `https://` or at a `/` or `-` of its path, a URL can neither be clicked
//! nor copied whole; one that does not fit on the line goes to a line of its own, whole, even
//! where it is longer than the line.

use textwrap::core::Word;
use textwrap::{WordSeparator, WordSplitter};

/// Where a URL starts in a line of text.
const SCHEMES: [&str; 2] = ["https://", "http://"];

/// The words of a line: Unicode's line breaking, with every URL (from its scheme to the next
/// space) and what is glued to it (a parenthesis, a comma) kept as one word.
#[must_use]
pub fn separator() -> WordSeparator {
    WordSeparator::Custom(words)
}

/// Hyphenated words split at their hyphens, URLs never.
#[must_use]
pub fn splitter() -> WordSplitter {
    WordSplitter::Custom(split_points)
}

fn split_points(word: &str) -> Vec<usize> {
    if has_url(word) {
        Vec::new()
    } else {
        WordSplitter::HyphenSplitter.split_points(word)
    }
}

fn has_url(word: &str) -> bool {
    SCHEMES.iter().any(|s| word.contains(s))
}

/// The byte ranges of the URLs of `line`, each up to the next space (or the line's end).
fn urls(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(start) = SCHEMES
        .iter()
        .filter_map(|s| line[from..].find(s).map(|i| from + i))
        .min()
    {
        let end = line[start..].find(' ').map_or(line.len(), |i| start + i);
        out.push((start, end));
        from = end;
    }
    out
}

fn words(line: &str) -> Box<dyn Iterator<Item = Word<'_>> + '_> {
    let urls = urls(line);
    let found = WordSeparator::UnicodeBreakProperties.find_words(line);
    if urls.is_empty() {
        return found;
    }
    // The words are consecutive slices of the line, each with its trailing spaces. A URL runs
    // to the next space, so the word it starts in and the words after it up to the first one
    // followed by a space are joined into one.
    let mut out: Vec<Word<'_>> = Vec::new();
    let mut start = 0;
    let mut joining: Option<usize> = None;
    for word in found {
        let text_end = start + word.word.len();
        let end = text_end + word.whitespace.len();
        if joining.is_none() && urls.iter().any(|&(s, e)| start < e && s < text_end) {
            joining = Some(start);
        }
        match joining {
            Some(from) if !word.whitespace.is_empty() => {
                out.push(Word::from(&line[from..end]));
                joining = None;
            }
            Some(_) => {}
            None => out.push(word),
        }
        start = end;
    }
    if let Some(from) = joining {
        out.push(Word::from(&line[from..]));
    }
    Box::new(out.into_iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(text: &str, width: usize) -> String {
        let options = textwrap::Options::new(width)
            .word_separator(separator())
            .word_splitter(splitter())
            .break_words(false);
        textwrap::fill(text, options)
    }

    #[test]
    fn a_url_is_never_split() {
        let text = "cannot read the result, so every tool is lost \
                    (https://github.com/anthropics/claude-code/issues/88049); openai rejects it";
        let filled = fill(text, 40);
        assert!(
            filled
                .lines()
                .any(|l| l.contains("(https://github.com/anthropics/claude-code/issues/88049);")),
            "{filled}"
        );
        // Longer than the line: alone on its line, whole.
        let long = "see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html, and";
        let filled = fill(long, 30);
        assert_eq!(
            filled.lines().collect::<Vec<_>>(),
            [
                "see",
                "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html,",
                "and"
            ]
        );
    }

    #[test]
    fn other_words_wrap_as_before() {
        let text = "gemini-jsonschema rejects every request that offers the tool, ts-sdk-v1 too";
        let ours = fill(text, 24);
        let before = textwrap::fill(text, textwrap::Options::new(24).break_words(false));
        assert_eq!(ours, before);
        assert_eq!(urls("a http://x/y b https://z c"), [(2, 12), (15, 24)]);
    }
}

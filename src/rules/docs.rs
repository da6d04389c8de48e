//! The rule docs of `rules/`, embedded in the binary, and the parts tests and commands read.

use crate::diagnostic::texts;
use crate::rules::RuleMeta;
use std::sync::OnceLock;

/// `(code, start, end)` for every rule doc in `rules/`: where `build.rs` placed its text among
/// the embedded texts ([`crate::diagnostic::texts`]).
#[allow(clippy::unreadable_literal)]
static PLACES: &[(&str, usize, usize)] = include!(concat!(env!("OUT_DIR"), "/docs.rs"));

/// `(code, markdown)` for every rule doc in `rules/`, in code order.
#[must_use]
pub fn docs() -> &'static [(&'static str, &'static str)] {
    static DOCS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    DOCS.get_or_init(|| {
        PLACES
            .iter()
            .map(|(code, start, end)| (*code, texts::slice(*start, *end)))
            .collect()
    })
}

/// The doc of the rule `meta`.
#[must_use]
pub fn doc_for(meta: &RuleMeta) -> Option<&'static str> {
    docs()
        .iter()
        .find(|(c, _)| *c == meta.code)
        .map(|(_, d)| *d)
}

/// What a fenced example in a rule doc is meant to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExampleKind {
    /// Triggers exactly its rule.
    Bad,
    /// Triggers nothing.
    Good,
    /// The result of applying the fix to the `bad` example before it.
    Fixed,
}

/// One ```` ```json bad ```` / `good` / `fixed` block of a doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// What the example is meant to show.
    pub kind: ExampleKind,
    /// The JSON between the fences, each line ending with a newline.
    pub text: String,
    /// 1-based line of the opening fence, for messages.
    pub line: usize,
    /// Extra words after the kind (`target=mcp-2025-11-25`), for later options.
    pub options: Vec<String>,
}

/// Every example block of a doc, in order.
#[must_use]
pub fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut current: Option<Example> = None;
    let mut in_other_block = false;
    for (i, line) in doc.lines().enumerate() {
        if in_other_block {
            in_other_block = !line.trim_start().starts_with("```");
            continue;
        }
        if let Some(ex) = current.as_mut() {
            if line.trim_start().starts_with("```") {
                out.extend(current.take());
            } else {
                ex.text.push_str(line);
                ex.text.push('\n');
            }
            continue;
        }
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let language = words.next();
        let kind = match (language, words.next()) {
            (Some("json" | "jsonc"), Some("bad")) => ExampleKind::Bad,
            (Some("json" | "jsonc"), Some("good")) => ExampleKind::Good,
            (Some("json" | "jsonc"), Some("fixed")) => ExampleKind::Fixed,
            // Any other fenced block is skipped whole, so its content is never read as an example.
            _ => {
                in_other_block = true;
                continue;
            }
        };
        current = Some(Example {
            kind,
            text: String::new(),
            line: i + 1,
            // A `jsonc` example is read as a `.jsonc` file: the `jsonc` option says so.
            options: (language == Some("jsonc"))
                .then(|| "jsonc".to_owned())
                .into_iter()
                .chain(words.map(str::to_owned))
                .collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_examples() {
        let doc = "# SL999 some-rule\n\nCategory: document · Severity: error · Fix: none\n\nSummary here\n\n\
                   ```json bad\n{\"a\": 1}\n```\n\n```text\nnot json\n```\n```json good target=x\n{}\n```\n";
        let ex = examples(doc);
        assert_eq!(ex.len(), 2);
        assert_eq!(ex[0].kind, ExampleKind::Bad);
        assert_eq!(ex[0].text, "{\"a\": 1}\n");
        assert_eq!(ex[1].options, vec!["target=x"]);
    }
}

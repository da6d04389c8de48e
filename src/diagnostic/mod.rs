//! The one diagnostic type every rule produces ([`Diagnostic`]), the metadata of the rules
//! ([`meta`]) and the targets it names ([`target`]), fixes as byte edits ([`fix`]), which clients
//! a finding breaks ([`breaks`]), and how serious it is for that ([`severity`]).

pub mod breaks;
pub mod client;
pub mod fix;
pub mod meta;
pub mod own_words;
pub mod severity;
pub mod target;
pub mod texts;
pub mod verdict;

use crate::syntax::source::{FileId, Span};
use breaks::{Break, Class, Client};
use fix::Fix;
use meta::RuleMeta;
use serde::Serialize;
use std::fmt;

/// How serious a finding is; the order runs from most to least serious.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The most serious level; fails the run (exit code 1).
    Error,
    /// Less serious than an error, but fails the run all the same (exit code 1).
    Warning,
    /// Advice: reported, but does not fail the run.
    Info,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// A secondary place related to a finding (the first of two duplicate keys, a `$ref` that names
/// a renamed `$id`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The file the place is in (not necessarily the finding's own file).
    pub file: FileId,
    /// The bytes of the place in that file's text.
    pub span: Span,
    /// Text of the label shown at the place.
    pub message: String,
    /// JSON pointer of the place within its file, where it is a value of the document (the
    /// other tools of a grouped finding); empty otherwise.
    pub pointer: String,
}

/// The tool of a `tools/list` document a finding is in, and which of its schemas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOf {
    /// The tool's name.
    pub name: String,
    /// `inputSchema` or `outputSchema`.
    pub schema: &'static str,
}

/// One finding of a rule: what is wrong, where, and possibly how to fix it.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The rule that reported it.
    pub rule: &'static RuleMeta,
    /// How serious it is: decided after the rule ran ([`severity::decide`]) from the rule's
    /// severity for the target, [`Diagnostic::requested`] and the clients it breaks.
    pub severity: Severity,
    /// The severity the rule asked for this finding in place of its own for the target, which
    /// [`severity::decide`] starts from.
    pub requested: Option<Severity>,
    /// The file the finding is in.
    pub file: FileId,
    /// The smallest meaningful span: the offending character where the literal allows it.
    pub span: Span,
    /// Text of the primary label.
    pub label: String,
    /// Secondary places, possibly in other files, each with a label of its own.
    pub related: Vec<Label>,
    /// The headline: one sentence saying what is wrong.
    pub message: String,
    /// How to resolve it, when there is advice to give.
    pub help: Option<String>,
    /// Background that explains the finding (shown after the help, as `note:`).
    pub note: Option<String>,
    /// JSON pointer of the offending value within its file.
    pub pointer: String,
    /// The repair offered for the finding, if any.
    pub fix: Option<Fix>,
    /// The class of the finding in the engine tier's model (`SL201/malformed-scheme`), when
    /// the rule gives one: it decides [`Diagnostic::breaks`] and the severity.
    pub class: Option<&'static str>,
    /// The clients the finding's class breaks, as measured; empty when none does, or when the
    /// finding has no class. Once the severity is decided, only the claims that hold for the
    /// clients' versions the run selects ([`verdict::holding`]).
    pub breaks: std::borrow::Cow<'static, [Break]>,
    /// Whether the clients in [`Diagnostic::breaks`] fail only on some values the server may
    /// send (a date-time without an offset), which the schema does not show: then the finding
    /// is at most a warning, or the rule's own lower severity (an error with `strict`).
    pub depends_on_output: bool,
    /// The tool the finding is in, in a `tools/list` document (the message then names it).
    pub tool: Option<ToolOf>,
    /// The selected clients whose verdict made [`Diagnostic::severity`]: those that break for
    /// an error, those that warn for a warning ([`severity::decided_by`]); empty where the
    /// rule's own severity decided.
    pub decided_by: Vec<Client>,
}

impl Diagnostic {
    /// A finding of `rule` at `span` in `file`, at the rule's default severity, with no label,
    /// related places, help, note, pointer or fix yet; the methods below add them.
    #[must_use]
    pub fn new(
        rule: &'static RuleMeta,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            severity: rule.severity,
            requested: None,
            file,
            span,
            label: String::new(),
            related: Vec::new(),
            message: message.into(),
            help: None,
            note: None,
            pointer: String::new(),
            fix: None,
            class: None,
            breaks: std::borrow::Cow::Borrowed(&[]),
            depends_on_output: false,
            tool: None,
            decided_by: Vec::new(),
        }
    }

    /// Asks for `severity` in place of the rule's own for the target: where a finding is
    /// measured, the clients it breaks still decide ([`severity::decide`]).
    #[must_use]
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self.requested = Some(severity);
        self
    }

    /// Sets the text of the primary label.
    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a secondary place, at `span` in `file`, labelled `message`.
    #[must_use]
    pub fn related(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Label {
            file,
            span,
            message: message.into(),
            pointer: String::new(),
        });
        self
    }

    /// Sets the advice on how to resolve the finding.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the background note.
    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Sets the JSON pointer of the offending value within its file.
    #[must_use]
    pub fn pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = pointer.into();
        self
    }

    /// Names the finding's class in the engine tier's model
    /// ([`breaks::classes::SL201_MALFORMED_SCHEME`]), which sets the clients it breaks.
    #[must_use]
    pub fn class(mut self, class: Class) -> Self {
        self.class = Some(class.name);
        self.breaks = std::borrow::Cow::Borrowed(class.breaks);
        self
    }

    /// Adds the claims of `class`, a documented class of what some clients do with the same
    /// value beside what the finding's class ([`Diagnostic::class`], named first) measured:
    /// each client's claims together, in [`Client`]'s order.
    #[must_use]
    pub fn also(mut self, class: Class) -> Self {
        let mut all = self.breaks.into_owned();
        all.extend_from_slice(class.breaks);
        // Stable: each client's claims keep their order.
        all.sort_by_key(|b| b.client);
        self.breaks = std::borrow::Cow::Owned(all);
        self
    }

    /// Marks the clients the class breaks as breaking only on some of the values the server
    /// may send, which the schema does not show ([`Diagnostic::depends_on_output`]).
    #[must_use]
    pub fn depends_on_output(mut self) -> Self {
        self.depends_on_output = true;
        self
    }

    /// The note with the client note written from [`Diagnostic::breaks`] after it, for a
    /// finding with a class; the note alone otherwise.
    #[must_use]
    pub fn full_note(&self) -> Option<String> {
        let tool = self.tool.as_ref().map(|t| t.name.as_str());
        let clients = self.class.map(|class| {
            // Where no claim holds at the run's versions, those left out are said as such; a
            // class only documented claims of says nothing of the engines it was never run on.
            let unheld = self
                .breaks
                .is_empty()
                .then(|| verdict::describe_unheld(class, &self.breaks))
                .flatten();
            if self.breaks.is_empty() && verdict::documented_only(class) {
                if let Some(unheld) = unheld {
                    return unheld;
                }
            }
            let held = breaks::describe(&self.breaks, tool);
            match unheld {
                Some(unheld) => format!("{held}. {unheld}"),
                None => held,
            }
        });
        match (&self.note, clients) {
            (Some(note), Some(clients)) => {
                Some(format!("{}. {clients}", note.trim_end_matches('.')))
            }
            (None, Some(clients)) => Some(clients),
            (note, None) => note.clone(),
        }
    }

    /// The clients that break, as a report writes them under this finding
    /// ([`breaks::Break::reported`]), each with its verdict.
    #[must_use]
    pub fn reported_breaks(&self) -> Vec<verdict::Reported> {
        let tool = self.tool.as_ref().map(|t| t.name.as_str());
        self.breaks
            .iter()
            .map(|b| b.reported(tool, self.depends_on_output))
            .collect()
    }

    /// The verdict of `client` on the finding: the worst of the claims naming it.
    #[must_use]
    pub fn verdict(&self, client: Client) -> verdict::Verdict {
        verdict::Verdict::of_client(&self.breaks, self.depends_on_output, client)
    }

    /// Attaches a repair.
    #[must_use]
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// The order of output: file, then position, then code.
    #[must_use]
    pub fn sort_key(&self) -> (FileId, usize, usize, &'static str) {
        (self.file, self.span.start, self.span.end, self.rule.code)
    }
}

#[cfg(test)]
mod tests {
    use super::breaks::{classes, describe, Break, Evidence};

    #[test]
    fn notes_quote_no_value_of_the_tiers_cases() {
        // The values of the engine tier's cases, which a finding on another schema does not have.
        let theirs = [
            "report",
            "my_tool",
            "my tool",
            "example.com",
            "London",
            "1abc",
            "\"1st",
            "a:b",
            "_item",
            "nowhere",
            "a%41",
            "a/b",
            "item.json",
            "common.json",
            "100%",
            "Map<",
            "C#",
            "properties.mode",
            "level",
            "raw",
            "limit",
            "choice",
            "address",
            "tree",
            "09:30",
            "(?<",
            "\\A",
            "\\p",
            "{\"",
            "{'",
            "index 2",
            "/properties/",
            "mcp_server",
        ];
        for class in classes::ALL {
            let note = describe(class.breaks, Some("weather"));
            let measured: Vec<&Break> = class
                .breaks
                .iter()
                .filter(|b| b.evidence == Evidence::Measured)
                .collect();
            for value in theirs {
                let quoted = measured.iter().any(|b| b.detail.contains(value));
                assert!(
                    !(quoted && note.contains(value)),
                    "{}: `{value}` in {note}",
                    class.name
                );
            }
            // The tool a client names is the finding's.
            for said in ["for tool ", "Tool '"] {
                for (at, _) in note.match_indices(said) {
                    let name = &note[at + said.len()..];
                    assert!(name.starts_with("weather"), "{}: {note}", class.name);
                }
            }
        }
    }
}

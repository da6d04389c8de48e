//! The one diagnostic type every rule produces ([`Diagnostic`]), the metadata of the rules
//! ([`meta`]), and fixes as byte edits ([`fix`]).

pub mod fix;
pub mod meta;

use crate::syntax::source::{FileId, Span};
use fix::Fix;
use meta::RuleMeta;
use serde::Serialize;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
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
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub file: FileId,
    /// The smallest meaningful span: the offending character where the literal allows it.
    pub span: Span,
    /// Text of the primary label.
    pub label: String,
    pub related: Vec<Label>,
    pub message: String,
    pub help: Option<String>,
    pub note: Option<String>,
    /// JSON pointer of the offending value within its file.
    pub pointer: String,
    pub fix: Option<Fix>,
}

impl Diagnostic {
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
            file,
            span,
            label: String::new(),
            related: Vec::new(),
            message: message.into(),
            help: None,
            note: None,
            pointer: String::new(),
            fix: None,
        }
    }

    #[must_use]
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    #[must_use]
    pub fn related(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Label {
            file,
            span,
            message: message.into(),
        });
        self
    }

    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    #[must_use]
    pub fn pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = pointer.into();
        self
    }

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

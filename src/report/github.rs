//! GitHub Actions workflow commands: `::error file=...,line=...::message`, one per finding.

use super::printable::printable;
use super::{position, Findings, LineCache};
use crate::diagnostic::Severity;
use std::fmt::Write;

/// Escapes a command's message (`%`, CR, LF).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command's property value (the message escapes plus `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub(crate) fn render(findings: &Findings) -> String {
    let mut out = String::new();
    let mut cache = LineCache::default();
    for d in &findings.diagnostics {
        let pos = position(findings.sources, d, &mut cache);
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let _ = writeln!(
            out,
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            escape_property(&printable(&findings.source(d.file).name)),
            pos.start.line,
            pos.start.column,
            pos.end.line,
            pos.end.column,
            escape_property(&format!("{} {}", d.rule.code, d.rule.name)),
            escape_data(&printable(&d.message))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(escape_data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}

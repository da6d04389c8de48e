//! `path:line:col: severity: CODE message` (severity `error`, `warning` or `info`), one line per
//! finding: stable, for problem matchers (which classify it by the severity) and grep.

use super::printable::printable;
use super::{position, Findings, LineCache};
use std::fmt::Write;

pub(crate) fn render(findings: &Findings) -> String {
    let mut out = String::new();
    let mut cache = LineCache::default();
    for d in &findings.diagnostics {
        let pos = position(findings.sources, d, &mut cache);
        let _ = writeln!(
            out,
            "{}:{}:{}: {}: {} {}",
            printable(&findings.source(d.file).name),
            pos.start.line,
            pos.start.column,
            d.severity,
            d.rule.code,
            printable(&d.message)
        );
    }
    out
}

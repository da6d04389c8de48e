//! `path:line:col: severity: CODE message` (severity `error`, `warning` or `info`), one line per
//! finding: stable, for problem matchers (which classify it by the severity) and grep.

use super::printable::printable;
use super::{position, LineCache};
use crate::engine::Run;
use std::fmt::Write;

pub(crate) fn render(run: &Run) -> String {
    let mut out = String::new();
    let mut cache = LineCache::default();
    for d in run.diagnostics() {
        let pos = position(run, d, &mut cache);
        let _ = writeln!(
            out,
            "{}:{}:{}: {}: {} {}",
            printable(&run.source(d.file).name),
            pos.start.line,
            pos.start.column,
            d.severity,
            d.rule.code,
            printable(&d.message)
        );
    }
    out
}

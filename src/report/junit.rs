//! `JUnit` XML for CI systems that read test reports: a test suite per linted file, a failing
//! test case per finding (a passing one for a clean file).

use super::{position, Findings, LineCache};
use std::fmt::Write;

fn xml(s: &str) -> String {
    let s = super::printable::printable(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 cannot carry other control characters at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn render(findings: &Findings) -> String {
    let mut cache = LineCache::default();
    let diagnostics = &findings.diagnostics;
    let mut suites = String::new();
    // A suite per linted file, and one per other file a finding is in (a file a `$ref`
    // reached), so that every finding is a test case.
    let mut ids: std::collections::BTreeSet<_> = findings.sources.linted().into_iter().collect();
    ids.extend(diagnostics.iter().map(|d| d.file));
    let mut files: Vec<&crate::syntax::source::SourceFile> =
        ids.iter().map(|id| findings.source(*id)).collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let mut cases = 0;
    let mut failures = 0;
    for f in files {
        let name = xml(&f.name);
        let own: Vec<_> = diagnostics.iter().filter(|d| d.file == f.id).collect();
        cases += own.len().max(1);
        failures += own.len();
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
            own.len().max(1),
            own.len()
        );
        if own.is_empty() {
            let _ = writeln!(
                suites,
                "    <testcase name=\"no findings\" classname=\"{name}\"/>"
            );
        }
        for d in own {
            let pos = position(findings.sources, d, &mut cache);
            let _ = writeln!(
                suites,
                "    <testcase name=\"{} {}:{}:{}\" classname=\"{name}\">\n      <failure type=\"{}\" message=\"{}\">{}:{}:{}: {} {} ({})</failure>\n    </testcase>",
                d.rule.code,
                name,
                pos.start.line,
                pos.start.column,
                d.rule.code,
                xml(&d.message),
                name,
                pos.start.line,
                pos.start.column,
                d.rule.code,
                xml(&d.message),
                d.severity
            );
        }
        suites.push_str("  </testsuite>\n");
    }
    // The totals are the test cases written: a clean file's passing case counts.
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"schema-lint\" tests=\"{cases}\" failures=\"{failures}\" errors=\"0\">\n{suites}</testsuites>\n"
    )
}

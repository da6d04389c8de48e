//! `schema-lint port --for CLIENT [FILE|-]`: the document rewritten for one client
//! ([`crate::fix::port`]) on standard output, what changed on standard error and in `--report`.

use super::args::PortArgs;
use super::{exit, Outcome};
use crate::fix::port::{port_source, Meaning, Ported};
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use std::fmt::Write as _;

/// The largest document read: a `tools/list` of thousands of tools fits.
const MAX_INPUT: u64 = 64 * 1024 * 1024;

pub(super) fn port(args: &PortArgs) -> Outcome {
    let fail = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
        ..Outcome::default()
    };
    let chosen = match crate::settings::clients::parse(&[args.client.as_str()]) {
        Ok(chosen) => chosen,
        Err(e) => return fail(format!("--for: {e}")),
    };
    let stdin = args.file.as_os_str() == "-";
    let text = match super::audit::read_input(&args.file, MAX_INPUT) {
        Ok(text) => text,
        Err(e) => return fail(format!("{}: cannot read: {e}", args.file.display())),
    };
    let name = if stdin {
        "-".to_owned()
    } else {
        args.file.display().to_string()
    };
    let path = (!stdin).then(|| args.file.clone());
    let file = SourceFile::from_string(FileId(0), name, path, text, true);
    let settings = Settings {
        clients: chosen.clients,
        versions: chosen.versions,
        ..Settings::default()
    };
    let ported = match port_source(file, &settings) {
        Ok(ported) => ported,
        Err(e) => return fail(e),
    };
    let mut stderr = summary(&ported, &args.client);
    if let Some(path) = &args.report {
        let report = serde_json::json!({
            "client": args.client,
            "changes": ported.changes,
            "left": ported.left,
        });
        let text = serde_json::to_string_pretty(&report).unwrap_or_default() + "\n";
        if let Err(e) = std::fs::write(path, text) {
            return fail(format!("{}: cannot write: {e}", path.display()));
        }
    }
    let code = if ported.left.is_empty() {
        exit::CLEAN
    } else {
        let _ = writeln!(
            stderr,
            "error: {} finding(s) could not be ported; {} still refuses the document",
            ported.left.len(),
            args.client
        );
        exit::ERROR
    };
    Outcome {
        stdout: ported.text,
        stderr,
        code,
    }
}

/// One line per change and per finding left, then the counts.
fn summary(ported: &Ported, client: &str) -> String {
    let mut out = String::new();
    for c in &ported.changes {
        let tool = c
            .tool
            .as_deref()
            .map(|t| format!(" (tool `{t}`)"))
            .unwrap_or_default();
        let meaning = match c.meaning {
            Meaning::Kept => "kept",
            Meaning::Changed => "changed",
        };
        let _ = writeln!(
            out,
            "{meaning}: {} {}: {}{tool}",
            c.rule, c.pointer, c.change
        );
        for differs in &c.differs {
            let _ = writeln!(out, "  differs: {differs}");
        }
    }
    for left in &ported.left {
        let _ = writeln!(out, "left: {left}");
    }
    let changed = ported
        .changes
        .iter()
        .filter(|c| c.meaning == Meaning::Changed)
        .count();
    let _ = writeln!(
        out,
        "Ported for {client}: {} change(s), {} kept, {changed} changed; {} left",
        ported.changes.len(),
        ported.changes.len() - changed,
        ported.left.len()
    );
    out
}

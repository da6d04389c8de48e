//! `schema-lint port --for CLIENT [FILE|-]`: the document rewritten for one client
//! ([`crate::fix::port`]) on standard output, what changed on standard error and in `--report`.

use super::args::{PortArgs, ProxyArgs};
use super::{exit, Outcome};
use crate::fix::port::port_source;
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
    let mut stderr = crate::report::port::human(&ported, &args.client);
    if let Some(path) = &args.report {
        let report = serde_json::json!({
            "client": args.client,
            "changes": ported.changes,
            "renamed": ported.renamed,
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
            "error: {} place(s) could not be ported; {} still refuses the document",
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

/// `schema-lint proxy --for CLIENT -- CMD ARGS...` or `--url URL` ([`crate::doors::proxy`]).
#[cfg(unix)]
pub(super) fn proxy(args: &ProxyArgs) -> Outcome {
    let chosen = match crate::settings::clients::parse(&[args.client.as_str()]) {
        Ok(chosen) => chosen,
        Err(e) => {
            return Outcome {
                stderr: format!("error: --for: {e}\n"),
                code: exit::ERROR,
                ..Outcome::default()
            }
        }
    };
    if !args.headers.is_empty() && args.url.is_none() {
        return Outcome {
            stderr: "error: `--header` is sent to the `--url` server; a command gets none\n"
                .to_owned(),
            code: exit::ERROR,
            ..Outcome::default()
        };
    }
    let options = crate::doors::proxy::Options {
        settings: Settings {
            clients: chosen.clients,
            versions: chosen.versions,
            ..Settings::default()
        },
        client: args.client.clone(),
        command: args.command.clone(),
        url: args.url.clone(),
        headers: args.headers.clone(),
        log: args.log.clone(),
    };
    let ended = crate::doors::proxy::proxy(&options);
    Outcome {
        stderr: ended.stderr,
        code: ended.code,
        ..Outcome::default()
    }
}

#[cfg(not(unix))]
pub(super) fn proxy(_: &ProxyArgs) -> Outcome {
    Outcome {
        stderr: "error: `proxy` runs on Unix only\n".to_owned(),
        code: exit::ERROR,
        ..Outcome::default()
    }
}

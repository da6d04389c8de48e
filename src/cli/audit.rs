//! `schema-lint audit`: reads a capture (and `--tools` documents), audits it, renders the result.

use super::args::AuditFormat;
use super::{exit, Outcome};
use crate::report::{self, OutputFormat};
use crate::syntax::source::{FileId, SourceFile};

pub(super) fn read_input(path: &std::path::Path) -> std::io::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}

/// `schema-lint audit`.
pub(super) fn audit_command(args: &super::args::AuditArgs) -> Outcome {
    let mut options = crate::audit::Options {
        meta_id_tools: args.meta_id_tools.clone(),
        protocol: args.protocol.clone(),
        ..crate::audit::Options::default()
    };
    for path in &args.tools {
        let tools = read_input(path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
        match tools {
            Ok(v) => options.tools.push(v),
            Err(why) => {
                return Outcome {
                    stderr: format!("error: {}: {why}\n", path.display()),
                    code: exit::ERROR,
                    ..Outcome::default()
                }
            }
        }
    }
    let text = match read_input(&args.capture) {
        Ok(t) => t,
        Err(e) => {
            return Outcome {
                stderr: format!("error: {}: cannot read: {e}\n", args.capture.display()),
                code: exit::ERROR,
                ..Outcome::default()
            }
        }
    };
    let result = crate::audit::audit(&text, &options);
    let name = args.capture.display().to_string();
    if let Some(why) = &result.unusable {
        // Nothing was audited: an error, whatever the output format, with the lines that are
        // not JSON first.
        use std::fmt::Write;
        let mut stderr = String::new();
        for e in &result.input_errors {
            let _ = writeln!(
                stderr,
                "{name}:{}:{}: not JSON: {}",
                e.line, e.column, e.message
            );
        }
        let _ = writeln!(stderr, "error: {name}: {why}");
        return Outcome {
            stderr,
            code: exit::ERROR,
            ..Outcome::default()
        };
    }
    let stdout = match args.output_format {
        AuditFormat::Human => report::audit::human(&result, &name, args.deny_legacy),
        AuditFormat::Json => report::audit::json(&result),
        other => {
            let format = match other {
                AuditFormat::Concise => OutputFormat::Concise,
                AuditFormat::Github => OutputFormat::Github,
                AuditFormat::Sarif => OutputFormat::Sarif,
                _ => OutputFormat::Junit,
            };
            let path = (args.capture.as_os_str() != "-").then(|| args.capture.clone());
            let capture = SourceFile::from_string(FileId(0), name, path, text, true);
            report::audit::render(&result, &capture, format, args.deny_legacy)
        }
    };
    let code = if !result.input_errors.is_empty() {
        exit::ERROR
    } else if result.fails(args.deny_legacy) {
        exit::FINDINGS
    } else {
        exit::CLEAN
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code,
    }
}

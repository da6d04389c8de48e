//! `schema-lint audit`: reads a capture (and `--tools` documents), audits it, renders the result.

use super::args::AuditFormat;
use super::{exit, Outcome};
use crate::report::{self, OutputFormat};
use crate::syntax::source::{FileId, SourceFile};

/// A side input (`--tools`, `--calls`, `--call NAME=@FILE`; `-` is standard input), at most
/// `limit` bytes of it, as UTF-8 text.
pub(super) fn read_input(path: &std::path::Path, limit: u64) -> std::io::Result<String> {
    use crate::syntax::read::{read_file_bounded, read_to_end_bounded};
    let bytes = if path.as_os_str() == "-" {
        read_to_end_bounded(std::io::stdin(), limit)?
    } else {
        read_file_bounded(path, limit, false)?
    };
    String::from_utf8(bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
}

/// The capture's text, for the formats that position findings in it; a byte that is not UTF-8
/// becomes U+FFFD (the audit reports its line).
/// At most [`MAX_WHOLE`] bytes of it are read.
fn read_capture_text(path: &std::path::Path) -> std::io::Result<String> {
    use crate::audit::capture::MAX_WHOLE;
    use crate::syntax::read::{read_file_bounded, read_to_end_bounded};
    let bytes = if path.as_os_str() == "-" {
        read_to_end_bounded(std::io::stdin(), MAX_WHOLE)
    } else {
        read_file_bounded(path, MAX_WHOLE, false)
    }
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => std::io::Error::new(
            e.kind(),
            format!("{e}; `--output-format human` or `json` streams a capture of any size"),
        ),
        _ => e,
    })?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Audits the capture at `path` as a stream, read twice ([`crate::audit::audit_stream`]);
/// standard input is first copied to an unnamed temporary file, at most
/// [`crate::audit::capture::MAX_STDIN`] bytes of it (kept in memory where no file can be made, at
/// most [`crate::audit::capture::MAX_LINE`] bytes), so that it is read twice too.
fn audit_capture(
    path: &std::path::Path,
    options: &crate::audit::Options,
) -> std::io::Result<crate::audit::Audit> {
    use std::io::{BufReader, Seek};
    if path.as_os_str() != "-" {
        let mut open = || {
            std::fs::File::open(path)
                .map(|f| Box::new(BufReader::new(f)) as Box<dyn std::io::BufRead>)
        };
        return crate::audit::audit_stream(&mut open, options);
    }
    let spool =
        std::env::temp_dir().join(format!("schema-lint-audit-{}.jsonl", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&spool);
    // Unnamed from the start: nothing is left behind, whatever happens next.
    let _ = std::fs::remove_file(&spool);
    if let Ok(mut file) = file {
        use crate::audit::capture::MAX_STDIN;
        let copied = std::io::copy(
            &mut std::io::Read::take(std::io::stdin().lock(), MAX_STDIN + 1),
            &mut file,
        )?;
        if copied > MAX_STDIN {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "a capture on standard input is read up to {} MiB; audit a file instead",
                    MAX_STDIN >> 20
                ),
            ));
        }
        let mut open = || {
            let mut f = file.try_clone()?;
            f.rewind()?;
            Ok(Box::new(BufReader::new(f)) as Box<dyn std::io::BufRead>)
        };
        return crate::audit::audit_stream(&mut open, options);
    }
    let bytes = crate::syntax::read::read_to_end_bounded(
        std::io::stdin(),
        crate::audit::capture::MAX_LINE as u64,
    )?;
    let mut open = || Ok(Box::new(bytes.as_slice()) as Box<dyn std::io::BufRead>);
    crate::audit::audit_stream(&mut open, options)
}

/// `schema-lint audit`.
pub(super) fn audit_command(args: &super::args::AuditArgs) -> Outcome {
    // A capture is audited one call at a time, and the lint of each output schema it names is
    // one small file: one pool thread is enough, and its stack needs to hold the deepest schema
    // the capture's reader accepts (256 levels, under 4 MiB in a debug build), not 64 MiB.
    crate::workspace::pool::prefer(1, 16 << 20);
    let mut options = crate::audit::Options {
        meta_id_tools: args.meta_id_tools.clone(),
        protocol: args.protocol.clone(),
        ..crate::audit::Options::default()
    };
    let Some(capture) = &args.capture else {
        return Outcome {
            stderr: "error: `audit` needs a capture, or `--server`/`--url`\n".to_owned(),
            code: exit::ERROR,
            ..Outcome::default()
        };
    };
    for path in &args.tools {
        let tools = read_input(path, crate::audit::capture::MAX_LINE as u64)
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
    // The formats that place findings at a line and column of the capture need its text, so
    // they read it whole; human and JSON stream it.
    let positioned = !matches!(args.output_format, AuditFormat::Human | AuditFormat::Json);
    let mut text = String::new();
    let audited = if positioned {
        read_capture_text(capture).map(|t| {
            text = t;
            crate::audit::audit(&text, &options)
        })
    } else {
        audit_capture(capture, &options)
    };
    let result = match audited {
        Ok(result) => result,
        Err(e) => {
            return Outcome {
                stderr: format!("error: {}: cannot read: {e}\n", capture.display()),
                code: exit::ERROR,
                ..Outcome::default()
            }
        }
    };
    let name = capture.display().to_string();
    let path = (capture.as_os_str() != "-").then(|| capture.clone());
    render(args, &result, name, path, text)
}

/// The audit printed in the format asked for, and its exit code. `text` is the capture's text
/// (empty for the formats that do not place findings in it), `path` where it was read from.
pub(super) fn render(
    args: &super::args::AuditArgs,
    result: &crate::audit::Audit,
    name: String,
    path: Option<std::path::PathBuf>,
    text: String,
) -> Outcome {
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
        AuditFormat::Human => report::audit::human(result, &name, args.deny_legacy),
        AuditFormat::Json => report::audit::json(result),
        other => {
            let format = match other {
                AuditFormat::Concise => OutputFormat::Concise,
                AuditFormat::Github => OutputFormat::Github,
                AuditFormat::Sarif => OutputFormat::Sarif,
                _ => OutputFormat::Junit,
            };
            let capture = SourceFile::from_string(FileId(0), name, path, text, true);
            report::audit::render(result, &capture, format, args.deny_legacy)
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

//! Loading: reading a file (or standard input), decoding it, parsing it strictly and deciding
//! what it holds. A file that cannot be loaded carries its SL100 finding, a server that cannot
//! be listed its SL102 finding.

use super::discover::{meant_as_schema, Candidate};
use super::file::{LintedFile, Origin, State};
use crate::diagnostic::meta::{PARSE_ERROR, SL102 as SERVER_FAILED};
use crate::diagnostic::Diagnostic;
use crate::schema::units::{classify, FileKind};
use crate::syntax::document;
use crate::syntax::read::{read_file_bounded, read_to_end_bounded, MAX_FILE};
use crate::syntax::source::{FileId, SourceFile, Span};
use std::sync::Arc;

/// Where a file's text comes from.
pub enum Input {
    /// A file on disk.
    Path(Candidate),
    /// Standard input, read once, shown under `name`.
    Stdin {
        /// The name reports show for it (`--stdin-filename`, else `<stdin>`).
        name: String,
    },
    /// What a live server advertised (`check --server`, `--url`), as a document.
    Server {
        /// The name reports show for it (the server's command line or URL).
        name: String,
        /// The document.
        text: String,
    },
    /// A live server that could not be started, reached or listed, with the reason: reported
    /// as SL102, not as a file that does not parse.
    ServerFailed {
        /// The name reports show for it (the server's command line or URL).
        name: String,
        /// Why, in one line.
        message: String,
    },
}

/// How reports name a file at `path`: `/` separators, no leading `./`.
#[must_use]
pub fn display_name(path: &std::path::Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

/// Reads and parses one input; a file that cannot be loaded carries its SL100 finding.
#[must_use]
pub fn load_input(id: FileId, input: Input) -> LintedFile {
    let (name, path, explicit, bytes) = match input {
        Input::Server { name, text } => {
            let mut loaded = load_source(SourceFile::from_string(id, name, None, text, true), true);
            loaded.origin = Origin::Server;
            return loaded;
        }
        Input::ServerFailed { name, message } => {
            let file = SourceFile::new(id, name, None, "", true);
            let diagnostic = Diagnostic::new(&SERVER_FAILED, file.id, Span::new(0, 0), message)
                .label("this server");
            return LintedFile {
                file,
                state: State::Failed,
                diagnostics: vec![diagnostic],
                origin: Origin::Server,
            };
        }
        Input::Stdin { name } => {
            let read = read_to_end_bounded(std::io::stdin(), MAX_FILE);
            (name, None, true, read)
        }
        Input::Path(c) => {
            // A walked file is read only if it is a regular file (the walk saw one: this is
            // what is opened), a named one whatever it is (`<(cmd)`); neither past the bound.
            let read = read_file_bounded(&c.path, MAX_FILE, !c.explicit);
            (display_name(&c.path), Some(c.path), c.explicit, read)
        }
    };
    load_bytes(id, name, path, explicit, bytes)
}

/// Decodes and parses bytes read elsewhere (`diff --base` reads a file's version at a git ref)
/// as [`load_input`] does a file's: a read that failed, a file saved as UTF-16 or not UTF-8
/// carries its SL100 finding (a file not UTF-8 only when `explicit` or [`meant_as_schema`],
/// else it is passed over, as a walk passes over it).
#[must_use]
pub fn load_bytes(
    id: FileId,
    name: String,
    path: Option<std::path::PathBuf>,
    explicit: bool,
    bytes: std::io::Result<Vec<u8>>,
) -> LintedFile {
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            let file = SourceFile::new(id, name, path, "", explicit);
            let message = format!("Cannot read the file: {}", io_message(&e));
            return load_failure(file, Span::new(0, 0), message);
        }
    };
    if let Some(encoding) = crate::workspace::encoding::utf16(&bytes) {
        // Reported in a walk too: its `.json` name is all there is to read.
        return utf16_failure(SourceFile::new(id, name, path, "", explicit), encoding);
    }
    let reportable = explicit || path.as_deref().is_some_and(|p| meant_as_schema(p, &bytes));
    match String::from_utf8(bytes) {
        Ok(text) => load_source(
            SourceFile::from_string(id, name, path, text, explicit),
            reportable,
        ),
        Err(e) => {
            let error = e.utf8_error();
            let at = error.valid_up_to();
            let bytes = e.as_bytes();
            let message = match error.error_len() {
                Some(n) => {
                    let bad: Vec<String> = bytes[at..at + n]
                        .iter()
                        .map(|b| format!("0x{b:02X}"))
                        .collect();
                    format!(
                        "The file is not valid UTF-8: unexpected byte{} {}",
                        if n == 1 { "" } else { "s" },
                        bad.join(" ")
                    )
                }
                None => "The file is not valid UTF-8: it ends inside a character".to_owned(),
            };
            let text = String::from_utf8_lossy(bytes).into_owned();
            let file = SourceFile::new(id, name, path, &text, explicit);
            let at = file.text_offset(at);
            let failure = load_failure(file, Span::new(at, at), message);
            if reportable {
                failure
            } else {
                skipped(failure.file)
            }
        }
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_owned()
        }
    }
}

fn load_failure(file: SourceFile, span: Span, message: String) -> LintedFile {
    let diagnostic = Diagnostic::new(&PARSE_ERROR, file.id, span, message).label("here");
    LintedFile {
        file,
        state: State::Failed,
        diagnostics: vec![diagnostic],
        origin: Origin::Named,
    }
}

/// The SL100 finding on a file saved as UTF-16, which no client reads as JSON.
fn utf16_failure(file: SourceFile, encoding: crate::workspace::encoding::Utf16) -> LintedFile {
    let message = format!("The file is {}, not UTF-8", encoding.name());
    let mut failure = load_failure(file, Span::new(0, 0), message);
    for d in &mut failure.diagnostics {
        d.help = Some("save the file as UTF-8".to_owned());
    }
    failure
}

fn skipped(file: SourceFile) -> LintedFile {
    LintedFile {
        file,
        state: State::NotSchema { root: None },
        diagnostics: Vec::new(),
        origin: Origin::Named,
    }
}

/// Parses a file whose text is already loaded. `report_parse_errors` decides whether a file
/// that is not JSON is reported (explicit or schema-named files) or silently skipped.
#[must_use]
pub fn load_source(file: SourceFile, report_parse_errors: bool) -> LintedFile {
    crate::workspace::pool::run(|| load_source_in_pool(file, report_parse_errors))
}

fn load_source_in_pool(file: SourceFile, report_parse_errors: bool) -> LintedFile {
    let root = match document::parse_as(&file.text, file.is_jsonc()) {
        Ok(root) => root,
        Err(failure) if report_parse_errors => {
            let message = if file.bom && file.text.is_empty() {
                "The file holds only a byte order mark".to_owned()
            } else {
                failure.message
            };
            return load_failure(file, failure.span, message);
        }
        Err(_) => return skipped(file),
    };
    let root = Arc::new(root);
    let state = match classify(&root, file.explicit) {
        FileKind::Other => State::NotSchema { root: Some(root) },
        kind => State::Parsed { root, kind },
    };
    LintedFile {
        file,
        state,
        diagnostics: Vec::new(),
        origin: Origin::Named,
    }
}

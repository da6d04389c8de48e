//! A file of a run ([`LintedFile`]): what the run holds of it ([`State`]: parsed, released,
//! failed, not a schema) and why it is in the run ([`Origin`]: named, or read as context).

use crate::diagnostic::Diagnostic;
use crate::schema::units::FileKind;
use crate::syntax::document::Node;
use crate::syntax::source::SourceFile;
use std::sync::Arc;

/// One file after linting.
#[derive(Debug, Clone)]
pub struct LintedFile {
    /// The file's name, path and text (the text is empty once the run has let it go, unless it
    /// has findings to show).
    pub file: SourceFile,
    /// What the run holds of the file.
    pub state: State,
    /// The file's findings: its SL100 finding when it failed to load, else what the rules
    /// reported.
    pub diagnostics: Vec<Diagnostic>,
    /// Why the file is in the run.
    pub origin: Origin,
}

/// What a run holds of a file.
#[derive(Debug, Clone)]
pub enum State {
    /// Parsed, with its tree at hand: a schema or a `tools/list` document.
    Parsed {
        /// The tree.
        root: Arc<Node>,
        /// What it holds (never [`FileKind::Other`]).
        kind: FileKind,
    },
    /// Parsed and indexed, then let go (its tree and, unless it has findings, its text) to
    /// bound the run's memory; read again when linted.
    Released {
        /// What it holds (never [`FileKind::Other`]).
        kind: FileKind,
        /// The fingerprint of the text that was indexed, which the text read again must match.
        fingerprint: Fingerprint,
        /// Whether the file is *settled*: a streaming run linted it on its own, right after
        /// reading and indexing it, found nothing, and is done with it: it is not linted again
        /// once the whole run is indexed. A file settles only when every reference in it names
        /// a resource of its own and linting it against its own index finds nothing. It is
        /// unsettled again (and linted with the rest) when the whole run's index ties it to
        /// another file: a reference from another file lands in it, or one of its own
        /// references resolves elsewhere once every file's ids are known.
        settled: bool,
    },
    /// Reading or parsing it failed, and is reported: its SL100 finding (SL102 for a server) says why.
    Failed,
    /// It holds nothing to lint: JSON that is neither a schema nor a `tools/list` document (its
    /// tree while the run keeps it), or a walked file that is not JSON, not reported.
    NotSchema {
        /// The tree, while the run keeps it.
        root: Option<Arc<Node>>,
    },
}

/// Why a file is in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Named (on the command line, as an open document) or found by a folder walk of the run.
    Named,
    /// *Context*: a file of the project that was not named (a pre-commit run, one file,
    /// standard input), read only because its text mentions what the named files declare or
    /// reference. It is indexed, so that references resolve as in a run over the whole
    /// project, and a fix may follow a renamed `$id` into it; it is never linted, and nothing
    /// is reported about it.
    Context,
    /// A running server named on the command line (`--server`, `--url`): the `tools/list`
    /// document it advertised, or why it could not be listed. Linted and reported like a named
    /// file; summaries count servers apart from files.
    Server,
}

impl LintedFile {
    /// The file's tree, while the run holds it.
    #[must_use]
    pub fn root(&self) -> Option<&Arc<Node>> {
        match &self.state {
            State::Parsed { root, .. } | State::NotSchema { root: Some(root) } => Some(root),
            _ => None,
        }
    }

    /// The file's tree, while the run holds it, as a node.
    #[must_use]
    pub fn tree(&self) -> Option<&Node> {
        self.root().map(|root| &**root)
    }

    /// What the file holds; `None` when reading or parsing it failed and is reported (`Other`,
    /// as for JSON that holds no schema, when such a failure of a walked file goes unreported).
    #[must_use]
    pub fn kind(&self) -> Option<FileKind> {
        match self.state {
            State::Parsed { kind, .. } | State::Released { kind, .. } => Some(kind),
            State::NotSchema { .. } => Some(FileKind::Other),
            State::Failed => None,
        }
    }

    /// What the file holds when it is a schema or a `tools/list` document, parsed or released.
    #[must_use]
    pub fn schema_kind(&self) -> Option<FileKind> {
        self.kind().filter(|k| *k != FileKind::Other)
    }

    /// The fingerprint of the indexed text of a file the run let go of.
    #[must_use]
    pub fn released(&self) -> Option<Fingerprint> {
        match self.state {
            State::Released { fingerprint, .. } => Some(fingerprint),
            _ => None,
        }
    }

    /// Whether a streaming run is done with the file (see [`State::Released`]).
    #[must_use]
    pub fn settled(&self) -> bool {
        matches!(self.state, State::Released { settled: true, .. })
    }

    /// Whether the file is context (see [`Origin::Context`]).
    #[must_use]
    pub fn is_context(&self) -> bool {
        self.origin == Origin::Context
    }

    /// Whether the file takes part in the run's output (schemas, tools/list documents, and files
    /// whose failure to load is worth reporting).
    #[must_use]
    pub fn is_linted(&self) -> bool {
        !self.is_context() && !matches!(self.state, State::NotSchema { .. })
    }

    /// Whether the file is what a running server advertised (see [`Origin::Server`]).
    #[must_use]
    pub fn is_server(&self) -> bool {
        self.origin == Origin::Server
    }

    /// Whether reading or parsing the file failed.
    #[must_use]
    pub fn failed(&self) -> bool {
        matches!(self.state, State::Failed)
    }
}

/// What identifies a file's text between the two reads of a run that let it go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    len: usize,
    hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `text`: its length in bytes and a fast, non-cryptographic hash.
    #[must_use]
    pub fn of(text: &str) -> Self {
        // FNV-1a over 8-byte words: no need to resist an attacker, only to notice an edit.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut chunks = text.as_bytes().chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3);
        }
        for &b in chunks.remainder() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Self {
            len: text.len(),
            hash,
        }
    }

    /// The length in bytes of the text.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::source::FileId;
    use crate::workspace::load_source;

    fn loaded(text: &str, explicit: bool) -> LintedFile {
        let file = SourceFile::new(FileId(0), "a.json".into(), None, text, explicit);
        load_source(file, explicit)
    }

    #[test]
    fn what_loading_holds_of_a_file() {
        let schema = loaded(r#"{"type": "object"}"#, true);
        assert!(matches!(
            schema.state,
            State::Parsed {
                kind: FileKind::Schema,
                ..
            }
        ));
        assert!(schema.root().is_some() && schema.is_linted() && !schema.failed());
        assert_eq!(schema.origin, Origin::Named);
        let broken = loaded("{", true);
        assert!(matches!(broken.state, State::Failed));
        assert!(broken.failed() && broken.kind().is_none() && broken.is_linted());
        let package = loaded(r#"{"name": "x"}"#, false);
        assert!(matches!(package.state, State::NotSchema { root: Some(_) }));
        assert_eq!(package.kind(), Some(FileKind::Other));
        assert!(package.schema_kind().is_none() && !package.is_linted());
        let not_json = loaded("{", false);
        assert!(matches!(not_json.state, State::NotSchema { root: None }));
        assert!(!not_json.failed());
    }

    #[test]
    fn a_released_file_holds_no_tree_and_context_is_never_linted() {
        let mut file = loaded(r#"{"type": "object"}"#, true);
        file.state = State::Released {
            kind: FileKind::Schema,
            fingerprint: Fingerprint::of(&file.file.text),
            settled: true,
        };
        assert!(file.root().is_none() && file.released().is_some() && file.settled());
        assert_eq!(file.schema_kind(), Some(FileKind::Schema));
        file.origin = Origin::Context;
        assert!(file.is_context() && !file.is_linted());
    }
}

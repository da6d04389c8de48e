//! schema-lint: lints and repairs JSON Schema files, first of all MCP tool output schemas.
//!
//! The crate is layered: each module below uses only the ones listed before it.
//!
//! | layer | what it holds |
//! |---|---|
//! | [`syntax`] | source text and spans, the strict JSON parse, pointers, URIs, string literals |
//! | [`schema`] | dialects, where the schemas of a file are, the subschema walk, `$defs` |
//! | [`diagnostic`] | the diagnostic type, rule metadata, fixes as byte edits |
//! | [`settings`] | settings of a run, targets, rule selection, `schema-lint.toml` |
//! | [`workspace`] | discovery, loading, the deep-stack thread pool, files read again |
//! | [`index`] | the run-wide index of ids, anchors and references, and resolution |
//! | [`rules`] | the rule trait, the registry and every rule, one folder per family |
//! | [`engine`] | a lint run: streaming, dispatch of the rules |
//! | [`fix`] | the fix loop, the proof of each fix, atomic writes |
//! | [`audit`] | `schema-lint audit` over captured MCP traffic |
//! | [`report`] | every output format: the only place that renders |
//! | [`doors`] | the doors that speak a protocol, a folder each: the MCP mode, ... |
//! | [`cli`] | the command line: parses arguments and calls the commands and doors |
//!
//! `tests/it/layers.rs` fails when a module uses one listed after it.
//!
//! Linting a buffer through the library:
//! ```
//! use schema_lint::{lint_source, FileId, Settings, SourceFile};
//!
//! let text = r#"{"$id": "my_tool:output", "type": "object"}"#;
//! let file = SourceFile::new(FileId(0), "tool.json".into(), None, text, true);
//! let linted = lint_source(file, &Settings::default(), true);
//! let codes: Vec<_> = linted.diagnostics.iter().map(|d| d.rule.code).collect();
//! assert_eq!(codes, ["SL201"]);
//! // The primary span is the offending `:`.
//! assert_eq!(&text[linted.diagnostics[0].span.start..linted.diagnostics[0].span.end], ":");
//! ```

#![warn(missing_docs)]

pub mod audit;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostic;
#[cfg(feature = "cli")]
pub mod doors;
pub mod engine;
pub mod fix;
pub mod index;
pub mod report;
pub mod rules;
pub mod schema;
pub mod settings;
pub mod syntax;
pub mod workspace;

#[cfg(feature = "cli")]
pub use cli::{execute, exit, Outcome};
pub use diagnostic::{Diagnostic, Severity};
pub use engine::{lint_loaded, lint_source, run, Run};
pub use fix::port::{port, Ported};
pub use settings::Settings;
pub use syntax::source::{FileId, SourceFile};

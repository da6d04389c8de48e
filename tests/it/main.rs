//! Every integration test, one crate and so one test binary to build and link (the test build
//! of a fresh clone links three: the library's unit tests, the binary's, and this one). Each
//! module was a test binary of its own; run one with `cargo test --test it <module>::`.

mod common;
mod gen;
#[path = "common/rule_fixtures.rs"]
mod rule_fixtures;

mod audit_live;
mod cli;
mod containment;
mod corpus;
mod dialect_fixes;
mod diff;
mod diff_props;
mod doc_commands;
mod doors;
mod engines;
mod fix_scale;
mod gemini_fixes;
mod hostile;
mod jsonc;
mod jsts_fix;
mod layers;
mod live;
mod mcp;
mod port;
mod project;
mod properties;
mod proxy;
mod proxy_http;
mod readme_options;
mod record;
mod rule_docs;
mod sarif;
mod server;
mod session;
mod session_explain;
mod session_fix;
mod sl305;

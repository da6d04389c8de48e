//! The doors that speak a protocol, each a folder of its own: they render the judgement of the
//! layers below (the verdict of each client, decided in [`crate::diagnostic::verdict`]) to the
//! peer they talk to, and never decide it again. `cli` parses arguments and calls them.
//!
//! | door | peer |
//! |---|---|
//! | [`lsp`] | an editor, over the Language Server Protocol: `schema-lint server` |
//! | [`mcp`] | an MCP client (a coding agent): `schema-lint mcp` |
//! | [`proxy`] | a host and its MCP server, the listings rewritten for one client: `schema-lint proxy` |
//! | [`record`] | a host and its MCP server, both ways, into a capture: `schema-lint record` |
//! | [`session`] | a user's MCP configurations and the servers they start: `schema-lint session` |

pub mod lsp;
pub mod mcp;
#[cfg(unix)]
pub mod proxy;
#[cfg(unix)]
pub mod record;
pub mod session;

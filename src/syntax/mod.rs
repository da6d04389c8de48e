//! The bottom layer, which knows nothing of schemas: a file's text and byte spans ([`source`]),
//! the strict JSON parse into a span tree with JSON pointers ([`document`]), URI checks and
//! resolution as fluent-uri judges them ([`uri`]), and JSON string literals ([`literal`]).

pub mod document;
pub mod literal;
pub mod source;
pub mod uri;

//! The bottom layer, which knows nothing of schemas: a file's text and byte spans ([`source`]),
//! the strict JSON parse into a span tree with JSON pointers ([`document`]), URI checks and
//! resolution as fluent-uri judges them ([`uri`]), JSON string literals ([`literal`]), whether
//! the regex engines of the clients accept a pattern ([`regex_ecma`], [`regex_python`]), and reads
//! that stop at a bound ([`read`]).

pub mod comments;
pub mod document;
pub mod literal;
pub mod message;
pub mod read;
mod regex_cursor;
pub mod regex_ecma;
pub mod regex_python;
pub mod source;
pub mod uri;

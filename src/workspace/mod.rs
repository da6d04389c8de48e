//! The files of a run ([`file`]): discovery ([`discover`]), loading and parsing ([`load`]; [`encoding`]
//! tells the UTF-16 files it cannot decode), the threads
//! that parse and lint on deep stacks ([`pool`]), and reading again the files a streaming run let
//! go of ([`reloads`]).

pub mod discover;
pub mod encoding;
pub mod file;
pub mod live;
pub mod load;
pub mod pool;
pub mod reloads;

pub use file::{Fingerprint, LintedFile, Origin, State};
pub use load::{load_input, load_source, Input};
pub use reloads::Reloads;

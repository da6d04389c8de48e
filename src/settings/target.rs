//! Targets: which clients and protocol revision a schema is linted for. The type lives with the
//! rule metadata ([`crate::diagnostic::target`]), which says for which targets a rule lints.

pub use crate::diagnostic::target::Target;

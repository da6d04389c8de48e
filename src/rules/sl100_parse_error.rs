//! SL100 parse-error: the file could not be read, decoded as UTF-8, or parsed as strict JSON.
//! Reported by the engine while loading a file; it has no `check`.

use super::{Category, FixAvailability, RuleMeta};
use crate::diagnostic::Severity;

pub static PARSE_ERROR: RuleMeta = RuleMeta {
    code: "SL100",
    name: "parse-error",
    summary: "The file could not be read, decoded as UTF-8, or parsed as strict JSON",
    category: Category::Document,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
};

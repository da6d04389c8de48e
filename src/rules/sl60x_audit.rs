//! SL601-SL604: findings of `schema-lint audit` about captured `tools/call` results. They are
//! reported by the audit (`crate::audit`), never by linting a schema, so they have no `check`.

use super::{Category, FixAvailability, RuleMeta};
use crate::diagnostic::Severity;

pub static MISSING_STRUCTURED_CONTENT: RuleMeta = RuleMeta {
    code: "SL601",
    name: "missing-structured-content",
    summary: "A tool with an output schema returned a result without `structuredContent`",
    category: Category::Audit,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
};

pub static NON_OBJECT_STRUCTURED_CONTENT: RuleMeta = RuleMeta {
    code: "SL602",
    name: "non-object-structured-content",
    summary: "`structuredContent` is an array or a primitive on a 2025 protocol revision",
    category: Category::Audit,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
};

pub static WRAPPER_MISMATCH: RuleMeta = RuleMeta {
    code: "SL603",
    name: "wrapper-mismatch",
    summary:
        "The output schema and `structuredContent` disagree on the `{\"result\": ...}` wrapper",
    category: Category::Audit,
    severity: Severity::Warning,
    fix: FixAvailability::None,
    default_enabled: true,
};

pub static TEXT_FALLBACK_MISSING: RuleMeta = RuleMeta {
    code: "SL604",
    name: "text-fallback-missing",
    summary:
        "Non-object `structuredContent` on 2026-07-28 comes without a TextContent carrying its JSON",
    category: Category::Audit,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
};

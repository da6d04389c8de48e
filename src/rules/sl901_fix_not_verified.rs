//! SL901 fix-not-verified: a fix was not applied because its proof failed. Reported by the fix
//! loop; it has no `check`.

use super::{Category, FixAvailability, RuleMeta};
use crate::diagnostic::Severity;

pub static FIX_NOT_VERIFIED: RuleMeta = RuleMeta {
    code: "SL901",
    name: "fix-not-verified",
    summary:
        "A fix was not applied because the fixed files did not parse, lint, resolve or compile",
    category: Category::Tool,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
};

//! The fixes the loop refused, as findings: each becomes an SL901 on the finding that offered it.

use super::FixOutcome;
use crate::diagnostic::meta::FIX_NOT_VERIFIED;
use crate::diagnostic::Diagnostic;
use crate::syntax::source::Span;

/// Turns the fixes the loop refused into SL901 findings, placed on the finding that offered
/// them (as it stands after the other fixes).
pub fn attach_rejections(outcome: &mut FixOutcome) {
    for r in &outcome.rejected {
        let file = &mut outcome.run.files[r.file.0];
        let span = file
            .diagnostics
            .iter()
            .find(|d| d.rule.code == r.code && d.pointer == r.pointer)
            .map_or(Span::default(), |d| d.span);
        file.diagnostics.push(
            Diagnostic::new(
                &FIX_NOT_VERIFIED,
                r.file,
                span,
                format!("Fix for {} not applied: {}", r.code, r.reason),
            )
            .label("this finding's fix was refused")
            .help(format!(
                "The fix was: {}. Nothing was written for it; fix this by hand",
                r.title
            ))
            .pointer(r.pointer.clone()),
        );
    }
}

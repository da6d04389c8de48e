//! SL103 invalid-suppression: a `schema-lint-ignore` comment of a JSONC file that suppresses
//! nothing: no reason, no rule, a rule that does not exist, or no value after it.

use crate::diagnostic::meta::{self, SL103 as META};
use crate::diagnostic::Diagnostic;
use crate::rules::{FileContext, Rule, RuleMeta};
use crate::settings::select::matches;
use crate::syntax::comments::{self, Suppression};

pub struct InvalidSuppression;

impl Rule for InvalidSuppression {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        if !cx.file.is_jsonc() {
            return;
        }
        for s in comments::suppressions(&cx.file.text, cx.root) {
            check(cx, &s, out);
        }
    }
}

const FORM: &str =
    "Write it as `// schema-lint-ignore SL201: why this finding does not apply here`";

fn check(cx: &FileContext<'_>, s: &Suppression, out: &mut Vec<Diagnostic>) {
    let found = if s.selectors.is_empty() {
        Some(
            cx.report(
                s.span,
                "This `schema-lint-ignore` names no rule, so it suppresses nothing",
            )
            .help(FORM),
        )
    } else if let Some((word, span)) = s
        .selectors
        .iter()
        .find(|(w, _)| !meta::ALL.iter().any(|m| matches(w, m)))
    {
        Some(cx
            .report(*span, format!("`{word}` is not a rule, so this `schema-lint-ignore` suppresses nothing"))
            .label("no rule has this code or name")
            .help("Name a rule by its code (`SL201`), its name (`invalid-id-uri`), a code prefix (`SL2`) or `ALL`; docs/rules.md lists them"))
    } else if s.reason.is_none() {
        Some(cx
            .report(s.span, "This `schema-lint-ignore` gives no reason, so it suppresses nothing")
            .help(format!("Add a colon and the reason: {FORM}"))
            .note("A suppression must say why, so that the next reader can tell whether it still holds"))
    } else if s.scopes.is_empty() {
        Some(cx
            .report(s.span, "This `schema-lint-ignore` has no value after it, so it suppresses nothing")
            .help("Put it on the line before the member or item it is for, or after it on the same line"))
    } else {
        None
    };
    out.extend(found);
}

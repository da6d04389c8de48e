//! SL510 listing-envelope: a `tools/list` answer of protocol revision 2026-07-28 without the
//! `resultType` and the caching hints (`ttlMs`, `cacheScope`) that revision requires of it.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL510 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{FileContext, Rule, RuleMeta};
use crate::schema::units::DUMP_META;
use crate::syntax::document::{Member, Node, NodeKind};
use crate::syntax::source::Span;
use std::fmt::Write as _;

pub struct ListingEnvelope;

const NOTE: &str = "Protocol revision 2026-07-28 requires `resultType` on every result (SEP-2322) \
     and the caching hints `ttlMs` and `cacheScope` on a `tools/list` result (SEP-2549); a client \
     may read an absent `resultType` as `\"complete\"` only from a server of an earlier revision";

const HELP: &str = "Answer `tools/list` on 2026-07-28 with `\"resultType\": \"complete\"`, \
     `\"ttlMs\"` (0: do not reuse) and `\"cacheScope\"` (`\"private\"` unless every user may \
     share the list) beside `tools`: the SDKs of that revision add them (Python `mcp` 2.x, the \
     TypeScript SDK 2.x, go-sdk after #1032); a hand-written server adds them itself";

impl Rule for ListingEnvelope {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    // Targets: mcp-2026-07-28 only (the scope line of rules/SL510.md): a listing of an earlier
    // revision needs none of these, and a server that sends them there is fine.
    fn check_file(&self, cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        // A server's answer: a JSON-RPC response (or a dump, which is one) whose result lists
        // tools. A bare `{"tools": [...]}` is somebody's copy of the tools, not the answer.
        let Some(result) = cx.root.member("result") else {
            return;
        };
        let NodeKind::Object(members) = &result.value.kind else {
            return;
        };
        if result.value.get("tools").and_then(Node::as_array).is_none() {
            return;
        }
        // A dump made before `dump` kept the envelope shows none, whatever the server sent.
        let dumped = result.value.get("_meta").and_then(|m| m.get(DUMP_META));
        if dumped.is_some_and(|note| note.get("envelope").is_none()) {
            return;
        }
        match members.iter().find(|m| m.key == "resultType") {
            None => out.push(missing(
                cx,
                result,
                &["resultType"],
                classes::SL510_RESULT_TYPE,
            )),
            Some(m) if m.value.as_str().is_none() => out
                .push(wrong(cx, m, "a string (`\"complete\"`)").class(classes::SL510_RESULT_TYPE)),
            Some(_) => {}
        }
        let mut hints = Vec::new();
        match members.iter().find(|m| m.key == "ttlMs") {
            None => hints.push("ttlMs"),
            Some(m) if !is_count(&m.value) => out.push(
                wrong(cx, m, "a number of milliseconds, 0 or more")
                    .class(classes::SL510_CACHE_HINTS),
            ),
            Some(_) => {}
        }
        match members.iter().find(|m| m.key == "cacheScope") {
            None => hints.push("cacheScope"),
            Some(m) if !matches!(m.value.as_str(), Some("public" | "private")) => out.push(
                wrong(cx, m, "`\"public\"` or `\"private\"`").class(classes::SL510_CACHE_HINTS),
            ),
            Some(_) => {}
        }
        if !hints.is_empty() {
            out.push(missing(cx, result, &hints, classes::SL510_CACHE_HINTS));
        }
    }
}

/// The value a missing member of the envelope is given by the fix: the listing is complete
/// (what a client reads an absent `resultType` of an earlier revision as), and the cache hints
/// that allow no reuse at all (`ttlMs` 0, `private`).
fn value_of(member: &str) -> &'static str {
    match member {
        "resultType" => "\"complete\"",
        "ttlMs" => "0",
        _ => "\"private\"",
    }
}

/// The fix that adds the `members` missing from `result`: each written before its first member,
/// spaced as the file spaces it (on a line of its own with its indentation, or on the same line);
/// the bytes around them are kept.
fn add_members(cx: &FileContext<'_>, result: &Member, members: &[&str]) -> Option<Fix> {
    let NodeKind::Object(present) = &result.value.kind else {
        return None;
    };
    let first = present.first()?;
    let open = result.value.span.start + 1;
    // The file's own spacing: what follows `{`, and what stands between a key and its value.
    let gap = cx.file.text.get(open..first.key_span.start)?;
    let colon = cx
        .file
        .text
        .get(first.key_span.end..first.value.span.start)?;
    let mut content = String::new();
    for m in members {
        let _ = write!(content, "\"{m}\"{colon}{},{gap}", value_of(m));
    }
    Some(Fix {
        title: format!(
            "Add {}",
            members
                .iter()
                .map(|m| format!("`\"{m}\": {}`", value_of(m)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        applicability: Applicability::Unsafe,
        edits: vec![Edit {
            file: cx.file.id,
            span: Span::new(first.key_span.start, first.key_span.start),
            content,
        }],
        moves: Vec::new(),
    })
}

/// `what` (one member, or `` `ttlMs` and `cacheScope` ``) is missing from the result.
fn missing(
    cx: &FileContext<'_>,
    result: &Member,
    members: &[&str],
    class: crate::diagnostic::breaks::Class,
) -> Diagnostic {
    let what = members
        .iter()
        .map(|h| format!("`{h}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let found = cx
        .report(
            result.key_span,
            format!("The `tools/list` result of a 2026-07-28 server has no {what}"),
        )
        .label(format!("this result has no {what}"))
        .note(NOTE)
        .help(HELP)
        .pointer("/result")
        .class(class);
    match add_members(cx, result, members) {
        Some(fix) => found.fix(fix),
        None => found,
    }
}

/// A member of the envelope is there with a value the revision does not allow.
fn wrong(cx: &FileContext<'_>, m: &Member, expected: &str) -> Diagnostic {
    cx.report(
        m.value.span,
        format!("`{}` of the `tools/list` result must be {expected}", m.key),
    )
    .label("not allowed here")
    .note(NOTE)
    .help(HELP)
    .pointer(format!("/result/{}", m.key))
}

/// Whether `node` is a whole number, 0 or more (`ttlMs`).
fn is_count(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Number(raw) => raw
            .parse::<f64>()
            .is_ok_and(|n| n >= 0.0 && n.fract() == 0.0),
        _ => false,
    }
}

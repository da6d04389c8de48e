//! SL708 gemini-json-schema: what Gemini's `parametersJsonSchema` field (a JSON Schema subset)
//! does not take in a tool's input schema: keywords outside its list, keywords beside a `$ref`,
//! and reference cycles through required properties, which it cannot unroll.

use super::gemini::{JSON_KEYWORDS, JSON_SCHEMA_KEYWORDS};
use super::gemini_code::{tell, Finding};
use crate::diagnostic::breaks::{classes, Client};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::{SL704, SL708 as META};
use crate::diagnostic::Diagnostic;
use crate::rules::analysis::tree::Tree;
use crate::rules::edits::inline::DEFS;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::schema::walk::Subschema;
use crate::syntax::document::{push_pointer_token, Member, Node};
use crate::syntax::source::Span;
use std::collections::HashMap;

pub struct GeminiJsonSchema;

/// Keywords Gemini lets stand beside a `$ref`, besides those starting with `$`: its error names
/// them.
const BESIDE_REF: [&str; 2] = ["description", "default"];

const KEYWORD_NOTE: &str = "Gemini's `parametersJsonSchema` takes a subset of JSON Schema: `$id`, \
     `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`, `description`, `enum`, `items`, \
     `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf` (read as \
     `anyOf`), `properties`, `additionalProperties`, `required` and `propertyOrdering`; the \
     model is not held to any other keyword";

const REF_NOTE: &str = "Gemini lets only `$`-keywords stand beside a `$ref` (its error adds \
     `description` and `default`) and refuses the request over any other";

const CYCLE_NOTE: &str = "Gemini unrolls a reference cycle a few levels deep only: where every \
     step of the cycle is required, the unrolled schema ends in a property that must be there \
     and that nothing describes";

impl Rule for GeminiJsonSchema {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let tree = cx.tree();
        // What the model is not held to is worth saying to an author who targets the API
        // itself; gemini-cli, a default host, hears only of what Gemini refuses or cuts short.
        let keywords = cx.clients.contains(&Client::GeminiJsonschema);
        for (i, sub) in cx.subschemas.iter().enumerate() {
            if !tree
                .keywords_above(i)
                .all(|k| JSON_SCHEMA_KEYWORDS.contains(&k))
            {
                continue;
            }
            let Some(members) = sub.node.as_object() else {
                continue;
            };
            let has_ref = sub.node.get("$ref").is_some();
            for m in members {
                // Beside a `$ref`, the refusal is what counts (reported below).
                let refused_beside_ref = has_ref && beside_ref(m);
                if keywords && !(JSON_KEYWORDS.contains(&m.key.as_str()) || refused_beside_ref) {
                    out.push(keyword(cx, sub, m));
                }
            }
            if has_ref {
                ref_siblings(cx, sub, members, out);
            }
        }
        required_cycles(cx, tree, out);
    }
}

/// Whether Gemini refuses member `m` beside a `$ref`.
fn beside_ref(m: &Member) -> bool {
    !m.key.starts_with('$') && !BESIDE_REF.contains(&m.key.as_str())
}

fn member_pointer(sub: &Subschema<'_>, key: &str) -> String {
    let mut p = sub.pointer.clone();
    push_pointer_token(&mut p, key);
    p
}

fn keyword(cx: &UnitContext<'_>, sub: &Subschema<'_>, m: &Member) -> Diagnostic {
    let key = m.key.as_str();
    let d = cx
        .report(
            m.key_span,
            format!("`{key}` is not among the keywords of Gemini's `parametersJsonSchema`"),
        )
        .label("the model is not held to it")
        .note(KEYWORD_NOTE)
        .help(format!(
            "Check `{key}` in the server (the model may send arguments it refuses), and say it in \
         `description` if the model should know"
        ))
        .pointer(member_pointer(sub, key))
        .class(classes::SL708_KEYWORD);
    tell(d, cx.generator(), Finding::Keyword(key))
}

/// One finding per keyword beside a `$ref` that Gemini refuses there.
fn ref_siblings(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    out: &mut Vec<Diagnostic>,
) {
    let offending: Vec<usize> = members
        .iter()
        .enumerate()
        .filter(|(_, m)| beside_ref(m))
        .map(|(i, _)| i)
        .collect();
    if offending.is_empty() {
        return;
    }
    let fix = ref_fix(cx, sub, members, &offending);
    for &i in &offending {
        let m = &members[i];
        let key = m.key.as_str();
        let d = cx
            .report(
                m.key_span,
                format!("`{key}` stands beside a `$ref`, which Gemini refuses"),
            )
            .label("beside `$ref`")
            .note(REF_NOTE)
            .pointer(member_pointer(sub, key))
            .class(classes::SL708_REF_SIBLINGS);
        out.push(match &fix {
            Some((help, fix)) => d.help(help.clone()).fix(fix.clone()),
            None => {
                d.help("Move the `$ref` into the schema it names, or write its target out here")
            }
        });
    }
}

/// The fix of keywords beside a `$ref`. From 2019-09 on they apply with the reference, so the
/// reference moves into a one-branch `anyOf` beside them (Safe: one branch is the branch); in
/// older drafts they are ignored beside a `$ref`, so they go (Safe too). `None` where the node
/// has an `anyOf` already, where a `$defs` or `definitions` stands beside the `$ref` (it may
/// hold the target: SL507 writes a root `$ref`'s target out at the root), and at the root where
/// SL704's clients are selected (a root `anyOf` is what they refuse).
fn ref_fix(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    members: &[Member],
    offending: &[usize],
) -> Option<(String, Fix)> {
    if offending
        .iter()
        .any(|&i| DEFS.contains(&members[i].key.as_str()))
    {
        return None;
    }
    let edit = |span: Span, content: String| Edit {
        file: cx.file.id,
        span,
        content,
    };
    if sub.draft < Draft::Draft201909 {
        return Some((
            format!(
                "Remove the keywords beside the `$ref`: {} ignores them",
                sub.draft
            ),
            Fix {
                title: "Remove the keywords beside `$ref`".to_owned(),
                applicability: Applicability::Safe,
                edits: removals(members, offending)
                    .into_iter()
                    .map(|span| edit(span, String::new()))
                    .collect(),
                moves: Vec::new(),
            },
        ));
    }
    let at_root = sub.pointer == cx.unit.pointer;
    let combinator_refused = SL704.scope.clients.iter().any(|c| cx.clients.contains(c));
    if sub.node.get("anyOf").is_some() || (at_root && combinator_refused) {
        return None;
    }
    let r = members.iter().find(|m| m.key == "$ref")?;
    let text = cx.text();
    let colon = &text[r.key_span.end..r.value.span.start];
    let reference = &text[r.value.span.start..r.value.span.end];
    Some((
        "Move the `$ref` into a one-branch `anyOf` beside the other keywords: it validates the \
         same instances"
            .to_owned(),
        Fix {
            title: "Wrap the `$ref` in an `anyOf`".to_owned(),
            applicability: Applicability::Safe,
            edits: vec![edit(
                Span::new(r.key_span.start, r.value.span.end),
                format!("\"anyOf\"{colon}[{{\"$ref\"{colon}{reference}}}]"),
            )],
            moves: Vec::new(),
        },
    ))
}

/// The spans that remove the members `offending` (sorted, not all of `members`), leaving the
/// layout of those that stay: each run of removed members goes up to the next member that
/// stays, or, at the end, from the last one that stays.
fn removals(members: &[Member], offending: &[usize]) -> Vec<Span> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < members.len() {
        if !offending.contains(&i) {
            i += 1;
            continue;
        }
        let first = i;
        while i < members.len() && offending.contains(&i) {
            i += 1;
        }
        let last = &members[i - 1];
        match (members.get(i), first.checked_sub(1)) {
            (Some(next), _) => out.push(Span::new(
                members[first].key_span.start,
                next.key_span.start,
            )),
            (None, Some(kept)) => {
                out.push(Span::new(members[kept].value.span.end, last.value.span.end));
            }
            (None, None) => {}
        }
    }
    out
}

/// The steps an instance cannot skip: from a schema to the schemas of its required properties,
/// its `items` where `minItems` is at least 1, and where its `$ref` leads.
fn forced_steps(
    tree: &Tree<'_>,
    by_pointer: &HashMap<&str, usize>,
    i: usize,
) -> Vec<(usize, Option<String>)> {
    let sub = &tree.subs[i];
    let node = sub.node;
    let mut out: Vec<(usize, Option<String>)> = tree
        .refs_of(i)
        .iter()
        .flatten()
        .map(|&t| (t, None))
        .collect();
    let required = node.get("required").and_then(Node::as_array).unwrap_or(&[]);
    for name in required.iter().filter_map(Node::as_str) {
        let mut p = sub.pointer.clone();
        push_pointer_token(&mut p, "properties");
        push_pointer_token(&mut p, name);
        if let Some(&c) = by_pointer.get(p.as_str()) {
            out.push((c, Some(name.to_owned())));
        }
    }
    let min_items = node
        .get("minItems")
        .and_then(|n| n.to_value().as_u64())
        .unwrap_or(0);
    if min_items >= 1 && node.get("items").is_some_and(|n| n.as_array().is_none()) {
        let mut p = sub.pointer.clone();
        push_pointer_token(&mut p, "items");
        if let Some(&c) = by_pointer.get(p.as_str()) {
            out.push((c, Some("items".to_owned())));
        }
    }
    out
}

/// One finding per `$ref` that closes a cycle of steps an instance cannot skip.
fn required_cycles(cx: &UnitContext<'_>, tree: &Tree<'_>, out: &mut Vec<Diagnostic>) {
    let subs = cx.subschemas;
    if !subs.iter().any(|s| s.node.get("$ref").is_some()) {
        return;
    }
    let by_pointer: HashMap<&str, usize> = subs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.pointer.as_str(), i))
        .collect();
    let steps: Vec<Vec<(usize, Option<String>)>> = (0..subs.len())
        .map(|i| forced_steps(tree, &by_pointer, i))
        .collect();
    // 0 unseen, 1 on the path, 2 done.
    let mut state = vec![0u8; subs.len()];
    let mut reported: Vec<usize> = Vec::new();
    for start in 0..subs.len() {
        if state[start] != 0 {
            continue;
        }
        let mut path: Vec<(usize, usize, Option<String>)> = vec![(start, 0, None)];
        state[start] = 1;
        while let Some(&mut (at, ref mut next, _)) = path.last_mut() {
            let Some((to, name)) = steps[at].get(*next).cloned() else {
                state[at] = 2;
                path.pop();
                continue;
            };
            *next += 1;
            match state[to] {
                0 => {
                    state[to] = 1;
                    path.push((to, 0, name));
                }
                1 if name.is_none() && !reported.contains(&at) => {
                    reported.push(at);
                    let from = path.iter().position(|p| p.0 == to).unwrap_or(0);
                    let names: Vec<String> = path[from + 1..]
                        .iter()
                        .filter_map(|p| p.2.clone())
                        .collect();
                    out.push(cycle(cx, &subs[at], &subs[to], &names));
                }
                _ => {}
            }
        }
    }
}

fn cycle(
    cx: &UnitContext<'_>,
    holder: &Subschema<'_>,
    target: &Subschema<'_>,
    names: &[String],
) -> Diagnostic {
    let span = holder.node.get("$ref").map_or(holder.node.span, |r| r.span);
    let through = if names.is_empty() {
        "directly".to_owned()
    } else {
        format!(
            "through required {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let target_pointer = target
        .pointer
        .strip_prefix(cx.unit.pointer.as_str())
        .unwrap_or(&target.pointer);
    let d = cx
        .report(
            span,
            format!(
                "`$ref` leads back to `#{target_pointer}` {through}, a cycle Gemini cannot unroll"
            ),
        )
        .label("closes the cycle")
        .note(CYCLE_NOTE)
        .help("Make one property of the cycle optional (out of `required`), so the cycle can end")
        .pointer(member_pointer(holder, "$ref"))
        .class(classes::SL708_REQUIRED_CYCLE);
    tell(d, cx.generator(), Finding::RequiredCycle)
}

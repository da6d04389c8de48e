//! The fix that writes every local `$ref` of a schema out in place and drops the root's `$defs`
//! (or `definitions`): Gemini's `parameters` field knows neither keyword, and a schema without
//! references whose targets are copied where they were named validates exactly the same
//! instances. Only for non-recursive schemas whose references all stay in the unit.

use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::rules::analysis::tree::Tree;
use crate::rules::edits::inline::{reindent, ANNOTATIONS, DEFS, IDENTIFYING};
use crate::rules::edits::members::removal_span;
use crate::rules::UnitContext;
use crate::syntax::source::Span;

/// The inlined schema may grow to this many times the size of the unit's text (a target named
/// many times is copied as many times) before the fix is left out.
const GROWTH: usize = 8;

/// The fix, or `None` when the schema has no `$ref`, is recursive, has a reference that leaves
/// the unit or a `$ref` beside keywords other than annotations, or holds keywords that name
/// subschemas.
#[must_use]
pub fn inline_defs(cx: &UnitContext<'_>) -> Option<Fix> {
    let tree = cx.tree();
    let subs = cx.subschemas;
    let root = subs.first()?.node;
    let members = root.as_object()?;
    let holders: Vec<usize> = (0..subs.len())
        .filter(|&i| subs[i].node.get("$ref").is_some())
        .collect();
    if holders.is_empty() {
        return None;
    }
    let nested_defs = subs[1..]
        .iter()
        .any(|s| DEFS.iter().any(|k| s.node.get(k).is_some()));
    let identifying = subs.iter().enumerate().any(|(i, s)| {
        IDENTIFYING.iter().any(|k| s.node.get(k).is_some()) || (i > 0 && s.id().is_some())
    });
    if nested_defs || identifying {
        return None;
    }
    let limit = (root.span.end - root.span.start).saturating_mul(GROWTH);
    let inliner = Inliner { cx, tree, limit };
    let mut edits = Vec::new();
    for &h in &holders {
        if under_defs(tree, h) {
            continue;
        }
        let content = inliner.expand(h, &mut Vec::new())?;
        edits.push(Edit {
            file: cx.file.id,
            span: subs[h].node.span,
            content,
        });
    }
    for (i, m) in members.iter().enumerate() {
        if DEFS.contains(&m.key.as_str()) {
            edits.push(Edit {
                file: cx.file.id,
                span: removal_span(root, members, i),
                content: String::new(),
            });
        }
    }
    let removed = members
        .iter()
        .find(|m| DEFS.contains(&m.key.as_str()))
        .map_or("`$ref`", |m| {
            if m.key == "$defs" {
                "`$defs`"
            } else {
                "`definitions`"
            }
        });
    Some(Fix {
        title: format!("Inline every `$ref` and remove {removed}"),
        applicability: Applicability::Safe,
        edits,
        moves: Vec::new(),
    })
}

/// Whether subschema `i` lies under the root's `$defs` or `definitions`.
fn under_defs(tree: &Tree<'_>, i: usize) -> bool {
    tree.keywords_above(i).any(|k| DEFS.contains(&k))
}

struct Inliner<'c, 'a> {
    cx: &'c UnitContext<'a>,
    tree: &'a Tree<'a>,
    limit: usize,
}

impl Inliner<'_, '_> {
    /// The text that replaces the `$ref` holder `h`: its target written out (with the
    /// references inside it written out too), with `h`'s annotations merged in. `stack` holds
    /// the targets being written out, to refuse recursion.
    fn expand(&self, h: usize, stack: &mut Vec<usize>) -> Option<String> {
        let node = self.tree.subs[h].node;
        let members = node.as_object()?;
        let [Some(target)] = self.tree.refs_of(h) else {
            return None;
        };
        let target = *target;
        if stack.contains(&target) || target == 0 || target == h {
            return None;
        }
        stack.push(target);
        let written = self.render(target, stack);
        stack.pop();
        let written = reindent(
            self.cx.text(),
            self.tree.subs[target].node.span.start,
            node.span.start,
            &written?,
        );
        let text = self.cx.text();
        let siblings: Vec<&crate::syntax::document::Member> =
            members.iter().filter(|m| m.key != "$ref").collect();
        if siblings.is_empty() {
            return Some(written);
        }
        if !siblings
            .iter()
            .all(|m| ANNOTATIONS.contains(&m.key.as_str()))
        {
            return None;
        }
        let target_node = self.tree.subs[target].node;
        let target_members = match target_node.as_object() {
            Some(m) => m,
            // `true` accepts everything, as `{}` does; `false` has no object form here.
            None if target_node.as_bool() == Some(true) => &[],
            None => return None,
        };
        if target_members
            .iter()
            .any(|t| siblings.iter().any(|s| s.key == t.key))
        {
            return None;
        }
        // The holder's annotations first, then the target's members, laid out as the target.
        let said: Vec<&str> = siblings
            .iter()
            .map(|m| &text[m.key_span.start..m.value.span.end])
            .collect();
        if target_members.is_empty() {
            return Some(format!("{{{}}}", said.join(", ")));
        }
        let inside = written.get(1..written.len() - 1)?;
        let lead = &inside[..inside.len() - inside.trim_start().len()];
        let separator = if lead.is_empty() { " " } else { lead };
        Some(format!(
            "{{{lead}{},{separator}{}}}",
            said.join(&format!(",{separator}")),
            inside.trim_start()
        ))
    }

    /// The text of subschema `i` with every `$ref` inside it written out.
    fn render(&self, i: usize, stack: &mut Vec<usize>) -> Option<String> {
        let subs = self.tree.subs;
        let node = subs[i].node;
        if node.get("$ref").is_some() {
            return self.expand(i, stack);
        }
        let text = self.cx.text();
        let mut replacements: Vec<(Span, String)> = Vec::new();
        for (j, sub) in subs.iter().enumerate() {
            let inside = sub.node.span.start >= node.span.start
                && sub.node.span.end <= node.span.end
                && j != i;
            // Holders inside an earlier holder's span are written out with it.
            let covered = replacements
                .iter()
                .any(|(s, _)| s.start <= sub.node.span.start && sub.node.span.end <= s.end);
            if inside && !covered && sub.node.get("$ref").is_some() {
                replacements.push((sub.node.span, self.expand(j, stack)?));
            }
        }
        let mut out = text[node.span.start..node.span.end].to_owned();
        for (span, content) in replacements.iter().rev() {
            out.replace_range(
                span.start - node.span.start..span.end - node.span.start,
                content,
            );
        }
        (out.len() <= self.limit).then_some(out)
    }
}

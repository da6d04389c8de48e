//! The fix that writes every local `$ref` of a schema out in place and drops the root's `$defs`
//! (or `definitions`): Gemini's `parameters` field knows neither keyword, and a schema without
//! references whose targets are copied where they were named validates exactly the same
//! instances. Only for non-recursive schemas whose references all stay in the unit.

use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::rules::analysis::tree::Tree;
use crate::rules::mcp::shape::removal_span;
use crate::rules::UnitContext;
use crate::syntax::source::Span;

/// Keywords a `$ref` may stand beside for the fix to merge them into the copied target: they
/// annotate and never change which instances validate, in any draft.
const ANNOTATIONS: [&str; 8] = [
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords whose presence anywhere in the unit leaves the fix out: they give subschemas names
/// or dynamic scopes that copying would change.
const IDENTIFYING: [&str; 5] = [
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveAnchor",
    "$recursiveRef",
    "$anchor",
];

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
        .any(|s| s.node.get("$defs").is_some() || s.node.get("definitions").is_some());
    let identifying = subs.iter().enumerate().any(|(i, s)| {
        IDENTIFYING.iter().any(|k| s.node.get(k).is_some()) || (i > 0 && s.id().is_some())
    });
    if nested_defs || identifying {
        return None;
    }
    let limit = (root.span.end - root.span.start).saturating_mul(GROWTH);
    let inliner = Inliner {
        cx,
        tree,
        limit,
    };
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
        if m.key == "$defs" || m.key == "definitions" {
            edits.push(Edit {
                file: cx.file.id,
                span: removal_span(root, members, i),
                content: String::new(),
            });
        }
    }
    let removed = members
        .iter()
        .find(|m| m.key == "$defs" || m.key == "definitions")
        .map_or("`$ref`", |m| if m.key == "$defs" { "`$defs`" } else { "`definitions`" });
    Some(Fix {
        title: format!("Inline every `$ref` and remove {removed}"),
        applicability: Applicability::Safe,
        edits,
        moves: Vec::new(),
    })
}

/// Whether subschema `i` lies under the root's `$defs` or `definitions`.
fn under_defs(tree: &Tree<'_>, i: usize) -> bool {
    tree.keywords_above(i)
        .any(|k| k == "$defs" || k == "definitions")
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
        let written = written?;
        let text = self.cx.text();
        let siblings: Vec<&crate::syntax::document::Member> =
            members.iter().filter(|m| m.key != "$ref").collect();
        if siblings.is_empty() {
            return Some(written);
        }
        if !siblings.iter().all(|m| ANNOTATIONS.contains(&m.key.as_str())) {
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
        // The holder's text with its `$ref` member replaced by the target's members.
        let at = members.iter().position(|m| m.key == "$ref")?;
        let inner = if target_members.is_empty() {
            String::new()
        } else {
            let open = written.find('{')?;
            let close = written.rfind('}')?;
            written.get(open + 1..close)?.trim().to_owned()
        };
        let (span, content) = if inner.is_empty() {
            (removal_span(node, members, at), String::new())
        } else {
            let m = &members[at];
            (Span::new(m.key_span.start, m.value.span.end), inner)
        };
        let mut out = text[node.span.start..node.span.end].to_owned();
        out.replace_range(
            span.start - node.span.start..span.end - node.span.start,
            &content,
        );
        Some(out)
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

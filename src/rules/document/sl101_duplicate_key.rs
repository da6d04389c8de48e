//! SL101 duplicate-key: the same key twice in one object.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL101 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{FileContext, Rule, RuleMeta};
use crate::syntax::document::{escape_pointer_token, Node, NodeKind};
use std::collections::HashMap;

pub struct DuplicateKey;

impl Rule for DuplicateKey {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let mut path = Vec::new();
        visit(cx, cx.root, &mut path, out);
    }
}

/// One step of the path from the root, for the pointer of a finding (built only when one is found).
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn pointer_of(path: &[Step<'_>], last: &str) -> String {
    let mut out = String::new();
    for step in path {
        out.push('/');
        match step {
            Step::Key(k) => out.push_str(&escape_pointer_token(k)),
            Step::Index(i) => out.push_str(&i.to_string()),
        }
    }
    out.push('/');
    out.push_str(&escape_pointer_token(last));
    out
}

/// Depth-first over every object of the document (the parser bounds the depth).
fn visit<'a>(
    cx: &FileContext<'_>,
    node: &'a Node,
    path: &mut Vec<Step<'a>>,
    out: &mut Vec<Diagnostic>,
) {
    match &node.kind {
        NodeKind::Object(members) => {
            // Objects that repeat no key (nearly all) are skipped; the others compare pairwise
            // when small, through a map when large.
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (i, member) in members.iter().enumerate() {
                let first = if !members.repeats() {
                    None
                } else if members.len() <= 16 {
                    members[..i].iter().position(|m| m.key == member.key)
                } else {
                    let first = seen.get(member.key.as_str()).copied();
                    seen.entry(member.key.as_str()).or_insert(i);
                    first
                };
                if let Some(j) = first {
                    out.push(
                        cx.report(member.key_span, format!("Duplicate key `{}`", member.key))
                            .label("repeated here")
                            .related(cx.file.id, members[j].key_span, "first defined here")
                            .help("Keep one of the two members and delete the other")
                            .note(
                                "JSON leaves duplicate keys undefined. The MCP SDK clients read the last value \
                                 (measured on a `tools/list` served with keys twice), as serde_json does; a reader \
                                 who takes the first reads another schema than the clients",
                            )
                            .class(classes::SL101_DUPLICATE_KEY)
                            .pointer(pointer_of(path, &member.key)),
                    );
                }
                path.push(Step::Key(&member.key));
                visit(cx, &member.value, path, out);
                path.pop();
            }
        }
        NodeKind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                visit(cx, item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

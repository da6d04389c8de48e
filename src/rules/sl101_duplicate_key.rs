//! SL101 duplicate-key: the same key twice in one object.

use super::{Category, FileContext, FixAvailability, Rule, RuleMeta};
use crate::diagnostic::{Diagnostic, Severity};
use crate::document::{escape_pointer_token, Node, NodeKind};
use std::collections::HashMap;

pub struct DuplicateKey;

static META: RuleMeta = RuleMeta {
    code: "SL101",
    name: "duplicate-key",
    summary: "An object holds the same key more than once",
    category: Category::Document,
    severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
};

impl Rule for DuplicateKey {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let mut stack: Vec<(&Node, String)> = vec![(cx.root, String::new())];
        while let Some((node, pointer)) = stack.pop() {
            match &node.kind {
                NodeKind::Object(members) => {
                    let mut first: HashMap<&str, usize> = HashMap::new();
                    for (i, member) in members.iter().enumerate() {
                        let child = format!("{pointer}/{}", escape_pointer_token(&member.key));
                        if let Some(&j) = first.get(member.key.as_str()) {
                            out.push(
                                Diagnostic::new(
                                    &META,
                                    cx.file.id,
                                    member.key_span,
                                    format!("Duplicate key `{}`", member.key),
                                )
                                .label("repeated here")
                                .related(cx.file.id, members[j].key_span, "first defined here")
                                .help("Keep one of the two members and delete the other")
                                .note(
                                    "JSON leaves duplicate keys undefined: serde_json, Ajv and Python keep the last \
                                     value, other tools the first, so readers of this schema disagree on what it says",
                                )
                                .pointer(child.clone()),
                            );
                        } else {
                            first.insert(&member.key, i);
                        }
                        stack.push((&member.value, child));
                    }
                }
                NodeKind::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        stack.push((item, format!("{pointer}/{i}")));
                    }
                }
                _ => {}
            }
        }
    }
}

//! Compatibility of two versions of a schema (`schema-lint diff`): the changes from OLD to NEW
//! ([`walk`], [`bounds`]), each judged for a role, and each breaking one proven by a
//! counterexample ([`witness`]) built from the schemas ([`sample`]); the tools of two
//! `tools/list` documents matched by name ([`tools`]).

mod bounds;
mod combine;
mod keywords;
mod pairs;
pub mod sample;
pub mod tools;
pub mod walk;
pub mod witness;

use serde_json::Value;
use walk::Direction;
pub use witness::Side;

/// Who must keep working across the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The schema's reader (a server reading its `inputSchema`, a validator of documents):
    /// every instance valid under OLD must stay valid under NEW.
    Consumer,
    /// The schema's writer is checked by its readers (a tool's `outputSchema`): every instance
    /// valid under NEW must have been valid under OLD.
    Producer,
    /// Both.
    Both,
}

/// How a finding counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Proven by a counterexample (an error).
    Breaking,
    /// A change that may break, with no counterexample found and no proof of compatibility
    /// ("cannot prove compatible"): a warning.
    Unproven,
    /// A change worth a look that no schema decides (a tool's description): a warning.
    Warning,
    /// A change that cannot break the role, or an addition: reported as information.
    Compatible,
}

/// A counterexample: valid under one version, invalid under the other (checked on both).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Counterexample {
    /// The instance.
    pub instance: Value,
    /// The version it is valid under.
    pub valid_under: Side,
}

/// One finding of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What changed, in kebab case (`required-added`, `tool-removed`).
    pub kind: &'static str,
    /// How it counts.
    pub verdict: Verdict,
    /// What changed, in one sentence.
    pub message: String,
    /// The tool, for `tools/list` documents.
    pub tool: Option<String>,
    /// Which schema of the tool (`inputSchema`, `outputSchema`), for its schemas' findings.
    pub schema: Option<&'static str>,
    /// JSON pointer of the place in OLD's document, where there is one.
    pub old_pointer: Option<String>,
    /// JSON pointer of the place in NEW's document, where there is one.
    pub new_pointer: Option<String>,
    /// JSON pointer of the place in an instance the change applies to.
    pub instance_pointer: Option<String>,
    /// The proof of a breaking finding.
    pub counterexample: Option<Counterexample>,
}

impl Finding {
    /// A finding with no place and no proof yet.
    #[must_use]
    pub fn new(kind: &'static str, verdict: Verdict, message: String) -> Self {
        Self {
            kind,
            verdict,
            message,
            tool: None,
            schema: None,
            old_pointer: None,
            new_pointer: None,
            instance_pointer: None,
            counterexample: None,
        }
    }
}

/// The sides whose instances must keep validating for `role`, given a change's direction.
fn at_risk(role: Role, direction: Direction) -> Vec<Side> {
    let consumer = matches!(role, Role::Consumer | Role::Both)
        && matches!(direction, Direction::Narrower | Direction::Unknown);
    let producer = matches!(role, Role::Producer | Role::Both)
        && matches!(direction, Direction::Wider | Direction::Unknown);
    let mut out = Vec::new();
    if consumer {
        out.push(Side::Old);
    }
    if producer {
        out.push(Side::New);
    }
    out
}

/// The findings from schema `old` to schema `new` for `role`; pointers are prefixed with
/// `old_base` and `new_base` (the schemas' places in their documents).
#[must_use]
pub fn compare(
    old: &Value,
    new: &Value,
    role: Role,
    old_base: &str,
    new_base: &str,
) -> Vec<Finding> {
    if old == new {
        return Vec::new();
    }
    let validators = witness::Validators::new(old, new);
    let mut out = Vec::new();
    for change in pairs::changes(old, new) {
        let mut finding = Finding::new(change.kind, Verdict::Compatible, change.message);
        finding.old_pointer = change
            .old_pointer
            .as_ref()
            .map(|p| format!("{old_base}{p}"));
        finding.new_pointer = change
            .new_pointer
            .as_ref()
            .map(|p| format!("{new_base}{p}"));
        finding.instance_pointer = Some(sample::pointer(&change.path));
        let sides = at_risk(role, change.direction);
        if sides.is_empty() {
            out.push(finding);
            continue;
        }
        let proof = match &validators {
            Ok(v) => sides.iter().find_map(|side| {
                let blame = match side {
                    Side::Old => change.new_pointer.as_deref(),
                    Side::New => change.old_pointer.as_deref(),
                };
                let blame = blame.filter(|_| change.direction != Direction::Unknown);
                witness::search(
                    v,
                    [old, new],
                    &change.path,
                    &change.candidates,
                    *side,
                    blame,
                )
                .map(|instance| Counterexample {
                    instance,
                    valid_under: *side,
                })
            }),
            Err(_) => None,
        };
        if let Some(proof) = proof {
            finding.verdict = Verdict::Breaking;
            finding.counterexample = Some(proof);
        } else {
            finding.verdict = Verdict::Unproven;
            let why = match &validators {
                Err(why) => format!("; {why}"),
                Ok(_) => String::new(),
            };
            finding.message = format!("cannot prove compatible: {}{why}", finding.message);
        }
        out.push(finding);
    }
    // The net under the walk: the whole schemas' samples and the common values, at the root.
    if let Ok(v) = &validators {
        for side in at_risk(role, Direction::Unknown) {
            if out.iter().any(|f| {
                f.counterexample
                    .as_ref()
                    .is_some_and(|c| c.valid_under == side)
            }) {
                continue;
            }
            if let Some(instance) = witness::search(v, [old, new], &[], &[], side, None) {
                let message = match side {
                    Side::Old => "an instance valid under OLD is rejected by NEW",
                    Side::New => "NEW accepts an instance OLD rejected",
                };
                let mut finding =
                    Finding::new("schema-changed", Verdict::Breaking, message.to_owned());
                finding.old_pointer = Some(old_base.to_owned());
                finding.new_pointer = Some(new_base.to_owned());
                finding.instance_pointer = Some(String::new());
                finding.counterexample = Some(Counterexample {
                    instance,
                    valid_under: side,
                });
                out.push(finding);
            }
        }
    }
    out
}

/// Keywords that do not change which instances validate.
#[must_use]
pub fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "title"
            | "description"
            | "examples"
            | "default"
            | "$comment"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "$schema"
            | "$id"
            | "id"
            | "$anchor"
            | "$defs"
            | "definitions"
            | "$vocabulary"
            | "contentEncoding"
            | "contentMediaType"
            | "contentSchema"
    ) || key.starts_with("x-")
}

#[cfg(test)]
mod tests;

//! The proof of a breaking change: an instance valid under the version that must keep accepting
//! it and invalid under the other, checked with the `jsonschema` crate on both (formats asserted,
//! as the TypeScript SDK's clients do), before it is reported.

use super::sample::{bare, embed, sample, Step};
use serde_json::{json, Value};

/// The two versions, compiled.
pub struct Validators {
    old: jsonschema::Validator,
    new: jsonschema::Validator,
}

/// Which version a counterexample is valid under (it is invalid under the other).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Valid under OLD, rejected by NEW.
    Old,
    /// Valid under NEW, rejected by OLD.
    New,
}

/// The longest chain of `$ref`s a schema may hold for its counterexamples to be checked
/// (see [`compile`]).
pub const MAX_REF_CHAIN: usize = 1000;

/// Compiles a schema the way counterexamples are checked: formats asserted, no network.
///
/// # Errors
/// Why the schema does not compile.
pub fn compile(schema: &Value) -> Result<jsonschema::Validator, String> {
    match too_deep(schema) {
        Some(why) => Err(why),
        None => build(schema),
    }
}

/// [`compile`] without its bound: for a schema [`too_deep`] has passed.
fn build(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Why counterexamples are not checked against `schema`, if they are not: the `jsonschema`
/// crate validates a `$ref` by a call inside the caller's, and a chain of thousands of them
/// overflows the stack (16,000 did, in a debug build). No schema written by hand or generated
/// chains that deep.
fn too_deep(schema: &Value) -> Option<String> {
    let chain = super::sample::longest_ref_chain(schema);
    (chain > MAX_REF_CHAIN).then(|| {
        format!(
            "its chain of {chain} `$ref`s, each in what the one before names, is longer than \
             counterexamples are checked along ({MAX_REF_CHAIN})"
        )
    })
}

impl Validators {
    /// Both versions compiled.
    ///
    /// # Errors
    /// Which version does not compile, and why.
    pub fn new(old: &Value, new: &Value) -> Result<Self, String> {
        for (side, schema) in [("OLD", old), ("NEW", new)] {
            if let Some(why) = too_deep(schema) {
                return Err(format!("{side} is not checked: {why}"));
            }
        }
        Ok(Self {
            old: build(old).map_err(|e| format!("OLD does not compile: {e}"))?,
            new: build(new).map_err(|e| format!("NEW does not compile: {e}"))?,
        })
    }

    /// Whether the version other than `valid_under` rejects `instance` at the keyword `blame`
    /// points to (its canonical place: `/required` for `/required/1`), or inside the subschema
    /// it points to.
    fn blames(&self, instance: &Value, valid_under: Side, blame: &str) -> bool {
        let other = match valid_under {
            Side::Old => &self.new,
            Side::New => &self.old,
        };
        other.iter_errors(instance).any(|e| at_blame(&e, blame))
    }

    /// Whether `instance` is valid under `side` and invalid under the other.
    #[must_use]
    pub fn separates(&self, instance: &Value, valid_under: Side) -> bool {
        let (keep, other) = match valid_under {
            Side::Old => (&self.old, &self.new),
            Side::New => (&self.new, &self.old),
        };
        keep.is_valid(instance) && !other.is_valid(instance)
    }
}

/// Whether `e`, or an error of a branch it failed on (`anyOf`, `oneOf`), is at `blame` or inside
/// it, or at the keyword `blame` is an item of (`/required` for `/required/1`).
fn at_blame(e: &jsonschema::ValidationError, blame: &str) -> bool {
    use jsonschema::error::ValidationErrorKind as Kind;
    let at = e.schema_path().as_str();
    let here = blame == at
        || at
            .strip_prefix(blame)
            .is_some_and(|rest| rest.starts_with('/'))
        || blame.strip_prefix(at).is_some_and(|rest| {
            rest.starts_with('/') && rest[1..].bytes().all(|b| b.is_ascii_digit())
        });
    here || match e.kind() {
        Kind::AnyOf { context }
        | Kind::OneOfNotValid { context }
        | Kind::OneOfMultipleValid { context } => {
            context.iter().flatten().any(|e| at_blame(e, blame))
        }
        _ => false,
    }
}

/// Values of every type, tried after a change's own candidates.
fn common() -> Vec<Value> {
    vec![
        Value::Null,
        json!(false),
        json!(true),
        json!(0),
        json!(1),
        json!(-1),
        json!(0.5),
        json!(1_000_000_000),
        json!(""),
        json!("a"),
        json!("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        json!([]),
        json!({}),
        json!(["a"]),
        json!([0]),
        json!({"a": "a"}),
    ]
}

/// An instance valid under `valid_under` and invalid under the other, with one of `candidates`
/// (or of the common values) at `path`, embedded in an instance sampled from either version;
/// with `blame` (the changed keyword's place in the version that rejects), only an instance
/// that version rejects there, so that the proof shows the change it is reported for.
#[must_use]
pub fn search(
    validators: &Validators,
    roots: [&Value; 2],
    path: &[Step],
    candidates: &[Value],
    valid_under: Side,
    blame: Option<&str>,
) -> Option<Value> {
    let [old, new] = roots;
    let (first, second) = match valid_under {
        Side::Old => (old, new),
        Side::New => (new, old),
    };
    let local = [sample(old, old), sample(new, new)];
    let mut tried = std::collections::HashSet::new();
    for leaf in candidates.iter().chain(common().iter()) {
        let embedded = [first, second].map(|root| embed(root, root, path, leaf));
        for instance in embedded.into_iter().chain([bare(path, leaf)]) {
            if !tried.insert(instance.to_string()) {
                continue;
            }
            if validators.separates(&instance, valid_under)
                && blame.is_none_or(|b| validators.blames(&instance, valid_under, b))
            {
                return Some(instance);
            }
        }
    }
    // The whole samples, for changes whose place the walk could not name.
    if blame.is_some() {
        return None;
    }
    local
        .into_iter()
        .find(|i| validators.separates(i, valid_under))
}

//! The proof a fix must pass before a byte is written: the fixed files parse strictly, lint
//! without new findings, every reference that resolved before still lands on the same
//! subschema, every reference the fix touched resolves, and every schema of the fixed files
//! compiles with the `jsonschema` crate against an offline registry of the run's files.

use crate::diagnostic::fix::{Edit, Fix, Move};
use crate::diagnostic::Diagnostic;
use crate::engine::Run;
use crate::index::{RefEntry, Resolution};
use crate::schema::dialect::Draft;
use crate::syntax::document::escape_pointer_token;
use crate::syntax::document::Node;
use crate::syntax::source::FileId;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Members that a fix may change on the subschema a reference lands on.
const IDENTITY_KEYWORDS: [&str; 3] = ["$id", "id", "$anchor"];

/// Checks `fix`, whose edits turned `before` into `after`.
///
/// # Errors
/// Which check failed and why, in one sentence.
pub fn verify(before: &Run, after: &Run, fix: &Fix, default_draft: Draft) -> Result<(), String> {
    verify_in(before, after, fix, default_draft, &BTreeMap::new(), &|_| {
        false
    })
}

/// Which new findings a fix may bring without failing its proof: those a later pass of the same
/// loop repairs (see [`super::Offer::follow_on`]). None, but in a port.
pub type Tolerated<'a> = &'a (dyn Fn(&Diagnostic) -> bool + Sync);

/// [`verify`], where the new findings `tolerated` accepts do not count.
///
/// # Errors
/// As [`verify`].
pub fn verify_tolerating(
    before: &Run,
    after: &Run,
    fix: &Fix,
    default_draft: Draft,
    tolerated: Tolerated<'_>,
) -> Result<(), String> {
    verify_in(
        before,
        after,
        fix,
        default_draft,
        &BTreeMap::new(),
        tolerated,
    )
}

/// Checks `fix` as [`verify`] does, where `after` holds the other fixes of its batch too: in a
/// `tools/list`, a new finding counts against `fix` only in the tools it edits (each tool's
/// schemas are roots of their own), so that the finding one fix brings does not sink the others
/// of the batch with it. A finding outside every tool (of the listing itself) counts as before.
///
/// # Errors
/// As [`verify`] (the new findings `tolerated` accepts do not count).
pub fn verify_alone(
    before: &Run,
    after: &Run,
    fix: &Fix,
    default_draft: Draft,
    tolerated: Tolerated<'_>,
) -> Result<(), String> {
    let (mut within, whole) = edited_tools(before, fix);
    for file in whole {
        within.remove(&file);
    }
    verify_in(before, after, fix, default_draft, &within, tolerated)
}

/// The tools of a `tools/list` whose objects hold `fix`'s edits (their pointers in `run`, per
/// file), and the files where an edit is outside every tool (or that hold no listing).
pub(super) fn edited_tools(
    run: &Run,
    fix: &Fix,
) -> (BTreeMap<FileId, Vec<String>>, BTreeSet<FileId>) {
    let mut within: BTreeMap<FileId, Vec<String>> = BTreeMap::new();
    let mut whole: BTreeSet<FileId> = BTreeSet::new();
    for e in &fix.edits {
        let Some(root) = run.files.get(e.file.0).and_then(|f| f.tree()) else {
            whole.insert(e.file);
            continue;
        };
        let tool = crate::schema::units::tools(root).into_iter().find(|t| {
            root.pointer(&t.pointer)
                .is_some_and(|n| n.span.start <= e.span.start && e.span.end <= n.span.end)
        });
        match tool {
            Some(t) => within.entry(e.file).or_default().push(t.pointer),
            None => {
                whole.insert(e.file);
            }
        }
    }
    (within, whole)
}

/// [`verify`], the new findings of each file of `within` counted only in its tools listed.
fn verify_in(
    before: &Run,
    after: &Run,
    fix: &Fix,
    default_draft: Draft,
    within: &BTreeMap<FileId, Vec<String>>,
    tolerated: Tolerated<'_>,
) -> Result<(), String> {
    let touched: BTreeSet<FileId> = fix.edits.iter().map(|e| e.file).collect();
    for &file in &touched {
        let f = &after.files[file.0];
        if f.root().is_none() {
            let why = f
                .diagnostics
                .first()
                .map_or("unknown error", |d| d.message.as_str());
            return Err(format!("the fixed `{}` does not parse: {why}", f.file.name));
        }
    }
    check_no_new_findings(before, after, fix, &touched, within, tolerated)?;
    check_written_values(after, fix)?;
    check_references(before, after, fix, &touched)?;
    if let Some(anchor) = after
        .index
        .ambiguous_anchors
        .iter()
        .find(|a| touched.contains(&a.file) && !before.index.ambiguous_anchors.contains(a))
    {
        return Err(format!(
            "it would leave two anchors named `{}` in one resource of `{}`",
            anchor.name, after.files[anchor.file.0].file.name
        ));
    }
    super::compile::Compiler::new(before, after, fix, default_draft)
        .within(within)
        .compile_files(&touched)
}

/// The rules that say a reference leads nowhere: not a URI (SL301), nothing there (SL302), a
/// network URI never fetched (SL303). A fix may move a reference that led nowhere from one to
/// another (a renamed base turns a missing relative file into a remote one): that reference was
/// already reported, and is not held against the fix.
const UNRESOLVED_REFERENCE: [&str; 3] = ["SL301", "SL302", "SL303"];

/// The moves implied by edits that replace an object's key (`prefixItems` -> `items`): the
/// member's value, and every finding below it, now lives under the new key.
fn renamed_keys(before: &Run, fix: &Fix) -> Vec<Move> {
    let mut out = Vec::new();
    for e in &fix.edits {
        let Some(root) = before.files.get(e.file.0).and_then(|f| f.tree()) else {
            continue;
        };
        let Ok(new_key) = serde_json::from_str::<String>(&e.content) else {
            continue;
        };
        let mut stack = vec![(root, String::new())];
        while let Some((node, pointer)) = stack.pop() {
            if !(node.span.start <= e.span.start && e.span.end <= node.span.end) {
                continue;
            }
            match &node.kind {
                crate::syntax::document::NodeKind::Object(members) => {
                    for m in members {
                        let child = format!("{pointer}/{}", escape_pointer_token(&m.key));
                        if m.key_span == e.span {
                            out.push(Move {
                                file: e.file,
                                from: child,
                                to: format!("{pointer}/{}", escape_pointer_token(&new_key)),
                            });
                        } else {
                            stack.push((&m.value, child));
                        }
                    }
                }
                crate::syntax::document::NodeKind::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        stack.push((item, format!("{pointer}/{i}")));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn check_no_new_findings(
    before: &Run,
    after: &Run,
    fix: &Fix,
    touched: &BTreeSet<FileId>,
    within: &BTreeMap<FileId, Vec<String>>,
    tolerated: Tolerated<'_>,
) -> Result<(), String> {
    // A finding is known by its rule and the JSON pointer it is at (before pointers follow the
    // fix's moves); the three unresolved-reference rules count as one. Counting per rule alone
    // would let one fix of a batch hide the finding another adds.
    let class = |code: &'static str| {
        if UNRESOLVED_REFERENCE.contains(&code) {
            "SL301-SL303"
        } else {
            code
        }
    };
    let moves: Vec<Move> = fix
        .moves
        .iter()
        .cloned()
        .chain(renamed_keys(before, fix))
        .collect();
    for &file in touched {
        let mut known: BTreeMap<(&'static str, String), usize> = BTreeMap::new();
        for d in &before.files[file.0].diagnostics {
            // A finding grouped by cause (`engine::group`) stands for one finding in each tool
            // it names: fixing its first tool leaves it at the next one.
            let grouped = d
                .related
                .iter()
                .filter(|_| d.rule.scope.grouped)
                .map(|l| &l.pointer);
            for pointer in std::iter::once(&d.pointer).chain(grouped) {
                let pointer = moves
                    .iter()
                    .find_map(|m| m.apply(file, pointer))
                    .unwrap_or_else(|| pointer.clone());
                *known.entry((class(d.rule.code), pointer)).or_default() += 1;
            }
        }
        let counts = |d: &crate::diagnostic::Diagnostic| {
            within.get(&file).is_none_or(|tools| {
                let grouped = d.related.iter().filter(|_| d.rule.scope.grouped);
                std::iter::once(&d.pointer)
                    .chain(grouped.map(|l| &l.pointer))
                    .any(|p| {
                        tools.iter().any(|t| {
                            p.strip_prefix(t.as_str())
                                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                        })
                    })
            })
        };
        for d in after.files[file.0].diagnostics.iter().filter(|d| counts(d)) {
            let key = (class(d.rule.code), d.pointer.clone());
            match known.get_mut(&key) {
                Some(n) if *n > 0 => *n -= 1,
                _ if tolerated(d) => {}
                _ => {
                    return Err(format!(
                        "it would introduce {} in `{}`: {}",
                        d.rule.code, after.files[file.0].file.name, d.message
                    ))
                }
            }
        }
    }
    Ok(())
}

/// The spans, in the fixed text, of the JSON strings `fix` wrote into `file` (an edit whose
/// content is one string literal, such as a renamed `$id`).
fn written_strings(fix: &Fix, file: FileId) -> Vec<(usize, usize)> {
    let mut edits: Vec<&Edit> = fix.edits.iter().filter(|e| e.file == file).collect();
    edits.sort_by_key(|e| e.span.start);
    let mut shift: isize = 0;
    let mut out = Vec::new();
    for e in edits {
        let start = e.span.start.saturating_add_signed(shift);
        let is_string = e.content.len() >= 2
            && e.content.starts_with('"')
            && serde_json::from_str::<String>(&e.content).is_ok();
        if is_string {
            out.push((start, start + e.content.len()));
        }
        shift += e.content.len().cast_signed() - (e.span.end - e.span.start).cast_signed();
    }
    out
}

/// A string the fix wrote must draw no error (but a reference that led nowhere before, see
/// [`UNRESOLVED_REFERENCE`]): the value a fix writes is its own, so an error on it is the
/// fix's, even where the value it replaced drew the same rule at the same pointer (`$id`
/// `a#b#c` repaired to `a#b_c`, still a fragment, still SL202), which the count of findings per
/// rule and pointer does not see. A warning may remain for a later pass to clear (a `$ref`
/// SL305 moves that points inside a `$defs` entry until its target moves too).
fn check_written_values(after: &Run, fix: &Fix) -> Result<(), String> {
    let files: BTreeSet<FileId> = fix.edits.iter().map(|e| e.file).collect();
    for file in files {
        let written = written_strings(fix, file);
        let f = &after.files[file.0];
        let on_written = f.diagnostics.iter().find(|d| {
            d.severity == crate::diagnostic::Severity::Error
                && !UNRESOLVED_REFERENCE.contains(&d.rule.code)
                && written
                    .iter()
                    .any(|&(start, end)| d.span.start >= start && d.span.end <= end)
        });
        if let Some(d) = on_written {
            return Err(format!(
                "the value it writes draws {} in `{}`: {}",
                d.rule.code, f.file.name, d.message
            ));
        }
    }
    Ok(())
}

/// The pointer of the subschema holding `r`, in `run`.
fn holder(run: &Run, r: &RefEntry) -> String {
    run.files
        .get(r.file.0)
        .and_then(|f| f.tree())
        .map(|root| r.holder(root))
        .unwrap_or_default()
}

fn resolve(run: &Run, r: &RefEntry) -> Resolution {
    run.index
        .resolve(r, |f| run.files.get(f.0).and_then(|f| f.tree()))
}

fn check_references(
    before: &Run,
    after: &Run,
    fix: &Fix,
    touched: &BTreeSet<FileId>,
) -> Result<(), String> {
    // The references that can be affected: those in the touched files, and those whose document
    // part names a resource of a touched file.
    let mut affected: Vec<&RefEntry> = touched
        .iter()
        .flat_map(|&f| before.index.refs_of_file(f))
        .collect();
    for (i, res) in before.index.resources.iter().enumerate() {
        if touched.contains(&res.file) {
            affected.extend(
                before
                    .index
                    .refs_to(i)
                    .filter(|r| !touched.contains(&r.file)),
            );
        }
    }
    let files: BTreeSet<FileId> = affected
        .iter()
        .map(|r| r.file)
        .chain(touched.iter().copied())
        .collect();
    let after_refs: BTreeMap<(FileId, String, &str), &RefEntry> = files
        .iter()
        .flat_map(|&f| after.index.refs_of_file(f))
        .map(|r| ((r.file, holder(after, r), r.keyword), r))
        .collect();
    let edited: HashSet<(FileId, usize)> =
        fix.edits.iter().map(|e| (e.file, e.span.start)).collect();
    for r in affected {
        let was = resolve(before, r);
        let Resolution::Found {
            file: old_file,
            pointer: old_pointer,
        } = &was
        else {
            continue;
        };
        if !touched.contains(&r.file) && !touched.contains(old_file) {
            continue;
        }
        let name = &before.files[r.file.0].file.name;
        let schema_pointer = holder(before, r);
        let moved = fix
            .moves
            .iter()
            .find_map(|m| m.apply(r.file, &schema_pointer));
        let at = moved.unwrap_or_else(|| schema_pointer.clone());
        // A `$dynamicRef` that means a `$ref` may be rewritten as one (SL302's fix).
        let new_ref = after_refs
            .get(&(r.file, at.clone(), r.keyword))
            .or_else(|| {
                (r.keyword == "$dynamicRef")
                    .then(|| after_refs.get(&(r.file, at, "$ref")))
                    .flatten()
            });
        let Some(new_ref) = new_ref else {
            if super::inlined::written_out(before, after, r, &schema_pointer)
                || super::inlined::wrapped(after, r, &schema_pointer)
                || super::inlined::lifted(before, after, r, &schema_pointer)
            {
                continue;
            }
            return Err(format!(
                "the `{}` at `{name}#{schema_pointer}` disappeared",
                r.keyword
            ));
        };
        let now = resolve(after, new_ref);
        let Resolution::Found {
            file: new_file,
            pointer: new_pointer,
        } = &now
        else {
            return Err(format!(
                "the `{}` `{}` at `{name}#{schema_pointer}` would no longer resolve",
                r.keyword, new_ref.raw
            ));
        };
        let old_node = before.files[old_file.0]
            .root()
            .and_then(|n| n.pointer(old_pointer));
        let new_node = after.files[new_file.0]
            .root()
            .and_then(|n| n.pointer(new_pointer));
        let same = match (old_node, new_node) {
            // References inside the target are each checked by this same loop.
            (Some(a), Some(b)) => {
                a.same_value(b, &IDENTITY_KEYWORDS, &["$ref", "$dynamicRef"])
                    || edited_target(fix, (*old_file, old_pointer, a), (*new_file, new_pointer))
            }
            _ => false,
        };
        if !same {
            return Err(format!(
                "the `{}` at `{name}#{schema_pointer}` would resolve to a different subschema",
                r.keyword
            ));
        }
    }
    rewritten_resolve(before, after, &after_refs, &edited)
}

/// Every reference the fix rewrote must resolve now.
fn rewritten_resolve(
    before: &Run,
    after: &Run,
    after_refs: &BTreeMap<(FileId, String, &str), &RefEntry>,
    edited: &HashSet<(FileId, usize)>,
) -> Result<(), String> {
    for r in before
        .index
        .refs
        .iter()
        .filter(|r| edited.contains(&(r.file, r.span.start)))
    {
        let key = (r.file, holder(before, r), r.keyword);
        let now = after_refs.get(&key).map(|n| (n, resolve(after, n)));
        if !matches!(now, Some((_, Resolution::Found { .. }))) {
            let raw = now.map_or(r.raw.as_str(), |(n, _)| n.raw.as_str());
            return Err(format!(
                "the rewritten `{}` `{raw}` in `{}` would not resolve",
                r.keyword, before.files[r.file.0].file.name
            ));
        }
    }
    Ok(())
}

/// Whether the reference still lands on the subschema it did (same file, same place once the
/// fix's moves are applied) and the fix's own edits lie inside that subschema: a fix that changes
/// a referenced subschema on purpose (dropping `additionalProperties: false`, say) leaves the
/// reference naming it, and what the change means is the fix's applicability to declare.
fn edited_target(fix: &Fix, old: (FileId, &str, &Node), new: (FileId, &str)) -> bool {
    let (old_file, old_pointer, old_node) = old;
    let expected = fix
        .moves
        .iter()
        .find_map(|m| m.apply(old_file, old_pointer))
        .unwrap_or_else(|| old_pointer.to_owned());
    let span = old_node.span;
    let inside =
        |e: &&Edit| e.file == old_file && span.start <= e.span.start && e.span.end <= span.end;
    let crosses = |e: &&Edit| {
        e.file == old_file && !inside(e) && e.span.start < span.end && span.start < e.span.end
    };
    new == (old_file, expected.as_str())
        && fix.edits.iter().any(|e| inside(&e))
        && !fix.edits.iter().any(|e| crosses(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::fix::Applicability;
    use crate::settings::Settings;
    use crate::syntax::source::Span;

    /// A run over one file `s.json` holding `text`.
    fn run_of(name: &str, text: &str) -> (Run, std::path::PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("schema-lint-verify-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("s.json"), text).unwrap();
        (
            crate::engine::run(std::slice::from_ref(&dir), None, &Settings::default()),
            dir,
        )
    }

    fn id_fix(before: &str, value: &str, new: &str) -> Result<(), String> {
        let text = |v: &str| {
            format!(
                "{{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"$id\": \
                 \"{v}\", \"type\": \"object\"}}"
            )
        };
        let (b, bd) = run_of(&format!("{before}-before"), &text(value));
        let (a, ad) = run_of(&format!("{before}-after"), &text(new));
        let start = text(value).find(&format!("\"{value}\"")).unwrap();
        let fix = Fix {
            title: String::new(),
            applicability: Applicability::Safe,
            edits: vec![Edit {
                file: FileId(0),
                span: Span {
                    start,
                    end: start + value.len() + 2,
                },
                content: format!("\"{new}\""),
            }],
            moves: Vec::new(),
        };
        let outcome = verify(&b, &a, &fix, Draft::Draft202012);
        let _ = (std::fs::remove_dir_all(bd), std::fs::remove_dir_all(ad));
        outcome
    }

    #[test]
    fn a_fix_whose_value_still_draws_the_finding_fails() {
        // `a#b#c` drew SL202 at `/$id` already: the same rule at the same pointer after the fix
        // is the fix's all the same, since it wrote the value.
        let error = id_fix("fragment", "a#b#c", "a#b_c").unwrap_err();
        assert!(error.contains("SL202"), "{error}");
        assert_eq!(id_fix("clean", "a#b#c", "a_b_c"), Ok(()));
    }
}

//! The compile check of a fix's proof: every schema of the fixed files compiles with the
//! `jsonschema` crate against an offline registry of the files its references reach.
//!
//! What a file contributes to a registry (its tree as a JSON value, with the identifiers and
//! references that are other findings' business taken out) and which files a file reaches are
//! worked out once per proof, not once per fixed file: a batch that touches every file of a
//! `$ref` cycle would otherwise build every file's value once per file of the cycle (#24 item 21).

use super::compiled::{
    dynamic, engine_draft, in_tools, meta_errors, proven, ref_holders, remember,
};
use crate::diagnostic::fix::Fix;
use crate::engine::Run;
use crate::index::Resolution;
use crate::schema::dialect::Draft;
use crate::schema::units::{units, FileKind};
use crate::schema::walk::declared_draft;
use crate::syntax::source::FileId;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many documents the compile checks have registered since the process started: a number
/// tests read to see that the proof of a batch grows with the batch, not with its square.
static REGISTERED: AtomicUsize = AtomicUsize::new(0);

/// How many documents the compile checks have built for a registry so far (each file's value
/// is built once per proof). For tests of how the proof scales.
#[doc(hidden)]
#[must_use]
pub fn documents_built() -> usize {
    REGISTERED.load(Ordering::Relaxed)
}

/// How many documents the registries of the compile checks have held, summed over the
/// compiles: each compile may walk every one of them (the crate compiles `$ref` targets
/// eagerly), so this is the work of the compile checks.
static COMPILED_AGAINST: AtomicUsize = AtomicUsize::new(0);

/// How many documents the compile checks have compiled against so far, summed over each
/// compile's registry. For tests of how the proof scales.
#[doc(hidden)]
#[must_use]
pub fn documents_compiled_against() -> usize {
    COMPILED_AGAINST.load(Ordering::Relaxed)
}

/// The state of Tarjan's walk over the files' references.
#[derive(Default)]
struct Tarjan {
    /// The walk's own stack of calls: a file and how many of its successors it has looked at.
    calls: Vec<(FileId, usize)>,
    /// Per file met, its successors.
    edges: HashMap<FileId, Vec<FileId>>,
    /// Per file met, when it was met.
    order: HashMap<FileId, usize>,
    /// Per file met, the earliest file on the stack it reaches.
    low: HashMap<FileId, usize>,
    /// The files met whose component is not yet complete.
    stack: Vec<FileId>,
    on_stack: HashSet<FileId>,
}

impl Tarjan {
    fn open(&mut self, file: FileId, successors: Vec<FileId>) {
        let n = self.order.len();
        self.order.insert(file, n);
        self.low.insert(file, n);
        self.stack.push(file);
        self.on_stack.insert(file);
        self.edges.insert(file, successors);
        self.calls.push((file, 0));
    }
}

/// An identifier or reference taken out of (or replaced in) the copy that is compiled.
struct Neutral {
    /// The JSON pointer of the object holding it.
    pointer: String,
    /// `$ref`, `$dynamicRef`, `$id` or `id`.
    keyword: &'static str,
    /// What replaces it; `None` removes it.
    replacement: Option<String>,
}

/// The compile check of one proof: the run before and after the fix, and what it has worked out.
pub(super) struct Compiler<'r> {
    before: &'r Run,
    after: &'r Run,
    default_draft: Draft,
    /// The references the fix edited, as (file, start, end).
    edited: HashSet<(FileId, usize, usize)>,
    /// Per file, the files its references reach (itself included), in `after`.
    reach: HashMap<FileId, Rc<BTreeSet<FileId>>>,
    /// Per file, what is taken out of it before it is compiled.
    neutral: HashMap<FileId, Rc<Vec<Neutral>>>,
    /// Per schema file, its `file://` URI and its value as registered.
    documents: HashMap<FileId, Rc<(String, serde_json::Value)>>,
    /// Per `tools/list` file, the tools (their pointers) whose schemas are compiled; the file's
    /// every tool where it is not named.
    within: BTreeMap<FileId, Vec<String>>,
}

impl<'r> Compiler<'r> {
    pub(super) fn new(before: &'r Run, after: &'r Run, fix: &Fix, default_draft: Draft) -> Self {
        Self {
            before,
            after,
            default_draft,
            edited: fix
                .edits
                .iter()
                .map(|e| (e.file, e.span.start, e.span.end))
                .collect(),
            reach: HashMap::new(),
            neutral: HashMap::new(),
            documents: HashMap::new(),
            within: BTreeMap::new(),
        }
    }

    /// Compiles, of each `tools/list` file of `within`, only the schemas of the tools listed
    /// there (the tools a fix edits: the others' schemas are roots of their own, and other fixes
    /// of its batch may have changed them).
    pub(super) fn within(mut self, within: &BTreeMap<FileId, Vec<String>>) -> Self {
        self.within.clone_from(within);
        self
    }

    /// The files `start`'s references reach, transitively, by the index of `after` (itself
    /// included). The files of one cycle reach the same files: their strongly connected
    /// component is found once (Tarjan's walk, without recursion) and its set shared.
    fn reachable(&mut self, start: FileId) -> Rc<BTreeSet<FileId>> {
        if let Some(known) = self.reach.get(&start) {
            return Rc::clone(known);
        }
        let index = &self.after.index;
        let successors = |file: FileId| -> Vec<FileId> {
            let mut out: Vec<FileId> = index
                .refs_of_file(file)
                .filter_map(|r| index.target_resource(r).ok())
                .map(|t| index.resources[t].file)
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let mut walk = Tarjan::default();
        walk.open(start, successors(start));
        while let Some(&(v, next)) = walk.calls.last() {
            if let Some(&w) = walk.edges[&v].get(next) {
                if let Some(top) = walk.calls.last_mut() {
                    top.1 += 1;
                }
                if self.reach.contains_key(&w) {
                    // Done by an earlier walk: a component of its own, below this one.
                } else if !walk.order.contains_key(&w) {
                    walk.open(w, successors(w));
                } else if walk.on_stack.contains(&w) {
                    let low = walk.low[&v].min(walk.order[&w]);
                    walk.low.insert(v, low);
                }
                continue;
            }
            walk.calls.pop();
            if let Some(&(parent, _)) = walk.calls.last() {
                let low = walk.low[&parent].min(walk.low[&v]);
                walk.low.insert(parent, low);
            }
            if walk.low[&v] == walk.order[&v] {
                let mut members = Vec::new();
                while let Some(w) = walk.stack.pop() {
                    walk.on_stack.remove(&w);
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let mut reach: BTreeSet<FileId> = members.iter().copied().collect();
                for m in &members {
                    for w in &walk.edges[m] {
                        if let Some(below) = self.reach.get(w) {
                            reach.extend(below.iter().copied());
                        }
                    }
                }
                let reach = Rc::new(reach);
                for m in members {
                    self.reach.insert(m, Rc::clone(&reach));
                }
            }
        }
        self.reach
            .get(&start)
            .map_or_else(|| Rc::new(BTreeSet::from([start])), Rc::clone)
    }

    /// What is taken out of `file` before it is compiled: references that could not resolve
    /// before the fix (remote, missing) and that it did not touch, and `$id`s and `$ref`s that
    /// are still not URIs (SL201, SL301 report them). The compile check then holds the fix to
    /// what it changed. An invalid `$id` is replaced by a unique URI beside its parent's base,
    /// so that the `#...` and relative references inside it still resolve the way they did.
    fn neutral(&mut self, file: FileId) -> Rc<Vec<Neutral>> {
        if let Some(known) = self.neutral.get(&file) {
            return Rc::clone(known);
        }
        let (before, after) = (self.before, self.after);
        let mut out: Vec<Neutral> = before
            .index
            .refs_of_file(file)
            .filter(|r| !matches!(resolve(before, r), Resolution::Found { .. }))
            .filter(|r| !self.edited.contains(&(r.file, r.span.start, r.span.end)))
            .map(|r| holder(before, r))
            .collect::<BTreeSet<String>>()
            .into_iter()
            .flat_map(|p| {
                ["$ref", "$dynamicRef"].map(|keyword| Neutral {
                    pointer: p.clone(),
                    keyword,
                    replacement: None,
                })
            })
            .collect();
        let index = &after.index;
        out.extend(
            index
                .refs_of_file(file)
                .filter(|r| fluent_uri::UriRef::parse(r.raw.as_str()).is_err())
                .map(|r| Neutral {
                    pointer: holder(after, r),
                    keyword: r.keyword,
                    replacement: None,
                }),
        );
        let bad_ids = index
            .resources_of_file(file)
            .filter(|&i| index.resources[i].id.as_ref().is_some_and(|id| !id.valid));
        for (n, i) in bad_ids.enumerate() {
            let r = &index.resources[i];
            let placeholder = match index.parent_base(i) {
                Some(base) if base.contains("://") => format!("{base}.schema-lint-placeholder-{n}"),
                _ => format!("urn:x-schema-lint:placeholder-{n}"),
            };
            out.push(Neutral {
                pointer: r.pointer.clone(),
                keyword: r.draft.id_keyword(),
                replacement: Some(placeholder),
            });
        }
        let out = Rc::new(out);
        self.neutral.insert(file, Rc::clone(&out));
        out
    }

    /// The URI and value a schema file is registered with (`None`: not a parsed schema file).
    fn document(&mut self, file: FileId) -> Option<Rc<(String, serde_json::Value)>> {
        if let Some(known) = self.documents.get(&file) {
            return Some(Rc::clone(known));
        }
        let linted = &self.after.files[file.0];
        if linted.kind() != Some(FileKind::Schema) {
            return None;
        }
        let node = linted.root()?;
        let mut value = node.to_value();
        neutralise(&mut value, self.neutral(file).iter());
        let uri = self
            .after
            .index
            .file_uris
            .get(&file)
            .cloned()
            .unwrap_or_default();
        REGISTERED.fetch_add(1, Ordering::Relaxed);
        let document = Rc::new((uri, value));
        self.documents.insert(file, Rc::clone(&document));
        Some(document)
    }

    /// Compiles every schema of the fixed files.
    ///
    /// # Errors
    /// The first of them (in file order) whose schema fails its meta-schema anew or does not
    /// compile, and why.
    pub(super) fn compile_files(&mut self, touched: &BTreeSet<FileId>) -> Result<(), String> {
        let proven = self.compile_groups(touched);
        for &file in touched.difference(&proven) {
            self.compile_file(file)?;
        }
        Ok(())
    }

    /// Compiles the fixed schema files of each `$ref` cycle with one compile, and returns the
    /// files it proved. The crate compiles every `$ref` target eagerly, so compiling one file
    /// of a cycle compiles the others too, the whole cycle once; compiling each as the root
    /// walked the whole cycle once per file (#24 item 21). A file counts as proved by another's
    /// compile only where that proves what compiling it alone does:
    /// - the same registry: both are of one strongly connected component of the references
    ///   (they reach the same files) and declare the same draft;
    /// - it is compiled whole: a `$ref` to its root sits where the crate compiles it, in a file
    ///   so compiled, along `properties`, `items`, `allOf` and the like (see [`ref_holders`]);
    /// - what the crate checks of a root only holds: its meta-schema (checked here);
    /// - no dynamic reference or anchor in the registry, whose meaning would depend on the path.
    ///
    /// A compile that fails proves nothing: its files are compiled one by one, which says
    /// which one fails and why.
    fn compile_groups(&mut self, touched: &BTreeSet<FileId>) -> BTreeSet<FileId> {
        let mut groups: BTreeMap<(*const BTreeSet<FileId>, Draft), BTreeSet<FileId>> =
            BTreeMap::new();
        for &file in touched {
            if let Some(draft) = self.whole_schema(file) {
                let reach = self.reachable(file);
                groups
                    .entry((Rc::as_ptr(&reach), draft))
                    .or_default()
                    .insert(file);
            }
        }
        let mut proven = BTreeSet::new();
        for mut left in groups.into_values() {
            let Some(&first) = left.first() else {
                continue;
            };
            let reachable = self.reachable(first);
            if left.len() < 2
                || reachable
                    .iter()
                    .filter_map(|&f| self.document(f))
                    .any(|d| dynamic(&d.1))
            {
                continue;
            }
            while let Some(entry) = left.pop_first() {
                let covered: BTreeSet<FileId> = self
                    .roots_compiled_with(entry)
                    .intersection(&left)
                    .copied()
                    .collect();
                if covered.is_empty() {
                    continue;
                }
                left.retain(|f| !covered.contains(f));
                if self.compile_file(entry).is_ok() {
                    proven.insert(entry);
                    proven.extend(covered);
                }
            }
        }
        proven
    }

    /// The draft of `file`, when it is a schema file whose whole document is one schema that
    /// passes its meta-schema, as registered (`None` otherwise).
    fn whole_schema(&mut self, file: FileId) -> Option<Draft> {
        let linted = &self.after.files[file.0];
        let (Some(root), Some(FileKind::Schema)) = (linted.tree(), linted.kind()) else {
            return None;
        };
        let draft = match units(root, FileKind::Schema, self.default_draft).as_slice() {
            [unit] if unit.pointer.is_empty() => unit.draft,
            _ => return None,
        };
        let document = self.document(file)?;
        let (uri, value) = &*document;
        (!uri.is_empty() && meta_errors(draft, value).is_empty()).then_some(draft)
    }

    /// The files whose root the crate compiles when it compiles `entry` (`entry` left out): the
    /// targets of the `$ref`s to a file's root that [`ref_holders`] finds in `entry` and, in
    /// turn, in each file found. Only references the compiled copy keeps count, in files whose
    /// bases are their own (no invalid `$id` replaced) and whose `$schema`, if any, is a draft's.
    fn roots_compiled_with(&mut self, entry: FileId) -> BTreeSet<FileId> {
        let after = self.after;
        let mut seen = BTreeSet::from([entry]);
        let mut queue = vec![entry];
        while let Some(file) = queue.pop() {
            let Some(document) = self.document(file) else {
                continue;
            };
            if self.neutral(file).iter().any(|n| n.replacement.is_some()) {
                continue;
            }
            let holders = ref_holders(&document.1);
            for r in after.index.refs_of_file(file) {
                if r.keyword != "$ref" || !holders.contains(&holder(after, r)) {
                    continue;
                }
                let Resolution::Found {
                    file: target,
                    pointer,
                } = resolve(after, r)
                else {
                    continue;
                };
                let plain = after.files[target.0].tree().is_some_and(|root| {
                    root.get("$schema").is_none() || declared_draft(root).is_some()
                });
                if pointer.is_empty() && plain && seen.insert(target) {
                    queue.push(target);
                }
            }
        }
        seen.remove(&entry);
        seen
    }

    /// Compiles every schema of `file` as the fix left it.
    ///
    /// # Errors
    /// The file whose schema fails its meta-schema anew or does not compile, and why.
    fn compile_file(&mut self, file: FileId) -> Result<(), String> {
        let (before, after) = (self.before, self.after);
        let linted = &after.files[file.0];
        let (Some(root), Some(kind)) = (linted.root(), linted.kind()) else {
            return Ok(());
        };
        if kind == FileKind::Other {
            return Ok(());
        }
        let reachable = self.reachable(file);
        let documents: Vec<Rc<(String, serde_json::Value)>> =
            reachable.iter().filter_map(|&f| self.document(f)).collect();
        let base = after
            .index
            .file_uris
            .get(&file)
            .cloned()
            .unwrap_or_default();
        let neutral = self.neutral(file);
        // Each tool schema of a `tools/list` is a root of its own: where the file reaches no
        // other, a tool schema the fix left as it was compiles as it did (a fix to one tool of
        // a listing of 100 compiled the 99 others again).
        let alone = kind == FileKind::ToolsList && reachable.iter().all(|&f| f == file);
        let earlier = before.files[file.0].root();
        let only_tools = self
            .within
            .get(&file)
            .filter(|_| kind == FileKind::ToolsList);
        for unit in units(root, kind, self.default_draft) {
            if only_tools.is_some_and(|tools| !in_tools(&unit.pointer, tools)) {
                continue;
            }
            let Some(node) = root.pointer(&unit.pointer) else {
                continue;
            };
            let mut value = node.to_value();
            let unchanged = || {
                earlier
                    .and_then(|r| r.pointer(&unit.pointer))
                    .is_some_and(|n| n.to_value() == value)
            };
            if alone && unchanged() {
                continue;
            }
            let inside = format!("{}/", unit.pointer);
            let strip: Vec<Neutral> = neutral
                .iter()
                .filter(|n| n.pointer == unit.pointer || n.pointer.starts_with(&inside))
                .map(|n| Neutral {
                    pointer: n.pointer[unit.pointer.len()..].to_owned(),
                    keyword: n.keyword,
                    replacement: n.replacement.clone(),
                })
                .collect();
            neutralise(&mut value, strip.iter());
            let draft = engine_draft(unit.draft);
            // `build` checks the meta-schema first and stops at the first error; a meta-schema
            // error the file already had is not the fix's doing (SL401 reports it), so only new
            // ones count.
            let after_errors = meta_errors(unit.draft, &value);
            if !after_errors.is_empty() {
                let before_errors = before.files[file.0]
                    .root()
                    .and_then(|r| r.pointer(&unit.pointer))
                    .map(|n| meta_errors(unit.draft, &n.to_value()))
                    .unwrap_or_default();
                if let Some((path, keyword)) = after_errors.difference(&before_errors).next() {
                    return Err(format!(
                        "the fixed `{}` fails its meta-schema (`{keyword}`) at `{}{path}`",
                        linted.file.name, unit.pointer
                    ));
                }
                continue;
            }
            let key = alone.then(|| (unit.draft as u8, base.clone(), value.to_string()));
            if key.as_ref().is_some_and(proven) {
                continue;
            }
            let mut builder = jsonschema::Registry::new().draft(draft);
            for document in &documents {
                let (uri, doc) = &**document;
                if *uri != base || kind == FileKind::Schema {
                    builder = builder
                        .add(uri, doc)
                        .map_err(|e| format!("the run's files could not be registered: {e}"))?;
                }
            }
            let registry = builder
                .prepare()
                .map_err(|e| format!("the fixed schemas do not index: {e}"))?;
            COMPILED_AGAINST.fetch_add(documents.len(), Ordering::Relaxed);
            jsonschema::options()
                .with_draft(draft)
                .with_base_uri(base.clone())
                .with_registry(&registry)
                .should_validate_formats(false)
                .build(&value)
                .map_err(|e| format!("the fixed `{}` does not compile: {e}", linted.file.name))?;
            if let Some(key) = key {
                remember(key);
            }
        }
        Ok(())
    }
}

/// The pointer of the subschema holding `r`, in `run`.
fn holder(run: &Run, r: &crate::index::RefEntry) -> String {
    run.files
        .get(r.file.0)
        .and_then(|f| f.tree())
        .map(|root| r.holder(root))
        .unwrap_or_default()
}

fn resolve(run: &Run, r: &crate::index::RefEntry) -> Resolution {
    run.index
        .resolve(r, |f| run.files.get(f.0).and_then(|f| f.tree()))
}

/// Takes out of (or replaces in) the copy that is compiled what `neutral` lists.
fn neutralise<'n>(value: &mut serde_json::Value, neutral: impl Iterator<Item = &'n Neutral>) {
    for n in neutral {
        if let Some(serde_json::Value::Object(map)) = value.pointer_mut(&n.pointer) {
            match &n.replacement {
                Some(r) => {
                    map.insert(n.keyword.to_owned(), serde_json::Value::String(r.clone()));
                }
                None => {
                    map.remove(n.keyword);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::fix::Applicability;
    use crate::settings::Settings;
    use std::path::PathBuf;

    /// A folder of schema files, `s0.json`, `s1.json`, ... with the given texts.
    fn folder(name: &str, texts: &[String]) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("schema-lint-compile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, text) in texts.iter().enumerate() {
            std::fs::write(dir.join(format!("s{i}.json")), text).unwrap();
        }
        dir
    }

    /// Schema `i` of a cycle of `n`, its `next` a `$ref` to schema i+1 (`target` after its
    /// URI), with `extra` members in its root.
    fn schema(i: usize, n: usize, target: &str, extra: &str) -> String {
        format!(
            "{{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"$id\": \
             \"https://example.com/s{i}\", \"$defs\": {{\"x\": {{\"properties\": {{\"next\": \
             {{\"$ref\": \"https://example.com/s{}\"}}}}}}}}, \"properties\": {{\"next\": \
             {{\"$ref\": \"https://example.com/s{}{target}\"}}}}{extra}}}",
            (i + 1) % n,
            (i + 1) % n
        )
    }

    /// Compiles every file of `after` as fixed from `before`. (How many documents the compiles
    /// hold is counted in `tests/it/fix_scale.rs`: the counter is the process's, and the tests here
    /// run beside others that compile.)
    fn compile(name: &str, before: &[String], after: &[String]) -> Result<(), String> {
        let settings = Settings::default();
        let (b, a) = (
            folder(&format!("{name}-before"), before),
            folder(&format!("{name}-after"), after),
        );
        let before = crate::engine::run(std::slice::from_ref(&b), None, &settings);
        let after = crate::engine::run(std::slice::from_ref(&a), None, &settings);
        let fix = Fix {
            title: String::new(),
            applicability: Applicability::Safe,
            edits: Vec::new(),
            moves: Vec::new(),
        };
        let touched: BTreeSet<FileId> = after.files.iter().map(|f| f.file.id).collect();
        let outcome =
            Compiler::new(&before, &after, &fix, settings.default_draft).compile_files(&touched);
        let _ = (std::fs::remove_dir_all(b), std::fs::remove_dir_all(a));
        outcome
    }

    #[test]
    fn one_compile_proves_a_cycle_whose_roots_it_compiles() {
        let n = 6;
        let texts: Vec<String> = (0..n).map(|i| schema(i, n, "", "")).collect();
        assert_eq!(compile("cycle", &texts, &texts), Ok(()));
    }

    #[test]
    fn a_file_whose_root_the_cycle_does_not_compile_is_compiled_alone() {
        // s2 is reached only through `#/$defs/x`: compiling s0 does not compile s2's root, so
        // the broken `$ref` there must still be found, by compiling s2 itself.
        let n = 4;
        let before: Vec<String> = (0..n)
            .map(|i| schema(i, n, if i == 1 { "#/$defs/x" } else { "" }, ""))
            .collect();
        let mut after = before.clone();
        after[2] = schema(2, n, "", ", \"not\": {\"$ref\": \"#/$defs/missing\"}");
        let error = compile("defs", &before, &after).unwrap_err();
        assert!(
            error.contains("s2.json") && error.contains("does not compile"),
            "{error}"
        );
    }

    #[test]
    fn a_broken_file_of_a_cycle_fails_the_check() {
        let n = 5;
        let before: Vec<String> = (0..n).map(|i| schema(i, n, "", "")).collect();
        let mut after = before.clone();
        after[3] = schema(3, n, "", ", \"not\": {\"$ref\": \"#/$defs/missing\"}");
        let error = compile("broken", &before, &after).unwrap_err();
        assert!(error.contains("does not compile"), "{error}");
    }
}

//! The `$id` repair over the official JSON-Schema-Test-Suite (vendored in `testdata/jsts`): each
//! schema that has identifiers gets them mangled into invalid forms (a space in the middle of
//! their last path segment, or of their fragment for a draft 4-7 `#anchor` id), with every
//! `$ref` / `$dynamicRef` that names them respelt to match, so that the mangled schema means
//! what the original meant. The fix loop then runs on the mangled file alone, and the fixed
//! schema must still give every test instance of `manifest.json` its expected verdict with the
//! `jsonschema` crate (offline, with the suite's `remotes/` registered).
//!
//! Identifiers that cannot be mangled consistently are left alone, counted and listed (see
//! [`SkipReason`]). Both repairs (`--fix-id underscore` and `--fix-id defs`) are asserted on
//! every mangled file; a file either gets wrong again would be listed, with the bug, in
//! [`KNOWN_FAILURES`] (empty today).
//!
//! A missing corpus fails the tests: they never pass without reading it.

use schema_lint::engine::lint_loaded;
use schema_lint::fix::{fix_run, Offer};
use schema_lint::schema::dialect::Draft;
use schema_lint::settings::{FixIdMode, Settings};
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::load_source;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The suite's draft folders, with the linter's and the engine's name for each.
const DRAFTS: [(&str, Draft, jsonschema::Draft); 5] = [
    ("draft4", Draft::Draft4, jsonschema::Draft::Draft4),
    ("draft6", Draft::Draft6, jsonschema::Draft::Draft6),
    ("draft7", Draft::Draft7, jsonschema::Draft::Draft7),
    (
        "draft2019-09",
        Draft::Draft201909,
        jsonschema::Draft::Draft201909,
    ),
    (
        "draft2020-12",
        Draft::Draft202012,
        jsonschema::Draft::Draft202012,
    ),
];

/// Keywords whose value is data, never a schema: identifiers and references in there are not.
const DATA_KEYWORDS: [&str; 4] = ["enum", "const", "default", "examples"];

/// The reference keywords the SL201 repair rewrites.
const REF_KEYWORDS: [&str; 2] = ["$ref", "$dynamicRef"];

/// The vendored corpus folder; panics when it is not there.
fn corpus_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsts");
    assert!(
        dir.join("manifest.json").is_file(),
        "the JSON-Schema-Test-Suite corpus is missing: {} has no manifest.json \
         (it is vendored in the repository; restore testdata/jsts)",
        dir.display()
    );
    dir
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

/// One test instance of the manifest.
struct Instance {
    description: String,
    data: Value,
    valid: bool,
}

/// An identifier in a subschema position, as `ids.json` lists it.
struct IdSite {
    /// JSON pointer (escaped) of the object that holds the identifier.
    object: String,
    /// The member that holds it: `$id`, or `id` in draft 4.
    member: String,
}

/// What the test reads from the corpus.
struct Corpus {
    root: PathBuf,
    /// Per split file (`<draft>/<name>.json`), its test instances.
    instances: BTreeMap<String, Vec<Instance>>,
    /// Per split file, its identifiers in subschema positions.
    ids: BTreeMap<String, Vec<IdSite>>,
    /// The remote documents: their path in the corpus, the URI the suite serves them at.
    remotes: Vec<(String, String, Value)>,
}

impl Corpus {
    fn load(root: &Path) -> Self {
        let manifest = read_json(&root.join("manifest.json"));
        let instances = manifest["files"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, entry)| {
                let tests = entry["tests"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| Instance {
                        description: t["description"].as_str().unwrap().to_owned(),
                        data: t["data"].clone(),
                        valid: t["valid"].as_bool().unwrap(),
                    })
                    .collect();
                (name.clone(), tests)
            })
            .collect();
        let remotes = manifest["remotes"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(path, uri)| {
                let uri = uri.as_str().unwrap().to_owned();
                (path.clone(), uri, read_json(&root.join(path)))
            })
            .collect();
        Self {
            root: root.to_owned(),
            instances,
            ids: load_ids(&read_json(&root.join("ids.json"))),
            remotes,
        }
    }

    /// The registry for the draft in `folder`: the shared remotes (outside any draft folder)
    /// and that draft's own. The other drafts' remotes may not index under this draft (a
    /// draft 2020-12 `$id` means nothing to draft 4).
    fn registry(&self, folder: &str, draft: jsonschema::Draft) -> jsonschema::Registry<'static> {
        let own = format!("remotes/{folder}/");
        let mut builder = jsonschema::Registry::new().draft(draft);
        for (path, uri, doc) in &self.remotes {
            let shared = !path.starts_with("remotes/draft") && !path.starts_with("remotes/v1/");
            if shared || path.starts_with(&own) {
                builder = builder
                    .add(uri, doc.clone())
                    .expect("a remote's URI parses");
            }
        }
        builder.prepare().expect("the remotes index")
    }
}

/// `ids.json` turned around: per file, where its identifiers are. Its keys are the JSON spelling
/// of each identifier, its values `<file>#<pointer to the id member>`.
fn load_ids(ids: &Value) -> BTreeMap<String, Vec<IdSite>> {
    let mut out: BTreeMap<String, Vec<IdSite>> = BTreeMap::new();
    for per_draft in ids["per_draft"].as_object().unwrap().values() {
        for sites in per_draft["ids_schema_aware"].as_object().unwrap().values() {
            for site in sites.as_array().unwrap() {
                let (file, pointer) = site.as_str().unwrap().split_once('#').unwrap();
                let (object, member) = pointer.rsplit_once('/').unwrap();
                out.entry(file.to_owned()).or_default().push(IdSite {
                    object: object.to_owned(),
                    member: unescape(member),
                });
            }
        }
    }
    for sites in out.values_mut() {
        sites.sort_by(|a, b| a.object.cmp(&b.object));
    }
    out
}

/// One JSON pointer token, unescaped.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// One JSON pointer token, escaped.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The tokens of an escaped JSON pointer.
fn tokens(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(unescape).collect()
}

// ---------------------------------------------------------------------------------------------
// URIs
// ---------------------------------------------------------------------------------------------

/// `reference` resolved against the absolute `base`, normalised; `None` when either does not
/// parse or the resolution fails.
fn resolve(reference: &str, base: &str) -> Option<String> {
    let base = fluent_uri::Uri::parse(base).ok()?;
    let reference = fluent_uri::UriRef::parse(reference).ok()?;
    Some(
        reference
            .resolve_against(&base)
            .ok()?
            .normalize()
            .into_string(),
    )
}

/// What the SL201 underscore repair makes of the spaces this test inserts.
fn repaired(value: &str) -> String {
    value.replace(' ', "_")
}

fn without_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(u, _)| u)
}

/// The part of an identifier or reference the mangling works on: the fragment of a draft 4-7
/// `#anchor` id, else the path (from after the scheme and authority up to `?` or `#`).
fn mangled_part(value: &str, anchor: bool) -> std::ops::Range<usize> {
    if anchor {
        return value.find('#').map_or(value.len(), |i| i + 1)..value.len();
    }
    let end = value.find(['?', '#']).unwrap_or(value.len());
    let mut start = 0;
    let scheme = value[..end]
        .find(':')
        .filter(|&i| !value[..i].contains('/'))
        .filter(|&i| {
            value[..i]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
    if let Some(i) = scheme {
        start = i + 1;
    }
    if value[start..end].starts_with("//") {
        start = value[start + 2..end]
            .find('/')
            .map_or(end, |i| start + 2 + i);
    }
    start..end
}

/// The segment of `value` the mangling breaks: the last non-empty, non-dot path segment (or the
/// whole fragment for an anchor), as a byte range. `None` when there is none (`http://h/`).
fn mangled_segment(value: &str, anchor: bool) -> Option<std::ops::Range<usize>> {
    let part = mangled_part(value, anchor);
    if anchor {
        return (!part.is_empty()).then_some(part);
    }
    let mut end = part.end;
    loop {
        let start = value[part.start..end]
            .rfind('/')
            .map_or(part.start, |i| part.start + i + 1);
        let segment = &value[start..end];
        if !segment.is_empty() && segment != "." && segment != ".." {
            return Some(start..end);
        }
        if start == part.start {
            return None;
        }
        end = start - 1;
    }
}

/// `segment` with a space in its middle: `tree` -> `tr ee`, `2` -> `2 `.
fn break_segment(segment: &str) -> String {
    let mut at = segment.len().div_ceil(2);
    while !segment.is_char_boundary(at) {
        at += 1;
    }
    format!("{} {}", &segment[..at], &segment[at..])
}

// ---------------------------------------------------------------------------------------------
// A schema's identifiers and references
// ---------------------------------------------------------------------------------------------

/// An identifier of the schema.
struct Resource {
    /// Escaped pointer of the object that holds it.
    object: String,
    object_tokens: Vec<String>,
    member: String,
    raw: String,
    /// A draft 4-7 `#name` id: a plain-name fragment, not a new base.
    anchor: bool,
}

/// A `$ref` or `$dynamicRef` of the schema.
struct Reference {
    object: String,
    object_tokens: Vec<String>,
    keyword: &'static str,
    raw: String,
}

/// The identifiers and references of one schema, and the URI the linter gives its file.
struct Model {
    file_uri: String,
    resources: Vec<Resource>,
    references: Vec<Reference>,
}

/// Why an identifier of a file was left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum SkipReason {
    /// Draft 4-7 ignore an `id` beside `$ref`; the linter need not look at it.
    IgnoredBesideRef,
    /// No path segment or fragment to break (`http://localhost:1234/`).
    NothingToBreak,
    /// A reference names it, but only a spelling other than the id's own (relative where the
    /// id is absolute, or the reverse) would follow it: the repair rewrites only references
    /// spelt with the id (see SL301's "Fix safety"), so such a reference would be left broken.
    /// Breaking it moves a reference to a document outside the file (a remote), or one that
    /// names it could not be respelt to match.
    WouldMoveAReference,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::IgnoredBesideRef => "ignored beside $ref (draft 4-7)",
            Self::NothingToBreak => "no segment to break",
            Self::WouldMoveAReference => "would move a reference",
        })
    }
}

impl Model {
    fn new(schema: &Value, sites: &[IdSite], draft: Draft, file_uri: String) -> Self {
        let resources = sites
            .iter()
            .filter_map(|site| {
                let object = schema.pointer(&site.object)?;
                let raw = object.get(&site.member)?.as_str()?.to_owned();
                Some(Resource {
                    object: site.object.clone(),
                    object_tokens: tokens(&site.object),
                    member: site.member.clone(),
                    anchor: legacy(draft) && raw.starts_with('#'),
                    raw,
                })
            })
            .collect();
        let mut references = Vec::new();
        collect_references(schema, "", &mut references);
        Self {
            file_uri,
            resources,
            references,
        }
    }

    /// Whether draft 4-7 ignore identifier `i` (it sits beside a `$ref`).
    fn ignored(&self, schema: &Value, i: usize, draft: Draft) -> bool {
        legacy(draft)
            && schema
                .pointer(&self.resources[i].object)
                .and_then(|o| o.get("$ref"))
                .is_some_and(Value::is_string)
    }

    /// The base URI at `object` (a token list) given the identifiers' `values`: the file URI,
    /// changed by each non-anchor identifier on the way down. `inclusive` counts an identifier
    /// on `object` itself (a reference's base; not an identifier's own).
    fn base(
        &self,
        values: &[String],
        live: &[bool],
        object: &[String],
        inclusive: bool,
    ) -> Option<String> {
        let mut chain: Vec<usize> = (0..self.resources.len())
            .filter(|&i| live[i] && !self.resources[i].anchor)
            .filter(|&i| {
                let at = &self.resources[i].object_tokens;
                object.starts_with(at) && (inclusive || at.len() < object.len())
            })
            .collect();
        chain.sort_by_key(|&i| self.resources[i].object_tokens.len());
        let mut base = self.file_uri.clone();
        for i in chain {
            without_fragment(&resolve(&values[i], &base)?).clone_into(&mut base);
        }
        Some(base)
    }

    /// Each identifier's absolute URI given their `values` (a fragment only for anchors).
    fn uris(&self, values: &[String], live: &[bool]) -> Vec<Option<String>> {
        (0..self.resources.len())
            .map(|i| {
                let r = &self.resources[i];
                let base = self.base(values, live, &r.object_tokens, false)?;
                let uri = resolve(&values[i], &base)?;
                Some(if r.anchor {
                    uri
                } else {
                    without_fragment(&uri).to_owned()
                })
            })
            .collect()
    }

    /// Where reference `j`, spelt `raw`, lands given the identifiers' `values`.
    fn target(&self, j: usize, raw: &str, values: &[String], live: &[bool]) -> Option<String> {
        let base = self.base(values, live, &self.references[j].object_tokens, true)?;
        resolve(raw, &base)
    }
}

/// Draft 4, 6 and 7: `#name` ids are anchors, and members beside `$ref` are ignored.
fn legacy(draft: Draft) -> bool {
    matches!(draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7)
}

/// Every `$ref` / `$dynamicRef` string under `value` (at escaped `pointer`), outside data
/// keywords. Property names are walked like schemas: a property named `enum` holds a schema.
fn collect_references(value: &Value, pointer: &str, out: &mut Vec<Reference>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let child_pointer = format!("{pointer}/{}", escape(key));
                if let (Some(keyword), Value::String(raw)) =
                    (REF_KEYWORDS.iter().find(|k| *k == key), child)
                {
                    out.push(Reference {
                        object: pointer.to_owned(),
                        object_tokens: tokens(pointer),
                        keyword,
                        raw: raw.clone(),
                    });
                } else if !DATA_KEYWORDS.contains(&key.as_str()) {
                    collect_references(child, &child_pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_references(item, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Mangling
// ---------------------------------------------------------------------------------------------

/// A consistent mangling of one schema: new spellings for some identifiers and references.
struct Mangling {
    /// Per identifier, its (possibly mangled) spelling.
    ids: Vec<String>,
    /// Per identifier, whether it was mangled.
    mangled: Vec<bool>,
    /// Per reference, its (possibly respelt) value.
    refs: Vec<String>,
    /// The identifiers left as they were, and why.
    skipped: Vec<(String, SkipReason)>,
}

impl Mangling {
    fn refs_rewritten(&self, model: &Model) -> usize {
        self.refs
            .iter()
            .zip(&model.references)
            .filter(|(new, r)| **new != r.raw)
            .count()
    }
}

/// Mangles the identifiers of `model` one at a time, keeping each whose mangling (with the
/// references respelt) leaves every reference landing where it did, under the repair this test
/// expects (each space becomes `_`). References to identifiers of the file follow them; every
/// other reference must land on the very same URI.
fn mangle(model: &Model, schema: &Value, draft: Draft) -> Mangling {
    let live: Vec<bool> = (0..model.resources.len())
        .map(|i| !model.ignored(schema, i, draft))
        .collect();
    let originals: Vec<String> = model.resources.iter().map(|r| r.raw.clone()).collect();
    let before = Snapshot {
        uris: model.uris(&originals, &live),
        targets: (0..model.references.len())
            .map(|j| model.target(j, &model.references[j].raw, &originals, &live))
            .collect(),
    };
    let mut state = Mangling {
        ids: originals,
        mangled: vec![false; model.resources.len()],
        refs: model.references.iter().map(|r| r.raw.clone()).collect(),
        skipped: Vec::new(),
    };
    for i in 0..model.resources.len() {
        let attempt = if live[i] {
            mangle_one(model, &live, &before, &state, i)
        } else {
            Err(SkipReason::IgnoredBesideRef)
        };
        match attempt {
            Ok((ids, refs)) => {
                state.ids = ids;
                state.refs = refs;
                state.mangled[i] = true;
            }
            Err(reason) => state.skipped.push((model.resources[i].raw.clone(), reason)),
        }
    }
    state
}

/// The identifiers' URIs and the references' targets in the original schema.
struct Snapshot {
    uris: Vec<Option<String>>,
    targets: Vec<Option<String>>,
}

/// `state` with identifier `i` mangled too: the new identifier and reference spellings, or why
/// `i` cannot be mangled consistently.
fn mangle_one(
    model: &Model,
    live: &[bool],
    before: &Snapshot,
    state: &Mangling,
    i: usize,
) -> Result<(Vec<String>, Vec<String>), SkipReason> {
    let resource = &model.resources[i];
    let segment =
        mangled_segment(&resource.raw, resource.anchor).ok_or(SkipReason::NothingToBreak)?;
    let old = resource.raw[segment.clone()].to_owned();
    let new = break_segment(&old);
    let mut ids = state.ids.clone();
    ids[i].replace_range(segment, &new);
    let fixed_ids: Vec<String> = ids.iter().map(|v| repaired(v)).collect();
    let new_uris = model.uris(&fixed_ids, live);
    let lands = |j: usize, raw: &str| {
        model.target(j, &repaired(raw), &fixed_ids, live)
            == expected_target(model, before, &new_uris, j)
    };
    let mut refs = state.refs.clone();
    for (j, raw) in refs.iter_mut().enumerate() {
        if before.targets[j].is_none() || lands(j, raw) {
            continue;
        }
        // The spelling the repair follows: the id itself, with the reference's fragment.
        let spelt_with_id = (!resource.anchor).then(|| {
            let fragment = raw.split_once('#').map(|(_, f)| format!("#{f}"));
            format!(
                "{}{}",
                without_fragment(&ids[i]),
                fragment.unwrap_or_default()
            )
        });
        let substituted = respell(raw, resource.anchor, &old, &new);
        if let Some(respelt) = spelt_with_id.filter(|r| lands(j, r)) {
            *raw = respelt;
        } else if let Some(respelt) = substituted.filter(|r| lands(j, r)) {
            // Named by another spelling (`http://e.com/my num.json` for `my num.json`): the
            // repair finds it by where it resolves once encoded.
            *raw = respelt;
        } else {
            return Err(SkipReason::WouldMoveAReference);
        }
    }
    Ok((ids, refs))
}

/// Where reference `j` must land once the identifiers have their `new_uris`: an identifier of
/// the file it named (an anchor before the resource that holds it) at its new URI, with the
/// same fragment; anything else where it landed before.
fn expected_target(
    model: &Model,
    before: &Snapshot,
    new_uris: &[Option<String>],
    j: usize,
) -> Option<String> {
    let old_target = before.targets[j].as_deref()?;
    let named = |anchor: bool| {
        let wanted = if anchor {
            old_target
        } else {
            without_fragment(old_target)
        };
        (0..model.resources.len()).find(|&k| {
            model.resources[k].anchor == anchor && before.uris[k].as_deref() == Some(wanted)
        })
    };
    if let Some(k) = named(true) {
        return new_uris[k].clone();
    }
    if let Some(k) = named(false) {
        let fragment = old_target.split_once('#').map(|(_, f)| f);
        return new_uris[k]
            .as_deref()
            .map(|u| fragment.map_or(u.to_owned(), |f| format!("{u}#{f}")));
    }
    Some(old_target.to_owned())
}

/// `reference` with the last `old` in its path (its fragment for an anchor) replaced by `new`.
fn respell(reference: &str, anchor: bool, old: &str, new: &str) -> Option<String> {
    let part = mangled_part(reference, anchor);
    let at = part.start + reference[part.clone()].rfind(old)?;
    let mut out = reference.to_owned();
    out.replace_range(at..at + old.len(), new);
    Some(out)
}

/// The schema with the mangling applied.
fn mangled_schema(schema: &Value, model: &Model, mangling: &Mangling) -> Value {
    let mut out = schema.clone();
    let edits = model
        .resources
        .iter()
        .zip(&mangling.ids)
        .map(|(r, v)| (&r.object, r.member.as_str(), v))
        .chain(
            model
                .references
                .iter()
                .zip(&mangling.refs)
                .map(|(r, v)| (&r.object, r.keyword, v)),
        );
    for (object, member, value) in edits {
        let Some(Value::Object(map)) = out.pointer_mut(object) else {
            unreachable!("the model found an object at {object}");
        };
        map.insert(member.to_owned(), Value::String(value.clone()));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The fix loop and the engine
// ---------------------------------------------------------------------------------------------

/// What the fix loop made of one file.
struct Fixed {
    text: String,
    /// SL201 / SL301 findings still there after the loop.
    left: Vec<String>,
    /// Other findings after the loop (not asserted on).
    others: Vec<String>,
    /// Fixes the loop refused, with the reason.
    rejected: Vec<String>,
}

/// Lints `text` as the file `/jsts/<name>` on its own and runs the fix loop.
fn fix_file(name: &str, text: &str, settings: &Settings) -> Fixed {
    let path = PathBuf::from(format!("/jsts/{name}"));
    let file = SourceFile::new(FileId(0), name.to_owned(), Some(path), text, true);
    let run = lint_loaded(vec![load_source(file, true)], settings);
    let outcome = fix_run(run, settings, Offer::SAFE, &|_| Ok(()));
    let describe = |d: &&schema_lint::diagnostic::Diagnostic| {
        format!("{} at {}: {}", d.rule.code, d.pointer, d.message)
    };
    let diagnostics = outcome.run.diagnostics();
    let (left, others): (Vec<_>, Vec<_>) = diagnostics
        .iter()
        .partition(|d| matches!(d.rule.code, "SL201" | "SL301"));
    Fixed {
        text: outcome.run.files[0].file.text.to_string(),
        left: left.iter().map(describe).collect(),
        others: others.iter().map(describe).collect(),
        rejected: outcome
            .rejected
            .iter()
            .map(|r| format!("{} at {}: {} ({})", r.code, r.pointer, r.title, r.reason))
            .collect(),
    }
}

/// The verdict of each instance under `schema`; `Err` when the schema does not compile.
fn verdicts(
    schema: &Value,
    draft: jsonschema::Draft,
    registry: &jsonschema::Registry<'_>,
    instances: &[Instance],
) -> Result<Vec<bool>, String> {
    let validator = jsonschema::options()
        .with_draft(draft)
        .with_registry(registry)
        .build(schema)
        .map_err(|e| e.to_string())?;
    Ok(instances
        .iter()
        .map(|t| validator.is_valid(&t.data))
        .collect())
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

/// Files the underscore repair is known to fail on, with the linter bug behind each (found by
/// this test). Each is still run and must fail the visible way (findings left or fixes
/// refused, never a wrong verdict); the test fails if one of them passes, so that the entry is
/// removed once the bug is fixed.
const KNOWN_FAILURES: &[(&str, &str)] = &[
    // Empty: every mangled file of the suite is repaired with every verdict kept. A file the
    // fixer gets wrong again goes here as (file, reason) while the bug is open.
];

/// How a file went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FailureKind {
    /// SL201 / SL301 findings left, or fixes refused: the schema stays broken, visibly.
    Unfixed,
    /// The fix loop was content, but the engine does not compile the fixed schema.
    DoesNotCompile,
    /// The fixed schema compiles but gives an instance the wrong verdict.
    WrongVerdict,
}

/// A file that did not come through.
struct Failure {
    name: String,
    kind: FailureKind,
    detail: String,
}

/// Counts for the summary line.
#[derive(Default)]
struct Tally {
    files_with_ids: usize,
    files_mangled: usize,
    ids_mangled: usize,
    refs_rewritten: usize,
    /// Test instances of the mangled files.
    instances: usize,
    /// Instances that got their expected verdict from the fixed schema.
    instances_checked: usize,
    skipped_ids: BTreeMap<SkipReason, usize>,
    /// Each identifier left alone: `<file>: <id> (<reason>)`.
    skipped_list: Vec<String>,
    /// Files whose original schema the engine does not compile.
    control_uncompiled: usize,
    /// Instances where the engine disagrees with the manifest on the original schema.
    control_disagrees: usize,
    failures: Vec<Failure>,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |counts: BTreeMap<String, usize>| {
            counts
                .iter()
                .map(|(what, n)| format!("{n} {what}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let skipped = self.skipped_ids.iter().map(|(r, n)| (r.to_string(), *n));
        let mut failures: BTreeMap<String, usize> = BTreeMap::new();
        for failure in &self.failures {
            *failures.entry(format!("{:?}", failure.kind)).or_default() += 1;
        }
        write!(
            f,
            "{} files with ids, {} mangled ({} ids, {} refs respelt); {} of their {} instances \
             checked; ids left alone: [{}]; {} files the engine cannot compile unmangled, {} \
             instances it gets wrong unmangled; {} files failed [{}]",
            self.files_with_ids,
            self.files_mangled,
            self.ids_mangled,
            self.refs_rewritten,
            self.instances_checked,
            self.instances,
            list(skipped.collect()),
            self.control_uncompiled,
            self.control_disagrees,
            self.failures.len(),
            list(failures),
        )
    }
}

/// Mangles, fixes and checks one corpus file, adding to `tally`.
fn check_file(
    corpus: &Corpus,
    name: &str,
    (draft, engine): (Draft, jsonschema::Draft),
    registry: &jsonschema::Registry<'_>,
    settings: &Settings,
    tally: &mut Tally,
) {
    let schema = read_json(&corpus.root.join(name));
    let instances = &corpus.instances[name];
    let model = Model::new(
        &schema,
        &corpus.ids[name],
        draft,
        format!("file:///jsts/{name}"),
    );
    tally.files_with_ids += 1;
    let mangling = mangle(&model, &schema, draft);
    for (id, reason) in &mangling.skipped {
        *tally.skipped_ids.entry(*reason).or_default() += 1;
        tally
            .skipped_list
            .push(format!("{name}: `{id}` ({reason})"));
    }
    let mangled_count = mangling.mangled.iter().filter(|m| **m).count();
    if mangled_count == 0 {
        return;
    }
    // The control: the engine on the original schema.
    let Ok(control) = verdicts(&schema, engine, registry, instances) else {
        tally.control_uncompiled += 1;
        return;
    };
    tally.files_mangled += 1;
    tally.ids_mangled += mangled_count;
    tally.refs_rewritten += mangling.refs_rewritten(&model);
    tally.instances += instances.len();
    let mangled = serde_json::to_string_pretty(&mangled_schema(&schema, &model, &mangling))
        .expect("a JSON value serialises");
    let fixed = fix_file(name, &mangled, settings);
    let failure = |kind, problems: &[String]| Failure {
        name: name.to_owned(),
        kind,
        detail: format!(
            "{name}:\n  {}\n  other findings left: {:?}\n--- mangled:\n{mangled}\n--- fixed:\n{}",
            problems.join("\n  "),
            fixed.others,
            fixed.text
        ),
    };
    let unfixed: Vec<String> = fixed.left.iter().chain(&fixed.rejected).cloned().collect();
    if !unfixed.is_empty() {
        tally.failures.push(failure(FailureKind::Unfixed, &unfixed));
        return;
    }
    let after = serde_json::from_str(&fixed.text)
        .map_err(|e| format!("the fixed text does not parse: {e}"))
        .and_then(|value: Value| verdicts(&value, engine, registry, instances));
    let after = match after {
        Ok(after) => after,
        Err(e) => {
            tally
                .failures
                .push(failure(FailureKind::DoesNotCompile, &[e]));
            return;
        }
    };
    let mut wrong = Vec::new();
    for ((t, was), now) in instances.iter().zip(&control).zip(&after) {
        if *was != t.valid {
            tally.control_disagrees += 1;
        } else if *now == t.valid {
            tally.instances_checked += 1;
        } else {
            wrong.push(format!(
                "instance `{}`: expected valid={}, got {now}",
                t.description, t.valid
            ));
        }
    }
    if !wrong.is_empty() {
        tally
            .failures
            .push(failure(FailureKind::WrongVerdict, &wrong));
    }
}

/// Runs every corpus file with identifiers through [`check_file`] in `mode`.
fn run_corpus(mode: FixIdMode) -> Tally {
    let corpus = Corpus::load(&corpus_dir());
    let mut tally = Tally::default();
    for (folder, draft, engine) in DRAFTS {
        let registry = corpus.registry(folder, engine);
        let settings = Settings {
            default_draft: draft,
            fix_id: mode,
            ..Settings::default()
        };
        let prefix = format!("{folder}/");
        for name in corpus.ids.keys().filter(|n| n.starts_with(&prefix)) {
            check_file(
                &corpus,
                name,
                (draft, engine),
                &registry,
                &settings,
                &mut tally,
            );
        }
    }
    eprintln!("{mode:?}: {tally}");
    tally
}

/// Checks one repair mode over the corpus: every mangled file repaired, every verdict kept, and
/// the files of [`KNOWN_FAILURES`] (none today) failing only by staying unfixed.
fn assert_repair_keeps_every_verdict(mode: FixIdMode) {
    let tally = run_corpus(mode);
    eprintln!("ids left alone:\n  {}", tally.skipped_list.join("\n  "));
    let known: BTreeMap<&str, &str> = KNOWN_FAILURES.iter().copied().collect();
    let unexpected: Vec<&str> = tally
        .failures
        .iter()
        .filter(|f| f.kind != FailureKind::Unfixed || !known.contains_key(f.name.as_str()))
        .map(|f| f.detail.as_str())
        .collect();
    assert!(
        unexpected.is_empty(),
        "{mode:?}: {} files failed:\n{}",
        unexpected.len(),
        unexpected.join("\n\n")
    );
    let stale: Vec<&str> = known
        .keys()
        .copied()
        .filter(|k| !tally.failures.iter().any(|f| f.name == *k))
        .collect();
    assert!(
        stale.is_empty(),
        "these files pass now: remove them from KNOWN_FAILURES: {stale:?}"
    );
    assert!(tally.files_mangled >= 150, "{tally}");
    assert!(tally.ids_mangled >= 230, "{tally}");
    assert!(tally.instances_checked >= 350, "{tally}");
}

#[test]
fn underscore_repair_keeps_every_verdict() {
    assert_repair_keeps_every_verdict(FixIdMode::Underscore);
}

/// The `defs` repair, where it is exact, and the `underscore` one where it steps back.
#[test]
fn defs_repair_keeps_every_verdict() {
    assert_repair_keeps_every_verdict(FixIdMode::Defs);
}

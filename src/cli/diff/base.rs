//! `diff --base`: NEW as `check` lints it, OLD the same files' versions at a git ref, read
//! through [`super::git`] as bounded and contained as `check` reads the work tree.

use super::git::git;
use super::git::{blobs, follow, key, ls_tree, normal, path_of, too_large, TreeEntry, SYMLINK};
use super::{compare, is_json, role};
use crate::cli::args::DiffArgs;
use crate::diagnostic::Diagnostic;
use crate::report::diff::{Diff, Pair};
use crate::report::printable;
use crate::settings::Settings;
use crate::syntax::read::MAX_FILE;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::discover::{is_vendored_dir, Accept, Configured};
use crate::workspace::load::{display_name, load_bytes};
use crate::workspace::{LintedFile, Origin};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The settings `check` would run with on `paths`: the configuration in force, the project
/// they belong to as context, and `--clients`.
fn check_settings(paths: &[PathBuf], clients: &[String]) -> Result<Settings, String> {
    let start = paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
    let config = crate::settings::resolve::in_force(false, None, Some(&start))?;
    let overrides = crate::settings::Overrides {
        target: None,
        select: None,
        extend_select: Vec::new(),
        ignore: Vec::new(),
        default_dialect: None,
        fix_id: crate::settings::FixIdMode::Underscore,
        strict: false,
        only_schemas: false,
        memory_budget: None,
        respect_ignore_files: true,
        project_root: crate::cli::check::partial_run_root(
            paths,
            config.as_ref().and_then(|c| c.dir.as_deref()),
        ),
        clients: if clients.is_empty() {
            None
        } else {
            Some(crate::settings::clients::parse(clients).map_err(|e| format!("--clients: {e}"))?)
        },
    };
    Ok(Settings::resolve(config, overrides))
}

/// Whether a file found at the ref under the folder `root` is one a walk of `root` takes, by
/// its path: a `*.json` file, under no hidden folder, no folder a walk passes over
/// ([`is_vendored_dir`]) unless `root` is one, and one the configuration accepts.
fn walk_takes(root: &Path, path: &Path, accept: &dyn Accept) -> bool {
    if !is_json(&path.to_string_lossy()) || !accept.file(path) {
        return false;
    }
    let Ok(below) = key(path).strip_prefix(key(root)).map(Path::to_path_buf) else {
        return true;
    };
    let inside_vendored = is_vendored_dir(root);
    let mut folder = root.to_path_buf();
    let parts: Vec<_> = below.components().collect();
    for c in parts.iter().take(parts.len().saturating_sub(1)) {
        folder.push(c);
        let name = c.as_os_str().to_string_lossy();
        if (name.starts_with('.') && name != "." && name != "..")
            || (!inside_vendored && is_vendored_dir(&folder))
        {
            return false;
        }
    }
    true
}

/// One file of a `--base` comparison: NEW's file in the run `check` would make (its id in
/// [`Diff::files`]), and OLD's version at the ref, loaded.
#[derive(Default)]
struct BasePair {
    new: Option<FileId>,
    old: Option<usize>,
    explicit: bool,
}

/// The versions at `base` of the files under `paths` that a walk of them takes as `check` walks
/// the work tree (each with its path key, its blob, and whether it was named): a link is
/// followed in the ref's tree only where it stays in the folder walked (the repository, for a
/// file named: one leading out is refused with a reason in `errors`), and a file reached by its
/// path and a link is taken once. A file there in the work tree that `check` passes over
/// (`pairs` does not have it) is left out, unless it is a link `check` does not follow.
fn old_versions(
    base: &str,
    paths: &[PathBuf],
    prefix: &Path,
    accept: &dyn Accept,
    pairs: &BTreeMap<PathBuf, BasePair>,
    errors: &mut Vec<String>,
) -> Result<Vec<(PathBuf, TreeEntry, bool)>, String> {
    let listed = ls_tree(
        base,
        &paths.iter().map(|p| p.as_os_str()).collect::<Vec<_>>(),
        true,
        false,
    )?;
    let mut old = Vec::new();
    // A file reached twice, by its path and by a link, is taken once, by its own path.
    let regular: HashSet<PathBuf> = listed
        .iter()
        .filter(|e| e.regular())
        .filter_map(|e| normal(&prefix.join(&e.path)))
        .collect();
    for entry in listed {
        let k = key(&entry.path);
        let explicit = paths.iter().any(|p| key(p) == k);
        let root = paths
            .iter()
            .find(|p| k.starts_with(key(p)) || key(p).as_os_str().is_empty());
        if !explicit && !root.is_some_and(|r| walk_takes(r, &entry.path, accept)) {
            continue;
        }
        if !explicit && !pairs.contains_key(&k) {
            // There in the work tree but not walked: `check` passes over it (ignored), or it is
            // a link `check` does not follow (then NEW has no such file).
            let there = std::fs::symlink_metadata(&entry.path);
            if there.is_ok_and(|m| !m.file_type().is_symlink()) {
                continue;
            }
        }
        let within = match (explicit, root) {
            (false, Some(r)) => normal(&prefix.join(r)).unwrap_or_default(),
            _ => PathBuf::new(),
        };
        let blob = match entry.mode.as_str() {
            SYMLINK => match follow(base, &entry, prefix, &within)? {
                Some(target) if !explicit && regular.contains(&target.path) => continue,
                Some(target) => target,
                None if explicit => {
                    errors.push(format!(
                        "`{base}:{}`: a symbolic link that leads out of the repository, or to no \
                         file in it: schema-lint does not follow it",
                        printable(&display_name(&entry.path)),
                    ));
                    continue;
                }
                None => continue,
            },
            _ if entry.regular() => entry.clone(),
            _ => continue,
        };
        old.push((k, blob, explicit));
    }
    Ok(old)
}

/// OLD's files loaded (ids in order): the versions `old`, then the versions at `base` of NEW's
/// context files `context` (as context); and the id of each of `old` by its path key.
fn load_old(
    base: &str,
    old: &[(PathBuf, TreeEntry, bool)],
    context: &BTreeSet<PathBuf>,
) -> Result<(Vec<LintedFile>, HashMap<PathBuf, usize>), String> {
    let context_entries: Vec<TreeEntry> = ls_tree(
        base,
        &context.iter().map(|p| p.as_os_str()).collect::<Vec<_>>(),
        false,
        false,
    )?
    .into_iter()
    .filter(|e| e.regular() && context.contains(&key(&e.path)))
    .collect();
    let entries: Vec<(PathBuf, &TreeEntry, bool, Origin)> = old
        .iter()
        .map(|(k, e, explicit)| (k.clone(), e, *explicit, Origin::Named))
        .chain(
            context_entries
                .iter()
                .map(|e| (key(&e.path), e, false, Origin::Context)),
        )
        .collect();
    let wanted: Vec<&str> = entries
        .iter()
        .filter(|(_, e, ..)| e.size.is_some_and(|s| s <= MAX_FILE))
        .map(|(_, e, ..)| e.oid.as_str())
        .collect();
    // Each blob is handed over at its last use, copied only for a blob two paths share.
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for oid in &wanted {
        *uses.entry(oid).or_default() += 1;
    }
    let mut read = blobs(&wanted)?;
    let mut loaded = Vec::with_capacity(entries.len());
    let mut old_of = HashMap::new();
    for (k, entry, explicit, origin) in entries {
        let bytes = if entry.size.is_some_and(|s| s > MAX_FILE) {
            Err(too_large())
        } else {
            let left = uses.get_mut(entry.oid.as_str()).map_or(0, |n| {
                *n -= 1;
                *n
            });
            let blob = if left == 0 {
                read.remove(&entry.oid)
            } else {
                read.get(&entry.oid).map(|b| match b {
                    Ok(bytes) => Ok(bytes.clone()),
                    Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
                })
            };
            blob.unwrap_or_else(|| Err(std::io::Error::other("not in the repository")))
        };
        let id = FileId(loaded.len());
        if origin == Origin::Named {
            old_of.insert(k.clone(), id.0);
        }
        let mut file = load_bytes(id, display_name(&k), Some(k), explicit, bytes);
        file.origin = origin;
        loaded.push(file);
    }
    Ok((loaded, old_of))
}

/// `--base`: NEW is what `check` lints of the paths (its discovery, its project as context, its
/// configuration, its bounds, the links it refuses), linted as `check` lints it; OLD is each such
/// file's version at `base` (and the files under the folders named there, walked as `check`
/// walks: [`old_versions`]; a blob larger than `check` reads is not read), linted with the same
/// context files' versions at `base`. What NEW's findings are that OLD's are not is new in NEW.
/// Errors that leave a file uncompared are added to `errors`.
pub(super) fn at_base(
    base: &str,
    paths: &[PathBuf],
    args: &DiffArgs,
    diff: &mut Diff,
    errors: &mut Vec<String>,
) -> Result<(), String> {
    git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{base}^{{commit}}"),
    ])
    .map_err(|_| format!("`--base {base}`: not a commit of this repository"))?;
    let prefix = git(&["rev-parse", "--show-prefix"])?;
    let prefix = path_of(prefix.strip_suffix(b"\n").unwrap_or(&prefix));
    let settings = check_settings(paths, &args.clients)?;
    // NEW: the run `check` makes of the paths that are there.
    let present: Vec<PathBuf> = paths
        .iter()
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .cloned()
        .collect();
    let run = if present.is_empty() {
        crate::engine::Run::default()
    } else {
        crate::engine::run_held(&present, None, Vec::new(), &settings).into_run()
    };
    let mut pairs: BTreeMap<PathBuf, BasePair> = BTreeMap::new();
    let mut context = BTreeSet::new();
    for f in &run.files {
        let Some(path) = &f.file.path else { continue };
        if f.is_context() {
            context.insert(key(path));
        } else {
            let pair = pairs.entry(key(path)).or_default();
            pair.new = Some(f.file.id);
            pair.explicit = f.file.explicit;
        }
    }
    let accept = Configured(settings.config.as_deref());
    let old = old_versions(base, paths, &prefix, &accept, &pairs, errors)?;
    for (k, _, explicit) in &old {
        pairs.entry(k.clone()).or_default().explicit |= explicit;
    }
    let (loaded, old_of) = load_old(base, &old, &context)?;
    drop(old);
    let old_run = crate::engine::lint_loaded(loaded, &settings).into_run();
    // Every file of NEW's run keeps its id; OLD's versions come after, named `REF:path`.
    diff.files = run.files.iter().map(|f| f.file.clone()).collect();
    let mut old_ids: HashMap<usize, FileId> = HashMap::new();
    for (k, i) in &old_of {
        let id = FileId(diff.files.len());
        diff.files.push(SourceFile {
            id,
            name: format!("{base}:{}", display_name(k)),
            ..old_run.files[*i].file.clone()
        });
        old_ids.insert(*i, id);
        pairs.entry(k.clone()).or_default().old = Some(*i);
    }
    for pair in pairs.into_values() {
        let old_file = pair.old.map(|i| &old_run.files[i]);
        let new_file = pair.new.map(|id| &run.files[id.0]);
        if let Some(f) = old_file.filter(|f| f.failed()) {
            if let Some(d) = f
                .diagnostics
                .first()
                .filter(|d| d.message.starts_with("Cannot read"))
            {
                errors.push(format!(
                    "`{base}:{}`: cannot read the file: {}",
                    printable(&f.file.name),
                    d.message.trim_start_matches("Cannot read the file: ")
                ));
            }
        }
        let failed = |f: Option<&LintedFile>| f.is_some_and(LintedFile::failed);
        let old_id = pair.old.map(|i| old_ids[&i]);
        let compared = if failed(old_file) || failed(new_file) {
            None
        } else {
            compare(diff, old_id, pair.new, pair.explicit, role(args.role)).unwrap_or_else(|e| {
                errors.push(e);
                None
            })
        };
        let introduced = new_file.map_or_else(Vec::new, |n| new_findings(old_file, n));
        match compared {
            Some(mut p) => {
                p.introduced = introduced;
                diff.pairs.push(p);
            }
            None if !introduced.is_empty() => diff.pairs.push(Pair {
                old: old_id.filter(|_| !failed(old_file)),
                new: pair.new,
                findings: Vec::new(),
                tools: None,
                introduced,
            }),
            None => {}
        }
    }
    Ok(())
}

/// The identity of a lint finding across two versions: its rule, tool and message.
pub(super) fn finding_key(
    d: &Diagnostic,
) -> (&'static str, Option<(String, &'static str)>, String) {
    (
        d.rule.code,
        d.tool.as_ref().map(|t| (t.name.clone(), t.schema)),
        d.message.clone(),
    )
}

/// The lint findings of `new` that `old` (when there is one) does not have.
pub(super) fn new_findings(old: Option<&LintedFile>, new: &LintedFile) -> Vec<Diagnostic> {
    let before: HashSet<_> = old
        .iter()
        .flat_map(|f| &f.diagnostics)
        .map(finding_key)
        .collect();
    new.diagnostics
        .iter()
        .filter(|d| !before.contains(&finding_key(d)))
        .cloned()
        .collect()
}

//! `schema-lint diff`: reads the two versions (files, folders matched by path, the files `check`
//! would lint and their versions at a git ref, or a committed dump and a running server),
//! compares each pair ([`crate::schema::compat`]), lints NEW and OLD for the lint findings new
//! in NEW, and renders both ([`crate::report::diff`]). Every read is bounded as `check`'s are
//! ([`MAX_FILE`]), a blob by its size before it is read.

use super::args::{DiffArgs, DiffRole};
use super::{exit, Outcome};
use crate::diagnostic::Diagnostic;
use crate::report::diff::{Diff, Pair};
use crate::report::{self, printable};
use crate::schema::compat::{self, tools, Finding, Role, Verdict};
use crate::schema::units::{classify, FileKind};
use crate::settings::Settings;
use crate::syntax::read::{read_file_bounded, MAX_FILE};
use crate::syntax::source::{FileId, SourceFile};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod base;
mod git;

use base::{at_base, new_findings};

/// One version of a file: the name to show and its text.
struct Version {
    name: String,
    text: String,
}

/// Two versions of one file, or one of them; `explicit` when both were named (compared whatever
/// they hold), else found in folders (compared only when they hold a schema or tools).
struct Versions {
    old: Option<Version>,
    new: Option<Version>,
    explicit: bool,
}

/// An I/O error in the words of reports, without the OS error number.
fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_owned()
        }
    }
}

/// Reads a file named or found, no more than `check` reads ([`MAX_FILE`]); a file found in a
/// folder only when it is a regular file.
fn read(path: &Path, explicit: bool) -> Result<Version, String> {
    let bytes = read_file_bounded(path, MAX_FILE, !explicit)
        .map_err(|e| format!("{}: cannot read: {}", path.display(), io_message(&e)))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", path.display()))?;
    Ok(Version {
        name: path.display().to_string(),
        text,
    })
}

fn is_json(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The `.json` files under `dir`, by path relative to it (`/`-separated), sorted; hidden
/// entries and symbolic links are left out.
fn json_files(dir: &Path) -> Result<BTreeMap<String, PathBuf>, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(folder) = todo.pop() {
        let entries = std::fs::read_dir(&folder)
            .map_err(|e| format!("{}: cannot read: {e}", folder.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if name.starts_with('.') || kind.is_symlink() {
                continue;
            }
            if kind.is_dir() {
                todo.push(path);
            } else if is_json(&name) {
                if let Ok(rel) = path.strip_prefix(dir) {
                    let rel: Vec<_> = rel
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    out.insert(rel.join("/"), path);
                }
            }
        }
    }
    Ok(out)
}

/// OLD and NEW named on the command line: two files, or two folders matched by path.
fn named(old: &Path, new: &Path) -> Result<Vec<Versions>, String> {
    if old.is_dir() != new.is_dir() {
        return Err("OLD and NEW must both be files, or both folders".to_owned());
    }
    if !old.is_dir() {
        return Ok(vec![Versions {
            old: Some(read(old, true)?),
            new: Some(read(new, true)?),
            explicit: true,
        }]);
    }
    let (a, b) = (json_files(old)?, json_files(new)?);
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|n| {
            Ok(Versions {
                old: a.get(n).map(|p| read(p, false)).transpose()?,
                new: b.get(n).map(|p| read(p, false)).transpose()?,
                explicit: false,
            })
        })
        .collect()
}

/// OLD from a file, NEW from the running server `--server`/`--url` names.
fn live(old: &Path, args: &DiffArgs) -> Result<Vec<Versions>, String> {
    let servers = super::live::servers(&args.live)?;
    let [server] = servers.as_slice() else {
        return Err("`diff` takes one `--server` or `--url`".to_owned());
    };
    let options = super::live::options_of(args.live.protocol.clone(), args.live.timeout)?;
    let listing = crate::workspace::live::list_tools(server, &options).map_err(|why| {
        format!(
            "cannot list the tools of `{}`: {}",
            printable(&server.label),
            printable(&why)
        )
    })?;
    Ok(vec![Versions {
        old: Some(read(old, true)?),
        new: Some(Version {
            name: server.label.clone(),
            text: crate::workspace::live::dump(server, &listing),
        }),
        explicit: true,
    }])
}

fn role(r: DiffRole) -> Role {
    match r {
        DiffRole::Consumer => Role::Consumer,
        DiffRole::Producer => Role::Producer,
        DiffRole::Both => Role::Both,
    }
}

/// What a version holds, parsed twice: as values to compare, as a span tree to classify.
fn parse(file: &SourceFile, explicit: bool) -> Result<(Value, FileKind), String> {
    let tree = crate::syntax::document::parse_as(&file.text, file.is_jsonc())
        .map_err(|e| format!("{}: not JSON: {}", file.name, e.message))?;
    let value = tree.to_value();
    Ok((value, classify(&tree, explicit)))
}

/// The lint findings of `new` that `old` does not have (all of them when there is no `old`),
/// each file linted on its own.
fn introduced(settings: &Settings, old: Option<&SourceFile>, new: &SourceFile) -> Vec<Diagnostic> {
    let lint = |f: &SourceFile| crate::engine::lint_source(f.clone(), settings, true);
    let old = old.map(lint);
    new_findings(old.as_ref(), &lint(new))
}

/// Adds a version to the files of `diff`.
fn add(diff: &mut Diff, v: Version) -> FileId {
    let id = FileId(diff.files.len());
    diff.files
        .push(SourceFile::from_string(id, v.name, None, v.text, true));
    id
}

/// Compares the versions `old` and `new` (files of `diff`): the pair, or `None` when neither
/// holds a schema or tools and they were found rather than named (`explicit`), or when one of
/// two found does not parse.
fn compare(
    diff: &Diff,
    old: Option<FileId>,
    new: Option<FileId>,
    explicit: bool,
    role: Role,
) -> Result<Option<Pair>, String> {
    let parsed = |id: Option<FileId>| {
        id.map(|id| parse(&diff.files[id.0], explicit).map(|p| (p, id)))
            .transpose()
    };
    let (old, new) = match (parsed(old), parsed(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) if explicit => return Err(e),
        _ => return Ok(None),
    };
    let shown = |k: &FileKind| *k != FileKind::Other;
    if !explicit && !old.iter().chain(&new).any(|((_, k), _)| shown(k)) {
        return Ok(None);
    }
    let name = |id: FileId| diff.files[id.0].name.clone();
    let (findings, tools, old_id, new_id) = match (old, new) {
        (Some(((a, ak), av)), Some(((b, bk), bv))) => {
            let is_tools = ak == FileKind::ToolsList || bk == FileKind::ToolsList;
            if is_tools && !(tools::is_tools_list(&a) && tools::is_tools_list(&b)) {
                return Err(format!(
                    "{} and {}: one is a tools/list document and the other is not",
                    name(av),
                    name(bv)
                ));
            }
            let count = is_tools.then(|| tool_count(&a, &b));
            let findings = if is_tools {
                tools::compare_tools(&a, &b)
            } else {
                compat::compare(&a, &b, role, "", "")
            };
            (findings, count, Some(av), Some(bv))
        }
        (Some(((a, ak), av)), None) => {
            let f = Finding::new(
                "file-removed",
                Verdict::Breaking,
                format!("`{}` removed", name(av)),
            );
            let count = (ak == FileKind::ToolsList).then(|| tool_count(&a, &Value::Null));
            (
                vec![Finding {
                    old_pointer: Some(String::new()),
                    ..f
                }],
                count,
                Some(av),
                None,
            )
        }
        (None, Some(((b, bk), bv))) => {
            let f = Finding::new(
                "file-added",
                Verdict::Compatible,
                format!("`{}` added", name(bv)),
            );
            let count = (bk == FileKind::ToolsList).then(|| tool_count(&Value::Null, &b));
            (
                vec![Finding {
                    new_pointer: Some(String::new()),
                    ..f
                }],
                count,
                None,
                Some(bv),
            )
        }
        (None, None) => return Ok(None),
    };
    Ok(Some(Pair {
        old: old_id,
        new: new_id,
        findings,
        tools,
        introduced: Vec::new(),
    }))
}

/// How many tools two documents name together.
fn tool_count(a: &Value, b: &Value) -> usize {
    let names = |d: &Value| -> Vec<String> {
        let list = d
            .get("tools")
            .or_else(|| d.get("result").and_then(|r| r.get("tools")));
        list.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
            .collect()
    };
    let mut all = names(a);
    all.extend(names(b));
    all.sort();
    all.dedup();
    all.len()
}

/// OLD and NEW named on the command line (files, folders, or a dump and a server).
fn versions(args: &DiffArgs) -> Result<Vec<Versions>, String> {
    match (args.paths.as_slice(), args.live.any()) {
        ([old], true) => live(old, args),
        ([old, new], false) => named(old, new),
        (_, true) => Err("with `--server`/`--url`, name OLD only (a committed dump)".to_owned()),
        _ => Err(
            "`diff` takes OLD and NEW (or `--base REF`, or OLD and `--server`/`--url`)".to_owned(),
        ),
    }
}

/// Reads and compares what the command line names into `diff`; errors that leave a file
/// uncompared are added to `errors`, an error that stops the comparison returned.
fn collect(args: &DiffArgs, diff: &mut Diff, errors: &mut Vec<String>) -> Result<(), String> {
    if let Some(base) = &args.base {
        if args.live.any() {
            return Err("`--base` compares files with their committed versions: not with `--server`/`--url`".to_owned());
        }
        let paths = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        return at_base(base, &paths, args, diff, errors);
    }
    let versions = versions(args)?;
    let mut settings = Settings::default();
    if !args.clients.is_empty() {
        let chosen = crate::settings::clients::parse(&args.clients)
            .map_err(|e| format!("--clients: {e}"))?;
        settings.clients = chosen.clients;
        settings.versions = chosen.versions;
    }
    for pair in versions {
        let explicit = pair.explicit;
        let old = pair.old.map(|v| add(diff, v));
        let new = pair.new.map(|v| add(diff, v));
        match compare(diff, old, new, explicit, role(args.role)) {
            Ok(Some(mut p)) => {
                if let Some(n) = p.new {
                    p.introduced =
                        introduced(&settings, p.old.map(|o| &diff.files[o.0]), &diff.files[n.0]);
                }
                diff.pairs.push(p);
            }
            Ok(None) => {}
            Err(why) => errors.push(why),
        }
    }
    Ok(())
}

/// `schema-lint diff`: exit 1 when a finding reaches `--fail-on` (by default a breaking change
/// or a lint error new in NEW), 2 when a file could not be compared or NEW brings a file that
/// cannot be read or parsed, the rest compared and reported all the same.
pub(super) fn diff(args: &DiffArgs) -> Outcome {
    let mut diff = Diff::default();
    let mut errors = Vec::new();
    // On the engine's pool, whose threads have the stack the comparison's walk and the
    // `jsonschema` crate need along a long chain of references (the main thread's 8 MiB held
    // 4,000 links of one, in a debug build).
    let collected = crate::workspace::pool::run(|| collect(args, &mut diff, &mut errors));
    if let Err(why) = collected {
        return Outcome {
            stderr: format!("error: {why}\n"),
            code: exit::ERROR,
            ..Outcome::default()
        };
    }
    let style = report::Style {
        color: super::check::use_color(args.color),
        quiet: args.quiet,
        ..report::Style::default()
    };
    let fail_on = args.fail_on.severity();
    let fails = report::diff::diagnostics(&diff, false)
        .iter()
        .any(|d| d.severity <= fail_on);
    let code = if !errors.is_empty() || report::diff::introduces_load_errors(&diff) {
        exit::ERROR
    } else if fails {
        exit::FINDINGS
    } else {
        exit::CLEAN
    };
    // Nothing compared, only errors: no report of nothing.
    let nothing = diff.pairs.is_empty() && !errors.is_empty();
    Outcome {
        stdout: if nothing {
            String::new()
        } else {
            report::diff::render(&diff, args.output_format, style)
        },
        stderr: errors.iter().fold(String::new(), |mut out, e| {
            out.push_str("error: ");
            out.push_str(e);
            out.push('\n');
            out
        }),
        code,
    }
}

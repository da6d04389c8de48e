//! `schema-lint diff`: reads the two versions (files, folders matched by path, a file and its
//! version at a git ref, or a committed dump and a running server), compares each pair
//! ([`crate::schema::compat`]) and renders the findings ([`crate::report::diff`]).

use super::args::{DiffArgs, DiffRole};
use super::{exit, Outcome};
use crate::diagnostic::Diagnostic;
use crate::report::diff::{Diff, Pair};
use crate::report::{self, printable};
use crate::schema::compat::{self, tools, Finding, Role, Verdict};
use crate::schema::units::{classify, FileKind};
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

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

fn read(path: &Path) -> Result<Version, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
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
            old: Some(read(old)?),
            new: Some(read(new)?),
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
                old: a.get(n).map(|p| read(p)).transpose()?,
                new: b.get(n).map(|p| read(p)).transpose()?,
                explicit: false,
            })
        })
        .collect()
}

fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let output = std::process::Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
    }
}

/// Every path named (files, and the `.json` files of folders, in the work tree and at `base`),
/// each with its version at `base` (`git show`, no checkout).
fn at_base(base: &str, paths: &[PathBuf]) -> Result<Vec<Versions>, String> {
    git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{base}^{{commit}}"),
    ])
    .map_err(|_| format!("`--base {base}`: not a commit of this repository"))?;
    let mut files: Vec<(String, bool)> = Vec::new();
    for path in paths {
        let shown = path.to_string_lossy().replace('\\', "/");
        if path.is_dir() || !path.exists() {
            if path.is_dir() {
                for rel in json_files(path)?.into_keys() {
                    files.push((format!("{}/{rel}", shown.trim_end_matches('/')), false));
                }
            }
            let listed = git(&["ls-tree", "-r", "--name-only", base, "--", &shown])?;
            for line in String::from_utf8_lossy(&listed).lines() {
                if is_json(line) {
                    files.push((line.to_owned(), false));
                }
            }
        } else {
            files.push((shown, true));
        }
    }
    for (file, _) in &mut files {
        while let Some(rest) = file.strip_prefix("./") {
            *file = rest.to_owned();
        }
    }
    // A file named outright stays explicit when a folder or the ref lists it too.
    files.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    files.dedup_by(|a, b| a.0 == b.0);
    let mut out = Vec::new();
    for (file, explicit) in files {
        let old = git(&["show", &format!("{base}:./{file}")])
            .ok()
            .map(|bytes| Version {
                name: format!("{base}:{file}"),
                text: String::from_utf8_lossy(&bytes).into_owned(),
            });
        let path = Path::new(&file);
        let new = if path.is_file() {
            Some(read(path)?)
        } else {
            None
        };
        out.push(Versions { old, new, explicit });
    }
    Ok(out)
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
        old: Some(read(old)?),
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
fn parse(v: &Version, explicit: bool) -> Result<(Value, FileKind), String> {
    let tree = crate::syntax::document::parse(&v.text)
        .map_err(|e| format!("{}: not JSON: {}", v.name, e.message))?;
    let value = tree.to_value();
    Ok((value, classify(&tree, explicit)))
}

/// The lint findings of `new` that `old` does not have: the same rule, tool and message.
fn introduced(settings: &Settings, old: &SourceFile, new: &SourceFile) -> Vec<Diagnostic> {
    let lint = |f: &SourceFile| crate::engine::lint_source(f.clone(), settings, true).diagnostics;
    let key = |d: &Diagnostic| {
        (
            d.rule.code,
            d.tool.as_ref().map(|t| (t.name.clone(), t.schema)),
            d.message.clone(),
        )
    };
    let before: HashSet<_> = lint(old).iter().map(key).collect();
    lint(new)
        .into_iter()
        .filter(|d| !before.contains(&key(d)))
        .collect()
}

/// Compares one pair into `diff`.
fn compare(
    diff: &mut Diff,
    versions: Versions,
    role: Role,
    settings: &Settings,
) -> Result<(), String> {
    let mut add = |v: Version| {
        let id = FileId(diff.files.len());
        diff.files
            .push(SourceFile::from_string(id, v.name, None, v.text, true));
        id
    };
    let explicit = versions.explicit;
    let old = versions
        .old
        .map(|v| parse(&v, explicit).map(|p| (p, v)))
        .transpose();
    let new = versions
        .new
        .map(|v| parse(&v, explicit).map(|p| (p, v)))
        .transpose();
    let (old, new) = match (old, new) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) if versions.explicit => return Err(e),
        _ => return Ok(()),
    };
    let shown = |k: &FileKind| *k != FileKind::Other;
    if !versions.explicit && !old.iter().chain(&new).any(|((_, k), _)| shown(k)) {
        return Ok(());
    }
    let (findings, tools, old_id, new_id) = match (old, new) {
        (Some(((a, ak), av)), Some(((b, bk), bv))) => {
            let is_tools = ak == FileKind::ToolsList || bk == FileKind::ToolsList;
            if is_tools && !(tools::is_tools_list(&a) && tools::is_tools_list(&b)) {
                return Err(format!(
                    "{} and {}: one is a tools/list document and the other is not",
                    av.name, bv.name
                ));
            }
            let count = is_tools.then(|| tool_count(&a, &b));
            let findings = if is_tools {
                tools::compare_tools(&a, &b)
            } else {
                compat::compare(&a, &b, role, "", "")
            };
            (findings, count, Some(add(av)), Some(add(bv)))
        }
        (Some(((a, ak), av)), None) => {
            let f = Finding::new(
                "file-removed",
                Verdict::Breaking,
                format!("`{}` removed", av.name),
            );
            let count = (ak == FileKind::ToolsList).then(|| tool_count(&a, &Value::Null));
            (
                vec![Finding {
                    old_pointer: Some(String::new()),
                    ..f
                }],
                count,
                Some(add(av)),
                None,
            )
        }
        (None, Some(((b, bk), bv))) => {
            let f = Finding::new(
                "file-added",
                Verdict::Compatible,
                format!("`{}` added", bv.name),
            );
            let count = (bk == FileKind::ToolsList).then(|| tool_count(&Value::Null, &b));
            (
                vec![Finding {
                    new_pointer: Some(String::new()),
                    ..f
                }],
                count,
                None,
                Some(add(bv)),
            )
        }
        (None, None) => return Ok(()),
    };
    let introduced = match (old_id, new_id) {
        (Some(a), Some(b)) => introduced(settings, &diff.files[a.0], &diff.files[b.0]),
        _ => Vec::new(),
    };
    diff.pairs.push(Pair {
        old: old_id,
        new: new_id,
        findings,
        tools,
        introduced,
    });
    Ok(())
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

fn versions(args: &DiffArgs) -> Result<Vec<Versions>, String> {
    if let Some(base) = &args.base {
        if args.live.any() {
            return Err("`--base` compares files with their committed versions: not with `--server`/`--url`".to_owned());
        }
        let paths = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        return at_base(base, &paths);
    }
    match (args.paths.as_slice(), args.live.any()) {
        ([old], true) => live(old, args),
        ([old, new], false) => named(old, new),
        (_, true) => Err("with `--server`/`--url`, name OLD only (a committed dump)".to_owned()),
        _ => Err(
            "`diff` takes OLD and NEW (or `--base REF`, or OLD and `--server`/`--url`)".to_owned(),
        ),
    }
}

/// `schema-lint diff`.
pub(super) fn diff(args: &DiffArgs) -> Outcome {
    let error = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
        ..Outcome::default()
    };
    let versions = match versions(args) {
        Ok(v) => v,
        Err(why) => return error(why),
    };
    let mut settings = Settings::default();
    if !args.clients.is_empty() {
        match crate::settings::clients::parse(&args.clients) {
            Ok(clients) => settings.clients = clients,
            Err(e) => return error(format!("--clients: {e}")),
        }
    }
    let mut diff = Diff::default();
    for pair in versions {
        if let Err(why) = compare(&mut diff, pair, role(args.role), &settings) {
            return error(why);
        }
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
    Outcome {
        stdout: report::diff::render(&diff, args.output_format, style),
        stderr: String::new(),
        code: if fails { exit::FINDINGS } else { exit::CLEAN },
    }
}

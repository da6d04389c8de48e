//! `check --baseline FILE`: findings recorded once (`--write-baseline`) are not reported again,
//! so that a large project can adopt the linter and fail only on new findings. A finding is
//! matched by its rule, its file (relative to the baseline's folder) and its JSON pointer, never
//! by line or column, so edits elsewhere in the file do not invalidate the record; a count per
//! key makes a second identical finding a new one.

use crate::engine::Run;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a baseline file holds: one entry per (rule, file, pointer), with how many findings it
/// covers.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    /// The format's version: 1.
    #[serde(rename = "schema-lint-baseline")]
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Entry {
    rule: String,
    file: String,
    pointer: String,
    count: usize,
}

/// A finding's key: rule code, file, pointer.
type Key = (String, String, String);

/// What applying a baseline did to a run.
#[derive(Debug, Default)]
pub(super) struct Applied {
    /// Findings the baseline covered, dropped from the run.
    pub suppressed: usize,
    /// Entries (with how many of their findings) that no finding matched any more: fixed.
    pub stale: Vec<(Key, usize)>,
}

/// How a file is named in a baseline: its path relative to the baseline's folder, with `/`
/// between components, when it lies below it; else the name the report shows.
fn file_key(run: &Run, id: crate::syntax::source::FileId, base: &Path) -> String {
    let file = run.source(id);
    file.path
        .as_deref()
        .and_then(|p| std::fs::canonicalize(p).ok())
        .and_then(|p| p.strip_prefix(base).ok().map(Path::to_path_buf))
        .map_or_else(
            || file.name.clone(),
            |rel| {
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/")
            },
        )
}

/// The folder paths in `file` are relative to.
fn base_of(file: &Path) -> PathBuf {
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

/// Findings a baseline can hold: not SL100 (a file that does not load is an error of input, not
/// a finding to live with).
fn recordable(code: &str) -> bool {
    code != "SL100"
}

/// The keys of the run's findings, with their counts.
fn counts(run: &Run, base: &Path) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for d in run.diagnostics() {
        if !recordable(d.rule.code) {
            continue;
        }
        let key = (
            d.rule.code.to_owned(),
            file_key(run, d.file, base),
            d.pointer.clone(),
        );
        *out.entry(key).or_insert(0) += 1;
    }
    out
}

/// Reads the baseline `file`; a clear message when it cannot be read or is not one.
fn read(file: &Path) -> Result<BTreeMap<Key, usize>, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read the baseline `{}`: {e}", file.display()))?;
    let parsed: BaselineFile = serde_json::from_str(&text).map_err(|e| {
        format!(
            "`{}` is not a schema-lint baseline: {e} (`--write-baseline` writes one)",
            file.display()
        )
    })?;
    if parsed.version != 1 {
        return Err(format!(
            "`{}`: baseline version `{}` is not supported (1 is)",
            file.display(),
            parsed.version
        ));
    }
    let mut out = BTreeMap::new();
    for e in parsed.findings {
        *out.entry((e.rule, e.file, e.pointer)).or_insert(0) += e.count;
    }
    Ok(out)
}

/// Writes the run's findings to `file` (atomically), replacing what it held: fixed findings
/// are pruned. The number of findings recorded.
pub(super) fn write(run: &Run, file: &Path) -> Result<usize, String> {
    let base = base_of(file);
    let findings: Vec<Entry> = counts(run, &base)
        .into_iter()
        .map(|((rule, file, pointer), count)| Entry {
            rule,
            file,
            pointer,
            count,
        })
        .collect();
    let total = findings.iter().map(|e| e.count).sum();
    let doc = BaselineFile {
        version: 1,
        findings,
    };
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    text.push('\n');
    super::audit_live::save(file, text.as_bytes())
        .map_err(|e| format!("cannot write the baseline `{}`: {e}", file.display()))?;
    Ok(total)
}

/// Drops from `run` the findings the baseline `file` records, as many per key as it counts
/// (the first ones in report order); says how many it dropped and which entries matched less
/// than they count.
pub(super) fn apply(run: &mut Run, file: &Path) -> Result<Applied, String> {
    let mut left = read(file)?;
    let base = base_of(file);
    let mut applied = Applied::default();
    // Decide in report order (file, position, code), then drop.
    let mut drop: Vec<(usize, usize)> = Vec::new();
    let order: Vec<(crate::syntax::source::FileId, usize)> = {
        let mut all: Vec<(crate::syntax::source::FileId, usize)> = run
            .files
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| {
                (0..f.diagnostics.len()).map(move |di| (crate::syntax::source::FileId(fi), di))
            })
            .collect();
        all.sort_by(|a, b| {
            let (da, db) = (
                &run.files[a.0 .0].diagnostics[a.1],
                &run.files[b.0 .0].diagnostics[b.1],
            );
            run.files[a.0 .0]
                .file
                .name
                .cmp(&run.files[b.0 .0].file.name)
                .then_with(|| da.sort_key().cmp(&db.sort_key()))
        });
        all
    };
    for (fid, di) in order {
        let d = &run.files[fid.0].diagnostics[di];
        if !recordable(d.rule.code) {
            continue;
        }
        let key = (
            d.rule.code.to_owned(),
            file_key(run, d.file, &base),
            d.pointer.clone(),
        );
        if let Some(n) = left.get_mut(&key).filter(|n| **n > 0) {
            *n -= 1;
            drop.push((fid.0, di));
        }
    }
    applied.suppressed = drop.len();
    drop.sort_unstable();
    for (fi, di) in drop.into_iter().rev() {
        run.files[fi].diagnostics.remove(di);
    }
    applied.stale = left.into_iter().filter(|(_, n)| *n > 0).collect();
    Ok(applied)
}

/// The info lines that list the stale entries of a baseline, for standard error.
pub(super) fn stale_note(file: &Path, stale: &[(Key, usize)]) -> String {
    use std::fmt::Write as _;
    if stale.is_empty() {
        return String::new();
    }
    let total: usize = stale.iter().map(|(_, n)| n).sum();
    let mut out = format!(
        "info: {total} finding{} recorded in the baseline `{}` {} no longer found (fixed); \
         `--write-baseline` prunes {}:\n",
        if total == 1 { "" } else { "s" },
        crate::report::printable(&file.display().to_string()),
        if total == 1 { "is" } else { "are" },
        if total == 1 { "it" } else { "them" },
    );
    for ((rule, file, pointer), n) in stale {
        let times = if *n == 1 {
            String::new()
        } else {
            format!(" ({n} times)")
        };
        let pointer = if pointer.is_empty() {
            "(root)"
        } else {
            pointer
        };
        let _ = writeln!(
            out,
            "  {rule} {} {}{times}",
            crate::report::printable(file),
            crate::report::printable(pointer)
        );
    }
    out
}

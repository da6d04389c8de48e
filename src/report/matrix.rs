//! `schema-lint matrix`: who breaks on what, as a table people read. Rows are the tools of the
//! run's `tools/list` documents (and each schema file, a row of its own), columns the selected
//! clients; a cell says whether the client works with the tool, breaks on it (it rejects the
//! schema, the request or the listing, or drops the tool) or warns (it checks less, or sends the
//! model another schema), from the findings' `breaks` only: what was measured or documented,
//! never assumed.

use super::{printable, Style};
use crate::diagnostic::breaks::{Client, Effect, Evidence};
pub use crate::diagnostic::verdict::Verdict;
use crate::diagnostic::Diagnostic;
use crate::engine::Run;
use crate::schema::units::{self, FileKind};
use serde::Serialize;
use std::fmt::Write as _;

/// Why a cell is not `works`: one finding's claim about the client.
#[derive(Clone, Debug, Serialize)]
pub struct Reason {
    /// The finding's rule (`SL701`).
    pub code: &'static str,
    /// Where in the file, as a JSON pointer.
    pub pointer: String,
    /// What the claim makes of the client: the finding's `breaks` entry's verdict.
    pub verdict: Verdict,
    /// What the client does.
    pub effect: Effect,
    /// Whether the client fails only on some values the server may send.
    pub depends_on_data: bool,
    /// `measured` or `documented`.
    pub evidence: &'static str,
    /// Where a documented claim comes from.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub source: &'static [&'static str],
    /// The client's own words, as they hold for this finding (the case's values said as `…`);
    /// empty when unknown or when only the case's values would be quoted.
    pub detail: String,
    /// The other tool whose finding costs this one: the client loses the whole listing over it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// One client's cell of a row.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// The client.
    pub client: Client,
    /// What it does with the tool.
    pub verdict: Verdict,
    /// The findings' claims behind the verdict.
    pub reasons: Vec<Reason>,
}

/// One tool (or schema file) and what each client does with it.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The file (or server) it comes from.
    pub file: String,
    /// The tool's name; `None` for a schema file.
    pub tool: Option<String>,
    /// One cell per selected client, in the matrix's column order.
    pub cells: Vec<Cell>,
}

/// The table: clients as columns, tools as rows.
#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    /// The columns.
    pub clients: Vec<Client>,
    /// The rows, in file order, then tool order.
    pub rows: Vec<Row>,
}

impl Matrix {
    /// The matrix of `run` for `clients`.
    #[must_use]
    pub fn of(run: &Run, clients: &[Client]) -> Matrix {
        let mut rows = Vec::new();
        for f in run.files.iter().filter(|f| !f.is_context()) {
            let name = f.file.name.clone();
            let found: Vec<&Diagnostic> = f.diagnostics.iter().collect();
            match (f.kind(), f.tree()) {
                (Some(FileKind::ToolsList), Some(root)) => {
                    let from = rows.len();
                    for tool in units::tools(root) {
                        let inside = |pointer: &str| {
                            pointer == tool.pointer
                                || pointer.starts_with(&format!("{}/", tool.pointer))
                        };
                        // A finding grouped over several tools is about each of them: its
                        // related places hold the others.
                        let within = |d: &&Diagnostic| {
                            inside(&d.pointer)
                                || d.related
                                    .iter()
                                    .any(|l| l.file == d.file && inside(&l.pointer))
                        };
                        let mine: Vec<&Diagnostic> = found.iter().copied().filter(within).collect();
                        rows.push(Row {
                            file: name.clone(),
                            tool: Some(tool.name.unwrap_or_else(|| tool.pointer.clone())),
                            cells: cells(&mine, clients),
                        });
                    }
                    spread_lost_listings(&mut rows[from..]);
                }
                (Some(FileKind::Schema), _) => rows.push(Row {
                    file: name,
                    tool: None,
                    cells: cells(&found, clients),
                }),
                // A file that could not be read or parsed breaks every client that reads it.
                (None, _) if f.failed() => rows.push(Row {
                    file: name,
                    tool: None,
                    cells: clients
                        .iter()
                        .map(|&client| Cell {
                            client,
                            verdict: Verdict::Breaks,
                            reasons: Vec::new(),
                        })
                        .collect(),
                }),
                _ => {}
            }
        }
        Matrix {
            clients: clients.to_vec(),
            rows,
        }
    }

    /// Whether some selected client breaks on some tool.
    #[must_use]
    pub fn breaks(&self) -> bool {
        self.rows
            .iter()
            .any(|r| r.cells.iter().any(|c| c.verdict == Verdict::Breaks))
    }
}

/// A client that loses the whole listing over one tool loses every tool of the server: each
/// other row of the document breaks for it too, for the same reasons.
fn spread_lost_listings(rows: &mut [Row]) {
    let columns = rows.first().map_or(0, |r| r.cells.len());
    for column in 0..columns {
        let lost: Vec<(Reason, Option<String>)> = rows
            .iter()
            .flat_map(|r| {
                r.cells[column]
                    .reasons
                    .iter()
                    .filter(|x| x.effect == Effect::LosesToolList && x.via.is_none())
                    .map(|x| (x.clone(), r.tool.clone()))
            })
            .collect();
        if lost.is_empty() {
            continue;
        }
        for row in rows.iter_mut() {
            let cell = &mut row.cells[column];
            for (reason, tool) in &lost {
                cell.verdict = cell.verdict.max(reason.verdict);
                if !cell
                    .reasons
                    .iter()
                    .any(|r| r.code == reason.code && r.pointer == reason.pointer)
                {
                    cell.reasons.push(Reason {
                        via: tool.clone(),
                        ..reason.clone()
                    });
                }
            }
        }
    }
}

/// Each client's cell from the findings on one tool.
fn cells(found: &[&Diagnostic], clients: &[Client]) -> Vec<Cell> {
    clients
        .iter()
        .map(|&client| {
            let mut reasons = Vec::new();
            let mut verdict = Verdict::Works;
            for d in found {
                for b in d.breaks.iter().filter(|b| b.client == client) {
                    let reported = b.reported(
                        d.tool.as_ref().map(|t| t.name.as_str()),
                        d.depends_on_output,
                    );
                    verdict = verdict.max(reported.verdict);
                    reasons.push(Reason {
                        code: d.rule.code,
                        pointer: d.pointer.clone(),
                        verdict: reported.verdict,
                        effect: b.effect,
                        depends_on_data: d.depends_on_output,
                        evidence: b.evidence.name(),
                        source: match b.evidence {
                            Evidence::Documented { sources, .. } => sources,
                            Evidence::Measured => &[],
                        },
                        detail: reported.detail.unwrap_or_default(),
                        via: None,
                    });
                }
            }
            Cell {
                client,
                verdict,
                reasons,
            }
        })
        .collect()
}

/// The row's label: `file` for a schema file, `file · tool` for a tool.
fn label(row: &Row) -> String {
    match &row.tool {
        Some(tool) => format!("{} · {}", printable(&row.file), printable(tool)),
        None => printable(&row.file).into_owned(),
    }
}

/// The table for a terminal: a column per client (coloured with `style`), a line per schema
/// file, and a line per tool under a line naming its document; then why each cell that is
/// not `works` is what it is.
#[must_use]
pub fn human(matrix: &Matrix, style: Style) -> String {
    // The first column: a tool's name, indented under its file's line; a schema file's name.
    let first_of = |row: &Row| match &row.tool {
        Some(tool) => format!("  {}", printable(tool)),
        None => printable(&row.file).into_owned(),
    };
    let first = matrix
        .rows
        .iter()
        .map(|r| first_of(r).chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let widths: Vec<usize> = matrix
        .clients
        .iter()
        .map(|c| c.name().len().max("breaks".len()))
        .collect();
    let mut out = String::new();
    let _ = write!(out, "{:first$}", "tool");
    for (client, width) in matrix.clients.iter().zip(&widths) {
        let _ = write!(out, "  {:width$}", client.name());
    }
    out.push('\n');
    let mut file: Option<&str> = None;
    for row in &matrix.rows {
        if row.tool.is_some() && file != Some(row.file.as_str()) {
            let _ = writeln!(out, "{}", printable(&row.file));
        }
        file = row.tool.is_some().then_some(row.file.as_str());
        let label = first_of(row);
        let pad = first - label.chars().count();
        let _ = write!(out, "{label}{}", " ".repeat(pad));
        for (cell, width) in row.cells.iter().zip(&widths) {
            let word = cell.verdict.name();
            let padded = format!("{word:width$}");
            let shown = if style.color {
                let code = match cell.verdict {
                    Verdict::Works => "32",
                    Verdict::Warns => "33",
                    Verdict::Breaks => "1;31",
                };
                padded.replacen(word, &format!("\u{1b}[{code}m{word}\u{1b}[0m"), 1)
            } else {
                padded
            };
            let _ = write!(out, "  {}", shown.trim_end());
            if shown.len() != shown.trim_end().len() {
                out.push_str(&" ".repeat(shown.len() - shown.trim_end().len()));
            }
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    let why = reasons(matrix, |row, cell, why| {
        format!(
            "  {} · {}: {} {why}",
            label(row),
            cell.client,
            cell.verdict.name()
        )
    });
    if !why.is_empty() {
        out.push_str("\nWhy:\n");
        for line in why {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if !style.quiet {
        out.push_str(&summary(matrix));
    }
    out
}

/// One line per rule behind each cell that is not `works`, in row then column order: `line`
/// gets the row, the cell and `SL201 (compile-error, loses-tool-list; measured: `words`)`.
fn reasons(matrix: &Matrix, line: impl Fn(&Row, &Cell, &str) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for row in &matrix.rows {
        for cell in &row.cells {
            let mut done: Vec<(&str, Option<&str>)> = Vec::new();
            for reason in &cell.reasons {
                let (code, via) = (reason.code, reason.via.as_deref());
                if done.contains(&(code, via)) {
                    continue;
                }
                done.push((code, via));
                let of: Vec<&Reason> = cell
                    .reasons
                    .iter()
                    .filter(|r| r.code == code && r.via.as_deref() == via)
                    .collect();
                let mut effects: Vec<&str> = of.iter().map(|r| r.effect.name()).collect();
                effects.dedup();
                let mut evidence: Vec<&str> = of.iter().map(|r| r.evidence).collect();
                evidence.sort_unstable();
                evidence.dedup();
                let detail = of.iter().map(|r| r.detail.as_str()).find(|d| !d.is_empty());
                let words = detail.map_or(String::new(), |d| format!(": `{}`", printable(d)));
                let on = via.map_or(String::new(), |t| format!(" on `{}`", printable(t)));
                let some = if of.iter().any(|r| r.depends_on_data) {
                    " on some values the server may send"
                } else {
                    ""
                };
                let why = format!(
                    "{code}{on} ({}{some}; {}{words})",
                    effects.join(", "),
                    evidence.join(", ")
                );
                out.push(line(row, cell, &why));
            }
        }
    }
    out
}

/// `3 tools, 21 clients: 2 tools break on some client (openai-strict, gemini)`.
fn summary(matrix: &Matrix) -> String {
    let breaking: Vec<&Row> = matrix
        .rows
        .iter()
        .filter(|r| r.cells.iter().any(|c| c.verdict == Verdict::Breaks))
        .collect();
    let who: Vec<&str> = matrix
        .clients
        .iter()
        .filter(|c| {
            breaking.iter().any(|r| {
                r.cells
                    .iter()
                    .any(|x| x.client == **c && x.verdict == Verdict::Breaks)
            })
        })
        .map(|c| c.name())
        .collect();
    let rows = matrix.rows.len();
    let clients = matrix.clients.len();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let warning = matrix
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .filter(|c| c.verdict == Verdict::Warns)
        .count();
    if breaking.is_empty() && warning == 0 {
        format!(
            "\n{} × {}: every client works with every tool\n",
            plural(rows, "row"),
            plural(clients, "client")
        )
    } else if breaking.is_empty() {
        format!(
            "\n{} × {}: no client breaks on any tool; {} warn{}\n",
            plural(rows, "row"),
            plural(clients, "client"),
            plural(warning, "cell"),
            if warning == 1 { "s" } else { "" },
        )
    } else {
        format!(
            "\n{} × {}: {} break{} on {}\n",
            plural(rows, "row"),
            plural(clients, "client"),
            plural(breaking.len(), "row"),
            if breaking.len() == 1 { "s" } else { "" },
            who.join(", ")
        )
    }
}

/// The table in Markdown, for CI summaries and pull-request comments.
#[must_use]
pub fn markdown(matrix: &Matrix) -> String {
    let cell = |v: Verdict| match v {
        Verdict::Works => "✅ works",
        Verdict::Warns => "⚠️ warns",
        Verdict::Breaks => "❌ breaks",
    };
    let escape = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut out = String::from("| tool |");
    for c in &matrix.clients {
        let _ = write!(out, " `{}` |", c.name());
    }
    out.push_str("\n|---|");
    for _ in &matrix.clients {
        out.push_str("---|");
    }
    out.push('\n');
    for row in &matrix.rows {
        let _ = write!(out, "| {} |", escape(&label(row)));
        for c in &row.cells {
            let _ = write!(out, " {} |", cell(c.verdict));
        }
        out.push('\n');
    }
    let why = reasons(matrix, |row, cell, why| {
        format!(
            "- {} · `{}`: {} {}",
            escape(&label(row)),
            cell.client,
            cell.verdict.name(),
            escape(why)
        )
    });
    if !why.is_empty() {
        out.push_str("\n**Why**\n\n");
        for line in why {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The table as versioned JSON: `{"version": 1, "clients": [...], "rows": [{"file", "tool",
/// "cells": [{"client", "verdict", "reasons": [{"code", "pointer", "effect", "evidence",
/// "detail"}]}]}]}`.
#[must_use]
pub fn json(matrix: &Matrix) -> String {
    let value = serde_json::json!({
        "version": 1,
        "clients": matrix.clients,
        "rows": matrix.rows,
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

//! SL204 duplicate-id: one resolved `$id` declared twice in a document, or by two tools of one
//! `tools/list`.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL204 as META;
use crate::diagnostic::Diagnostic;
use crate::index::{RunIndex, STAND_IN_BASE};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::units::{units, FileKind, Role};
use crate::syntax::source::{FileId, Span};
use std::collections::HashMap;

pub struct DuplicateId;

/// A declared identifier: the URI it resolves to, how it is written, and where.
struct Declared {
    uri: String,
    raw: String,
    span: Span,
    /// Pointer of the subschema that declares it.
    pointer: String,
    /// Whether it is the root of its unit.
    root: bool,
}

/// The identifiers of the resources of a unit: each valid `$id` with something before its `#`.
fn declared(index: &RunIndex, file: FileId, unit: usize) -> Vec<Declared> {
    let mut out = Vec::new();
    let mut first = true;
    for i in index.resources_in(file, unit) {
        let res = &index.resources[i];
        let is_root = std::mem::take(&mut first);
        work(1);
        let Some(id) = res.id.as_ref().filter(|id| id.valid) else {
            continue;
        };
        if id.raw.split('#').next().is_none_or(str::is_empty) {
            continue;
        }
        if let Some(uri) = index.unit_uri(i) {
            out.push(Declared {
                uri,
                raw: id.raw.clone(),
                span: id.span,
                pointer: res.pointer.clone(),
                root: is_root,
            });
        }
    }
    out
}

/// Up to draft-07, each plain-name `$id` (`#foo`) of the unit, resolved against its resource.
fn plain_names(cx: &UnitContext<'_>) -> Vec<Declared> {
    let index = cx.run.index;
    let mut out = Vec::new();
    for sub in cx
        .subschemas
        .iter()
        .filter(|s| s.draft.allows_id_fragment())
    {
        let Some(member) = sub.node.member(sub.draft.id_keyword()) else {
            continue;
        };
        let Some(name) = member
            .value
            .as_str()
            .filter(|v| v.len() > 1 && v.starts_with('#'))
        else {
            continue;
        };
        let Some(resource) = index.enclosing_resource(cx.file.id, cx.unit_no, &sub.pointer) else {
            continue;
        };
        let base = index
            .unit_uri(resource)
            .unwrap_or_else(|| STAND_IN_BASE.to_owned());
        out.push(Declared {
            uri: format!("{base}{name}"),
            raw: name.to_owned(),
            span: member.value.span,
            pointer: sub.pointer.clone(),
            root: false,
        });
    }
    out
}

impl Rule for DuplicateId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let index = cx.run.index;
        let mut mine = declared(index, cx.file.id, cx.unit_no);
        mine.extend(plain_names(cx));
        mine.sort_by_key(|d| d.span.start);
        let keyword = cx.unit.draft.id_keyword();
        // Within the document: Ajv refuses any URI declared twice, even for equal subschemas.
        let mut firsts: HashMap<&str, &Declared> = HashMap::with_capacity(mine.len());
        for later in &mine {
            work(1);
            let first = *firsts.entry(later.uri.as_str()).or_insert(later);
            if std::ptr::eq(first, later) {
                continue;
            }
            let spelled = if first.raw == later.raw {
                String::new()
            } else {
                format!(" as `{}`", first.raw)
            };
            out.push(
                cx.report(later.span,
                    format!("`{keyword}` `{}` is already declared in this document{spelled}", later.raw),
                )
                .label("declared again here")
                .related(cx.file.id, first.span, "first declared here")
                .help(format!(
                    "Give one of the two subschemas another `{keyword}`, or keep one subschema in `$defs` \
                     and `$ref` it from both places"
                ))
                .note("One URI names two different subschemas, so a `$ref` to it is ambiguous")
                .class(classes::SL204_IN_DOCUMENT)
                .pointer(format!("{}/{keyword}", later.pointer)),
            );
        }
        if cx.unit.role == Role::OutputSchema {
            across_tools(cx, &mine, out);
        }
        if let Some(unit_root) = cx.root.pointer(&cx.unit.pointer) {
            seen_by_ajv(cx, &super::ajv_ids::seen(unit_root, &cx.unit.pointer), out);
        }
    }
}

/// What only Ajv's walk finds twice: a `$id` in an unknown keyword that another place declares
/// too, and an anchor (`$anchor`, `$dynamicAnchor`, a draft-07 `"$id": "#name"` reached through
/// an unknown keyword) declared twice under one base URI. Two real `$id`s are reported above.
fn seen_by_ajv(cx: &UnitContext<'_>, seen: &[super::ajv_ids::Seen<'_>], out: &mut Vec<Diagnostic>) {
    let is_anchor = |s: &super::ajv_ids::Seen<'_>| s.key.contains('#');
    // Per key (whether it is an anchor follows from the key), the first declaration, the first
    // hidden one, and the first that is hidden or no `$id`: which of them an earlier one must be
    // to clash depends on the later one only.
    let mut firsts: HashMap<&str, [Option<usize>; 3]> = HashMap::new();
    for (j, later) in seen.iter().enumerate() {
        work(1);
        let anchor = is_anchor(later);
        let slot = firsts.entry(later.key.as_str()).or_default();
        let first = if later.hidden || (anchor && later.keyword != "$id") {
            slot[0]
        } else if anchor {
            slot[2]
        } else {
            slot[1]
        };
        let kinds = [true, later.hidden, later.hidden || later.keyword != "$id"];
        for (first_of_kind, is) in slot.iter_mut().zip(kinds) {
            if is && first_of_kind.is_none() {
                *first_of_kind = Some(j);
            }
        }
        let Some(first) = first.map(|i| &seen[i]) else {
            continue;
        };
        let raw = later.value.as_str().unwrap_or_default();
        let (message, class) = if anchor {
            (
                format!(
                    "`{}` `{raw}` names an anchor already declared in this document",
                    later.keyword
                ),
                classes::SL204_DUPLICATE_ANCHOR,
            )
        } else {
            (
                format!("`$id` `{raw}` is already declared in this document, and Ajv reads this one too"),
                classes::SL204_IN_UNKNOWN_KEYWORD,
            )
        };
        let note = if later.hidden || first.hidden {
            "Ajv walks the object value of any key as a schema (not arrays, not `const`, `enum` or \
             `default`), so it collects identifiers that other engines take as data"
        } else {
            "One anchor names two subschemas of a resource, so a `$ref` to it is ambiguous"
        };
        out.push(
            cx.report(later.value.span, message)
                .label("declared again here")
                .related(cx.file.id, first.value.span, "first declared here")
                .help(if anchor {
                    "Give one of the two subschemas another anchor name"
                } else {
                    "Remove or rename the `$id` inside the unknown keyword"
                })
                .note(note)
                .class(class)
                .pointer(format!("{}/{}", later.pointer, later.keyword)),
        );
    }
}

/// In a `tools/list`, an output schema declaring a `$id` that an earlier tool's output schema
/// declares, with different content, where one of the two is a schema's root.
fn across_tools(cx: &UnitContext<'_>, mine: &[Declared], out: &mut Vec<Diagnostic>) {
    let tools = cx
        .memo
        .get_or_make("SL204/across-tools", || ToolIds::of(cx));
    let keyword = cx.unit.draft.id_keyword();
    for later in mine {
        work(1);
        // The first declaration is the one the validator cache holds.
        let Some((tool, first)) = tools.first_before(cx.unit_no, later) else {
            continue;
        };
        if same_subschema(cx, &first.pointer, &later.pointer) {
            continue;
        }
        out.push(
            cx.report(later.span,
                format!("`{keyword}` `{}` is already declared by tool `{tool}`", later.raw),
            )
            .label("declared again here")
            .related(cx.file.id, first.span, format!("first declared by tool `{tool}`"))
            .help(format!(
                "Give each tool's schema its own `{keyword}` (say, one derived from the tool's name), \
                 or drop the `{keyword}`"
            ))
            .note(format!(
                "The TypeScript clients look a compiled validator up by `$id` before they compile a \
                 schema (`getSchema($id) ?? compile(schema)`), and find tool `{tool}`'s"
            ))
            .class(classes::SL204_ACROSS_TOOLS)
            .pointer(format!("{}/{keyword}", later.pointer)),
        );
    }
}

/// The identifiers the output schemas of a `tools/list` declare, in unit order, worked out once
/// per file: for each URI, where it is declared first, and first by a schema's root.
struct ToolIds {
    /// (unit, tool, declaration), in unit order.
    declared: Vec<(usize, String, Declared)>,
    /// URI -> (first declaration, first declaration by a root), as places in `declared`.
    first: HashMap<String, (usize, Option<usize>)>,
}

impl ToolIds {
    fn of(cx: &UnitContext<'_>) -> ToolIds {
        let index = cx.run.index;
        let mut declared = Vec::new();
        let mut first: HashMap<String, (usize, Option<usize>)> = HashMap::new();
        for (u, unit) in units(cx.root, FileKind::ToolsList, cx.settings.default_draft)
            .iter()
            .enumerate()
            .filter(|(_, u)| u.role == Role::OutputSchema)
        {
            for d in self::declared(index, cx.file.id, u) {
                work(1);
                let at = declared.len();
                let slot = first.entry(d.uri.clone()).or_insert((at, None));
                if d.root && slot.1.is_none() {
                    slot.1 = Some(at);
                }
                declared.push((u, unit.tool.clone().unwrap_or_default(), d));
            }
        }
        ToolIds { declared, first }
    }

    /// The first declaration of `later`'s URI by an output schema before unit `unit`, where one
    /// of the two is a schema's root, with the tool that declares it.
    fn first_before(&self, unit: usize, later: &Declared) -> Option<(&str, &Declared)> {
        let (any, root) = *self.first.get(&later.uri)?;
        let (u, tool, first) = &self.declared[if later.root { any } else { root? }];
        (*u < unit).then_some((tool.as_str(), first))
    }
}

/// Counts steps of work, for the test that SL204 stays linear in the number of tools.
#[cfg(test)]
fn work(steps: usize) {
    tests::WORK.with(|w| w.set(w.get() + steps));
}

#[cfg(not(test))]
fn work(_steps: usize) {}

fn same_subschema(cx: &UnitContext<'_>, a: &str, b: &str) -> bool {
    match (cx.root.pointer(a), cx.root.pointer(b)) {
        (Some(x), Some(y)) => x.same_value(y, &[], &[]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::IndexInput;
    use crate::rules::{FileMemo, RunView};
    use crate::schema::walk::walk;
    use crate::settings::Settings;
    use crate::syntax::document::parse;
    use crate::syntax::source::SourceFile;
    use std::cell::Cell;
    use std::fmt::Write as _;

    thread_local! {
        pub(super) static WORK: Cell<usize> = const { Cell::new(0) };
    }

    /// Lints a `tools/list` of `n` tools, each declaring its own `$id` but every tenth, which
    /// takes an earlier tool's: the number of findings and the steps of work SL204 took.
    fn lint_tools(n: usize) -> (usize, usize) {
        let mut text = String::from("{\"tools\": [");
        for k in 0..n {
            let own = if k % 10 == 9 { k - 5 } else { k };
            let _ = write!(
                text,
                "{}{{\"name\": \"t{k}\", \"inputSchema\": {{\"type\": \"object\"}}, \
                 \"outputSchema\": {{\"$id\": \"https://e.com/{own}.json\", \"title\": \"{k}\", \
                 \"properties\": {{\"a\": {{\"$id\": \"https://e.com/{k}/a.json\"}}}}}}}}",
                if k == 0 { "" } else { "," }
            );
        }
        text.push_str("]}");
        let root = parse(&text).unwrap();
        let file = SourceFile::new(FileId(0), "tools.json".into(), None, &text, true);
        let settings = Settings::default();
        let index = RunIndex::of_file(
            &IndexInput {
                file: file.id,
                path: None,
                name: "tools.json",
                root: &root,
                kind: FileKind::ToolsList,
            },
            settings.default_draft,
        );
        let view = RunView {
            index: &index,
            files: &[],
            current: None,
            reloads: None,
        };
        let memo = FileMemo::default();
        let target = settings.target_for(FileKind::ToolsList, &root, None);
        let mut out = Vec::new();
        WORK.with(|w| w.set(0));
        for (unit_no, unit) in units(&root, FileKind::ToolsList, settings.default_draft)
            .iter()
            .enumerate()
        {
            let Some(unit_root) = root.pointer(&unit.pointer) else {
                continue;
            };
            let subschemas = walk(unit_root, &unit.pointer, unit.draft);
            let analyses = crate::rules::analysis::Analyses::default();
            let cx = UnitContext {
                rule: DuplicateId.meta(),
                clients: &crate::diagnostic::breaks::Client::DEFAULT,
                analyses: &analyses,
                file: &file,
                root: &root,
                unit,
                unit_no,
                subschemas: &subschemas,
                run: &view,
                settings: &settings,
                target,
                memo: &memo,
            };
            DuplicateId.check_unit(&cx, &mut out);
        }
        (out.len(), WORK.with(Cell::get))
    }

    #[test]
    fn the_work_grows_with_the_tools_not_with_their_square() {
        let (small, large) = (lint_tools(200), lint_tools(2_000));
        // The findings are the same ones, ten times as many: every tenth tool's `$id`.
        assert_eq!((small.0, large.0), (20, 200));
        // Ten times the tools, about ten times the work: comparing each tool's identifiers with
        // those of every earlier tool made it about a hundred times.
        assert!(
            large.1 <= 12 * small.1,
            "200 tools: {} steps, 2,000 tools: {} steps",
            small.1,
            large.1
        );
    }
}

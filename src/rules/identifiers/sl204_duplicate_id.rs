//! SL204 duplicate-id: one resolved `$id` declared twice in a document, or by two tools of one
//! `tools/list`.

use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL204 as META;
use crate::diagnostic::Diagnostic;
use crate::index::{RunIndex, STAND_IN_BASE};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::units::{units, FileKind, Role};
use crate::syntax::source::{FileId, Span};

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
        for (j, later) in mine.iter().enumerate() {
            let Some(first) = mine[..j].iter().find(|d| d.uri == later.uri) else {
                continue;
            };
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
    for (j, later) in seen.iter().enumerate() {
        let anchor = is_anchor(later);
        let first = seen[..j].iter().find(|s| {
            s.key == later.key
                && is_anchor(s) == anchor
                && (later.hidden
                    || s.hidden
                    || (anchor && (s.keyword != "$id" || later.keyword != "$id")))
        });
        let Some(first) = first else { continue };
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
    let index = cx.run.index;
    let all = units(cx.root, FileKind::ToolsList, cx.settings.default_draft);
    let earlier: Vec<(&str, Declared)> = all
        .iter()
        .enumerate()
        .take(cx.unit_no)
        .filter(|(_, u)| u.role == Role::OutputSchema)
        .flat_map(|(u, unit)| {
            let tool = unit.tool.as_deref().unwrap_or_default();
            declared(index, cx.file.id, u)
                .into_iter()
                .map(move |d| (tool, d))
        })
        .collect();
    let keyword = cx.unit.draft.id_keyword();
    for later in mine {
        // The first declaration is the one the validator cache holds.
        let Some((tool, first)) = earlier
            .iter()
            .find(|(_, d)| d.uri == later.uri && (d.root || later.root))
        else {
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

fn same_subschema(cx: &UnitContext<'_>, a: &str, b: &str) -> bool {
    match (cx.root.pointer(a), cx.root.pointer(b)) {
        (Some(x), Some(y)) => x.same_value(y, &[], &[]),
        _ => false,
    }
}

//! SL403 dialect-keyword-mismatch: a keyword spelled the way another dialect spells it, which
//! the dialect in force ignores or rejects.

use super::ancestry::{referenced_below, Ancestry};
use crate::diagnostic::breaks::classes;
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL403 as META;
use crate::diagnostic::{Diagnostic, Severity};
use crate::index::{RefEntry, Resolution};
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::schema::walk::Subschema;
use crate::syntax::document::{escape_pointer_token, Member, Node};
use crate::syntax::literal::literal;

pub struct DialectKeywordMismatch;

impl Rule for DialectKeywordMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let mut ancestry: Option<Ancestry> = None;
        // Where the references into this file land, resolved once per schema: only a
        // `$defs` that some reference lands in is reported.
        let mut landings: Option<Vec<(String, &RefEntry)>> = None;
        for (i, sub) in cx.subschemas.iter().enumerate() {
            if sub.node.as_object().is_none() {
                continue;
            }
            let mut declared = || {
                ancestry
                    .get_or_insert_with(|| Ancestry::of(cx.unit.draft, cx.subschemas))
                    .declared[i]
            };
            if sub.draft == Draft::Draft202012 {
                if let Some(items) = sub
                    .node
                    .member("items")
                    .filter(|m| m.value.as_array().is_some())
                {
                    let explicit = declared();
                    out.push(array_items(cx, sub, items, explicit));
                } else if let Some(additional) = sub.node.member("additionalItems") {
                    out.push(additional_items(cx, sub, additional));
                }
            } else if let Some(prefix) = sub.node.member("prefixItems") {
                out.push(prefix_items(cx, sub, prefix));
            }
            if sub.draft >= Draft::Draft201909 {
                if let Some(deps) = sub.node.member("dependencies") {
                    out.push(dependencies(cx, sub, deps));
                }
            } else if let Some(d) = defs_only(cx, sub, &mut landings) {
                out.push(d);
            }
        }
    }
}

fn pointer_of(sub: &Subschema<'_>, key: &str) -> String {
    format!("{}/{}", sub.pointer, escape_pointer_token(key))
}

/// How many members of `node` are called `key` (duplicates make a rename ambiguous).
fn count(node: &Node, key: &str) -> usize {
    node.as_object()
        .map_or(0, |ms| ms.iter().filter(|m| m.key == key).count())
}

/// Renames the keys `renames` (old member, new name) of one subschema, when each key occurs once
/// and no reference points into a subtree whose pointer changes.
fn rename_keys(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    renames: &[(&Member, &str)],
    title: String,
    applicability: Applicability,
) -> Option<Fix> {
    for (member, _) in renames {
        if count(sub.node, &member.key) != 1 || referenced_below(cx, &pointer_of(sub, &member.key))
        {
            return None;
        }
    }
    Some(Fix {
        title,
        applicability,
        edits: renames
            .iter()
            .map(|(member, new)| Edit {
                file: cx.file.id,
                span: member.key_span,
                content: literal(new),
            })
            .collect(),
        moves: Vec::new(),
    })
}

/// 2020-12 `items: [A, B]` (+ `additionalItems: C`): the draft-07 tuple form, which the 2020-12
/// meta-schema rejects. SL401 leaves this failure to this rule, which can repair it.
fn array_items(
    cx: &UnitContext<'_>,
    sub: &Subschema<'_>,
    items: &Member,
    declared: bool,
) -> Diagnostic {
    let additional = sub.node.member("additionalItems");
    let mut renames = vec![(items, "prefixItems")];
    if let Some(a) = additional {
        renames.push((a, "items"));
    }
    let title = if additional.is_some() {
        "Rename `items` to `prefixItems` and `additionalItems` to `items`".to_owned()
    } else {
        "Rename `items` to `prefixItems`".to_owned()
    };
    // Exact for every engine that reads the schema as 2020-12. Where the dialect is only the
    // default, or on MCP targets (the TS v1 client reads every schema as draft-07), an engine may
    // read the old spelling as a draft-07 tuple, and the rename would change what it checks.
    let applicability = if declared && !cx.target.is_mcp() {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    let fix = if sub.node.get("prefixItems").is_some() {
        None
    } else {
        rename_keys(cx, sub, &renames, title, applicability)
    };
    let blocked_by_ref = fix.is_none()
        && renames
            .iter()
            .any(|(m, _)| referenced_below(cx, &pointer_of(sub, &m.key)));
    let mut diagnostic = cx.report(items.key_span,
        "`items` holds an array, which 2020-12 spells `prefixItems`",
    )
    .severity(Severity::Error)
    .label("array-form `items`")
    .help(format!(
        "{}{}",
        match additional {
            Some(_) => "Rename `items` to `prefixItems`, and `additionalItems` (removed in 2020-12) to `items`",
            None => "Rename `items` to `prefixItems`",
        },
        if blocked_by_ref {
            ", and update the `$ref`s that point into them (not done automatically)"
        } else {
            ""
        }
    ))
    .note(
        "2020-12 moved the tuple form of `items` to `prefixItems` and gave `items` the role of \
         `additionalItems`: the 2020-12 meta-schema rejects an array here, while a draft-07 engine \
         reads it as a tuple",
    )
    .class(classes::SL403_ITEMS_ARRAY)
    .pointer(pointer_of(sub, "items"));
    if let Some(a) = additional {
        diagnostic = diagnostic.related(
            cx.file.id,
            a.key_span,
            "`additionalItems` is not a 2020-12 keyword",
        );
    }
    match fix {
        Some(fix) => diagnostic.fix(fix),
        None => diagnostic,
    }
}

/// 2020-12 `additionalItems` without array-form `items`: a keyword 2020-12 removed.
fn additional_items(cx: &UnitContext<'_>, sub: &Subschema<'_>, additional: &Member) -> Diagnostic {
    // With `prefixItems` and no `items`, `additionalItems` was meant as 2020-12 `items`. Engines
    // that follow 2020-12 ignore it today, so the rename changes what they accept: unsafe.
    let fix = (sub.node.get("prefixItems").is_some() && sub.node.get("items").is_none())
        .then(|| {
            rename_keys(
                cx,
                sub,
                &[(additional, "items")],
                "Rename `additionalItems` to `items`".to_owned(),
                Applicability::Unsafe,
            )
        })
        .flatten();
    let diagnostic = cx.report(additional.key_span,
        "`additionalItems` is not a 2020-12 keyword: `items` took its role",
    )
    .label("removed in 2020-12")
    .help("Use `items` for the elements after `prefixItems`")
    .note(
        "2020-12 removed `additionalItems`: an engine that reads the schema as 2020-12 does not \
         apply it, so the elements it was meant to restrict pass unchecked",
    )
    .class(classes::SL403_ADDITIONAL_ITEMS)
    .pointer(pointer_of(sub, "additionalItems"));
    match fix {
        Some(fix) => diagnostic.fix(fix),
        None => diagnostic,
    }
}

/// `prefixItems` under draft-04/06/07 or 2019-09: an unknown keyword there.
fn prefix_items(cx: &UnitContext<'_>, sub: &Subschema<'_>, prefix: &Member) -> Diagnostic {
    let items = sub.node.member("items");
    let fix = match (items, sub.node.get("additionalItems")) {
        _ if prefix.value.as_array().is_none() => None,
        (_, Some(_)) => None,
        (Some(i), None) if i.value.as_array().is_some() => None,
        (Some(i), None) => rename_keys(
            cx,
            sub,
            &[(prefix, "items"), (i, "additionalItems")],
            "Rename `prefixItems` to `items` and `items` to `additionalItems`".to_owned(),
            Applicability::Unsafe,
        ),
        (None, None) => rename_keys(
            cx,
            sub,
            &[(prefix, "items")],
            "Rename `prefixItems` to `items`".to_owned(),
            Applicability::Unsafe,
        ),
    };
    let draft = sub.draft;
    let diagnostic = cx.report(prefix.key_span,
        format!("`prefixItems` is not a {draft} keyword: the tuple is not checked"),
    )
    .label(format!("unknown in {draft}"))
    .help(format!(
        "In {draft} a tuple is `items: [...]`, with `additionalItems` for the elements after it; or \
         declare `{}`",
        Draft::Draft202012.uri()
    ))
    .note(format!(
        "`prefixItems` arrived in 2020-12: an engine that reads the schema as {draft} ignores it, so \
         the tuple is not checked"
    ))
    .class(classes::SL403_PREFIX_ITEMS)
    .pointer(pointer_of(sub, "prefixItems"));
    match fix {
        Some(fix) => diagnostic.fix(fix),
        None => diagnostic,
    }
}

/// `dependencies` under 2019-09 or 2020-12, which split it in two.
fn dependencies(cx: &UnitContext<'_>, sub: &Subschema<'_>, deps: &Member) -> Diagnostic {
    let draft = sub.draft;
    cx.report(deps.key_span,
        format!("`dependencies` is not a {draft} keyword: it was split into `dependentRequired` and `dependentSchemas`"),
    )
    .label(format!("replaced in {draft}"))
    .help("Move the entries whose value is an array of property names to `dependentRequired`, and those whose value is a schema to `dependentSchemas`")
    .note(format!(
        "2019-09 split `dependencies` into `dependentRequired` and `dependentSchemas`; engines \
         disagree on whether a {draft} schema still means anything by it"
    ))
    .class(classes::SL403_DEPENDENCIES)
    .pointer(pointer_of(sub, "dependencies"))
}

/// `$defs` under draft-04/06/07, used as the definitions container: the subschema has a `$defs`
/// object, no `definitions`, and a `$ref` of the run lands inside the `$defs`.
fn defs_only<'a>(
    cx: &UnitContext<'a>,
    sub: &Subschema<'_>,
    landings: &mut Option<Vec<(String, &'a RefEntry)>>,
) -> Option<Diagnostic> {
    let defs = sub.node.member("$defs")?;
    if defs.value.as_object().is_none_or(<[Member]>::is_empty)
        || sub.node.get("definitions").is_some()
    {
        return None;
    }
    let container = pointer_of(sub, "$defs");
    // Only references whose document part names a resource of this file can land in it.
    let landings = landings.get_or_insert_with(|| {
        let index = cx.run.index;
        index
            .refs_into(cx.file.id)
            .filter_map(|r| match index.resolve(r, |f| cx.run.root(f)) {
                Resolution::Found { file, pointer } if file == cx.file.id => Some((pointer, r)),
                _ => None,
            })
            .collect()
    });
    let (_, first) = landings.iter().find(|(pointer, _)| {
        crate::syntax::document::is_within(pointer, &container) && *pointer != container
    })?;
    let draft = sub.draft;
    let mut diagnostic = cx.report(defs.key_span,
        format!("`$defs` is not a {draft} keyword: its entries are not schemas there"),
    )
    .label(format!("unknown in {draft}; {draft} uses `definitions`"))
    .help(format!(
        "Rename `$defs` to `definitions` and the `$ref`s into it (`#/$defs/X` becomes `#/definitions/X`), \
         or declare `{}`",
        Draft::Draft202012.uri()
    ))
    .note(format!(
        "`$defs` arrived in 2019-09. A `#/$defs/...` reference resolves as a plain JSON pointer, but \
         the entries are not schemas in {draft}: tools that walk {draft} schemas by keyword (bundlers, \
         code generators, this linter) skip them, and a `$id` or anchor inside is an engine's choice \
         to honour"
    ))
    .class(classes::SL403_DEFS)
    .pointer(container);
    if first.file == cx.file.id {
        diagnostic = diagnostic.related(first.file, first.span, "refers into `$defs`");
    }
    Some(diagnostic)
}

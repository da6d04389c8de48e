//! SL402 unknown-dialect: the root `$schema` names no dialect clients support; on MCP targets,
//! also an older dialect that strict hosts reject.

use super::sl402_respell::{reads_the_same_in_2020_12, respelling, without_stamp, Respelling};
use crate::diagnostic::breaks::{classes, Kind};
use crate::diagnostic::fix::{Applicability, Edit, Fix};
use crate::diagnostic::meta::SL402 as META;
use crate::diagnostic::verdict;
use crate::diagnostic::{Diagnostic, Severity};
use crate::index::Resolution;
use crate::rules::analysis::generator::Generator;
use crate::rules::edits::members::removal_span;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::schema::units::Role;
use crate::syntax::document::{Member, Node};
use crate::syntax::literal::literal;

pub struct UnknownDialect;

const UNKNOWN_NOTE: &str = "An engine knows the dialects it implements by their meta-schema URIs \
(`http://json-schema.org/draft-07/schema#`, `https://json-schema.org/draft/2020-12/schema`); what \
it does with another one is its own choice";

const HTTPS_NOTE: &str =
    "The draft-04, draft-06 and draft-07 meta-schemas are named with `http:`. \
Python's jsonschema looks a `$schema` up as written and reads a schema whose `$schema` it does \
not know as 2020-12, where this schema means something else";

const STRICT_HOSTS_NOTE: &str = "MCP 2025-11-25 made 2020-12 the default dialect, and hosts \
whose validator supports 2020-12 only refuse the tool when it is called; the TS v1 server stamps \
draft-07 on every schema it generates";

const STAMP_NOTE: &str = "Hosts that validate a tool's arguments with Ajv's default class \
(`new Ajv()`, draft-07) first check the schema against the meta-schema its `$schema` names, and \
that class has none for 2020-12: the call fails before it reaches the server. Without `$schema` \
an input schema is 2020-12 all the same, MCP's default dialect since 2025-11-25";

impl Rule for UnknownDialect {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.root.pointer(&cx.unit.pointer) else {
            return;
        };
        let Some(member) = root.member("$schema") else {
            return;
        };
        let Some(value) = member.value.as_str() else {
            return;
        };
        let pointer = format!("{}/$schema", cx.unit.pointer);
        match Draft::from_schema_uri(value) {
            None => out.push(unknown(cx, member, value).pointer(pointer)),
            // Python's jsonschema knows these dialects by their `http:` URIs only.
            Some(draft)
                if draft <= Draft::Draft7
                    && value.starts_with("https:")
                    && !reads_the_same_in_2020_12(root, draft) =>
            {
                out.push(https_legacy(cx, member, value, draft).pointer(pointer));
            }
            // No MCP client validates anything against an input schema when it lists the tools,
            // and hosts read them as they come: an older dialect there breaks nobody.
            Some(draft)
                if cx.target.is_mcp()
                    && draft < Draft::Draft201909
                    && cx.unit.role != Role::InputSchema =>
            {
                let ids = if draft == Draft::Draft4 {
                    draft4_ids(cx)
                } else {
                    Draft4Ids::None
                };
                out.push(legacy(cx, root, member, draft, ids).pointer(pointer));
            }
            // Hosts that compile the arguments' schema with Ajv's draft-07 class refuse the
            // stamp (measured on each as it constructed Ajv): reported where one of the selected
            // hosts, at its selected version, is such a host.
            Some(Draft::Draft202012)
                if cx.target.is_mcp()
                    && cx.unit.role == Role::InputSchema
                    && refusing_host_selected(cx) =>
            {
                out.push(stamp_2020_12(cx, root, member, value).pointer(pointer));
            }
            Some(_) => {}
        }
    }
}

/// Whether a selected host, at its selected version, refuses a 2020-12 `$schema` in an input
/// schema (`SL402/2020-12-stamp`). A model provider the class also names (Gemini's function
/// declarations refuse any `$schema`) is SL707's business, and is no reason to report here.
fn refusing_host_selected(cx: &UnitContext<'_>) -> bool {
    let claims = verdict::holding(
        std::borrow::Cow::Borrowed(classes::SL402_2020_12_STAMP.breaks),
        &cx.settings.versions,
    );
    claims
        .iter()
        .any(|b| b.client.kind() == Kind::Host && cx.clients.contains(&b.client))
}

/// A 2020-12 `$schema` at the root of an input schema: the fix drops it, which changes nothing
/// of what the schema means where 2020-12 is the default (MCP since 2025-11-25; the TS v2
/// client's Ajv2020, Python's `jsonschema` and the crate read a schema without one as 2020-12,
/// and the TS v1 client reads every schema as draft-07, stamped or not: measured).
fn stamp_2020_12(cx: &UnitContext<'_>, root: &Node, member: &Member, value: &str) -> Diagnostic {
    let members = root.as_object().unwrap_or_default();
    let stamps: Vec<usize> = (0..members.len())
        .filter(|&i| members[i].key == "$schema")
        .collect();
    let fix = match stamps.as_slice() {
        [i] if !cx.live() => Some(Fix {
            title: "Remove `$schema`".to_owned(),
            // What goes over the wire changes, and so does what hosts that read a schema
            // without `$schema` as draft-07 check (a 2020-12 keyword such as `prefixItems`).
            applicability: Applicability::Unsafe,
            edits: vec![Edit {
                file: cx.file.id,
                span: removal_span(root, members, *i),
                content: String::new(),
            }],
            moves: Vec::new(),
        }),
        _ => None,
    };
    let help = if cx.live() {
        "Leave `$schema` out of the tools' input schemas where the server writes them: MCP reads \
         an input schema without one as 2020-12 (zod 4's `z.toJSONSchema` stamps it; drop the \
         key from its result)"
    } else {
        "Remove `$schema`: MCP reads an input schema without one as 2020-12 (`--unsafe-fixes` \
         does it)"
    };
    let diagnostic = cx
        .report(
            member.value.span,
            format!(
                "`$schema` `{value}` in an input schema makes hosts that validate arguments with \
                 Ajv's draft-07 class fail the tool's calls"
            ),
        )
        .label("2020-12, which Ajv's default class has no meta-schema for")
        .help(help)
        .note(STAMP_NOTE)
        .class(classes::SL402_2020_12_STAMP);
    match fix {
        Some(fix) => diagnostic.fix(fix),
        None => diagnostic,
    }
}

/// How a draft-04 schema uses its `id` keyword, which Ajv's draft-07 class (the TS v1 client's)
/// does not know (measured): it throws on a schema object with a string `id` that it compiles,
/// and cannot resolve a `$ref` that names an `id` (it never registers one).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Draft4Ids {
    /// No `id` that matters to Ajv: none, or only in `definitions` entries nothing reaches.
    None,
    /// An `id` in a schema object Ajv compiles: the root, a subschema outside `definitions`, or
    /// an entry a `$ref` reaches by its JSON pointer. Ajv throws while compiling.
    Compiled,
    /// An `id` only in `definitions` entries, which a `$ref` names by that `id`: Ajv cannot
    /// resolve the `$ref`.
    NamedById,
}

fn draft4_ids(cx: &UnitContext<'_>) -> Draft4Ids {
    let with_id: Vec<&str> = cx
        .subschemas
        .iter()
        .filter(|s| s.id().is_some())
        .map(|s| s.pointer.as_str())
        .collect();
    if with_id.is_empty() {
        return Draft4Ids::None;
    }
    let unit = cx.unit.pointer.as_str();
    let in_definitions = |p: &str| {
        p.strip_prefix(unit)
            .is_some_and(|rest| rest.split('/').any(|t| t == "definitions"))
    };
    if with_id.iter().any(|p| !in_definitions(p)) {
        return Draft4Ids::Compiled;
    }
    let index = cx.run.index;
    let mut named = false;
    for r in index.refs_in(cx.file.id, cx.unit_no) {
        let Resolution::Found { file, pointer } = index.resolve(r, |f| cx.run.root(f)) else {
            continue;
        };
        if file != cx.file.id || !with_id.iter().any(|p| within(&pointer, p)) {
            continue;
        }
        if r.raw.starts_with("#/") {
            return Draft4Ids::Compiled;
        }
        named = true;
    }
    if named {
        Draft4Ids::NamedById
    } else {
        Draft4Ids::None
    }
}

/// Whether `pointer` is `at` or below it.
fn within(pointer: &str, at: &str) -> bool {
    pointer
        .strip_prefix(at)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// What kind of unknown `$schema` a value is.
enum Unknown {
    /// Not an absolute URI: a typo or a name (`draft-07`).
    NotAUri,
    /// A json-schema.org URI of no supported dialect: draft-03, the unversioned `schema#`, a typo.
    Official,
    /// Another host: a custom meta-schema.
    Custom,
}

fn classify(value: &str) -> Unknown {
    match fluent_uri::Uri::parse(value) {
        Err(_) => Unknown::NotAUri,
        Ok(uri) => {
            let host = uri.authority().map(|a| a.host().to_ascii_lowercase());
            if host.as_deref() == Some("json-schema.org")
                || host.as_deref() == Some("www.json-schema.org")
            {
                Unknown::Official
            } else {
                Unknown::Custom
            }
        }
    }
}

fn unknown(cx: &UnitContext<'_>, member: &Member, value: &str) -> Diagnostic {
    let kind = classify(value);
    // A custom meta-schema is legitimate JSON Schema: only engines it is registered with can use
    // it, so it is a portability warning outside MCP, where the TS v2 client rejects it.
    let severity = match kind {
        Unknown::Custom if !cx.target.is_mcp() => Severity::Warning,
        _ => Severity::Error,
    };
    let suggestion = Draft::ALL.iter().rev().find(|d| {
        let token = match d {
            Draft::Draft4 => "draft-04",
            Draft::Draft6 => "draft-06",
            Draft::Draft7 => "draft-07",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        };
        value.contains(token)
    });
    let help = match (suggestion, &kind) {
        (Some(d), _) => format!("Did you mean `{}`?", d.uri()),
        (None, Unknown::Custom) => format!(
            "Only engines that have this meta-schema registered can use the schema: if it uses no \
             custom keyword, declare the dialect it extends, such as `{}`",
            Draft::Draft202012.uri()
        ),
        (None, _) => format!(
            "Declare a supported dialect: `{}` (the MCP default), 2019-09, draft-07, draft-06 or draft-04",
            Draft::Draft202012.uri()
        ),
    };
    let label = match kind {
        Unknown::NotAUri => "not a meta-schema URI",
        Unknown::Official => "no supported dialect has this URI",
        Unknown::Custom => "custom meta-schema",
    };
    cx.report(
        member.value.span,
        format!("`$schema` `{value}` names a dialect that clients do not support"),
    )
    .severity(severity)
    .label(label)
    .help(help)
    .note(UNKNOWN_NOTE)
    .class(if is_unversioned(value) {
        classes::SL402_UNVERSIONED
    } else if fluent_uri::Uri::parse(value).is_err() {
        // Python with its format extras also checks `$schema` as a URI (`format: uri`).
        classes::SL402_NOT_A_URI
    } else {
        classes::SL402_UNKNOWN
    })
}

/// json-schema.org's URI of "the latest" meta-schema, which names no draft
/// (`http://json-schema.org/schema#`): the Python clients and the crate read it as their
/// default dialect, TS v2 refuses it as an unsupported dialect.
fn is_unversioned(value: &str) -> bool {
    let bare = value.trim_end_matches('#');
    bare == "http://json-schema.org/schema" || bare == "https://json-schema.org/schema"
}

fn https_legacy(cx: &UnitContext<'_>, member: &Member, value: &str, draft: Draft) -> Diagnostic {
    cx.report(
        member.value.span,
        format!("`$schema` `{value}` names {draft} with `https:`, which not every engine knows"),
    )
    .label("`https:`, where the meta-schema's URI has `http:`")
    .help(format!("Write `{}`", draft.uri()))
    .note(HTTPS_NOTE)
    .class(classes::SL402_HTTPS_LEGACY)
    .fix(Fix {
        title: format!("Write `{}`", draft.uri()),
        // Python's jsonschema then reads another dialect: what validates there changes.
        applicability: Applicability::Unsafe,
        edits: vec![Edit {
            file: cx.file.id,
            span: member.value.span,
            content: literal(draft.uri()),
        }],
        moves: Vec::new(),
    })
}

fn legacy(
    cx: &UnitContext<'_>,
    root: &Node,
    member: &Member,
    draft: Draft,
    ids: Draft4Ids,
) -> Diagnostic {
    let (severity, message, class) = if draft == Draft::Draft4 {
        (
            Severity::Error,
            format!("`$schema` declares {draft}, which not every MCP client can validate"),
            match ids {
                Draft4Ids::Compiled => classes::SL402_DRAFT4_ID,
                Draft4Ids::NamedById => classes::SL402_DRAFT4_NESTED_ID,
                Draft4Ids::None => classes::SL402_DRAFT4,
            },
        )
    } else {
        (
            Severity::Warning,
            format!(
                "`$schema` declares {draft}, which some MCP hosts (Claude Code, Claude Desktop) \
                 reject; the SDK clients accept it"
            ),
            classes::SL402_LEGACY,
        )
    };
    let note = STRICT_HOSTS_NOTE;
    let respelled = respelling(cx, root, draft);
    let fix = respelled.as_ref().and_then(|r| without_stamp(cx, root, r));
    let help = legacy_help(cx, draft, respelled.as_ref().filter(|_| fix.is_some()));
    let diagnostic = cx
        .report(member.value.span, message)
        .severity(severity)
        .label(format!("{draft}"))
        .help(help)
        .note(note)
        .class(class);
    match fix {
        Some(fix) => diagnostic.fix(fix),
        None => diagnostic,
    }
}

/// What to do about a legacy dialect on an MCP target: where the schema shows the TS SDK v1
/// server (zod's draft-07 stamp), what to change in the server; where the schema can be
/// respelled in 2020-12 and left unstamped, that (by `--unsafe-fixes` on a file; in the server on
/// a live run, which takes no fix). Checked with `@modelcontextprotocol/sdk` 1.32.2 (`McpServer`
/// lists every schema with `"$schema": "http://json-schema.org/draft-07/schema#"`; a
/// `tools/list` handler set with `server.server.setRequestHandler(ListToolsRequestSchema, ...)`
/// after `registerTool` replaces its listing, and calls still reach the tool) and
/// `@modelcontextprotocol/server` 2.4.0 (stamps 2020-12).
fn legacy_help(cx: &UnitContext<'_>, draft: Draft, fixable: Option<&Respelling>) -> String {
    let declare = Draft::Draft202012.uri();
    let ts_v1 = draft == Draft::Draft7 && cx.generator() == Some(Generator::Zod);
    if ts_v1 {
        let server = "The TS SDK v1 `McpServer` (measured on 1.32.2) stamps draft-07 on every \
             schema it lists: move to `@modelcontextprotocol/server` v2, which stamps 2020-12, or \
             re-emit the schemas in a `tools/list` handler of your own \
             (`server.server.setRequestHandler(ListToolsRequestSchema, ...)`, each schema from \
             `z.toJSONSchema(schema, { target: \"draft-2020-12\" })`)";
        return if fixable.is_some() && !cx.live() {
            format!(
                "{server}. In this file, `--unsafe-fixes` removes the draft-07 `$schema`{}",
                fixable.map_or(String::new(), Respelling::also)
            )
        } else {
            server.to_owned()
        };
    }
    match (fixable, cx.live()) {
        (Some(r), false) if r.renames.is_empty() => format!(
            "The schema uses no keyword whose meaning differs between {draft} and 2020-12: \
             remove `$schema`, and MCP reads it as 2020-12, its default dialect \
             (`--unsafe-fixes` does it)"
        ),
        (Some(r), false) => format!(
            "Respelled in 2020-12 ({}), the schema means what it means in {draft}: respell it \
             and remove `$schema`, and MCP reads it as 2020-12, its default dialect \
             (`--unsafe-fixes` does it)",
            r.list()
        ),
        (Some(r), true) if r.renames.is_empty() => format!(
            "The schema uses no keyword whose meaning differs between {draft} and 2020-12: \
             declare `{declare}` where the server writes the schema's `$schema`"
        ),
        _ => format!(
            "Generate 2020-12 schemas in the server (a tuple's `items` array is \
             `prefixItems` there, `dependencies` is `dependentRequired`/`dependentSchemas`) and \
             declare `{declare}`"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_custom_meta_schemas_from_typos() {
        assert!(matches!(classify("draft-07"), Unknown::NotAUri));
        assert!(matches!(
            classify("http://json-schema.org/draft-03/schema#"),
            Unknown::Official
        ));
        assert!(matches!(
            classify("http://localhost:1234/draft2020-12/metaschema-no-validation.json"),
            Unknown::Custom
        ));
    }
}

//! SL402 unknown-dialect: the root `$schema` names no dialect clients support; on MCP targets,
//! also an older dialect that strict hosts reject.

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
use crate::syntax::document::{escape_pointer_token, Member, Node, NodeKind};
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

/// The keys a draft-06/07 schema must have renamed to mean the same in 2020-12, if it can be
/// respelled exactly: [`respelling`].
struct Respelling {
    /// The edits, each a key renamed, in document order.
    edits: Vec<Edit>,
    /// The renames, each once (`items` to `prefixItems`), in the order first met.
    renames: Vec<(&'static str, &'static str)>,
}

impl Respelling {
    /// `` `items` as `prefixItems`, `dependencies` as `dependentRequired` ``.
    fn list(&self) -> String {
        self.renames
            .iter()
            .map(|(old, new)| format!("`{old}` as `{new}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What the fix does beside removing `$schema`, as the end of a sentence.
    fn also(&self) -> String {
        if self.renames.is_empty() {
            String::new()
        } else {
            format!(" and respells {}", self.list())
        }
    }
}

/// The fix of a draft-06/07 `$schema` on an MCP target: the schema respelled in 2020-12, and the
/// stamp removed, so that hosts that read 2020-12 only (Claude) and hosts that compile with Ajv's
/// draft-07 class (which has no 2020-12 meta-schema) both take it; MCP reads a schema without
/// `$schema` as 2020-12. None where the root has `$schema` twice.
fn without_stamp(cx: &UnitContext<'_>, root: &Node, respelled: &Respelling) -> Option<Fix> {
    let members = root.as_object()?;
    let stamps: Vec<usize> = (0..members.len())
        .filter(|&i| members[i].key == "$schema")
        .collect();
    let [i] = stamps.as_slice() else {
        return None;
    };
    let mut edits = respelled.edits.clone();
    edits.push(Edit {
        file: cx.file.id,
        span: removal_span(root, members, *i),
        content: String::new(),
    });
    let title = if respelled.renames.is_empty() {
        "Remove `$schema` (2020-12, MCP's default)".to_owned()
    } else {
        format!(
            "Respell {} for 2020-12 and remove `$schema`",
            respelled.list()
        )
    };
    Some(Fix {
        title,
        // What goes over the wire changes, and so does what an engine that reads every schema
        // as draft-07 (the TS v1 client, the hosts' Ajv) checks of a respelled keyword.
        applicability: Applicability::Unsafe,
        edits,
        moves: Vec::new(),
    })
}

/// How a draft-06/07 schema reads the same in 2020-12: the keys to rename (a tuple's `items`
/// array to `prefixItems`, where it has no `additionalItems`; `dependencies` to
/// `dependentRequired` where every entry lists property names, to `dependentSchemas` where every
/// entry is a schema), each at a subschema of the walk, given once there, with no reference into
/// it; and otherwise what [`reads_the_same_in_2020_12`] asks. `#/definitions/...` references
/// resolve the same in 2020-12 (a JSON pointer), and are left alone. None where the schema cannot
/// be respelled so: a keyword of [`DIFFERING`] anywhere else (data included, `additionalItems`
/// too), an embedded `$schema` below a key to rename, mixed `dependencies`. An engine that reads
/// the unstamped result as draft-07 does not check a respelled keyword, and refuses nothing the
/// original accepts.
fn respelling(cx: &UnitContext<'_>, root: &Node, draft: Draft) -> Option<Respelling> {
    if draft != Draft::Draft7 && draft != Draft::Draft6 {
        return None;
    }
    let schemas: std::collections::HashSet<&str> =
        cx.subschemas.iter().map(|s| s.pointer.as_str()).collect();
    let mut out = Respelling {
        edits: Vec::new(),
        renames: Vec::new(),
    };
    let mut walk = Respeller {
        cx,
        draft,
        schemas: &schemas,
        root: &cx.unit.pointer,
        nested_schema: false,
        out: &mut out,
    };
    if !walk.node(root, &cx.unit.pointer) {
        return None;
    }
    let nested_schema = walk.nested_schema;
    // An embedded `$schema` keeps its subtree in its own dialect for the engines that honour it:
    // respelled keys there would change its meaning.
    (out.renames.is_empty() || !nested_schema).then_some(out)
}

/// The walk of [`respelling`].
struct Respeller<'c, 'a, 'b> {
    cx: &'c UnitContext<'a>,
    draft: Draft,
    /// The pointers of the unit's subschemas: where a key is a keyword.
    schemas: &'b std::collections::HashSet<&'c str>,
    root: &'b str,
    /// Whether a subschema below the root has a `$schema`.
    nested_schema: bool,
    out: &'b mut Respelling,
}

impl Respeller<'_, '_, '_> {
    fn node(&mut self, node: &Node, pointer: &str) -> bool {
        match &node.kind {
            NodeKind::Array(items) => items
                .iter()
                .enumerate()
                .all(|(i, n)| self.node(n, &format!("{pointer}/{i}"))),
            NodeKind::Object(members) => {
                let is_schema = self.schemas.contains(pointer);
                let has_ref = members.iter().any(|m| m.key == "$ref");
                for m in members {
                    let key = m.key.as_str();
                    let child = format!("{pointer}/{}", escape_pointer_token(key));
                    if is_schema && key == "$schema" && pointer != self.root {
                        self.nested_schema = true;
                    }
                    if has_ref
                        && !INERT_BESIDE_REF.contains(&key)
                        && !(key == "type" && self.same_type_as_target(node, &m.value))
                    {
                        return false;
                    }
                    let rename = if is_schema { renamed(node, m) } else { None };
                    if let Some(new) = rename {
                        if !self.rename(node, m, new, &child) {
                            return false;
                        }
                    } else if DIFFERING.contains(&key)
                        || (self.draft == Draft::Draft6 && NOT_IN_DRAFT6.contains(&key))
                        || (key == "items" && m.value.as_array().is_some())
                    {
                        return false;
                    }
                    if !self.node(&m.value, &child) {
                        return false;
                    }
                }
                true
            }
            _ => true,
        }
    }
}

impl Respeller<'_, '_, '_> {
    /// Renames the key of `member` (at `pointer`) of the subschema `schema` to `new`, unless it
    /// is given twice, `new` is there already, or a reference lands below it.
    fn rename(&mut self, schema: &Node, member: &Member, new: &'static str, pointer: &str) -> bool {
        let key = member.key.as_str();
        let once = schema
            .as_object()
            .is_some_and(|ms| ms.iter().filter(|o| o.key == key).count() == 1);
        if !once || schema.get(new).is_some() || super::ancestry::referenced_below(self.cx, pointer)
        {
            return false;
        }
        self.out.edits.push(Edit {
            file: self.cx.file.id,
            span: member.key_span,
            content: literal(new),
        });
        let pair = (keyword(key), new);
        if !self.out.renames.contains(&pair) {
            self.out.renames.push(pair);
        }
        true
    }

    /// Whether a `type` beside a `$ref` says what the `$ref`'s target says (its `type`, the same
    /// value): draft-07 ignores it, 2020-12 applies it to no effect. SL501's fix writes `"type":
    /// "object"` beside a root `$ref` to an object. Only a `#/` pointer into the unit is
    /// followed.
    fn same_type_as_target(&self, holder: &Node, value: &Node) -> bool {
        let Some(fragment) = holder
            .get("$ref")
            .and_then(Node::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .filter(|f| f.starts_with('/') && !f.contains('%'))
        else {
            return false;
        };
        let Some(unit) = self.cx.root.pointer(&self.cx.unit.pointer) else {
            return false;
        };
        let Some(target) = unit.pointer(fragment).and_then(|t| t.get("type")) else {
            return false;
        };
        let names = |n: &Node| -> Option<Vec<String>> {
            match n.as_str() {
                Some(one) => Some(vec![one.to_owned()]),
                None => n
                    .as_array()?
                    .iter()
                    .map(|t| t.as_str().map(str::to_owned))
                    .collect(),
            }
        };
        names(value).is_some_and(|v| names(target) == Some(v))
    }
}

/// The `'static` spelling of a keyword [`renamed`] renames.
fn keyword(key: &str) -> &'static str {
    if key == "items" {
        "items"
    } else {
        "dependencies"
    }
}

/// The 2020-12 name of a member of a draft-06/07 subschema, where 2020-12 spells it otherwise and
/// the respelling is exact.
fn renamed(schema: &Node, member: &Member) -> Option<&'static str> {
    match member.key.as_str() {
        // Not with `additionalItems`, which 2020-12 spells `items`: an engine that reads the
        // unstamped schema as draft-07 (the TS v1 client, the hosts' Ajv) applies that `items`
        // to every element, and refuses tuples the original accepts (measured).
        "items" if member.value.as_array().is_some() && schema.get("additionalItems").is_none() => {
            Some("prefixItems")
        }
        "dependencies" => {
            let entries = member.value.as_object()?;
            let names = |n: &Node| {
                n.as_array()
                    .is_some_and(|a| a.iter().all(|v| v.as_str().is_some()))
            };
            let schema_like = |n: &Node| n.as_object().is_some() || n.as_bool().is_some();
            if entries.is_empty() {
                None
            } else if entries.iter().all(|e| names(&e.value)) {
                Some("dependentRequired")
            } else if entries.iter().all(|e| schema_like(&e.value)) {
                Some("dependentSchemas")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Keywords whose meaning differs between draft-06/07 and 2020-12, or which only one of them
/// knows: a schema using any of them (anywhere, data included, to stay on the safe side) is not
/// rewritten.
pub(super) const DIFFERING: [&str; 19] = [
    "additionalItems",
    "dependencies",
    "$id",
    "id",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
];

/// Keywords draft-06 does not have and 2020-12 applies.
pub(super) const NOT_IN_DRAFT6: [&str; 5] = ["if", "then", "else", "minContains", "maxContains"];

/// Keywords that may sit beside `$ref` without effect in either dialect (draft-07 ignores every
/// sibling of `$ref`; 2020-12 applies them).
const INERT_BESIDE_REF: [&str; 10] = [
    "$ref",
    "$schema",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "definitions",
    "$defs",
];

/// Whether every engine validates the same instances when `$schema` changes from `draft` to
/// 2020-12: no keyword of [`DIFFERING`], no array-form `items`, nothing but annotations beside a
/// `$ref`.
pub(super) fn reads_the_same_in_2020_12(node: &Node, draft: Draft) -> bool {
    if draft != Draft::Draft7 && draft != Draft::Draft6 {
        return false;
    }
    match &node.kind {
        NodeKind::Array(items) => items.iter().all(|n| reads_the_same_in_2020_12(n, draft)),
        NodeKind::Object(members) => {
            let has_ref = members.iter().any(|m| m.key == "$ref");
            members.iter().all(|m| {
                let key = m.key.as_str();
                let differs = DIFFERING.contains(&key)
                    || (draft == Draft::Draft6 && NOT_IN_DRAFT6.contains(&key))
                    || (key == "items" && m.value.as_array().is_some())
                    || (has_ref && !INERT_BESIDE_REF.contains(&key));
                !differs && reads_the_same_in_2020_12(&m.value, draft)
            })
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::document::parse;

    fn same(text: &str) -> bool {
        reads_the_same_in_2020_12(&parse(text).unwrap(), Draft::Draft7)
    }

    #[test]
    fn only_schemas_without_differing_keywords_are_rewritten() {
        assert!(same(
            r#"{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}"#
        ));
        assert!(same(
            r##"{"$ref": "#/definitions/A", "definitions": {"A": {"type": "object"}}}"##
        ));
        assert!(!same(r##"{"$ref": "#/definitions/A", "type": "object"}"##));
        assert!(!same(r#"{"items": [{"type": "string"}]}"#));
        assert!(!same(r#"{"properties": {"d": {"format": "date"}}}"#));
        assert!(!same(r#"{"dependencies": {"a": ["b"]}}"#));
        assert!(!reads_the_same_in_2020_12(
            &parse(r#"{"if": {}}"#).unwrap(),
            Draft::Draft6
        ));
    }

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

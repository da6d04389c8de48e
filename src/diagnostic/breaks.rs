//! Which clients break, and how: the model the engine tier measures.
//!
//! `tests/integration/engines.sh` runs the cases of `testdata/engines/` through the engines MCP
//! clients run ([`Client`]) and derives, for each case class (`SL201/malformed-scheme`: a rule's
//! code and a key the rule computes), the clients its cases break and the [`Effect`] on each,
//! into the checked-in `testdata/engines/breaks.json`. `build.rs` turns that file into the table
//! below, so a finding can claim of a client only what was observed: a rule names the class of
//! each finding ([`super::Diagnostic::class`]), which sets the finding's [`Break`]s, its client
//! note ([`describe`]) and, through [`super::severity::decide`], how serious it is.
//!
//! Most classes are measured on the clients' schema engines (can they compile the schema, do
//! they give the right verdicts); the listing cases of the tier run whole `tools/list` results
//! through the SDK clients themselves, with the effects [`Effect::LosesToolList`] and
//! [`Effect::LosesTool`]. A class can hold both for one client: its engine cannot compile the
//! schema, and the listing case shows what that costs the client's user (every tool of the
//! server, or this one), which the note then says.

pub use super::client::{Client, Kind, Versions};
use super::own_words::own_words;
use serde::Serialize;
use std::fmt;
use std::fmt::Write as _;

/// What a client does wrong with a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// The engine refuses the schema.
    CompileError,
    /// A `$ref` names nothing the engine finds, when compiling or when validation reaches it.
    UnresolvedReference,
    /// A reference binds to another subschema than the one it names.
    WrongBinding,
    /// Output that the schema allows is rejected.
    RejectsValidOutput,
    /// Output that the schema means to reject passes: the client breaks nothing, it checks less.
    AcceptsInvalidOutput,
    /// The client rejects the whole `tools/list` result: every tool of the server is lost.
    LosesToolList,
    /// The client keeps the listing but cannot use this tool: it leaves it out, or every call
    /// of it fails before its output is checked.
    LosesTool,
    /// The provider (or its SDK, before sending) refuses every request that offers the tool:
    /// while the tool is offered, no model call of the session succeeds.
    RejectsRequest,
    /// The client serves the tool without strict mode, so the model's arguments are no longer
    /// held to the schema.
    LosesStrict,
    /// The client sends the model another schema than the server's: keywords dropped or
    /// changed, the name cut.
    RewritesSchema,
    /// The client resolves the schema by fetching a remote document over the network (a
    /// plain-schema consumer's retriever): it works where that host serves the document, and
    /// only there. Not a failure.
    FetchesRemote,
}

impl Effect {
    /// The effect's name in reports and in `breaks.json` (`compile-error`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Effect::CompileError => "compile-error",
            Effect::UnresolvedReference => "unresolved-reference",
            Effect::WrongBinding => "wrong-binding",
            Effect::RejectsValidOutput => "rejects-valid-output",
            Effect::AcceptsInvalidOutput => "accepts-invalid-output",
            Effect::LosesToolList => "loses-tool-list",
            Effect::LosesTool => "loses-tool",
            Effect::RejectsRequest => "rejects-request",
            Effect::LosesStrict => "loses-strict",
            Effect::RewritesSchema => "rewrites-schema",
            Effect::FetchesRemote => "fetches-remote",
        }
    }

    /// Whether the effect is what a client does with a whole `tools/list` result (measured by
    /// the listing cases), rather than what its engine does with one schema.
    #[must_use]
    pub fn is_listing(self) -> bool {
        matches!(self, Effect::LosesToolList | Effect::LosesTool)
    }

    /// Whether the client fails on the schema or its output (rather than checking less,
    /// changing what the model sees, or fetching what it references).
    #[must_use]
    pub fn is_failure(self) -> bool {
        !matches!(
            self,
            Effect::AcceptsInvalidOutput
                | Effect::LosesStrict
                | Effect::RewritesSchema
                | Effect::FetchesRemote
        )
    }

    /// What the clients do, for more than one of them (`ts-sdk-v1 and ts-sdk-v2 reject ...`).
    fn words_of_many(self) -> &'static str {
        match self {
            Effect::WrongBinding => "bind the reference to another subschema",
            Effect::RejectsValidOutput => "reject valid output",
            Effect::AcceptsInvalidOutput => "let invalid output pass",
            Effect::RejectsRequest => "reject every request that offers the tool",
            Effect::LosesStrict => "serve the tool without strict mode",
            Effect::RewritesSchema => "send the model another schema",
            other => other.words(),
        }
    }

    pub(super) fn words(self) -> &'static str {
        match self {
            Effect::CompileError => "cannot compile it",
            Effect::UnresolvedReference => "cannot resolve the reference",
            Effect::WrongBinding => "binds the reference to another subschema",
            Effect::RejectsValidOutput => "rejects valid output",
            Effect::AcceptsInvalidOutput => "lets invalid output pass",
            Effect::LosesToolList => {
                "cannot read the `tools/list` result, so every tool of the server is lost"
            }
            Effect::LosesTool => "cannot use this tool",
            Effect::RejectsRequest => "rejects every request that offers the tool",
            Effect::LosesStrict => "serves the tool without strict mode",
            Effect::RewritesSchema => "sends the model another schema",
            Effect::FetchesRemote => "fetches the remote schema and resolves the reference",
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One client that a class of findings breaks: as the engine tier observed it, or as the
/// client's documentation and a public report say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Break {
    /// The client.
    pub client: Client,
    /// What it does wrong.
    pub effect: Effect,
    /// The client's own words (its error, or the wrong verdict): on the class's first case when
    /// measured, quoted from the source when documented.
    pub detail: &'static str,
    /// How the claim is backed.
    #[serde(flatten)]
    pub evidence: Evidence,
    /// The client's versions it holds for (every version unless the evidence names a range):
    /// a claim that does not hold for the version a run selects is no claim
    /// ([`super::verdict::holding`]).
    #[serde(skip_serializing_if = "Versions::is_all")]
    pub versions: Versions,
}

/// How a [`Break`] is backed: never by memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "evidence", rename_all = "lowercase")]
pub enum Evidence {
    /// A real engine in the test tier produced it (`testdata/engines/breaks.json`).
    Measured,
    /// The client's documentation says it, and a public report quotes the error: declared in
    /// the rule's doc (a `breaks` block), with at least one source, each with the words of it
    /// that back the claim.
    Documented {
        /// The documentation page first, then public reports quoting the error.
        #[serde(rename = "source")]
        sources: &'static [&'static str],
        /// What each source says that backs the claim (`quotes[i]` is of `sources[i]`): a
        /// sentence of the documentation, the error text of a report. The break's `detail` is
        /// words of these.
        #[serde(rename = "quote")]
        quotes: &'static [&'static str],
        /// The day each source was read there (`YYYY-MM-DD`, `read[i]` of `sources[i]`).
        read: &'static [&'static str],
    },
}

impl Evidence {
    /// The evidence's name in reports (`measured`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Evidence::Measured => "measured",
            Evidence::Documented { .. } => "documented",
        }
    }
}

/// A class of findings in the engine tier's model: its name (`SL201/malformed-scheme`, a rule's
/// code and a key the rule computes) and the clients its cases break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    /// The class's name in `breaks.json`, in reports and in rule docs.
    pub name: &'static str,
    /// The clients its cases break, as measured; empty when none does.
    pub breaks: &'static [Break],
}

/// One constant per class of `testdata/engines/breaks.json` (`SL201/malformed-scheme` is
/// [`classes::SL201_MALFORMED_SCHEME`]), generated by `build.rs`: a rule names the class of a
/// finding with one, so a class the tier has no case of does not build.
#[allow(missing_docs, clippy::doc_markdown)]
pub mod classes {
    use super::{Break, Class, Client, Effect, Evidence, Versions};
    include!(concat!(env!("OUT_DIR"), "/classes.rs"));
}

/// The breaks of a class (`SL201/malformed-scheme`), `None` for a class the tier has no case of.
#[must_use]
pub fn of(class: &str) -> Option<&'static [Break]> {
    classes::ALL
        .binary_search_by(|c| c.name.cmp(class))
        .ok()
        .map(|i| classes::ALL[i].breaks)
}

/// The claims about `client` that hold for a range of its versions only, each with its class,
/// in class order.
pub fn ranged(client: Client) -> impl Iterator<Item = (&'static str, &'static Break)> {
    classes::ALL.iter().flat_map(move |c| {
        c.breaks
            .iter()
            .filter(move |b| b.client == client && !b.versions.is_all())
            .map(move |b| (c.name, b))
    })
}

/// The versions of `client` the model knows: every end of a range its claims name, oldest
/// first, each once. The newest of them is what `latest` (a bare client name) means: at or
/// after every one.
#[must_use]
pub fn known_versions(client: Client) -> Vec<&'static str> {
    let mut known: Vec<&'static str> = ranged(client)
        .flat_map(|(_, b)| [b.versions.from, b.versions.until])
        .flatten()
        .collect();
    known.sort_by(|a, b| super::client::compare(a, b));
    known.dedup_by(|a, b| super::client::compare(a, b).is_eq());
    known
}

/// Every class the engine tier knows, sorted.
pub fn classes() -> impl Iterator<Item = &'static str> {
    classes::ALL.iter().map(|c| c.name)
}

/// The breaks of a class as a schema linted for an MCP target (`plain` false) or for the
/// `json-schema` target (`plain` true) has them: the plain-schema consumers ([`Kind::Plain`],
/// last in [`Client`]'s order) read schema files, not a server's tools, so an MCP target leaves
/// them out.
#[must_use]
pub fn read_by(breaks: &[Break], plain: bool) -> &[Break] {
    if plain {
        return breaks;
    }
    let end = breaks
        .iter()
        .position(|b| b.client.kind() == Kind::Plain)
        .unwrap_or(breaks.len());
    debug_assert!(breaks[end..].iter().all(|b| b.client.kind() == Kind::Plain));
    &breaks[..end]
}

/// The client note of a finding, written from its breaks only: which clients break and how, in
/// their own words, and which do not. A client whose engine fails on the schema and whose SDK
/// client the listing tier ran has both breaks: what that costs it (the listing, or the tool)
/// follows the engine's words.
///
/// Hosts and model providers follow, each break with its evidence: what the tier measured on
/// their open code, or what their documentation says, quoting the error and naming the source.
/// A class only hosts or providers break, which the tier has no SDK case of, says nothing of
/// the SDK clients.
///
/// The consumers of plain schema files (on the `json-schema` target, [`read_by`]) come last,
/// with what the tier measured them do.
///
/// A client's words are quoted as they hold for the finding, not for the class's case: in tool
/// `tool` (`None` for a schema file), without the case's values (see [`own_words`]).
#[must_use]
pub fn describe(breaks: &[Break], tool: Option<&str>) -> String {
    let (plain, breaks): (Vec<Break>, Vec<Break>) =
        breaks.iter().partition(|b| b.client.kind() == Kind::Plain);
    let (sdk, beyond): (Vec<Break>, Vec<Break>) =
        breaks.iter().partition(|b| b.client.kind() == Kind::Sdk);
    let text = match (sdk.is_empty(), beyond.is_empty()) {
        (true, false) => describe_beyond(&beyond, tool),
        (_, true) => describe_sdk(&sdk, tool),
        (false, false) => format!(
            "{}. {}",
            describe_sdk(&sdk, tool),
            describe_beyond(&beyond, tool)
        ),
    };
    if plain.is_empty() {
        return text;
    }
    format!("{text}. {}", describe_plain(&plain, tool))
}

/// What a note quotes of a client's words on the class's case: a measured detail in the words
/// that hold for the finding (`None` where only the case's values, or a rewrite of the case's
/// schema, would be quoted); a documented one as its public source wrote it.
pub(super) fn said(b: &Break, tool: Option<&str>) -> Option<String> {
    if b.detail.is_empty() {
        return None;
    }
    match b.evidence {
        Evidence::Documented { .. } => Some(b.detail.to_owned()),
        Evidence::Measured if b.effect == Effect::RewritesSchema => None,
        Evidence::Measured => own_words(b.detail, tool),
    }
}

/// What the consumers of plain schema files do (`vscode-json fetches the remote schema and
/// resolves the reference`), a failure in their words. What a consumer fetched on the class's
/// case is another URI than the finding's, and not quoted.
fn describe_plain(breaks: &[Break], tool: Option<&str>) -> String {
    let of: Vec<String> = breaks
        .iter()
        .map(|b| {
            let mut part = format!("{} {}", b.client.name(), b.effect.words());
            if let Some(detail) = said(b, tool).filter(|_| b.effect.is_failure()) {
                let _ = write!(part, " (as in `{detail}`)");
            }
            part
        })
        .collect();
    format!(
        "Measured on the consumers of plain schema files: {}",
        of.join("; ")
    )
}

/// What hosts and providers do, in their words, with the evidence of each claim.
fn describe_beyond(breaks: &[Break], tool: Option<&str>) -> String {
    let mut parts = Vec::new();
    for evidence in ["measured", "documented"] {
        let of: Vec<String> = breaks
            .iter()
            .filter(|b| b.evidence.name() == evidence)
            .map(|b| {
                let when = (!b.versions.is_all()).then(|| format!("{}, ", b.versions.when()));
                let when = when.unwrap_or_default();
                let mut part = format!("{when}{} {}", b.client.name(), b.effect.words());
                let mut quoted = Vec::new();
                if let Some(detail) = said(b, tool) {
                    quoted.push(format!("`{detail}`"));
                }
                if let Evidence::Documented { sources, .. } = b.evidence {
                    quoted.push(sources.join(", "));
                }
                if !quoted.is_empty() {
                    let _ = write!(part, " ({})", quoted.join("; "));
                }
                part
            })
            .collect();
        if !of.is_empty() {
            let how = if evidence == "measured" {
                "Measured on the hosts' and providers' own code"
            } else {
                "Documented by the hosts and providers"
            };
            parts.push(format!("{how}: {}", of.join("; ")));
        }
    }
    parts.join(". ")
}

/// The SDK clients' part of the note, from their breaks only.
fn describe_sdk(breaks: &[Break], tool: Option<&str>) -> String {
    let unaffected: Vec<&str> = Client::SDK
        .iter()
        .filter(|c| !breaks.iter().any(|b| b.client == **c))
        .map(|c| c.name())
        .collect();
    if breaks.is_empty() {
        return format!(
            "Measured on the engines of the MCP clients: none breaks on this ({})",
            unaffected.join(", ")
        );
    }
    let engine_fails = |c: Client| {
        breaks
            .iter()
            .any(|b| b.client == c && !b.effect.is_listing() && b.effect.is_failure())
    };
    // The listing breaks of a client whose engine fails are told as the cost of that failure.
    let shown: Vec<Break> = breaks
        .iter()
        .filter(|b| !(b.effect.is_listing() && engine_fails(b.client)))
        .copied()
        .collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < shown.len() {
        // Clients with the same effect and the same words are named together; clients that
        // lose the listing or the tool, with the words of each.
        let b = shown[i];
        let mut names = vec![b.client.name()];
        let mut details: Vec<String> = said(&b, tool).into_iter().collect();
        let mut j = i + 1;
        while j < shown.len()
            && shown[j].effect == b.effect
            && (shown[j].detail == b.detail || b.effect.is_listing())
        {
            names.push(shown[j].client.name());
            if let Some(detail) = said(&shown[j], tool) {
                if !details.contains(&detail) {
                    details.push(detail);
                }
            }
            j += 1;
        }
        let mut part = format!(
            "{} {}",
            listed(&names),
            if names.len() > 1 {
                b.effect.words_of_many()
            } else {
                b.effect.words()
            }
        );
        if !details.is_empty() {
            // The engine's words on the class's case, in the finding's own terms.
            let _ = write!(part, " (as in `{}`)", details.join("`; `"));
        }
        if !b.effect.is_listing() && b.effect.is_failure() {
            let costs = costs(breaks, &shown[i..j]);
            if !costs.is_empty() {
                let _ = write!(part, ": {costs}");
            }
        }
        parts.push(part);
        i = j;
    }
    let mut text = format!(
        "Measured on the engines of the MCP clients: {}",
        parts.join("; ")
    );
    if !unaffected.is_empty() {
        let _ = write!(text, "; {} not affected", unaffected.join(", "));
    }
    text
}

/// `a`, `a and b`, `a, b and c`.
fn listed(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// What the listing tier saw the SDK clients of `group` lose (`ts-sdk-v1 loses every tool of
/// the server, ts-sdk-v2 loses this tool`), from the listing breaks among `breaks`.
fn costs(breaks: &[Break], group: &[Break]) -> String {
    [Effect::LosesToolList, Effect::LosesTool]
        .into_iter()
        .filter_map(|effect| {
            let names: Vec<&str> = group
                .iter()
                .filter(|g| {
                    breaks
                        .iter()
                        .any(|b| b.client == g.client && b.effect == effect)
                })
                .map(|g| g.client.name())
                .collect();
            let what = match effect {
                Effect::LosesToolList => "every tool of the server",
                _ => "this tool",
            };
            // The group's clients, all of them: `it` or `each`.
            let (who, verb) = if names.len() < group.len() {
                let verb = if names.len() == 1 { "loses" } else { "lose" };
                (listed(&names), verb)
            } else if names.len() == 1 {
                ("it".to_owned(), "loses")
            } else {
                ("each".to_owned(), "loses")
            };
            (!names.is_empty()).then(|| format!("{who} {verb} {what}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_clients_are_in_order() {
        let classes: Vec<&str> = classes().collect();
        let mut sorted = classes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(classes, sorted);
        for class in classes::ALL {
            let clients: Vec<Client> = class.breaks.iter().map(|b| b.client).collect();
            let mut ordered = clients.clone();
            ordered.sort();
            assert_eq!(clients, ordered);
        }
    }

    #[test]
    fn describes_only_what_breaks() {
        let b = |client, effect, detail| Break {
            client,
            effect,
            detail,
            evidence: Evidence::Measured,
            versions: Versions::ALL,
        };
        let malformed = "URI scheme is malformed.";
        let engines = [
            b(Client::TsSdkV1, Effect::CompileError, malformed),
            b(Client::TsSdkV2, Effect::CompileError, malformed),
        ];
        assert_eq!(
            describe(&engines, None),
            "Measured on the engines of the MCP clients: ts-sdk-v1 and ts-sdk-v2 cannot compile it \
             (as in `URI scheme is malformed.`); python-sdk, python-sdk+format, python-sdk-v1, \
             jsonschema-rs not affected"
        );
        // With the listing tier: what the failure costs each SDK client.
        let measured = [
            b(Client::TsSdkV1, Effect::CompileError, malformed),
            b(Client::TsSdkV1, Effect::LosesToolList, malformed),
            b(Client::TsSdkV2, Effect::CompileError, malformed),
            b(Client::TsSdkV2, Effect::LosesTool, malformed),
            b(
                Client::PythonSdkFormat,
                Effect::CompileError,
                "not a 'uri-reference'",
            ),
            b(
                Client::PythonSdkFormat,
                Effect::LosesTool,
                "Invalid schema for tool report",
            ),
            b(
                Client::JsonschemaRs,
                Effect::CompileError,
                "Invalid URI reference",
            ),
        ];
        assert_eq!(
            describe(&measured, None),
            "Measured on the engines of the MCP clients: ts-sdk-v1 and ts-sdk-v2 cannot compile it \
             (as in `URI scheme is malformed.`): ts-sdk-v1 loses every tool of the server, ts-sdk-v2 \
             loses this tool; python-sdk+format cannot compile it (as in `not a 'uri-reference'`): \
             it loses this tool; jsonschema-rs cannot compile it (as in `Invalid URI reference`); \
             python-sdk, python-sdk-v1 not affected"
        );
        let both = [
            b(
                Client::TsSdkV1,
                Effect::UnresolvedReference,
                "can't resolve",
            ),
            b(Client::TsSdkV1, Effect::LosesTool, ""),
            b(
                Client::TsSdkV2,
                Effect::UnresolvedReference,
                "can't resolve",
            ),
            b(Client::TsSdkV2, Effect::LosesTool, ""),
        ];
        assert!(describe(&both, None).contains("(as in `can't resolve`): each loses this tool;"));
        assert!(describe(&[], None).contains("none breaks"));
    }

    #[test]
    fn hosts_and_providers_follow_with_their_evidence() {
        let sdk = Break {
            client: Client::TsSdkV1,
            effect: Effect::CompileError,
            detail: "URI scheme is malformed.",
            evidence: Evidence::Measured,
            versions: Versions::ALL,
        };
        let documented = Break {
            client: Client::OpenaiStrict,
            effect: Effect::RejectsRequest,
            detail: "'uri' is not a valid format.",
            evidence: Evidence::Documented {
                sources: &["https://example.com/docs", "https://example.com/report"],
                quotes: &["only these formats", "'uri' is not a valid format."],
                read: &["2026-12-05", "2026-12-05"],
            },
            versions: Versions::ALL,
        };
        let measured = Break {
            client: Client::GeminiCli,
            effect: Effect::RewritesSchema,
            detail: "",
            evidence: Evidence::Measured,
            versions: Versions::ALL,
        };
        let only = describe(&[documented], None);
        assert_eq!(
            only,
            "Documented by the hosts and providers: openai-strict rejects every request that \
             offers the tool (`'uri' is not a valid format.`; https://example.com/docs, \
             https://example.com/report)"
        );
        let all = describe(&[sdk, measured, documented], None);
        assert!(all.starts_with("Measured on the engines of the MCP clients: ts-sdk-v1 cannot"));
        assert!(all.contains(
            "not affected. Measured on the hosts' and providers' own code: gemini-cli sends the \
             model another schema. Documented by"
        ));
        // Failures decide severity; a rewritten schema or a lost strict mode does not.
        assert!(Effect::RejectsRequest.is_failure());
        assert!(!Effect::RewritesSchema.is_failure() && !Effect::LosesStrict.is_failure());
    }

    #[test]
    fn plain_schema_consumers_follow_and_an_mcp_target_leaves_them_out() {
        static REMOTE: [Break; 2] = [
            Break {
                client: Client::TsSdkV1,
                effect: Effect::UnresolvedReference,
                detail: "can't resolve reference",
                evidence: Evidence::Measured,
                versions: Versions::ALL,
            },
            Break {
                client: Client::VscodeJson,
                effect: Effect::FetchesRemote,
                detail: "requested https://example.com/a.json",
                evidence: Evidence::Measured,
                versions: Versions::ALL,
            },
        ];
        let note = describe(&REMOTE, None);
        assert!(note.starts_with("Measured on the engines of the MCP clients: ts-sdk-v1 cannot"));
        assert!(note.ends_with(
            ". Measured on the consumers of plain schema files: vscode-json fetches the remote \
             schema and resolves the reference"
        ));
        assert!(!Effect::FetchesRemote.is_failure());
        assert_eq!(read_by(&REMOTE, true), &REMOTE[..]);
        assert_eq!(read_by(&REMOTE, false), &REMOTE[..1]);
        assert_eq!(Client::VscodeJson.kind(), Kind::Plain);
    }

    #[test]
    fn every_client_has_a_page_and_a_name() {
        for client in Client::ALL {
            assert!(client.page().starts_with(&format!("# {}\n", client.name())));
            assert!(!client.summary().is_empty(), "{client}");
            assert_eq!(Client::named(client.name()), Some(client));
        }
        assert!(Client::DEFAULT.iter().all(|c| c.kind() != Kind::Provider));
        assert!(Client::SDK.iter().all(|c| c.kind() == Kind::Sdk));
    }

    #[test]
    fn describes_a_lost_listing() {
        let lost = Break {
            client: Client::PythonSdk,
            effect: Effect::LosesToolList,
            detail: "tools.*.inputSchema.type: Field required",
            evidence: Evidence::Measured,
            versions: Versions::ALL,
        };
        assert!(lost.effect.is_failure() && Effect::LosesTool.is_failure());
        assert_eq!(
            describe(&[lost], None),
            "Measured on the engines of the MCP clients: python-sdk cannot read the `tools/list` \
             result, so every tool of the server is lost (as in `tools.*.inputSchema.type: Field \
             required`); ts-sdk-v1, ts-sdk-v2, python-sdk+format, python-sdk-v1, jsonschema-rs not \
             affected"
        );
        let words = |client, detail| Break {
            client,
            effect: Effect::LosesToolList,
            detail,
            evidence: Evidence::Measured,
            versions: Versions::ALL,
        };
        let all = [
            words(Client::TsSdkV1, "a"),
            words(Client::TsSdkV2, "b"),
            words(Client::PythonSdk, "c"),
            words(Client::PythonSdkFormat, "c"),
        ];
        assert_eq!(
            describe(&all, None),
            "Measured on the engines of the MCP clients: ts-sdk-v1, ts-sdk-v2, python-sdk and \
             python-sdk+format cannot read the `tools/list` result, so every tool of the server is \
             lost (as in `a`; `b`; `c`); python-sdk-v1, jsonschema-rs not affected"
        );
    }
}

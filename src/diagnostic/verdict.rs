//! The verdict of a client: what one client does with a finding, a tool or a schema, decided
//! here once. Every door (`check`'s severities, `matrix`'s cells, the JSON and SARIF `breaks`
//! entries, the language server, the MCP mode, `diff`) renders it and never decides it again.
//!
//! A claim of the model ([`Break`]) is a verdict on the client it names: `breaks` when the client
//! fails on the schema (it cannot compile or resolve it, rejects valid output, rejects the request,
//! loses the tool or the listing) whatever the server sends; `warns` when it fails only on some
//! values the server may send, which the schema does not show (a date-time without an offset), or
//! when it does not fail but checks less, serves the tool non-strict or sends the model another
//! schema. A client no claim names `works`.

use super::breaks::{self, Break, Client, Effect, Evidence, Versions};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;

/// What one client does with a finding, a tool or a schema; the order runs from best to worst,
/// so that the verdict of several claims is their maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No claim names the client.
    Works,
    /// The client fails only on some values the server may send, or it does not fail but checks
    /// less, serves the tool non-strict or sends the model another schema.
    Warns,
    /// The client fails on the schema whatever the server sends.
    Breaks,
}

impl Verdict {
    /// The verdict of a claim with `effect`, where the client fails only on some values the
    /// server may send when `depends_on_data`.
    #[must_use]
    pub fn of(effect: Effect, depends_on_data: bool) -> Verdict {
        if effect.is_failure() && !depends_on_data {
            Verdict::Breaks
        } else {
            Verdict::Warns
        }
    }

    /// The verdict of `client` on a finding with `breaks`: the worst of the claims naming it.
    #[must_use]
    pub fn of_client(breaks: &[Break], depends_on_data: bool, client: Client) -> Verdict {
        breaks
            .iter()
            .filter(|b| b.client == client)
            .map(|b| Verdict::of(b.effect, depends_on_data))
            .max()
            .unwrap_or(Verdict::Works)
    }

    /// The verdict's name in reports (`breaks`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Works => "works",
            Verdict::Warns => "warns",
            Verdict::Breaks => "breaks",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A [`Break`] as a report writes it under a finding (`--output-format json`, SARIF): its
/// verdict, and its `detail`, what the note quotes, in words that hold for the finding (the
/// case's own values said as `…`, the tool the finding's), left out where nothing but the case's
/// values would be quoted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reported {
    /// The client.
    pub client: Client,
    /// What the claim makes of the client ([`Verdict::of`]).
    pub verdict: Verdict,
    /// What it does wrong.
    pub effect: Effect,
    /// Whether the client fails only on some values the server may send, which the schema does
    /// not show (then the claim is a warning: `warns`).
    pub depends_on_data: bool,
    /// The client's words, as they hold for the finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// How the claim is backed.
    #[serde(flatten)]
    pub evidence: Evidence,
    /// The client's versions the claim holds for, where it does not hold for every version
    /// (`{"from": "2.1.260", "until": null}`).
    #[serde(skip_serializing_if = "Versions::is_all")]
    pub versions: Versions,
}

impl Break {
    /// This break as a report writes it under a finding in tool `tool` (`None` for a schema
    /// file, or a finding grouped over several tools) whose clients fail only on some values the
    /// server may send when `depends_on_data`.
    #[must_use]
    pub fn reported(&self, tool: Option<&str>, depends_on_data: bool) -> Reported {
        Reported {
            client: self.client,
            verdict: Verdict::of(self.effect, depends_on_data),
            effect: self.effect,
            depends_on_data,
            detail: breaks::said(self, tool),
            evidence: self.evidence,
            versions: self.versions,
        }
    }
}

/// The clients among `clients` whose verdict on a finding with `breaks` is `verdict`, each once,
/// in `clients`' order.
#[must_use]
pub fn clients_at(
    breaks: &[Break],
    depends_on_data: bool,
    clients: &[Client],
    verdict: Verdict,
) -> Vec<Client> {
    clients
        .iter()
        .copied()
        .filter(|&c| Verdict::of_client(breaks, depends_on_data, c) == verdict)
        .collect()
}

/// The claims among `breaks` that hold for the clients' versions a run selects: `pinned` names a
/// version for some clients (`--clients claude-code@2.1.260`), every other client is at its
/// newest known version (`latest`). A claim whose range ([`Versions`]) does not hold there is no
/// claim: the verdict, the severity and every report see only the claims that hold. Borrowed when
/// every claim holds.
#[must_use]
pub fn holding<'a>(breaks: Cow<'a, [Break]>, pinned: &[(Client, String)]) -> Cow<'a, [Break]> {
    let version = |client: Client| {
        pinned
            .iter()
            .find(|(c, _)| *c == client)
            .map(|(_, v)| v.as_str())
    };
    let holds = |b: &Break| b.versions.holds_at(version(b.client));
    if breaks.iter().all(holds) {
        return breaks;
    }
    Cow::Owned(breaks.iter().copied().filter(|b| holds(b)).collect())
}

/// What the claims of `class` that hold for other versions of their clients than the run's say
/// (those [`super::verdict::holding`] left out of `held`), for the note: `None` when every claim
/// holds.
#[must_use]
pub fn describe_unheld(class: &str, held: &[Break]) -> Option<String> {
    let unheld: Vec<String> = breaks::of(class)?
        .iter()
        .filter(|b| !b.versions.is_all() && !held.contains(b))
        .map(|b| {
            let mut part = format!(
                "{}, {} {}",
                b.versions.when(),
                b.client.name(),
                b.effect.words()
            );
            if let Some(detail) = breaks::said(b, None) {
                let _ = write!(part, " (`{detail}`)");
            }
            part
        })
        .collect();
    (!unheld.is_empty()).then(|| format!("Not at the selected versions: {}", unheld.join("; ")))
}

/// Whether every claim of `class` is documented: no engine of the tier ran a case of it.
#[must_use]
pub fn documented_only(class: &str) -> bool {
    breaks::of(class).is_some_and(|all| {
        !all.is_empty()
            && all
                .iter()
                .all(|b| matches!(b.evidence, Evidence::Documented { .. }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(client: Client, effect: Effect) -> Break {
        Break {
            client,
            effect,
            detail: "",
            evidence: Evidence::Measured,
            versions: crate::diagnostic::breaks::Versions::ALL,
        }
    }

    #[test]
    fn a_failure_breaks_unless_it_depends_on_the_data() {
        assert_eq!(Verdict::of(Effect::CompileError, false), Verdict::Breaks);
        assert_eq!(
            Verdict::of(Effect::RejectsValidOutput, true),
            Verdict::Warns
        );
        assert_eq!(Verdict::of(Effect::RewritesSchema, false), Verdict::Warns);
        assert_eq!(
            Verdict::of(Effect::AcceptsInvalidOutput, false),
            Verdict::Warns
        );
        assert_eq!(Verdict::of(Effect::LosesToolList, false), Verdict::Breaks);
    }

    #[test]
    fn a_client_takes_its_worst_claim() {
        let claims = [
            b(Client::TsSdkV1, Effect::AcceptsInvalidOutput),
            b(Client::TsSdkV1, Effect::CompileError),
            b(Client::GeminiCli, Effect::RewritesSchema),
        ];
        assert_eq!(
            Verdict::of_client(&claims, false, Client::TsSdkV1),
            Verdict::Breaks
        );
        assert_eq!(
            Verdict::of_client(&claims, true, Client::TsSdkV1),
            Verdict::Warns
        );
        assert_eq!(
            Verdict::of_client(&claims, false, Client::GeminiCli),
            Verdict::Warns
        );
        assert_eq!(
            Verdict::of_client(&claims, false, Client::PythonSdk),
            Verdict::Works
        );
        assert_eq!(
            clients_at(
                &claims,
                false,
                &[Client::PythonSdk, Client::GeminiCli, Client::TsSdkV1],
                Verdict::Breaks
            ),
            [Client::TsSdkV1]
        );
    }

    #[test]
    fn a_claim_that_does_not_hold_for_the_selected_version_is_no_claim() {
        static CLAIMS: [Break; 2] = [
            Break {
                client: Client::ClaudeCode,
                effect: Effect::LosesToolList,
                detail: "",
                evidence: Evidence::Measured,
                versions: Versions {
                    from: Some("2.1.260"),
                    until: None,
                },
            },
            Break {
                client: Client::Cursor,
                effect: Effect::LosesToolList,
                detail: "",
                evidence: Evidence::Measured,
                versions: Versions {
                    from: None,
                    until: Some("1.2"),
                },
            },
        ];
        // Every client at its newest known version: Cursor fixed it.
        let latest = holding(Cow::Borrowed(&CLAIMS[..]), &[]);
        assert_eq!(&latest[..], &CLAIMS[..1]);
        let old = [
            (Client::ClaudeCode, "2.0.0".to_owned()),
            (Client::Cursor, "1.1".to_owned()),
        ];
        let at = holding(Cow::Borrowed(&CLAIMS[..]), &old);
        assert_eq!(&at[..], &CLAIMS[1..]);
        assert_eq!(
            Verdict::of_client(&at, false, Client::ClaudeCode),
            Verdict::Works
        );
        let both = [(Client::ClaudeCode, "2.1.300".to_owned()), old[1].clone()];
        assert!(matches!(
            holding(Cow::Borrowed(&CLAIMS[..]), &both),
            Cow::Borrowed(_)
        ));
        let reported = CLAIMS[0].reported(None, false);
        let json = serde_json::to_value(&reported).unwrap();
        assert_eq!(
            json["versions"],
            serde_json::json!({"from": "2.1.260", "until": null})
        );
        let every = b(Client::TsSdkV1, Effect::CompileError).reported(None, false);
        assert!(serde_json::to_value(&every)
            .unwrap()
            .get("versions")
            .is_none());
    }
}

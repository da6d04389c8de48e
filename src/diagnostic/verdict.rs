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

use super::breaks::{self, Break, Client, Effect, Evidence};
use serde::Serialize;
use std::fmt;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn b(client: Client, effect: Effect) -> Break {
        Break {
            client,
            effect,
            detail: "",
            evidence: Evidence::Measured,
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
}

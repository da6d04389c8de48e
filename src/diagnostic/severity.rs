//! How serious a finding is: decided in one place ([`decide`]), after the rule ran, from what the
//! rule declared and measured, never by the rule itself.

use super::breaks::{Break, Client, Kind};
use super::target::Target;
use super::verdict::{self, Verdict};
use super::{Diagnostic, Severity};

/// What the severity of a finding is decided from.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// The rule's severity for the run's target ([`super::meta::RuleMeta::severity_for`]).
    pub default: Severity,
    /// The severity the rule asked for this finding, in place of its default
    /// ([`Diagnostic::severity`]).
    pub requested: Option<Severity>,
    /// Whether the finding names a class of the engine tier's model ([`Diagnostic::class`]): then
    /// the clients it breaks decide.
    pub measured: bool,
    /// The clients its class breaks ([`Diagnostic::breaks`]).
    pub breaks: &'a [Break],
    /// The clients the run is for.
    pub clients: &'a [Client],
    /// Whether those clients break only on some values the server may send
    /// ([`Diagnostic::depends_on_output`]).
    pub depends_on_output: bool,
    /// `--strict`: a warning of any engine is an error.
    pub strict: bool,
    /// The target the schema is linted for: on `json-schema` (a plain schema file) the consumers
    /// of plain schemas ([`Kind::Plain`]) weigh the classes the tier measured them on ([`plain`]).
    pub target: Target,
}

impl<'a> Inputs<'a> {
    /// The inputs of a finding, at `default` for `target`, for `clients`.
    #[must_use]
    pub fn of(
        d: &'a Diagnostic,
        default: Severity,
        target: Target,
        clients: &'a [Client],
        strict: bool,
    ) -> Self {
        Inputs {
            default,
            requested: d.requested,
            measured: d.class.is_some(),
            breaks: &d.breaks,
            clients,
            depends_on_output: d.depends_on_output,
            strict,
            target,
        }
    }
}

/// The severity of a finding: the rule's own (what it asked for, else its default for the
/// target); for a finding with a class, who breaks decides ([`measured`]): an error only when a
/// selected client fails on it (or, `strict`, any engine), never one when no client breaks (then
/// at most a warning), nor when the clients fail only on some of the values the server may send
/// (then a warning, or the rule's own lower severity). On the `json-schema` target, a class the
/// tier ran through a consumer of plain schemas is weighed by those consumers instead
/// ([`plain`]).
#[must_use]
pub fn decide(inputs: &Inputs<'_>) -> Severity {
    let own = inputs.requested.unwrap_or(inputs.default);
    if !inputs.measured {
        return own;
    }
    let weighed = if inputs.target == Target::JsonSchema {
        plain(inputs.breaks, inputs.strict)
    } else {
        None
    };
    let severity = weighed
        .or_else(|| {
            measured(
                inputs.breaks,
                inputs.clients,
                inputs.depends_on_output,
                inputs.strict,
            )
        })
        .unwrap_or_else(|| own.max(Severity::Warning));
    if inputs.depends_on_output && !inputs.strict {
        severity.max(Severity::Warning).max(own)
    } else {
        severity
    }
}

/// How serious a finding is whose class has `breaks`, from the verdicts of the selected `clients`
/// ([`Verdict`]): an error when one of them breaks; a warning when none does but the class
/// names some client (one of them warns: it fails only on some values the server may send,
/// checks less or rewrites the schema; or only other clients are named), an error with
/// `strict`; `None` when no client is named, for the rule to decide.
#[must_use]
pub fn measured(
    breaks: &[Break],
    clients: &[Client],
    depends_on_output: bool,
    strict: bool,
) -> Option<Severity> {
    if breaks.is_empty() {
        return None;
    }
    if clients
        .iter()
        .any(|&c| Verdict::of_client(breaks, depends_on_output, c) == Verdict::Breaks)
    {
        return Some(Severity::Error);
    }
    Some(if strict {
        Severity::Error
    } else {
        Severity::Warning
    })
}

/// The clients whose verdict made a finding with `inputs` as serious as `severity`: the selected
/// clients ([`decided_by`]), or on the `json-schema` target the consumers of plain schemas where
/// the tier ran the class through one ([`plain`]); none for a finding without a class.
#[must_use]
pub fn deciders(inputs: &Inputs<'_>, severity: Severity) -> Vec<Client> {
    if !inputs.measured {
        return Vec::new();
    }
    if inputs.target == Target::JsonSchema {
        let mut consumers: Vec<Client> = inputs
            .breaks
            .iter()
            .filter(|b| b.client.kind() == Kind::Plain)
            .map(|b| b.client)
            .collect();
        consumers.dedup();
        if !consumers.is_empty() {
            return decided_by(
                inputs.breaks,
                &consumers,
                inputs.depends_on_output,
                severity,
            );
        }
    }
    decided_by(
        inputs.breaks,
        inputs.clients,
        inputs.depends_on_output,
        severity,
    )
}

/// The selected clients whose verdict made a finding as serious as `severity`: those that break
/// on it for an error, those that warn for a warning; none for an info, or where the rule's
/// own severity decided (a finding no selected client's verdict names).
#[must_use]
pub fn decided_by(
    breaks: &[Break],
    clients: &[Client],
    depends_on_output: bool,
    severity: Severity,
) -> Vec<Client> {
    let at = match severity {
        Severity::Error => Verdict::Breaks,
        Severity::Warning => Verdict::Warns,
        Severity::Info => return Vec::new(),
    };
    let found = verdict::clients_at(breaks, depends_on_output, clients, at);
    if found.is_empty() && severity == Severity::Error {
        // `--strict`: the clients that warn made it an error.
        return verdict::clients_at(breaks, depends_on_output, clients, Verdict::Warns);
    }
    found
}

/// How serious a finding on a plain schema file is whose class the tier ran through a consumer
/// of plain schemas (a [`Kind::Plain`] client among `breaks`): an error when such a consumer
/// fails on it; a warning when only others do, the MCP clients' engines and the Rust crate,
/// which resolve nothing over the network (a portability warning: an error with `strict`).
/// `None` for a class no plain consumer was measured on: then the SDK clients decide, as on
/// every target ([`measured`]).
#[must_use]
pub fn plain(breaks: &[Break], strict: bool) -> Option<Severity> {
    let consumers: Vec<&Break> = breaks
        .iter()
        .filter(|b| b.client.kind() == Kind::Plain)
        .collect();
    if consumers.is_empty() {
        return None;
    }
    if consumers.iter().any(|b| b.effect.is_failure()) {
        return Some(Severity::Error);
    }
    let others_fail = breaks
        .iter()
        .any(|b| b.client.kind() != Kind::Plain && b.effect.is_failure());
    Some(if strict && others_fail {
        Severity::Error
    } else {
        Severity::Warning
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::breaks::Effect;

    fn b(client: Client, effect: Effect) -> Break {
        Break {
            client,
            effect,
            detail: "",
            evidence: crate::diagnostic::breaks::Evidence::Measured,
            versions: crate::diagnostic::breaks::Versions::ALL,
        }
    }

    #[test]
    fn severity_follows_who_breaks() {
        let default = [b(Client::TsSdkV1, Effect::CompileError)];
        let stricter = [b(Client::JsonschemaRs, Effect::CompileError)];
        let lax = [b(Client::PythonSdk, Effect::AcceptsInvalidOutput)];
        let clients = &Client::DEFAULT;
        assert_eq!(
            measured(&default, clients, false, false),
            Some(Severity::Error)
        );
        assert_eq!(
            measured(&stricter, clients, false, false),
            Some(Severity::Warning)
        );
        assert_eq!(
            measured(&stricter, clients, false, true),
            Some(Severity::Error)
        );
        assert_eq!(
            measured(&lax, clients, false, false),
            Some(Severity::Warning)
        );
        assert_eq!(measured(&[], clients, false, true), None);
        // The selected clients decide: the Rust crate's failure is an error for its users.
        assert_eq!(
            measured(&stricter, &[Client::JsonschemaRs], false, false),
            Some(Severity::Error)
        );
        assert_eq!(
            measured(&default, &[Client::PythonSdk], false, false),
            Some(Severity::Warning)
        );
        // A client that fails only on some values the server may send warns.
        assert_eq!(
            measured(&default, clients, true, false),
            Some(Severity::Warning)
        );
        // Losing the listing is a failure too.
        let lost = [b(Client::PythonSdk, Effect::LosesToolList)];
        assert_eq!(
            measured(&lost, clients, false, false),
            Some(Severity::Error)
        );
        // Which clients made it so.
        let mixed = [
            b(Client::TsSdkV1, Effect::CompileError),
            b(Client::GeminiCli, Effect::RewritesSchema),
        ];
        let selected = [Client::TsSdkV1, Client::GeminiCli];
        assert_eq!(
            decided_by(&mixed, &selected, false, Severity::Error),
            [Client::TsSdkV1]
        );
        assert_eq!(
            decided_by(&mixed, &selected, true, Severity::Warning),
            [Client::TsSdkV1, Client::GeminiCli]
        );
        assert_eq!(
            decided_by(&mixed[1..], &selected, false, Severity::Error),
            [Client::GeminiCli]
        );
        assert!(decided_by(&mixed, &selected, false, Severity::Info).is_empty());
    }

    #[test]
    fn decide_weighs_the_rule_the_breaks_and_the_output() {
        let breaking = [b(Client::TsSdkV1, Effect::RejectsValidOutput)];
        let inputs = Inputs {
            default: Severity::Warning,
            requested: None,
            measured: false,
            breaks: &[],
            clients: &Client::DEFAULT,
            depends_on_output: false,
            strict: false,
            target: Target::Mcp20251125,
        };
        // Without a class: the rule's own severity, what it asked for first.
        assert_eq!(decide(&inputs), Severity::Warning);
        let asked = Inputs {
            requested: Some(Severity::Error),
            ..inputs
        };
        assert_eq!(decide(&asked), Severity::Error);
        // A class no client breaks on: at most a warning.
        let unmeasured = Inputs {
            measured: true,
            ..asked
        };
        assert_eq!(decide(&unmeasured), Severity::Warning);
        // A default client breaks: an error, unless only on some values the server may send.
        let breaks = Inputs {
            breaks: &breaking,
            ..unmeasured
        };
        assert_eq!(decide(&breaks), Severity::Error);
        let some_values = Inputs {
            depends_on_output: true,
            requested: Some(Severity::Info),
            ..breaks
        };
        assert_eq!(decide(&some_values), Severity::Info);
        assert_eq!(
            decide(&Inputs {
                strict: true,
                ..some_values
            }),
            Severity::Error
        );
    }

    #[test]
    fn plain_schema_consumers_weigh_their_classes_on_the_json_schema_target() {
        let offline = b(Client::TsSdkV1, Effect::UnresolvedReference);
        let fetches = b(Client::VscodeJson, Effect::FetchesRemote);
        let remote = [offline, fetches];
        let inputs = Inputs {
            default: Severity::Error,
            requested: None,
            measured: true,
            breaks: &remote,
            clients: &Client::DEFAULT,
            depends_on_output: false,
            strict: false,
            target: Target::JsonSchema,
        };
        // The editor resolves it, the offline engines cannot: a portability warning.
        assert_eq!(decide(&inputs), Severity::Warning);
        assert_eq!(
            decide(&Inputs {
                strict: true,
                ..inputs
            }),
            Severity::Error
        );
        // On an MCP target the SDK clients decide, as measured.
        assert_eq!(
            decide(&Inputs {
                target: Target::Mcp20260728,
                ..inputs
            }),
            Severity::Error
        );
        // A plain consumer that fails makes it an error.
        let failing = [offline, b(Client::VscodeJson, Effect::UnresolvedReference)];
        assert_eq!(plain(&failing, false), Some(Severity::Error));
        // A class no plain consumer was measured on: the SDK clients decide.
        assert_eq!(plain(&[offline], false), None);
        assert_eq!(
            decide(&Inputs {
                breaks: &[offline],
                ..inputs
            }),
            Severity::Error
        );
    }
}

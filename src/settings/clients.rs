//! Which clients a run is for: `--clients LIST` and `clients = [...]` in `schema-lint.toml`.
//! The word `default` stands for [`Client::DEFAULT`] (the SDK clients MCP servers meet and the
//! hosts); model providers are opted into by name. A client may be named at a version,
//! `claude-code@2.1.260`, or at its newest known one, `claude-code@latest` (what a bare name
//! means): the claims that do not hold for that version are no claims
//! ([`crate::diagnostic::verdict::holding`]).

use crate::diagnostic::breaks::Client;
use crate::diagnostic::client::is_version;

/// What `--clients` or `clients = [...]` selects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The clients, in [`Client::ALL`]'s order, each once.
    pub clients: Vec<Client>,
    /// The version named for some of them (`claude-code@2.1.260`), each client once; the others
    /// are at their newest known version.
    pub versions: Vec<(Client, String)>,
}

/// The clients `names` select, in [`Client::ALL`]'s order, each once: `default` stands for the
/// default set; `NAME@VERSION` selects a client at a version (`latest`: the newest known).
///
/// # Errors
/// A name that is neither a client nor `default`, with the names there are; a version that is
/// not numbers separated by dots; one client at two versions; an empty list.
pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Selection, String> {
    let mut chosen = Vec::new();
    let mut versions: Vec<(Client, String)> = Vec::new();
    let mut latest = Vec::new();
    for name in names {
        let name = name.as_ref().trim();
        let (name, version) = match name.split_once('@') {
            Some((name, version)) => (name, Some(version)),
            None => (name, None),
        };
        if name == "default" {
            if let Some(version) = version {
                return Err(format!(
                    "`default@{version}`: a version belongs to one client (`claude-code@2.1.260`)"
                ));
            }
            chosen.extend(Client::DEFAULT);
            continue;
        }
        let Some(client) = Client::named(name) else {
            let known: Vec<&str> = Client::ALL.iter().map(|c| c.name()).collect();
            return Err(format!(
                "unknown client `{name}` (`default` or one of {}; `schema-lint clients` says what each is)",
                known.join(", ")
            ));
        };
        chosen.push(client);
        match version {
            None | Some("latest") => latest.push(client),
            Some(version) if is_version(version) => versions.push((client, version.to_owned())),
            Some(version) => {
                return Err(format!(
                    "`{name}@{version}`: a version is numbers separated by dots (`{name}@2.1.260`) or `latest`"
                ))
            }
        }
    }
    if chosen.is_empty() {
        return Err("no client named (`default` stands for the default set)".to_owned());
    }
    for (i, (client, version)) in versions.iter().enumerate() {
        let other = versions[..i]
            .iter()
            .find(|(c, v)| c == client && v != version)
            .map(|(_, v)| v.as_str())
            .or_else(|| latest.contains(client).then_some("latest"));
        if let Some(other) = other {
            return Err(format!(
                "`{client}` named at two versions (`{other}` and `{version}`)"
            ));
        }
    }
    versions.dedup();
    Ok(Selection {
        clients: Client::ALL
            .into_iter()
            .filter(|c| chosen.contains(c))
            .collect(),
        versions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_expands_and_names_add() {
        assert_eq!(
            parse(&["default"]).unwrap().clients,
            Client::DEFAULT.to_vec()
        );
        let with = parse(&["openai-strict", "default", "gemini"])
            .unwrap()
            .clients;
        assert_eq!(with.len(), Client::DEFAULT.len() + 2);
        assert!(with.contains(&Client::OpenaiStrict) && with.contains(&Client::Gemini));
        assert_eq!(
            parse(&["gemini", "gemini"]).unwrap().clients,
            vec![Client::Gemini]
        );
        let err = parse(&["open-ai"]).unwrap_err();
        assert!(err.contains("unknown client `open-ai`") && err.contains("openai-strict"));
        assert!(parse::<&str>(&[]).is_err());
    }

    #[test]
    fn a_client_is_named_at_a_version_or_its_newest() {
        let at = parse(&["default", "claude-code@2.1.260"]).unwrap();
        assert_eq!(at.clients, Client::DEFAULT.to_vec());
        assert_eq!(at.versions, [(Client::ClaudeCode, "2.1.260".to_owned())]);
        let latest = parse(&["claude-code@latest"]).unwrap();
        assert_eq!(latest.clients, [Client::ClaudeCode]);
        assert!(latest.versions.is_empty());
        let err = parse(&["claude-code@2.x"]).unwrap_err();
        assert!(err.contains("`claude-code@2.x`"), "{err}");
        let err = parse(&["claude-code@2.0.0", "claude-code@2.1.260"]).unwrap_err();
        assert!(err.contains("two versions"), "{err}");
        assert!(parse(&["claude-code@2.0.0", "claude-code"]).is_err());
        assert!(parse(&["default@1"]).is_err());
        assert!(parse(&["nobody@1.0"])
            .unwrap_err()
            .contains("unknown client `nobody`"));
    }
}

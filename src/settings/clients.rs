//! Which clients a run is for: `--clients LIST` and `clients = [...]` in `schema-lint.toml`.
//! The word `default` stands for [`Client::DEFAULT`] (the SDK clients MCP servers meet and the
//! hosts); model providers are opted into by name.

use crate::diagnostic::breaks::Client;

/// The clients `names` select, in [`Client::ALL`]'s order, each once: `default` stands for the
/// default set.
///
/// # Errors
/// A name that is neither a client nor `default`, with the names there are; an empty list.
pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Vec<Client>, String> {
    let mut chosen = Vec::new();
    for name in names {
        let name = name.as_ref().trim();
        if name == "default" {
            chosen.extend(Client::DEFAULT);
        } else if let Some(client) = Client::named(name) {
            chosen.push(client);
        } else {
            let known: Vec<&str> = Client::ALL.iter().map(|c| c.name()).collect();
            return Err(format!(
                "unknown client `{name}` (`default` or one of {}; `schema-lint clients` says what each is)",
                known.join(", ")
            ));
        }
    }
    if chosen.is_empty() {
        return Err("no client named (`default` stands for the default set)".to_owned());
    }
    Ok(Client::ALL
        .into_iter()
        .filter(|c| chosen.contains(c))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_expands_and_names_add() {
        assert_eq!(parse(&["default"]).unwrap(), Client::DEFAULT.to_vec());
        let with = parse(&["openai-strict", "default", "gemini"]).unwrap();
        assert_eq!(with.len(), Client::DEFAULT.len() + 2);
        assert!(with.contains(&Client::OpenaiStrict) && with.contains(&Client::Gemini));
        assert_eq!(parse(&["gemini", "gemini"]).unwrap(), vec![Client::Gemini]);
        let err = parse(&["open-ai"]).unwrap_err();
        assert!(err.contains("unknown client `open-ai`") && err.contains("openai-strict"));
        assert!(parse::<&str>(&[]).is_err());
    }
}

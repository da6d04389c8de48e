//! A server entry wrapped in `schema-lint proxy` (what `session --fix` writes): its command is a
//! schema-lint binary and its arguments `proxy [OPTIONS] -- COMMAND ARGS...`. A session reads
//! such an entry as any other (it starts the proxy, which answers with the ported listing); this
//! tells it apart, for `--fix` (not wrapped twice) and `--unfix` (the server's own command back).

use std::path::Path;

/// What a wrapped entry's command line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proxied {
    /// The client the proxy ports for (`--for`), as written.
    pub client: Option<String>,
    /// The index in the arguments of the server's own command (the first word after `--`).
    pub inner: usize,
}

/// Whether `command` is a schema-lint binary (`schema-lint`, `schema-lint.exe`, by any path).
#[must_use]
pub fn is_schema_lint(command: &str) -> bool {
    let name = Path::new(command)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(command);
    let name = name.strip_suffix(".exe").unwrap_or(name);
    name == "schema-lint"
}

/// The proxy a command line `command ARGS` is, if it is one that starts a server: `proxy`, its
/// options, `--`, and at least the server's command.
#[must_use]
pub fn of<S: AsRef<str>>(command: &str, args: &[S]) -> Option<Proxied> {
    if !is_schema_lint(command) || args.first().map(AsRef::as_ref) != Some("proxy") {
        return None;
    }
    let dash = args.iter().position(|a| a.as_ref() == "--")?;
    if dash + 1 >= args.len() {
        return None;
    }
    let options = &args[1..dash];
    let mut client = None;
    for (i, a) in options.iter().enumerate() {
        let a = a.as_ref();
        if let Some(c) = a.strip_prefix("--for=") {
            client = Some(c.to_owned());
        } else if a == "--for" {
            client = options.get(i + 1).map(|c| c.as_ref().to_owned());
        }
    }
    Some(Proxied {
        client,
        inner: dash + 1,
    })
}

/// The arguments that wrap a server for `client`, before the server's own command and arguments.
#[must_use]
pub fn arguments(client: &str) -> [String; 4] {
    [
        "proxy".to_owned(),
        "--for".to_owned(),
        client.to_owned(),
        "--".to_owned(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_command_line_is_told_apart() {
        let p = of(
            "/usr/bin/schema-lint",
            &["proxy", "--for", "gemini-cli", "--", "py", "a"],
        );
        assert_eq!(
            p,
            Some(Proxied {
                client: Some("gemini-cli".to_owned()),
                inner: 4
            })
        );
        let p = of(
            "schema-lint.exe",
            &["proxy", "--for=codex", "--log", "l", "--", "x"],
        );
        assert_eq!(
            p.map(|p| (p.client, p.inner)),
            Some((Some("codex".into()), 5))
        );
        assert_eq!(of("schema-lint", &["proxy", "--for", "x", "--"]), None);
        assert_eq!(of("schema-lint", &["record", "--", "x"]), None);
        assert_eq!(of("python3", &["proxy", "--", "x"]), None);
        assert_eq!(of::<&str>("schema-lint-proxy", &[]), None);
    }
}

//! `schema-lint session`: the arguments, parsed and handed to [`crate::doors::session`].

use super::args::{SessionArgs, SessionFormat};
use super::live::options_of;
use super::{exit, Outcome};
use crate::diagnostic::breaks::Client;
use crate::diagnostic::client::is_version;
use crate::doors::session::{self, Format, Host, Options};
use std::io::IsTerminal as _;

/// Runs `schema-lint session`.
pub(super) fn session(args: &SessionArgs) -> Outcome {
    match options(args) {
        Ok(options) => {
            let printed = session::run(&options);
            Outcome {
                stdout: printed.stdout,
                stderr: printed.stderr,
                code: printed.code,
            }
        }
        Err(why) => Outcome {
            stderr: format!("error: {why}\n"),
            code: exit::ERROR,
            ..Outcome::default()
        },
    }
}

fn options(args: &SessionArgs) -> Result<Options, String> {
    let timeout = options_of(None, args.timeout)?.timeout.as_secs_f64();
    let mut hosts = Vec::new();
    let mut versions: Vec<(Client, String)> = Vec::new();
    for asked in &args.hosts {
        let (host, version) = host_at(asked)?;
        hosts.push(host);
        if let Some(version) = version {
            let client = host.client().ok_or_else(|| {
                format!(
                    "`--host {asked}`: the client model has no client for {host}, so no version \
                     of it"
                )
            })?;
            if let Some((_, other)) = versions.iter().find(|(c, v)| *c == client && *v != version) {
                return Err(format!(
                    "`{host}` named at two versions (`{other}` and `{version}`)"
                ));
            }
            versions.push((client, version));
        }
    }
    if !args.configs.is_empty() && hosts.len() > 1 {
        return Err("with files named, `--host` names the one host that reads them".to_owned());
    }
    let mut extra_clients = Vec::new();
    if !args.clients.is_empty() {
        let chosen = crate::settings::clients::parse(&args.clients)?;
        extra_clients = chosen.clients;
        for (client, version) in chosen.versions {
            if let Some((_, other)) = versions.iter().find(|(c, v)| *c == client && *v != version) {
                return Err(format!(
                    "`{client}` named at two versions (`{other}` by `--host`, `{version}` by \
                     `--clients`)"
                ));
            }
            versions.push((client, version));
        }
    }
    versions.dedup();
    if args.jobs == 0 {
        return Err("`--jobs 0`: at least one server starts at a time".to_owned());
    }
    let project = std::env::current_dir().map_err(|e| format!("no current folder: {e}"))?;
    let home = std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from);
    Ok(Options {
        host: if args.configs.is_empty() {
            None
        } else {
            hosts.first().copied()
        },
        only: if args.configs.is_empty() {
            hosts
        } else {
            Vec::new()
        },
        configs: args.configs.clone(),
        project,
        home,
        trust_project: args.trust_project,
        ask: !args.trust_project
            && std::io::stdin().is_terminal()
            && std::io::stderr().is_terminal(),
        extra_clients,
        versions,
        timeout,
        jobs: args.jobs,
        format: match args.output_format {
            SessionFormat::Human => Format::Human,
            SessionFormat::Json => Format::Json,
            SessionFormat::Markdown => Format::Markdown,
        },
        explain: match args.explain_error.as_deref() {
            Some("-") => {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                    .map_err(|e| format!("`--explain-error -`: standard input: {e}"))?;
                Some(text)
            }
            other => other.map(str::to_owned),
        },
        builtin_tools: args.builtin_tools,
        mend: if args.fix {
            Some(session::Mend::Fix)
        } else if args.unfix {
            Some(session::Mend::Unfix)
        } else {
            None
        },
    })
}

/// The host `asked` names (`claude-code`, `claude-code@2.1.260`, `claude-code@latest`) and the
/// version it names (`None`: the newest known, as a bare name).
fn host_at(asked: &str) -> Result<(Host, Option<String>), String> {
    let (name, version) = match asked.split_once('@') {
        Some((name, version)) => (name, Some(version)),
        None => (asked, None),
    };
    let host = Host::named(name).ok_or_else(|| {
        format!(
            "`--host {asked}`: no such host (one of {}; `NAME@VERSION` for a version)",
            Host::ALL.map(Host::name).join(", ")
        )
    })?;
    match version {
        None | Some("latest") => Ok((host, None)),
        Some(v) if is_version(v) => Ok((host, Some(v.to_owned()))),
        Some(v) => Err(format!(
            "`--host {asked}`: a version is numbers separated by dots (`{name}@2.1.260`) or \
             `latest`, not `{v}`"
        )),
    }
}

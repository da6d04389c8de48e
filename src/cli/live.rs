//! Live servers on the command line: `check --server/--url` and `schema-lint dump`.

use super::args::{DumpArgs, ServerArgs};
use super::{exit, Outcome};
use crate::report::printable;
use crate::workspace::live::{self, Options, Server};
use crate::workspace::Input;
use std::time::Duration;

/// The servers the arguments name, in order: commands, then URLs.
pub(super) fn servers(args: &ServerArgs) -> Result<Vec<Server>, String> {
    let commands = args.servers.iter().map(|c| Server::command(c, &args.env));
    let urls = args.urls.iter().map(|u| Server::url(u, &args.headers));
    commands.chain(urls).collect()
}

fn options(args: &ServerArgs) -> Result<Options, String> {
    options_of(args.protocol.clone(), args.timeout)
}

/// How to talk to a server: the revision asked for and `--timeout`, checked.
pub(super) fn options_of(protocol: Option<String>, timeout: f64) -> Result<Options, String> {
    if !(timeout.is_finite() && timeout > 0.0 && timeout <= 86_400.0) {
        return Err(format!(
            "`--timeout {timeout}`: give a number of seconds between 0 and 86400"
        ));
    }
    Ok(Options {
        protocol,
        timeout: Duration::from_secs_f64(timeout),
    })
}

/// What each named server advertises, as a document to lint (or the reason it could not be
/// listed, reported as an SL102 error on the server).
///
/// # Errors
/// A server argument is malformed.
pub(super) fn inputs(args: &ServerArgs) -> Result<Vec<Input>, String> {
    let servers = servers(args)?;
    let options = options(args)?;
    Ok(servers
        .iter()
        .map(|server| live::input(server, &options))
        .collect())
}

/// `schema-lint dump`: the `tools/list` of one server, as a document.
pub(super) fn dump_command(args: &DumpArgs) -> Outcome {
    let error = |message: String| Outcome {
        stderr: format!("error: {message}\n"),
        code: exit::ERROR,
        ..Outcome::default()
    };
    let servers = match servers(&args.live) {
        Ok(s) if s.len() == 1 => s,
        Ok(_) => return error("`dump` takes exactly one `--server` or `--url`".to_owned()),
        Err(why) => return error(why),
    };
    let options = match options(&args.live) {
        Ok(o) => o,
        Err(why) => return error(why),
    };
    let server = &servers[0];
    match live::list_tools(server, &options) {
        Ok(listing) => Outcome {
            stdout: live::dump(server, &listing),
            stderr: format!(
                "Listed {} tool{} of `{}` ({} page{}, protocol {})\n",
                listing.tools.len(),
                if listing.tools.len() == 1 { "" } else { "s" },
                printable(&server.label),
                listing.pages,
                if listing.pages == 1 { "" } else { "s" },
                listing.protocol
            ),
            code: exit::CLEAN,
        },
        Err(why) => error(format!(
            "cannot list the tools of `{}`: {}",
            printable(&server.label),
            printable(&why)
        )),
    }
}

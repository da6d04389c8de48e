//! `check --watch`: lint, print, then poll the files of the run for a change and lint again,
//! for a terminal (the screen is cleared before each report when standard output is one).
//!
//! Polling rather than a file-system notification library: a walk that stats the `.json` files
//! of the paths (the walk a run makes, `.gitignore` honoured) is portable, needs no new
//! dependency, and sees what notifications miss (network mounts, editors that replace a file).
//! Its cost is bounded: the pause between two polls is at least ten times what the last walk
//! took (and at least 250 ms), so polling keeps under a tenth of a core whatever the project's
//! size, and a burst of saves is linted once, after the files have stopped changing for a poll.

use super::args::CheckArgs;
use super::Outcome;
use crate::workspace::discover::discover_with;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

/// What a poll saw of each file: its path, modification time and length.
type Stamps = Vec<(PathBuf, Option<SystemTime>, u64)>;

const MIN_PAUSE: Duration = Duration::from_millis(250);

/// Runs until killed (Ctrl-C): a check, then another after each change.
pub(super) fn watch(args: &CheckArgs) -> Outcome {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let clear = std::io::stdout().is_terminal();
    loop {
        // Stamps taken before the run: a file saved while it lints is linted again.
        let (mut seen, mut took) = stamps(&paths, !args.no_respect_gitignore);
        let outcome = super::check::check_once(args);
        print(&outcome, clear, args.quiet);
        // Wait for a change, then for the files to settle (one more poll with no change).
        let mut changed = false;
        loop {
            std::thread::sleep(pause(took));
            let (now, t) = stamps(&paths, !args.no_respect_gitignore);
            took = t;
            if now == seen {
                if changed {
                    break;
                }
            } else {
                changed = true;
                seen = now;
            }
        }
    }
}

/// The pause before the next poll: ten times the last walk, at least [`MIN_PAUSE`].
fn pause(walk: Duration) -> Duration {
    MIN_PAUSE.max(walk.saturating_mul(10))
}

fn print(outcome: &Outcome, clear: bool, quiet: bool) {
    let mut out = std::io::stdout().lock();
    if clear {
        // Clear the screen and the scroll-back, cursor home.
        let _ = out.write_all(b"\x1b[H\x1b[2J\x1b[3J");
    }
    let _ = out.write_all(outcome.stdout.as_bytes());
    let _ = out.flush();
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(outcome.stderr.as_bytes());
    if !quiet {
        let _ = err.write_all(b"Watching for changes; Ctrl-C stops\n");
    }
    let _ = err.flush();
}

/// The stamps of every `.json` file the paths hold, sorted, and how long the walk took.
fn stamps(paths: &[PathBuf], respect_ignore_files: bool) -> (Stamps, Duration) {
    let start = Instant::now();
    let found = discover_with(paths, &|_: &std::path::Path| true, respect_ignore_files);
    let mut out: Stamps = found
        .files
        .into_iter()
        .filter(|c| c.path.as_os_str() != "-")
        .map(|c| {
            let meta = std::fs::metadata(&c.path).ok();
            let modified = meta.as_ref().and_then(|m| m.modified().ok());
            let len = meta.map_or(0, |m| m.len());
            (c.path, modified, len)
        })
        .collect();
    out.sort();
    (out, start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_grows_with_the_walk() {
        assert_eq!(pause(Duration::ZERO), MIN_PAUSE);
        assert_eq!(pause(Duration::from_millis(100)), Duration::from_secs(1));
    }
}

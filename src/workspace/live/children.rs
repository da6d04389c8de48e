//! The servers this process started, and how they are kept from outliving it.
//!
//! On Unix each server starts in a process group of its own (its pid is the group id), so that
//! what it forks, and what a wrapper (`sh -c`, `npx`, `uv run`) starts, is stopped with it: every
//! signal goes to the whole group. Three ways cover the ends of schema-lint:
//! - it ends normally: [`super::stdio`] stops the group when it closes the server;
//! - Ctrl-C or `SIGTERM`: the handler kills every group still registered, then exits with 130 as
//!   shells expect of an interrupted command;
//! - `SIGKILL` (nothing of schema-lint runs any more): on Linux the server itself gets `SIGKILL`
//!   when schema-lint dies (`PR_SET_PDEATHSIG`, which covers only that direct child), and a
//!   [`Watchdog`], a small `sh` outside the group waiting on a pipe from schema-lint, sees the
//!   pipe close and kills the rest of the group (the wrapper's server, its children).
//!
//! A descendant that leaves the group itself (`setsid`, a daemon) is beyond all three.
//!
//! The same handler serves `--fix`: while files are being replaced, an interrupt is only noted
//! ([`defer_interrupts`]), and the writer finishes or rolls back, removes its temporary files and
//! ends the run itself.

use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, Once};

static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// How many [`Deferral`]s are alive, and whether an interrupt came while one was.
static DEFERRED: Mutex<(usize, bool)> = Mutex::new((0, false));

/// While alive, Ctrl-C and `SIGTERM` do not end the process: [`interrupted`] turns true and the
/// holder decides when to stop (servers are still stopped at once).
pub struct Deferral(());

/// Installs the handler (as [`stop_on_interrupt`]) and defers interrupts until the returned
/// value is dropped.
#[must_use]
pub fn defer_interrupts() -> Deferral {
    stop_on_interrupt();
    if let Ok(mut d) = DEFERRED.lock() {
        d.0 += 1;
    }
    Deferral(())
}

impl Drop for Deferral {
    fn drop(&mut self) {
        if let Ok(mut d) = DEFERRED.lock() {
            d.0 = d.0.saturating_sub(1);
        }
    }
}

/// Whether Ctrl-C or `SIGTERM` came while interrupts were deferred.
#[must_use]
pub fn interrupted() -> bool {
    DEFERRED.lock().is_ok_and(|d| d.1)
}

/// Remembers a started server's group.
pub fn register(group: u32) {
    if let Ok(mut groups) = GROUPS.lock() {
        groups.push(group);
    }
}

/// Forgets a server's group once it is stopped.
pub fn unregister(group: u32) {
    if let Ok(mut groups) = GROUPS.lock() {
        groups.retain(|g| *g != group);
    }
}

/// Installs, once, the handler that stops every registered server on Ctrl-C (or `SIGTERM`), and
/// then the process, unless interrupts are deferred.
pub fn stop_on_interrupt() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // A library caller may have its own handler: then it decides, and ours stays out.
        let _ = ctrlc::set_handler(|| {
            let groups = GROUPS.lock().map(|c| c.clone()).unwrap_or_default();
            for group in groups {
                #[cfg(unix)]
                signal_group(group, libc::SIGKILL);
                #[cfg(not(unix))]
                let _ = group;
            }
            // Held while deciding, so that no deferral starts between the check and the exit.
            let mut deferred = DEFERRED
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if deferred.0 > 0 {
                deferred.1 = true;
                return;
            }
            std::process::exit(130);
        });
    });
}

/// Makes `command` start in a process group of its own, and (on Linux) die with this process;
/// it starts with the default action of `SIGXFSZ`, which the binary ignores for itself.
pub fn own_group(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        // SAFETY: the closure runs between fork and exec and calls only signal(2), which is
        // async-signal-safe; it allocates nothing.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
                Ok(())
            });
        }
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // What the server's group leaves behind when it exits is handed to this process (not
        // to an init that may never reap it), so [`reap_group`] can collect it.
        // SAFETY: prctl(2) with an integer argument, on this process.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        }
        let parent = std::process::id();
        // SAFETY: the closure runs between fork and exec and calls only prctl(2) and
        // getppid(2), both async-signal-safe; it allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                // schema-lint died before the line above: the signal will never come.
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
}

/// Sends `signal` to every process of the group `group` (which a server this process started
/// leads, or led: a group id is not reused while a member lives).
#[cfg(unix)]
pub fn signal_group(group: u32, signal: i32) {
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: kill(2) on a negative pid signals the group; the group is one we created.
        unsafe {
            libc::kill(-group, signal);
        }
    }
}

/// Whether any process of `group` is left (zombies included, until they are reaped).
#[cfg(unix)]
#[must_use]
pub fn group_alive(group: u32) -> bool {
    libc::pid_t::try_from(group).is_ok_and(|group| {
        // SAFETY: signal 0 only checks that the group exists and may be signalled.
        unsafe { libc::kill(-group, 0) == 0 }
    })
}

/// Collects the processes of `group` that have exited (on Linux, where this process is their
/// subreaper), so that a group of only exited processes is gone.
#[cfg(unix)]
pub fn reap_group(group: u32) {
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: waitpid(2) without blocking, on processes of a group we created.
        while unsafe { libc::waitpid(-group, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
    }
}

/// A process outside the server's group that kills the group should schema-lint die without a
/// word (`SIGKILL`): it waits on a pipe only schema-lint holds, and its end means schema-lint is
/// gone. [`Watchdog::disarm`] tells it the group is already stopped.
pub struct Watchdog {
    child: Child,
}

impl Watchdog {
    /// Starts the watchdog of `group`; `None` where there is no `sh` (or no Unix).
    #[must_use]
    pub fn start(group: u32) -> Option<Self> {
        if !cfg!(unix) {
            return None;
        }
        let mut command = Command::new("/bin/sh");
        command
            .args([
                "-c",
                r#"trap '' INT HUP TERM; read line; [ "$line" = done ] || kill -s KILL -- -"$1""#,
                "schema-lint-watchdog",
                &group.to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command.spawn().ok().map(|child| Self { child })
    }

    /// Tells the watchdog that the group is stopped, and waits for it to exit.
    pub fn disarm(mut self) {
        use std::io::Write;
        if let Some(mut pipe) = self.child.stdin.take() {
            let _ = pipe.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}

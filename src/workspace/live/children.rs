//! The servers this process started, so that Ctrl-C stops them too: the handler terminates every
//! child still registered, then exits with 130 as shells expect of an interrupted command.
//!
//! The same handler serves `--fix`: while files are being replaced, an interrupt is only noted
//! ([`defer_interrupts`]), and the writer finishes or rolls back, removes its temporary files and
//! ends the run itself.

use std::sync::{Mutex, Once};

static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

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

/// Remembers a started server.
pub fn register(pid: u32) {
    if let Ok(mut children) = CHILDREN.lock() {
        children.push(pid);
    }
}

/// Forgets a server once it is stopped.
pub fn unregister(pid: u32) {
    if let Ok(mut children) = CHILDREN.lock() {
        children.retain(|p| *p != pid);
    }
}

/// Installs, once, the handler that stops every registered server on Ctrl-C (or `SIGTERM`), and
/// then the process, unless interrupts are deferred.
pub fn stop_on_interrupt() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // A library caller may have its own handler: then it decides, and ours stays out.
        let _ = ctrlc::set_handler(|| {
            let children = CHILDREN.lock().map(|c| c.clone()).unwrap_or_default();
            for pid in children {
                kill(pid);
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

/// Sends `signal` to a child this process started (on systems without signals, nothing: the
/// kill that follows stops it).
pub fn send(pid: u32, signal: i32) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) on a child this process started and has not reaped: the pid is ours.
        unsafe {
            libc::kill(pid, signal);
        }
    }
    #[cfg(not(unix))]
    let _ = (pid, signal);
}

fn kill(pid: u32) {
    #[cfg(unix)]
    send(pid, libc::SIGKILL);
    #[cfg(not(unix))]
    let _ = pid;
}

//! The servers this process started, so that Ctrl-C stops them too: the handler terminates every
//! child still registered, then exits with 130 as shells expect of an interrupted command.

use std::sync::{Mutex, Once};

static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

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

/// Installs, once, the handler that stops every registered server on Ctrl-C (or `SIGTERM`).
pub fn stop_on_interrupt() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // A library caller may have its own handler: then it decides, and ours stays out.
        let _ = ctrlc::set_handler(|| {
            let children = CHILDREN.lock().map(|c| c.clone()).unwrap_or_default();
            for pid in children {
                kill(pid);
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

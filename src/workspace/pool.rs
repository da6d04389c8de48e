//! The threads the engine runs on. Parsing, the rules, the meta-schema check and the `jsonschema`
//! compile of a fix all recurse once per level of nesting; at the deepest input the parser
//! accepts ([`crate::syntax::document::MAX_DEPTH`]) a debug build needs a few MiB of stack, more than
//! the 2 MiB rayon gives its threads by default, and a library caller's own thread may have
//! less. So every entry point (loading a file here, the engine's `run` and `lint_loaded`, the fix
//! loop's `fix_run`, all in layers above this one) runs inside one pool whose threads
//! have [`STACK_SIZE`] of stack. The size is reserved address space, not memory: pages are only
//! touched as deep as the recursion goes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{LazyLock, OnceLock};

/// Stack of each pool thread: about ten times what the deepest accepted input needs in a debug
/// build (measured: under 4 MiB; `tests/it/hostile.rs` runs that input through lint and `--fix`).
pub const STACK_SIZE: usize = 64 << 20;

/// The pool's shape where a command asked for another before it started ([`prefer`]): its
/// number of threads and the stack of each.
static SHAPE: OnceLock<(usize, usize)> = OnceLock::new();

/// Whether the pool has been built (its shape fixed).
static STARTED: AtomicBool = AtomicBool::new(false);

static POOL: LazyLock<Option<rayon::ThreadPool>> = LazyLock::new(|| {
    STARTED.store(true, Ordering::SeqCst);
    let (threads, stack) = SHAPE.get().copied().unwrap_or((0, STACK_SIZE));
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(stack)
        .thread_name(|i| format!("schema-lint-{i}"))
        .build()
        .ok()
});

/// Asks for a pool of `threads` threads (0: one per core) with `stack` bytes of stack each,
/// for a command that reserves little address space (`audit`, streaming a capture of any size
/// under a memory limit, lints one schema at a time). Takes effect only before the pool's first
/// use; says whether it did.
pub fn prefer(threads: usize, stack: usize) -> bool {
    !STARTED.load(Ordering::SeqCst) && SHAPE.set((threads, stack)).is_ok()
}

/// Runs `f` on a pool thread (inline when already on one); rayon's parallel iterators inside it
/// use the same pool. Should the pool not start (no thread could be spawned), `f` runs on the
/// calling thread.
pub fn run<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    match POOL.as_ref() {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_on_a_named_pool_thread() {
        let name = super::run(|| std::thread::current().name().map(str::to_owned));
        assert!(name.is_some_and(|n| n.starts_with("schema-lint-")));
        // Nested calls run inline.
        assert_eq!(super::run(|| super::run(|| 7)), 7);
    }
}

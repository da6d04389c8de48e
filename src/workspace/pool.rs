//! The threads the engine runs on. Parsing, the rules, the meta-schema check and the `jsonschema`
//! compile of a fix all recurse once per level of nesting; at the deepest input the parser
//! accepts ([`crate::syntax::document::MAX_DEPTH`]) a debug build needs a few MiB of stack, more than
//! the 2 MiB rayon gives its threads by default, and a library caller's own thread may have
//! less. So every entry point (loading a file here, the engine's `run` and `lint_loaded`, the fix
//! loop's `fix_run`, all in layers above this one) runs inside one pool whose threads
//! have [`STACK_SIZE`] of stack. The size is reserved address space, not memory: pages are only
//! touched as deep as the recursion goes.

use std::sync::LazyLock;

/// Stack of each pool thread: about ten times what the deepest accepted input needs in a debug
/// build (measured: under 4 MiB; `tests/it/hostile.rs` runs that input through lint and `--fix`).
pub const STACK_SIZE: usize = 64 << 20;

static POOL: LazyLock<Option<rayon::ThreadPool>> = LazyLock::new(|| {
    rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_SIZE)
        .thread_name(|i| format!("schema-lint-{i}"))
        .build()
        .ok()
});

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

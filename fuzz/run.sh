#!/usr/bin/env bash
# Fuzzing, bounded in time: seeds the corpora (fuzz/seed.sh), builds the targets, then runs each
# target once: libFuzzer first runs every saved input of its corpus (the replay), then fuzzes
# new inputs for the target's share of FUZZ_SECONDS, counted from the end of the replay. Fails on
# any crash, panic, hang (-timeout) or out-of-memory, leaving the input in
# fuzz/artifacts/<target>/; prints libFuzzer's replay, executions and coverage (cov: edges,
# ft: features) for each target.
#
#   FUZZ_SECONDS    fuzzing time over all targets, replays not counted (default 60)
#   FUZZ_TARGETS    targets to run (default "bytes schemas")
#   FUZZ_BUILD_ONLY  1: seed and build, then stop (.ci/run starts this early, in the background;
#                   the run that follows rebuilds nothing)
#   CARGO_TARGET_DIR  where to build (default ~/.cache/schema-lint/fuzz-target, kept between runs
#                   so that a run rebuilds only what changed)
#
# The build is cargo-fuzz 0.13.2's `cargo fuzz build --sanitizer none --debug-assertions
# --codegen-units 16`, spelled out, so that no cargo-fuzz has to be installed first: libFuzzer's
# coverage instrumentation (sancov) on stable rustc, for the host target only (build scripts and
# proc macros stay uninstrumented), optimised, with line tables, debug assertions and overflow
# checks. No sanitizer: the code is safe Rust, and it builds and runs faster without one.
# `cargo fuzz run <target>` works on the same crate too (with RUSTC_BOOTSTRAP=1 on stable).
# The library is built without its default `cli` feature: the targets call the library, not the
# command line, its language server or its HTTP client.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/schema-lint/fuzz-target}"
start=$SECONDS
say() { echo "== fuzz: $* ($((SECONDS - start)) s)"; }

bash fuzz/seed.sh

read -r -a targets <<< "${FUZZ_TARGETS:-bytes schemas}"
seconds="${FUZZ_SECONDS:-60}"
share=$(( seconds / ${#targets[@]} ))
[ "$share" -ge 1 ] || share=1
host=$(rustc -vV | sed -n 's/^host: //p')
sancov=(-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table
  -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing
  -Cllvm-args=-simplifycfg-branch-fold-threshold=0)
case "$host" in *-linux-*) sancov+=(-Cllvm-args=-sanitizer-coverage-stack-depth) ;; esac
libfuzzer=(-rss_limit_mb=4096 -timeout=30 -max_len=16384 -print_final_stats=1)

say "building ${targets[*]}"
bins=()
for target in "${targets[@]}"; do bins+=(--bin "$target"); done
RUSTFLAGS="${sancov[*]} -Cdebug-assertions -Ccodegen-units=16 ${RUSTFLAGS:-}" \
  cargo build --manifest-path fuzz/Cargo.toml --locked --target "$host" --release \
  --config 'profile.release.debug="line-tables-only"' "${bins[@]}"
if [ "${FUZZ_BUILD_ONLY:-0}" = 1 ]; then
  say "built"
  exit 0
fi

logs="$(mktemp -d)"
fuzzer=
trap '[ -z "$fuzzer" ] || kill "$fuzzer" 2>/dev/null; rm -rf "$logs"' EXIT
summary=()
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  mkdir -p "fuzz/artifacts/$target"
  say "replaying the corpus of $target, then fuzzing it for ${share} s"
  # SIGUSR1 asks libFuzzer to stop after the input it is running, with exit code 0; a crash,
  # a hang or an out-of-memory exits non-zero, the replay's included.
  "$CARGO_TARGET_DIR/$host/release/$target" "${libfuzzer[@]}" \
    -artifact_prefix="fuzz/artifacts/$target/" "fuzz/corpus/$target" > "$log" 2>&1 &
  fuzzer=$!
  while kill -0 "$fuzzer" 2>/dev/null && ! grep -qE '^#[0-9]+[[:space:]]+INITED' "$log"; do
    sleep 1
  done
  replayed="$(grep -E '^#[0-9]+[[:space:]]+INITED' "$log" | head -n 1 || true)"
  if [ -n "$replayed" ]; then
    say "replayed: $replayed"
    for _ in $(seq "$share"); do
      kill -0 "$fuzzer" 2>/dev/null || break
      sleep 1
    done
    kill -USR1 "$fuzzer" 2>/dev/null || true
  fi
  code=0
  wait "$fuzzer" || code=$?
  fuzzer=
  if [ "$code" -ne 0 ]; then
    tail -n 60 "$log"
    if [ -z "$replayed" ]; then
      say "FAILED: an input of fuzz/corpus/$target crashes $target (see above)"
    else
      say "FAILED: $target crashed; the input is in fuzz/artifacts/$target/ (replay it with:"
      say "  $CARGO_TARGET_DIR/$host/release/$target fuzz/artifacts/$target/<file>)"
    fi
    exit 1
  fi
  # The last status line (a graceful exit prints no DONE line).
  done_line="$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$log" | tail -n 1 || true)"
  execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)"
  loaded="$(echo "$replayed" | grep -oE '^#[0-9]+' | tr -d '#')"
  echo "$done_line"
  summary+=("$target: ${loaded:-?} inputs replayed, then $(( ${execs:-0} - ${loaded:-0} )) new executions in ${share} s; $(echo "$done_line" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+')")
done
say "done"
printf '%s\n' "${summary[@]}"

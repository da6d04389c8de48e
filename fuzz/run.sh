#!/usr/bin/env bash
# Fuzzing, bounded in time: installs cargo-fuzz if it is missing, seeds the corpora
# (fuzz/seed.sh), replays every saved input of each target once (-runs=0), then fuzzes each
# target for its share of FUZZ_SECONDS. Fails on any crash, panic, hang (-timeout) or
# out-of-memory, leaving the input in fuzz/artifacts/<target>/; prints libFuzzer's executions
# and coverage (cov: edges, ft: features) for each target.
#
#   FUZZ_SECONDS    fuzzing time over all targets, replays not counted (default 60)
#   FUZZ_TARGETS    targets to run (default "bytes schemas")
#   FUZZ_SANITIZER  none (default: the code is safe Rust, and builds and runs faster) or address
#   FUZZ_BUILD_ONLY  1: install, seed and build, then stop (.ci/run starts this early, in the
#                   background; the run that follows rebuilds nothing)
#   CARGO_TARGET_DIR  where to build (default ~/.cache/schema-lint/fuzz-target, kept between runs
#                   so that a run rebuilds only what changed)
#
# cargo-fuzz needs nightly features: RUSTC_BOOTSTRAP=1 lets the stable toolchain use them.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/schema-lint/fuzz-target}"
start=$SECONDS
say() { echo "== fuzz: $* ($((SECONDS - start)) s)"; }

if ! command -v cargo-fuzz >/dev/null; then
  say "installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi
bash fuzz/seed.sh

read -r -a targets <<< "${FUZZ_TARGETS:-bytes schemas}"
seconds="${FUZZ_SECONDS:-60}"
share=$(( seconds / ${#targets[@]} ))
[ "$share" -ge 1 ] || share=1
flags=(--sanitizer "${FUZZ_SANITIZER:-none}" --debug-assertions --codegen-units 16)
libfuzzer=(-rss_limit_mb=4096 -timeout=30 -max_len=16384 -print_final_stats=1)

say "building ${targets[*]}"
cargo fuzz build "${flags[@]}"
if [ "${FUZZ_BUILD_ONLY:-0}" = 1 ]; then
  say "built"
  exit 0
fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
summary=()
for target in "${targets[@]}"; do
  say "replaying the corpus of $target"
  if ! cargo fuzz run "${flags[@]}" "$target" "fuzz/corpus/$target" -- \
      "${libfuzzer[@]}" -runs=0 > "$logs/$target-replay.log" 2>&1; then
    tail -n 60 "$logs/$target-replay.log"
    say "FAILED: an input of fuzz/corpus/$target crashes $target (see above)"
    exit 1
  fi
  grep -E '^#[0-9]+[[:space:]]+DONE' "$logs/$target-replay.log" | tail -n 1 || true
  say "fuzzing $target for ${share} s"
  if ! cargo fuzz run "${flags[@]}" "$target" "fuzz/corpus/$target" -- \
      "${libfuzzer[@]}" -max_total_time="$share" > "$logs/$target.log" 2>&1; then
    tail -n 60 "$logs/$target.log"
    say "FAILED: $target crashed; the input is in fuzz/artifacts/$target/ (replay it with:"
    say "  RUSTC_BOOTSTRAP=1 cargo fuzz run ${flags[*]} $target fuzz/artifacts/$target/<file>)"
    exit 1
  fi
  done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$logs/$target.log" | tail -n 1 || true)"
  execs="$(grep -E '^stat::number_of_executed_units' "$logs/$target.log" | awk '{print $2}' || true)"
  echo "$done_line"
  summary+=("$target: ${execs:-?} executions in ${share} s; $(echo "$done_line" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+')")
done
say "done"
printf '%s\n' "${summary[@]}"

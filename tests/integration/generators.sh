#!/usr/bin/env bash
# What schemars (the Rust MCP SDK's schema generator) writes, and what schema-lint says of it:
# builds tests/integration/generators/schemars (schemars from crates.io, pinned), which prints a
# tools/list of Rust types before and after the change each schemars help of SL707, SL708 and
# SL711 names, lints it for the clients those rules are for, and checks the pairs and the
# fixtures that hold schemars' output (generators/check.py).
#
# Usage: tests/integration/generators.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
OUT="target/generators"
[ -x "$LINTER" ] || { echo "generators: FAILED: no schema-lint binary at $LINTER" >&2; exit 1; }
mkdir -p "$OUT"

CARGO_TARGET_DIR="$PWD/$OUT" cargo run --quiet --locked \
    --manifest-path tests/integration/generators/schemars/Cargo.toml >"$OUT/schemars-tools.json"

set +e
"$LINTER" --clients default,gemini,gemini-jsonschema --output-format json \
    "$OUT/schemars-tools.json" >"$OUT/schemars-report.json"
code=$?
set -e
[ "$code" -le 1 ] || { echo "generators: FAILED: schema-lint exited $code" >&2; exit 1; }

python3 tests/integration/generators/check.py "$OUT/schemars-tools.json" "$OUT/schemars-report.json" .
echo "generators: passed"

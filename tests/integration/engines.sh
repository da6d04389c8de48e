#!/usr/bin/env bash
# The engine tier: every case of testdata/engines/ (the files of testdata/engines/cases/, the
# `json bad` examples of rules/*.md and the bad fixtures of testdata/rules/<CODE>/) through the
# engines MCP clients really run, and the result compared with what is checked in.
#
# Engines, each configured as its client configures it (tests/integration/engines/ says how):
#   ts-sdk-v1          Ajv 8, the draft-07 class for every schema, as @modelcontextprotocol/sdk 1.x
#   ts-sdk-v2          Ajv 8, the class chosen by `$schema`, as @modelcontextprotocol/client 2.4.0
#   python-sdk         Python jsonschema as the mcp 2.3.0 client calls it, no format extras
#   python-sdk+format  the same with jsonschema[format-nongpl] (rfc3986-validator and co.)
#   jsonschema-rs      the `jsonschema` crate this repository pins, in-process (examples/engines.rs)
# and the listing cases (testdata/engines/listings/: whole `tools/list` results) through the SDK
# clients themselves, each connected to a fake peer in its own process (tests/integration/listing/):
#   ts-sdk-v1          `Client` of @modelcontextprotocol/sdk 1.32.2
#   ts-sdk-v2          `Client` of @modelcontextprotocol/client 2.4.0
#   python-sdk         `mcp.Client` of mcp 2.3.0
#   python-sdk+format  the same with jsonschema[format-nongpl] installed beside it
#   jsonschema-rs      no MCP client: the crate compiles each listed output schema (as above)
# and the input-role cases (`"role": "input"`: a tool's inputSchema) through the hosts' and model
# providers' own conversions (tests/integration/providers/):
#   openai-agents      the OpenAI Agents SDK's strict conversion: openai-agents 0.24.0 (Python,
#                      MCPUtil.to_function_tool) and @openai/agents-core 0.20.0 (mcpToFunctionTool)
#   gemini             google-genai 3.6.1: types.FunctionDeclaration(parameters=...) and its MCP
#                      path (mcp_to_gemini_tool), each up to the request generate_content sends
#   gemini-cli         @google/gemini-cli-core 0.61.0 discoverTools, with the MCP SDK client it uses
#   ai-sdk-google      @ai-sdk/google 3.0.141's request (observed only)
# Ajv, ajv-formats and fast-uri are the versions bundled in @modelcontextprotocol/client 2.4.0
# (8.18.0, 3.0.1, 3.1.8), installed with `npm ci` from tests/integration/engines/package-lock.json
# into target/engines/js; the Python packages are pinned in tests/integration/engines/
# requirements-*.txt, installed into two venvs under target/engines/. Everything is reused while
# the pins are unchanged. The SDKs of the listing tier are pinned the same way, in
# tests/integration/listing/package-lock.json and requirements-*.txt, installed into
# target/engines/listing-js and two more venvs; the hosts' and providers' packages in
# tests/integration/providers/package-lock.json and requirements.txt, into
# target/engines/providers-js and target/engines/providers-py (about 1.5 minutes the first time,
# most of it gemini-cli-core's 450 packages).
#
# Writes target/engines/observed.json (what each engine did with each case) and
# target/engines/breaks.json (per case class, which clients break and how), then compares them
# with testdata/engines/observed.json and testdata/engines/breaks.json: any difference fails.
# With --write, copies them there instead (then bless the tests that read breaks.json).
#
# Usage: tests/integration/engines.sh [--write]
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$SECONDS

HERE="tests/integration/engines"
OUT="target/engines"
DATA="testdata/engines"
WRITE=0
case "${1:-}" in
    --write) WRITE=1 ;;
    "") ;;
    *) echo "usage: $0 [--write]" >&2; exit 2 ;;
esac

fail() {
    echo "engines: FAILED: $*" >&2
    exit 1
}

for tool in cargo python3 node npm; do
    command -v "$tool" >/dev/null || fail "$tool is required"
done
mkdir -p "$OUT/js"

# Ajv as the TypeScript clients bundle it.
if ! cmp -s "$HERE/package-lock.json" "$OUT/js/node_modules/.installed-package-lock.json"; then
    echo "engines: npm ci in $OUT/js"
    cp "$HERE/package.json" "$HERE/package-lock.json" "$OUT/js/"
    (cd "$OUT/js" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci failed in $OUT/js"
    cp "$HERE/package-lock.json" "$OUT/js/node_modules/.installed-package-lock.json"
fi
cp "$HERE/ajv.mjs" "$OUT/js/ajv.mjs"

# The TypeScript SDK clients, for the listing cases.
LIST="tests/integration/listing"
mkdir -p "$OUT/listing-js"
if ! cmp -s "$LIST/package-lock.json" "$OUT/listing-js/node_modules/.installed-package-lock.json"; then
    echo "engines: npm ci in $OUT/listing-js"
    cp "$LIST/package.json" "$LIST/package-lock.json" "$OUT/listing-js/"
    (cd "$OUT/listing-js" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci failed in $OUT/listing-js"
    cp "$LIST/package-lock.json" "$OUT/listing-js/node_modules/.installed-package-lock.json"
fi
cp "$LIST/ts_clients.mjs" "$OUT/listing-js/ts_clients.mjs"

# The hosts' and providers' conversions of input schemas.
PROV="tests/integration/providers"
mkdir -p "$OUT/providers-js"
if ! cmp -s "$PROV/package-lock.json" "$OUT/providers-js/node_modules/.installed-package-lock.json"; then
    echo "engines: npm ci in $OUT/providers-js"
    cp "$PROV/package.json" "$PROV/package-lock.json" "$OUT/providers-js/"
    (cd "$OUT/providers-js" && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts) \
        || fail "npm ci failed in $OUT/providers-js"
    cp "$PROV/package-lock.json" "$OUT/providers-js/node_modules/.installed-package-lock.json"
fi
cp "$PROV/hosts.mjs" "$OUT/providers-js/hosts.mjs"

# Python's jsonschema, without and with the format extras.
venv() { # name requirements
    local dir="$OUT/$1" req="$2"
    if ! cmp -s "$req" "$dir/.installed-requirements.txt"; then
        echo "engines: installing $req into $dir"
        rm -rf "$dir"
        python3 -m venv "$dir" || fail "could not create a venv (is python3-venv installed?)"
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$req" \
            || fail "pip could not install $req"
        cp "$req" "$dir/.installed-requirements.txt"
    fi
}
venv py-plain "$HERE/requirements-plain.txt"
venv py-format "$HERE/requirements-format.txt"
venv listing-py "$LIST/requirements-plain.txt"
venv listing-py-format "$LIST/requirements-format.txt"
venv providers-py "$PROV/requirements.txt"

# The cases, and the Rust engine.
cargo build --quiet --locked --example engines || fail "cargo could not build examples/engines.rs"
ENGINES_BIN="target/debug/examples/engines"
"$ENGINES_BIN" cases >"$OUT/cases.json" || fail "could not gather the cases"

node "$OUT/js/ajv.mjs" "$OUT/cases.json" >"$OUT/ajv.json" || fail "the Ajv engines failed"
# Python's string hashing is randomised per process; the runner sorts what it reports anyway.
export PYTHONHASHSEED=0
"$OUT/py-plain/bin/python" "$HERE/python_client.py" python-sdk "$OUT/cases.json" >"$OUT/python.json" \
    || fail "the python-sdk engine failed"
"$OUT/py-format/bin/python" "$HERE/python_client.py" python-sdk+format "$OUT/cases.json" \
    >"$OUT/python-format.json" || fail "the python-sdk+format engine failed"
"$ENGINES_BIN" run "$OUT/cases.json" >"$OUT/rust.json" || fail "the jsonschema-rs engine failed"
# The input-role cases through the hosts' and providers' conversions (nothing leaves the process).
"$OUT/providers-py/bin/python" -W ignore "$PROV/providers.py" "$OUT/cases.json" >"$OUT/providers-py.json" \
    || fail "the Python provider conversions failed"
node "$OUT/providers-js/hosts.mjs" "$OUT/cases.json" >"$OUT/providers-js.json" 2>"$OUT/providers-js.log" \
    || fail "the JavaScript host conversions failed (see $OUT/providers-js.log)"

# The listing cases through the SDK clients (and their output schemas through the crate).
python3 "$HERE/observe.py" listings "$DATA/listings" >"$OUT/listings.json" || fail "observe.py listings"
node "$OUT/listing-js/ts_clients.mjs" "$OUT/listings.json" >"$OUT/listing-ts.json" \
    || fail "the TypeScript SDK clients failed"
"$OUT/listing-py/bin/python" "$LIST/python_client.py" python-sdk "$OUT/listings.json" \
    >"$OUT/listing-python.json" || fail "the python-sdk client failed"
"$OUT/listing-py-format/bin/python" "$LIST/python_client.py" python-sdk+format "$OUT/listings.json" \
    >"$OUT/listing-python-format.json" || fail "the python-sdk+format client failed"
python3 "$HERE/observe.py" listing-schemas "$OUT/listings.json" >"$OUT/listing-schemas.json" \
    || fail "observe.py listing-schemas"
"$ENGINES_BIN" run "$OUT/listing-schemas.json" >"$OUT/listing-schemas-rust.json" \
    || fail "the jsonschema-rs engine failed on the listings"
python3 "$HERE/observe.py" rust-listing "$OUT/listings.json" "$OUT/listing-schemas-rust.json" \
    >"$OUT/listing-rust.json" || fail "observe.py rust-listing"

python3 "$HERE/observe.py" observed "$OUT/cases.json" "$OUT/listings.json" "$OUT/ajv.json" \
    "$OUT/python.json" "$OUT/python-format.json" "$OUT/rust.json" "$OUT/listing-ts.json" \
    "$OUT/listing-python.json" "$OUT/listing-python-format.json" "$OUT/listing-rust.json" \
    "$OUT/providers-py.json" "$OUT/providers-js.json" \
    >"$OUT/observed.json" || fail "observe.py observed"
python3 "$HERE/observe.py" breaks "$OUT/cases.json" "$OUT/listings.json" "$OUT/observed.json" \
    >"$OUT/breaks.json" || fail "observe.py breaks"

cases=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$OUT/observed.json")
if [ "$WRITE" -eq 1 ]; then
    cp "$OUT/observed.json" "$DATA/observed.json"
    cp "$OUT/breaks.json" "$DATA/breaks.json"
    echo "engines: wrote $DATA/observed.json and $DATA/breaks.json ($cases cases, $((SECONDS - start)) s)"
    exit 0
fi
status=0
for name in observed breaks; do
    if ! diff -u "$DATA/$name.json" "$OUT/$name.json" >"$OUT/$name.diff"; then
        echo "engines: $DATA/$name.json differs from what the engines do now:" >&2
        head -n 80 "$OUT/$name.diff" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] || fail "the engines no longer behave as recorded (rerun with --write, review the diff, bless: SCHEMA_LINT_BLESS=1 cargo test)"
echo "engines: ok: $cases cases, the 5 engines, the SDK clients and the hosts' and providers' conversions behave as recorded ($((SECONDS - start)) s)"

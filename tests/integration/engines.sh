#!/usr/bin/env bash
# The engine tier: every case of testdata/engines/ (the files of testdata/engines/cases/, the
# `json bad` examples of rules/*.md and the bad fixtures of testdata/rules/<CODE>/) through the
# engines MCP clients really run, and the result compared with what is checked in.
#
# Engines, each configured as its client configures it (tests/integration/engines/ says how):
#   ts-sdk-v1          Ajv 8, the draft-07 class for every schema, as @modelcontextprotocol/sdk 1.x
#   ts-sdk-v2          Ajv 8, the class chosen by `$schema`, as @modelcontextprotocol/client 2.4.0
#   python-sdk         Python jsonschema as the mcp 2.3.0 client calls it, no format extras
#   python-sdk-v1      the same, in the venv of mcp 1.30.0 (the 1.x client calls it the same way)
#   python-sdk+format  the same with jsonschema[format-nongpl] (rfc3986-validator and co.)
#   jsonschema-rs      the `jsonschema` crate this repository pins, in-process (examples/engines.rs)
# and the listing cases (testdata/engines/listings/: whole `tools/list` results) through the SDK
# clients themselves, each connected to a fake peer in its own process (tests/integration/listing/):
#   ts-sdk-v1          `Client` of @modelcontextprotocol/sdk 1.32.2
#   ts-sdk-v2          `Client` of @modelcontextprotocol/client 2.4.0
#   python-sdk         `mcp.Client` of mcp 2.3.0
#   python-sdk-v1      `mcp.ClientSession` of mcp 1.30.0, the last 1.x
#   python-sdk+format  the same with jsonschema[format-nongpl] installed beside it
#   jsonschema-rs      no MCP client: the crate compiles each listed output schema (as above)
# and the input-role cases (`"role": "input"`: a tool's inputSchema) through the hosts' and model
# providers' own conversions (tests/integration/providers/):
#   openai-agents      the OpenAI Agents SDK's strict conversion: openai-agents 0.24.0 (Python,
#                      MCPUtil.to_function_tool) and @openai/agents-core 0.20.0 (mcpToFunctionTool)
#   gemini             google-genai 3.6.1: types.FunctionDeclaration(parameters=...) and its MCP
#                      path (mcp_to_gemini_tool), each up to the request generate_content sends,
#                      and @ai-sdk/google 3.0.141's request (its convertJSONSchemaToOpenAPISchema)
#   gemini-cli         @google/gemini-cli-core 0.61.0 discoverTools, with the MCP SDK client it uses;
#                      and 0.27.4's SchemaValidator, what each call ran before 0.28.0
# and the hosts that compile a tool's input schema with Ajv of their own before each call, each
# as it constructed Ajv before its fix (ajv.mjs: qwen-code, llxprt-code, openclaude, openclaw,
# pi-mcp-adapter, mastra), their breaks holding for those versions only (also on the cases that
# ask for them, `"hosts": true`: how they read a schema without `$schema`)
# and the plain-schema cases (`"target": "json-schema"`: a schema file, as SchemaStore holds them)
# also through the consumers of plain schemas (tests/integration/plain/):
#   vscode-json        vscode-json-languageservice 5.7.2 (VS Code's JSON language service), its
#                      schemaRequestService a fake that records each URI and serves the case's
#                      `remote` documents (VS Code fetches them: `json.schemaDownload.enable`)
# and, observed only (no client of the rules): @ai-sdk/openai 3.0.141's request (strict on and
# off), each provider layer of @mastra/schema-compat 1.3.11, @langchain/core 1.4.0's
# convertToOpenAITool(tool, {strict: true}).
# Ajv, ajv-formats and fast-uri are the versions bundled in @modelcontextprotocol/client 2.4.0
# (8.18.0, 3.0.1, 3.1.8), installed with `npm ci` from tests/integration/engines/package-lock.json
# into target/engines/js; the Python packages are pinned in tests/integration/engines/
# requirements-*.txt, installed into two venvs under target/engines/. Everything is reused while
# the pins are unchanged. The SDKs of the listing tier are pinned the same way, in
# tests/integration/listing/package-lock.json and requirements-*.txt, installed into
# target/engines/listing-js and two more venvs; the hosts' and providers' packages in
# tests/integration/providers/package-lock.json and requirements.txt, into
# target/engines/providers-js and target/engines/providers-py. The installs run at once, beside
# the build of examples/engines.rs (most of the first run's time is gemini-cli-core's 450 packages
# and the venvs).
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
mkdir -p "$OUT"

# Each install, and the build of the Rust engine, runs in the background: they are independent,
# and the installs mostly wait on the registries. Each logs to $OUT/setup-<name>.log, shown when
# it ends.
names=()
pids=()
background() { # name command...
    local name="$1"
    shift
    "$@" >"$OUT/setup-$name.log" 2>&1 &
    names+=("$name")
    pids+=("$!")
}
# npm ci of a package-lock.json into a directory of $OUT, unless it is installed already.
npm_dir() { # dir source-dir [npm ci options...]
    local dir="$OUT/$1" src="$2"
    shift 2
    mkdir -p "$dir"
    cmp -s "$src/package-lock.json" "$dir/node_modules/.installed-package-lock.json" && return 0
    echo "engines: npm ci in $dir"
    cp "$src/package.json" "$src/package-lock.json" "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error "$@") || return 1
    cp "$src/package-lock.json" "$dir/node_modules/.installed-package-lock.json"
}
# A venv of $OUT with a requirements file's pins, unless it is installed already.
venv() { # name requirements
    local dir="$OUT/$1" req="$2"
    cmp -s "$req" "$dir/.installed-requirements.txt" && return 0
    echo "engines: installing $req into $dir"
    rm -rf "$dir"
    python3 -m venv "$dir" || { echo "could not create a venv (is python3-venv installed?)"; return 1; }
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$req" || return 1
    cp "$req" "$dir/.installed-requirements.txt"
}

LIST="tests/integration/listing"
PROV="tests/integration/providers"
PLAIN="tests/integration/plain"
# Ajv as the TypeScript clients bundle it.
background js npm_dir js "$HERE"
# The TypeScript SDK clients, for the listing cases.
background listing-js npm_dir listing-js "$LIST"
# The hosts' and providers' conversions of input schemas (no install scripts needed).
background providers-js npm_dir providers-js "$PROV" --ignore-scripts
# The consumers of plain schema files.
background plain-js npm_dir plain-js "$PLAIN"
# Python's jsonschema, without and with the format extras; the Python SDK client, the same; the
# Python hosts and providers.
background py-plain venv py-plain "$HERE/requirements-plain.txt"
background py-format venv py-format "$HERE/requirements-format.txt"
background listing-py venv listing-py "$LIST/requirements-plain.txt"
background listing-py-format venv listing-py-format "$LIST/requirements-format.txt"
background listing-py-v1 venv listing-py-v1 "$LIST/requirements-v1.txt"
background providers-py venv providers-py "$PROV/requirements.txt"
# The cases, and the Rust engine.
background cargo cargo build --quiet --locked --example engines
failed=()
for i in "${!pids[@]}"; do
    status=0
    wait "${pids[$i]}" || status=$?
    [ -s "$OUT/setup-${names[$i]}.log" ] && cat "$OUT/setup-${names[$i]}.log"
    [ "$status" -eq 0 ] || failed+=("${names[$i]}")
done
[ "${#failed[@]}" -eq 0 ] || fail "could not set up: ${failed[*]} (see $OUT/setup-<name>.log)"
cp "$HERE/ajv.mjs" "$OUT/js/ajv.mjs"
cp "$LIST/ts_clients.mjs" "$OUT/listing-js/ts_clients.mjs"
cp "$LIST/zod_default.mjs" "$OUT/listing-js/zod_default.mjs"
cp "$PROV/hosts.mjs" "$PROV/fake_peer.mjs" "$OUT/providers-js/"
cp "$PLAIN/vscode_json.mjs" "$OUT/plain-js/vscode_json.mjs"
echo "engines: set up ($((SECONDS - start)) s)"

ENGINES_BIN="target/debug/examples/engines"
"$ENGINES_BIN" cases >"$OUT/cases.json" || fail "could not gather the cases"
python3 "$HERE/observe.py" listings "$DATA/listings" >"$OUT/listings.json" || fail "observe.py listings"
python3 "$HERE/observe.py" listing-schemas "$OUT/listings.json" >"$OUT/listing-schemas.json" \
    || fail "observe.py listing-schemas"

# Every engine and client at once (each reads the cases and writes its own results; the results
# do not depend on the order they run in), each one's standard error in $OUT/run-<name>.log.
# Python's string hashing is randomised per process; the runners sort what they report anyway.
export PYTHONHASHSEED=0
names=()
pids=()
run() { # name results command...
    local name="$1" results="$2"
    shift 2
    "$@" >"$OUT/$results" 2>"$OUT/run-$name.log" &
    names+=("$name")
    pids+=("$!")
}
# The schema cases through the SDK clients' engines.
run ajv ajv.json node "$OUT/js/ajv.mjs" "$OUT/cases.json"
run python-sdk python.json "$OUT/py-plain/bin/python" "$HERE/python_client.py" python-sdk "$OUT/cases.json"
run python-sdk-v1 python-v1.json "$OUT/listing-py-v1/bin/python" "$HERE/python_client.py" python-sdk-v1 "$OUT/cases.json"
run python-sdk+format python-format.json \
    "$OUT/py-format/bin/python" "$HERE/python_client.py" python-sdk+format "$OUT/cases.json"
run jsonschema-rs rust.json "$ENGINES_BIN" run "$OUT/cases.json"
# The input-role cases through the hosts' and providers' conversions (nothing leaves the process).
run providers-py providers-py.json "$OUT/providers-py/bin/python" -W ignore "$PROV/providers.py" "$OUT/cases.json"
run providers-js providers-js.json node "$OUT/providers-js/hosts.mjs" "$OUT/cases.json"
# The plain-schema cases through the editors' JSON language service (nothing leaves the process).
run vscode-json plain.json node "$OUT/plain-js/vscode_json.mjs" "$OUT/cases.json"
# The listing cases through the SDK clients (and their output schemas through the crate).
run listing-ts listing-ts.json node "$OUT/listing-js/ts_clients.mjs" "$OUT/listings.json"
run listing-python listing-python.json \
    "$OUT/listing-py/bin/python" "$LIST/python_client.py" python-sdk "$OUT/listings.json"
run listing-python-v1 listing-python-v1.json \
    "$OUT/listing-py-v1/bin/python" "$LIST/python_client_v1.py" python-sdk-v1 "$OUT/listings.json"
run listing-python+format listing-python-format.json \
    "$OUT/listing-py-format/bin/python" "$LIST/python_client.py" python-sdk+format "$OUT/listings.json"
run listing-jsonschema-rs listing-schemas-rust.json "$ENGINES_BIN" run "$OUT/listing-schemas.json"
failed=()
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${names[$i]}")
done
for name in "${failed[@]}"; do
    echo "engines: $name failed:" >&2
    tail -n 20 "$OUT/run-$name.log" >&2
done
[ "${#failed[@]}" -eq 0 ] || fail "the runners failed: ${failed[*]} (see $OUT/run-<name>.log)"
echo "engines: ran the engines and clients ($((SECONDS - start)) s)"
python3 "$HERE/observe.py" rust-listing "$OUT/listings.json" "$OUT/listing-schemas-rust.json" \
    >"$OUT/listing-rust.json" || fail "observe.py rust-listing"

python3 "$HERE/observe.py" observed "$OUT/cases.json" "$OUT/listings.json" "$OUT/ajv.json" \
    "$OUT/python.json" "$OUT/python-v1.json" "$OUT/python-format.json" "$OUT/rust.json" \
    "$OUT/listing-ts.json" "$OUT/listing-python.json" "$OUT/listing-python-v1.json" \
    "$OUT/listing-python-format.json" "$OUT/listing-rust.json" \
    "$OUT/providers-py.json" "$OUT/providers-js.json" "$OUT/plain.json" \
    >"$OUT/observed.json" || fail "observe.py observed"
python3 "$HERE/observe.py" breaks "$OUT/cases.json" "$OUT/listings.json" "$OUT/observed.json" \
    >"$OUT/breaks.json" || fail "observe.py breaks"

# SL509's generator: the TS SDK v1 server with a zod `.default()` output field whose handler
# leaves it out, called by the SDK's own client; then the help's `.default(...).optional()`.
node "$OUT/listing-js/zod_default.mjs" >"$OUT/zod-default.json" || fail "zod_default.mjs"
python3 - "$OUT/zod-default.json" <<'PY' || fail "SL509's zod probe no longer behaves as rules/SL509.md says"
import json, sys
got = json.load(open(sys.argv[1]))
assert got["default"]["required"] == ["name", "tags"], got
assert "must have required property 'tags'" in got["default"]["call"]["error"], got
assert got["default-optional"]["required"] == ["name"], got
assert got["default-optional"]["call"] == {"ok": {"name": "x"}}, got
PY

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
echo "engines: ok: $cases cases, the 6 engines, the SDK clients, the hosts' and providers' conversions and vscode-json behave as recorded ($((SECONDS - start)) s)"

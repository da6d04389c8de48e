#!/usr/bin/env bash
# The proof of `schema-lint port` (issue 44): every tools/list and tool schema of testdata/ is
# ported for Gemini and for OpenAI strict mode, each ported tool is offered to the client's own
# code (google-genai's FunctionDeclaration and MCP path, the OpenAI Agents SDK's strict
# conversion), and every `kept` claim is checked with Python's jsonschema on generated instances
# (tests/integration/port/prove.py). Then the same ported tools go through the hosts' and
# frameworks' converters (tests/integration/port/converters.py): gemini-cli's MCP discovery, the
# AI SDK's Google and OpenAI providers, Mastra's schema-compat layers, LangChain (JS and Python),
# and, on the documents ported for lmstudio, llama.cpp's JSON-schema-to-grammar converter.
# Uses the providers' venv and node_modules that tests/integration/engines.sh installs
# (target/engines/providers-py, target/engines/providers-js), and installs beside them, once per
# pin: LangChain's Python packages (tests/integration/port/requirements.txt, into
# target/engines/port-py) and llama-cpp-python's pure-Python grammar converter (the one file
# llama_cpp/llama_grammar.py, taken out of the package's source distribution, nothing built).
# The refusals not solved yet are listed, with their reasons, in
# tests/integration/port/known.txt, and the list may only shrink.
#
# Usage: tests/integration/port.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
PY=target/engines/providers-py/bin/python
[ -x "$LINTER" ] || { echo "port: FAILED: no schema-lint binary at $LINTER" >&2; exit 1; }
[ -x "$PY" ] || { echo "port: FAILED: run tests/integration/engines.sh first (it installs $PY)" >&2; exit 1; }
OUT=target/port-proof
NODE=target/engines/providers-js
[ -d "$NODE/node_modules/@google/gemini-cli-core" ] || { echo "port: FAILED: run tests/integration/engines.sh first (it installs $NODE)" >&2; exit 1; }
HERE=tests/integration/port
start=$SECONDS

# LangChain's venv and llama.cpp's converter, while prove.py runs (reused while the pins hold).
PORTPY=target/engines/port-py
LLAMA_VERSION=0.3.36
LLAMA=target/engines/llama-cpp-$LLAMA_VERSION/llama_grammar.py
setup() {
    if ! cmp -s "$HERE/requirements.txt" "$PORTPY/.installed-requirements.txt"; then
        echo "port: installing $HERE/requirements.txt into $PORTPY"
        rm -rf "$PORTPY"
        python3 -m venv "$PORTPY" || return 1
        "$PORTPY/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
            -r "$HERE/requirements.txt" || return 1
        cp "$HERE/requirements.txt" "$PORTPY/.installed-requirements.txt"
    fi
    if [ ! -s "$LLAMA" ]; then
        echo "port: taking llama_cpp/llama_grammar.py out of llama-cpp-python $LLAMA_VERSION's sources"
        local tmp
        tmp=$(mktemp -d)
        # The source distribution only (the wheel would be built); its metadata step builds nothing.
        python3 -m pip download --quiet --disable-pip-version-check --no-deps \
            --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_VERSION" -d "$tmp" || return 1
        mkdir -p "$(dirname "$LLAMA")"
        tar -xzOf "$tmp/llama_cpp_python-$LLAMA_VERSION.tar.gz" \
            "llama_cpp_python-$LLAMA_VERSION/llama_cpp/llama_grammar.py" >"$LLAMA.tmp" || return 1
        mv "$LLAMA.tmp" "$LLAMA"
        rm -rf "$tmp"
    fi
}
mkdir -p target/engines
setup >target/engines/setup-port.log 2>&1 &
setup_pid=$!

rm -rf "$OUT"
mapfile -t files < <(find testdata/rules testdata/diff testdata/cli testdata/examples testdata/port \
    -name '*.json' -not -name 'expected*' | LC_ALL=C sort)
status=0
"$PY" -W ignore "$HERE/prove.py" "$LINTER" "$OUT" --known "$HERE/known.txt" "${files[@]}" || status=1
echo "port: prove.py done ($((SECONDS - start)) s)"

if ! wait "$setup_pid"; then
    cat target/engines/setup-port.log >&2
    echo "port: FAILED: could not install the converters (target/engines/setup-port.log)" >&2
    exit 1
fi
cat target/engines/setup-port.log
cp "$HERE/converters.mjs" tests/integration/providers/fake_peer.mjs "$NODE/"
"$PY" -W ignore "$HERE/converters.py" "$LINTER" "$OUT" "$NODE" "$PORTPY/bin/python" "$LLAMA" \
    --known "$HERE/known.txt" || status=1
echo "port: done ($((SECONDS - start)) s)"
exit "$status"

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

# `x-schema-lint-ignore` as docs/configuration.md says to write it from Pydantic
# (`Field(json_schema_extra=...)`) and zod (`.meta()`), with the Pydantic of the real `mcp` and the
# zod of the real TypeScript SDK that tests/integration/engines.sh installed: the field that
# carries it is silenced, the same field without it is not.
PY=target/engines/listing-py/bin/python
JS=target/engines/listing-js
if [ -x "$PY" ] && [ -d "$JS/node_modules/zod" ]; then
  "$PY" - "$OUT/pydantic-tools.json" <<'PYTHON'
import json, sys
from datetime import datetime
from pydantic import BaseModel, Field

class Ignored(BaseModel):
    at: datetime = Field(json_schema_extra={"x-schema-lint-ignore": ["SL508"]})

class Plain(BaseModel):
    at: datetime

tools = [
    {"name": name, "inputSchema": {"type": "object"}, "outputSchema": model.model_json_schema()}
    for name, model in [("pydantic_ignored", Ignored), ("pydantic_plain", Plain)]
]
json.dump({"tools": tools}, open(sys.argv[1], "w"), indent=2)
PYTHON
  (cd "$JS" && node --input-type=commonjs - "$OLDPWD/$OUT/zod-tools.json") <<'NODE'
const z = require("zod");
const field = (ignored) => {
  const f = z.string().regex(/^\p{L}+$/u);
  return ignored ? f.meta({ "x-schema-lint-ignore": ["SL406"] }) : f;
};
const tools = [true, false].map((ignored) => ({
  name: ignored ? "zod_ignored" : "zod_plain",
  inputSchema: z.toJSONSchema(z.object({ name: field(ignored) })),
}));
require("fs").writeFileSync(process.argv[2], JSON.stringify({ tools }, null, 2));
NODE
  for gen in pydantic:SL508 zod:SL406; do
    name=${gen%%:*} code=${gen#*:}
    set +e
    "$LINTER" --output-format json "$OUT/$name-tools.json" >"$OUT/$name-report.json"
    set -e
    python3 - "$OUT/$name-report.json" "$OUT/$name-tools.json" "$name" "$code" <<'PYTHON'
import json, sys
report, listing = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
name, code = sys.argv[3], sys.argv[4]
names = [t["name"] for t in listing["tools"]]
tools = {names[int(d["pointer"].split("/")[2])] for d in report["diagnostics"] if d["code"] == code}
if tools != {f"{name}_plain"}:
    sys.exit(f"generators: FAILED: {code} on {sorted(tools)}: "
             f"x-schema-lint-ignore from {name} must silence {name}_ignored only")
print(f"generators: {name} writes x-schema-lint-ignore; {code} is silenced where it stands")
PYTHON
  done
else
  echo "generators: FAILED: no Pydantic or zod under target/engines (run tests/integration/engines.sh first)" >&2
  exit 1
fi
echo "generators: passed"

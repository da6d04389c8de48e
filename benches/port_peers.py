#!/usr/bin/env python3
"""`schema-lint port` against its peers, on the same real tools (issue 44, "Proof"):
`python3 benches/port_peers.py [--json OUT.json]`.

For each tool of the real listings below, each tool's `inputSchema` goes through:

  schema-lint       `schema-lint port --for gemini` (and `--for openai-strict`) on the listing
  mastra            @mastra/schema-compat's `applyCompatLayer(..., mode: "jsonSchema")` with its
                    `GoogleSchemaCompatLayer` (Gemini) or `OpenAISchemaCompatLayer` (OpenAI)
  gemini-cli        @google/gemini-cli-core's `discoverTools`, then the tool's
                    `parametersJsonSchema` (gemini-cli's own transform of MCP tool schemas)
  opencode          opencode's `sanitizeGemini` (restated in benches/peers/
                    opencode_sanitize_gemini.mjs), then what @ai-sdk/google sends as `parameters`
  opencode (sanitizeGemini alone), the same before the AI SDK

(benches/peers/peers.mjs runs the JavaScript peers), and every output is judged the same way:

  accepted          Gemini: google-genai's `types.FunctionDeclaration(name=..., parameters=...)`
                    builds (the pydantic model of the API's `Schema`, unknown fields forbidden).
                    OpenAI strict: the OpenAI Agents SDK's `ensure_strict_json_schema` neither
                    raises nor changes it (the SDK sends it with `strict: true` as it is).
  constraints       each keyword of the original that constrains instances (pattern, format,
                    minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength,
                    maxLength, minItems, maxItems, uniqueItems: true, minProperties,
                    maxProperties, enum, const, additionalProperties: false, and each name of
                    required), found at its place (the path of property names and `items`,
                    local `$ref`s followed, the branches of anyOf/oneOf/allOf merged into their
                    place), is then:
                    kept          the output has the same keyword with the same value there;
                    altered       the output has the keyword there with another value (an
                                  integer enum turned into strings);
                    described     it is gone, and a description of the output there (or of
                                  the object holding it) names it where the original's did not;
                    lost silently gone, and no description there says so.
                    `type` is not counted (a nullable type written `nullable: true` is the
                    same constraint in the other dialect).

Everything is installed under target/port-peers/: `npm ci` of benches/peers/package-lock.json,
and a venv with tests/integration/providers/requirements.txt's pins (google-genai,
openai-agents). Prints a Markdown table per client.
"""
import argparse
import copy
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "port-peers")
PEERS = os.path.join(ROOT, "benches", "peers")
VENV = os.path.join(WORK, "venv")
VENV_PY = os.path.join(VENV, "bin", "python")
LINT = os.path.join(ROOT, "target", "debug", "schema-lint")

# The real listings: three reference servers, the Python SDK's tools, and tools as pydantic,
# schemars (rmcp) and zod (TS SDK v1) write them.
LISTINGS = [
    ("filesystem", "testdata/diff/real-server-filesystem-2025.11.25-to-2026.8.31/new.json"),
    ("memory", "testdata/diff/real-server-memory-2025.11.25-to-2026.8.31/new.json"),
    ("time", "testdata/diff/real-server-time-2025.9.25-to-2026.10.19/new.json"),
    ("python-sdk", "testdata/cli/mcp-python-sdk-tools-all/files/tools.json"),
    ("pydantic", "testdata/rules/SL707/bad-pydantic-tool.json"),
    ("schemars", "testdata/rules/SL707/bad-schemars-tool.json"),
    ("zod", "testdata/rules/SL707/bad-zod-ts-v1.json"),
]

# The commit of anomalyco/opencode whose sanitizeGemini the restatement follows.
OPENCODE_COMMIT = "000f6280d904296fe8628344b98bef096ae26fb4"

GEMINI_PEERS = ["schema-lint", "mastra-google", "gemini-cli", "opencode", "opencode-sanitizeGemini"]
OPENAI_PEERS = ["schema-lint", "mastra-openai"]
LABELS = {
    "schema-lint": "schema-lint port",
    "mastra-google": "Mastra (Google layer)",
    "mastra-openai": "Mastra (OpenAI layer)",
    "gemini-cli": "gemini-cli",
    "opencode": "opencode (sanitizeGemini + AI SDK)",
    "opencode-sanitizeGemini": "opencode's sanitizeGemini alone",
}


# ---------------------------------------------------------------------------------------------
# Set-up: the Node peers and the Python judges, under target/port-peers.


def setup():
    os.makedirs(WORK, exist_ok=True)
    lock = os.path.join(PEERS, "package-lock.json")
    stamp = os.path.join(WORK, "node_modules", ".package-lock.json")
    installed = os.path.join(WORK, "package-lock.json")
    same = os.path.exists(installed) and open(installed).read() == open(lock).read()
    if not (same and os.path.exists(stamp)):
        for name in ("package.json", "package-lock.json"):
            with open(os.path.join(PEERS, name)) as src, open(os.path.join(WORK, name), "w") as dst:
                dst.write(src.read())
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WORK, check=True)
    shared = os.path.join(ROOT, "tests", "integration", "providers", "fake_peer.mjs")
    for path in (os.path.join(PEERS, "peers.mjs"), os.path.join(PEERS, "opencode_sanitize_gemini.mjs"), shared):
        with open(path) as src, open(os.path.join(WORK, os.path.basename(path)), "w") as dst:
            dst.write(src.read())
    if not os.path.exists(VENV_PY):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        req = os.path.join(ROOT, "tests", "integration", "providers", "requirements.txt")
        subprocess.run([VENV_PY, "-m", "pip", "install", "-q", "--no-deps", "-r", req], check=True)
    if not os.path.exists(LINT):
        subprocess.run(["cargo", "build", "--bin", "schema-lint"], cwd=ROOT, check=True)


def node_version(name):
    with open(os.path.join(WORK, "node_modules", *name.split("/"), "package.json")) as f:
        return json.load(f)["version"]


# ---------------------------------------------------------------------------------------------
# The tools and the transforms.


def load_tools():
    """Every tool of LISTINGS, as (listing, tool), names made unique across listings."""
    tools, seen = [], set()
    for label, path in LISTINGS:
        with open(os.path.join(ROOT, path)) as f:
            doc = json.load(f)
        listed = doc["result"]["tools"] if "result" in doc else doc["tools"]
        for t in listed:
            t = {"name": t["name"], "description": t.get("description", ""), "inputSchema": t["inputSchema"]}
            while t["name"] in seen:
                t["name"] += "_2"
            seen.add(t["name"])
            tools.append((label, t))
    return tools


def run_schema_lint(listing_path, client):
    report = os.path.join(WORK, f"report-{client}.json")
    proc = subprocess.run([LINT, "port", "--for", client, listing_path, "--report", report],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1, 2) or not proc.stdout.strip():
        raise SystemExit(f"schema-lint port --for {client} failed ({proc.returncode}): {proc.stderr}")
    ported = json.loads(proc.stdout)
    with open(report) as f:
        rep = json.load(f)
    renamed = {r["to"]: r["from"] for r in rep.get("renamed", []) if "to" in r and "from" in r}
    out = {}
    for t in ported["tools"]:
        out[renamed.get(t["name"], t["name"])] = {"ok": True, "sent": t["inputSchema"]}
    return out, rep


def run_node_peers(listing_path):
    out = os.path.join(WORK, "peers-out.json")
    proc = subprocess.run(["node", "peers.mjs", listing_path, out], cwd=WORK, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"peers.mjs failed: {proc.stderr}")
    with open(out) as f:
        return json.load(f)


# ---------------------------------------------------------------------------------------------
# The judges.

SCALAR_KEYS = ["pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
               "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "minProperties",
               "maxProperties"]


def walk(schema, root, path=(), stack=()):
    """Yields (place, node) for every subschema, local $refs followed (not into a cycle)."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and ref not in stack:
        target = root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        if isinstance(target, dict):
            yield from walk(target, root, path, stack + (ref,))
    yield path, schema
    for name, sub in (schema.get("properties") or {}).items() if isinstance(schema.get("properties"), dict) else []:
        yield from walk(sub, root, path + (f"properties.{name}",), stack)
    for name, sub in (schema.get("patternProperties") or {}).items() if isinstance(schema.get("patternProperties"), dict) else []:
        yield from walk(sub, root, path + (f"patternProperties.{name}",), stack)
    items = schema.get("items")
    if isinstance(items, dict):
        yield from walk(items, root, path + ("items",), stack)
    elif isinstance(items, list):
        for i, sub in enumerate(items):
            yield from walk(sub, root, path + (f"items.{i}",), stack)
    for i, sub in enumerate(schema.get("prefixItems") or []):
        yield from walk(sub, root, path + (f"items.{i}",), stack)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from walk(schema["additionalProperties"], root, path + ("additionalProperties",), stack)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key) or []:
            yield from walk(sub, root, path, stack)
    if isinstance(schema.get("not"), dict):
        yield from walk(schema["not"], root, path + ("not",), stack)


def canon(value):
    return json.dumps(value, sort_keys=True)


def constraints(schema):
    """The constraints of a schema: a set of (place, keyword, canonical value)."""
    found = set()
    for place, node in walk(schema, schema):
        for key in SCALAR_KEYS:
            if key in node and not isinstance(node[key], (dict, list)):
                found.add((place, key, canon(node[key])))
        if isinstance(node.get("enum"), list):
            found.add((place, "enum", canon(sorted(canon(v) for v in node["enum"]))))
        if "const" in node:
            # `const: X` is `enum: [X]`: a port that writes one for the other keeps it.
            found.add((place, "enum", canon([canon(node["const"])])))
        if node.get("additionalProperties") is False:
            found.add((place, "additionalProperties", "false"))
        if node.get("uniqueItems") is True:
            found.add((place, "uniqueItems", "true"))
        if isinstance(node.get("required"), list):
            for name in node["required"]:
                found.add((place, "required", canon(name)))
    return found


def descriptions(schema):
    """The descriptions of a schema by place."""
    out = {}
    for place, node in walk(schema, schema):
        if isinstance(node.get("description"), str):
            out.setdefault(place, []).append(node["description"])
    return out


def mentions(text, key, value):
    """Whether a description names the constraint: its value, in any of the spellings a port
    writes it (raw, JSON-escaped), with the keyword or an English word for it."""
    v = json.loads(value)
    if key == "required":
        return v in text and "required" in text.lower()
    if key == "additionalProperties":
        t = text.lower()
        return "additional" in t or "extra" in t or "unknown propert" in t or "other propert" in t
    if key == "enum":
        values = [json.loads(x) for x in v]
        return all(str(x) in text or json.dumps(x) in text for x in values)
    forms = {str(v), json.dumps(v), json.dumps(v)[1:-1] if isinstance(v, str) else str(v)}
    if isinstance(v, float) and v.is_integer():
        forms.add(str(int(v)))
    if isinstance(v, bool):
        forms = {json.dumps(v)}
        return key in text and any(f in text for f in forms)
    return any(f and f in text for f in forms)


def judge_constraints(original, sent):
    before = constraints(original)
    if not isinstance(sent, dict):
        return {"kept": [], "altered": [], "described": [], "silent": [], "unsent": sorted(before)}
    after = constraints(sent)
    after_keys = {(p, k) for p, k, _ in after}
    said_before = descriptions(original)
    said_after = descriptions(sent)
    result = {"kept": [], "altered": [], "described": [], "silent": [], "unsent": []}
    for place, key, value in sorted(before):
        c = (place, key, value)
        if c in after:
            result["kept"].append(c)
            continue
        if (place, key) in after_keys:
            result["altered"].append(c)
            continue
        holders = [place, place[:-1]] if place else [place]
        new_text = [d for h in holders for d in said_after.get(h, []) if d not in said_before.get(h, [])]
        old_text = [d for h in holders for d in said_before.get(h, [])]
        if any(mentions(d, key, value) for d in new_text) and not any(mentions(d, key, value) for d in old_text):
            result["described"].append(c)
        else:
            result["silent"].append(c)
    return result


def accepted_gemini(name, sent):
    from google.genai import types
    import pydantic
    try:
        types.FunctionDeclaration(name=name, description="A tool.", parameters=sent)
        return True, None
    except pydantic.ValidationError as e:
        first = e.errors()[0]
        return False, ".".join(str(p) for p in first["loc"]) + ": " + first["msg"]
    except Exception as e:  # noqa: BLE001  (the SDK's own code fails on it: an enum lookup of a list)
        return False, f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"


def accepted_openai_strict(sent):
    from agents.strict_schema import ensure_strict_json_schema
    try:
        strict = ensure_strict_json_schema(copy.deepcopy(sent))
    except Exception as e:  # noqa: BLE001  (the SDK raises UserError, TypeError, ValueError)
        return False, f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    if strict_normal(strict) != strict_normal(sent):
        return False, "ensure_strict_json_schema rewrites it"
    return True, None


def strict_normal(schema):
    """A schema with the rewrites of `ensure_strict_json_schema` that change nothing OpenAI
    reads undone: `required` is a set, an object without properties has `required: []`, and
    `default: null` is dropped (the SDK removes it)."""
    if isinstance(schema, list):
        return [strict_normal(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: strict_normal(v) for k, v in schema.items() if not (k == "default" and v is None)}
    if isinstance(out.get("required"), list):
        out["required"] = sorted(map(str, out["required"]))
    if out.get("properties") == {} and "required" not in out:
        out["required"] = []
    return out


# ---------------------------------------------------------------------------------------------
# The run.


def evaluate(tools, outputs, peers, accept):
    rows = {}
    detail = {}
    for peer in peers:
        counts = {"tools": 0, "accepted": 0, "failed": 0, "constraints": 0, "kept": 0, "altered": 0,
                  "described": 0, "silent": 0, "unsent": 0}
        detail[peer] = {}
        for _, t in tools:
            counts["tools"] += 1
            result = outputs[peer].get(t["name"], {"ok": False, "error": "no output"})
            entry = {}
            if result.get("ok"):
                ok, why = accept(t["name"], result["sent"])
                entry["accepted"] = ok
                if why:
                    entry["refused"] = why
                judged = judge_constraints(t["inputSchema"], result["sent"])
            else:
                entry["accepted"] = False
                entry["refused"] = f"the peer failed: {result.get('error')}"
                counts["failed"] += 1
                judged = judge_constraints(t["inputSchema"], None)
            counts["accepted"] += entry["accepted"]
            for k in ("kept", "altered", "described", "silent", "unsent"):
                counts[k] += len(judged[k])
                counts["constraints"] += len(judged[k])
                if k != "kept" and judged[k]:
                    entry[k] = ["/".join(p) + f" {key} {v}" for p, key, v in judged[k]]
            detail[peer][t["name"]] = entry
        rows[peer] = counts
    return rows, detail


def table(rows, peers):
    head = "| | " + " | ".join(LABELS[p] for p in peers) + " |"
    sep = "|---|" + "---:|" * len(peers)
    c = rows[peers[0]]["constraints"]
    lines = [head, sep]
    lines.append("| tools accepted | " + " | ".join(f"{rows[p]['accepted']} / {rows[p]['tools']}" for p in peers) + " |")
    lines.append("| tools the transform failed on | " + " | ".join(str(rows[p]["failed"]) for p in peers) + " |")
    for key, label in [("kept", "constraints kept in the schema"),
                       ("altered", "constraints altered in the schema"),
                       ("described", "constraints moved to a description"),
                       ("silent", "constraints lost without a word"),
                       ("unsent", "constraints of tools the transform failed on")]:
        lines.append(f"| {label} (of {c}) | " + " | ".join(str(rows[p][key]) for p in peers) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write every tool's verdicts to this file")
    args = ap.parse_args()
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        setup()
        os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__), *sys.argv[1:]])
    tools = load_tools()
    listing = os.path.join(WORK, "listing.json")
    with open(listing, "w") as f:
        json.dump({"tools": [t for _, t in tools]}, f, indent=2)
    node = run_node_peers(listing)
    gemini_lint, _ = run_schema_lint(listing, "gemini")
    strict_lint, _ = run_schema_lint(listing, "openai-strict")
    gem_rows, gem_detail = evaluate(tools, {**node, "schema-lint": gemini_lint}, GEMINI_PEERS, accepted_gemini)
    oai_rows, oai_detail = evaluate(tools, {**node, "schema-lint": strict_lint}, OPENAI_PEERS,
                                    lambda _name, sent: accepted_openai_strict(sent))
    from importlib.metadata import version
    lint_version = subprocess.run([LINT, "--version"], capture_output=True, text=True).stdout.strip()
    counts = {}
    for label, _ in tools:
        counts[label] = counts.get(label, 0) + 1
    print(f"{datetime.date.today().isoformat()}, {len(tools)} tools: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"{lint_version}; @mastra/schema-compat {node_version('@mastra/schema-compat')}, "
          f"@google/gemini-cli-core {node_version('@google/gemini-cli-core')}, "
          f"@ai-sdk/google {node_version('@ai-sdk/google')}, opencode {OPENCODE_COMMIT[:12]} "
          f"(restated); judged by google-genai {version('google-genai')}, "
          f"openai-agents {version('openai-agents')}\n")
    print("Gemini (`parameters`):\n")
    print(table(gem_rows, GEMINI_PEERS))
    print("\nOpenAI strict:\n")
    print(table(oai_rows, OPENAI_PEERS))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gemini": gem_detail, "openai-strict": oai_detail}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()

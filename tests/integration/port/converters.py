"""The proof of `schema-lint port`, second part (tests/integration/port.sh): the ported tools that
prove.py wrote (OUT_DIR/N.CLIENT.ported.json, the reports beside them, OUT_DIR/index.json) run
through more of the clients' and frameworks' own converters. A tool the port leaves something in
is not offered (the port said it is not for that client), as in prove.py.

On every Gemini-ported tool:
- gemini-cli: @google/gemini-cli-core 0.61.0's `discoverTools` (converters.mjs) must keep the tool,
  and what it sends, given to google-genai 3.6.1's `FunctionDeclaration(parameters=...)` and sent
  through `generate_content` to a recording transport (providers.py), must be sent;
- ai-sdk-google: @ai-sdk/google 3.0.141's request must be built, and its `parameters` (its
  `convertJSONSchemaToOpenAPISchema`) must be sent by google-genai the same way;
- mastra-google: @mastra/schema-compat 1.3.11's Google layer must not throw;
- langchain-google-genai: langchain-google-genai 4.4.2's `bind_tools` and request preparation
  (langchain_py.py) must not raise.
On every OpenAI-strict-ported tool:
- ai-sdk-openai: @ai-sdk/openai 3.0.141's strict request must send the ported schema unchanged,
  with `strict: true`;
- mastra-openai: @mastra/schema-compat's OpenAI layer must not throw;
- langchain-js: @langchain/core 1.4.0's `convertToOpenAITool(tool, {strict: true})` must not
  throw;
- langchain-openai: langchain-openai 1.7.4's `bind_tools([tool], strict=True)` must not raise.
On every tool ported for `lmstudio` (ported here, from the same documents), reported and not
judged:
- llama-grammar: llama.cpp's JSON-schema-to-grammar converter as llama-cpp-python 0.3.36 carries
  it in pure Python (llama_cpp/llama_grammar.py, `json_schema_to_gbnf`; port.sh takes the one
  file out of the package's source distribution). LM Studio runs the C++ converter instead
  (llama.cpp's common/json-schema-to-grammar.cpp, vendored in the same package, not built here),
  which that Python copy no longer matches: the C++ one resolves `$ref` against `$id` bases
  (common/json-schema.cpp) and turns a `pattern` it cannot translate into a warning (any
  string), where the Python copy raises. Its errors are counted by kind, not failed on.

Every converter's output is compared with the ported schema: a converter that still changes
something is counted, with the kinds of change (`removed additionalProperties`...): a schema
ported for the client should need nothing more.

LangChain resolves a `$ref` only as a JSON pointer into the root document: its refusal of a schema
that needs another base (a `$ref` that is not `#` or `#/...`, an `$id` or `$anchor` below the
root) is counted apart, as prove.py counts the Agents SDK's unvalidated references.

Usage: converters.py SCHEMA_LINT OUT_DIR NODE_DIR PORT_PY LLAMA_GRAMMAR_PY --known FILE
NODE_DIR holds converters.mjs and the providers' node_modules; PORT_PY is the Python of the venv
with LangChain. Known refusals: the lines `CONVERTER: PATH CLIENT TOOL` of FILE, and the lines
`PATH CLIENT TOOL` (prove.py's: the client's own code refuses the tool) for every converter of
that client. Exits 1 on a refusal not listed there, and on a `CONVERTER:` line that no longer
fails.
"""

import collections
import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prove  # noqa: E402  (its reading of a port's report, and the providers' Gemini path)
from prove import providers, types, genai  # noqa: E402

GEMINI = ["gemini-cli", "ai-sdk-google", "mastra-google", "langchain-google-genai"]
OPENAI = ["ai-sdk-openai", "mastra-openai", "langchain-js", "langchain-openai"]
LLAMA = ["llama-grammar"]
CLIENT_OF = {**{c: "gemini" for c in GEMINI}, **{c: "openai-strict" for c in OPENAI}, "llama-grammar": "lmstudio"}


def ported_tools(out_dir, index, client):
    """[(id, path, name, schema)] of the tools ported for `client` that the port leaves nothing in."""
    tools = []
    for n, path in enumerate(index):
        ported = os.path.join(out_dir, f"{n}.{client}.ported.json")
        if not os.path.exists(ported):
            continue
        with open(ported, encoding="utf-8") as f:
            doc = json.load(f)
        with open(os.path.join(out_dir, f"{n}.{client}.report.json"), encoding="utf-8") as f:
            left = prove.left_tools(json.load(f))
        for i, tool in enumerate(prove.tools_of(doc)):
            if i not in left:
                tools.append((f"{n}/{i}", path, tool["name"], tool["inputSchema"]))
    return tools


def port_all(linter, out_dir, index, client):
    """Ports every document for one more client (two at a time), as prove.py does."""
    def one(n):
        source = os.path.join(out_dir, f"{n}.json")
        report = os.path.join(out_dir, f"{n}.{client}.report.json")
        run = subprocess.run([linter, "port", "--for", client, source, "--report", report],
                             capture_output=True, text=True)
        if run.returncode not in (0, 2) or not os.path.exists(report):
            return f"{index[n]} for {client}: port exited {run.returncode}: {run.stderr[-300:]}"
        with open(os.path.join(out_dir, f"{n}.{client}.ported.json"), "w", encoding="utf-8") as f:
            f.write(run.stdout)
        return None
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return [e for e in pool.map(one, range(len(index))) if e]


def changes(before, after, at=""):
    """The kinds of change from `before` to `after`: `removed KEY`, `added KEY`, `changed KEY`."""
    if before == after:
        return set()
    if isinstance(before, dict) and isinstance(after, dict):
        out = set()
        for key in before.keys() | after.keys():
            if key not in after:
                out.add(f"removed `{key}`")
            elif key not in before:
                out.add(f"added `{key}`")
            else:
                out |= changes(before[key], after[key], key)
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        if at == "required" and sorted(map(str, before)) == sorted(map(str, after)):
            return {"reordered `required`"}
        out = set()
        for b, a in zip(before, after):
            out |= changes(b, a, at)
        return out
    return {f"changed `{at}`" if at else "changed the schema"}


def as_sent(conv, schema, sent):
    """What a converter always does, whatever the schema, taken out before comparing: gemini-cli
    adds its own `wait_for_previous` argument to every tool; google-genai (under LangChain) writes
    type names in capitals; an added `"required": []` requires nothing."""
    def walk(node):
        if isinstance(node, dict):
            node = {k: walk(v) for k, v in node.items()}
            if isinstance(node.get("type"), str):
                node["type"] = node["type"].lower()
            if node.get("required") == []:
                node.pop("required")
            return node
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node
    if conv == "gemini-cli" and isinstance(sent, dict) and isinstance(sent.get("properties"), dict):
        props = schema.get("properties") if isinstance(schema, dict) else None
        if "wait_for_previous" in sent["properties"] and "wait_for_previous" not in (props or {}):
            sent = {**sent, "properties": {k: v for k, v in sent["properties"].items() if k != "wait_for_previous"}}
            if not sent["properties"] and props is None:
                sent.pop("properties")
    return walk(schema), walk(sent)


def needs_base(schema, root=True):
    """A `$ref` that is not a JSON pointer into the root (`#`, `#/...`), or an `$id` or `$anchor`
    below the root: resolving it needs a base URI other than the root document's."""
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == "$ref" and isinstance(v, str) and not (v == "#" or v.startswith("#/")):
                return True
            if k in ("$id", "$anchor", "$dynamicAnchor") and not root:
                return True
            if k not in ("const", "enum", "default", "examples") and needs_base(v, False):
                return True
    elif isinstance(schema, list):
        return any(needs_base(v, False) for v in schema)
    return False


# LangChain's `dereference_refs` (langchain_core/utils/json_schema.py) resolves `$ref` as a JSON
# pointer into the root document only; these are its errors.
LANGCHAIN_REF = ("ref paths are expected to be URI fragments", "Reference '")


def gemini_sent(client, recorder, name, schema):
    """google-genai's FunctionDeclaration(parameters=schema) through generate_content."""
    def declaration():
        fd = types.FunctionDeclaration(name=name, description="A tool.", parameters=schema)
        return types.Tool(function_declarations=[fd])
    return providers.gemini_request(client, recorder, declaration)


def llama_converter(path):
    spec = importlib.util.spec_from_file_location("llama_grammar", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.json_schema_to_gbnf


def main():
    linter, out_dir, node_dir, port_py, llama_py = sys.argv[1:6]
    known, known_client = set(), set()
    if sys.argv[6:7] == ["--known"]:
        with open(sys.argv[7], encoding="utf-8") as f:
            lines = [tuple(line.split()) for line in f if line.strip() and not line.startswith("#")]
        known = {(k[0][:-1], *k[1:]) for k in lines if k[0].endswith(":")}
        # A tool the client's own code refuses (prove.py's lines, `PATH CLIENT TOOL`) is refused
        # by every converter for that client for the same reason: known for them all.
        known_client = {k for k in lines if not k[0].endswith(":")}
    with open(os.path.join(out_dir, "index.json"), encoding="utf-8") as f:
        index = json.load(f)
    failures = []
    ms = {}

    # The JavaScript converters and LangChain's Python ones, each in one process, while the
    # documents are ported for lmstudio here.
    by_client = {c: ported_tools(out_dir, index, c) for c in ("gemini", "openai-strict")}
    tools_json = os.path.join(out_dir, "converters-tools.json")
    with open(tools_json, "w", encoding="utf-8") as f:
        json.dump({c: [{"id": i, "name": name, "inputSchema": s} for i, _, name, s in tools]
                   for c, tools in by_client.items()}, f)
    js_out = os.path.join(out_dir, "converters-js.json")
    py_out = os.path.join(out_dir, "converters-langchain.json")
    js = subprocess.Popen(["node", os.path.join(node_dir, "converters.mjs"), tools_json, js_out],
                          stderr=subprocess.PIPE, text=True)
    lc = subprocess.Popen([port_py, "-W", "ignore", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                 "langchain_py.py"), tools_json, py_out],
                          stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    failures += port_all(linter, out_dir, index, "lmstudio")
    port_ms = round((time.monotonic() - start) * 1000)
    by_client["lmstudio"] = ported_tools(out_dir, index, "lmstudio")
    results = {}
    to_gbnf = llama_converter(llama_py)
    results["llama-grammar"] = {}
    start = time.monotonic()
    for i, _, _, schema in by_client["lmstudio"]:
        try:
            grammar = to_gbnf(json.dumps(schema))
            results["llama-grammar"][i] = ({"ok": True} if "root ::=" in grammar
                                           else {"ok": False, "error": "no root rule in the grammar"})
        except Exception as e:  # noqa: BLE001 - any failure is the tool refused
            results["llama-grammar"][i] = {"ok": False, "error": prove_error(e)}
    ms["llama-grammar"] = round((time.monotonic() - start) * 1000)
    for name, proc, out in (("converters.mjs", js, js_out), ("langchain_py.py", lc, py_out)):
        _, err = proc.communicate()
        if proc.returncode != 0:
            print(f"port converters: FAILED: {name} exited {proc.returncode}: {err[-2000:]}", file=sys.stderr)
            return 1
        with open(out, encoding="utf-8") as f:
            got = json.load(f)
        ms.update(got.pop("ms"))
        results.update(got)

    # Gemini's own code on what gemini-cli and the AI SDK send (their `parameters`).
    recorder = providers.Recorder()
    http = providers.httpx2.Client(transport=providers.httpx2.MockTransport(recorder))
    client = genai.Client(api_key="offline", http_options=types.HttpOptions(httpx_client=http))
    for conv in ("gemini-cli", "ai-sdk-google"):
        start = time.monotonic()
        for i, _, name, _ in by_client["gemini"]:
            r = results[conv][i]
            if r["ok"]:
                sent = gemini_sent(client, recorder, name, r["sent"])
                if sent["request"] != "sent":
                    r.update(ok=False, error=f"google-genai refuses what it sends: {sent['error']}")
        ms[conv] += round((time.monotonic() - start) * 1000)

    failed = set()
    print(f"port converters: {len(by_client['lmstudio'])} tools ported for lmstudio ({port_ms} ms)")
    for conv in GEMINI + OPENAI + LLAMA:
        c = CLIENT_OF[conv]
        tried = accepted = changed = 0
        kinds = collections.Counter()
        refused_known = refused_new = base_refs = 0
        llama_errors = collections.Counter()
        for i, path, name, schema in by_client[c]:
            tried += 1
            r = results[conv][i]
            if r["ok"] and conv in ("ai-sdk-openai", "langchain-openai", "langchain-js") and r.get("strict") is not True:
                r.update(ok=False, error=f"strict mode not kept (`strict`: {json.dumps(r.get('strict'))})")
            if r["ok"] and conv == "ai-sdk-openai" and r["sent"] != schema:
                r.update(ok=False, error="the ported schema is not sent unchanged: "
                         + ", ".join(sorted(changes(schema, r["sent"]))))
            if r["ok"]:
                accepted += 1
                if "sent" in r:
                    if r["sent"] is None and not schema.get("properties"):
                        diff = {"sends no parameters (no properties)"}
                    else:
                        diff = changes(*as_sent(conv, schema, r["sent"]))
                    changed += bool(diff)
                    kinds.update(diff)
            elif conv.startswith("langchain-") and needs_base(schema) and any(
                    e in r["error"] for e in LANGCHAIN_REF):
                base_refs += 1
            elif conv == "llama-grammar":
                # Reported, not judged: see the module's docstring.
                llama_errors[llama_kind(r["error"])] += 1
            elif (conv, path, c, name) in known:
                failed.add((conv, path, c, name))
                refused_known += 1
            elif (path, c, name) in known_client:
                refused_known += 1
            else:
                refused_new += 1
                failures.append(f"{conv}: {path} for {c}: tool `{name}` refused: {r['error']}")
        line = (f"port converters: {conv}: {accepted} of {tried} {c}-ported tools accepted, "
                f"{refused_known + refused_new} refused ({refused_known} known, {refused_new} new); "
                f"{ms[conv]} ms")
        if base_refs:
            line += (f"; {base_refs} more hold a `$ref` LangChain cannot resolve (it reads each as a "
                     f"JSON pointer into the root: no `$id` base, no `$anchor`), counted apart")
        if conv == "llama-grammar":
            line = (f"port converters: llama-grammar (reported, not judged): {accepted} of {tried} "
                    f"lmstudio-ported tools converted, {sum(llama_errors.values())} raise; {ms[conv]} ms")
            if llama_errors:
                line += ": " + ", ".join(f"{k} ({v})" for k, v in llama_errors.most_common())
        else:
            line += f"; still changes {changed} tools"
            if kinds:
                line += ": " + ", ".join(f"{k} ({v})" for k, v in kinds.most_common(8))
                if len(kinds) > 8:
                    line += f", and {len(kinds) - 8} more kinds"
        print(line)
    for line in sorted(known - failed):
        failures.append(f"{line[0]}: {' '.join(line[1:])}: listed as known but accepted now: remove it from the list")
    shown = failures if os.environ.get("PORT_PROOF_ALL") else failures[:40]
    for failure in shown:
        print(f"port converters: FAILED: {failure}", file=sys.stderr)
    if len(failures) > len(shown):
        print(f"port converters: ... and {len(failures) - len(shown)} more", file=sys.stderr)
    return 1 if failures else 0


def llama_kind(error):
    """The kind of a llama-grammar error, its details (the schema's own names) taken out."""
    for start, kind in (("ValueError: Unsupported ref", "a `$ref` it cannot resolve"),
                        ("AssertionError: Fetching remote schemas", "a remote `$ref`"),
                        ("AssertionError: Error resolving ref", "a `$ref` it cannot resolve"),
                        ("AssertionError: Unrecognized schema", "a schema it does not recognise"),
                        ("AssertionError: Unsupported pattern", "a `pattern` it does not support"),
                        ("AssertionError: Pattern must start", "a `pattern` not anchored"),
                        ("KeyError: 'prefixItems'", "a tuple `items` array")):
        if error.startswith(start):
            return kind
    return error.split(":")[0]


def prove_error(e):
    return providers.message(e)


if __name__ == "__main__":
    sys.exit(main())

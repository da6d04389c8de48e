"""The proof of `schema-lint port` (tests/integration/port.sh): every schema it ports is run
through the client's own code, and every `kept` claim is checked on generated instances.

For each document (a `tools/list`, or a schema offered as a tool's `inputSchema`) and each client:
- `schema-lint port --for CLIENT` writes the document and its report;
- every tool the report does not leave is offered to the client's code, which must take it:
  - gemini: google-genai's `types.FunctionDeclaration(parameters=...)` and its MCP path
    (`mcp_to_gemini_tool`), each through `Client.models.generate_content` to an in-process HTTP
    transport that records the request (nothing leaves the process): the request must be sent;
  - openai-strict: the OpenAI Agents SDK's strict conversion (`MCPUtil.to_function_tool(...,
    convert_schemas_to_strict=True)`) must keep strict mode and send the ported schema unchanged;
- every schema whose changes are all `kept` must accept exactly the instances it accepted, as
  Python's `jsonschema` (Draft 2020-12) judges them, on instances built from both schemas
  (each property valid, missing, null, of another type; an extra property; enum and const
  values; the schemas' own `default`s and `examples`), Gemini's `nullable` read as Gemini reads it.

Writes OUT_DIR/N.json (each document), N.CLIENT.ported.json and N.CLIENT.report.json, and
OUT_DIR/index.json (the file of each N), which converters.py reads after.

Usage: prove.py SCHEMA_LINT OUT_DIR [--known FILE] FILE...
Prints the figures; exits 1 on any failure that FILE (lines `PATH CLIENT TOOL`, `#` comments;
lines `CONVERTER: ...` are converters.py's:
the refusals not solved yet, each with its reason in docs/port.md) does not list, and on any
line of FILE that no longer fails (so that the list only shrinks).
"""

import copy
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "providers"))
import providers  # noqa: E402  (the engine tier's Gemini and OpenAI Agents paths)
import jsonschema  # noqa: E402
import mcp.types  # noqa: E402
from google import genai  # noqa: E402
from google.genai import types  # noqa: E402

CLIENTS = ["gemini", "openai-strict"]


def not_json(constant):
    """`NaN` and `Infinity`, which Python reads and JSON has not: such a file is no document."""
    raise ValueError(constant)


def finite(text):
    """A number Python reads as infinite (`1e999`) would be written back as `Infinity`."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def documents(paths):
    """(name, document) for each file: a tools/list as it is, an object schema as a tool."""
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f, parse_constant=not_json, parse_float=finite)
        except (ValueError, UnicodeDecodeError):
            continue
        listing = doc.get("result", doc) if isinstance(doc, dict) else None
        if isinstance(listing, dict) and isinstance(listing.get("tools"), list):
            if all(isinstance(t, dict) and isinstance(t.get("name"), str)
                   and isinstance(t.get("inputSchema"), dict) for t in listing["tools"]):
                yield path, doc
        elif isinstance(doc, dict) and doc.get("type") == "object":
            yield path, {"tools": [{"name": "report", "inputSchema": doc}]}


def tools_of(doc):
    return doc.get("result", doc)["tools"]


def left_tools(report):
    """The indexes of the tools in which the port's report leaves something."""
    at = [l.split("/")[2 if l.startswith("/tools/") else 3] for l in report["left"]
          if l.startswith(("/tools/", "/result/tools/"))]
    return {int(i) for i in at if i.isdigit()}


def sample(schema, root, depth=0):
    """One value the schema accepts, as far as a simple reading goes."""
    if not isinstance(schema, dict) or depth > 6:
        return None
    if "$ref" in schema and schema["$ref"].startswith("#/"):
        target = root
        for part in schema["$ref"][2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        return sample(target, root, depth + 1)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return sample(schema[key][0], root, depth + 1)
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object" or "properties" in schema:
        return {k: sample(v, root, depth + 1) for k, v in schema.get("properties", {}).items()
                if k in schema.get("required", []) or depth == 0}
    if t == "array":
        return [sample(schema.get("items", {}), root, depth + 1)] if schema.get("minItems", 0) else []
    if t == "integer":
        return max(schema.get("minimum", 1), 1)
    if t == "number":
        return max(schema.get("minimum", 1.5), 1.5)
    if t == "boolean":
        return True
    if t == "string":
        return "a" * max(schema.get("minLength", 1), 1)
    if t == "null":
        return None
    return "x"


def instances(schema):
    """Instances around the schema: a sample, each property varied, the schema's own values."""
    base = sample(schema, schema)
    out = [base, {}, None, [], "x", 1]
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    if isinstance(base, dict):
        for key, sub in props.items():
            for value in (None, "x", 1, 1.5, True, [], {}, sample(sub, schema),
                          *(sub.get("enum", []) if isinstance(sub, dict) else [])):
                varied = copy.deepcopy(base)
                varied[key] = value
                out.append(varied)
            missing = copy.deepcopy(base)
            missing.pop(key, None)
            out.append(missing)
        extra = copy.deepcopy(base)
        extra["zz_extra"] = "x"
        out.append(extra)
    for key in ("default", "examples"):
        if isinstance(schema, dict) and key in schema:
            out.extend(schema[key] if key == "examples" and isinstance(schema[key], list) else [schema[key]])
    return out


def as_read_by(client, schema):
    """Gemini's `nullable: true` admits null: the schema in JSON Schema's words."""
    if client != "gemini":
        return schema
    def walk(node):
        if isinstance(node, dict):
            node = {k: walk(v) for k, v in node.items()}
            if node.pop("nullable", None) is True and isinstance(node.get("type"), str):
                node["type"] = [node["type"], "null"]
            return node
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node
    return walk(schema)


def agents_normal(node):
    """The schema as the OpenAI Agents SDK's strict conversion writes it where it changes nothing:
    beside `"properties": {}` it adds `"required": []` (there is no property to require), and
    it drops `"default": null` (an annotation: no instance is judged otherwise)."""
    if isinstance(node, dict):
        node = {k: agents_normal(v) for k, v in node.items()}
        if "default" in node and node["default"] is None:
            node.pop("default")
        if node.get("properties") == {} and "required" not in node:
            node["required"] = []
        return node
    if isinstance(node, list):
        return [agents_normal(v) for v in node]
    return node


def same_required(node):
    """`required` is a set: the Agents SDK writes it in the order of `properties`."""
    if isinstance(node, dict):
        node = {k: same_required(v) for k, v in node.items()}
        if isinstance(node.get("required"), list):
            node["required"] = sorted(node["required"], key=str)
        return node
    if isinstance(node, list):
        return [same_required(v) for v in node]
    return node


# The Agents SDK's MCP conversion refuses a `$ref` it has not expanded itself with this error
# (strict_schema.py, `_UNVALIDATED_REF_ERROR`) and sends the tool without strict mode; OpenAI's
# strict mode itself takes `$defs` and `$ref`. Counted apart, not as a refusal of the port.
UNVALIDATED_REF = "JSON schema contains a reference whose target was not validated for strict mode."


def accepts(schema, instance):
    try:
        return jsonschema.Draft202012Validator(schema).is_valid(instance)
    except Exception:  # noqa: BLE001 - a schema the validator cannot read decides nothing
        return None


def main():
    linter, out_dir = sys.argv[1], sys.argv[2]
    paths = sys.argv[3:]
    known = set()
    if paths[:1] == ["--known"]:
        with open(paths[1], encoding="utf-8") as f:
            # `CONVERTER: PATH CLIENT TOOL` lines are the converters' (converters.py), not these.
            known = {tuple(line.split()) for line in f if line.strip() and not line.startswith("#")
                     and not line.split()[0].endswith(":")}
        paths = paths[2:]
    failed = set()
    os.makedirs(out_dir, exist_ok=True)
    logged = providers.Logged()
    providers.agents_logger.addHandler(logged)
    providers.agents_logger.setLevel("DEBUG")
    providers.agents_logger.propagate = False
    recorder = providers.Recorder()
    http = providers.httpx2.Client(transport=providers.httpx2.MockTransport(recorder))
    client = genai.Client(api_key="offline", http_options=types.HttpOptions(httpx_client=http))
    figures = {c: {"documents": 0, "complete": 0, "tools": 0, "accepted": 0, "left_tools": 0,
                   "kept_schemas": 0, "instances": 0, "agents_refs": 0} for c in CLIENTS}
    failures = []
    index = []
    for n, (path, doc) in enumerate(documents(paths)):
        index.append(path)
        source = os.path.join(out_dir, f"{n}.json")
        with open(source, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
        for c in CLIENTS:
            report_path = os.path.join(out_dir, f"{n}.{c}.report.json")
            run = subprocess.run([linter, "port", "--for", c, source, "--report", report_path],
                                 capture_output=True, text=True)
            if run.returncode not in (0, 2) or not os.path.exists(report_path):
                failures.append(f"{path} for {c}: port exited {run.returncode}: {run.stderr[-300:]}")
                continue
            ported = json.loads(run.stdout)
            # The ported document, for the converters that run on it after (converters.py).
            with open(os.path.join(out_dir, f"{n}.{c}.ported.json"), "w", encoding="utf-8") as f:
                f.write(run.stdout)
            report = json.load(open(report_path))
            fig = figures[c]
            fig["documents"] += 1
            fig["complete"] += run.returncode == 0
            left = left_tools(report)
            for i, tool in enumerate(tools_of(ported)):
                if i in left:
                    fig["left_tools"] += 1
                    continue
                fig["tools"] += 1
                schema = tool["inputSchema"]
                name = tool["name"]
                if c == "gemini":
                    mtool = mcp.types.Tool(name=name, description="A tool.", inputSchema=schema)
                    def declaration(schema=schema, name=name):
                        fd = types.FunctionDeclaration(name=name, description="A tool.", parameters=schema)
                        return types.Tool(function_declarations=[fd])
                    results = [providers.gemini_request(client, recorder, declaration),
                               providers.gemini_request(client, recorder, lambda t=mtool: t)]
                    ok = all(r["request"] == "sent" for r in results)
                    why = [r.get("error") for r in results if r["request"] != "sent"]
                else:
                    mtool = mcp.types.Tool(name=name, description="A tool.", inputSchema=schema)
                    r = providers.openai_agents(mtool, logged)
                    ok = r["strict"] and same_required(r["sent"]) == same_required(agents_normal(schema))
                    why = [r.get("error") or "the strict conversion changed the ported schema"]
                    if r.get("error") == UNVALIDATED_REF:
                        fig["agents_refs"] += 1
                        continue
                if ok:
                    fig["accepted"] += 1
                elif (path, c, name) in known:
                    failed.add((path, c, name))
                else:
                    failures.append(f"{path} for {c}: tool `{name}` refused: {why}")
            # The kept claims: a schema all of whose changes are kept validates the same.
            changed_at = {ch["pointer"].split("/inputSchema")[0] for ch in report["changes"]
                          if ch["meaning"] == "changed"}
            kept_at = {ch["pointer"].split("/inputSchema")[0] for ch in report["changes"]
                       if ch["meaning"] == "kept" and "/inputSchema" in ch["pointer"]}
            for at in sorted(kept_at - changed_at):
                i = int(at.rsplit("/", 1)[1])
                before = tools_of(doc)[i]["inputSchema"]
                after = as_read_by(c, tools_of(ported)[i]["inputSchema"])
                fig["kept_schemas"] += 1
                for instance in instances(before) + instances(after):
                    a, b = accepts(before, instance), accepts(after, instance)
                    if a is None or b is None:
                        continue
                    fig["instances"] += 1
                    if a != b:
                        failures.append(f"{path} for {c}: kept at {at}, but {json.dumps(instance)[:200]} "
                                        f"is {'valid' if a else 'invalid'} before and {'valid' if b else 'invalid'} after")
                        break
    # Which file each numbered document came from, for converters.py.
    with open(os.path.join(out_dir, "index.json"), "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1)
    for c, fig in figures.items():
        print(f"port proof: {c}: {fig['documents']} documents ({fig['complete']} ported whole); "
              f"{fig['accepted']} of {fig['tools']} ported tools accepted by the client's code, "
              f"{fig['left_tools']} tools left; {fig['kept_schemas']} kept schemas checked on "
              f"{fig['instances']} instances"
              + (f"; {fig['agents_refs']} tools with a `$ref` the OpenAI Agents SDK sends without "
                 f"strict mode (its MCP path does not validate the reference)" if c == "openai-strict" else ""))
    print(f"port proof: {len(failed)} refusals known and not solved yet (listed in the --known file)")
    for line in sorted(known - failed):
        failures.append(f"{' '.join(line)}: listed as known but accepted now: remove it from the list")
    if os.environ.get("PORT_PROOF_ALL"):
        failures_shown = failures
    else:
        failures_shown = failures[:40]
    for failure in failures_shown:
        print(f"port proof: FAILED: {failure}", file=sys.stderr)
    if len(failures) > len(failures_shown):
        print(f"port proof: ... and {len(failures) - len(failures_shown)} more", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

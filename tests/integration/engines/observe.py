"""The engine tier's bookkeeping (tests/integration/engines.sh runs it with any Python 3.8+):

    observe.py observed CASES.json LISTINGS.json RESULTS.json... > observed.json
    observe.py breaks CASES.json LISTINGS.json observed.json > breaks.json
    observe.py table observed.json
    observe.py listings DIR > LISTINGS.json
    observe.py listing-schemas LISTINGS.json > SCHEMAS.json
    observe.py rust-listing LISTINGS.json SCHEMAS-RESULTS.json > RESULTS.json

`observed`: what each engine did with each case, and the effect that has on a client, judged
against the case's expectations: `compile-error` (the schema is refused), `unresolved-reference`
(a `$ref` names nothing the engine can find, at compile time or when validation reaches it),
`wrong-binding` / `rejects-valid-output` / `accepts-invalid-output` (an instance gets the
wrong verdict; a case says `"mismatch": "wrong-binding"` when a wrong verdict means a reference
bound to the wrong subschema). No effect: the engine does what the schema means. A result keeps
what its engine reported beside the verdicts, such as Ajv's `warnings` (what it logged while
compiling the schema: `unknown format "uint32" ignored in schema at path ...`).

Listing cases (`listing/<file stem>`, a `tools/list` result run through the SDK clients
themselves, tests/integration/listing/) are judged by what the client did with the listing:
`loses-tool-list` (the listing fails, so every tool of the server is lost), `loses-tool` (the
listing drops the tool, or a call of it fails before its output is checked),
`rejects-valid-output` (the call's `structuredContent`, which the case means to be valid, is
rejected). For `jsonschema-rs`, which is no MCP client, the crate compiles each listed output
schema and validates each call's `structuredContent` (`listing-schemas` makes those schema
cases), judged like any schema case.

A listing case may be served as raw text (`"raw": "raw/x.txt"`, a file beside it, such as one
with a key twice): the peers then hand the clients the bytes as their own transport parses them,
`listing` being Python's reading of it (what the crate is given), and a client's result records
the output schemas it read (`read`).

Plain-schema cases (`"target": "json-schema"`: a schema file, as SchemaStore holds them) also go
through the consumers of plain schemas (`PLAIN`, tests/integration/plain/), judged by `judge_plain`:
an effect of `judge`, or `fetches-remote` where the consumer resolved the schema by asking its
schemaRequestService for a remote document (what it requested), a difference of portability, not
a failure.

Input-role cases (`"role": "input"`: the schema is a tool's `inputSchema`, which no SDK client
compiles) are judged by what the hosts' and providers' conversions did with it
(tests/integration/providers/, `judge_provider`): `loses-strict` (the OpenAI Agents SDK serves
the tool without strict mode), `rewrites-schema` (the model is sent another schema, or another
name, than the server's: what changed), `rejects-request` (google-genai refuses the request that
offers the tool), and `loses-tool-list` / `loses-tool` for gemini-cli's discovery. Each such
client's row holds one result per code path (`python`, `js`, `FunctionDeclaration`, ...).

The hosts' own Ajv (`AJV_HOSTS`, tests/integration/engines/ajv.mjs) also run on the input-role
cases and on those that ask for them (`"hosts": true`), each row the host before the version that changed it (`gemini-cli<0.28.0`): judged like a
schema case, their breaks name the client with `versions` (`{"from": null, "until": "0.28.0"}`).

`breaks`: for each case class (`SL201/malformed-scheme`), the clients its cases break and how:
`{"client", "effect", "detail"}`, detail being the engine's error (or the wrong verdict) on the
first case of the class, in name order. A client may have two entries: one for what its engine
does with the schema (from the schema cases, or the crate's row of a listing case) and one for
what the SDK client does with a listing (`loses-tool-list`, `loses-tool`). Only the hand-written cases (those with a `class`)
count; the rule docs' examples are observed, not classified. A class whose cases break nothing
maps to `[]`: the rules stay silent on it, or say that no client breaks.

Both outputs are sorted and end with a newline, so that a rerun on the same engines gives the
same bytes.
"""

import json
import pathlib
import sys

ENGINES = ["ts-sdk-v1", "ts-sdk-v2", "python-sdk", "python-sdk+format", "python-sdk-v1", "jsonschema-rs"]
# The hosts' and providers' conversions of a tool's input schema (tests/integration/providers/),
# run on the input-role cases only (`"role": "input"`); each client's row holds one result per
# code path (`python`, `js`, `FunctionDeclaration`, ...). In the order of the Client enum
# (src/diagnostic/client.rs: the hosts, then the providers), which breaks.json keeps.
PROVIDERS = ["gemini-cli", "openai-agents", "gemini"]
# The hosts that compile a tool's input schema with an Ajv of their own before each call
# (tests/integration/engines/ajv.mjs; gemini-cli's own package, 0.27.4, in
# tests/integration/providers/hosts.mjs), run on the input-role cases: each row is the host as it
# was before a version that changed it, so its breaks hold for those versions only
# (`versions`, the first version no longer measured so: rules/clients/<name>.md says where).
AJV_HOSTS = {
    "gemini-cli<0.28.0": ("gemini-cli", "0.28.0"),
    "qwen-code<0.12.0": ("qwen-code", "0.12.0"),
    "openclaw<2026.4.22": ("openclaw", "2026.4.22"),
    "openclaude<0.20.0": ("openclaude", "0.20.0"),
    "llxprt-code<0.10.0": ("llxprt-code", "0.10.0"),
    "pi-mcp-adapter<2.11.0": ("pi-mcp-adapter", "2.11.0"),
    "mastra<1.2.9": ("mastra", "1.2.9"),
}
# The hosts and providers in the order of the Client enum, which breaks.json keeps.
CLIENT_ORDER = ["gemini-cli", "openai-agents", "qwen-code", "openclaw", "openclaude", "llxprt-code",
                "pi-mcp-adapter", "mastra", "gemini"]
# Converters no client of the rules stands for, observed only: what `@ai-sdk/openai`, the layers
# of `@mastra/schema-compat` and LangChain's `convertToOpenAITool` make of each input schema
# (tests/it/engines.rs checks what they do against the rules' claims).
OBSERVED_ONLY = ["ai-sdk-openai", "mastra", "langchain"]
# The consumers of plain JSON Schema files (tests/integration/plain/), run on the cases linted for
# the `json-schema` target (`"target": "json-schema"`) beside the SDK engines: vscode-json-
# languageservice with a schemaRequestService that serves the case's `remote` documents.
PLAIN = ["vscode-json"]
# The server and tool names the provider runners use (a case may name its tool: `tool`).
SERVER = "server"
# How the TS clients word a `structuredContent` that fails the output schema.
OUTPUT_REJECTED = "Structured content does not match the tool's output schema"
REFERENCING = ("Unresolvable", "PointerToNowhere", "NoSuchAnchor", "NoSuchResource", "InvalidAnchor")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump(value):
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))
    sys.stdout.write("\n")


def judge(case, result):
    """The effect of `result` on a client, with its detail, or (None, None)."""
    if result["compile"] != "ok":
        effect = "unresolved-reference" if result.get("kind") == "reference" else "compile-error"
        return effect, result.get("error", "")
    expected = [i.get("valid") for i in case.get("instances", [])]
    for n, (want, got) in enumerate(zip(expected, result.get("instances", []))):
        if got.startswith("error: "):
            detail = got[len("error: "):]
            referencing = detail.startswith(REFERENCING)
            return ("unresolved-reference" if referencing else "compile-error"), detail
        if want is None or (got == "valid") == want:
            continue
        data = json.dumps(case["instances"][n]["data"], ensure_ascii=False, sort_keys=True)
        if "mismatch" in case:
            effect = case["mismatch"]
        else:
            effect = "rejects-valid-output" if want else "accepts-invalid-output"
        return effect, f"{data} is {'rejected' if want else 'accepted'}"
    return None, None


def engines_of(case):
    """The engines whose results count for a case: for a tool's input schema (`"role": "input"`)
    the hosts' and providers' conversions (no SDK client compiles an input schema: the SDK
    engines' results on it are left out), for a plain schema file (`"target": "json-schema"`)
    the SDK engines and the plain-schema consumers, for a case that asks for the hosts' own Ajv too
    (`"hosts": true`: how they read a schema they would compile as an input schema, observed
    beside the SDK engines) those as well, for any other the SDK engines."""
    if case.get("role") == "input":
        return PROVIDERS + OBSERVED_ONLY + list(AJV_HOSTS)
    if case.get("hosts"):
        return ENGINES + list(AJV_HOSTS)
    if case.get("target") == "json-schema":
        return ENGINES + PLAIN
    return ENGINES


def judge_plain(case, result):
    """The effect of a plain-schema consumer's reading of a case, with its detail, or (None,
    None): what `judge` says of its verdicts; else `fetches-remote` when it asked its
    schemaRequestService for a document (what it requested): the schema then resolves where that
    host serves it, and only there."""
    effect, detail = judge(case, result)
    if effect is None and result.get("requested"):
        return "fetches-remote", "requested " + ", ".join(result["requested"])
    return effect, detail


def observed(cases_path, listings_path, result_paths):
    cases = {c["name"]: c for c in load(cases_path) + load(listings_path)}
    merged = {}
    for path in result_paths:
        for engine, results in load(path).items():
            for name, result in results.items():
                if engine in PROVIDERS + OBSERVED_ONLY:
                    # One result per code path, from more than one runner (python, js).
                    merged.setdefault(engine, {}).setdefault(name, {}).update(result)
                else:
                    merged.setdefault(engine, {})[name] = result
    wanted = set(ENGINES)
    if any(c.get("role") == "input" for c in cases.values()):
        wanted.update(PROVIDERS + OBSERVED_ONLY + list(AJV_HOSTS))
    if any(c.get("hosts") for c in cases.values()):
        wanted.update(AJV_HOSTS)
    if any(c.get("target") == "json-schema" for c in cases.values()):
        wanted.update(PLAIN)
    missing = [e for e in ENGINES + PROVIDERS + OBSERVED_ONLY + list(AJV_HOSTS) + PLAIN
               if e in wanted and e not in merged]
    if missing:
        sys.exit(f"observe.py: no results for {', '.join(missing)}")
    out = {}
    for name, case in sorted(cases.items()):
        row = {}
        # A listing case also through the clients that speak another revision
        # (`ts-sdk-v2@2026-07-28`): recorded beside, never a client of the rules' claims.
        revisions = sorted(e for e in merged if "@" in e and name in merged[e]) if "listing" in case else []
        for engine in engines_of(case) + revisions:
            result = dict(merged[engine][name])
            if engine in PROVIDERS + OBSERVED_ONLY:
                effect, detail = judge_provider(engine, case, result) if engine in PROVIDERS else (None, None)
                result = summarize(case, result)
            elif engine in PLAIN:
                effect, detail = judge_plain(case, result)
            else:
                effect, detail = (judge_listing if "listing" in case else judge)(case, result)
            if effect is not None:
                result["effect"] = effect
                result["detail"] = detail
            row[engine] = result
        out[name] = row
    dump(out)


def pointer(path):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def changes(before, after, path=()):
    """What `after` changes of `before`, each a sentence: a keyword dropped, added or changed, at
    the JSON pointer of the schema object holding it, sorted."""
    out = []
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            where = pointer(path)
            if key not in after:
                out.append(f"`{where}`: `{key}` dropped")
            elif key not in before:
                out.append(f"`{where}`: `{key}: {compact(after[key])}` added")
            else:
                out.extend(changes(before[key], after[key], (*path, key)))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after) \
            and all(isinstance(b, dict) for b in before):
        for n, (b, a) in enumerate(zip(before, after)):
            out.extend(changes(b, a, (*path, n)))
    elif path and path[-1] == "required" and isinstance(before, list) and isinstance(after, list) \
            and sorted(map(str, before)) == sorted(map(str, after)):
        pass  # the same names in another order
    elif not path:
        out.append(f"the schema became {compact(after)}")
    elif before != after or type(before) is not type(after):
        out.append(f"`{pointer(path[:-1])}`: `{path[-1]}` {compact(before)} became {compact(after)}")
    return out


def compact(value):
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def made_required(before, after, path=()):
    """The properties `after` requires that `before` left optional, as `pointer: name` strings."""
    out = []
    if isinstance(before, dict) and isinstance(after, dict):
        props = before.get("properties")
        if isinstance(props, dict):
            had = before.get("required") if isinstance(before.get("required"), list) else []
            now = after.get("required") if isinstance(after.get("required"), list) else []
            out.extend(f"`{pointer(path)}`: `{p}`" for p in now if p in props and p not in had)
        for key in sorted(set(before) & set(after)):
            out.extend(made_required(before[key], after[key], (*path, key)))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for n, (b, a) in enumerate(zip(before, after)):
            out.extend(made_required(b, a, (*path, n)))
    return out


def gemini_form(value):
    """A schema as google-genai sends it (`type: STRING`, `additional_properties`), in JSON Schema's
    spelling, so that only what it changes shows."""
    if isinstance(value, list):
        return [gemini_form(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, v in value.items():
        key = {"additional_properties": "additionalProperties", "any_of": "anyOf"}.get(key, key)
        if key == "type" and isinstance(v, str):
            v = v.lower()
        out[key] = v if key == "properties" and not isinstance(v, dict) else (
            {k: gemini_form(x) for k, x in v.items()} if key in ("properties", "$defs") and isinstance(v, dict)
            else gemini_form(v))
    return out


def summarize(case, result):
    """A host's or provider's result as `observed.json` keeps it: each schema it sent replaced by
    what it changed of the server's (`changes`, at most 12), google-genai's spelling of types and
    keys, gemini-cli's `wait_for_previous` and name prefix aside."""
    out = {}
    for name, path in result.items():
        path = dict(path)
        if "sent" in path:
            sent = path.pop("sent")
            if name == "discoverTools":
                sent = {tool: without_wait(case, schema) for tool, schema in sent.items()}
                found = [c for schema in sent.values() for c in changes(case["schema"], schema)]
            else:
                if name in ("FunctionDeclaration", "mcp_to_gemini_tool"):
                    sent = gemini_form(sent)
                found = changes(case["schema"], sent)
            if len(found) > 12:
                found = found[:12] + [f"(and {len(found) - 12} more)"]
            path["changes"] = found
        out[name] = path
    return out


def without_wait(case, sent):
    """What gemini-cli sends but for the `wait_for_previous` property it adds to every tool."""
    sent = dict(sent)
    if isinstance(sent.get("properties"), dict) and "wait_for_previous" in sent["properties"]:
        sent["properties"] = {k: v for k, v in sent["properties"].items() if k != "wait_for_previous"}
        if sent["properties"] == {} and "properties" not in case["schema"]:
            del sent["properties"]
    return sent


# The order a provider client's code paths are judged in: the first that breaks gives the detail.
PATHS = {
    "openai-agents": ["python", "js"],
    "gemini": ["FunctionDeclaration", "mcp_to_gemini_tool", "@ai-sdk/google"],
    "gemini-cli": ["discoverTools"],
}


def judge_provider(client, case, result):
    """The effect of a host's or provider's conversion of a tool's input schema, with its detail,
    or (None, None). The conversion runs on the case's schema as the tool's `inputSchema`:
    - openai-agents: `loses-strict` when a path falls back to a non-strict tool (its logged
      error); else `rewrites-schema` when the strict schema requires a property the server's
      left optional (the model must then always send it; the `additionalProperties: false` strict
      mode adds to every object is how strict mode works, and not counted);
    - gemini: `rejects-request` when a path raises before the request is sent (google-genai's
      two, then @ai-sdk/google's: a host on either SDK then never offers the tool);
    - gemini-cli: `loses-tool-list` when the listing fails, `loses-tool` when the tool is not
      sent, `rewrites-schema` when what it sends differs from the server's schema other than by
      the `wait_for_previous` property it adds to every tool and the `mcp_server_` prefix of the
      name (what changed).
    """
    paths = [result[p] for p in PATHS[client] if p in result]
    schema = case["schema"]
    tool = case.get("tool", "report")
    if client == "openai-agents":
        for path in paths:
            if not path["strict"]:
                return "loses-strict", path["error"]
        for path in paths:
            required = made_required(schema, path.get("sent"))
            if required:
                return "rewrites-schema", "made required: " + ", ".join(required)
        return None, None
    if client == "gemini":
        for path in paths:
            if path["request"] == "error":
                return "rejects-request", path["error"]
        return None, None
    # gemini-cli
    path = paths[0]
    if path["listing"] != "ok":
        return "loses-tool-list", path["error"]
    if len(path["sent"]) != 1:
        return "loses-tool", f"`{tool}` is left out of the tools it sends"
    (name, sent), = path["sent"].items()
    found = changes(schema, without_wait(case, sent))
    if name != f"mcp_{SERVER}_{tool}":
        found.insert(0, f"the name `mcp_{SERVER}_{tool}` sent as `{name}`")
    if found:
        return "rewrites-schema", "; ".join(found)
    return None, None


LISTING_EFFECTS = ("loses-tool-list", "loses-tool")


def breaks(cases_path, listings_path, observed_path):
    seen = load(observed_path)
    classes = {}
    # The schema cases first, then the listing cases: a client has at most one entry of an engine
    # effect (the first case's: a schema case's where there is one) and one of a listing effect.
    for cases in (load(cases_path), load(listings_path)):
        for case in sorted(cases, key=lambda c: c["name"]):
            if "class" not in case:
                continue
            entries = classes.setdefault(case["class"], {})
            for engine in engines_of(case):
                row = seen[case["name"]][engine]
                # A row the case says fails for another shape of its schema than its class's
                # (`elsewhere`: {row: why}) is observed, not counted for the class.
                if "effect" not in row or engine in case.get("elsewhere", {}):
                    continue
                key = (engine, row["effect"] in LISTING_EFFECTS)
                if key not in entries:
                    entry = {"client": engine, "effect": row["effect"], "detail": row["detail"]}
                    if engine in AJV_HOSTS:
                        client, until = AJV_HOSTS[engine]
                        entry.update(client=client, versions={"from": None, "until": until})
                    entries[key] = entry
    client = lambda row: AJV_HOSTS[row][0] if row in AJV_HOSTS else row
    rows = ENGINES + sorted(PROVIDERS + list(AJV_HOSTS), key=lambda r: CLIENT_ORDER.index(client(r))) + PLAIN
    dump({k: [v[(e, listing)] for e in rows for listing in (False, True) if (e, listing) in v]
          for k, v in sorted(classes.items())})


def listings(folder):
    """The listing cases of `folder` (`*.json`), each named `listing/<file stem>`, sorted."""
    out = []
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        case = load(path)
        case["name"] = f"listing/{path.stem}"
        if "raw" in case:
            # The result as the peer serves it, byte for byte; `listing` is Python's reading.
            case["raw"] = (path.parent / case["raw"]).read_text(encoding="utf-8")
            case["listing"] = json.loads(case["raw"])
        out.append(case)
    return out


def listing_schemas(cases):
    """Each output schema of each listing case as a schema case (`listing/x/tool`), the
    `structuredContent` of the tool's calls as instances meant to be valid."""
    out = []
    for case in cases:
        for tool in case["listing"]["tools"]:
            if "outputSchema" not in tool:
                continue
            data = [k["structuredContent"] for k in case.get("calls", []) if k["tool"] == tool["name"]]
            out.append({"name": f"{case['name']}/{tool['name']}", "schema": tool["outputSchema"],
                        "instances": [{"data": d, "valid": True} for d in data]})
    return out


def judge_listing(case, result):
    """The effect on a client of what it did with a listing case, with its detail, or (None, None)."""
    if "schemas" in result:  # jsonschema-rs: one schema case per output schema
        for tool in sorted(result["schemas"]):
            sub = result["schemas"][tool]
            data = [k["structuredContent"] for k in case.get("calls", []) if k["tool"] == tool]
            effect, detail = judge({"instances": [{"data": d, "valid": True} for d in data]}, sub)
            if effect is not None:
                return effect, detail
        return None, None
    if result["listing"] != "ok":
        return "loses-tool-list", result["error"]
    for tool in case["listing"]["tools"]:
        if tool["name"] not in result["tools"]:
            return "loses-tool", f"`{tool['name']}` is left out of the listing"
    for tool, verdict in sorted(result.get("calls", {}).items()):
        if verdict == "ok":
            continue
        detail = verdict[len("error: "):]
        rejected = OUTPUT_REJECTED in detail or "Invalid structured content" in detail
        return ("rejects-valid-output" if rejected else "loses-tool"), detail
    return None, None


def rust_listing(listings_path, results_path):
    """The crate's results on `listing-schemas`, regrouped per listing case."""
    out = {}
    for case in load(listings_path):
        out[case["name"]] = {"schemas": {}}
    for name, result in load(results_path)["jsonschema-rs"].items():
        listing, tool = name.rsplit("/", 1)
        out[listing]["schemas"][tool] = result
    return {"jsonschema-rs": out}


def table(observed_path):
    seen = load(observed_path)
    width = max(len(n) for n in seen)
    short = {"ts-sdk-v1": "v1", "ts-sdk-v2": "v2", "python-sdk": "py", "python-sdk-v1": "py1", "python-sdk+format": "py+f", "jsonschema-rs": "rs",
             "openai-agents": "agents", "gemini": "gemini", "gemini-cli": "g-cli"}
    print(" " * width, *(f"{short[e]:<6}" for e in ENGINES + PROVIDERS))
    abbrev = {None: "ok", "compile-error": "COMP", "unresolved-reference": "UNRES", "wrong-binding": "BIND",
              "rejects-valid-output": "REJ", "accepts-invalid-output": "ACC", "loses-tool-list": "LIST",
              "loses-tool": "TOOL", "loses-strict": "STRICT", "rewrites-schema": "REWR", "rejects-request": "400"}
    for name, row in seen.items():
        cells = (abbrev[row[e].get("effect")] if e in row else "-" for e in ENGINES + PROVIDERS)
        print(f"{name:<{width}}", *(f"{c:<6}" for c in cells))


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "observed" and len(sys.argv) >= 5:
        observed(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif command == "breaks" and len(sys.argv) == 5:
        breaks(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "listings" and len(sys.argv) == 3:
        dump(listings(sys.argv[2]))
    elif command == "listing-schemas" and len(sys.argv) == 3:
        dump(listing_schemas(load(sys.argv[2])))
    elif command == "rust-listing" and len(sys.argv) == 4:
        dump(rust_listing(sys.argv[2], sys.argv[3]))
    elif command == "table" and len(sys.argv) == 3:
        table(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

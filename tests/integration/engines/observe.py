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

ENGINES = ["ts-sdk-v1", "ts-sdk-v2", "python-sdk", "python-sdk+format", "jsonschema-rs"]
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


def observed(cases_path, listings_path, result_paths):
    cases = {c["name"]: c for c in load(cases_path) + load(listings_path)}
    merged = {}
    for path in result_paths:
        for engine, results in load(path).items():
            merged.setdefault(engine, {}).update(results)
    missing = [e for e in ENGINES if e not in merged]
    if missing:
        sys.exit(f"observe.py: no results for {', '.join(missing)}")
    out = {}
    for name, case in sorted(cases.items()):
        row = {}
        for engine in ENGINES:
            result = dict(merged[engine][name])
            effect, detail = (judge_listing if "listing" in case else judge)(case, result)
            if effect is not None:
                result["effect"] = effect
                result["detail"] = detail
            row[engine] = result
        out[name] = row
    dump(out)


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
            for engine in ENGINES:
                row = seen[case["name"]][engine]
                if "effect" not in row:
                    continue
                key = (engine, row["effect"] in LISTING_EFFECTS)
                if key not in entries:
                    entries[key] = {"client": engine, "effect": row["effect"], "detail": row["detail"]}
    dump({k: [v[(e, listing)] for e in ENGINES for listing in (False, True) if (e, listing) in v]
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
    short = {"ts-sdk-v1": "v1", "ts-sdk-v2": "v2", "python-sdk": "py", "python-sdk+format": "py+f", "jsonschema-rs": "rs"}
    print(" " * width, *(f"{short[e]:<6}" for e in ENGINES))
    abbrev = {None: "ok", "compile-error": "COMP", "unresolved-reference": "UNRES", "wrong-binding": "BIND",
              "rejects-valid-output": "REJ", "accepts-invalid-output": "ACC", "loses-tool-list": "LIST",
              "loses-tool": "TOOL"}
    for name, row in seen.items():
        print(f"{name:<{width}}", *(f"{abbrev[row[e].get('effect')]:<6}" for e in ENGINES))


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

"""Checks `schema-lint audit --output-format json` on one real capture against what the servers do.

Usage: check.py CAPTURE REPORT REVISION SERVER   (SERVER: python or typescript)

Both servers (python/server.py, ts/server.mjs) expose tools with an output schema and one without
(`echo`); exactly one successful call, `get_humidity`, sends `"value": "high"` against
`"value": {"type": "number"}`. The Python server has a fourth, `get_forecast`, whose naive
`datetime` (`"at": "2026-12-01T11:00:00"`) is valid for the Python client and not a `date-time`
for the TypeScript clients. Both have `get_link`, whose URL (`|` from Pydantic's `AnyUrl`, `Köln`
from zod's `z.url()`) is valid for the Python client and not a `uri` for the TypeScript clients,
and `get_alert`, answered with an `isError` result whose `structuredContent` fails its schema.
So the audit must report:
- five audited calls (six from the Python server), `echo` counted apart as "no outputSchema",
  nothing else (no JSON-RPC error, unreadable line, unanswered request or SL6xx finding but the
  ones below);
- for `get_forecast`: `valid: true` and exactly one finding, SL605 at `/at` for `date-time`;
- for `get_link`: `valid: true` and exactly one finding, SL605 at `/url` for `uri`;
- for `get_alert`: `isError`, `valid: false` and exactly one finding, SL606;
- `get_humidity` at `validate_root`, `valid: false`, one `type` error at `/value`; every other
  call `validate_root` and `valid: true`. None of these tools is a `.meta({ id })` tool sending
  the legacy `{"result": {...}}` envelope on 2025-11-25, so no call may be `legacy_wrapper`,
  and every result has an object `structuredContent`, so none may be `missing`;
- `metaIdTool` true for the TypeScript `get_report` (its schema is a root `$ref` into `$defs`)
  and for no other tool;
- every call's protocol equal to REVISION, and from the right source: on 2025-11-25 the capture
  holds an `initialize` handshake and the `tools/call` requests carry no protocol in `_meta`, so
  the protocol can only have come from the handshake; on 2026-07-28 there is no `initialize`
  and every `tools/call` carries it in `_meta["io.modelcontextprotocol/protocolVersion"]`.
Prints one line per problem; exits 1 when there is any.
"""

from __future__ import annotations

import json
import sys

PROTOCOL_META = "io.modelcontextprotocol/protocolVersion"
BROKEN = "get_humidity"
NAIVE = "get_forecast"
LINK = "get_link"
ALERT = "get_alert"


def main(capture_path: str, report_path: str, revision: str, server: str) -> list[str]:
    problems: list[str] = []
    with open(capture_path, encoding="utf-8") as f:
        messages = [json.loads(line) for line in f if line.strip()]
    # `schema-lint record` logs each message under `message`, with its direction and time.
    messages = [m["message"] if "direction" in m and "message" in m else m for m in messages]
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)

    # What went over the wire.
    requests = [m for m in messages if m.get("method") == "tools/call" and "id" in m]
    called = sorted(m["params"]["name"] for m in requests)
    tools = ["get_weather", "get_humidity", "echo", LINK, ALERT]
    tools += ["get_report"] if server == "typescript" else ["get_temperature", NAIVE]
    if called != sorted(tools):
        problems.append(f"the capture's tools/call requests are {called}")
    answered = {json.dumps(m["id"]) for m in messages if "id" in m and "method" not in m}
    if any(json.dumps(r["id"]) not in answered for r in requests):
        problems.append("a tools/call in the capture has no response")
    initialize = [m for m in messages if m.get("method") == "initialize"]
    in_meta = [r["params"].get("_meta", {}).get(PROTOCOL_META) for r in requests]
    if revision == "2025-11-25":
        if len(initialize) != 1 or initialize[0]["params"]["protocolVersion"] != revision:
            problems.append(f"expected one initialize for {revision}, found {initialize}")
        if any(v is not None for v in in_meta):
            problems.append(f"2025-11-25 tools/call requests carry a protocol in _meta: {in_meta}")
    else:
        if initialize:
            problems.append("a 2026-07-28 capture holds an initialize request")
        if any(v != revision for v in in_meta):
            problems.append(f"tools/call requests' _meta protocols are {in_meta}, not all {revision}")

    # What the audit made of it.
    calls = report["calls"]
    for key in ("rpc_errors", "input_errors", "unanswered"):
        if report.get(key):
            problems.append(f"{key}: {report[key]}")
    if report["without_output_schema"] != 1:
        problems.append(f"without_output_schema is {report['without_output_schema']}, expected 1 (echo)")
    audited = 6 if server == "python" else 5
    if len(calls) != audited:
        problems.append(f"{len(calls)} audited calls, expected {audited}: {[c['tool'] for c in calls]}")
    invalid = [c for c in calls if c["valid"] is not True]
    if sorted(c["tool"] for c in invalid) != sorted([BROKEN, ALERT]):
        problems.append(f"calls not valid: {[(c['tool'], c['target'], c['valid']) for c in invalid]}, expected only {BROKEN} and {ALERT}")
    for c in calls:
        where = f"call {c['id']} {c['tool']}"
        if c["target"] != "validate_root":
            problems.append(f"{where}: target {c['target']}, expected validate_root")
        if c["protocol"] != revision or c["record"].get("protocol") != revision:
            problems.append(f"{where}: protocol {c['protocol']}, expected {revision}")
        if c["metaIdTool"] != (server == "typescript" and c["tool"] == "get_report"):
            problems.append(f"{where}: metaIdTool {c['metaIdTool']}")
        if c["tool"] == NAIVE:
            found = [(f["code"], f.get("pointer"), f.get("format"), f["severity"]) for f in c["findings"]]
            if c["valid"] is not True or found != [("SL605", "/at", "date-time", "error")]:
                problems.append(f"{where}: valid {c['valid']}, findings {found}; expected true, one SL605 at /at")
        elif c["tool"] == LINK:
            found = [(f["code"], f.get("pointer"), f.get("format"), f["severity"]) for f in c["findings"]]
            if c["valid"] is not True or found != [("SL605", "/url", "uri", "error")]:
                problems.append(f"{where}: valid {c['valid']}, findings {found}; expected true, one SL605 at /url for uri")
        elif c["tool"] == ALERT:
            found = [f["code"] for f in c["findings"]]
            if c["isError"] is not True or c["valid"] is not False or found != ["SL606"]:
                problems.append(f"{where}: isError {c['isError']}, valid {c['valid']}, findings {found}; expected an invalid error result with SL606")
        elif c["findings"]:
            problems.append(f"{where}: findings {c['findings']}")
        if c["tool"] == BROKEN:
            errors = [(e["instance_pointer"], e["keyword"]) for e in c["errors"]]
            if c["valid"] is not False or errors != [("/value", "type")]:
                problems.append(f"{where}: valid {c['valid']}, errors {errors}; expected false, [('/value', 'type')]")
    expected = {
        "validate_root": {"calls": audited, "valid": audited - 2, "invalid": 2},
        "legacy_wrapper": {"calls": 0, "valid": 0, "invalid": 0},
        "missing": 0,
        "schema": 0,
    }
    if report["summary"] != expected:
        problems.append(f"summary {report['summary']}, expected {expected}")
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: check.py CAPTURE REPORT REVISION SERVER")
    found = main(*sys.argv[1:])
    for problem in found:
        print(f"  {problem}")
    sys.exit(1 if found else 0)

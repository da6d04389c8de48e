"""Connects the real Python MCP client (`mcp` 2.3.0, `mcp.Client` over stdio) to `schema-lint mcp`
and checks what an agent would rely on: the four tools are listed with input and output
schemas; `lint_schema` on `{"$id": "my_tool:output", "type": "object"}` reports SL201 with the
clients it breaks; `fix_schema` returns the repaired schema; `explain_rule` returns the doc; a
call with bad arguments is an `isError` result. The client itself validates every
`structuredContent` against the tool's `outputSchema` (it raises when one does not conform).

Run once per mode: 'auto' (the client probes `server/discover` and speaks 2026-07-28
statelessly) and 'legacy' (the `initialize` handshake of 2025-11-25).

Usage: python client.py SCHEMA_LINT MODE EXPECTED_PROTOCOL
"""

import json
import pathlib
import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

SCHEMA = {"$id": "my_tool:output", "type": "object"}
ROOT = pathlib.Path(__file__).resolve().parents[3]


def fixtures():
    """Every JSON fixture of the rules, the bundled example and the CLI cases: every `format`,
    `$ref`, tuple and wrapper the rules know."""
    for folder in ("testdata/rules", "testdata/examples", "testdata/cli"):
        for path in sorted((ROOT / folder).rglob("*.json")):
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            yield path, text


def check(condition, what):
    if not condition:
        sys.exit(f"mcp-server: {what}")


async def main(binary, mode, expected):
    server = StdioServerParameters(command=binary, args=["mcp"])
    async with Client(server, mode=mode) as client:
        check(client.protocol_version == expected, f"protocol {client.protocol_version}, expected {expected}")
        check(client.server_info is not None and client.server_info.name == "schema-lint", f"server info {client.server_info}")

        listed = await client.list_tools()
        names = [t.name for t in listed.tools]
        check(names == ["lint_schema", "fix_schema", "lint_tools_list", "explain_rule"], f"tools {names}")
        for tool in listed.tools:
            check(tool.input_schema.get("type") == "object", f"{tool.name}: inputSchema {tool.input_schema}")
            check(tool.output_schema and tool.output_schema.get("type") == "object", f"{tool.name}: no outputSchema")

        linted = await client.call_tool("lint_schema", {"schema": SCHEMA})
        check(not linted.is_error, f"lint_schema failed: {linted.content}")
        findings = linted.structured_content["findings"]
        codes = [f["code"] for f in findings]
        check(codes == ["SL201"], f"lint_schema found {codes}")
        broken = sorted({b["client"] for b in findings[0]["breaks"]})
        check("ts-sdk-v1" in broken and "ts-sdk-v2" in broken, f"SL201 breaks {broken}")

        fixed = await client.call_tool("fix_schema", {"schema": SCHEMA})
        check(not fixed.is_error, f"fix_schema failed: {fixed.content}")
        repaired = fixed.structured_content
        check(repaired["schema"] == {"$id": "my_tool_output", "type": "object"}, f"fix_schema gave {repaired['schema']}")
        check(repaired["findings"] == [] and repaired["changed"], f"fix_schema left {repaired['findings']}")
        check([a["code"] for a in repaired["applied"]] == ["SL201"], f"fix_schema applied {repaired['applied']}")

        rule = await client.call_tool("explain_rule", {"code": "SL201"})
        check(not rule.is_error and rule.structured_content["name"] == "invalid-id-uri", f"explain_rule gave {rule.content}")

        # Every fixture through every tool, for the default clients and every client: the client
        # checks each structuredContent against the tool's outputSchema, and raises if one does not
        # conform (a `breaks` entry without `detail` once did).
        clients = listed.tools[0].input_schema["properties"]["clients"]["items"]["enum"]
        every = [c for c in clients if c != "default"]
        results = 0
        for path, text in fixtures():
            calls = [
                ("lint_schema", {"schema": text}),
                ("lint_schema", {"schema": text, "clients": every}),
                ("fix_schema", {"schema": text, "unsafe": True}),
            ]
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            if isinstance(value, dict) and ("tools" in value or "tools" in (value.get("result") or {})):
                calls.append(("lint_tools_list", {"document": text, "clients": every}))
            for name, arguments in calls:
                try:
                    await client.call_tool(name, arguments)
                except Exception as e:  # the client's own validation of the result
                    sys.exit(f"mcp-server: {name} on {path.relative_to(ROOT)}: {e}")
                results += 1
        check(results > 300, f"only {results} results checked")

        bad = await client.call_tool("lint_schema", {"schema": 5})
        check(bad.is_error, f"a bad argument was not an isError result: {bad}")

        print(
            f"mcp-server: {mode}: protocol {client.protocol_version}, {len(names)} tools, "
            f"SL201 breaks {', '.join(broken)}; fixed to {repaired['schema']['$id']}; "
            f"{results} results of the fixtures conform to their output schemas"
        )


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])

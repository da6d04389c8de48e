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

import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

SCHEMA = {"$id": "my_tool:output", "type": "object"}


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

        bad = await client.call_tool("lint_schema", {"schema": 5})
        check(bad.is_error, f"a bad argument was not an isError result: {bad}")

        print(
            f"mcp-server: {mode}: protocol {client.protocol_version}, {len(names)} tools, "
            f"SL201 breaks {', '.join(broken)}; fixed to {repaired['schema']['$id']}"
        )


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])

"""What the Python SDK client does with an error result (`isError: true`) whose `structuredContent`
fails the tool's output schema: the `fail` tool of tests/live/tool_server.py, over stdio on
2025-11-25. Prints `python-sdk: ok` (the result reaches the caller, the tool's error with it) or
`python-sdk: throws <message>`; tests/integration/audit.sh compares it with SL606's claims.

Usage: error_results.py TOOL_SERVER
"""

from __future__ import annotations

import sys

import anyio

from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def run(server: str) -> None:
    params = StdioServerParameters(command=sys.executable, args=[server, "legacy"])
    async with Client(params, mode="legacy") as client:
        await client.list_tools()
        try:
            result = await client.call_tool("fail", {})
            print("python-sdk: ok" if result.is_error else "python-sdk: ok, but isError is gone")
        except Exception as exc:  # the client's own validation
            print(f"python-sdk: throws {exc}")


if __name__ == "__main__":
    anyio.run(run, sys.argv[1])

"""What the Python SDK client (`mcp` 2.x) does with the results of tests/live/tool_server.py's
tools, over stdio on 2025-11-25 (see ../ts/verdicts.mjs for the tools). Prints
`python-sdk <tool>: accepts` (the result reaches the caller) or `python-sdk <tool>: rejects
<message>`; tests/integration/audit.sh compares the lines with the audit's verdicts.

Usage: verdicts.py TOOL_SERVER
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio

from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def run(server: str) -> None:
    params = StdioServerParameters(command=sys.executable, args=[server, "legacy"])
    async with Client(params, mode="legacy") as client:
        await client.list_tools()
        # The calls audit.sh makes too: tests/live/calls.json, beside the server.
        for tool, arguments in json.loads(Path(server).with_name("calls.json").read_text()):
            try:
                await client.call_tool(tool, arguments)
                print(f"python-sdk {tool}: accepts")
            except Exception as exc:  # the client's own validation
                print(f"python-sdk {tool}: rejects {str(exc).splitlines()[0]}")


if __name__ == "__main__":
    anyio.run(run, sys.argv[1])

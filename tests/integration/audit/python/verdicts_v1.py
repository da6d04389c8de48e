"""What the Python SDK client of the 1.x line (`mcp` 1.30.0, `ClientSession`) does with the
results of tests/live/tool_server.py's tools, over stdio on 2025-11-25 (see ../ts/verdicts.mjs
for the tools). Prints `python-sdk-v1 <tool>: accepts` or `python-sdk-v1 <tool>: rejects
<message>`; tests/integration/audit.sh compares the lines with the audit's verdicts.

Usage: verdicts_v1.py PYTHON TOOL_SERVER   (PYTHON runs the standard-library server)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def run(python: str, server: str) -> None:
    params = StdioServerParameters(command=python, args=[server, "legacy"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        # The calls audit.sh makes too: tests/live/calls.json, beside the server.
        for tool, arguments in json.loads(Path(server).with_name("calls.json").read_text()):
            try:
                await session.call_tool(tool, arguments)
                print(f"python-sdk-v1 {tool}: accepts")
            except Exception as exc:  # the client's own validation
                print(f"python-sdk-v1 {tool}: rejects {str(exc).splitlines()[0]}")


if __name__ == "__main__":
    anyio.run(run, sys.argv[1], sys.argv[2])

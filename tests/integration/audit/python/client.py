"""A client on the Python SDK that talks to a server through the logging relay, for one protocol
revision, lists the tools and calls each once.

Usage: client.py REVISION LOGFILE -- SERVER_COMMAND [ARGS...]
With SCHEMA_LINT_RECORD set to a schema-lint binary, `schema-lint record` is the relay.

REVISION 2025-11-25 runs the `initialize` handshake (`mode="legacy"`: the SDK's latest handshake
revision); 2026-07-28 uses the SDK's default `mode="auto"`, which probes with `server/discover`
and, the server offering 2026-07-28, goes stateless: no handshake, the protocol in every request's
`_meta`. The negotiated revision is checked, so a silent fallback cannot pass for the other one. The client validates `structuredContent` itself, so
the broken call may raise here: that is expected and printed, the capture is what counts.
"""

from __future__ import annotations

import os
import sys

import anyio

from mcp import Client
from mcp.client.stdio import StdioServerParameters

RELAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "relay.py")
ARGUMENTS = {"echo": {"text": "hello"}}


async def run(revision: str, log: str, server: list[str]) -> None:
    mode = "legacy" if revision == "2025-11-25" else "auto"
    record = os.environ.get("SCHEMA_LINT_RECORD")
    if record:  # `schema-lint record` as the relay
        params = StdioServerParameters(command=record, args=["record", "--output", log, "--", *server])
    else:
        params = StdioServerParameters(command=sys.executable, args=[RELAY, log, "--", *server])
    async with Client(params, mode=mode) as client:
        if client.protocol_version != revision:
            raise SystemExit(f"python client: asked for {revision}, negotiated {client.protocol_version}")
        listed = await client.list_tools()
        for tool in listed.tools:
            arguments = ARGUMENTS.get(tool.name, {"city": "London"})
            try:
                result = await client.call_tool(tool.name, arguments)
                print(f"python client {revision}: {tool.name}: ok, structuredContent={result.structured_content}")
            except Exception as exc:  # the client's own validation of the broken result
                print(f"python client {revision}: {tool.name}: rejected by the client: {exc!r}")


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        print("usage: client.py REVISION LOGFILE -- SERVER_COMMAND [ARGS...]", file=sys.stderr)
        return 2
    anyio.run(run, argv[1], argv[2], argv[4:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""An MCP server on the Python SDK (`mcp` from PyPI) over Streamable HTTP, for `schema-lint audit
--url` in tests/integration/audit.sh: `python http_server.py PORT` serves it at
http://127.0.0.1:PORT/mcp, both eras (2025-11-25 sessions, 2026-07-28 stateless requests, whose
routing headers the SDK checks against the body: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`).

Tools, their output schemas and results as `MCPServer` makes them:
- `by_region` takes `region`, marked `x-mcp-header: Region` (a 2026-07-28 call must mirror it
  into `Mcp-Param-Region`), and returns a `str`: the SDK sends `{"result": "..."}` with the
  string as the text (no SL607);
- `météo`, a name that is not ASCII (its `Mcp-Name` goes as `=?base64?...?=`), returns a
  `list[str]`: the SDK sends `{"result": [...]}` with a text block per item (no SL607);
- `next_slot` returns a model with an `Optional[datetime]`, which Pydantic writes as `anyOf`
  of a `date-time` string and `null`, and a naive datetime: SL605 at `/at`.
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Annotated, Optional

from pydantic import BaseModel, Field

from mcp.server import MCPServer

server = MCPServer("audit-http")


@server.tool()
def by_region(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    """The weather in a region, in words."""
    return f"sunny in {region}"


@server.tool(name="météo")
def meteo() -> list[str]:
    """Today's weather, a phrase per part of the day."""
    return ["rain", "sun later"]


class Slot(BaseModel):
    at: Optional[datetime] = None


@server.tool()
def next_slot() -> Slot:
    """The next free slot, as a naive local datetime."""
    return Slot(at=datetime(2026, 12, 1, 11, 0, 0))


if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))

"""An MCP server on the Python SDK (`mcp` from PyPI), over stdio, for the audit integration test.

Tools, declared with the SDK's `MCPServer` so their output schemas are the ones the SDK generates:
- `get_weather` returns a model: `structuredContent` is the model's fields (valid);
- `get_temperature` returns an `int`: the SDK wraps it as `{"result": 17}` (valid);
- `get_humidity` declares `Humidity` (`value` a number) but its calls are answered by a raw
  handler that sends `"value": "high"`: the one call whose result violates its schema on the wire;
- `get_forecast` returns a model with a naive `datetime`: Pydantic writes `"format": "date-time"`
  and serialises `"2026-12-01T11:00:00"`, no offset. Valid for the Python client (and for the
  server's own validation), which do not assert `format`; the TypeScript client, which does,
  rejects it: the call the audit must report as SL605;
- `get_link` returns a model whose `AnyUrl` holds `|`: Pydantic lets it through, and `format: uri`
  refuses it in the TypeScript clients: the call the audit must report as SL605 for `uri`;
- `get_alert` declares `Alert`, but the raw handler answers it with an `isError` result whose
  `structuredContent` is the error's own shape: SL606 (TS v1 would throw instead of passing the
  error on);
- `echo` has no output schema (`structured_output=False`).

`MCPServer` validates what its tools return, so the broken result cannot go through it. The
low-level `Server` below is the escape hatch: it serves `tools/list` and `tools/call` through the
`MCPServer`'s public `list_tools()`/`call_tool()`, except `get_humidity`, whose result it builds
by hand. Both eras are served: the client's first request decides (an `initialize` handshake on
2025-11-25, stateless requests on 2026-07-28).
"""

from __future__ import annotations

import json
from datetime import datetime

import anyio
import mcp_types as types
from pydantic import AnyUrl, BaseModel

from mcp.server import MCPServer, Server
from mcp.server.stdio import stdio_server

tools = MCPServer("audit-python")


class WeatherData(BaseModel):
    temperature: float
    conditions: str


class Humidity(BaseModel):
    value: float
    unit: str


@tools.tool()
def get_weather(city: str) -> WeatherData:
    """Current weather for a city."""
    return WeatherData(temperature=16.2, conditions="Overcast")


@tools.tool()
def get_temperature(city: str) -> int:
    """Current temperature in a city, in whole degrees Celsius."""
    return 17


@tools.tool()
def get_humidity(city: str) -> Humidity:
    """Relative humidity in a city. Served by the raw handler, which breaks the schema."""
    return Humidity(value=0.83, unit="ratio")


class Forecast(BaseModel):
    at: datetime
    city: str


@tools.tool()
def get_forecast(city: str) -> Forecast:
    """When the next forecast for a city is due, as a naive local datetime."""
    return Forecast(at=datetime(2026, 12, 1, 11, 0, 0), city=city)


class Link(BaseModel):
    url: AnyUrl


@tools.tool()
def get_link(city: str) -> Link:
    """A link about a city. Pydantic keeps `|` in an `AnyUrl`, which `format: uri` refuses in Ajv."""
    return Link(url=AnyUrl("https://example.com/cities/a|b"))


class Alert(BaseModel):
    level: str
    message: str


@tools.tool()
def get_alert(city: str) -> Alert:
    """Weather alerts for a city. Served by the raw handler, which fails with structured data."""
    return Alert(level="none", message="no alert")


@tools.tool(structured_output=False)
def echo(text: str) -> str:
    """Echoes its text, unstructured."""
    return text


async def list_tools(_ctx: object, _params: object) -> types.ListToolsResult:
    return types.ListToolsResult(tools=await tools.list_tools())


async def call_tool(_ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "get_humidity":
        wrong = {"value": "high", "unit": "ratio"}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(wrong))],
            structured_content=wrong,
        )
    if params.name == "get_alert":
        # A tool that fails with structured data, as a hand-written handler does: an error result
        # whose structuredContent is not the Alert its output schema declares.
        error = {"error": "the alerts service is down", "retry_after": 30}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(error))],
            structured_content=error,
            is_error=True,
        )
    result = await tools.call_tool(params.name, params.arguments or {})
    assert isinstance(result, types.CallToolResult)
    return result


server = Server("audit-python", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)

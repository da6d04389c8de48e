"""Runs each input-role case of the engine tier (`"role": "input"`: the case's schema is a tool's
`inputSchema`) through the Python code that turns an MCP tool into a model's function:

- `openai-agents` (the OpenAI Agents SDK, `agents.mcp.util.MCPUtil.to_function_tool` with
  `convert_schemas_to_strict=True`, the setting `Agent(mcp_config={"convert_schemas_to_strict":
  True})` passes): it calls `agents.strict_schema.ensure_strict_json_schema` on a copy; when that
  raises, the SDK logs the error and serves the tool without strict mode. The row's `python` is
  `{"strict": true, "sent": the strict schema it sends}` or `{"strict": false, "error": the
  logged error}`.
- `gemini` (`google-genai`, the Gemini API's `parameters` field): two paths, each ending in the
  request `Client.models.generate_content` sends (to an in-process HTTP transport that records it
  and answers with a canned reply; nothing leaves the process):
  - `FunctionDeclaration`: `types.FunctionDeclaration(name=..., parameters=schema)`, the pydantic
    model of the API's `Schema` (unknown fields forbidden), offered as a tool, as a host that
    builds its declarations itself does;
  - `mcp_to_gemini_tool`: the `mcp.types.Tool` itself offered as a tool, which the SDK converts
    with `google.genai._mcp_utils.mcp_to_gemini_tool` (its MCP path).
  Each is `{"request": "sent", "sent": the declaration's parameters as sent}` or
  `{"request": "error", "error": ...}`, a pydantic error reduced to its first issue
  (`parameters.$schema: Extra inputs are not permitted`).

The tool is named by the case's `tool` (default `report`). Errors are one line, at most 300
characters.

Usage: python providers.py CASES.json > RESULTS.json
RESULTS.json: {client: {case: {path: result}}}, for the input-role cases only.
"""

import json
import logging
import os
import sys

# The SDK logs why a schema is not strict only when it may log tool data.
os.environ["OPENAI_AGENTS_DONT_LOG_TOOL_DATA"] = "0"

import httpx2  # noqa: E402  (google-genai's HTTP client)
import mcp.types  # noqa: E402
import pydantic  # noqa: E402
from agents.logger import logger as agents_logger  # noqa: E402
from agents.mcp import MCPServer  # noqa: E402
from agents.mcp.util import MCPUtil  # noqa: E402
from google import genai  # noqa: E402
from google.genai import types  # noqa: E402

STRICT_PREFIX = "Error converting MCP schema to strict mode: "


def one_line(text):
    text = " ".join(str(text).split("\n")[0].split())
    return text if len(text) <= 300 else text[:297] + "..."


def message(e):
    """A pydantic error as its first issue (`loc: msg`), any other as `Type: text`."""
    if isinstance(e, pydantic.ValidationError):
        first = e.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        return one_line(f"{loc}: {first['msg']}")
    return one_line(f"{type(e).__name__}: {e}")


class Server(MCPServer):
    """A server the SDK never talks to: `to_function_tool` only reads its settings."""

    def __init__(self):
        super().__init__()

    @property
    def name(self):
        return "server"

    async def connect(self):
        pass

    async def cleanup(self):
        pass

    async def list_tools(self, run_context=None, agent=None):
        return []

    async def call_tool(self, tool_name, arguments, meta=None):
        raise NotImplementedError

    async def list_prompts(self):
        raise NotImplementedError

    async def get_prompt(self, name, arguments=None):
        raise NotImplementedError


class Logged(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def openai_agents(tool, logged):
    logged.messages.clear()
    function_tool = MCPUtil.to_function_tool(tool, Server(), convert_schemas_to_strict=True)
    if function_tool.strict_json_schema:
        return {"strict": True, "sent": function_tool.params_json_schema}
    why = [m[len(STRICT_PREFIX):] for m in logged.messages if m.startswith(STRICT_PREFIX)]
    return {"strict": False, "error": one_line(why[0]) if why else "(nothing logged)"}


class Recorder:
    """The HTTP transport of the Gemini client: records each request, answers with one text part."""

    def __init__(self):
        self.sent = []

    def __call__(self, request):
        self.sent.append(json.loads(request.content))
        reply = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}]}
        return httpx2.Response(200, json=reply)


def gemini_request(client, recorder, make_tool):
    recorder.sent.clear()
    try:
        config = types.GenerateContentConfig(
            tools=[make_tool()],
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )
        client.models.generate_content(model="gemini-2.5-flash", contents="hi", config=config)
    except Exception as e:  # noqa: BLE001 - any failure is the request refused
        return {"request": "error", "error": message(e)}
    declaration = recorder.sent[0]["tools"][0]["functionDeclarations"][0]
    return {"request": "sent", "sent": declaration.get("parameters")}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = [c for c in json.load(f) if c.get("role") == "input"]
    logged = Logged()
    agents_logger.addHandler(logged)
    agents_logger.setLevel(logging.DEBUG)
    agents_logger.propagate = False
    recorder = Recorder()
    http = httpx2.Client(transport=httpx2.MockTransport(recorder))
    client = genai.Client(api_key="offline", http_options=types.HttpOptions(httpx_client=http))
    out = {"openai-agents": {}, "gemini": {}}
    for case in cases:
        name, schema = case["name"], case["schema"]
        tool_name = case.get("tool", "report")
        tool = mcp.types.Tool(name=tool_name, description="A tool.", inputSchema=schema)
        out["openai-agents"][name] = {"python": openai_agents(tool, logged)}

        def declaration(schema=schema, tool_name=tool_name):
            fd = types.FunctionDeclaration(name=tool_name, description="A tool.", parameters=schema)
            return types.Tool(function_declarations=[fd])

        out["gemini"][name] = {
            "FunctionDeclaration": gemini_request(client, recorder, declaration),
            "mcp_to_gemini_tool": gemini_request(client, recorder, lambda tool=tool: tool),
        }
    json.dump(out, sys.stdout, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

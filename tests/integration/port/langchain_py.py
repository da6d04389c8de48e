"""LangChain's Python tool conversions in the port proof (tests/integration/port/converters.py),
run in their own venv (target/engines/port-py, tests/integration/port/requirements.txt: LangChain
pins a google-genai of its own, 2.x, beside the 3.x of the providers' venv).

Each tool is what langchain-mcp-adapters makes of an MCP tool: a `StructuredTool` whose
`args_schema` is the tool's `inputSchema` (a dict). Then:
- langchain-google-genai: `ChatGoogleGenerativeAI.bind_tools([tool])` (which formats it with
  `convert_to_openai_tool`) and the request the model prepares from the bound tools
  (`_prepare_request`, which calls `convert_to_genai_function_declarations`, the conversion to
  google-genai's `FunctionDeclaration`, a pydantic model of Gemini's `Schema`); `sent` is the
  declaration's `parameters` as google-genai dumps them. No request is sent.
- langchain-openai: `ChatOpenAI.bind_tools([tool], strict=True)` (`convert_to_openai_tool(tool,
  strict=True)`); `sent` is the function's `parameters`, `strict` the flag it sets.

Usage: python langchain_py.py TOOLS.json OUT.json
TOOLS.json as converters.mjs reads it; OUT.json: {converter: {id: {ok, sent, error}}, "ms": ...}.
"""

import json
import sys
import time
import warnings

warnings.filterwarnings("ignore")

from langchain_core.messages import HumanMessage  # noqa: E402
from langchain_core.tools import StructuredTool  # noqa: E402
from langchain_google_genai import ChatGoogleGenerativeAI  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402


def one_line(text):
    text = " ".join(str(text).split())
    return text if len(text) <= 300 else text[:297] + "..."


async def never(**_kwargs):
    raise NotImplementedError


def mcp_tool(tool):
    return StructuredTool(name=tool["name"], description="A tool.", args_schema=tool["inputSchema"],
                          coroutine=never)


def google(model, tool):
    bound = model.bind_tools([mcp_tool(tool)])
    request = model._prepare_request([HumanMessage("hi")], tools=bound.kwargs["tools"])  # noqa: SLF001
    declaration = request["config"].tools[0].function_declarations[0]
    params = declaration.parameters
    if params is None and declaration.parameters_json_schema is not None:
        return {"ok": True, "sent": declaration.parameters_json_schema, "field": "parameters_json_schema"}
    return {"ok": True, "sent": params.model_dump(mode="json", exclude_none=True) if params else None}


def openai(model, tool):
    bound = model.bind_tools([mcp_tool(tool)], strict=True)
    function = bound.kwargs["tools"][0]["function"]
    return {"ok": True, "strict": function.get("strict"), "sent": function.get("parameters")}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tools = json.load(f)
    gemini = ChatGoogleGenerativeAI(model="gemini-2.5-flash", google_api_key="offline")
    gpt = ChatOpenAI(model="gpt-4.1", api_key="offline")
    out = {"ms": {}}
    for name, client, convert, model in (("langchain-google-genai", "gemini", google, gemini),
                                         ("langchain-openai", "openai-strict", openai, gpt)):
        out[name] = {}
        start = time.monotonic()
        for tool in tools[client]:
            try:
                out[name][tool["id"]] = convert(model, tool)
            except Exception as e:  # noqa: BLE001 - any failure is the tool refused
                out[name][tool["id"]] = {"ok": False, "error": one_line(f"{type(e).__name__}: {e}")}
        out["ms"][name] = round((time.monotonic() - start) * 1000)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()

// Runs each input-role case of the engine tier (`"role": "input"`: the case's schema is a tool's
// `inputSchema`) through the JavaScript code that hosts use to turn an MCP tool into a model's
// function:
//
// - gemini-cli: `discoverTools` of @google/gemini-cli-core (tools/mcp-client.js), given a
//   `Client` of @modelcontextprotocol/sdk (the version gemini-cli-core depends on) connected to a
//   fake peer in this process that lists the one tool; then, for each tool it kept, what the
//   tool registry sends the model (`getFunctionDeclarations`: the tool's `getSchema()` under its
//   `getFullyQualifiedName()`, tools/mcp-tool.js `generateValidName`). The result is
//   `{listing: "ok", tools: [names sent], sent: {parametersJsonSchema}}` or
//   `{listing: "error", error}`.
// - openai-agents (js): `mcpToFunctionTool(tool, server, true)` of @openai/agents-core; when the
//   strict conversion fails, the SDK logs it (console.warn) and returns a non-strict tool:
//   `{strict: true, sent: the schema it sends}` or `{strict: false, error: the logged error}`.
// - gemini (`@ai-sdk/google`): the request `@ai-sdk/google`'s language model sends (`doGenerate`,
//   to a fetch in this process that records it), whose `parameters` come from its
//   `convertJSONSchemaToOpenAPISchema`: `{request: "sent", sent: parameters}` or
//   `{request: "error", error}`, one more code path of the `gemini` provider beside
//   google-genai's (providers.py): a host on the AI SDK that cannot build the request never
//   offers the tool.
// - ai-sdk-openai: the request `@ai-sdk/openai`'s default (Responses API) language model sends,
//   the tool offered with `strict: true` (`strict`) and `strict: false` (`non-strict`):
//   `{request: "sent", strict: the strict flag sent, sent: parameters}` or `{request: "error",
//   error}`. Observed only: no client of the rules (it sends OpenAI the server's schema).
// - mastra: `applyCompatLayer({schema, compatLayers: [layer], mode: "jsonSchema"})` of
//   @mastra/schema-compat, once per provider layer it exports (`openai`, `openai-reasoning`,
//   `google`, `anthropic`, `deepseek`, `meta`, each given a model it applies to), as Mastra's
//   tool builder runs it on an MCP tool's input schema: `{convert: "ok", sent: the schema}` or
//   `{convert: "error", error}`. Observed only.
// - langchain: `convertToOpenAITool(tool, {strict: true})` of @langchain/core, the tool a
//   `DynamicStructuredTool` with the input schema as its `schema` (as @langchain/mcp-adapters
//   builds MCP tools): `{convert: "ok", strict, sent: function.parameters, name}` or
//   `{convert: "error", error}`. Observed only.
// - gemini-cli<0.28.0: what `validateToolParams` (tools/tools.js) does before each call of a
//   tool in @google/gemini-cli-core 0.27.4, the last release before #15060:
//   `SchemaValidator.validate(parametersJsonSchema, params)`, the tool's `inputSchema` as its
//   discovery keeps it (mcp-client.js hands it to `DiscoveredMCPTool` unchanged). A result as
//   tests/integration/engines/ajv.mjs gives one: `{compile: "ok", instances}` (the first call
//   with the case's first instance, then one call per instance: `valid` where it returns null)
//   or `{compile: "error", kind, error}` where the first call throws.
//
// The tool is named by the case's `tool` (default `report`), on a server named `server`.
//
// Usage: node hosts.mjs CASES.json > RESULTS.json
// RESULTS.json: {client: {case: {path: result}}}, for the input-role cases only (and
// `gemini-cli<0.28.0` on the cases that ask for the hosts, `"hosts": true`).
import { readFileSync } from "node:fs";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverTools } from "@google/gemini-cli-core/dist/src/tools/mcp-client.js";
import { DiscoveredMCPTool } from "@google/gemini-cli-core/dist/src/tools/mcp-tool.js";
import { SchemaValidator as SchemaValidator027 } from "gemini-cli-core-0.27/dist/src/utils/schemaValidator.js";
import { mcpToFunctionTool } from "@openai/agents-core";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import * as mastra from "@mastra/schema-compat";
import { DynamicStructuredTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { FakePeer } from "./fake_peer.mjs";

const installed = (name) =>
    JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
const want = {
    "@google/gemini-cli-core": "0.61.0",
    "gemini-cli-core-0.27": "0.27.4",
    "@modelcontextprotocol/sdk": "1.23.0",
    "@openai/agents-core": "0.20.0",
    "@ai-sdk/google": "3.0.141",
    "@ai-sdk/openai": "3.0.141",
    "@mastra/schema-compat": "1.3.11",
    "@langchain/core": "1.4.0",
};
for (const [name, version] of Object.entries(want)) {
    if (installed(name) !== version) throw new Error(`${name} is ${installed(name)}, not ${version}`);
}

const SERVER = "server";

// The SDK logs why a schema is not strict only when it may log tool data (read when it logs).
process.env.OPENAI_AGENTS_DONT_LOG_TOOL_DATA = "0";

const oneLine = (text) => {
    const line = String(text).split("\n")[0].split(/\s+/).join(" ").trim();
    return line.length <= 300 ? line : `${line.slice(0, 297)}...`;
};

/**
 * An error as one line; a zod error (a JSON list of issues) as its first issue, `path: message`,
 * the index of the tool in the listing written `*`, as tests/integration/listing/ts_clients.mjs
 * reduces them.
 */
function errorText(e) {
    let text = String(e instanceof Error ? e.message : e);
    const start = text.indexOf("[");
    if (start >= 0) {
        try {
            const issues = JSON.parse(text.slice(start));
            if (Array.isArray(issues) && issues.length > 0 && Array.isArray(issues[0].path)) {
                const path = issues[0].path.map((p, i) => (i === 1 && issues[0].path[0] === "tools" ? "*" : p));
                const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
                text = `${text.slice(0, start)}${path.join(".")}: ${issues[0].message}${more}`;
            }
        } catch {
            // Not a zod error: the message as it is.
        }
    }
    return oneLine(text);
}


async function geminiCli(tool) {
    const client = new Client({ name: "gemini-cli-mcp-client", version: "0.61.0" });
    await client.connect(new FakePeer({ tools: [tool] }));
    const diagnostics = [];
    const cliConfig = {
        emitMcpDiagnostic: (level, text) => diagnostics.push(`${level}: ${text}`),
        isTrustedFolder: () => false,
    };
    try {
        const tools = await discoverTools(SERVER, {}, client, cliConfig, undefined, { timeout: 10000 });
        const sent = {};
        for (const t of tools) {
            if (!(t instanceof DiscoveredMCPTool)) throw new Error("not an MCP tool");
            // What `ToolRegistry.getFunctionDeclarations` sends for an MCP tool.
            sent[t.getFullyQualifiedName()] = t.getSchema().parametersJsonSchema;
        }
        const result = { listing: "ok", tools: Object.keys(sent).sort(), sent };
        if (diagnostics.length) result.diagnostics = diagnostics.map(oneLine);
        return result;
    } catch (e) {
        return { listing: "error", error: errorText(e) };
    } finally {
        await client.close();
    }
}

async function openaiAgents(tool) {
    const warned = [];
    const warn = console.warn;
    console.warn = (...args) => warned.push(args);
    try {
        const fn = mcpToFunctionTool(tool, { name: SERVER }, true);
        if (fn.strict) return { strict: true, sent: fn.parameters };
        const why = warned.find((a) => String(a[0]).startsWith("Error converting MCP schema to strict mode"));
        return { strict: false, error: why ? errorText(why[1]) : "(nothing logged)" };
    } catch (e) {
        return { strict: false, error: errorText(e), thrown: true };
    } finally {
        console.warn = warn;
    }
}

async function aiSdkGoogle(tool) {
    let body;
    const fetch = async (_url, init) => {
        body = JSON.parse(init.body);
        const reply = { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] };
        return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
    };
    const google = createGoogleGenerativeAI({ apiKey: "offline", fetch });
    try {
        await google("gemini-2.5-flash").doGenerate({
            prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
            tools: [{ type: "function", name: tool.name, description: tool.description, inputSchema: tool.inputSchema }],
        });
    } catch (e) {
        return { request: "error", error: errorText(e) };
    }
    const declaration = body.tools[0].functionDeclarations[0];
    return { request: "sent", sent: declaration.parameters ?? null };
}

async function aiSdkOpenai(tool, strict) {
    let body;
    const fetch = async (_url, init) => {
        body = JSON.parse(init.body);
        const reply = {
            id: "resp_offline",
            object: "response",
            created_at: 0,
            model: "gpt-4.1",
            status: "completed",
            output: [{ type: "message", id: "msg", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] }],
            usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
        };
        return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
    };
    const openai = createOpenAI({ apiKey: "offline", fetch });
    try {
        await openai("gpt-4.1").doGenerate({
            prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
            tools: [{ type: "function", name: tool.name, description: tool.description, inputSchema: tool.inputSchema, strict }],
        });
    } catch (e) {
        return { request: "error", error: errorText(e) };
    }
    const sent = body.tools[0];
    return { request: "sent", strict: sent.strict ?? null, sent: sent.parameters ?? null };
}

/** Each provider layer of @mastra/schema-compat, with a model it applies to. */
const MASTRA_LAYERS = {
    openai: () => new mastra.OpenAISchemaCompatLayer({ provider: "openai.responses", modelId: "gpt-4.1", supportsStructuredOutputs: false }),
    "openai-reasoning": () => new mastra.OpenAIReasoningSchemaCompatLayer({ provider: "openai.responses", modelId: "o3", supportsStructuredOutputs: false }),
    google: () => new mastra.GoogleSchemaCompatLayer({ provider: "google.generative-ai", modelId: "gemini-2.5-flash", supportsStructuredOutputs: false }),
    anthropic: () => new mastra.AnthropicSchemaCompatLayer({ provider: "anthropic.messages", modelId: "claude-sonnet-4-5", supportsStructuredOutputs: false }),
    deepseek: () => new mastra.DeepSeekSchemaCompatLayer({ provider: "deepseek.chat", modelId: "deepseek-chat", supportsStructuredOutputs: false }),
    meta: () => new mastra.MetaSchemaCompatLayer({ provider: "meta", modelId: "meta-llama/llama-4-maverick", supportsStructuredOutputs: false }),
};

function mastraLayers(tool) {
    const out = {};
    for (const [name, make] of Object.entries(MASTRA_LAYERS)) {
        const layer = make();
        if (!layer.shouldApply()) throw new Error(`the ${name} layer of @mastra/schema-compat does not apply to its model`);
        try {
            const sent = mastra.applyCompatLayer({ schema: structuredClone(tool.inputSchema), compatLayers: [layer], mode: "jsonSchema" });
            out[name] = { convert: "ok", sent };
        } catch (e) {
            out[name] = { convert: "error", error: errorText(e) };
        }
    }
    return out;
}

function langchain(tool) {
    try {
        const lc = new DynamicStructuredTool({ name: tool.name, description: tool.description, schema: tool.inputSchema, func: async () => "" });
        const fn = convertToOpenAITool(lc, { strict: true }).function;
        const result = { convert: "ok", strict: fn.strict ?? null, sent: fn.parameters ?? null };
        if (fn.name !== tool.name) result.name = fn.name;
        return result;
    } catch (e) {
        return { convert: "error", error: errorText(e) };
    }
}

/** gemini-cli before 0.28.0: the calls of the tool, validated as 0.27.4 validates them. */
function geminiCliBefore028(c) {
    const schema = structuredClone(c.schema);
    const data = (c.instances ?? []).map((i) => i.data);
    try {
        SchemaValidator027.validate(schema, structuredClone(data[0] ?? {}));
    } catch (e) {
        const error = errorText(e);
        return { compile: "error", kind: /can't resolve reference/.test(error) ? "reference" : "schema", error };
    }
    const result = { compile: "ok" };
    if (data.length > 0) {
        result.instances = data.map((d) => {
            try {
                return SchemaValidator027.validate(schema, structuredClone(d)) === null ? "valid" : "invalid";
            } catch (e) {
                return `error: ${errorText(e)}`;
            }
        });
    }
    return result;
}

const all = JSON.parse(readFileSync(process.argv[2], "utf8"));
const cases = all.filter((c) => c.role === "input");
const out = { "gemini-cli": {}, "gemini-cli<0.28.0": {}, "openai-agents": {}, gemini: {}, "ai-sdk-openai": {}, mastra: {}, langchain: {} };
// A case that asks for the hosts' own Ajv (`"hosts": true`) goes through 0.27.4's validator too.
for (const c of all.filter((c) => c.role !== "input" && c.hosts === true)) {
    out["gemini-cli<0.28.0"][c.name] = geminiCliBefore028(c);
}
for (const c of cases) {
    const tool = () => ({ name: c.tool ?? "report", description: "A tool.", inputSchema: structuredClone(c.schema) });
    out["gemini-cli"][c.name] = { discoverTools: await geminiCli(tool()) };
    out["gemini-cli<0.28.0"][c.name] = geminiCliBefore028(c);
    out["openai-agents"][c.name] = { js: await openaiAgents(tool()) };
    out.gemini[c.name] = { "@ai-sdk/google": await aiSdkGoogle(tool()) };
    out["ai-sdk-openai"][c.name] = { strict: await aiSdkOpenai(tool(), true), "non-strict": await aiSdkOpenai(tool(), false) };
    out.mastra[c.name] = mastraLayers(tool());
    out.langchain[c.name] = { convertToOpenAITool: langchain(tool()) };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);

// The JavaScript converters of the port proof (tests/integration/port/converters.py), run on every
// ported tool that `schema-lint port` does not leave. Copied by port.sh into
// target/engines/providers-js/, beside the node_modules tests/integration/engines.sh installs from
// tests/integration/providers/package-lock.json (the same pins as hosts.mjs), and run there:
//
//   node converters.mjs TOOLS.json OUT.json
//
// TOOLS.json: {"gemini": [{id, name, inputSchema}], "openai-strict": [...]}, the tools ported for
// each client. OUT.json: {converter: {id: {ok: true, sent} | {ok: false, error}}, "ms": {converter:
// milliseconds}}. Nothing leaves the process (each provider's fetch records the request).
//
// On the Gemini-ported tools:
// - gemini-cli: `discoverTools` of @google/gemini-cli-core 0.61.0 (tools/mcp-client.js), given an
//   MCP `Client` connected to a peer in this process that lists the one tool; `sent` is the
//   tool's `getSchema().parametersJsonSchema` (its transform: mcp-client.js turns a type list
//   with `null` into `nullable`). A thrown error or the tool not kept is a refusal.
// - ai-sdk-google: the request @ai-sdk/google 3.0.141's language model sends (`doGenerate`), whose
//   `parameters` are its `convertJSONSchemaToOpenAPISchema` of the schema (an internal function,
//   reached through the request it builds). A thrown error is a refusal.
// - mastra-google: `applyCompatLayer({schema, compatLayers: [GoogleSchemaCompatLayer], mode:
//   "jsonSchema"})` of @mastra/schema-compat 1.3.11 (model gemini-2.5-flash), as Mastra's tool
//   builder runs it on an MCP tool's input schema.
// On the OpenAI-strict-ported tools:
// - ai-sdk-openai: the request @ai-sdk/openai 3.0.141's Responses model sends with the tool's
//   `strict: true` (its `strictJsonSchema` default): `sent` is the tool's `parameters`, `strict`
//   the flag sent.
// - mastra-openai: the same call of @mastra/schema-compat with its `OpenAISchemaCompatLayer`
//   (gpt-4.1).
// - langchain-js: `convertToOpenAITool(tool, {strict: true})` of @langchain/core 1.4.0, the tool
//   a `DynamicStructuredTool` with the input schema as its `schema` (as @langchain/mcp-adapters
//   builds MCP tools).
import { readFileSync, writeFileSync } from "node:fs";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverTools } from "@google/gemini-cli-core/dist/src/tools/mcp-client.js";
import { DiscoveredMCPTool } from "@google/gemini-cli-core/dist/src/tools/mcp-tool.js";
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
    "@modelcontextprotocol/sdk": "1.23.0",
    "@ai-sdk/google": "3.0.141",
    "@ai-sdk/openai": "3.0.141",
    "@mastra/schema-compat": "1.3.11",
    "@langchain/core": "1.4.0",
};
for (const [name, version] of Object.entries(want)) {
    if (installed(name) !== version) throw new Error(`${name} is ${installed(name)}, not ${version}`);
}

const oneLine = (text) => {
    const line = String(text).split(/\s+/).join(" ").trim();
    return line.length <= 300 ? line : `${line.slice(0, 297)}...`;
};
const errorText = (e) => oneLine(e instanceof Error ? e.message : e);

async function geminiCli(tool) {
    const client = new Client({ name: "gemini-cli-mcp-client", version: "0.61.0" });
    await client.connect(new FakePeer({ tools: [tool] }));
    const diagnostics = [];
    const cliConfig = { emitMcpDiagnostic: (level, text) => diagnostics.push(`${level}: ${text}`), isTrustedFolder: () => false };
    try {
        const tools = await discoverTools("server", {}, client, cliConfig, undefined, { timeout: 10000 });
        const found = tools.filter((t) => t instanceof DiscoveredMCPTool);
        if (found.length !== 1) {
            return { ok: false, error: `discoverTools kept ${found.length} tools${diagnostics.length ? `: ${oneLine(diagnostics[0])}` : ""}` };
        }
        return { ok: true, sent: found[0].getSchema().parametersJsonSchema ?? null };
    } catch (e) {
        return { ok: false, error: errorText(e) };
    } finally {
        await client.close();
    }
}

/** A fetch in this process that records the request's body and answers with `reply`. */
function recording(reply) {
    const seen = {};
    const fetch = async (_url, init) => {
        seen.body = JSON.parse(init.body);
        return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
    };
    return { seen, fetch };
}

const PROMPT = [{ role: "user", content: [{ type: "text", text: "hi" }] }];

async function aiSdkGoogle(tool) {
    const { seen, fetch } = recording({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] });
    const google = createGoogleGenerativeAI({ apiKey: "offline", fetch });
    try {
        await google("gemini-2.5-flash").doGenerate({
            prompt: PROMPT,
            tools: [{ type: "function", name: tool.name, description: tool.description, inputSchema: tool.inputSchema }],
        });
    } catch (e) {
        return { ok: false, error: errorText(e) };
    }
    return { ok: true, sent: seen.body.tools[0].functionDeclarations[0].parameters ?? null };
}

async function aiSdkOpenai(tool) {
    const { seen, fetch } = recording({
        id: "resp_offline",
        object: "response",
        created_at: 0,
        model: "gpt-4.1",
        status: "completed",
        output: [{ type: "message", id: "msg", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] }],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    });
    const openai = createOpenAI({ apiKey: "offline", fetch });
    try {
        await openai("gpt-4.1").doGenerate({
            prompt: PROMPT,
            tools: [{ type: "function", name: tool.name, description: tool.description, inputSchema: tool.inputSchema, strict: true }],
        });
    } catch (e) {
        return { ok: false, error: errorText(e) };
    }
    const sent = seen.body.tools[0];
    return { ok: true, strict: sent.strict ?? null, sent: sent.parameters ?? null };
}

const LAYERS = {
    "mastra-google": () => new mastra.GoogleSchemaCompatLayer({ provider: "google.generative-ai", modelId: "gemini-2.5-flash", supportsStructuredOutputs: false }),
    "mastra-openai": () => new mastra.OpenAISchemaCompatLayer({ provider: "openai.responses", modelId: "gpt-4.1", supportsStructuredOutputs: false }),
};

function mastraLayer(name, tool) {
    const layer = LAYERS[name]();
    if (!layer.shouldApply()) throw new Error(`the ${name} layer does not apply to its model`);
    try {
        const sent = mastra.applyCompatLayer({ schema: tool.inputSchema, compatLayers: [layer], mode: "jsonSchema" });
        return { ok: true, sent };
    } catch (e) {
        return { ok: false, error: errorText(e) };
    }
}

function langchainJs(tool) {
    try {
        const lc = new DynamicStructuredTool({ name: tool.name, description: tool.description, schema: tool.inputSchema, func: async () => "" });
        const fn = convertToOpenAITool(lc, { strict: true }).function;
        return { ok: true, strict: fn.strict ?? null, sent: fn.parameters ?? null };
    } catch (e) {
        return { ok: false, error: errorText(e) };
    }
}

const CONVERTERS = {
    gemini: { "gemini-cli": geminiCli, "ai-sdk-google": aiSdkGoogle, "mastra-google": (t) => mastraLayer("mastra-google", t) },
    "openai-strict": { "ai-sdk-openai": aiSdkOpenai, "mastra-openai": (t) => mastraLayer("mastra-openai", t), "langchain-js": langchainJs },
};

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = { ms: {} };
for (const [client, converters] of Object.entries(CONVERTERS)) {
    for (const [name, convert] of Object.entries(converters)) {
        out[name] = {};
        const start = performance.now();
        for (const t of tools[client]) {
            // Each converter gets its own copy: some rewrite the schema they are given.
            const tool = { name: t.name, description: "A tool.", inputSchema: structuredClone(t.inputSchema) };
            out[name][t.id] = await convert(tool);
        }
        out.ms[name] = Math.round(performance.now() - start);
    }
}
writeFileSync(process.argv[3], `${JSON.stringify(out)}\n`);
process.exit(0);

// The peers of `schema-lint port`, run on each tool of a listing, for benches/port_peers.py.
// Copied by it into target/port-peers/, next to the node_modules that `npm ci` installs from
// benches/peers/package-lock.json, and run there:
//
//   node peers.mjs LISTING.json OUT.json
//
// LISTING.json: {"tools": [{name, description, inputSchema}]}. OUT.json: {peer: {tool: result}},
// a result being {ok: true, sent: the schema the peer sends} or {ok: false, error}.
//
// - mastra-google, mastra-openai: `applyCompatLayer({schema, compatLayers: [layer], mode:
//   "jsonSchema"})` of @mastra/schema-compat with its `GoogleSchemaCompatLayer` (model
//   gemini-2.5-flash) or `OpenAISchemaCompatLayer` (gpt-4.1), as Mastra's tool builder runs it
//   on an MCP tool's input schema (the same call as tests/integration/providers/hosts.mjs).
// - gemini-cli: `discoverTools` of @google/gemini-cli-core (tools/mcp-client.js), given an MCP
//   `Client` connected to a peer in this process that lists the tool, then the tool's
//   `getSchema().parametersJsonSchema`: what gemini-cli sends Gemini, as `parametersJsonSchema`.
// - opencode: the restatement of opencode's `sanitizeGemini` (opencode_sanitize_gemini.mjs),
//   then what @ai-sdk/google's language model puts in the request's `parameters`
//   (`convertJSONSchemaToOpenAPISchema`), the provider opencode's `google` models run on.
// - opencode-sanitizeGemini: the restatement alone, before the AI SDK.
import { readFileSync, writeFileSync } from "node:fs";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverTools } from "@google/gemini-cli-core/dist/src/tools/mcp-client.js";
import { DiscoveredMCPTool } from "@google/gemini-cli-core/dist/src/tools/mcp-tool.js";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import * as mastra from "@mastra/schema-compat";

import { sanitizeGemini } from "./opencode_sanitize_gemini.mjs";
import { FakePeer } from "./fake_peer.mjs";

const oneLine = (text) => {
    const line = String(text).split(/\s+/).join(" ").trim();
    return line.length <= 300 ? line : `${line.slice(0, 297)}...`;
};
const errorText = (e) => oneLine(e instanceof Error ? e.message : e);


async function geminiCli(tool) {
    const client = new Client({ name: "gemini-cli-mcp-client", version: "0.61.0" });
    await client.connect(new FakePeer({ tools: [tool] }));
    const cliConfig = { emitMcpDiagnostic: () => {}, isTrustedFolder: () => false };
    try {
        const tools = await discoverTools("server", {}, client, cliConfig, undefined, { timeout: 10000 });
        const found = tools.filter((t) => t instanceof DiscoveredMCPTool);
        if (found.length !== 1) return { ok: false, error: `discoverTools kept ${found.length} tools` };
        return { ok: true, sent: found[0].getSchema().parametersJsonSchema };
    } catch (e) {
        return { ok: false, error: errorText(e) };
    } finally {
        await client.close();
    }
}

/** What @ai-sdk/google's language model sends as the tool's `parameters`. */
async function aiSdkGoogle(tool, inputSchema) {
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
            tools: [{ type: "function", name: tool.name, description: tool.description, inputSchema }],
        });
    } catch (e) {
        return { ok: false, error: errorText(e) };
    }
    return { ok: true, sent: body.tools[0].functionDeclarations[0].parameters ?? null };
}

const LAYERS = {
    "mastra-google": () => new mastra.GoogleSchemaCompatLayer({ provider: "google.generative-ai", modelId: "gemini-2.5-flash", supportsStructuredOutputs: false }),
    "mastra-openai": () => new mastra.OpenAISchemaCompatLayer({ provider: "openai.responses", modelId: "gpt-4.1", supportsStructuredOutputs: false }),
};

function mastraLayer(name, tool) {
    const layer = LAYERS[name]();
    if (!layer.shouldApply()) throw new Error(`the ${name} layer does not apply to its model`);
    try {
        const sent = mastra.applyCompatLayer({ schema: structuredClone(tool.inputSchema), compatLayers: [layer], mode: "jsonSchema" });
        return { ok: true, sent };
    } catch (e) {
        return { ok: false, error: errorText(e) };
    }
}

const listing = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = { "mastra-google": {}, "mastra-openai": {}, "gemini-cli": {}, opencode: {}, "opencode-sanitizeGemini": {} };
for (const t of listing.tools) {
    const tool = () => ({ name: t.name, description: t.description ?? "", inputSchema: structuredClone(t.inputSchema) });
    out["mastra-google"][t.name] = mastraLayer("mastra-google", tool());
    out["mastra-openai"][t.name] = mastraLayer("mastra-openai", tool());
    out["gemini-cli"][t.name] = await geminiCli(tool());
    let sanitized;
    try {
        sanitized = sanitizeGemini(tool().inputSchema);
        out["opencode-sanitizeGemini"][t.name] = { ok: true, sent: sanitized };
    } catch (e) {
        out["opencode-sanitizeGemini"][t.name] = { ok: false, error: errorText(e) };
    }
    out.opencode[t.name] = sanitized === undefined ? out["opencode-sanitizeGemini"][t.name] : await aiSdkGoogle(tool(), sanitized);
}
writeFileSync(process.argv[3], `${JSON.stringify(out)}\n`);
process.exit(0);

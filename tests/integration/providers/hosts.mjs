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
// - ai-sdk-google: the request `@ai-sdk/google`'s language model sends (`doGenerate`, to a fetch
//   in this process that records it), whose `parameters` come from its
//   `convertJSONSchemaToOpenAPISchema`: `{request: "sent", sent: parameters}` or
//   `{request: "error", error}`. No client of the rules: observed only.
//
// The tool is named by the case's `tool` (default `report`), on a server named `server`.
//
// Usage: node hosts.mjs CASES.json > RESULTS.json
// RESULTS.json: {client: {case: {path: result}}}, for the input-role cases only.
import { readFileSync } from "node:fs";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverTools } from "@google/gemini-cli-core/dist/src/tools/mcp-client.js";
import { DiscoveredMCPTool } from "@google/gemini-cli-core/dist/src/tools/mcp-tool.js";
import { mcpToFunctionTool } from "@openai/agents-core";
import { createGoogleGenerativeAI } from "@ai-sdk/google";

const installed = (name) =>
    JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
const want = {
    "@google/gemini-cli-core": "0.61.0",
    "@modelcontextprotocol/sdk": "1.23.0",
    "@openai/agents-core": "0.20.0",
    "@ai-sdk/google": "3.0.141",
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

/** A peer in this process that answers `initialize` and lists the one tool. */
class FakePeer {
    constructor(listing) {
        this.listing = listing;
    }
    async start() {}
    async close() {
        this.onclose?.();
    }
    async send(message) {
        if (message.id === undefined || message.method === undefined) return;
        const reply = (result) => ({ jsonrpc: "2.0", id: message.id, result });
        let response;
        if (message.method === "initialize") {
            response = reply({
                protocolVersion: "2025-06-18",
                capabilities: { tools: {} },
                serverInfo: { name: "peer", version: "1.0.0" },
            });
        } else if (message.method === "tools/list") {
            response = reply(this.listing);
        } else {
            response = { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "method not found" } };
        }
        setImmediate(() => this.onmessage?.(response));
    }
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

const cases = JSON.parse(readFileSync(process.argv[2], "utf8")).filter((c) => c.role === "input");
const out = { "gemini-cli": {}, "openai-agents": {}, "ai-sdk-google": {} };
for (const c of cases) {
    const tool = () => ({ name: c.tool ?? "report", description: "A tool.", inputSchema: structuredClone(c.schema) });
    out["gemini-cli"][c.name] = { discoverTools: await geminiCli(tool()) };
    out["openai-agents"][c.name] = { js: await openaiAgents(tool()) };
    out["ai-sdk-google"][c.name] = { doGenerate: await aiSdkGoogle(tool()) };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);

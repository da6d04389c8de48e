// Runs every listing case of the engine tier through the real TypeScript MCP SDK clients:
//
// - ts-sdk-v1: `Client` of @modelcontextprotocol/sdk 1.32.2;
// - ts-sdk-v2: `Client` of @modelcontextprotocol/client 2.4.0 (versionNegotiation 'legacy': the
//   initialize handshake of 2025-11-25), and again pinned to 2026-07-28 (stateless), recorded as
//   `ts-sdk-v2@2026-07-28`.
//
// Each client connects to a fake peer in the same process (a Transport object): the peer answers
// `initialize` with protocol 2025-11-25 and the tools capability, `tools/list` with the case's
// listing verbatim, and `tools/call` of a case's call with its `structuredContent` (and the same
// value as text). The client then runs `listTools()`, and `callTool()` for each call of the case
// whose tool the listing kept. Nothing else is between the client and the peer.
//
// A case with `raw` (the listing as text, such as one with a key twice) is served as the bytes of
// a JSON-RPC line, parsed by the client package's own `deserializeMessage`, the function its stdio
// transport reads each line with (`JSON.parse`, then its message schema); its result then also
// records the output schema of each tool as the client read it (`read`).
//
// Usage: node ts_clients.mjs LISTINGS.json > RESULTS.json
// LISTINGS.json: [{name, listing: {tools: [...]}, calls?: [{tool, structuredContent}]}];
// RESULTS.json: {client: {case: result}}, a result being {listing: "ok", tools: [names kept],
// calls?: {tool: "ok" | "error: ..."}, read?: {tool: outputSchema}} or {listing: "error", error}.
import { readFileSync } from "node:fs";

import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { deserializeMessage as deserializeV1 } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { Client as ClientV2, deserializeMessage as deserializeV2 } from "@modelcontextprotocol/client";

// The versions installed (the lockfile pins them); a package's exports may hide package.json.
const installed = (name) =>
    JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
const versions = {
    "ts-sdk-v1": installed("@modelcontextprotocol/sdk"),
    "ts-sdk-v2": installed("@modelcontextprotocol/client"),
};
if (versions["ts-sdk-v1"] !== "1.32.2" || versions["ts-sdk-v2"] !== "2.4.0") {
    throw new Error(`unexpected SDK versions ${JSON.stringify(versions)}`);
}

const PROTOCOL = "2025-11-25";
// The stateless revision, which TS v2 speaks when pinned to it (no initialize: the revision in
// every request's _meta); its results are recorded as `ts-sdk-v2@2026-07-28`.
const STATELESS = "2026-07-28";

/** A peer that answers the client from the case, in the same process. */
class FakePeer {
    constructor(c, deserialize, revision) {
        this.case = c;
        this.deserialize = deserialize;
        // On 2026-07-28 a result carries `resultType`, and a `tools/list` result its caching
        // directives, which that revision's schema requires.
        this.stateless = revision === STATELESS;
    }

    async start() {}

    async close() {
        this.onclose?.();
    }

    async send(message) {
        if (message.id === undefined || message.method === undefined) return; // notifications
        const extra = this.stateless
            ? { resultType: "complete", ...(message.method === "tools/list" ? { ttlMs: 0, cacheScope: "private" } : {}) }
            : {};
        const reply = (result) => ({ jsonrpc: "2.0", id: message.id, result: { ...result, ...extra } });
        let response;
        if (message.method === "server/discover") {
            response = reply({
                supportedVersions: ["2026-07-28"],
                capabilities: { tools: {} },
                _meta: { "io.modelcontextprotocol/serverInfo": { name: "listing-peer", version: "1.0.0" } },
            });
        } else if (message.method === "initialize") {
            response = reply({
                protocolVersion: PROTOCOL,
                capabilities: { tools: {} },
                serverInfo: { name: "listing-peer", version: "1.0.0" },
            });
        } else if (message.method === "tools/list" && this.case.raw !== undefined) {
            const fields = Object.entries(extra).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join("");
            const raw = fields ? this.case.raw.replace(/\}\s*$/, `${fields}}`) : this.case.raw;
            const line = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${raw}}`;
            response = this.deserialize(line.replace(/\r?\n/g, " "));
        } else if (message.method === "tools/list") {
            response = reply(this.case.listing);
        } else if (message.method === "tools/call") {
            const call = (this.case.calls ?? []).find((k) => k.tool === message.params?.name);
            response = call
                ? reply({
                      content: [{ type: "text", text: JSON.stringify(call.structuredContent) }],
                      structuredContent: call.structuredContent,
                  })
                : { jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "unknown tool" } };
        } else {
            response = { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "method not found" } };
        }
        // Answer asynchronously, as a transport would.
        queueMicrotask(() => this.onmessage?.(response));
    }
}

/**
 * An error message in one line, at most 300 characters. A zod error (the clients parse results
 * with zod) is a JSON list of issues: its first issue, as `path: message`, the index of the tool
 * in the listing written `*`.
 */
function message(e) {
    let text = String(e && e.message !== undefined ? e.message : e);
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
    text = text.split("\n")[0];
    return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

async function run(Client, c, revision = PROTOCOL) {
    const mode = revision === PROTOCOL ? "legacy" : { pin: revision };
    const options = Client === ClientV2 ? { versionNegotiation: { mode } } : {};
    const client = new Client({ name: "listing-tier", version: "1.0.0" }, options);
    // The clients log what they skip; the result is what counts.
    const debug = console.debug;
    const warn = console.warn;
    console.debug = () => {};
    console.warn = () => {};
    try {
        await client.connect(new FakePeer(c, Client === ClientV2 ? deserializeV2 : deserializeV1, revision));
        let listed;
        try {
            listed = await client.listTools();
        } catch (e) {
            return { listing: "error", error: message(e) };
        }
        const result = { listing: "ok", tools: listed.tools.map((t) => t.name) };
        if (c.raw !== undefined) {
            result.read = Object.fromEntries(listed.tools.map((t) => [t.name, t.outputSchema ?? null]));
        }
        const calls = (c.calls ?? []).filter((k) => result.tools.includes(k.tool));
        if (calls.length > 0) {
            result.calls = {};
            for (const k of calls) {
                try {
                    await client.callTool({ name: k.tool, arguments: {} });
                    result.calls[k.tool] = "ok";
                } catch (e) {
                    result.calls[k.tool] = `error: ${message(e)}`;
                }
            }
        }
        return result;
    } finally {
        await client.close();
        console.debug = debug;
        console.warn = warn;
    }
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = { "ts-sdk-v1": {}, "ts-sdk-v2": {}, [`ts-sdk-v2@${STATELESS}`]: {} };
for (const c of cases) {
    out["ts-sdk-v1"][c.name] = await run(ClientV1, c);
    out["ts-sdk-v2"][c.name] = await run(ClientV2, c);
    out[`ts-sdk-v2@${STATELESS}`][c.name] = await run(ClientV2, c, STATELESS);
}
process.stdout.write(`${JSON.stringify(out)}\n`);

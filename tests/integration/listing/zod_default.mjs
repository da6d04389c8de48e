// What the TypeScript SDK v1 server does with a zod `.default()` field of an output schema
// (SL509): `McpServer` of @modelcontextprotocol/sdk 1.32.2 with zod 4.6.7, a handler that leaves
// the field out, and the SDK's own `Client`, over an in-memory transport. Prints, for the field
// as `.default([])` and as `.default([]).optional()` (the help's change), the listed output
// schema's `required` and the call's outcome, as JSON; tests/integration/engines.sh checks it.
import * as z from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

async function probe(tags) {
    const server = new McpServer({ name: "zod-default", version: "1" });
    server.registerTool(
        "search",
        { inputSchema: { q: z.string() }, outputSchema: { name: z.string(), tags } },
        async ({ q }) => ({ content: [{ type: "text", text: q }], structuredContent: { name: q } }),
    );
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "probe", version: "1" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    let call;
    try {
        const result = await client.callTool({ name: "search", arguments: { q: "x" } });
        call = { ok: result.structuredContent };
    } catch (e) {
        call = { error: e.message };
    }
    await client.close();
    return { required: tools[0].outputSchema.required, call };
}

const out = {
    default: await probe(z.array(z.string()).default([])),
    "default-optional": await probe(z.array(z.string()).default([]).optional()),
};
console.log(JSON.stringify(out, null, 2));

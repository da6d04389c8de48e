// A client on the TypeScript SDK v2 (@modelcontextprotocol/client) over Streamable HTTP, for
// tests/integration/live.sh: connects to URL (there, `schema-lint record --listen` in front of a
// real server), negotiates REVISION, lists the tools and calls each once with {city}. Prints a
// line per call and the number of calls sent; exits 0 when the session worked (a result the client itself rejects is printed,
// not a failure: the capture is what counts).
//
// Usage: node http_client.mjs URL REVISION
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, revision] = process.argv.slice(2);
const mode = revision === '2025-11-25' ? 'legacy' : { pin: revision };
const client = new Client({ name: 'http-client', version: '1.0.0' }, { versionNegotiation: { mode } });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const negotiated = client.getNegotiatedProtocolVersion();
if (negotiated !== revision) {
    console.error(`ts http client: asked for ${revision}, negotiated ${negotiated}`);
    process.exit(1);
}
const { tools } = await client.listTools();
let sent = 0;
for (const tool of tools) {
    try {
        await client.callTool({ name: tool.name, arguments: { city: 'Oslo' } });
        console.log(`ts http client ${revision}: ${tool.name}: ok`);
        sent += 1;
    } catch (error) {
        console.log(`ts http client ${revision}: ${tool.name}: rejected by the client: ${error.message}`);
        // The client compiles the tool's output schema before it sends the call: a schema Ajv
        // refuses (`Tool 'x' has an invalid outputSchema`) means no request went out.
        if (!error.message.includes('has an invalid outputSchema')) sent += 1;
    }
}
console.log(`ts http client ${revision}: calls ${sent}`);
await client.close();

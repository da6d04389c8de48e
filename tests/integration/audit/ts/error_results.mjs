// What each TypeScript SDK client does with an error result (`isError: true`) whose
// `structuredContent` fails the tool's output schema: the `fail` tool of
// tests/live/tool_server.py, over stdio on 2025-11-25. Prints one line per client:
// `<client>: ok` (the result reaches the caller, the tool's error with it) or
// `<client>: throws <message>`. tests/integration/audit.sh compares the lines with SL606's claims.
//
// Usage: node error_results.mjs PYTHON TOOL_SERVER
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

const [python, server] = process.argv.slice(2);
const clients = [
    ['ts-sdk-v1', ClientV1, StdioV1],
    ['ts-sdk-v2', ClientV2, StdioV2],
];
for (const [name, Client, Stdio] of clients) {
    const client = new Client({ name: 'error-results', version: '1.0.0' });
    await client.connect(new Stdio({ command: python, args: [server, 'legacy'] }));
    await client.listTools();
    try {
        const result = await client.callTool({ name: 'fail', arguments: {} });
        console.log(`${name}: ${result.isError === true ? 'ok' : 'ok, but isError is gone'}`);
    } catch (error) {
        console.log(`${name}: throws ${error.message}`);
    }
    await client.close();
}

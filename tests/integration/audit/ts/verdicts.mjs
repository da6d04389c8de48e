// What each TypeScript SDK client does with the results of tests/live/tool_server.py's tools,
// over stdio on 2025-11-25: `get_weather` (a naive date-time), `get_link` (an IRI as `uri`),
// `fail` (an `isError: true` result whose `structuredContent` fails the output schema) and
// `no_data` (no `structuredContent` though the tool declares an output schema), `list_data` and
// `null_data` (an array, `null` as `structuredContent`) and `wrapped` (the legacy `{"result": ...}`
// wrapper of a `.meta({ id })` tool's result). Prints one line
// per client and tool: `<client> <tool>: accepts` (the result reaches the caller) or
// `<client> <tool>: rejects <message>`. tests/integration/audit.sh compares the verdicts with
// the audit's of the same calls (`clients` in its JSON), and the `fail` lines with SL606's claims.
//
// Usage: node verdicts.mjs PYTHON TOOL_SERVER
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

const [python, server] = process.argv.slice(2);
const clients = [
    ['ts-sdk-v1', ClientV1, StdioV1],
    ['ts-sdk-v2', ClientV2, StdioV2],
];
// The calls audit.sh makes too: tests/live/calls.json, beside the server.
const calls = JSON.parse(readFileSync(join(dirname(server), 'calls.json'), 'utf8'));
for (const [name, Client, Stdio] of clients) {
    const client = new Client({ name: 'verdicts', version: '1.0.0' });
    await client.connect(new Stdio({ command: python, args: [server, 'legacy'] }));
    await client.listTools();
    for (const [tool, args] of calls) {
        try {
            await client.callTool({ name: tool, arguments: args });
            console.log(`${name} ${tool}: accepts`);
        } catch (error) {
            console.log(`${name} ${tool}: rejects ${error.message.split('\n')[0]}`);
        }
    }
    await client.close();
}

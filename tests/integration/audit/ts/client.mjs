// A client on the TypeScript SDK v2 (@modelcontextprotocol/client) that talks to a server through
// the logging relay, for one protocol revision, lists the tools and calls each once.
//
// Usage: node client.mjs REVISION LOGFILE -- SERVER_COMMAND [ARGS...]
//
// REVISION 2025-11-25 is the SDK's default negotiation (versionNegotiation mode 'legacy': the
// initialize handshake); 2026-07-28 pins the stateless revision (mode { pin: '2026-07-28' }: the
// protocol in every request's _meta, no initialize). The negotiated revision is checked. The client
// validates structuredContent itself, so the broken call may throw here: that is expected and
// printed, the capture is what counts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [revision, log, dashes, ...server] = process.argv.slice(2);
if (dashes !== '--' || server.length === 0) {
    console.error('usage: node client.mjs REVISION LOGFILE -- SERVER_COMMAND [ARGS...]');
    process.exit(2);
}
const relay = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'relay.py');
const python = process.env.PYTHON ?? 'python3';
const mode = revision === '2025-11-25' ? 'legacy' : { pin: revision };

const client = new Client({ name: 'audit-ts-client', version: '1.0.0' }, { versionNegotiation: { mode } });
// With SCHEMA_LINT_RECORD set to a schema-lint binary, `schema-lint record` is the relay.
const record = process.env.SCHEMA_LINT_RECORD;
const relayed = record
    ? { command: record, args: ['record', '--output', log, '--', ...server] }
    : { command: python, args: [relay, log, '--', ...server] };
await client.connect(new StdioClientTransport(relayed));
const negotiated = client.getNegotiatedProtocolVersion();
if (negotiated !== revision) {
    console.error(`ts client: asked for ${revision}, negotiated ${negotiated}`);
    process.exit(1);
}
const { tools } = await client.listTools();
for (const tool of tools) {
    const args = tool.name === 'echo' ? { text: 'hello' } : { city: 'London' };
    try {
        const result = await client.callTool({ name: tool.name, arguments: args });
        console.log(`ts client ${revision}: ${tool.name}: ok, structuredContent=${JSON.stringify(result.structuredContent)}`);
    } catch (error) {
        console.log(`ts client ${revision}: ${tool.name}: rejected by the client: ${error.message}`);
    }
}
await client.close();

// `schema-lint mcp` under the real TypeScript SDK v2 client (@modelcontextprotocol/client), on
// both eras: the tools are listed, and every JSON fixture of the rules, the bundled example and
// the CLI cases goes through `lint_schema` (default clients and every client), `fix_schema` and,
// for listings, `lint_tools_list`. The client validates each structuredContent against the tool's
// outputSchema with Ajv itself and throws when one does not conform.
//
// Usage: node mcp_mode.mjs SCHEMA_LINT REVISION
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [binary, revision] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const mode = revision === '2025-11-25' ? 'legacy' : { pin: revision };
const client = new Client({ name: 'mcp-mode-ts-client', version: '1.0.0' }, { versionNegotiation: { mode } });
await client.connect(new StdioClientTransport({ command: binary, args: ['mcp'] }));

function* fixtures(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* fixtures(full);
        else if (entry.name.endsWith('.json')) yield full;
    }
}

const { tools } = await client.listTools();
const every = tools[0].inputSchema.properties.clients.items.enum.filter((c) => c !== 'default');
let results = 0;
for (const folder of ['testdata/rules', 'testdata/examples', 'testdata/cli']) {
    for (const file of fixtures(path.join(root, folder))) {
        const text = fs.readFileSync(file, 'utf8');
        const calls = [
            ['lint_schema', { schema: text }],
            ['lint_schema', { schema: text, clients: every }],
            ['fix_schema', { schema: text, unsafe: true }],
        ];
        let value = null;
        try { value = JSON.parse(text); } catch { /* a fixture that is no JSON */ }
        if (value && typeof value === 'object' && ('tools' in value || (value.result && 'tools' in value.result))) {
            calls.push(['lint_tools_list', { document: text, clients: every }]);
        }
        for (const [name, args] of calls) {
            try {
                await client.callTool({ name, arguments: args });
            } catch (error) {
                console.error(`mcp mode, ts client ${revision}: ${name} on ${path.relative(root, file)}: ${error.message}`);
                process.exit(1);
            }
            results += 1;
        }
    }
}
await client.close();
if (results < 300) {
    console.error(`mcp mode, ts client ${revision}: only ${results} results checked`);
    process.exit(1);
}
console.log(`mcp mode, ts client ${revision}: ${tools.length} tools, ${results} results conform to their output schemas`);

// What gemini-cli does with the results of tests/live/tool_server.py's tools: its own MCP code
// (@google/gemini-cli-core 0.61.0: `connectToMcpServer`, `discoverTools`, then each tool's
// `execute`, as a model's function call runs it), with the MCP SDK client it bundles (1.23.0, and
// its lenient output-schema validator) over stdio. That client knows no revision after
// 2025-06-18, so the server answers with that one. Prints one line per tool:
// `gemini-cli <tool>: accepts` (the call reaches the model) with what the model is sent, or
// `gemini-cli <tool>: rejects <message>`. tests/integration/audit.sh compares the verdicts with
// the audit's of the same calls.
//
// Usage: node gemini_cli_verdicts.mjs PYTHON TOOL_SERVER (from the folder of
// tests/integration/providers/package.json's installed node_modules)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connectToMcpServer, discoverTools } from '@google/gemini-cli-core/dist/src/tools/mcp-client.js';

const [python, server] = process.argv.slice(2);
// The calls audit.sh makes too: tests/live/calls.json, beside the server.
const calls = JSON.parse(readFileSync(join(dirname(server), 'calls.json'), 'utf8'));
const diagnostics = [];
const cliConfig = {
    emitMcpDiagnostic: (level, text) => diagnostics.push(`${level}: ${text}`),
    // A user who runs a stdio server trusts the folder (`gemini trust`).
    isTrustedFolder: () => true,
    setUserInteractedWithMcp: () => {},
};
const workspace = { getDirectories: () => [], onDirectoriesChanged: () => () => {} };
const config = { command: python, args: [server, '2025-06-18'] };
const client = await connectToMcpServer('0.61.0', 'tools', config, false, workspace, cliConfig);
const tools = await discoverTools('tools', config, client, cliConfig, undefined, { timeout: 10000 });
const byName = new Map(tools.map((t) => [t.serverToolName, t]));
for (const [name, args] of calls) {
    const tool = byName.get(name);
    if (!tool) {
        console.log(`gemini-cli ${name}: rejects (left out of the listing)`);
        continue;
    }
    try {
        const result = await tool.build(args).execute({ abortSignal: new AbortController().signal });
        if (result.error) {
            // The tool error gemini-cli makes of the client's: the client's own message is inside.
            const text = String(result.error.message);
            const inner = /"message":"((?:[^"\\]|\\.)*)"/.exec(text);
            const said = inner ? JSON.parse(`"${inner[1]}"`) : text;
            console.log(`gemini-cli ${name}: rejects ${said.split('\n')[0]}`);
        } else {
            console.log(`gemini-cli ${name}: accepts, the model gets ${JSON.stringify(result.llmContent)}`);
        }
    } catch (error) {
        console.log(`gemini-cli ${name}: rejects ${String(error.message).split('\n')[0]}`);
    }
}
await client.close();

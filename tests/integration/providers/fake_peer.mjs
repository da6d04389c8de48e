// A peer in this process for the MCP SDK's `Client`: the transport that answers `initialize`
// and lists the tools it is given. Shared by tests/integration/providers/hosts.mjs (the engine
// tier) and benches/peers/peers.mjs (the port benchmark), each copying it beside itself.

/** A peer in this process that answers `initialize` and lists the one tool. */
export class FakePeer {
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

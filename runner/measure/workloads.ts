/**
 * Timing workloads by name: the one request a timed run repeats against a target, and its check.
 * One registry; adding a workload is one entry. A matrix names the workload per target
 * (`timing.workloads.<target>`).
 */
import { serializePost, validateJsonRpc, type TimedRequest } from "./request.js";

/** Text the A2A echo workload sends; the answer must contain `Echo: <text>`. */
export const ECHO_TEXT = "hello";

/** A2A 1.0 `SendMessage` over JSON-RPC with `historyLength: 0`; expects `Echo: hello`. */
function a2aSendMessage(port: number): TimedRequest {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: { message: { messageId: "wirecost-1", role: "ROLE_USER", parts: [{ text: ECHO_TEXT }] }, configuration: { historyLength: 0 } },
  });
  return {
    workload: "a2a-send-message",
    rpcId: 1,
    bytes: serializePost(port, "/", [["A2A-Version", "1.0"]], body),
    validate: (status, b) => validateJsonRpc(status, b, `Echo: ${ECHO_TEXT}`),
  };
}

/**
 * MCP 2026-07-28 `tools/call` of `echo` as a stateless POST to `/mcp` (no session, no handshake):
 * the per-request `_meta` and headers that revision requires. Expects the echoed text back.
 */
function mcpToolsCall2026(port: number): TimedRequest {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: ECHO_TEXT },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "wirecost", version: "0.1.0" },
      },
    },
  });
  return {
    workload: "mcp-tools-call-2026-07-28",
    rpcId: 1,
    bytes: serializePost(
      port,
      "/mcp",
      [
        ["Accept", "application/json, text/event-stream"],
        ["MCP-Protocol-Version", "2026-07-28"],
        ["Mcp-Method", "tools/call"],
        ["Mcp-Name", "echo"],
      ],
      body,
    ),
    validate: (status, b) => validateJsonRpc(status, b, ECHO_TEXT),
  };
}

/** Workload name → request builder for a target listening on `port`. */
export const WORKLOADS: Record<string, (port: number) => TimedRequest> = {
  "a2a-send-message": a2aSendMessage,
  "mcp-tools-call-2026-07-28": mcpToolsCall2026,
};

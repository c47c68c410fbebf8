/**
 * What each MCP revision puts on the wire around a JSON-RPC message.
 *
 * - 2025-06-18 and 2025-11-25 (specification/2025-11-25/basic/lifecycle): an `initialize`
 *   request then a `notifications/initialized` notification open the session; over Streamable
 *   HTTP every later request carries `MCP-Protocol-Version` and, when the server assigned one,
 *   `Mcp-Session-Id`.
 * - 2026-07-28 (specification/2026-07-28/basic/versioning, transports): no handshake; every
 *   request's `params._meta` carries `io.modelcontextprotocol/protocolVersion`,
 *   `io.modelcontextprotocol/clientCapabilities` (required) and `io.modelcontextprotocol/clientInfo`;
 *   over HTTP every POST carries `MCP-Protocol-Version` and `Mcp-Method`, and `tools/call` adds
 *   `Mcp-Name` (the tool name).
 */

import { RAW_CLIENT } from "../declarations.js";

/** Revisions the raw driver speaks (declared in runner/drivers/declarations.ts). */
export const REVISIONS = RAW_CLIENT.revisions;

/** Client identity sent by the raw driver (fixed, so repeats are byte-identical). */
export const CLIENT_INFO = { name: "wirecost-raw", version: "1.0.0" } as const;

/** Client capabilities declared by the raw driver: it can answer elicitation. */
export const CLIENT_CAPABILITIES = { elicitation: {} } as const;

/** True for revisions that open a session with initialize (2025 era). */
export function hasHandshake(revision: string): boolean {
  return revision < "2026-07-28";
}

/** The `_meta` envelope every 2026-07-28 request carries. */
export function metaEnvelope(revision: string): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": revision,
    "io.modelcontextprotocol/clientCapabilities": CLIENT_CAPABILITIES,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  };
}

/** Params of the 2025-era `initialize` request. */
export function initializeParams(revision: string): Record<string, unknown> {
  return { protocolVersion: revision, capabilities: CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO };
}

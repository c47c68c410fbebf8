/**
 * What each client driver declares it can drive: its flow names and the protocol revisions it
 * speaks, per value of the `client` axis and, for client `sdk`, per SDK client generation (the
 * value of a target's `sdkClient:`). Kept apart from the drivers (which load the SDK client
 * packages) so that expanding a matrix stays light; the drivers take their `flows` and `revisions`
 * from here, so there is one list of each.
 */
import type { ClientName } from "./clients.js";

/** Flows and revisions one driver declares. */
export interface ClientDeclaration {
  /**
   * Flow names the driver runs (values the `flow` axis may take with it); absent for the MCP
   * drivers, which run any flow the matrix declares (`flows:`, runner/matrix/flows.ts).
   */
  flows?: readonly string[];
  /**
   * Protocol revisions the driver speaks (values the `revision` axis may take with it); absent for
   * a driver of a protocol without revisions, which ignores the `revision` axis (client `jsonrpc`).
   */
  revisions?: readonly string[];
}

/** Client `raw`: hand-written bytes, every revision it knows (2024-11-05 over stdio only: runner/drivers/mcp/revision.ts), any flow of the matrix. */
export const RAW_CLIENT = {
  revisions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
} as const satisfies ClientDeclaration;

/**
 * Client `sdk`: the MCP TypeScript SDK client generations a target may name with `sdkClient:`.
 * v1 (`@modelcontextprotocol/sdk` 1.x) always offers its latest revision in `initialize`, so it
 * speaks that one; v2 (`@modelcontextprotocol/client`) offers exactly the configured revision.
 */
export const SDK_CLIENTS = {
  v1: { revisions: ["2025-11-25"] },
  v2: { revisions: ["2025-06-18", "2025-11-25", "2026-07-28"] },
} as const satisfies Record<string, ClientDeclaration>;

/** A value of a target's `sdkClient:` key. */
export type SdkClientName = keyof typeof SDK_CLIENTS;

/** The values a target's `sdkClient:` may take, in declared order (matrix.schema.json lists the same). */
export const SDK_CLIENT_NAMES = Object.keys(SDK_CLIENTS) as SdkClientName[];

/**
 * Client `jsonrpc`: plain JSON-RPC 2.0 echo requests, one (plain), two (two: one more round trip
 * than plain) or ten (ten); and A2A 1.0 over its JSON-RPC binding (HTTP only): one `SendMessage`
 * (a2a-send), or the agent card fetched first, then the `SendMessage` (a2a-card); no revisions.
 */
export const JSONRPC_CLIENT = { flows: ["plain", "two", "ten", "a2a-send", "a2a-card"] } as const satisfies ClientDeclaration;

/** Clients whose declaration depends on the target (its `sdkClient:`); the others have one of their own. */
const FIXED: Record<Exclude<ClientName, "sdk">, ClientDeclaration> = {
  raw: RAW_CLIENT,
  "sdk-v1": SDK_CLIENTS.v1,
  "sdk-v2": SDK_CLIENTS.v2,
  jsonrpc: JSONRPC_CLIENT,
};

/**
 * The SDK client generation a configuration's client drives its target with: the target's own
 * (`sdkClient:`) for client `sdk`, the named one for `sdk-v1` / `sdk-v2`; undefined for any other
 * client, or for `sdk` on a target naming none.
 */
export function sdkGenerationOf(client: string, targetSdkClient: string | undefined): SdkClientName | undefined {
  const g = client === "sdk" ? targetSdkClient : client.startsWith("sdk-") ? client.slice(4) : undefined;
  return g !== undefined && Object.hasOwn(SDK_CLIENTS, g) ? (g as SdkClientName) : undefined;
}

/**
 * The declaration of the driver that runs `client` against a target naming `sdkClient`.
 * @returns the declaration; undefined for client `sdk` when `sdkClient` is undefined or not an SDK
 *   client name (and for a client name that is not one of CLIENTS)
 */
export function clientDeclaration(client: string, sdkClient?: string): ClientDeclaration | undefined {
  if (client === "sdk") return sdkClient !== undefined && Object.hasOwn(SDK_CLIENTS, sdkClient) ? SDK_CLIENTS[sdkClient as SdkClientName] : undefined;
  return Object.hasOwn(FIXED, client) ? FIXED[client as keyof typeof FIXED] : undefined;
}

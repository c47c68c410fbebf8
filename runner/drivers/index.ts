/**
 * Registry of client drivers, by value of the `client` axis. Adding a client is one entry here
 * and its name in clients.ts.
 */
import type { ClientName } from "./clients.js";
import { jsonRpcDriver } from "./jsonrpc.js";
import { rawMcpDriver } from "./mcp/raw.js";
import { sdkDriver } from "./sdk/index.js";
import { sdkV1Driver } from "./sdk/v1.js";
import { sdkV2Driver } from "./sdk/v2.js";
import type { Driver } from "./types.js";

/** Client name → driver. */
export const DRIVERS: Record<ClientName, Driver> & Record<string, Driver | undefined> = {
  raw: rawMcpDriver,
  /** Each target's own SDK client (runner/drivers/sdk). */
  sdk: sdkDriver,
  /** One SDK client generation by value, against any MCP server. */
  "sdk-v1": sdkV1Driver,
  "sdk-v2": sdkV2Driver,
  /** Plain JSON-RPC 2.0, for servers that do not speak MCP (runner/drivers/jsonrpc.ts). */
  jsonrpc: jsonRpcDriver,
};

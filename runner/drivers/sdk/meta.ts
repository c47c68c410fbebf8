/**
 * What the driver registry (runner/drivers/index.ts) knows of each SDK client driver before its
 * module loads: the protocol, the npm packages and the revisions (from SDK_CLIENTS). The driver
 * modules (v1.ts, v2.ts, index.ts here) spread these into their drivers, so the two never differ;
 * the registry loads a module on the driver's first use, or when a run names its client
 * (`loadDrivers`), so a run of the raw or jsonrpc client never loads the MCP SDKs (about a quarter
 * of a second of imports).
 */
import { SDK_CLIENTS } from "../declarations.js";
import type { Driver } from "../types.js";

/** A driver's fields other than its drive functions. */
export type DriverMeta = Pick<Driver, "protocol" | "packages" | "revisions" | "flows">;

/** Client `sdk-v1`: the v1 SDK `Client` (`@modelcontextprotocol/sdk`), the one revision its `initialize` offers. */
export const SDK_V1_META: DriverMeta = { protocol: "mcp", revisions: SDK_CLIENTS.v1.revisions };

/** Client `sdk-v2`: the v2 SDK `Client` (`@modelcontextprotocol/client`). */
export const SDK_V2_META: DriverMeta = { protocol: "mcp", revisions: SDK_CLIENTS.v2.revisions };

/** Client `sdk`: each target's own generation; its revisions the union of the generations'. */
export const SDK_META: DriverMeta = {
  protocol: "mcp",
  packages: ["@modelcontextprotocol/client", "@modelcontextprotocol/sdk"],
  revisions: [...new Set<string>([...SDK_CLIENTS.v1.revisions, ...SDK_CLIENTS.v2.revisions])].sort(),
};

/**
 * Registry of client drivers, by value of the `client` axis. Adding a client is one entry here
 * and its name in clients.ts. The SDK clients' modules load on first use, or when a run names
 * their client ({@link loadDrivers}): a run that drives only `raw` or `jsonrpc` never loads the MCP
 * SDKs (runner/drivers/sdk/meta.ts).
 */
import type { ClientName } from "./clients.js";
import { jsonRpcDriver } from "./jsonrpc.js";
import { rawMcpDriver } from "./mcp/raw.js";
import { SDK_META, SDK_V1_META, SDK_V2_META, type DriverMeta } from "./sdk/meta.js";
import type { Driver } from "./types.js";

/** A driver whose module is loaded once: on its first drive, or by {@link loadDrivers}. */
interface LoadedOnUse extends Driver {
  /** Load the module (once); resolves with the driver it exports. */
  load(): Promise<Driver>;
}

/** A {@link LoadedOnUse} driver: `meta` now, the drive functions from `load`'s module. */
function loadedOnUse(meta: DriverMeta, load: () => Promise<Driver>): LoadedOnUse {
  let loading: Promise<Driver> | undefined;
  const driver = (): Promise<Driver> => {
    loading ??= load();
    return loading;
  };
  return {
    ...meta,
    load: driver,
    stdio: async (channel, ctx) => (await driver()).stdio(channel, ctx),
    http: async (port, ctx) => (await driver()).http(port, ctx),
  };
}

/** Client name → driver. */
export const DRIVERS: Record<ClientName, Driver> & Record<string, Driver | undefined> = {
  raw: rawMcpDriver,
  /** Each target's own SDK client (runner/drivers/sdk). */
  sdk: loadedOnUse(SDK_META, async () => (await import("./sdk/index.js")).sdkDriver),
  /** One SDK client generation by value, against any MCP server. */
  "sdk-v1": loadedOnUse(SDK_V1_META, async () => (await import("./sdk/v1.js")).sdkV1Driver),
  "sdk-v2": loadedOnUse(SDK_V2_META, async () => (await import("./sdk/v2.js")).sdkV2Driver),
  /** Plain JSON-RPC 2.0, for servers that do not speak MCP (runner/drivers/jsonrpc.ts). */
  jsonrpc: jsonRpcDriver,
};

/**
 * Load the modules of the named clients' drivers now (a run calls it before its first target
 * starts, so that no import stalls this process while other runs' connections wait on it). Names
 * of no driver here (a client the matrix declares) are passed over.
 */
export async function loadDrivers(clients: readonly string[]): Promise<void> {
  await Promise.all(clients.map((c) => (DRIVERS[c] as Partial<LoadedOnUse> | undefined)?.load?.()));
}

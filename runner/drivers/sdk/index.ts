/**
 * Client `sdk`: each target driven by its own SDK generation's client. The target axis value picks
 * the generation (table below); adding a target on an existing generation is one entry.
 */
import type { Driver, DriverContext } from "../types.js";
import { sdkV1Driver, SDK_V1_REVISIONS } from "./v1.js";
import { sdkV2Driver, SDK_V2_REVISIONS } from "./v2.js";
import { SDK_FLOWS } from "./flows.js";

/** Target axis value → the SDK client driver of that target's generation. */
export const SDK_CLIENT_OF_TARGET: Record<string, Driver> = {
  "mcp-ts-v1": sdkV1Driver,
  "mcp-ts-v2": sdkV2Driver,
};

function pick(ctx: DriverContext): Driver {
  const target = ctx.values.target ?? "";
  const d = SDK_CLIENT_OF_TARGET[target];
  if (!d) throw new Error(`client sdk: no SDK client known for target "${target}" (known: ${Object.keys(SDK_CLIENT_OF_TARGET).join(", ")}); add it to runner/drivers/sdk/index.ts`);
  return d;
}

/** Client `sdk`: dispatches to the target's own SDK client ({@link SDK_CLIENT_OF_TARGET}). Revisions: the union. */
export const sdkDriver: Driver = {
  protocol: "mcp",
  packages: ["@modelcontextprotocol/client", "@modelcontextprotocol/sdk"],
  flows: Object.keys(SDK_FLOWS),
  revisions: [...new Set<string>([...SDK_V1_REVISIONS, ...SDK_V2_REVISIONS])].sort(),
  stdio: (channel, ctx) => pick(ctx).stdio(channel, ctx),
  http: (port, ctx) => pick(ctx).http(port, ctx),
};

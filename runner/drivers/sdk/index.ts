/**
 * Client `sdk`: each target driven by its own SDK generation's client. The target names the
 * generation in the matrix (`sdkClient: v1` or `v2`, runner/drivers/declarations.ts); adding a
 * generation is one entry here and one in SDK_CLIENTS.
 */
import { sdkGenerationOf, type SdkClientName } from "../declarations.js";
import type { Driver, DriverContext } from "../types.js";
import { SDK_META } from "./meta.js";
import { sdkV1Driver } from "./v1.js";
import { sdkV2Driver } from "./v2.js";

/** SDK client generation (a target's `sdkClient:`) → its client driver. */
export const SDK_CLIENT_DRIVERS: Record<SdkClientName, Driver> = {
  v1: sdkV1Driver,
  v2: sdkV2Driver,
};

/**
 * The driver of the generation the configuration's target names.
 * @throws Error when the target names none (expansion refuses such configurations first)
 */
function pick(ctx: DriverContext): Driver {
  const g = sdkGenerationOf("sdk", ctx.sdkClient);
  const d = g === undefined ? undefined : SDK_CLIENT_DRIVERS[g];
  if (!d)
    throw new Error(
      `client sdk: target "${ctx.values.target ?? ""}" names no SDK client (sdkClient: ${ctx.sdkClient ?? "absent"}) — give it sdkClient: ${Object.keys(SDK_CLIENT_DRIVERS).join(" or ")} in the matrix`,
    );
  return d;
}

/** Client `sdk`: dispatches to the target's own SDK client ({@link SDK_CLIENT_DRIVERS}, by `ctx.sdkClient`). Revisions: the union. */
export const sdkDriver: Driver = {
  ...SDK_META,
  stdio: async (channel, ctx) => pick(ctx).stdio(channel, ctx),
  http: async (port, ctx) => pick(ctx).http(port, ctx),
};

/**
 * Client driver on the SDK v2 client (`@modelcontextprotocol/client`): 2025-era revisions via the
 * legacy `initialize` handshake offering exactly the configured revision
 * (`supportedProtocolVersions: [revision]`); 2026-07-28 pinned (`versionNegotiation.mode.pin`),
 * no probe. `confirm` is answered by an `elicitation/create` handler (both eras: on 2026-07-28 the
 * client fulfils `input_required` through the same handler and retries).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/client";
import { SDK_CLIENTS } from "../declarations.js";
import type { Driver, DriverContext } from "../types.js";
import { CONFIRM_ANSWER } from "../mcp/flows.js";
import { ChannelTransport } from "./channel-transport.js";
import { sdkFlow } from "./flows.js";

/** Client identity the SDK drivers send (fixed, so repeats are byte-identical). */
export const SDK_CLIENT_INFO = { name: "wirecost-sdk", version: "1.0.0" } as const;

/** Revisions the v2 client driver speaks (declared as SDK_CLIENTS.v2). */
export const SDK_V2_REVISIONS = SDK_CLIENTS.v2.revisions;

function makeClient(ctx: DriverContext): Client {
  const modern = ctx.revision >= "2026-07-28";
  const client = new Client(SDK_CLIENT_INFO, {
    capabilities: { elicitation: {} },
    ...(modern ? { versionNegotiation: { mode: { pin: ctx.revision } } } : { supportedProtocolVersions: [ctx.revision] }),
  } as ConstructorParameters<typeof Client>[1]);
  client.setRequestHandler("elicitation/create", async () => ({ ...CONFIRM_ANSWER, content: { ...CONFIRM_ANSWER.content } }));
  return client;
}

async function drive(transport: Transport, ctx: DriverContext): Promise<void> {
  const flow = sdkFlow(ctx);
  const client = makeClient(ctx);
  try {
    await client.connect(transport, { timeout: ctx.timeoutMs } as never);
    await flow(client as never, ctx);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The SDK v2 client driver. HTTP endpoint path: axis `path` if present, else `/mcp`. */
export const sdkV2Driver: Driver = {
  protocol: "mcp",
  flows: SDK_CLIENTS.v2.flows,
  revisions: SDK_V2_REVISIONS,
  stdio: (channel, ctx) => drive(new ChannelTransport(channel, ctx.timeoutMs) as unknown as Transport, ctx),
  http: (port, ctx) => drive(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${ctx.values.path ?? "/mcp"}`)) as Transport, ctx),
};

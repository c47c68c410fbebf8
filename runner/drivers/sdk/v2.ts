/**
 * Client driver on the SDK v2 client (`@modelcontextprotocol/client`): 2025-era revisions via the
 * legacy `initialize` handshake offering exactly the configured revision
 * (`supportedProtocolVersions: [revision]`); 2026-07-28 pinned (`versionNegotiation.mode.pin`:
 * one `server/discover` probe, no fallback). `confirm` is answered by an `elicitation/create`
 * handler (both eras: on 2026-07-28 the client fulfils `input_required` through the same handler
 * and retries). The revision the server answered is checked on the transport's messages
 * (./revision-watch.ts): a mismatch fails the run with one line.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/client";
import { SDK_CLIENTS } from "../declarations.js";
import { SDK_V2_META } from "./meta.js";
import type { Driver, DriverContext } from "../types.js";
import { CONFIRM_ANSWER } from "../mcp/flows.js";
import { ChannelTransport } from "./channel-transport.js";
import { sdkFlow, type SessionEnder } from "./flows.js";
import { watchRevision } from "./revision-watch.js";

/** Client identity the SDK drivers send (fixed, so repeats are byte-identical). */
export const SDK_CLIENT_INFO = { name: "wirecost-sdk", version: "1.0.0" } as const;

/** Revisions the v2 client driver speaks (declared as SDK_CLIENTS.v2). */
export const SDK_V2_REVISIONS = SDK_CLIENTS.v2.revisions;

/**
 * A v2 SDK `Client` set up as the driver uses it (see the module comment), not yet connected.
 * The per-call engine times calls through it too.
 * @param revision the MCP revision to offer (2025 era) or pin (2026-07-28 and later)
 */
export function newSdkV2Client(revision: string): Client {
  const modern = revision >= "2026-07-28";
  const client = new Client(SDK_CLIENT_INFO, {
    capabilities: { elicitation: {} },
    ...(modern ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] }),
  } as ConstructorParameters<typeof Client>[1]);
  client.setRequestHandler("elicitation/create", async () => ({ ...CONFIRM_ANSWER, content: { ...CONFIRM_ANSWER.content } }));
  return client;
}

/** The v2 SDK's Streamable HTTP client transport to `http://127.0.0.1:PORT/PATH`. */
export function sdkV2HttpTransport(port: number, path = "/mcp"): Transport {
  return new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${path}`)) as Transport;
}

async function drive(transport: Transport, ctx: DriverContext): Promise<void> {
  const flow = sdkFlow(ctx);
  const client = newSdkV2Client(ctx.revision);
  const watch = watchRevision(transport, ctx.revision);
  try {
    await client.connect(transport, { timeout: ctx.timeoutMs } as never);
    watch.check();
    await flow(client as never, ctx, transport as unknown as SessionEnder, watch);
    watch.check();
  } catch (e) {
    watch.check();
    throw e;
  } finally {
    await client.close().catch(() => {});
  }
}

/** The SDK v2 client driver. HTTP endpoint path: axis `path` if present, else `/mcp`. */
export const sdkV2Driver: Driver = {
  ...SDK_V2_META,
  stdio: (channel, ctx) => drive(new ChannelTransport(channel, ctx.timeoutMs) as unknown as Transport, ctx),
  http: (port, ctx) => drive(sdkV2HttpTransport(port, ctx.values.path), ctx),
};

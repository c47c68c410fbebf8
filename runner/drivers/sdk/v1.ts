/**
 * Client driver on the SDK v1 client (`Client` of `@modelcontextprotocol/sdk` 1.x): 2025-era only,
 * and its `initialize` always offers the SDK's latest revision (2025-11-25), so it speaks that one
 * revision. `confirm` is answered by an `elicitation/create` handler. The revision the server
 * answered is checked on the transport's messages (./revision-watch.ts): the v1 client accepts any
 * version it knows in `initialize`'s answer, so without the check a server answering 2025-06-18
 * would run under the label 2025-11-25.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SDK_CLIENTS } from "../declarations.js";
import { SDK_V1_META } from "./meta.js";
import { ProtocolError, type Driver, type DriverContext } from "../types.js";
import { CONFIRM_ANSWER } from "../mcp/flows.js";
import { ChannelTransport } from "./channel-transport.js";
import { sdkFlow, type SessionEnder } from "./flows.js";
import { watchRevision } from "./revision-watch.js";
import { SDK_CLIENT_INFO } from "./v2.js";

/** Revisions the v1 client driver speaks: the one its `initialize` offers (declared as SDK_CLIENTS.v1). */
export const SDK_V1_REVISIONS = SDK_CLIENTS.v1.revisions;

/**
 * A v1 SDK `Client` set up as the driver uses it (client info SDK_CLIENT_INFO, an elicitation
 * handler that answers `confirm`), not yet connected. The per-call engine times calls through it too.
 * @param revision the MCP revision the configuration names
 * @throws ProtocolError when `revision` is not the one the v1 client speaks
 */
export function newSdkV1Client(revision: string): Client {
  if (!(SDK_V1_REVISIONS as readonly string[]).includes(revision)) {
    throw new ProtocolError(`the v1 SDK client speaks ${SDK_V1_REVISIONS.join(", ")} only, not ${revision}: exclude the cell in the matrix`);
  }
  const client = new Client(SDK_CLIENT_INFO, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ ...CONFIRM_ANSWER, content: { ...CONFIRM_ANSWER.content } }));
  return client;
}

/** The v1 SDK's Streamable HTTP client transport to `http://127.0.0.1:PORT/PATH`. */
export function sdkV1HttpTransport(port: number, path = "/mcp"): Transport {
  return new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${path}`));
}

async function drive(transport: Transport, ctx: DriverContext): Promise<void> {
  const client = newSdkV1Client(ctx.revision);
  const flow = sdkFlow(ctx);
  const watch = watchRevision(transport, ctx.revision);
  try {
    await client.connect(transport, { timeout: ctx.timeoutMs });
    watch.check();
    await flow(client, ctx, transport as unknown as SessionEnder, watch);
    watch.check();
  } catch (e) {
    watch.check();
    throw e;
  } finally {
    await client.close().catch(() => {});
  }
}

/** The SDK v1 client driver. HTTP endpoint path: axis `path` if present, else `/mcp`. */
export const sdkV1Driver: Driver = {
  ...SDK_V1_META,
  stdio: (channel, ctx) => drive(new ChannelTransport(channel, ctx.timeoutMs) as unknown as Transport, ctx),
  http: (port, ctx) => drive(sdkV1HttpTransport(port, ctx.values.path), ctx),
};

/**
 * The MCP flows as an SDK client runs them, on a small surface both SDK generations provide
 * (`listTools`, `callTool`). Same names and meaning as the raw driver's flows
 * (runner/drivers/mcp/flows.ts); the SDK decides the bytes, ids and extra requests.
 */
import type { McpFlowName } from "../declarations.js";
import { ProtocolError, type DriverContext } from "../types.js";
import { CONFIRMED, toolCallOf } from "../mcp/flows.js";

/** What a flow needs from an SDK client. */
export interface SdkClientLike {
  listTools(): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

function textOf(result: unknown): string | undefined {
  return (result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;
}

async function calls(c: SdkClientLike, ctx: DriverContext, n: number): Promise<void> {
  await c.listTools();
  const call = toolCallOf(ctx);
  for (let i = 0; i < n; i++) {
    const result = await c.callTool({ name: call.name, arguments: call.arguments });
    if ((result as { isError?: unknown } | undefined)?.isError === true)
      throw new ProtocolError(`tools/call of ${call.name} answered a tool error: ${JSON.stringify(result).slice(0, 200)}`);
    const got = textOf(result);
    if (call.echoed !== undefined && got !== call.echoed)
      throw new ProtocolError(`echo answered ${String(got).slice(0, 80)}, not the ${call.echoed.length}-byte text sent`);
  }
}

async function confirm(c: SdkClientLike): Promise<void> {
  const got = textOf(await c.callTool({ name: "confirm", arguments: {} }));
  if (got !== CONFIRMED) throw new ProtocolError(`confirm answered ${JSON.stringify(got)}, expected "${CONFIRMED}"`);
}

/**
 * Flow name → flow for SDK clients. `input` and `state` are one `confirm` call each: the SDK
 * answers the question through its elicitation handler (2025 era: a server→client request;
 * 2026-07-28: the client's automatic input_required retry, which echoes requestState itself).
 * Its type makes the names those of MCP_FLOWS (runner/drivers/declarations.ts).
 */
export const SDK_FLOWS: Record<string, (c: SdkClientLike, ctx: DriverContext) => Promise<void>> = {
  plain: (c, ctx) => calls(c, ctx, 1),
  ten: (c, ctx) => calls(c, ctx, 10),
  input: (c) => confirm(c),
  state: (c) => confirm(c),
} satisfies Record<McpFlowName, (c: SdkClientLike, ctx: DriverContext) => Promise<void>>;

/**
 * The flow named by `ctx.flow`.
 * @throws Error naming the known flows when there is none by that name
 */
export function sdkFlow(ctx: DriverContext): (c: SdkClientLike, ctx: DriverContext) => Promise<void> {
  const f = SDK_FLOWS[ctx.flow];
  if (!f) throw new Error(`sdk driver: unknown flow "${ctx.flow}" (flows: ${Object.keys(SDK_FLOWS).join(", ")})`);
  return f;
}

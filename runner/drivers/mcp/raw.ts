/**
 * The raw MCP driver (client `raw`): hand-written bytes, fixed request ids, strictly sequential.
 */
import { RAW_CLIENT } from "../declarations.js";
import type { Driver, DriverContext } from "../types.js";
import { answerServerRequest, FLOWS } from "./flows.js";
import { REVISIONS } from "./revision.js";
import { McpSession } from "./session.js";
import { HttpWire, StdioWire } from "./wires.js";

function flowOf(ctx: DriverContext) {
  const f = FLOWS[ctx.flow];
  if (!f) throw new Error(`raw driver: unknown flow "${ctx.flow}" (flows: ${Object.keys(FLOWS).join(", ")})`);
  return f;
}

/** The raw MCP driver. HTTP endpoint path: axis `path` if present, else `/mcp`. */
export const rawMcpDriver: Driver = {
  protocol: "mcp",
  flows: RAW_CLIENT.flows,
  revisions: REVISIONS,
  async stdio(channel, ctx) {
    const s = new McpSession(new StdioWire(channel, ctx.timeoutMs), ctx.revision, answerServerRequest);
    await s.open();
    await flowOf(ctx)(s, ctx);
  },
  async http(port, ctx) {
    const wire = new HttpWire(port, ctx.values.path ?? "/mcp", ctx.timeoutMs);
    try {
      const s = new McpSession(wire, ctx.revision, answerServerRequest);
      await s.open();
      await flowOf(ctx)(s, ctx);
    } finally {
      wire.close();
    }
  },
};

/**
 * The raw MCP driver (client `raw`): hand-written bytes, fixed request ids, strictly sequential;
 * it runs any flow the matrix declares (`flows:`, its steps in ./flows.ts). Over HTTP it speaks
 * Streamable HTTP, so revisions from 2025-03-26 (./revision.ts).
 */
import { ProtocolError, type Driver } from "../types.js";
import { answerServerRequest, runFlow } from "./flows.js";
import { hasStreamableHttp, noStreamableHttp, REVISIONS } from "./revision.js";
import { McpSession } from "./session.js";
import { HttpWire, StdioWire } from "./wires.js";

/** The raw MCP driver. HTTP endpoint path: axis `path` if present, else `/mcp`. */
export const rawMcpDriver: Driver = {
  protocol: "mcp",
  revisions: REVISIONS,
  async stdio(channel, ctx) {
    await runFlow(new McpSession(new StdioWire(channel, ctx.timeoutMs), ctx.revision, answerServerRequest), ctx);
  },
  async http(port, ctx) {
    if (!hasStreamableHttp(ctx.revision)) throw new ProtocolError(noStreamableHttp(ctx.revision));
    const wire = new HttpWire(port, ctx.values.path ?? "/mcp", ctx.timeoutMs);
    try {
      await runFlow(new McpSession(wire, ctx.revision, answerServerRequest), ctx);
    } finally {
      wire.close();
    }
  },
};

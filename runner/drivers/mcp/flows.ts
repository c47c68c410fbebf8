/**
 * MCP flows, transport- and revision-neutral. A flow is what a client does after the session
 * opens. Registry: one entry per flow name; adding a flow is one entry here.
 */
import type { DriverContext } from "../types.js";
import type { McpSession } from "./session.js";

/** A flow: the calls of one session. */
export type Flow = (s: McpSession, ctx: DriverContext) => Promise<void>;

/** Text for `echo`: `args` axis bytes of "x" when the axis exists, else "hello". */
function echoText(ctx: DriverContext): string {
  const n = ctx.values.args;
  return n === undefined ? "hello" : "x".repeat(Number(n));
}

async function calls(s: McpSession, ctx: DriverContext, n: number): Promise<void> {
  await s.request("tools/list");
  for (let i = 0; i < n; i++) await s.request("tools/call", { name: "echo", arguments: { text: echoText(ctx) } });
}

/** Flow name → flow. `plain`: tools/list + one tools/call (echo); `ten`: tools/list + ten. */
export const FLOWS: Record<string, Flow> = {
  plain: (s, ctx) => calls(s, ctx, 1),
  ten: (s, ctx) => calls(s, ctx, 10),
};

/**
 * The flows as an SDK client runs them: the steps the matrix declares (runner/matrix/flows.ts),
 * on a small surface both SDK generations provide (`listTools`, `callTool`, …). Same meaning as
 * the raw driver's steps (runner/drivers/mcp/flows.ts); the SDK decides the bytes, ids and extra
 * requests. `open` is the client's `connect`, made before the steps run; an input request is
 * answered through the client's elicitation handler (2025 era: a server→client request;
 * 2026-07-28: the client's automatic input_required retry, which echoes requestState itself, so
 * `requestStateBytesAxis` is not checked here). `end` is the transport's own way to end the
 * session: `terminateSession()` of the SDK's Streamable HTTP transport (a `DELETE` with the session
 * id when the server assigned one), or, over stdio, the channel transport's, which ends the
 * server's stdin.
 */
import type { FlowStep } from "../../matrix/flows.js";
import { jsonExcerpt, ProtocolError, type DriverContext } from "../types.js";
import { toolCallOf } from "../mcp/flows.js";

/** What a flow needs from an SDK client. */
export interface SdkClientLike {
  listTools(): Promise<unknown>;
  listResources(): Promise<unknown>;
  listPrompts(): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

function textOf(result: unknown): string | undefined {
  return (result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;
}

/** What ends a session for step `end`: the transport's `terminateSession` (both SDKs' HTTP transports, ./channel-transport.ts over stdio). */
export interface SessionEnder {
  terminateSession(): Promise<void>;
}

/**
 * Run one step through the SDK client (`open` is a no-op here: the client connected before).
 * @throws ProtocolError when an answer is not the one the step expects
 */
async function runStep(c: SdkClientLike, ctx: DriverContext, step: FlowStep, transport: SessionEnder): Promise<void> {
  switch (step.kind) {
    case "open":
      return;
    case "list-tools":
      await c.listTools();
      return;
    case "list-resources":
      await c.listResources();
      return;
    case "list-prompts":
      await c.listPrompts();
      return;
    case "read-resource":
      await c.readResource({ uri: step.uri });
      return;
    case "repeat":
      for (let i = 0; i < step.times; i++) await runStep(c, ctx, step.step, transport);
      return;
    case "end":
      return transport.terminateSession();
    case "call-tool": {
      const call = step.name === undefined ? toolCallOf(ctx) : { name: step.name, arguments: structuredClone(step.arguments ?? {}), echoed: undefined };
      const result = await c.callTool({ name: call.name, arguments: call.arguments });
      const want = call.echoed ?? (step.kind === "call-tool" && step.name !== undefined ? step.text : undefined);
      // A tool error is a result (MCP, "Tools" → "Error Handling"): counted where no particular answer is expected.
      if ((result as { isError?: unknown } | undefined)?.isError === true && want !== undefined)
        throw new ProtocolError(`tools/call of ${call.name} answered a tool error: ${jsonExcerpt(result, 200)}`);
      const got = textOf(result);
      if (want !== undefined && got !== want)
        throw new ProtocolError(`${call.name} answered ${JSON.stringify(got)?.slice(0, 80)}, expected ${JSON.stringify(want).slice(0, 80)}`);
      return;
    }
  }
}

/**
 * The configuration's flow (`ctx.steps`) as an SDK client runs it.
 * @throws Error when the configuration has no steps (expansion refuses a flow the matrix does not declare)
 */
export function sdkFlow(ctx: DriverContext): (c: SdkClientLike, ctx: DriverContext, transport: SessionEnder) => Promise<void> {
  const steps = ctx.steps;
  if (!steps) throw new Error(`sdk driver: flow "${ctx.flow}" has no steps — declare it under flows: in the matrix`);
  return async (c, cx, transport) => {
    for (const step of steps) await runStep(c, cx, step, transport);
  };
}

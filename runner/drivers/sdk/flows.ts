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
 * server's stdin. A JSON-RPC error answering a `tools/call` where the step expects no particular
 * answer is the server's answer, counted (as the raw driver does, runner/drivers/mcp/flows.ts;
 * `wirecost measure` names it as a finding): the SDK throws it, and the wire watch
 * (./revision-watch.ts) tells it from a failure of the client's own.
 */
import type { FlowStep } from "../../matrix/flows.js";
import { jsonExcerpt, ProtocolError, type DriverContext } from "../types.js";
import { toolCallOf } from "../mcp/flows.js";
import type { RevisionWatch } from "../mcp/revision.js";

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

/** What a step reads off the wire: the `tools/call` requests answered with a JSON-RPC error so far (RevisionWatch). */
export type WireWatch = Pick<RevisionWatch, "toolCallErrors">;

/**
 * Run one step through the SDK client (`open` is a no-op here: the client connected before).
 * @throws ProtocolError when an answer is not the one the step expects; the SDK's error when a
 *   `tools/call` failed other than by a JSON-RPC error answer, or by one where an answer was expected
 */
async function runStep(c: SdkClientLike, ctx: DriverContext, step: FlowStep, transport: SessionEnder, wire: WireWatch): Promise<void> {
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
      for (let i = 0; i < step.times; i++) await runStep(c, ctx, step.step, transport, wire);
      return;
    case "end":
      return transport.terminateSession();
    case "call-tool": {
      const call = step.name === undefined ? toolCallOf(ctx) : { name: step.name, arguments: structuredClone(step.arguments ?? {}), echoed: undefined };
      const want = call.echoed ?? (step.name !== undefined ? step.text : undefined);
      const errorsBefore = wire.toolCallErrors;
      let result: unknown;
      try {
        result = await c.callTool({ name: call.name, arguments: call.arguments });
      } catch (e) {
        if (want === undefined && wire.toolCallErrors > errorsBefore) return;
        throw e;
      }
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
export function sdkFlow(ctx: DriverContext): (c: SdkClientLike, ctx: DriverContext, transport: SessionEnder, wire: WireWatch) => Promise<void> {
  const steps = ctx.steps;
  if (!steps) throw new Error(`sdk driver: flow "${ctx.flow}" has no steps — declare it under flows: in the matrix`);
  return async (c, cx, transport, wire) => {
    for (const step of steps) await runStep(c, cx, step, transport, wire);
  };
}

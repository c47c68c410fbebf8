/**
 * MCP flows, transport- and revision-neutral. A flow is what a client does after the session
 * opens. Registry: one entry per flow name; adding a flow is one entry here and its name in
 * MCP_FLOWS (runner/drivers/declarations.ts, which the matrix checks read); the registry's type makes
 * the two agree.
 *
 * - `plain`: tools/list, then one tools/call of `echo` (or of the target's `tool:`, {@link toolCallOf}).
 * - `ten`: tools/list, then ten tools/call of `echo` (likewise).
 * - `input`: one tools/call of `confirm`, whose handler asks the user one question. 2025 era: the
 *   server sends `elicitation/create` (stdio: a line; HTTP: an SSE event on the call's open
 *   response) and the driver answers {@link CONFIRM_ANSWER}. 2026-07-28: an `input_required`
 *   result, then the same call retried (new id) with `inputResponses` and, when the result carried
 *   one, its `requestState` echoed byte-exact.
 * - `state`: like `input`; additionally, on 2026-07-28 the `requestState` must be exactly `state`
 *   axis bytes long (0 or no axis: absent).
 */
import type { McpFlowName } from "../declarations.js";
import { ProtocolError, type DriverContext } from "../types.js";
import { hasHandshake } from "./revision.js";
import type { JsonRpcMessage, McpSession } from "./session.js";

/** A flow: the calls of one session. @throws ProtocolError when an answer is not the expected one */
export type Flow = (s: McpSession, ctx: DriverContext) => Promise<void>;

/** The elicitation result every driver answers `confirm`'s question with (the bare ElicitResult). */
export const CONFIRM_ANSWER = { action: "accept", content: { confirm: true } } as const;

/** Key of `confirm`'s input request in a 2026-07-28 `inputRequests` map. */
export const CONFIRM_INPUT_KEY = "confirm";

/** Text `confirm` answers with when accepted. */
export const CONFIRMED = "confirmed: yes";

/**
 * Text for `echo`: `args` axis bytes of "x" when the axis exists, else "hello".
 * @throws ProtocolError when the axis value is not a whole number
 */
export function echoText(ctx: DriverContext): string {
  const n = ctx.values.args;
  if (n === undefined) return "hello";
  if (!/^\d+$/.test(n)) throw new ProtocolError(`axis args=${n} is not a byte count: use a whole number`);
  return "x".repeat(Number(n));
}

/**
 * The tool call a flow's `tools/call` makes: the target's `tool:` (its name and JSON arguments,
 * any answer that is not an error accepted), else `echo` with `{"text": echoText(ctx)}`, whose
 * answer must be that text (`echoed`).
 * @throws ProtocolError when the `args` axis value is not a whole number (echo only)
 */
export function toolCallOf(ctx: DriverContext): { name: string; arguments: Record<string, unknown>; echoed?: string } {
  if (ctx.tool) return { name: ctx.tool.name, arguments: structuredClone(ctx.tool.arguments) };
  const text = echoText(ctx);
  return { name: "echo", arguments: { text }, echoed: text };
}

/** Bytes of requestState the `state` flow expects (axis `state`; 0 when absent). */
export function expectedStateBytes(ctx: DriverContext): number {
  const n = ctx.values.state;
  return n === undefined || n === "" ? 0 : Number(n);
}

/** The elicitation answer to a server→client request: accept `elicitation/create`, refuse anything else. */
export function answerServerRequest(req: JsonRpcMessage): JsonRpcMessage {
  if (req.method === "elicitation/create") return { jsonrpc: "2.0", id: req.id, result: { ...CONFIRM_ANSWER } };
  return { jsonrpc: "2.0", id: req.id, error: { code: -32601, message: "Method not found" } };
}

function resultText(res: JsonRpcMessage): string | undefined {
  const content = (res.result as { content?: { text?: string }[] } | undefined)?.content;
  return content?.[0]?.text;
}

async function calls(s: McpSession, ctx: DriverContext, n: number): Promise<void> {
  await s.request("tools/list");
  const call = toolCallOf(ctx);
  for (let i = 0; i < n; i++) {
    const res = await s.request("tools/call", { name: call.name, arguments: call.arguments });
    if (call.echoed !== undefined && resultText(res) !== call.echoed)
      throw new ProtocolError(`echo answered ${JSON.stringify(resultText(res))?.slice(0, 80)}, not the ${call.echoed.length}-byte text sent`);
  }
}

/**
 * One confirm call, answered. Returns the requestState length seen (2026-07-28), else undefined.
 * @throws ProtocolError when the server neither asks nor answers "confirmed: yes"
 */
async function confirm(s: McpSession): Promise<number | undefined> {
  const params = { name: "confirm", arguments: {} };
  let res = await s.request("tools/call", params);
  let stateBytes: number | undefined;
  if (!hasHandshake(s.revision)) {
    const r = res.result as { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: unknown };
    if (r.resultType !== "input_required" || !r.inputRequests?.[CONFIRM_INPUT_KEY]) {
      throw new ProtocolError(
        `confirm (${s.revision}) answered resultType ${String(r.resultType)}, expected input_required with inputRequests.${CONFIRM_INPUT_KEY}`,
      );
    }
    const retry: Record<string, unknown> = { ...params, inputResponses: { [CONFIRM_INPUT_KEY]: { ...CONFIRM_ANSWER } } };
    if (r.requestState !== undefined) {
      if (typeof r.requestState !== "string") throw new ProtocolError("confirm's requestState is not a string");
      retry.requestState = r.requestState;
      stateBytes = Buffer.byteLength(r.requestState);
    } else stateBytes = 0;
    res = await s.request("tools/call", retry);
  }
  if (resultText(res) !== CONFIRMED) throw new ProtocolError(`confirm answered ${JSON.stringify(resultText(res))}, expected "${CONFIRMED}"`);
  return stateBytes;
}

/** Flow name → flow. */
export const FLOWS: Record<string, Flow> = {
  plain: (s, ctx) => calls(s, ctx, 1),
  ten: (s, ctx) => calls(s, ctx, 10),
  input: async (s) => {
    await confirm(s);
  },
  state: async (s, ctx) => {
    const got = await confirm(s);
    const want = expectedStateBytes(ctx);
    if (got !== undefined && got !== want) throw new ProtocolError(`confirm carried a ${got}-byte requestState; the state axis asks for ${want}`);
  },
} satisfies Record<McpFlowName, Flow>;

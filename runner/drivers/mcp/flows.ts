/**
 * The raw driver's steps (runner/matrix/flows.ts says what each kind does): a flow is the list of
 * steps the matrix declares, run in order over one session. Transport- and revision-neutral; the
 * session (./session.ts) puts the revision's handshake and `_meta` envelope on the wire.
 *
 * A `call-tool` step answers an input request the 2025 era's way (the server's
 * `elicitation/create`, answered by {@link answerServerRequest} with {@link CONFIRM_ANSWER}) or the
 * 2026-07-28 way (an `input_required` result: the same call retried, new id, with
 * `inputResponses` — each request accepted with {@link CONFIRM_ANSWER} — and, when the result
 * carried one, its `requestState` echoed byte-exact).
 */
import type { FlowStep } from "../../matrix/flows.js";
import { jsonExcerpt, ProtocolError, type DriverContext } from "../types.js";
import { hasHandshake } from "./revision.js";
import type { JsonRpcMessage, McpSession } from "./session.js";

/** The elicitation result every driver answers an input request with (the bare ElicitResult): accept, `confirm: true`. */
export const CONFIRM_ANSWER = { action: "accept", content: { confirm: true } } as const;

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

/** Bytes of requestState a step expects: the value of `axis` (0 when absent or empty). */
export function expectedStateBytes(ctx: DriverContext, axis = "state"): number {
  const n = ctx.values[axis];
  return n === undefined || n === "" ? 0 : Number(n);
}

/** The elicitation answer to a server→client request: accept `elicitation/create`, refuse anything else. */
export function answerServerRequest(req: JsonRpcMessage): JsonRpcMessage {
  if (req.method === "elicitation/create") return { jsonrpc: "2.0", id: req.id, result: { ...CONFIRM_ANSWER } };
  return { jsonrpc: "2.0", id: req.id, error: { code: -32601, message: "Method not found" } };
}

/** Pages of one listing a driver follows before it calls the server's `nextCursor` a loop. */
export const MAX_LIST_PAGES = 1000;

/**
 * A whole listing (`tools/list`, `resources/list`, `prompts/list`): the first page, then one
 * request per `nextCursor` the server gives, with that cursor as `params.cursor`, until an answer
 * carries none (MCP, "Utilities" → "Pagination": the cursor is opaque, its absence ends the
 * results). Every page is a request on the wire, counted like any other.
 * @returns each page's result, in order (one when the server does not paginate)
 * @throws ProtocolError when a `nextCursor` is not a string, when the server gives a cursor it gave
 *   before, or past {@link MAX_LIST_PAGES} pages; as `McpSession.request` otherwise
 */
export async function listAll(s: McpSession, method: string): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const res = await s.request(method, cursor === undefined ? undefined : { cursor });
    const result = res.result as Record<string, unknown>;
    pages.push(result);
    const next = result.nextCursor;
    if (next === undefined || next === null) return pages;
    if (typeof next !== "string")
      throw new ProtocolError(`${method} page ${pages.length} answered a nextCursor that is not a string: ${jsonExcerpt(next, 80)}`);
    if (seen.has(next))
      throw new ProtocolError(`${method} page ${pages.length} answered nextCursor ${jsonExcerpt(next, 80)}, which it gave before: the listing loops`);
    seen.add(next);
    cursor = next;
  } while (pages.length < MAX_LIST_PAGES);
  throw new ProtocolError(`${method}: still a nextCursor after ${MAX_LIST_PAGES} pages — not followed further`);
}

function resultText(res: JsonRpcMessage): string | undefined {
  const content = (res.result as { content?: { text?: string }[] } | undefined)?.content;
  return content?.[0]?.text;
}

/**
 * One tools/call, its input requests answered. Returns the requestState length seen on
 * 2026-07-28 when the answer was `input_required` (0 without one), else undefined.
 * @param toolError `accept` where the step expects no particular answer: a tool error
 *   (`isError: true`) is then a counted answer like any result (MCP, "Tools" → "Error Handling"),
 *   and so is a JSON-RPC error, which `wirecost measure` reports as a finding
 *   (runner/count/tool-catalog.ts toolErrorsOfRun)
 * @throws ProtocolError when `input: accept` was asked and no input request came (2026-07-28),
 *   or on a tool error with `toolError` `throw`
 */
async function callTool(
  s: McpSession,
  params: Record<string, unknown>,
  inputExpected: boolean,
  toolError: "throw" | "accept",
): Promise<{ res: JsonRpcMessage; stateBytes?: number }> {
  let res = await s.request("tools/call", params, { toolError });
  if (hasHandshake(s.revision) || res.error) return { res };
  const r = res.result as { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: unknown };
  if (r.resultType !== "input_required" || !r.inputRequests || Object.keys(r.inputRequests).length === 0) {
    if (inputExpected)
      throw new ProtocolError(`${String(params.name)} (${s.revision}) answered resultType ${String(r.resultType)}, expected input_required with inputRequests`);
    return { res };
  }
  const inputResponses = Object.fromEntries(Object.keys(r.inputRequests).map((k) => [k, { ...CONFIRM_ANSWER }]));
  const retry: Record<string, unknown> = { ...params, inputResponses };
  let stateBytes = 0;
  if (r.requestState !== undefined) {
    if (typeof r.requestState !== "string") throw new ProtocolError(`${String(params.name)}'s requestState is not a string`);
    retry.requestState = r.requestState;
    stateBytes = Buffer.byteLength(r.requestState);
  }
  res = await s.request("tools/call", retry, { toolError });
  return { res, stateBytes };
}

/**
 * Run one step over the session.
 * @throws ProtocolError when an answer is not the one the step expects
 */
export async function runStep(s: McpSession, ctx: DriverContext, step: FlowStep): Promise<void> {
  switch (step.kind) {
    case "open":
      return s.open();
    case "list-tools":
      await listAll(s, "tools/list");
      return;
    case "list-resources":
      await listAll(s, "resources/list");
      return;
    case "list-prompts":
      await listAll(s, "prompts/list");
      return;
    case "read-resource":
      await s.request("resources/read", { uri: step.uri });
      return;
    case "repeat":
      for (let i = 0; i < step.times; i++) await runStep(s, ctx, step.step);
      return;
    case "end":
      return s.end();
    case "call-tool": {
      if (step.name === undefined) {
        const call = toolCallOf(ctx);
        const { res } = await callTool(s, { name: call.name, arguments: call.arguments }, false, call.echoed === undefined ? "accept" : "throw");
        if (call.echoed !== undefined && resultText(res) !== call.echoed)
          throw new ProtocolError(`echo answered ${jsonExcerpt(resultText(res), 80)}, not the ${call.echoed.length}-byte text sent`);
        return;
      }
      const expectsAnswer = step.text !== undefined || step.input === "accept" || step.requestStateBytesAxis !== undefined;
      const { res, stateBytes } = await callTool(
        s,
        { name: step.name, arguments: structuredClone(step.arguments ?? {}) },
        step.input === "accept",
        expectsAnswer ? "throw" : "accept",
      );
      if (step.text !== undefined && resultText(res) !== step.text)
        throw new ProtocolError(`${step.name} answered ${jsonExcerpt(resultText(res), Number.POSITIVE_INFINITY)}, expected "${step.text}"`);
      if (step.requestStateBytesAxis !== undefined && stateBytes !== undefined) {
        const want = expectedStateBytes(ctx, step.requestStateBytesAxis);
        if (stateBytes !== want)
          throw new ProtocolError(`${step.name} carried a ${stateBytes}-byte requestState; the ${step.requestStateBytesAxis} axis asks for ${want}`);
      }
      return;
    }
  }
}

/**
 * Run the configuration's flow (`ctx.steps`) over the session.
 * @throws Error when the configuration has no steps (expansion refuses a flow the matrix does not declare)
 * @throws ProtocolError as {@link runStep}
 */
export async function runFlow(s: McpSession, ctx: DriverContext): Promise<void> {
  if (!ctx.steps) throw new Error(`raw driver: flow "${ctx.flow}" has no steps — declare it under flows: in the matrix`);
  for (const step of ctx.steps) await runStep(s, ctx, step);
}

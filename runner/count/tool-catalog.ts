/**
 * What a server's tool catalog costs a model's context: each tool definition of a `tools/list`
 * answer, its bytes exactly as the server sent them (the array item's span in the message, found
 * with the counting's own JSON scanner) and its tokens under each tokenizer of ./tokens.ts.
 * Read from a run's capture log, stdio or HTTP: the answer is the JSON-RPC message the count finds
 * (its own text in the stream, as the per-message table has it); an answer whose text a chunk
 * boundary or an SSE data line splits is not read, and the reason says so.
 */
import { readCaptureStreams } from "../capture/log.js";
import { countStreams } from "./index.js";
import { firstMember, keyIs, member, nextMember, skipValue, skipWs } from "./json-scan.js";
import { countAllTokens, type EncodingName } from "./tokens.js";

/** One tool definition as a tools/list answer carried it. */
export interface ToolDefinitionCost {
  /** The tool's `name`. */
  name: string;
  /** Bytes of the definition (the JSON object, as sent). */
  definitionBytes: number;
  /** Tokens of the same text, per encoding; undefined when not counted (a run too long for the tokenizer, runner/count/tokens.ts). */
  tokens: Record<EncodingName, number> | undefined;
}

/**
 * The tool definitions of the `result.tools` array of one JSON-RPC message, with their spans.
 * @returns the definitions in order, or undefined when the message has no `result.tools` array
 * @throws JsonScanError on a message that is not JSON
 */
export function toolDefinitionsOf(message: Buffer): ToolDefinitionCost[] | undefined {
  const end = message.length;
  const start = skipWs(message, 0, end);
  if (message[start] !== 0x7b) return undefined;
  const memberValue = (p: number, key: string): number | undefined => {
    for (let more = firstMember(message, p, end); more; more = nextMember(message, skipValue(message, member.vs, end), end)) {
      if (keyIs(message, member.ks, member.ke, key)) return member.vs;
    }
    return undefined;
  };
  const result = memberValue(start, "result");
  if (result === undefined || message[result] !== 0x7b) return undefined;
  const tools = memberValue(result, "tools");
  if (tools === undefined || message[tools] !== 0x5b) return undefined;
  const out: ToolDefinitionCost[] = [];
  let p = skipWs(message, tools + 1, end);
  while (p < end && message[p] !== 0x5d) {
    const q = skipValue(message, p, end);
    const text = message.subarray(p, q).toString("utf8");
    const name = (JSON.parse(text) as { name?: unknown }).name;
    out.push({
      name: typeof name === "string" ? name : "",
      definitionBytes: q - p,
      tokens: countAllTokens(text),
    });
    p = skipWs(message, q, end);
    if (message[p] === 0x2c) p = skipWs(message, p + 1, end);
  }
  return out;
}

/**
 * The text of every server→client answer to `method` in a run's capture log, in log order
 * (undefined where framing splits it): its results, or with `kinds` its JSON-RPC errors too.
 */
function answersOfRun(
  path: string,
  transport: "http" | "stdio",
  method: string,
  kinds: readonly string[] = ["result"],
): { kind: string; text: Buffer | undefined }[] {
  const streams = readCaptureStreams(path);
  return countStreams(streams, { transport })
    .messages.toRows()
    .filter((m) => m.dir === "s2c" && kinds.includes(m.kind) && m.method === method)
    .map((m) => {
      const bytes = streams.find((s) => s.conn === m.conn && s.dir === "s2c")?.bytes;
      const text = bytes?.subarray(m.offset, m.offset + m.bodyBytes);
      try {
        if (text !== undefined) JSON.parse(text.toString("utf8"));
        return { kind: m.kind, text };
      } catch {
        return { kind: m.kind, text: undefined };
      }
    });
}

/** Does a tools/list answer (one JSON-RPC message) carry a string `result.nextCursor` (MCP, "Utilities" → "Pagination")? */
function hasNextCursor(message: Buffer): boolean {
  try {
    return typeof (JSON.parse(message.toString("utf8")) as { result?: { nextCursor?: unknown } }).result?.nextCursor === "string";
  } catch {
    return false;
  }
}

/**
 * The tool definitions of the first whole tools/list listing of a run: the first server→client
 * result of method tools/list in the count of its capture log, and, while an answer carries a
 * `nextCursor`, the pages after it (MCP, "Utilities" → "Pagination"), in order.
 * @param transport how the log's bytes travelled
 * @returns the definitions, or why there are none (no answer, no `result.tools`, a split text)
 * @throws CaptureLogError for a log that cannot be read
 */
export function toolCatalogOfRun(path: string, transport: "http" | "stdio"): ToolDefinitionCost[] | { reason: string } {
  const answers = answersOfRun(path, transport, "tools/list");
  if (answers.length === 0) return { reason: "the log holds no tools/list answer" };
  const tools: ToolDefinitionCost[] = [];
  for (const answer of answers) {
    if (answer.text === undefined) return { reason: "the tools/list answer's text is split by chunk framing or SSE data lines: not read" };
    const page = toolDefinitionsOf(answer.text);
    if (page === undefined) return { reason: "the tools/list answer holds no result.tools array" };
    tools.push(...page);
    if (!hasNextCursor(answer.text)) break;
  }
  return tools;
}

/** Characters of a tool error's text kept in a finding (the rest is cut, `…` in its place). */
export const TOOL_ERROR_TEXT_CHARS = 120;

/** A text from the wire cut at {@link TOOL_ERROR_TEXT_CHARS} characters. */
const cut = (said: string): string => (said.length > TOOL_ERROR_TEXT_CHARS ? `${said.slice(0, TOOL_ERROR_TEXT_CHARS)}…` : said);

/** A text from the wire cut at {@link TOOL_ERROR_TEXT_CHARS} characters, as JSON (quoted, escaped). */
const cutText = (said: string): string => JSON.stringify(cut(said));

/**
 * The tool errors of a run, one sentence per tools/call answer that is one, in log order:
 * - a result that says `isError: true` (MCP, "Tools" → "Error Handling": a tool error is a result,
 *   counted like any other): `the tool answered isError: true: <its first text content>`;
 * - a JSON-RPC error (JSON-RPC 2.0, "Error object"; MCP's answer to an unknown tool or invalid
 *   arguments, and some servers' to a failing tool): `the server answered tools/call with JSON-RPC
 *   error <code>: <its message>`, then `(data: <its JSON>)` when it carries `data`.
 * Texts are cut at 120 characters and quoted as JSON. They come from the wire: whoever prints them
 * escapes them.
 * @returns the sentences (empty when none)
 * @throws CaptureLogError for a log that cannot be read
 */
export function toolErrorsOfRun(path: string, transport: "http" | "stdio"): string[] {
  return answersOfRun(path, transport, "tools/call", ["result", "error"]).flatMap(({ kind, text }) => {
    if (text === undefined) return [];
    const message = JSON.parse(text.toString("utf8")) as {
      result?: { isError?: unknown; content?: { type?: unknown; text?: unknown }[] };
      error?: { code?: unknown; message?: unknown; data?: unknown };
    };
    if (kind === "error") {
      const e = message.error;
      const code = typeof e?.code === "number" ? String(e.code) : `with code ${JSON.stringify(e?.code ?? null)}`;
      const said = typeof e?.message === "string" ? cutText(e.message) : "(no message)";
      const data = e?.data === undefined ? "" : ` (data: ${cut(JSON.stringify(e.data))})`;
      return [`the server answered tools/call with JSON-RPC error ${code}: ${said}${data}`];
    }
    const result = message.result;
    if (result?.isError !== true) return [];
    const first = Array.isArray(result.content) ? result.content.find((c) => c?.type === "text" && typeof c.text === "string") : undefined;
    return [`the tool answered isError: true: ${typeof first?.text === "string" ? cutText(first.text) : "(no text content)"}`];
  });
}

/**
 * The tool definitions of the first tools/list answer in a stdio capture log.
 * @returns undefined when the log holds none
 * @throws CaptureLogError for a log that cannot be read
 */
export function toolCatalogOfLog(path: string): ToolDefinitionCost[] | undefined {
  const tools = toolCatalogOfRun(path, "stdio");
  return Array.isArray(tools) ? tools : undefined;
}

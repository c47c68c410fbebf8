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
 * The tool definitions of the first tools/list answer of a run (the first server→client result
 * of method tools/list in the count of its capture log).
 * @param transport how the log's bytes travelled
 * @returns the definitions, or why there are none (no answer, no `result.tools`, a split text)
 * @throws CaptureLogError for a log that cannot be read
 */
export function toolCatalogOfRun(path: string, transport: "http" | "stdio"): ToolDefinitionCost[] | { reason: string } {
  const streams = readCaptureStreams(path);
  const answer = countStreams(streams, { transport })
    .messages.toRows()
    .find((m) => m.dir === "s2c" && m.kind === "result" && m.method === "tools/list");
  if (answer === undefined) return { reason: "the log holds no tools/list answer" };
  const bytes = streams.find((s) => s.conn === answer.conn && s.dir === "s2c")?.bytes;
  if (bytes === undefined) return { reason: "the log holds no tools/list answer" };
  try {
    return (
      toolDefinitionsOf(bytes.subarray(answer.offset, answer.offset + answer.bodyBytes)) ?? { reason: "the tools/list answer holds no result.tools array" }
    );
  } catch {
    return { reason: "the tools/list answer's text is split by chunk framing or SSE data lines: not read" };
  }
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

/**
 * What a server's tool catalog costs a model's context: each tool definition of a `tools/list`
 * answer, its bytes exactly as the server sent them (the array item's span in the message, found
 * with the counting's own JSON scanner) and its tokens under each tokenizer of ./tokens.ts.
 * Read from a stdio capture log (one JSON-RPC message per line); an HTTP log's bodies are framed
 * (chunks, event fields) and are not read here.
 */
import { readCaptureStreams } from "../capture/log.js";
import { firstMember, keyIs, member, nextMember, skipValue, skipWs } from "./json-scan.js";
import { splitStdioLines } from "./stdio.js";
import { countTokens, ENCODINGS, type EncodingName } from "./tokens.js";

/** One tool definition as a tools/list answer carried it. */
export interface ToolDefinitionCost {
  /** The tool's `name`. */
  name: string;
  /** Bytes of the definition (the JSON object, as sent). */
  definitionBytes: number;
  /** Tokens of the same text, per encoding. */
  tokens: Record<EncodingName, number>;
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
      tokens: Object.fromEntries(ENCODINGS.map((e) => [e, countTokens(text, e)])) as Record<EncodingName, number>,
    });
    p = skipWs(message, q, end);
    if (message[p] === 0x2c) p = skipWs(message, p + 1, end);
  }
  return out;
}

/**
 * The tool definitions of the first tools/list answer in a stdio capture log (server→client
 * lines, the first holding a `result.tools` array).
 * @returns undefined when the log holds none (an HTTP log, or no tools/list answered)
 * @throws CaptureLogError for a log that cannot be read
 */
export function toolCatalogOfLog(path: string): ToolDefinitionCost[] | undefined {
  for (const stream of readCaptureStreams(path)) {
    if (stream.dir !== "s2c") continue;
    for (const [s, e] of splitStdioLines(stream.bytes).lines) {
      const line = stream.bytes.subarray(s, e);
      if (!line.includes('"tools"')) continue;
      try {
        const tools = toolDefinitionsOf(line);
        if (tools) return tools;
      } catch {
        /* a line that is not JSON: not the answer */
      }
    }
  }
  return undefined;
}

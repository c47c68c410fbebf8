/**
 * A tiny HTTP/1.1 head reader over a capture log (`logs/<config>/<repeat>.jsonl`): it rebuilds
 * each connection's byte stream per direction and lists the message heads in order, skipping
 * bodies by `Content-Length` or chunked framing. It only reads a results file; the counting
 * proper lives in the runner.
 */
import { existsSync, readFileSync } from "node:fs";

/** One HTTP head as it stood on the wire. */
export interface HttpHead {
  /** Request or status line, e.g. `POST /mcp HTTP/1.1`, `HTTP/1.1 200 OK`. */
  startLine: string;
  /** Header names and values in wire order, names as spelled on the wire. */
  headers: ReadonlyArray<readonly [name: string, value: string]>;
}

/** Heads per `<conn>:<dir>` key (e.g. `1:c2s`), in stream order. */
export type HeadsByStream = ReadonlyMap<string, readonly HttpHead[]>;

/**
 * Read the HTTP heads of every connection and direction in a capture log.
 * @param file path of a `.jsonl` capture log
 * @returns heads per `conn:dir`; an empty map when the file is missing; a stream whose bytes do
 *   not parse as HTTP/1.1 yields the heads read before the first unparsable byte
 */
export function readHeads(file: string): HeadsByStream {
  const out = new Map<string, HttpHead[]>();
  if (!existsSync(file)) return out;
  const streams = new Map<string, Buffer[]>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let rec: { conn?: unknown; dir?: unknown; b64?: unknown };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      continue;
    }
    if (typeof rec.b64 !== "string" || (rec.dir !== "c2s" && rec.dir !== "s2c")) continue;
    const key = `${typeof rec.conn === "number" ? rec.conn : 0}:${rec.dir}`;
    const list = streams.get(key) ?? [];
    list.push(Buffer.from(rec.b64, "base64"));
    streams.set(key, list);
  }
  for (const [key, chunks] of streams) out.set(key, parseHeads(Buffer.concat(chunks)));
  return out;
}

/** Split a byte stream into HTTP/1.1 heads, skipping bodies. */
function parseHeads(buf: Buffer): HttpHead[] {
  const heads: HttpHead[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const end = buf.indexOf("\r\n\r\n", pos, "latin1");
    if (end < 0) break;
    const lines = buf.toString("latin1", pos, end).split("\r\n");
    const startLine = lines[0] ?? "";
    if (!/^(?:[A-Z]+ \S+ HTTP\/1\.[01]|HTTP\/1\.[01] [0-9]{3}.*)$/.test(startLine)) break;
    const headers = lines.slice(1).map((l) => {
      const colon = l.indexOf(":");
      return colon < 0 ? ([l, ""] as const) : ([l.slice(0, colon), l.slice(colon + 1).trim()] as const);
    });
    heads.push({ startLine, headers });
    pos = end + 4;
    const get = (name: string): string | undefined =>
      headers.find(([n]) => n.toLowerCase() === name)?.[1];
    const status = /^HTTP\/1\.[01] ([0-9]{3})/.exec(startLine)?.[1];
    if (status !== undefined && (status.startsWith("1") || status === "204" || status === "304")) continue;
    if (/chunked/i.test(get("transfer-encoding") ?? "")) {
      for (;;) {
        const lineEnd = buf.indexOf("\r\n", pos, "latin1");
        if (lineEnd < 0) return heads;
        const size = parseInt(buf.toString("latin1", pos, lineEnd), 16);
        if (Number.isNaN(size)) return heads;
        pos = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      continue;
    }
    const length = get("content-length");
    if (length !== undefined) {
      pos += Number(length);
      continue;
    }
    if (status !== undefined) break; // a response read to the end of the stream
  }
  return heads;
}

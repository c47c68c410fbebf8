/**
 * The capture-log format (DESIGN.md, "Capture-log format"): one JSON object per line,
 * `{"conn": N, "seq": N, "dir": "c2s"|"s2c", "b64": "…"}` for a chunk of bytes as it crossed
 * the relay or tap, or `{"conn": N, "seq": N, "dir": …, "eof": true}` when that direction ended.
 * `seq` is one counter over all connections; stdio logs may omit `conn`.
 * This is the line format of the relay published with the mcp-on-the-wire write-up.
 */
import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";

/** Direction of a chunk: client to server, or server to client. */
export type Direction = "c2s" | "s2c";

/** One line of a capture log: a chunk of bytes (base64) or the end of one direction. */
export interface CaptureRecord {
  /** Connection number, from 1 (HTTP); absent or 0 for stdio. */
  conn?: number;
  /** Position in the log, one counter over all connections, from 1. */
  seq: number;
  dir: Direction;
  /** The chunk's bytes, base64; absent on an eof record. */
  b64?: string;
  /** True when this direction of the connection ended (half-close). */
  eof?: true;
}

/** Thrown when a capture log line is not a valid record; names the file and line. */
export class CaptureLogError extends Error {
  override name = "CaptureLogError";
}

/** A log line in the usual key order and spacing; anything else goes through JSON.parse. */
const FAST_LINE = /^\{(?:"conn": ?(\d{1,15}), ?)?"seq": ?(\d{1,15}), ?"dir": ?"(c2s|s2c)", ?(?:"b64": ?"([A-Za-z0-9+/=]*)"|"eof": ?true)\}\r?$/;

/**
 * Parse capture-log text into records, in file order.
 * @param text the whole log (UTF-8 JSON lines; a trailing newline is optional)
 * @param source file name used in error messages
 * @throws CaptureLogError naming `source:line` when a line is not JSON or lacks `seq`/`dir`
 */
export function parseCaptureLog(text: string, source = "<log>"): CaptureRecord[] {
  const records: CaptureRecord[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Fast path: the shape this tool and the Python relay write (either spacing), no JSON.parse.
    const m = FAST_LINE.exec(line);
    if (m) {
      const r: CaptureRecord = { seq: Number(m[2]), dir: m[3] as Direction };
      if (m[1] !== undefined) r.conn = Number(m[1]);
      if (m[4] !== undefined) r.b64 = m[4];
      else r.eof = true;
      records.push(r);
      continue;
    }
    if (line.trim() === "") continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new CaptureLogError(`${source}:${i + 1}: not a JSON object; each line must be {"conn","seq","dir","b64"|"eof"}`);
    }
    const r = obj as Partial<CaptureRecord>;
    if (typeof r !== "object" || r === null || typeof r.seq !== "number" || (r.dir !== "c2s" && r.dir !== "s2c")) {
      throw new CaptureLogError(`${source}:${i + 1}: a record needs a numeric "seq" and "dir" of "c2s" or "s2c"`);
    }
    if (r.eof !== true && typeof r.b64 !== "string") {
      throw new CaptureLogError(`${source}:${i + 1}: a record needs "b64" (bytes) or "eof": true`);
    }
    records.push(r as CaptureRecord);
  }
  return records;
}

/** Read and parse a capture log file. @throws CaptureLogError, or the fs error if unreadable. */
export function readCaptureLog(path: string): CaptureRecord[] {
  const buf = readFileSync(path);
  // A log is ASCII (JSON keys, numbers, base64): decode it as latin1, much faster than UTF-8.
  return parseCaptureLog(isAscii(buf) ? buf.toString("latin1") : buf.toString("utf8"), path);
}

/** Serialise one record as a log line (with its trailing newline), key order conn, seq, dir, b64|eof. */
export function formatRecord(r: CaptureRecord): string {
  const o: Record<string, unknown> = {};
  if (r.conn !== undefined) o.conn = r.conn;
  o.seq = r.seq;
  o.dir = r.dir;
  if (r.eof) o.eof = true;
  else o.b64 = r.b64;
  return JSON.stringify(o) + "\n";
}

/** One direction of one connection, reassembled: the bytes in order and whether it ended. */
export interface Stream {
  conn: number;
  dir: Direction;
  bytes: Buffer;
  ended: boolean;
  /** seq of each chunk with its byte offset within `bytes`, for ordering across directions. */
  chunks: { seq: number; offset: number; length: number }[];
}

/**
 * Reassemble a log into streams keyed `${conn}:${dir}` (conn 0 when absent), sorted by conn then dir.
 * Chunks are concatenated in `seq` order.
 */
export function reassemble(records: CaptureRecord[]): Stream[] {
  // Already in seq order (as a log is written) needs no sorted copy.
  let inOrder = true;
  for (let i = 1; i < records.length && inOrder; i++) inOrder = records[i - 1]!.seq <= records[i]!.seq;
  const sorted = inOrder ? records : [...records].sort((a, b) => a.seq - b.seq);
  // Two passes: size each stream, then decode every chunk straight into one buffer per stream
  // (no per-chunk buffers, no concatenation copy).
  const parts = new Map<string, { conn: number; dir: Direction; recs: CaptureRecord[]; ended: boolean; size: number }>();
  for (const r of sorted) {
    const conn = r.conn ?? 0;
    const key = `${conn}:${r.dir}`;
    let p = parts.get(key);
    if (!p) {
      p = { conn, dir: r.dir, recs: [], ended: false, size: 0 };
      parts.set(key, p);
    }
    if (r.eof) {
      p.ended = true;
      continue;
    }
    p.recs.push(r);
    p.size += Buffer.byteLength(r.b64 ?? "", "base64");
  }
  return [...parts.values()]
    .sort((a, b) => a.conn - b.conn || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
    .map((p) => {
      let bytes = Buffer.allocUnsafe(p.size);
      const chunks: Stream["chunks"] = [];
      let size = 0;
      for (const r of p.recs) {
        const n = bytes.write(r.b64 ?? "", size, "base64");
        chunks.push({ seq: r.seq, offset: size, length: n });
        size += n;
      }
      if (size < p.size) bytes = bytes.subarray(0, size); // byteLength over-estimates odd base64
      return { conn: p.conn, dir: p.dir, bytes, ended: p.ended, chunks };
    });
}

/**
 * Log `seq` of the chunk of `stream` that holds byte `offset` (an offset at or past the end maps
 * to the last chunk; 0 when the stream has no chunks).
 */
export function seqAtOffset(stream: Pick<Stream, "chunks">, offset: number): number {
  const chunks = stream.chunks;
  let lo = 0;
  let hi = chunks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (chunks[mid]!.offset <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? (chunks[0]?.seq ?? 0) : chunks[found]!.seq;
}

/**
 * The capture-log format (ARCHITECTURE.md, "Capture-log format"): one JSON object per line,
 * `{"conn": N, "seq": N, "dir": "c2s"|"s2c", "b64": "…"}` for a chunk of bytes as it crossed
 * the relay or tap, or `{"conn": N, "seq": N, "dir": …, "eof": true}` when that direction ended.
 * `seq` is one counter over all connections; stdio logs may omit `conn`.
 * This is the line format of the relay published with the mcp-on-the-wire write-up.
 */
import { closeSync, openSync, readSync } from "node:fs";

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

/** Base64 (RFC 4648 §4) with or without its trailing padding, nothing else. */
const B64_TEXT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** @throws CaptureLogError naming `source:lineNo` when `b64` is not base64 (its bytes would be lost silently). */
function checkBase64(b64: string, source: string, lineNo: number): void {
  if (!B64_TEXT.test(b64)) {
    const shown = b64.length > 24 ? `${JSON.stringify(b64.slice(0, 24))}…` : JSON.stringify(b64);
    throw new CaptureLogError(`${source}:${lineNo}: "b64" must be base64 (A–Z a–z 0–9 + /, "=" padding only at the end), got ${shown}`);
  }
}

/**
 * Parse one log line (no "\n"; a trailing "\r" is allowed) into a record, or undefined for a
 * blank line.
 * @throws CaptureLogError naming `source:lineNo`
 */
function parseLine(line: string, source: string, lineNo: number): CaptureRecord | undefined {
  // Fast path: the shape this tool and the Python relay write (either spacing), no JSON.parse.
  const m = FAST_LINE.exec(line);
  if (m) {
    const r: CaptureRecord = { seq: Number(m[2]), dir: m[3] as Direction };
    if (m[1] !== undefined) r.conn = Number(m[1]);
    if (m[4] !== undefined) {
      checkBase64(m[4], source, lineNo);
      r.b64 = m[4];
    } else r.eof = true;
    return r;
  }
  if (line.trim() === "") return undefined;
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    throw new CaptureLogError(`${source}:${lineNo}: not a JSON object; each line must be {"conn","seq","dir","b64"|"eof"}`);
  }
  const r = obj as Partial<CaptureRecord>;
  if (typeof r !== "object" || r === null || typeof r.seq !== "number" || (r.dir !== "c2s" && r.dir !== "s2c")) {
    throw new CaptureLogError(`${source}:${lineNo}: a record needs a numeric "seq" and "dir" of "c2s" or "s2c"`);
  }
  if ((r.eof === true) === (typeof r.b64 === "string") || (r.eof !== undefined && r.eof !== true)) {
    throw new CaptureLogError(`${source}:${lineNo}: a record needs either "b64" (bytes) or "eof": true, not both`);
  }
  const count = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  if (!count(r.seq) || (r.conn !== undefined && !count(r.conn))) {
    throw new CaptureLogError(`${source}:${lineNo}: "seq" and "conn" must be whole numbers from 0 to 2^53 - 1`);
  }
  if (r.b64 !== undefined) checkBase64(r.b64, source, lineNo);
  return r as CaptureRecord;
}

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
    const r = parseLine(lines[i]!, source, i + 1);
    if (r) records.push(r);
  }
  return records;
}

/** 1 for the bytes of the base64 alphabet (with "="), as FAST_LINE accepts them. */
const B64_BYTE = new Uint8Array(256);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") B64_BYTE[c.charCodeAt(0)] = 1;

/** Fields of the line last accepted by {@link scanLine} (one scratch object, no allocation per line). */
const line = { conn: -1, seq: 0, dir: "c2s" as Direction, b64Start: 0, b64End: 0, eof: false };

/** The literals {@link scanLine} expects, as bytes. */
const LIT = {
  open: Buffer.from("{"),
  conn: Buffer.from('"conn":'),
  comma: Buffer.from(","),
  seq: Buffer.from('"seq":'),
  dir: Buffer.from('"dir":'),
  c2s: Buffer.from('"c2s"'),
  s2c: Buffer.from('"s2c"'),
  eof: Buffer.from('"eof":'),
  true: Buffer.from("true}"),
  b64: Buffer.from('"b64":'),
  quote: Buffer.from('"'),
};

/** Index past the bytes `lit` when buf[p, e) starts with them, else -1. */
function expect(buf: Buffer, p: number, e: number, lit: Uint8Array): number {
  const n = lit.length;
  if (p < 0 || p + n > e) return -1;
  for (let k = 0; k < n; k++) if (buf[p + k] !== lit[k]) return -1;
  return p + n;
}

/** Index past an optional single space at buf[p]. */
function space(buf: Buffer, p: number): number {
  return buf[p] === 0x20 ? p + 1 : p;
}

/** Value of the digits last read by {@link digits}. */
let num = 0;

/** Read 1–15 decimal digits at buf[p] (value into `num`); index past them, or -1. */
function digits(buf: Buffer, p: number, e: number): number {
  let v = 0;
  let k = p;
  while (k < e && k - p < 16) {
    const c = buf[k]! - 0x30;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
    k++;
  }
  if (k === p || k - p > 15) return -1;
  num = v;
  return k;
}

/**
 * Byte-level twin of FAST_LINE over buf[s, e) (e at the "\n" or the end): accepts exactly the
 * lines FAST_LINE accepts and fills {@link line}; false sends the line to {@link parseLine}.
 * With `alphabet` false the payload's bytes are not checked against the base64 alphabet: the
 * caller then checks instead that the payload decodes to exactly 3 bytes per 4 characters less
 * the padding, which any byte outside the alphabet breaks (the decoder skips it).
 */
function scanLine(buf: Buffer, s: number, e: number, alphabet = true): boolean {
  if (e > s && buf[e - 1] === 0x0d) e--;
  let p = expect(buf, s, e, LIT.open);
  if (p < 0) return false;
  line.conn = -1;
  let q = expect(buf, p, e, LIT.conn);
  if (q >= 0) {
    q = digits(buf, space(buf, q), e);
    if (q < 0) return false;
    line.conn = num;
    q = expect(buf, q, e, LIT.comma);
    if (q < 0) return false;
    p = space(buf, q);
  }
  p = expect(buf, p, e, LIT.seq);
  if (p < 0) return false;
  p = digits(buf, space(buf, p), e);
  if (p < 0) return false;
  line.seq = num;
  p = expect(buf, p, e, LIT.comma);
  if (p < 0) return false;
  p = expect(buf, space(buf, p), e, LIT.dir);
  if (p < 0) return false;
  p = space(buf, p);
  if (expect(buf, p, e, LIT.c2s) >= 0) line.dir = "c2s";
  else if (expect(buf, p, e, LIT.s2c) >= 0) line.dir = "s2c";
  else return false;
  p = expect(buf, p + 5, e, LIT.comma);
  if (p < 0) return false;
  p = space(buf, p);
  q = expect(buf, p, e, LIT.eof);
  if (q >= 0) {
    line.eof = true;
    return expect(buf, space(buf, q), e, LIT.true) === e;
  }
  p = expect(buf, p, e, LIT.b64);
  if (p < 0) return false;
  p = expect(buf, space(buf, p), e, LIT.quote);
  if (p < 0) return false;
  // The payload must end the line as `"}`, every byte before that in the base64 alphabet.
  const end = e - 2;
  if (end < p || buf[end] !== 0x22 || buf[end + 1] !== 0x7d) return false;
  if (alphabet) for (let k = p; k < end; k++) if (B64_BYTE[buf[k]!] === 0) return false;
  line.eof = false;
  line.b64Start = p;
  line.b64End = end;
  return true;
}

/** Bytes read from a log file per read call. */
const READ_CHUNK = 1 << 20;
/** The read buffer, reused across calls (a log is read in chunks, never whole). */
let readBuf = Buffer.allocUnsafe(2 * READ_CHUNK);

/**
 * Call `each(buf, start, end, lineNo)` for every line of the file (end at its "\n", or at the end
 * of a last line without one). `buf` is reused: take what is needed from it before returning.
 */
function forEachLine(path: string, each: (buf: Buffer, start: number, end: number, lineNo: number) => void): void {
  const fd = openSync(path, "r");
  try {
    let have = 0;
    let lineNo = 0;
    for (;;) {
      if (readBuf.length - have < READ_CHUNK) {
        const bigger = Buffer.allocUnsafe(Math.max(2 * readBuf.length, have + READ_CHUNK));
        readBuf.copy(bigger, 0, 0, have);
        readBuf = bigger;
      }
      const buf = readBuf;
      const n = readSync(fd, buf, have, READ_CHUNK, null);
      if (n === 0) {
        if (have > 0) each(buf, 0, have, ++lineNo);
        return;
      }
      have += n;
      let p = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, p);
        if (nl < 0 || nl >= have) break;
        each(buf, p, nl, ++lineNo);
        p = nl + 1;
      }
      if (p > 0) {
        buf.copy(buf, 0, p, have);
        have -= p;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Parse a line that {@link scanLine} did not take (decoded as UTF-8, as a non-ASCII log is). */
function slowLine(buf: Buffer, s: number, e: number, source: string, lineNo: number): CaptureRecord | undefined {
  return parseLine(buf.toString("utf8", s, e), source, lineNo);
}

/**
 * Read and parse a capture log file, in chunks (never the whole file as one string): the same
 * records as {@link parseCaptureLog} of the file's text.
 * @throws CaptureLogError naming `path:line`, or the fs error if unreadable
 */
export function readCaptureLog(path: string): CaptureRecord[] {
  const records: CaptureRecord[] = [];
  forEachLine(path, (buf, s, e, lineNo) => {
    if (scanLine(buf, s, e)) {
      const r: CaptureRecord = { seq: line.seq, dir: line.dir };
      if (line.conn >= 0) r.conn = line.conn;
      if (line.eof) r.eof = true;
      else {
        r.b64 = buf.toString("latin1", line.b64Start, line.b64End);
        checkBase64(r.b64, path, lineNo);
      }
      records.push(r);
      return;
    }
    const r = slowLine(buf, s, e, path, lineNo);
    if (r) records.push(r);
  });
  return records;
}

/** Smallest stream buffer taken from a {@link BufferPool}, bytes. */
const MIN_STREAM_BUFFER = 4096;

/**
 * Buffers recycled by size (powers of two from 4 KiB), so that a log of many connections reuses
 * the memory of the ones already counted: first use of fresh memory costs a page fault per 4 KiB,
 * which on a VM costs more than decoding into it.
 */
class BufferPool {
  private readonly free = new Map<number, Buffer[]>();

  /** A buffer of at least `min` bytes (contents undefined). */
  take(min: number): Buffer {
    let size = MIN_STREAM_BUFFER;
    while (size < min) size *= 2;
    return this.free.get(size)?.pop() ?? Buffer.allocUnsafeSlow(size);
  }

  /** Give back a buffer from {@link take}; nothing may use it afterwards. */
  give(b: Buffer): void {
    const list = this.free.get(b.length);
    if (list) list.push(b);
    else this.free.set(b.length, [b]);
  }
}

/** A stream being read by {@link scanCaptureStreams}: its bytes so far in a pooled buffer. */
interface OpenStream {
  conn: number;
  dir: Direction;
  buf: Buffer;
  size: number;
  ended: boolean;
  chunkSeq: number[];
  chunkOffset: number[];
}

/**
 * The {@link Stream} of an open stream: its bytes are a view of the pooled buffer, or with
 * `copy` a buffer of their own, exactly their size.
 */
function streamOf(o: OpenStream, copy: boolean): Stream {
  const view = o.buf.subarray(0, o.size);
  return { conn: o.conn, dir: o.dir, bytes: copy ? Buffer.from(view) : view, ended: o.ended, chunkSeq: o.chunkSeq, chunkOffset: o.chunkOffset };
}

/**
 * Read a capture log file in one pass, decoding each chunk straight into its stream, and hand
 * each connection's streams (sorted c2s, s2c) to `each` as soon as both of its directions have
 * ended, or at the end of the file (those in conn order). The stream bytes handed to `each` are
 * valid only during the call unless `keep` is true (then each stream gets a copy of its own,
 * exactly its size): their memory is reused for later connections, so a log of many
 * connections is read in the memory of the few open at once.
 * Only logs in the usual shape are read here: every line in FAST_LINE's shape, `seq` strictly
 * increasing, payloads padded base64 that decode to the length their text says.
 * @returns true when the whole file was read; false when it is not in the usual shape (some
 *   connections may have been handed over already: read it with {@link readCaptureLog} instead)
 * @throws the fs error if unreadable, or whatever `each` throws
 */
export function scanCaptureStreams(path: string, each: (streams: Stream[]) => void, keep = false): boolean {
  const pool = new BufferPool();
  const open = new Map<number, OpenStream>();
  /** Connections already handed to `each`. */
  const done = new Set<number>();
  let lastSeq = -Infinity;
  let fast = true;
  const finish = (conn: number): void => {
    const c2s = open.get(conn * 2);
    const s2c = open.get(conn * 2 + 1);
    const streams: Stream[] = [];
    if (c2s) streams.push(streamOf(c2s, keep));
    if (s2c) streams.push(streamOf(s2c, keep));
    open.delete(conn * 2);
    open.delete(conn * 2 + 1);
    done.add(conn);
    each(streams);
    for (const o of [c2s, s2c]) if (o) pool.give(o.buf);
  };
  forEachLine(path, (buf, s, e) => {
    if (!fast) return;
    if (!scanLine(buf, s, e, false) || line.seq <= lastSeq) {
      fast = false; // blank lines, other spacing or key order, seq not increasing: the general path
      return;
    }
    lastSeq = line.seq;
    const conn = Math.max(line.conn, 0);
    const key = conn * 2 + (line.dir === "c2s" ? 0 : 1);
    let o = open.get(key);
    if (!o && done.has(conn)) {
      fast = false; // bytes after both directions ended: the general path decides
      return;
    }
    if (!o) {
      o = { conn, dir: line.dir, buf: pool.take(0), size: 0, ended: false, chunkSeq: [], chunkOffset: [] };
      open.set(key, o);
    } else if (o.ended) {
      fast = false; // bytes after an eof: the general path decides
      return;
    }
    if (line.eof) {
      o.ended = true;
      if (open.get(key ^ 1)?.ended) finish(conn);
      return;
    }
    if ((line.b64End - line.b64Start) % 4 !== 0) {
      fast = false; // unpadded base64: the general path
      return;
    }
    const length = base64Length(buf, line.b64Start, line.b64End);
    if (o.size + length > o.buf.length) {
      const bigger = pool.take(o.size + length);
      o.buf.copy(bigger, 0, 0, o.size);
      pool.give(o.buf);
      o.buf = bigger;
    }
    // Padded base64 of n characters decodes to exactly `length` bytes; a byte outside the alphabet
    // (an escape, a quote, a control character, a stray "=") is skipped or stops the decoder, and
    // fewer bytes send the log to the general path, which reads such a line as JSON.
    if (o.buf.write(buf.toString("latin1", line.b64Start, line.b64End), o.size, length, "base64") !== length) {
      fast = false;
      return;
    }
    o.chunkSeq.push(line.seq);
    o.chunkOffset.push(o.size);
    o.size += length;
  });
  if (!fast) return false;
  const conns = [...new Set([...open.values()].map((o) => o.conn))].sort((a, b) => a - b);
  for (const conn of conns) finish(conn);
  return true;
}

/**
 * Read a capture log file straight into its reassembled streams: the same result as
 * `reassemble(readCaptureLog(path))`, faster (one pass; no record, no base64 string is kept).
 * A log not in the usual shape (see {@link scanCaptureStreams}) is read through
 * {@link readCaptureLog} and {@link reassemble} instead.
 * @returns streams sorted by conn then dir
 * @throws CaptureLogError naming `path:line`, or the fs error if unreadable
 */
export function readCaptureStreams(path: string): Stream[] {
  const streams: Stream[] = [];
  if (!scanCaptureStreams(path, (s) => streams.push(...s), true)) return reassemble(readCaptureLog(path));
  return streams.sort((a, b) => a.conn - b.conn || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/**
 * Bytes that the base64 text buf[s, e) decodes to: 3 per 4 characters, less the trailing "="
 * padding (an upper bound when "=" also appears inside the text).
 */
function base64Length(buf: Buffer, s: number, e: number): number {
  let end = e;
  while (end > s && end > e - 2 && buf[end - 1] === 0x3d) end--;
  return Math.floor(((end - s) * 3) / 4);
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
  /** Log `seq` of each chunk, in stream order (for ordering across directions). */
  chunkSeq: number[];
  /** Offset within `bytes` of each chunk's first byte, ascending; same length as chunkSeq. */
  chunkOffset: number[];
}

/**
 * Reassemble a log into streams keyed `${conn}:${dir}` (conn 0 when absent), sorted by conn then dir.
 * Chunks are concatenated in `seq` order.
 * @throws CaptureLogError when a `seq` appears twice, or bytes follow a direction's eof record
 */
export function reassemble(records: CaptureRecord[]): Stream[] {
  // Already in seq order (as a log is written) needs no sorted copy.
  let inOrder = true;
  for (let i = 1; i < records.length && inOrder; i++) inOrder = records[i - 1]!.seq <= records[i]!.seq;
  const sorted = inOrder ? records : [...records].sort((a, b) => a.seq - b.seq);
  // Two passes: size each stream, then decode every chunk straight into one buffer per stream
  // (no per-chunk buffers, no concatenation copy).
  const parts = new Map<string, { conn: number; dir: Direction; recs: CaptureRecord[]; ended: boolean; size: number }>();
  let last: CaptureRecord | undefined;
  for (const r of sorted) {
    if (last && last.seq === r.seq) throw new CaptureLogError(`seq ${r.seq} appears twice: "seq" numbers the records of a log, each once`);
    last = r;
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
    if (p.ended && r.b64) throw new CaptureLogError(`conn ${conn} ${r.dir}: bytes at seq ${r.seq} after that direction ended (its "eof" record)`);
    p.recs.push(r);
    p.size += Buffer.byteLength(r.b64 ?? "", "base64");
  }
  return [...parts.values()]
    .sort((a, b) => a.conn - b.conn || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
    .map((p) => {
      let bytes = Buffer.allocUnsafe(p.size);
      const chunkSeq: number[] = [];
      const chunkOffset: number[] = [];
      let size = 0;
      for (const r of p.recs) {
        const n = bytes.write(r.b64 ?? "", size, "base64");
        chunkSeq.push(r.seq);
        chunkOffset.push(size);
        size += n;
      }
      if (size < p.size) bytes = bytes.subarray(0, size); // byteLength over-estimates odd base64
      return { conn: p.conn, dir: p.dir, bytes, ended: p.ended, chunkSeq, chunkOffset };
    });
}

/**
 * Log `seq` of the chunk of `stream` that holds byte `offset` (an offset at or past the end maps
 * to the last chunk; 0 when the stream has no chunks).
 */
export function seqAtOffset(stream: Pick<Stream, "chunkSeq" | "chunkOffset">, offset: number): number {
  const offsets = stream.chunkOffset;
  let lo = 0;
  let hi = offsets.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? (stream.chunkSeq[0] ?? 0) : stream.chunkSeq[found]!;
}

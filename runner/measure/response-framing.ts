/**
 * Response framing for the raw measuring client: where each HTTP/1.1 response on one keep-alive
 * connection ends. The hot path reads `Content-Length` responses straight from the bytes (no string,
 * no regular expression, no copy when a response lies whole in one read); any response it does not
 * fully understand (chunked, no or repeated Content-Length, 1xx/204/304, an event stream, a
 * malformed head) hands the connection, from that response on, to the full Http1StreamParser from
 * runner/wire.
 *
 * An event stream (`Content-Type: text/event-stream`) answers at its JSON-RPC response, not at the
 * end of the HTTP response: MCP 2025-11-25, Streamable HTTP, "Sending Messages to the Server" says
 * the server SHOULD close the SSE stream after all responses are sent, so it may keep it open
 * (pings, a late close). The event carrying the response is the exchange's answer; when the HTTP
 * response has not ended by the end of the read that brought it, the connection is spent (see
 * {@link OnResponse}).
 */
import { Http1StreamParser, headerValue, type HttpHead } from "../wire/http1.js";
import { SseParser, type SseEvent } from "../wire/sse.js";

/** What scanResponseHead read from a plain head (offsets index the scanned buffer). */
export interface ResponseHeadScan {
  /** Offset of the body's first byte: just past the blank line that ends the head. */
  bodyStart: number;
  /** Status code (200–999, not 204 or 304). */
  status: number;
  /** The one Content-Length, bytes. */
  contentLength: number;
}

/**
 * `plain`: a complete head with a status line, exactly one Content-Length and no Transfer-Encoding;
 * `incomplete`: no blank line yet and nothing unusual so far; `unusual`: anything else (leave it to
 * the full parser, which accepts it or names what is wrong).
 */
export type HeadScanResult = "plain" | "incomplete" | "unusual";

/** Longest incomplete head the scan waits on before calling it unusual, bytes. */
export const MAX_PLAIN_HEAD_BYTES = 64 * 1024;

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HT = 0x09;

/** A lowercase field name with its colon as bytes, and per byte the bit that folds ASCII case (letters only). */
function fieldName(name: string): { bytes: Uint8Array; fold: Uint8Array } {
  const bytes = Uint8Array.from(name, (c) => c.charCodeAt(0));
  return { bytes, fold: bytes.map((b) => (b >= 0x61 && b <= 0x7a ? 0x20 : 0)) };
}
const CONTENT_LENGTH = fieldName("content-length:");
const TRANSFER_ENCODING = fieldName("transfer-encoding:");
const CONTENT_TYPE = fieldName("content-type:");
const EVENT_STREAM = Uint8Array.from("text/event-stream", (c) => c.charCodeAt(0));

/** Whether the Content-Type value in buf[start, end) (after its name) is `text/event-stream…` (ASCII case-insensitive). */
function isEventStreamValue(buf: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && (buf[i] === SP || buf[i] === HT)) i++;
  if (end - i < EVENT_STREAM.length) return false;
  for (let k = 0; k < EVENT_STREAM.length; k++) {
    const b = buf[i + k]!;
    if ((b >= 0x41 && b <= 0x5a ? b | 0x20 : b) !== EVENT_STREAM[k]) return false;
  }
  return true;
}

/** Whether the line at `start` (ending before `end`) begins with `name` (ASCII case-insensitive). */
function startsWithName(buf: Uint8Array, start: number, end: number, name: { bytes: Uint8Array; fold: Uint8Array }): boolean {
  const n = name.bytes.length;
  if (end - start < n) return false;
  for (let k = 0; k < n; k++) if ((buf[start + k]! | name.fold[k]!) !== name.bytes[k]) return false;
  return true;
}

/** The decimal value of `[OWS] 1*15DIGIT [OWS]` in buf[start, end), or -1 when it is anything else. */
function readLength(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end && (buf[i] === SP || buf[i] === HT)) i++;
  const first = i;
  let v = 0;
  while (i < end && buf[i]! >= 0x30 && buf[i]! <= 0x39 && i - first < 15) v = v * 10 + (buf[i++]! - 0x30);
  if (i === first) return -1;
  while (i < end && (buf[i] === SP || buf[i] === HT)) i++;
  return i === end ? v : -1;
}

/**
 * Status code of a status line `HTTP/1.<digit> SP 3DIGIT [SP reason]` in buf[start, end), or -1.
 */
function readStatusLine(buf: Uint8Array, start: number, end: number): number {
  if (end - start < 12) return -1;
  // "HTTP/1."
  if (
    buf[start] !== 0x48 ||
    buf[start + 1] !== 0x54 ||
    buf[start + 2] !== 0x54 ||
    buf[start + 3] !== 0x50 ||
    buf[start + 4] !== 0x2f ||
    buf[start + 5] !== 0x31 ||
    buf[start + 6] !== 0x2e
  )
    return -1;
  const v = buf[start + 7]!;
  if (v < 0x30 || v > 0x39 || buf[start + 8] !== SP) return -1;
  let status = 0;
  for (let i = start + 9; i < start + 12; i++) {
    const d = buf[i]!;
    if (d < 0x30 || d > 0x39) return -1;
    status = status * 10 + (d - 0x30);
  }
  return end - start === 12 || buf[start + 12] === SP ? status : -1;
}

/**
 * Scan the response head that starts at `buf[start]`, looking only at `buf[start, end)`.
 * Lines must end in CRLF (a bare LF, a folded line, a second Content-Length, Transfer-Encoding, a
 * status below 200 or 204/304, a `text/event-stream` Content-Type are all `unusual`). Fills `out` only when it returns `plain`.
 * @param buf the received bytes
 * @param start offset of the response's first byte
 * @param end offset just past the last received byte
 * @param out receives the body offset, status and Content-Length of a plain head
 * @returns `plain`, `incomplete` (wait for more bytes) or `unusual` (use the full parser)
 */
export function scanResponseHead(buf: Uint8Array, start: number, end: number, out: ResponseHeadScan): HeadScanResult {
  let lineStart = start;
  let status = -1;
  let length = -1;
  for (let i = start; i < end; i++) {
    if (buf[i] !== LF) continue;
    if (i === lineStart || buf[i - 1] !== CR) return "unusual"; // bare LF
    const lineEnd = i - 1;
    if (status < 0) {
      status = readStatusLine(buf, lineStart, lineEnd);
      if (status < 200 || status === 204 || status === 304) return "unusual";
    } else if (lineEnd === lineStart) {
      if (length < 0) return "unusual";
      out.bodyStart = i + 1;
      out.status = status;
      out.contentLength = length;
      return "plain";
    } else {
      const c = buf[lineStart];
      if (c === SP || c === HT) return "unusual"; // obsolete line folding
      if (startsWithName(buf, lineStart, lineEnd, CONTENT_LENGTH)) {
        if (length >= 0) return "unusual";
        length = readLength(buf, lineStart + CONTENT_LENGTH.bytes.length, lineEnd);
        if (length < 0) return "unusual";
      } else if (startsWithName(buf, lineStart, lineEnd, TRANSFER_ENCODING)) return "unusual";
      else if (startsWithName(buf, lineStart, lineEnd, CONTENT_TYPE) && isEventStreamValue(buf, lineStart + CONTENT_TYPE.bytes.length, lineEnd))
        return "unusual";
    }
    lineStart = i + 1;
  }
  return end - start > MAX_PLAIN_HEAD_BYTES ? "unusual" : "incomplete";
}

/**
 * Called once per final response with its status and its answer as `data[bodyStart, bodyEnd)`: the
 * body, or for an event stream the data of the event carrying the JSON-RPC response (the whole body
 * when no event does). `open` is true when that event arrived while the HTTP response was still
 * open (not ended by the end of that read): the framer then reads nothing more of this connection,
 * whose stream is left open, and the caller must close it and send its next request on a new one.
 * `data` may be a buffer that is overwritten by the next read: copy what you keep.
 */
export type OnResponse = (status: number, data: Buffer, bodyStart: number, bodyEnd: number, open: boolean) => void;

/** Whether a response head says `Content-Type: text/event-stream`. */
function isEventStream(head: Pick<HttpHead, "headers">): boolean {
  return /^[ \t]*text\/event-stream/i.test(headerValue(head, "content-type") ?? "");
}

/**
 * Splits the byte stream of one connection's responses into responses, in order. Feed it every
 * received chunk with push(); it calls `onResponse` for each final response (interim 1xx responses
 * are skipped). Holds copies of the bytes of a response that spans chunks, so callers may reuse the
 * chunk's memory after push() returns.
 */
export class ResponseFramer {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes the held response needs in all (head + body), 0 while its head is incomplete. */
  private need = 0;
  private parser: Http1StreamParser | undefined;
  private readonly scan: ResponseHeadScan = { bodyStart: 0, status: 0, contentLength: 0 };
  /** The event stream in progress (full parser only): its events so far, fed from its de-chunked body. */
  private stream: { events: SseParser; fed: number } | undefined;
  /** An event stream was answered while still open: the rest of the connection is not read. */
  private spent = false;
  /**
   * JSON-RPC id of the request now outstanding: an SSE event answers it when it carries a response
   * (no `method`, a `result` or an `error`) with this id; undefined: any response answers.
   */
  expectId: number | string | undefined;

  /**
   * @param onResponse receives each final response
   * @param label names the connection in the full parser's error messages
   */
  constructor(
    private readonly onResponse: OnResponse,
    private readonly label = "timed connection",
  ) {}

  /** Whether the full parser has taken over this connection (for tests). */
  get usesFullParser(): boolean {
    return this.parser !== undefined;
  }

  /** Whether an event stream was answered while still open, so that nothing more is read (for tests). */
  get leftOpen(): boolean {
    return this.spent;
  }

  /**
   * Feed the received bytes `chunk[0, length)`. After a response left open, bytes are ignored.
   * @throws WireFormatError (from the full parser) naming the stream offset and what was expected
   */
  push(chunk: Buffer, length = chunk.length): void {
    if (this.spent) return;
    if (this.parser) return this.pushFull(Buffer.from(chunk.subarray(0, length)));
    if (this.heldBytes === 0) return this.frame(chunk, 0, length);
    this.held.push(Buffer.from(chunk.subarray(0, length)));
    this.heldBytes += length;
    if (this.need > 0 && this.heldBytes < this.need) return;
    const data = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.need = 0;
    this.frame(data, 0, data.length);
  }

  private frame(data: Buffer, start: number, end: number): void {
    let p = start;
    while (p < end) {
      const r = scanResponseHead(data, p, end, this.scan);
      if (r === "unusual") {
        this.parser = new Http1StreamParser("response", this.label);
        return this.pushFull(Buffer.from(data.subarray(p, end)));
      }
      const bodyEnd = r === "plain" ? this.scan.bodyStart + this.scan.contentLength : -1;
      if (r === "incomplete" || bodyEnd > end) {
        this.held.push(Buffer.from(data.subarray(p, end)));
        this.heldBytes = end - p;
        this.need = r === "plain" ? bodyEnd - p : 0;
        return;
      }
      p = bodyEnd;
      this.onResponse(this.scan.status, data, this.scan.bodyStart, bodyEnd, false);
    }
  }

  /** The first event of `events` whose data is a JSON-RPC response answering {@link expectId}. */
  private answer(events: SseEvent[]): SseEvent | undefined {
    for (const ev of events) {
      let m: unknown;
      try {
        m = JSON.parse(ev.data.toString("utf8"));
      } catch {
        continue; // not JSON: not the answer
      }
      if (typeof m !== "object" || m === null || Array.isArray(m)) continue;
      const o = m as Record<string, unknown>;
      if (o.method === undefined && ("result" in o || "error" in o) && (this.expectId === undefined || o.id === this.expectId)) return ev;
    }
    return undefined;
  }

  private pushFull(chunk: Buffer): void {
    const parser = this.parser!;
    for (const m of parser.push(chunk)) {
      const status = m.status ?? 0;
      if (status >= 100 && status < 200) continue; // interim: the final response is still to come
      this.stream = undefined;
      const ev = status === 200 && isEventStream(m) ? this.answer(new SseParser().push(m.body)) : undefined;
      if (ev) this.onResponse(status, ev.data, 0, ev.data.length, false);
      else this.onResponse(status, m.body, 0, m.body.length, false);
    }
    // The response in progress: an event stream whose answer has arrived leaves the connection spent.
    const p = parser.partial;
    if (p?.head?.status !== 200 || !isEventStream(p.head)) return;
    this.stream ??= { events: new SseParser(), fed: 0 };
    const ev = this.answer(this.stream.events.push(p.body.subarray(this.stream.fed)));
    this.stream.fed = p.body.length;
    if (!ev) return;
    this.spent = true;
    this.stream = undefined;
    this.onResponse(200, ev.data, 0, ev.data.length, true);
  }
}

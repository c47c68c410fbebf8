/**
 * The counter's fast path for one HTTP/1.1 connection in the shape MCP and A2A clients and
 * servers send: CRLF line ends, requests with Content-Length or chunked bodies, final responses
 * with Content-Length or chunked bodies (or none for 204 and 304), chunks without extensions,
 * no trailers, every message complete. It reads heads as bytes and decodes only the start line
 * and the three header values that decide how a body is read, where {@link Http1StreamParser}
 * builds every header as strings.
 *
 * Anything else (a bare LF, obsolete line folding, an interim 1xx response, a HEAD or CONNECT
 * request, a body delimited by the end of the stream, an unfinished message, a JSON body that is
 * not JSON, a body of another type that may be JSON, a response not logged after its request,
 * any malformed byte: every anomaly of runner/count/anomalies.ts but those of JSON-RPC ids, which
 * the message table finds for both paths) makes it give up on the connection and take back what
 * it added: the caller then counts the connection with the general parser, which counts and
 * names the unusual case. So this path never changes a count, an anomaly or an error; tests
 * check that both paths agree on random connections, anomalous ones included.
 */
import { seqAtOffset, type Stream } from "../capture/log.js";
import { hexValue, type BodySegment } from "../wire/http1.js";
import { addMessage, bodyMessages, bodyReading, type BodyKind, type BodyView } from "./http-messages.js";
import { JsonScanError, skipWs } from "./json-scan.js";
import { scanJsonRpc } from "./jsonrpc.js";
import { RecentText } from "./recent-text.js";
import type { Count } from "./count-row.js";
import { KIND } from "./message-table.js";
import { WireFormatError } from "../wire/errors.js";

/** 1 for the bytes of an RFC 9110 token (header names, methods). */
const TOKEN_BYTE = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TOKEN_BYTE[c.charCodeAt(0)] = 1;
/** 1 for the bytes that end a header value or a reason phrase: controls other than HTAB, and DEL. */
const STOP_BYTE = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) if (c !== 0x09) STOP_BYTE[c] = 1;
STOP_BYTE[0x7f] = 1;
/** Longest head this path reads (longer ones go to the general parser), bytes. */
const MAX_HEAD = 64 * 1024;
const CR = 0x0d;
const LF = 0x0a;

/** Thrown inside this module when the connection is not in the shape this path reads. */
class GiveUp extends Error {}
const GIVE_UP = new GiveUp();
/** An anomaly in a body: this path gives up, the general parser names it. */
const giveUp = (): never => {
  throw GIVE_UP;
};

/** Header values of the message being read, as [start, end) offsets (-1 when absent). */
const head = { ctS: -1, ctE: -1, ceS: -1, ceE: -1, teS: -1, teE: -1, te: 0, cl: -1, clCount: 0, status: 0, lineE: 0 };
/** Body segments of the message being read (stream offset, length), reused. */
const segStart: number[] = [];
const segLength: number[] = [];

/**
 * Count one HTTP connection (its streams, at most one per direction) into `acc`, if it is in the
 * shape this path reads.
 * @returns true when counted; false when `acc` is left as it was and the connection must be
 *   counted by the general path
 * @throws only what a bug would throw (never for the bytes of the log)
 */
export function countHttpConnectionFast(streams: readonly Stream[], acc: Count): boolean {
  const row = { ...acc.row };
  const breakdown = { ...acc.breakdown };
  const rows = acc.messages.length;
  try {
    const c2s = streams.find((s) => s.dir === "c2s");
    const s2c = streams.find((s) => s.dir === "s2c");
    requestSeq.length = responseSeq.length = 0;
    if (c2s) readStream(c2s, true, acc, requestSeq);
    if (s2c) readStream(s2c, false, acc, responseSeq);
    // Response k answers request k when each is logged after its request; else the general parser names what is unpaired.
    if (responseSeq.length > requestSeq.length) throw GIVE_UP;
    for (let k = 0; k < responseSeq.length; k++) if (responseSeq[k]! < requestSeq[k]!) throw GIVE_UP;
    acc.row.http_round_trips += responseSeq.length;
    return true;
  } catch (e) {
    if (!(e instanceof GiveUp) && !(e instanceof WireFormatError) && !(e instanceof JsonScanError)) throw e;
    Object.assign(acc.row, row);
    Object.assign(acc.breakdown, breakdown);
    acc.messages.truncate(rows);
    return false;
  }
}

/** The log seq of each request's and response's first byte on the connection being read (reused). */
const requestSeq: number[] = [];
const responseSeq: number[] = [];

/** The body {@link readBody} read last: its bytes without framing, its chunk framing bytes and its runs of bytes in segStart/segLength. */
const body = { bytes: 0, framing: 0, segments: 0 };

/** Read every message of one stream into `acc`, and the log seq of each one's first byte into `seqs`. @throws GiveUp, WireFormatError */
function readStream(stream: Stream, request: boolean, acc: Count, seqs: number[]): void {
  const b = stream.bytes;
  const n = b.length;
  const { row, breakdown, messages } = acc;
  row[request ? "c2s_bytes" : "s2c_bytes"] += n;
  const streamId = messages.streamId(stream.conn, stream.dir);
  let p = 0;
  while (p < n) {
    const start = p;
    p = readHead(b, p, n, request);
    const headBytes = p - start;
    p = readBody(b, p, n, request);
    if (request) {
      row.request_head_bytes += headBytes;
      row.request_body_bytes += body.bytes;
    } else {
      row.response_head_bytes += headBytes;
      row.response_body_bytes += body.bytes;
    }
    row.chunk_framing_bytes += body.framing;
    if (request) breakdown.http_requests++;
    else breakdown.http_responses++;
    const startLine = startLines.decode(b, start, head.lineE);
    const seq = seqAtOffset(stream, start);
    seqs.push(seq);
    const http = messages.add(streamId, seq, start, KIND["http-only"], headBytes, body.bytes, body.framing, 0, 0, undefined, undefined, startLine);
    if (body.bytes > 0) readBodyMessages(stream, acc, http, startLine);
  }
}

/**
 * Read the body after the head {@link readHead} read, delimited as RFC 9112 §6.3 says (as
 * Http1StreamParser decides it): chunked, Content-Length, or none; into {@link body}.
 * @returns the offset after it
 * @throws GiveUp for what the general parser reads (several codings, a malformed chunk, trailers, a
 *   body delimited by the end of the stream)
 */
function readBody(b: Buffer, p: number, n: number, request: boolean): number {
  body.bytes = 0;
  body.framing = 0;
  body.segments = 0;
  const noBody = !request && (head.status === 204 || head.status === 304);
  if (!noBody && head.te > 0) {
    if (head.te > 1 || !isChunked(b, head.teS, head.teE)) throw GIVE_UP;
    for (;;) {
      const sizeStart = p;
      let size = 0;
      let digits = 0;
      for (;;) {
        const v = hexValue(b[p]!);
        if (v < 0) break;
        if (size > 0 || v > 0) digits++;
        size = size * 16 + v;
        p++;
      }
      if (p === sizeStart || digits > 12 || b[p] !== CR || b[p + 1] !== LF) throw GIVE_UP;
      p += 2;
      if (size === 0) {
        if (b[p] !== CR || b[p + 1] !== LF) throw GIVE_UP; // trailers, or the end of the stream
        p += 2;
        body.framing += p - sizeStart;
        return p;
      }
      if (p + size + 2 > n || b[p + size] !== CR || b[p + size + 1] !== LF) throw GIVE_UP;
      segStart[body.segments] = p;
      segLength[body.segments++] = size;
      body.bytes += size;
      body.framing += p - sizeStart + 2;
      p += size + 2;
    }
  }
  if (!noBody && head.clCount > 0) {
    if (head.clCount > 1 || head.cl < 0 || p + head.cl > n) throw GIVE_UP;
    if (head.cl > 0) {
      segStart[body.segments] = p;
      segLength[body.segments++] = head.cl;
      body.bytes = head.cl;
      p += head.cl;
    }
    return p;
  }
  if (!request && !noBody) throw GIVE_UP; // delimited by the end of the stream
  return p;
}

/** How the body {@link readBody} read is looked at for JSON-RPC: by its media type, or undefined when a Content-Encoding leaves it unread. @throws GiveUp for a coded JSON or event-stream body */
function bodyKindOf(b: Buffer): BodyKind | undefined {
  // The usual media types are compared as bytes; others, and a Content-Encoding, as strings.
  if (head.ceS < 0 && mediaIs(b, head.ctS, head.ctE, "application/json")) return "json";
  if (head.ceS < 0 && mediaIs(b, head.ctS, head.ctE, "text/event-stream")) return "sse";
  if (head.ceS < 0 && head.ctS < 0) return "other";
  const reading = bodyReading({
    contentType: value(b, head.ctS, head.ctE),
    contentEncoding: value(b, head.ceS, head.ceE),
    transferEncoding: value(b, head.teS, head.teE),
  });
  if (reading.coding === undefined) return reading.kind;
  if (reading.kind !== "other") throw GIVE_UP; // a coded JSON or event-stream body: compressed-body
  return undefined;
}

/** The JSON-RPC messages of the body {@link readBody} read (HTTP message row `http`), into `acc`. @throws GiveUp, WireFormatError */
function readBodyMessages(stream: Stream, acc: Count, http: number, startLine: string): void {
  const b = stream.bytes;
  const kind = bodyKindOf(b);
  if (kind === undefined) return;
  // A body of another type holds JSON-RPC only as a JSON object or batch: the general parser names it.
  if (kind === "other") {
    if (startsJson(b, body.segments)) throw GIVE_UP;
    return;
  }
  if (body.segments === 1) {
    // One run of bytes in the stream: JSON-RPC offsets within it are stream offsets.
    const bs = segStart[0]!;
    const be = bs + body.bytes;
    if (kind === "json") {
      for (const info of scanJsonRpc(b, bs, be).messages) addMessage(acc, stream, http, info, info.start, false);
      return;
    }
    const events = simpleEvents(b, bs, be);
    if (events === UNTERMINATED) throw GIVE_UP;
    if (events >= 0) {
      acc.row.sse_events += events;
      for (let k = 0; k < dataCount; k++) {
        for (const info of scanJsonRpc(b, dataStart[k]!, dataEnd[k]!).messages) addMessage(acc, stream, http, info, info.start, true);
      }
      return;
    }
  }
  // A body in several chunks, or an event stream beyond simpleEvents: the general reader.
  const segs: BodySegment[] = [];
  for (let k = 0, at = 0; k < body.segments; k++) {
    segs.push({ bodyOffset: at, streamOffset: segStart[k]!, length: segLength[k]! });
    at += segLength[k]!;
  }
  let whole: Buffer;
  if (body.segments === 1) whole = b.subarray(segStart[0]!, segStart[0]! + segLength[0]!);
  else {
    whole = Buffer.allocUnsafe(body.bytes);
    for (const s of segs) b.copy(whole, s.bodyOffset, s.streamOffset, s.streamOffset + s.length);
  }
  const view: BodyView = { startLine, body: whole, segments: segs, complete: true };
  acc.row.sse_events += bodyMessages(view, { kind, type: "" }, (info, offset, sse) => addMessage(acc, stream, http, info, offset, sse), giveUp);
}

/** True when the body (the first `segments` of segStart/segLength) starts, after whitespace, with "{" or "[". */
function startsJson(b: Buffer, segments: number): boolean {
  for (let k = 0; k < segments; k++) {
    const s = segStart[k]!;
    const e = s + segLength[k]!;
    const i = skipWs(b, s, e);
    if (i < e) return b[i] === 0x7b || b[i] === 0x5b;
  }
  return false;
}

/** {@link simpleEvents}: the stream ends inside an event (sse-event-unterminated). */
const UNTERMINATED = -2;

/** The data of the events found by {@link simpleEvents} that hold JSON, as [start, end) stream offsets. */
const dataStart: number[] = [];
const dataEnd: number[] = [];
let dataCount = 0;

/**
 * Read the event stream b[s, e) (the WHATWG HTML "event stream" format, as SseParser reads it)
 * when it is simple: no CR anywhere, no byte-order mark, at most one `data` field per event.
 * Puts the data of each event whose data starts (after whitespace) with "{" or "[" in
 * dataStart/dataEnd (dataCount of them).
 * @returns how many events were dispatched (a block with a data field, ended by a blank line),
 *   -1 when the stream is not simple, or {@link UNTERMINATED} when it ends inside a block that
 *   has a line other than a comment (as `hasField` in http-messages.ts says)
 */
function simpleEvents(b: Buffer, s: number, e: number): number {
  dataCount = 0;
  if (b[s] === 0xef) return -1; // maybe a byte-order mark
  const cr = b.indexOf(CR, s);
  if (cr >= 0 && cr < e) return -1;
  let events = 0;
  let fields = 0; // data fields in the block so far
  let lines = 0; // lines other than comments in the block so far
  let vs = 0;
  let ve = 0;
  let p = s;
  while (p < e) {
    const nl = b.indexOf(LF, p);
    if (nl < 0 || nl >= e) {
      if (b[p] !== 0x3a) return UNTERMINATED; // a last line without its end, not a comment
      break;
    }
    if (nl === p) {
      if (fields > 0) {
        events++;
        const j = skipWs(b, vs, ve);
        if (j < ve && (b[j] === 0x7b || b[j] === 0x5b)) {
          dataStart[dataCount] = vs;
          dataEnd[dataCount++] = ve;
        }
      }
      fields = 0;
      lines = 0;
    } else if (b[p] !== 0x3a) {
      lines++;
      let colon = p;
      while (colon < nl && b[colon] !== 0x3a) colon++;
      if (colon - p === 4 && b[p] === 0x64 && b[p + 1] === 0x61 && b[p + 2] === 0x74 && b[p + 3] === 0x61) {
        if (++fields > 1) return -1; // data joined from several lines
        vs = colon + 1;
        if (vs < nl && b[vs] === 0x20) vs++;
        if (vs > nl) vs = nl;
        ve = nl;
      }
    }
    p = nl + 1;
  }
  return lines > 0 ? UNTERMINATED : events;
}

/**
 * True when the Content-Type value b[s, e) has the media type `lower` (any case) and no
 * parameters, or parameters after a ";", with only spaces and tabs around it.
 */
function mediaIs(b: Buffer, s: number, e: number, lower: string): boolean {
  if (s < 0) return false;
  let end = s;
  while (end < e && b[end] !== 0x3b) end++;
  while (end > s && (b[end - 1] === 0x20 || b[end - 1] === 0x09)) end--;
  return end - s === lower.length && isName(b, s, lower);
}

/** Recently decoded start lines: most messages repeat one of the last few. */
const startLines = new RecentText("latin1");

/** The latin1 text of b[s, e), or undefined when s < 0. */
function value(b: Buffer, s: number, e: number): string | undefined {
  return s < 0 ? undefined : b.toString("latin1", s, e);
}

/**
 * Read the head that starts at `p` into {@link head}; @returns the offset just past its blank line.
 * @throws GiveUp when it is not a complete head in the shape this path reads
 */
function readHead(b: Buffer, p: number, n: number, request: boolean): number {
  head.ctS = head.ceS = head.teS = -1;
  head.te = head.clCount = 0;
  head.cl = -1;
  const limit = Math.min(n, p + MAX_HEAD);
  let i = p;
  if (request) {
    // method SP request-target SP HTTP-version (RFC 9112 §3)
    while (i < limit && TOKEN_BYTE[b[i]!] === 1) i++;
    if (i === p || i >= limit || b[i] !== 0x20) throw GIVE_UP;
    if (isWord(b, p, i, "HEAD") || isWord(b, p, i, "CONNECT")) throw GIVE_UP;
    const t = ++i;
    while (i < limit && b[i]! > 0x20 && b[i] !== 0x7f) i++;
    if (i === t || b[i] !== 0x20) throw GIVE_UP;
    i = version(b, i + 1, limit);
  } else {
    // HTTP-version SP 3DIGIT [SP reason-phrase] (RFC 9112 §4)
    i = version(b, i, limit);
    if (b[i] !== 0x20 || !digit(b[i + 1]!) || !digit(b[i + 2]!) || !digit(b[i + 3]!)) throw GIVE_UP;
    head.status = (b[i + 1]! - 0x30) * 100 + (b[i + 2]! - 0x30) * 10 + (b[i + 3]! - 0x30);
    if (head.status < 200) throw GIVE_UP;
    i += 4;
    if (b[i] === 0x20) {
      i++;
      while (i < limit && STOP_BYTE[b[i]!] === 0) i++;
    }
  }
  if (b[i] !== CR || b[i + 1] !== LF) throw GIVE_UP;
  head.lineE = i;
  i += 2;
  // field-line = field-name ":" OWS field-value OWS, CRLF; a blank line ends the head (RFC 9112 §5)
  for (;;) {
    if (i + 1 >= limit) throw GIVE_UP;
    if (b[i] === CR) {
      if (b[i + 1] !== LF) throw GIVE_UP;
      return i + 2;
    }
    const ns = i;
    while (i < limit && TOKEN_BYTE[b[i]!] === 1) i++;
    const ne = i;
    if (ne === ns || b[i] !== 0x3a) throw GIVE_UP; // also a folded line (it starts with SP or HTAB)
    i++;
    while (b[i] === 0x20 || b[i] === 0x09) i++;
    const vs = i;
    while (i < limit && STOP_BYTE[b[i]!] === 0) i++;
    if (i >= limit || b[i] !== CR || b[i + 1] !== LF) throw GIVE_UP;
    let ve = i;
    while (ve > vs && (b[ve - 1] === 0x20 || b[ve - 1] === 0x09)) ve--;
    i += 2;
    switch (ne - ns) {
      case 12:
        if (head.ctS < 0 && isName(b, ns, "content-type")) {
          head.ctS = vs;
          head.ctE = ve;
        }
        break;
      case 14:
        if (isName(b, ns, "content-length")) {
          head.clCount++;
          head.cl = decimal(b, vs, ve);
        }
        break;
      case 16:
        if (head.ceS < 0 && isName(b, ns, "content-encoding")) {
          head.ceS = vs;
          head.ceE = ve;
        }
        break;
      case 17:
        if (isName(b, ns, "transfer-encoding")) {
          if (head.te++ === 0) {
            head.teS = vs;
            head.teE = ve;
          }
        }
        break;
    }
  }
}

/** Read `HTTP/1.` and a digit at `i`; @returns the offset past them. @throws GiveUp */
function version(b: Buffer, i: number, limit: number): number {
  if (i + 8 > limit || !isWord(b, i, i + 7, "HTTP/1.") || !digit(b[i + 7]!)) throw GIVE_UP;
  return i + 8;
}

function digit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** True when b[s, e) is exactly the ASCII text `w`. */
function isWord(b: Buffer, s: number, e: number, w: string): boolean {
  if (e - s !== w.length) return false;
  for (let k = 0; k < w.length; k++) if (b[s + k] !== w.charCodeAt(k)) return false;
  return true;
}

/** True when the token at `s` (already known to be as long as `lower`) is `lower`, any case. */
function isName(b: Buffer, s: number, lower: string): boolean {
  const n = lower.length;
  for (let k = 0; k < n; k++) if ((b[s + k]! | 0x20) !== lower.charCodeAt(k)) return false;
  return true;
}

/** True when b[s, e) is `chunked`, any case. */
function isChunked(b: Buffer, s: number, e: number): boolean {
  return e - s === 7 && isName(b, s, "chunked");
}

/** The value of 1–15 decimal digits b[s, e), or -1. */
function decimal(b: Buffer, s: number, e: number): number {
  if (e === s || e - s > 15) return -1;
  let v = 0;
  for (let k = s; k < e; k++) {
    if (!digit(b[k]!)) return -1;
    v = v * 10 + (b[k]! - 0x30);
  }
  return v;
}

/**
 * Count an HTTP capture log: reassemble each connection, parse both directions as HTTP/1.1,
 * split every byte into head, body, chunk framing or unattributed bytes, pair responses with the
 * requests logged before them, and find the JSON-RPC messages in every body (JSON bodies, the
 * data of each text/event-stream event, and a body of any other type that is JSON).
 */
import { reassemble, seqAtOffset, type CaptureRecord, type Stream } from "../capture/log.js";
import { sortAnomalies, streamLabel } from "./anomalies.js";
import type { AnomalyCode } from "../../format/anomalies.js";
import { endOfLogAnomalies, finishMessages, newCount, noteStream, reportAnomaly, type Count, type CountResult } from "./count-row.js";
import { WireFormatError } from "../wire/errors.js";
import { Http1StreamParser, headerValue, type HttpFailure, type HttpHead, type HttpMessage, type HttpPartialMessage } from "../wire/http1.js";
import { countHttpConnectionFast } from "./http-fast.js";
import { addMessage, bodyMessages, bodyReading, type BodyFraming, type BodyView } from "./http-messages.js";
import { JsonScanError } from "./json-scan.js";
import { scanJsonRpc } from "./jsonrpc.js";
import { FLAG_INCOMPLETE, KIND } from "./message-table.js";

/**
 * A complete HTTP message, or one the stream stopped inside (`complete: false`: still open at the
 * end of the log, cut by the end of the connection, or cut by bytes that are not HTTP/1.1; its
 * head is undefined while the head is still arriving).
 */
type Unit = (HttpMessage & { complete?: undefined }) | (HttpPartialMessage & { complete: false });

/** The head of a unit, or undefined while an open message's head is incomplete. */
function headOf(u: Unit): HttpHead | undefined {
  return u.complete === false ? u.head : u;
}

/** Bytes at the end of a stream that are not HTTP/1.1, or a message cut short: what {@link parseStream} found wrong. */
interface StreamEnd {
  code: AnomalyCode;
  /** Stream offset where the anomaly starts. */
  offset: number;
  /** Stream offset from which the bytes are unattributed (the stream's length when none are). */
  unattributedFrom: number;
  detail: string;
}

/**
 * Count an HTTP capture log (see {@link CountRow} for the columns).
 * Each response answers the oldest unanswered request on its connection that was logged before
 * it (the log `seq` of the chunk holding each message's first byte); a response with none is an
 * anomaly (`unsolicited-response`, `extra-response`) and not a round trip. A stream may stop
 * inside a message: still open at the end of the log (`log-truncated` when it has no eof record),
 * cut by the end of the connection (`truncated-head`, `truncated-body`; `length-mismatch` when a
 * Content-Length body so cut is one whole JSON text: its messages count), or at bytes that are not
 * HTTP/1.1 (`http-malformed`, `length-mismatch`, `protocol-switch`: unattributed from there); the
 * message is then counted as it stands (`incomplete` on its row; SSE events dispatched so far
 * count, an unfinished JSON body holds no message). See runner/count/anomalies.ts for every code.
 * @param records the log's records, any order (sorted by seq here)
 * @param strict throw the first anomaly instead of recording it
 * @returns the row, the message rows in log order, the breakdown and the anomalies
 * @throws WireFormatError naming the connection, direction and byte offset of the first anomaly
 *   when `strict`, or when the counted bytes do not add up to the logged bytes (a counter bug)
 */
export function countHttp(records: readonly CaptureRecord[], strict = false): CountResult {
  return countHttpStreams(reassemble([...records]), true, strict);
}

/**
 * {@link countHttp} over streams already reassembled (from {@link reassemble} or
 * `readCaptureStreams`), sorted by conn then dir.
 * @param fast false to read every connection with the general parser (to check the fast path)
 * @param strict throw the first anomaly instead of recording it
 * @throws WireFormatError (see countHttp)
 */
export function countHttpStreams(streams: readonly Stream[], fast = true, strict = false): CountResult {
  const acc = newCount(strict);
  const conns = new Map<number, Stream[]>();
  for (const s of streams) {
    const pair = conns.get(s.conn);
    if (pair) pair.push(s);
    else conns.set(s.conn, [s]);
  }
  for (const [, pair] of [...conns].sort((a, b) => a[0] - b[0])) countHttpConnection(pair, acc, fast);
  return finishHttpCount(acc);
}

/**
 * HTTP connections counted in this process so far by the fast path and by the general parser
 * (for benchmarks and tests; reset it by assigning 0 to the fields).
 */
export const connectionsCounted = { fast: 0, general: 0 };

/**
 * Count one HTTP connection into `acc`: its streams (one or two, at most one per direction).
 * A connection in the usual shape, without anomalies, is read by the fast path (http-fast.ts)
 * unless `fast` is false; the general parser reads the rest, with the same results.
 * @throws WireFormatError (see countHttp); `acc` is then in an undefined state
 */
export function countHttpConnection(streams: readonly Stream[], acc: Count, fast = true): void {
  for (const s of streams) noteStream(acc, s);
  if (fast && countHttpConnectionFast(streams, acc)) {
    connectionsCounted.fast++;
    return;
  }
  connectionsCounted.general++;
  const c2s = streams.find((s) => s.dir === "c2s");
  const s2c = streams.find((s) => s.dir === "s2c");
  const { row } = acc;
  for (const s of streams) row[s.dir === "c2s" ? "c2s_bytes" : "s2c_bytes"] += s.bytes.length;
  const requests = c2s ? parseStream(c2s) : { units: [] };
  // Pairing (RFC 9112 §9.3: responses come in request order): a final response answers the
  // oldest unanswered request logged before it.
  const requestSeq: number[] = [];
  const methods: string[] = [];
  for (const u of requests.units) {
    const head = headOf(u);
    if (head && c2s) {
      requestSeq.push(seqAtOffset(c2s, u.startOffset));
      methods.push(head.method!);
    }
  }
  let next = 0;
  const unpaired = new Map<number, AnomalyCode>();
  const responses = s2c
    ? parseStream(s2c, (startOffset) => {
        if (next < requestSeq.length && requestSeq[next]! < seqAtOffset(s2c, startOffset)) return methods[next++]!;
        unpaired.set(startOffset, next > 0 ? "extra-response" : "unsolicited-response");
        return "";
      })
    : { units: [] };
  let finals = 0;
  for (const u of responses.units) if ((headOf(u)?.status ?? 0) >= 200 && !unpaired.has(u.startOffset)) finals++;
  if (c2s) account(c2s, requests, acc, unpaired, methods.length);
  if (s2c) account(s2c, responses, acc, unpaired, methods.length);
  row.http_round_trips += finals;
}

/**
 * Total the row, name the anomalies of the log as a whole, finish the message table, and check
 * that heads, bodies, framing and unattributed bytes add up to the bytes counted.
 * @throws WireFormatError when they do not add up (a counter bug), or for an anomaly when strict
 */
export function finishHttpCount(acc: Count): CountResult {
  const { row } = acc;
  row.total_bytes = row.c2s_bytes + row.s2c_bytes;
  const parts =
    row.request_head_bytes + row.request_body_bytes + row.response_head_bytes + row.response_body_bytes + row.chunk_framing_bytes + row.unattributed_bytes;
  if (parts !== row.total_bytes) {
    throw new WireFormatError(
      "capture",
      undefined,
      `heads, bodies, framing and unattributed bytes add up to ${parts} bytes, the log holds ${row.total_bytes} (a counter bug: please report it with the log)`,
    );
  }
  endOfLogAnomalies(acc, false);
  return { row, messages: finishMessages(acc, false), breakdown: acc.breakdown, anomalies: sortAnomalies(acc.anomalies) };
}

/** The anomaly code of a parser failure on bytes that are not HTTP/1.1. */
const UNREADABLE: Partial<Record<HttpFailure, AnomalyCode>> = { malformed: "http-malformed", "chunk-length": "length-mismatch", switch: "protocol-switch" };

/**
 * Parse one stream into units, as far as it is HTTP/1.1, and say how it ended if not between
 * messages. A response parser is given `answer` (see Http1StreamParser.answerWith).
 */
function parseStream(stream: Stream, answer?: (startOffset: number) => string): { units: Unit[]; end?: StreamEnd } {
  const kind = stream.dir === "c2s" ? "request" : "response";
  const p = new Http1StreamParser(kind, label(stream));
  if (answer) p.answerWith(answer);
  const complete: HttpMessage[] = [];
  const units: Unit[] = complete;
  const length = stream.bytes.length;
  /** The message in progress as it stands, or unattributed bytes from its start when not even its start line is complete. */
  const asItStands = (code: AnomalyCode, detail: (part: HttpPartialMessage) => string): StreamEnd | undefined => {
    const part = p.partial;
    if (!part) return undefined;
    if (!part.head && !p.startLineComplete) return { code, offset: part.startOffset, unattributedFrom: part.startOffset, detail: detail(part) };
    units.push({ ...part, complete: false });
    const offset = part.head ? part.startOffset + part.headBytes : part.startOffset;
    return { code, offset, unattributedFrom: length, detail: detail(part) };
  };
  try {
    p.push(stream.bytes, complete);
    if (stream.ended) units.push(...p.end());
    else {
      const end = asItStands("log-truncated", (part) => `the log ends inside ${what(part, kind)} (no eof record for this stream): counted as it stands`);
      return end ? { units, end } : { units };
    }
    return { units };
  } catch (e) {
    if (!(e instanceof WireFormatError)) throw e;
    const failure = p.failure;
    if (failure === "ended-in-head" || failure === "ended-in-body") {
      const code = failure === "ended-in-head" ? "truncated-head" : "truncated-body";
      const end = asItStands(code, (part) => `the connection ended inside ${what(part, kind)}: ${e.detail}`);
      return end ? { units, end } : { units };
    }
    let code = failure === undefined ? undefined : UNREADABLE[failure];
    if (code === undefined) throw e;
    const { message, unreadFrom } = p.stopped();
    if (message) units.push({ ...message, complete: false });
    const at = e.offset !== undefined && e.offset !== unreadFrom ? ` (at byte ${e.offset})` : "";
    let detail = `not HTTP/1.1 from here${at}: ${e.detail}`;
    // No start line right where a Content-Length body ended: that length, most likely, is not the body's.
    const before = complete[complete.length - 1];
    if (!message && !p.startLineComplete && before && before.endOffset === unreadFrom && before.bodyBytes > 0 && !before.chunked && !before.closeDelimited) {
      code = "length-mismatch";
      detail = `not HTTP/1.1 right after the ${before.bodyBytes}-byte Content-Length body of "${before.startLine}": the declared length disagrees with the bytes (${e.detail})`;
    }
    return { units, end: { code, offset: unreadFrom, unattributedFrom: unreadFrom, detail } };
  }
}

/** `the body of "POST /mcp HTTP/1.1"`, or `a request head` when the head is not complete. */
function what(part: HttpPartialMessage, kind: "request" | "response"): string {
  return part.head ? `the body of "${part.head.startLine}"` : `a ${kind} head`;
}

function label(stream: Pick<Stream, "conn" | "dir">): string {
  return streamLabel(stream.conn, stream.dir);
}

/**
 * Add one stream's units (and its unattributed tail) to the count and the message table, with
 * their anomalies; check that they cover the stream.
 * @param unpaired final responses that answer no request, by start offset, with their code
 * @param requests how many requests the connection's other stream holds (for details)
 */
function account(stream: Stream, parsed: { units: Unit[]; end?: StreamEnd }, acc: Count, unpaired: Map<number, AnomalyCode>, requests: number): void {
  const { row, breakdown, messages } = acc;
  const c2s = stream.dir === "c2s";
  const where = label(stream);
  const streamId = messages.streamId(stream.conn, stream.dir);
  const report: StreamReport = (code, offset, bytes, detail, ...rows) =>
    reportAnomaly(acc, { code, conn: stream.conn, dir: stream.dir, offset, bytes, detail }, where, ...rows);
  let covered = 0;
  for (const u of parsed.units) {
    const head = headOf(u);
    const size = u.headBytes + u.bodyBytes + u.framingBytes;
    covered += size;
    if (c2s) {
      row.request_head_bytes += u.headBytes;
      row.request_body_bytes += u.bodyBytes;
    } else {
      row.response_head_bytes += u.headBytes;
      row.response_body_bytes += u.bodyBytes;
    }
    row.chunk_framing_bytes += u.framingBytes;
    if (head) breakdown[c2s ? "http_requests" : "http_responses"]++;
    if (u.complete === false && parsed.end?.code === "log-truncated") breakdown.open_http_messages++;
    const flags = u.complete === false ? FLAG_INCOMPLETE : 0;
    const http = messages.add(
      streamId,
      seqAtOffset(stream, u.startOffset),
      u.startOffset,
      KIND["http-only"],
      u.headBytes,
      u.bodyBytes,
      u.framingBytes,
      0,
      flags,
      undefined,
      undefined,
      head?.startLine,
    );
    const code = unpaired.get(u.startOffset);
    if (code !== undefined && !c2s) {
      const detail =
        code === "extra-response"
          ? `"${head?.startLine}" answers no request: every request logged before it on this connection (${requests} in all) has its response`
          : `"${head?.startLine}" answers no request: none was logged before it on this connection (${requests} in all)`;
      report(code, u.startOffset, size, detail, http);
    }
    let complete = u.complete !== false;
    if (u === parsed.units[parsed.units.length - 1] && u.complete === false && parsed.end) {
      // A Content-Length body cut by the end of the connection that is one whole JSON text: the
      // length, not the body, is wrong; its messages count.
      if (parsed.end.code === "truncated-body" && head && !u.chunked && u.bodyBytes > 0 && isJsonText(u.body)) {
        complete = true;
        parsed.end = {
          ...parsed.end,
          code: "length-mismatch",
          detail: `"${head.startLine}" declares Content-Length: ${headerValue(head, "content-length")}, the connection ended after ${u.bodyBytes} body bytes that are one whole JSON text`,
        };
      }
      const end = parsed.end;
      report(end.code, end.offset, stream.bytes.length - end.offset, end.detail, http);
    }
    if (head && u.bodyBytes > 0) unitMessages(acc, stream, http, { startLine: head.startLine, body: u.body, segments: u.bodySegments, complete }, head, report);
  }
  covered += accountTail(stream, parsed, acc, streamId, report);
  if (covered !== stream.bytes.length) {
    throw new WireFormatError(
      where,
      undefined,
      `HTTP messages and unattributed bytes cover ${covered} of its ${stream.bytes.length} bytes (a counter bug: please report it with the log)`,
    );
  }
}

/** Reports an anomaly of one stream, naming the message rows involved. */
type StreamReport = (code: AnomalyCode, offset: number, bytes: number, detail: string, ...rows: number[]) => void;

/** The JSON-RPC messages of one HTTP message's body (row `http`) into the count; a message in a body whose type is not JSON is marked so. */
function unitMessages(acc: Count, stream: Stream, http: number, body: BodyView, head: NonNullable<ReturnType<typeof headOf>>, report: StreamReport): void {
  let nonJson = false;
  acc.row.sse_events += bodyMessages(
    body,
    bodyReading(framingOf(head)),
    (info, offset, sse) => {
      const k = addMessage(acc, stream, http, info, offset, sse);
      if (nonJson) acc.messages.mark(k, "jsonrpc-in-non-json-body");
    },
    (code, offset, bytes, detail) => {
      if (code === "jsonrpc-in-non-json-body") nonJson = true;
      report(code, offset, bytes, detail, http);
    },
  );
}

/**
 * The stream's bytes after its last HTTP message that the parser could not read, as one
 * unattributed row with the anomaly that ended the reading (marked on it when the last message is
 * incomplete, whose row already names it).
 * @returns the bytes it covers (0 when none)
 */
function accountTail(stream: Stream, parsed: { units: Unit[]; end?: StreamEnd }, acc: Count, streamId: number, report: StreamReport): number {
  const end = parsed.end;
  if (!end || end.unattributedFrom >= stream.bytes.length) return 0;
  const length = stream.bytes.length - end.unattributedFrom;
  acc.row.unattributed_bytes += length;
  const k = acc.messages.add(streamId, seqAtOffset(stream, end.unattributedFrom), end.unattributedFrom, KIND.unattributed, 0, length, 0, 0, 0);
  const last = parsed.units[parsed.units.length - 1];
  if (last?.complete === false) acc.messages.mark(k, end.code);
  else report(end.code, end.offset, stream.bytes.length - end.offset, end.detail, k);
  return length;
}

/** True when `body` is one JSON text (whitespace around it allowed). */
function isJsonText(body: Buffer): boolean {
  try {
    scanJsonRpc(body);
    return true;
  } catch (e) {
    if (e instanceof JsonScanError) return false;
    throw e;
  }
}

/** {@link BodyFraming} of a parsed head. */
function framingOf(head: HttpHead): BodyFraming {
  return {
    contentType: headerValue(head, "content-type"),
    contentEncoding: headerValue(head, "content-encoding"),
    transferEncoding: headerValue(head, "transfer-encoding"),
  };
}

/**
 * Count an HTTP capture log: reassemble each connection, parse both directions as HTTP/1.1,
 * split every byte into head, body or chunk framing, and find the JSON-RPC messages in
 * application/json bodies and in the data of each text/event-stream event.
 */
import { reassemble, seqAtOffset, type CaptureRecord, type Stream } from "../capture/log.js";
import { newCount, type Count, type CountResult } from "./count-row.js";
import { WireFormatError } from "../wire/errors.js";
import { Http1StreamParser, headerValue, type HttpHead, type HttpMessage, type HttpPartialMessage } from "../wire/http1.js";
import { countHttpConnectionFast } from "./http-fast.js";
import { addMessage, bodyKindOf, bodyMessages, type BodyFraming, type BodyView } from "./http-messages.js";
import { FLAG_INCOMPLETE, KIND } from "./message-table.js";

/**
 * A complete HTTP message, or the one still open at the end of a stream that did not end
 * (`complete: false`; its head is undefined while the head is still arriving).
 */
type Unit = (HttpMessage & { complete?: undefined }) | (HttpPartialMessage & { complete: false });

/** The head of a unit, or undefined while an open message's head is incomplete. */
function headOf(u: Unit): HttpHead | undefined {
  return u.complete === false ? u.head : u;
}

/**
 * Count an HTTP capture log (see {@link CountRow} for the columns).
 * A stream that ended (eof record) must end between messages or inside a close-delimited body;
 * a stream still open at the end of the log may end inside a message, which is then counted as
 * it stands (`incomplete` on its row; SSE events dispatched so far count, an unfinished JSON body
 * holds no message).
 * @param records the log's records, any order (sorted by seq here)
 * @returns the row, the message rows in log order, and the breakdown
 * @throws WireFormatError naming the connection, direction and byte offset when a stream is not
 *   HTTP/1.1, a JSON body is not JSON, or the counted bytes do not add up to the logged bytes
 */
export function countHttp(records: readonly CaptureRecord[]): CountResult {
  return countHttpStreams(reassemble([...records]));
}

/**
 * {@link countHttp} over streams already reassembled (from {@link reassemble} or
 * `readCaptureStreams`), sorted by conn then dir.
 * @param fast false to read every connection with the general parser (to check the fast path)
 * @throws WireFormatError (see countHttp)
 */
export function countHttpStreams(streams: readonly Stream[], fast = true): CountResult {
  const acc = newCount();
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
 * A connection in the usual shape is read by the fast path (http-fast.ts) unless `fast` is
 * false; the general parser reads the rest, with the same results.
 * @throws WireFormatError (see countHttp); `acc` is then in an undefined state
 */
export function countHttpConnection(streams: readonly Stream[], acc: Count, fast = true): void {
  if (fast && countHttpConnectionFast(streams, acc)) {
    connectionsCounted.fast++;
    return;
  }
  connectionsCounted.general++;
  const c2s = streams.find((s) => s.dir === "c2s");
  const s2c = streams.find((s) => s.dir === "s2c");
  const { row } = acc;
  for (const s of streams) row[s.dir === "c2s" ? "c2s_bytes" : "s2c_bytes"] += s.bytes.length;
  const requests = c2s ? parseStream(c2s, []) : [];
  const methods: string[] = [];
  for (const u of requests) {
    const head = headOf(u);
    if (head) methods.push(head.method!);
  }
  const responses = s2c ? parseStream(s2c, methods) : [];
  if (c2s) account(c2s, requests, acc);
  if (s2c) account(s2c, responses, acc);
  let finals = 0;
  for (const u of responses) {
    if ((headOf(u)?.status ?? 0) < 200) continue;
    if (++finals > methods.length)
      throw new WireFormatError(
        label(s2c!),
        u.startOffset,
        `expected no more responses (${methods.length} request${methods.length === 1 ? "" : "s"} sent on this connection), got a response with no request before it`,
      );
  }
  row.http_round_trips += finals;
}

/**
 * Check that heads, bodies and framing add up to the bytes counted, and finish the message table.
 * @throws WireFormatError when they do not add up (a counter bug)
 */
export function finishHttpCount(acc: Count): CountResult {
  const { row } = acc;
  row.total_bytes = row.c2s_bytes + row.s2c_bytes;
  const parts = row.request_head_bytes + row.request_body_bytes + row.response_head_bytes + row.response_body_bytes + row.chunk_framing_bytes;
  if (parts !== row.total_bytes) {
    throw new WireFormatError(
      "capture",
      undefined,
      `heads, bodies and framing add up to ${parts} bytes, the log holds ${row.total_bytes} (a counter bug: please report it with the log)`,
    );
  }
  return { row, messages: acc.messages.finish(), breakdown: acc.breakdown };
}

/** Parse one stream into units; a response parser first learns the request methods, in order. */
function parseStream(stream: Stream, methods: string[]): Unit[] {
  const kind = stream.dir === "c2s" ? "request" : "response";
  const p = new Http1StreamParser(kind, label(stream));
  for (const m of methods) p.expectResponseTo(m);
  const units: Unit[] = p.push(stream.bytes);
  if (stream.ended) units.push(...p.end());
  else {
    const part = p.partial;
    if (part) units.push({ ...part, complete: false });
  }
  return units;
}

function label(stream: Pick<Stream, "conn" | "dir">): string {
  return `conn ${stream.conn} ${stream.dir}`;
}

/** Add one stream's units to the count and the message table; check that they cover the stream. */
function account(stream: Stream, units: Unit[], acc: Count): void {
  const { row, breakdown, messages } = acc;
  const c2s = stream.dir === "c2s";
  const where = label(stream);
  let covered = 0;
  for (const u of units) {
    const head = headOf(u);
    covered += u.headBytes + u.bodyBytes + u.framingBytes;
    if (c2s) {
      row.request_head_bytes += u.headBytes;
      row.request_body_bytes += u.bodyBytes;
    } else {
      row.response_head_bytes += u.headBytes;
      row.response_body_bytes += u.bodyBytes;
    }
    row.chunk_framing_bytes += u.framingBytes;
    if (head) breakdown[c2s ? "http_requests" : "http_responses"]++;
    if (u.complete === false) breakdown.open_http_messages++;
    const flags = u.complete === false ? FLAG_INCOMPLETE : 0;
    const http = messages.add(
      messages.streamId(stream.conn, stream.dir),
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
    if (!head || u.bodyBytes === 0) continue;
    const kind = bodyKindOf(framingOf(head), u.startOffset, where);
    if (kind === "none") continue;
    const body: BodyView = { startOffset: u.startOffset, startLine: head.startLine, body: u.body, segments: u.bodySegments, complete: u.complete !== false };
    row.sse_events += bodyMessages(body, kind, where, (info, offset, sse) => addMessage(acc, stream, http, info, offset, sse));
  }
  if (covered !== stream.bytes.length) {
    throw new WireFormatError(
      where,
      undefined,
      `HTTP messages cover ${covered} of its ${stream.bytes.length} bytes (a counter bug: please report it with the log)`,
    );
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

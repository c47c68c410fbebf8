/**
 * Count an HTTP capture log: reassemble each connection, parse both directions as HTTP/1.1,
 * split every byte into head, body or chunk framing, and find the JSON-RPC messages in
 * application/json bodies and in the data of each text/event-stream event.
 */
import { reassemble, seqAtOffset, type CaptureRecord, type Direction, type Stream } from "../capture/log.js";
import { emptyCountRow, type CountBreakdown, type CountResult, type CountRow, type MessageRow } from "./columns.js";
import { WireFormatError, describeBytes } from "./errors.js";
import { Http1StreamParser, bodyToStreamOffset, headerValue, type HttpHead, type HttpMessage, type HttpPartialMessage } from "./http1.js";
import { JsonScanError, skipWs } from "./json-scan.js";
import { scanJsonRpc, type JsonRpcMessageInfo } from "./jsonrpc.js";
import { finishRows, newRow } from "./rows.js";
import { SseParser, dataToBodyOffset } from "./sse.js";

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
 * @throws WireFormatError (see countHttp)
 */
export function countHttpStreams(streams: readonly Stream[]): CountResult {
  const row = emptyCountRow();
  const breakdown: CountBreakdown = { http_requests: 0, http_responses: 0, open_http_messages: 0, partial_line_bytes: 0 };
  const drafts: MessageRow[] = [];
  const conns = new Map<number, Partial<Record<Direction, Stream>>>();
  for (const s of streams) {
    const pair = conns.get(s.conn) ?? {};
    pair[s.dir] = s;
    conns.set(s.conn, pair);
    row[s.dir === "c2s" ? "c2s_bytes" : "s2c_bytes"] += s.bytes.length;
  }
  row.total_bytes = row.c2s_bytes + row.s2c_bytes;
  for (const [, pair] of [...conns].sort((a, b) => a[0] - b[0])) {
    const requests = pair.c2s ? parseStream(pair.c2s, []) : [];
    const methods: string[] = [];
    for (const u of requests) {
      const head = headOf(u);
      if (head) methods.push(head.method!);
    }
    const responses = pair.s2c ? parseStream(pair.s2c, methods) : [];
    for (const [stream, units] of [[pair.c2s, requests], [pair.s2c, responses]] as const) {
      if (stream) account(stream, units, row, breakdown, drafts);
    }
    let finals = 0;
    for (const u of responses) if ((headOf(u)?.status ?? 0) >= 200) finals++;
    row.http_round_trips += Math.min(finals, methods.length);
  }
  const parts = row.request_head_bytes + row.request_body_bytes + row.response_head_bytes + row.response_body_bytes + row.chunk_framing_bytes;
  if (parts !== row.total_bytes) {
    throw new WireFormatError("capture", undefined, `heads, bodies and framing add up to ${parts} bytes, the log holds ${row.total_bytes} (a counter bug: please report it with the log)`);
  }
  return { row, messages: finishRows(drafts), breakdown };
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

/** Add one stream's units to the row and the message rows; check that they cover the stream. */
function account(stream: Stream, units: Unit[], row: CountRow, breakdown: CountBreakdown, drafts: MessageRow[]): void {
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
    const http = newRow(stream.conn, stream.dir, seqAtOffset(stream, u.startOffset), u.startOffset, "http-only");
    http.headBytes = u.headBytes;
    http.bodyBytes = u.bodyBytes;
    http.framingBytes = u.framingBytes;
    if (head) http.startLine = head.startLine;
    if (u.complete === false) http.incomplete = true;
    drafts.push(http);
    if (!head || u.bodyBytes === 0) continue;
    row.sse_events += bodyMessages(u, head, where, (info, bodyOffset, sse) => {
      const length = info.end - info.start;
      http.bodyBytes -= length;
      const offset = bodyToStreamOffset(u.bodySegments, bodyOffset);
      const d = newRow(stream.conn, stream.dir, seqAtOffset(stream, offset), offset, info.kind);
      d.bodyBytes = length;
      d.metaBytes = info.metaBytes;
      if (info.method !== undefined) d.method = info.method;
      if (info.id !== undefined) d.id = info.id;
      if (sse) d.sse = true;
      drafts.push(d);
      if (c2s) {
        row.jsonrpc_c2s++;
        row.meta_bytes += info.metaBytes;
      } else row.jsonrpc_s2c++;
    });
  }
  if (covered !== stream.bytes.length) {
    throw new WireFormatError(where, undefined, `HTTP messages cover ${covered} of its ${stream.bytes.length} bytes (a counter bug: please report it with the log)`);
  }
}

/** Lower-cased media type of a Content-Type value, without parameters ("" when absent). */
function mediaType(value: string | undefined): string {
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Find the JSON-RPC messages of one body and hand each to `found` (with its offset in the body,
 * and whether an SSE event carried it), in body order.
 * @returns how many SSE events the body dispatched (0 for a JSON body)
 * @throws WireFormatError when a JSON body or an event's JSON data is not JSON, or the body is content-coded
 */
function bodyMessages(u: Unit, head: HttpHead, where: string, found: (info: JsonRpcMessageInfo, bodyOffset: number, sse: boolean) => void): number {
  const type = mediaType(headerValue(head, "content-type"));
  const json = type === "application/json" || type.endsWith("+json");
  const sse = type === "text/event-stream";
  if (!json && !sse) return 0;
  const coding = headerValue(head, "content-encoding");
  const te = (headerValue(head, "transfer-encoding") ?? "").toLowerCase().split(",").map((c) => c.trim()).filter((c) => c !== "" && c !== "chunked");
  if ((coding !== undefined && coding.toLowerCase() !== "identity") || te.length > 0) {
    throw new WireFormatError(where, u.startOffset, `expected an uncompressed ${type} body to count JSON-RPC messages in, got ${coding ? `Content-Encoding: ${coding}` : `Transfer-Encoding: ${te.join(", ")}`} (have the client send no Accept-Encoding / TE)`);
  }
  const fail = (e: unknown, bodyOffset: (k: number) => number, buf: Buffer, what: string): never => {
    if (!(e instanceof JsonScanError)) throw e;
    const at = bodyToStreamOffset(u.bodySegments, bodyOffset(e.offset));
    throw new WireFormatError(where, at, `expected ${e.expected} in ${what} of "${head.startLine}", got ${describeBytes(buf, e.offset)}`);
  };
  if (json) {
    if (u.complete === false) return 0; // an unfinished JSON text holds no complete message
    let infos: JsonRpcMessageInfo[] = [];
    try {
      infos = scanJsonRpc(u.body).messages;
    } catch (e) {
      fail(e, (k) => k, u.body, "the JSON body");
    }
    for (const info of infos) found(info, info.start, false);
    return 0;
  }
  const events = new SseParser().push(u.body);
  for (const ev of events) {
    const d = ev.data;
    const i = skipWs(d, 0, d.length);
    if (i === d.length || (d[i] !== 0x7b && d[i] !== 0x5b)) continue; // data that is not JSON carries no message
    let infos: JsonRpcMessageInfo[] = [];
    try {
      infos = scanJsonRpc(d).messages;
    } catch (e) {
      fail(e, (k) => dataToBodyOffset(ev, k), d, `the data of the SSE event at body byte ${ev.start}`);
    }
    for (const info of infos) found(info, dataToBodyOffset(ev, info.start), true);
  }
  return events.length;
}

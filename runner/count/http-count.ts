/**
 * Count an HTTP capture log: reassemble each connection, parse both directions as HTTP/1.1,
 * split every byte into head, body or chunk framing, and find the JSON-RPC messages in
 * application/json bodies and in the data of each text/event-stream event.
 */
import { reassemble, seqAtOffset, type CaptureRecord, type Direction, type Stream } from "../capture/log.js";
import { emptyCountRow, type CountBreakdown, type CountResult, type CountRow, type MessageRow } from "./columns.js";
import { WireFormatError, describeBytes } from "./errors.js";
import { Http1StreamParser, bodyToStreamOffset, headerValue, type BodySegment, type HttpHead, type HttpMessage } from "./http1.js";
import { JsonScanError, skipWs } from "./json-scan.js";
import { scanJsonRpc, type JsonRpcMessageInfo } from "./jsonrpc.js";
import { finishRows, newRow } from "./rows.js";
import { SseParser, dataToBodyOffset } from "./sse.js";

/** A complete HTTP message, or the one still open at the end of a stream that did not end. */
interface Unit {
  head?: HttpHead;
  startOffset: number;
  headBytes: number;
  body: Buffer;
  bodyBytes: number;
  framingBytes: number;
  bodySegments: BodySegment[];
  complete: boolean;
}

/** A JSON-RPC message found in a body: where it starts in the body and how long it is. */
interface Found {
  info: JsonRpcMessageInfo;
  bodyOffset: number;
  length: number;
  sse: boolean;
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
    const methods = requests.flatMap((u) => (u.head ? [u.head.method!] : []));
    const responses = pair.s2c ? parseStream(pair.s2c, methods) : [];
    for (const [stream, units] of [[pair.c2s, requests], [pair.s2c, responses]] as const) {
      if (stream) account(stream, units, row, breakdown, drafts);
    }
    const finals = responses.filter((u) => u.head !== undefined && u.head.status! >= 200).length;
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
  const units: Unit[] = p.push(stream.bytes).map(fromMessage);
  if (stream.ended) units.push(...p.end().map(fromMessage));
  else {
    const part = p.partial;
    if (part) {
      const { head, startOffset, headBytes, body, bodyBytes, framingBytes, bodySegments } = part;
      units.push({ head, startOffset, headBytes, body, bodyBytes, framingBytes, bodySegments, complete: false });
    }
  }
  return units;
}

function fromMessage(m: HttpMessage): Unit {
  const { startOffset, headBytes, body, bodyBytes, framingBytes, bodySegments } = m;
  return { head: m, startOffset, headBytes, body, bodyBytes, framingBytes, bodySegments, complete: true };
}

function label(stream: Pick<Stream, "conn" | "dir">): string {
  return `conn ${stream.conn} ${stream.dir}`;
}

/** Add one stream's units to the row and the message rows; check that they cover the stream. */
function account(stream: Stream, units: Unit[], row: CountRow, breakdown: CountBreakdown, drafts: MessageRow[]): void {
  const c2s = stream.dir === "c2s";
  let covered = 0;
  for (const u of units) {
    covered += u.headBytes + u.bodyBytes + u.framingBytes;
    row[c2s ? "request_head_bytes" : "response_head_bytes"] += u.headBytes;
    row[c2s ? "request_body_bytes" : "response_body_bytes"] += u.bodyBytes;
    row.chunk_framing_bytes += u.framingBytes;
    if (u.head) breakdown[c2s ? "http_requests" : "http_responses"]++;
    if (!u.complete) breakdown.open_http_messages++;
    const http = newRow(stream.conn, stream.dir, seqAtOffset(stream, u.startOffset), u.startOffset, "http-only");
    http.headBytes = u.headBytes;
    http.bodyBytes = u.bodyBytes;
    http.framingBytes = u.framingBytes;
    if (u.head) http.startLine = u.head.startLine;
    if (!u.complete) http.incomplete = true;
    drafts.push(http);
    if (!u.head || u.bodyBytes === 0) continue;
    const { found, events } = bodyMessages(u, label(stream));
    row.sse_events += events;
    for (const f of found) {
      http.bodyBytes -= f.length;
      const offset = bodyToStreamOffset(u.bodySegments, f.bodyOffset);
      const d = newRow(stream.conn, stream.dir, seqAtOffset(stream, offset), offset, f.info.kind);
      d.bodyBytes = f.length;
      d.metaBytes = f.info.metaBytes;
      if (f.info.method !== undefined) d.method = f.info.method;
      if (f.info.id !== undefined) d.id = f.info.id;
      if (f.sse) d.sse = true;
      drafts.push(d);
      row[c2s ? "jsonrpc_c2s" : "jsonrpc_s2c"]++;
      if (c2s) row.meta_bytes += f.info.metaBytes;
    }
  }
  if (covered !== stream.bytes.length) {
    throw new WireFormatError(label(stream), undefined, `HTTP messages cover ${covered} of its ${stream.bytes.length} bytes (a counter bug: please report it with the log)`);
  }
}

/** Lower-cased media type of a Content-Type value, without parameters ("" when absent). */
function mediaType(value: string | undefined): string {
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The JSON-RPC messages of one body, and how many SSE events it dispatched. */
function bodyMessages(u: Unit, where: string): { found: Found[]; events: number } {
  const head = u.head!;
  const type = mediaType(headerValue(head, "content-type"));
  const json = type === "application/json" || type.endsWith("+json");
  const sse = type === "text/event-stream";
  if (!json && !sse) return { found: [], events: 0 };
  const coding = headerValue(head, "content-encoding");
  const te = (headerValue(head, "transfer-encoding") ?? "").toLowerCase().split(",").map((c) => c.trim()).filter((c) => c !== "" && c !== "chunked");
  if ((coding !== undefined && coding.toLowerCase() !== "identity") || te.length > 0) {
    throw new WireFormatError(where, u.startOffset, `expected an uncompressed ${type} body to count JSON-RPC messages in, got ${coding ? `Content-Encoding: ${coding}` : `Transfer-Encoding: ${te.join(", ")}`} (have the client send no Accept-Encoding / TE)`);
  }
  const found: Found[] = [];
  const fail = (e: unknown, bodyOffset: (k: number) => number, buf: Buffer, what: string): never => {
    if (!(e instanceof JsonScanError)) throw e;
    const at = bodyToStreamOffset(u.bodySegments, bodyOffset(e.offset));
    throw new WireFormatError(where, at, `expected ${e.expected} in ${what} of "${head.startLine}", got ${describeBytes(buf, e.offset)}`);
  };
  if (json) {
    if (!u.complete) return { found, events: 0 }; // an unfinished JSON text holds no complete message
    let infos: JsonRpcMessageInfo[] = [];
    try {
      infos = scanJsonRpc(u.body).messages;
    } catch (e) {
      fail(e, (k) => k, u.body, "the JSON body");
    }
    for (const info of infos) found.push({ info, bodyOffset: info.start, length: info.end - info.start, sse: false });
    return { found, events: 0 };
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
    for (const info of infos) found.push({ info, bodyOffset: dataToBodyOffset(ev, info.start), length: info.end - info.start, sse: true });
  }
  return { found, events: events.length };
}

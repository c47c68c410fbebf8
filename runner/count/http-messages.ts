/**
 * The JSON-RPC messages in HTTP bodies, for both ways of reading a connection (the general
 * parser in http-count.ts and the fast path in http-fast.ts): how a body is read
 * ({@link bodyKindOf}), the messages it holds ({@link bodyMessages}), and the row and columns
 * each adds to a count ({@link addMessage}).
 */
import { seqAtOffset, type Stream } from "../capture/log.js";
import { WireFormatError, describeBytes } from "../wire/errors.js";
import { bodyToStreamOffset, type BodySegment } from "../wire/http1.js";
import { SseParser, dataToBodyOffset } from "../wire/sse.js";
import { JsonScanError, skipWs } from "./json-scan.js";
import { scanJsonRpc, type JsonRpcMessageInfo } from "./jsonrpc.js";
import type { Count } from "./count-row.js";
import { FLAG_SSE, kindCode } from "./message-table.js";

/**
 * Add the row of a JSON-RPC message found in the body of the HTTP message whose row is `http`
 * (at stream `offset`), take its bytes out of that row's body bytes, and count it.
 */
export function addMessage(acc: Count, stream: Stream, http: number, info: JsonRpcMessageInfo, offset: number, sse: boolean): void {
  const { row, messages } = acc;
  const length = info.end - info.start;
  messages.takeBody(http, length);
  messages.add(
    messages.streamOf(http),
    seqAtOffset(stream, offset),
    offset,
    kindCode(info.kind),
    0,
    length,
    0,
    info.metaBytes,
    sse ? FLAG_SSE : 0,
    info.method,
    info.id,
  );
  if (stream.dir === "c2s") {
    row.jsonrpc_c2s++;
    row.meta_bytes += info.metaBytes;
  } else row.jsonrpc_s2c++;
}

/** The header values of a head that decide how its body is read for JSON-RPC messages. */
export interface BodyFraming {
  /** Content-Type value (the first), or undefined. */
  contentType: string | undefined;
  /** Content-Encoding value (the first), or undefined. */
  contentEncoding: string | undefined;
  /** Transfer-Encoding value (the first), or undefined. */
  transferEncoding: string | undefined;
}

/** What {@link bodyMessages} needs of an HTTP message with a body. */
export interface BodyView {
  /** Stream offset of the message's first byte (for errors), bytes. */
  startOffset: number;
  /** Its start line (for errors). */
  startLine: string;
  /** The de-chunked body. */
  body: Buffer;
  /** Where the body's bytes sit in the stream. */
  segments: readonly BodySegment[];
  /** False for a message still open at the end of the log. */
  complete: boolean;
}

/** Lower-cased media type of a Content-Type value, without parameters ("" when absent). */
function mediaType(value: string | undefined): string {
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

/** How a body is read for JSON-RPC messages: as one JSON text, as an event stream, or not at all. */
export type BodyKind = "json" | "sse" | "none";

/**
 * How the body of a message with these header values is read for JSON-RPC messages:
 * `application/json` or `…+json` as JSON, `text/event-stream` as an event stream, others not.
 * @throws WireFormatError (naming `where` and the message's offset) when a JSON or event-stream
 *   body is content-coded: its messages cannot be found without decoding it
 */
export function bodyKindOf(head: BodyFraming, startOffset: number, where: string): BodyKind {
  const type = mediaType(head.contentType);
  const json = type === "application/json" || type.endsWith("+json");
  const sse = type === "text/event-stream";
  if (!json && !sse) return "none";
  const coding = head.contentEncoding;
  const te = (head.transferEncoding ?? "")
    .toLowerCase()
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "" && c !== "chunked");
  if ((coding !== undefined && coding.toLowerCase() !== "identity") || te.length > 0) {
    throw new WireFormatError(
      where,
      startOffset,
      `expected an uncompressed ${type} body to count JSON-RPC messages in, got ${coding ? `Content-Encoding: ${coding}` : `Transfer-Encoding: ${te.join(", ")}`} (have the client send no Accept-Encoding / TE)`,
    );
  }
  return json ? "json" : "sse";
}

/**
 * Find the JSON-RPC messages of one body (of the kind {@link bodyKindOf} gave) and hand each to
 * `found` (with the stream offset of its first byte, and whether an SSE event carried it), in
 * body order.
 * @returns how many SSE events the body dispatched (0 for a JSON body)
 * @throws WireFormatError when a JSON body or an event's JSON data is not JSON
 */
export function bodyMessages(
  u: BodyView,
  kind: "json" | "sse",
  where: string,
  found: (info: JsonRpcMessageInfo, streamOffset: number, sse: boolean) => void,
): number {
  const json = kind === "json";
  const fail = (e: unknown, bodyOffset: (k: number) => number, buf: Buffer, what: string): never => {
    if (!(e instanceof JsonScanError)) throw e;
    const at = bodyToStreamOffset(u.segments, bodyOffset(e.offset));
    throw new WireFormatError(where, at, `expected ${e.expected} in ${what} of "${u.startLine}", got ${describeBytes(buf, e.offset)}`);
  };
  if (json) {
    if (!u.complete) return 0; // an unfinished JSON text holds no complete message
    let infos: JsonRpcMessageInfo[] = [];
    try {
      infos = scanJsonRpc(u.body).messages;
    } catch (e) {
      fail(e, (k) => k, u.body, "the JSON body");
    }
    for (const info of infos) found(info, bodyToStreamOffset(u.segments, info.start), false);
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
    for (const info of infos) found(info, bodyToStreamOffset(u.segments, dataToBodyOffset(ev, info.start)), true);
  }
  return events.length;
}

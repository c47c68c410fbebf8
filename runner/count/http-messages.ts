/**
 * The JSON-RPC messages in HTTP bodies, for both ways of reading a connection (the general
 * parser in http-count.ts and the fast path in http-fast.ts): how a body is read
 * ({@link bodyReading}: every body is looked at, whatever its content type), the messages it
 * holds ({@link bodyMessages}), and the row and columns each adds to a count ({@link addMessage}).
 */
import { seqAtOffset, type Stream } from "../capture/log.js";
import { describeBytes } from "../wire/errors.js";
import { bodyToStreamOffset, type BodySegment } from "../wire/http1.js";
import { SseParser, dataToBodyOffset } from "../wire/sse.js";
import { JsonScanError, skipWs } from "./json-scan.js";
import { scanJsonRpc, type JsonRpcMessageInfo } from "./jsonrpc.js";
import type { AnomalyCode } from "../../format/anomalies.js";
import type { Count } from "./count-row.js";
import { FLAG_SSE, kindCode } from "./message-table.js";

/**
 * Add the row of a JSON-RPC message found in the body of the HTTP message whose row is `http`
 * (at stream `offset`), take its bytes out of that row's body bytes, and count it.
 * @returns the new row's index (adding order)
 */
export function addMessage(acc: Count, stream: Stream, http: number, info: JsonRpcMessageInfo, offset: number, sse: boolean): number {
  const { row, messages } = acc;
  const length = info.end - info.start;
  messages.takeBody(http, length);
  const k = messages.add(
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
  return k;
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
  /** Its start line (for anomaly details). */
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

/**
 * How a body is read for JSON-RPC messages: `json` (a JSON media type) as one JSON text, `sse`
 * (`text/event-stream`) as an event stream, `other` as one JSON text when it is one (the
 * messages then count, named `jsonrpc-in-non-json-body`).
 */
export type BodyKind = "json" | "sse" | "other";

/** How one body is read: its kind, its media type, and the content or transfer coding that hides its bytes, if any. */
export interface BodyReading {
  kind: BodyKind;
  /** Lower-cased media type without parameters, "" when there is no Content-Type. */
  type: string;
  /** `Content-Encoding: gzip` or `Transfer-Encoding: gzip` when coded (not identity, not chunked alone); undefined when not. */
  coding?: string;
}

/**
 * How the body of a message with these header values is read for JSON-RPC messages:
 * `application/json` or `…+json` as JSON, `text/event-stream` as an event stream, any other (or
 * none) as JSON when it is JSON. A coded body (Content-Encoding other than identity, or a
 * Transfer-Encoding coding before chunked) is not read: {@link bodyMessages} names it.
 */
export function bodyReading(head: BodyFraming): BodyReading {
  const type = mediaType(head.contentType);
  const kind: BodyKind = type === "application/json" || type.endsWith("+json") ? "json" : type === "text/event-stream" ? "sse" : "other";
  const coding = head.contentEncoding;
  const te = (head.transferEncoding ?? "")
    .toLowerCase()
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "" && c !== "chunked");
  const reading: BodyReading = { kind, type };
  if (coding !== undefined && coding.toLowerCase() !== "identity") reading.coding = `Content-Encoding: ${coding}`;
  else if (te.length > 0) reading.coding = `Transfer-Encoding: ${te.join(", ")}`;
  return reading;
}

/**
 * Where {@link bodyMessages} reports an anomaly of a body: its code, the stream offset of its
 * first byte, the body bytes it covers and what was found. It may throw (strict counts; the fast
 * path gives up).
 */
export type BodyAnomaly = (code: AnomalyCode, offset: number, bytes: number, detail: string) => void;

/**
 * Find the JSON-RPC messages of one body (read as {@link bodyReading} says) and hand each to
 * `found` (with the stream offset of its first byte, and whether an SSE event carried it), in
 * body order. What cannot be read goes to `anomaly` (runner/count/anomalies.ts): a coded JSON or
 * event-stream body (`compressed-body`), a JSON body or JSON-looking event data that is not JSON
 * (`invalid-json`: no message from it), messages in a body of another type
 * (`jsonrpc-in-non-json-body`, before the messages), a complete event stream whose last event has
 * no blank line after it (`sse-event-unterminated`). An incomplete body is read as it stands: an
 * unfinished JSON text holds no message, an event stream's events so far count.
 * @returns how many SSE events the body dispatched (0 for a JSON body)
 * @throws whatever `anomaly` throws
 */
export function bodyMessages(
  u: BodyView,
  reading: BodyReading,
  found: (info: JsonRpcMessageInfo, streamOffset: number, sse: boolean) => void,
  anomaly: BodyAnomaly,
): number {
  const at = (k: number) => bodyToStreamOffset(u.segments, k);
  const length = u.body.length;
  if (reading.coding !== undefined) {
    if (reading.kind !== "other")
      anomaly("compressed-body", at(0), length, `${reading.type} body of "${u.startLine}" with ${reading.coding}: its JSON-RPC messages are not looked for`);
    return 0;
  }
  if (reading.kind !== "sse") {
    if (!u.complete) return 0; // an unfinished JSON text holds no complete message
    const json = reading.kind === "json";
    if (!json) {
      const i = skipWs(u.body, 0, length);
      if (i === length || (u.body[i] !== 0x7b && u.body[i] !== 0x5b)) return 0; // not an object or a batch: no message
    }
    let infos: JsonRpcMessageInfo[];
    try {
      infos = scanJsonRpc(u.body).messages;
    } catch (e) {
      if (!(e instanceof JsonScanError)) throw e;
      if (json)
        anomaly(
          "invalid-json",
          at(0),
          length,
          `expected ${e.expected} at byte ${at(e.offset)} in the JSON body of "${u.startLine}", got ${describeBytes(u.body, e.offset)}`,
        );
      return 0;
    }
    if (!json && infos.length > 0) {
      const type = reading.type === "" ? "no Content-Type" : `Content-Type ${reading.type}`;
      anomaly("jsonrpc-in-non-json-body", at(0), length, `${infos.length} JSON-RPC message(s) in the body of "${u.startLine}", which has ${type}`);
    }
    for (const info of infos) found(info, at(info.start), false);
    return 0;
  }
  const parser = new SseParser();
  const events = parser.push(u.body);
  for (const ev of events) {
    const d = ev.data;
    const i = skipWs(d, 0, d.length);
    if (i === d.length || (d[i] !== 0x7b && d[i] !== 0x5b)) continue; // data that is not JSON carries no message
    let infos: JsonRpcMessageInfo[];
    try {
      infos = scanJsonRpc(d).messages;
    } catch (e) {
      if (!(e instanceof JsonScanError)) throw e;
      anomaly(
        "invalid-json",
        at(ev.start),
        ev.end - ev.start,
        `expected ${e.expected} at byte ${at(dataToBodyOffset(ev, e.offset))} in the data of the SSE event at body byte ${ev.start} of "${u.startLine}", got ${describeBytes(d, e.offset)}`,
      );
      continue;
    }
    for (const info of infos) found(info, at(dataToBodyOffset(ev, info.start)), true);
  }
  const pending = parser.pendingFrom;
  if (u.complete && pending < length && hasField(u.body, pending, length)) {
    anomaly(
      "sse-event-unterminated",
      at(pending),
      length - pending,
      `the event stream of "${u.startLine}" ends inside an event (no blank line after it), which is never dispatched: ${describeBytes(u.body, pending)}`,
    );
  }
  return events.length;
}

/** True when the event-stream text b[s, e) holds a line that is not a comment (a field, even one not ended). */
export function hasField(b: Buffer, s: number, e: number): boolean {
  let p = s;
  while (p < e) {
    const c = b[p]!;
    if (c === 0x0a || c === 0x0d) {
      p++;
      continue;
    }
    if (c !== 0x3a) return true;
    while (p < e && b[p] !== 0x0a && b[p] !== 0x0d) p++;
  }
  return false;
}

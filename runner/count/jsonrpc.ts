/**
 * Find and classify the JSON-RPC 2.0 messages in one JSON text, with byte spans, without
 * re-serialising: a `_meta` span is measured on the bytes as they were sent.
 *
 * A JSON-RPC message is one object with `"jsonrpc": "2.0"` and a `method` (request when it has an
 * `id` member, notification when not), an `error` (error response) or a `result` (result
 * response). A batch (top-level array) contributes each member that is such an object; any other
 * JSON (a non-JSON-RPC object, a scalar, an empty batch) contributes no message.
 */
import { JsonScanError, decodeString, firstMember, keyIs, member, nextMember, skipValue, skipWs } from "./json-scan.js";
import { RecentText } from "./recent-text.js";

/** What a JSON-RPC message is. */
export type JsonRpcKind = "request" | "notification" | "result" | "error";

/** One JSON-RPC message found in a JSON text. Offsets index the scanned buffer. */
export interface JsonRpcMessageInfo {
  kind: JsonRpcKind;
  /** `method` of a request or notification. */
  method?: string;
  /** The `id` as canonical JSON text (`7`, `"abc"`, `null`); absent for notifications. */
  id?: string;
  /** Index of the object's `{`. */
  start: number;
  /** Index just past the object's `}`. */
  end: number;
  /** Sum of `metaSpans` lengths, bytes. */
  metaBytes: number;
  /**
   * The `_meta` member's value (key, colon and surrounding whitespace excluded; whitespace inside
   * the value included) of `params` (request, notification) or `result` (result), as [start, end)
   * indexes; several only if the key repeats.
   */
  metaSpans: readonly (readonly [start: number, end: number])[];
}

/** The JSON-RPC content of one JSON text. */
export interface JsonRpcScan {
  /** The messages, in text order. */
  messages: JsonRpcMessageInfo[];
  /** True when the text is an array (a batch), whatever its members. */
  batch: boolean;
}

/**
 * Scan the JSON text in buf[start, end) (one value, whitespace around it allowed).
 * @returns the JSON-RPC messages in it, with spans as indexes into `buf`
 * @throws JsonScanError (offset = index into `buf`) when the bytes are not exactly one JSON value
 */
export function scanJsonRpc(buf: Buffer, start = 0, end = buf.length): JsonRpcScan {
  const messages: JsonRpcMessageInfo[] = [];
  let i = skipWs(buf, start, end);
  const first = i < end ? buf[i]! : -1;
  let batch = false;
  if (first === 0x7b) i = scanObject(buf, i, end, messages);
  else if (first === 0x5b) {
    batch = true;
    i = skipWs(buf, i + 1, end);
    if (i < end && buf[i] === 0x5d) i++;
    else {
      for (;;) {
        i = i < end && buf[i] === 0x7b ? scanObject(buf, i, end, messages) : skipValue(buf, i, end, 1);
        i = skipWs(buf, i, end);
        const c = i < end ? buf[i]! : -1;
        if (c === 0x5d) {
          i++;
          break;
        }
        if (c !== 0x2c) throw new JsonScanError(i, "',' or ']' in an array");
        i = skipWs(buf, i + 1, end);
      }
    }
  } else i = skipValue(buf, i, end);
  i = skipWs(buf, i, end);
  if (i < end) throw new JsonScanError(i, "the end of the JSON text after one value");
  return { messages, batch };
}

/** Scan one object at `p` (its "{"); push it to `out` when it is a JSON-RPC message. @returns index past it */
function scanObject(buf: Buffer, p: number, end: number, out: JsonRpcMessageInfo[]): number {
  let v2 = false;
  let method: string | undefined;
  let id: string | undefined;
  let hasResult = false;
  let hasError = false;
  let paramsMeta: [number, number][] | undefined;
  let resultMeta: [number, number][] | undefined;
  // The members, walked in line (no callback: this runs once per message).
  let ve = 0;
  for (let more = firstMember(buf, p, end); more; more = nextMember(buf, ve, end)) {
    const { ks, ke, vs } = member;
    if (keyIs(buf, ks, ke, "jsonrpc")) {
      ve = skipValue(buf, vs, end, 1);
      v2 = isVersion(buf, vs, ve);
    } else if (keyIs(buf, ks, ke, "method")) {
      ve = skipValue(buf, vs, end, 1);
      method = buf[vs] === 0x22 ? methodNames.decode(buf, vs, ve) : undefined;
    } else if (keyIs(buf, ks, ke, "id")) {
      ve = skipValue(buf, vs, end, 1);
      id = canonicalId(buf, vs, ve);
    } else if (keyIs(buf, ks, ke, "params") && buf[vs] === 0x7b) {
      ve = metaSpans(buf, vs, end);
      paramsMeta = spans;
    } else if (keyIs(buf, ks, ke, "result")) {
      hasResult = true;
      if (buf[vs] === 0x7b) {
        ve = metaSpans(buf, vs, end);
        resultMeta = spans;
      } else ve = skipValue(buf, vs, end, 1);
    } else {
      if (keyIs(buf, ks, ke, "error")) hasError = true;
      ve = skipValue(buf, vs, end, 1);
    }
  }
  const q = member.end;
  if (!v2) return q;
  let kind: JsonRpcKind;
  let metas: [number, number][] | undefined;
  if (method !== undefined) {
    kind = id !== undefined ? "request" : "notification";
    metas = paramsMeta;
  } else if (hasError) kind = "error";
  else if (hasResult) {
    kind = "result";
    metas = resultMeta;
  } else return q;
  const msg: JsonRpcMessageInfo = { kind, start: p, end: q, metaBytes: 0, metaSpans: metas ?? NO_SPANS };
  for (let k = 0; k < msg.metaSpans.length; k++) msg.metaBytes += msg.metaSpans[k]![1] - msg.metaSpans[k]![0];
  if (method !== undefined) msg.method = method;
  if (id !== undefined) msg.id = id;
  out.push(msg);
  return q;
}

/** The metaSpans of a message without `_meta` (shared: read-only). */
const NO_SPANS: readonly (readonly [number, number])[] = Object.freeze([]);

/** Recently decoded method names: most messages repeat a method seen just before. */
const methodNames = new RecentText("utf8");
/** Canonical text of the integer ids below {@link SMALL_IDS}, made once each. */
const SMALL_IDS = 4096;
const smallIds: string[] = [];

/** True when the JSON value buf[vs, ve) is the string "2.0" (compared as bytes unless it has escapes). */
function isVersion(buf: Buffer, vs: number, ve: number): boolean {
  if (buf[vs] !== 0x22) return false;
  if (ve - vs === 5 && buf[vs + 1] === 0x32 && buf[vs + 2] === 0x2e && buf[vs + 3] === 0x30) return true;
  return ve - vs > 5 && decodeString(buf, vs, ve) === "2.0";
}

/**
 * The JSON value buf[vs, ve) as canonical text, so that equal ids compare equal: an integer is
 * its digits as sent (whatever its size: two large ids that JSON numbers would round to one stay
 * two; "-0" is "0"), a string of printable ASCII without escapes is its own text, and anything
 * else is `JSON.stringify(JSON.parse(text))` (or the text as sent, for a string holding a raw
 * control character, which JSON.parse refuses).
 */
function canonicalId(buf: Buffer, vs: number, ve: number): string {
  const c0 = buf[vs]!;
  let plain = true;
  if (c0 === 0x22) {
    for (let k = vs + 1; k < ve - 1 && plain; k++) {
      const c = buf[k]!;
      plain = c >= 0x20 && c < 0x7f && c !== 0x5c;
    }
  } else {
    // Digits with an optional minus (the scanner has checked the number's grammar); "-0" is "0".
    const d = c0 === 0x2d ? vs + 1 : vs;
    plain = d < ve && !(buf[d] === 0x30 && d !== vs);
    for (let k = d; k < ve && plain; k++) plain = buf[k]! >= 0x30 && buf[k]! <= 0x39;
  }
  if (!plain) {
    const text = buf.toString("utf8", vs, ve);
    try {
      return JSON.stringify(JSON.parse(text));
    } catch {
      return text; // a raw control character in a string, which the scanner lets through: the id as sent
    }
  }
  if (c0 >= 0x30 && c0 <= 0x39 && ve - vs <= 4) {
    let n = 0;
    for (let k = vs; k < ve; k++) n = n * 10 + buf[k]! - 0x30;
    if (n < SMALL_IDS) return (smallIds[n] ??= String(n));
  }
  return buf.toString("latin1", vs, ve);
}

/** The spans found by the last {@link metaSpans} call (undefined when none). */
let spans: [number, number][] | undefined;

/**
 * Find the `_meta` members' values of the object at `p` (its "{"): their spans go to
 * {@link spans}. @returns the index past the object
 */
function metaSpans(buf: Buffer, p: number, end: number): number {
  let found: [number, number][] | undefined;
  let ve = 0;
  for (let more = firstMember(buf, p, end); more; more = nextMember(buf, ve, end)) {
    const { ks, ke, vs } = member;
    ve = skipValue(buf, vs, end, 2);
    if (keyIs(buf, ks, ke, "_meta")) (found ??= []).push([vs, ve]);
  }
  spans = found;
  return member.end;
}

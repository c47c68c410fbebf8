/**
 * A byte-position-aware JSON scanner (RFC 8259 grammar) over Buffers: it validates and skips
 * values and reports where they are, without building them. Strings are validated for escapes,
 * not for raw control characters or UTF-8 (no count depends on those).
 */

/** The bytes are not JSON. `offset` is the index into the scanned buffer where it went wrong. */
export class JsonScanError extends Error {
  override name = "JsonScanError";
  /**
   * @param offset index into the buffer of the offending byte (or the end of the scanned range)
   * @param expected what the grammar wanted there
   */
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {
    super(`at index ${offset}: expected ${expected}`);
  }
}

/** Deepest nesting of arrays and objects accepted. */
const MAX_DEPTH = 1000;

/** Index of the first non-whitespace byte at or after `p` (space, tab, LF, CR), or `end`. */
export function skipWs(buf: Buffer, p: number, end: number): number {
  while (p < end) {
    const c = buf[p]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    p++;
  }
  return p;
}

/** Where the next backslash is, cached per buffer so that a text's backslashes are each found once. */
let bsBuf: Buffer | undefined;
let bsFrom = 0;
let bsAt = -1;

/** Index of the first backslash at or after `from` in `buf`, or -1. */
function nextBackslash(buf: Buffer, from: number): number {
  if (buf !== bsBuf || from < bsFrom || (bsAt >= 0 && bsAt < from)) {
    bsBuf = buf;
    bsFrom = from;
    bsAt = buf.indexOf(0x5c, from);
  }
  return bsAt;
}

/**
 * Skip the string whose opening quote is at `p`. Escapes are validated; raw control characters
 * are let through (JSON forbids them, but no count depends on them).
 * @returns index just past the closing quote
 * @throws JsonScanError on a bad escape or a missing closing quote
 */
export function skipString(buf: Buffer, p: number, end: number): number {
  if (p >= end || buf[p] !== 0x22) throw new JsonScanError(p, "a string");
  let i = p + 1;
  // Short strings (keys): a plain loop beats two native searches.
  const stop = Math.min(end, i + 24);
  for (; i < stop; i++) {
    const c = buf[i]!;
    if (c === 0x22) return i + 1;
    if (c === 0x5c) break;
  }
  for (;;) {
    const q = buf.indexOf(0x22, i);
    if (q < 0 || q >= end) throw new JsonScanError(end, "the closing quote of a string");
    const bs = nextBackslash(buf, i);
    if (bs < 0 || bs > q) return q + 1;
    i = skipEscape(buf, bs, end);
  }
}

/** Validate the escape whose backslash is at `i`; @returns index past it. */
function skipEscape(buf: Buffer, i: number, end: number): number {
  const e = i + 1 < end ? buf[i + 1]! : -1;
  if (e === 0x75) {
    for (let k = 2; k < 6; k++) {
      const h = i + k < end ? buf[i + k]! : -1;
      if (!((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) {
        throw new JsonScanError(i + k, "four hex digits after \\u");
      }
    }
    return i + 6;
  }
  if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return i + 2;
  if (e === -1) throw new JsonScanError(end, "the closing quote of a string");
  throw new JsonScanError(i + 1, 'an escape (one of "\\/bfnrtu) after a backslash');
}

/** Decode the string literal spanning [p, q) (quotes included) to a JS string. */
export function decodeString(buf: Buffer, p: number, q: number): string {
  if (!hasBackslash(buf, p, q)) return buf.toString("utf8", p + 1, q - 1);
  return JSON.parse(buf.toString("utf8", p, q)) as string;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Skip the number at `p`; @returns index past it. @throws JsonScanError */
export function skipNumber(buf: Buffer, p: number, end: number): number {
  let i = p;
  const at = (k: number) => (k < end ? buf[k]! : -1);
  if (at(i) === 0x2d) i++;
  if (at(i) === 0x30) i++;
  else if (at(i) >= 0x31 && at(i) <= 0x39) while (isDigit(at(i))) i++;
  else throw new JsonScanError(i, "a digit");
  if (at(i) === 0x2e) {
    i++;
    if (!isDigit(at(i))) throw new JsonScanError(i, "a digit after the decimal point");
    while (isDigit(at(i))) i++;
  }
  if (at(i) === 0x65 || at(i) === 0x45) {
    i++;
    if (at(i) === 0x2b || at(i) === 0x2d) i++;
    if (!isDigit(at(i))) throw new JsonScanError(i, "a digit in the exponent");
    while (isDigit(at(i))) i++;
  }
  return i;
}

function skipLiteral(buf: Buffer, p: number, end: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (p + k >= end || buf[p + k] !== word.charCodeAt(k)) throw new JsonScanError(p + k, `"${word}"`);
  }
  return p + word.length;
}

/** Open containers of the value {@link skipValue} is skipping: 1 for an object, 0 for an array. */
const open = new Uint8Array(MAX_DEPTH);

/**
 * Skip the JSON value whose first byte is at `p` (no leading whitespace). Containers are
 * walked in one loop with a stack, not by recursion.
 * @param depth how deep the value is nested already (a container at depth 1000 is refused)
 * @returns index just past the value's last byte
 * @throws JsonScanError when the bytes are not one JSON value, or nest deeper than 1000
 */
export function skipValue(buf: Buffer, p: number, end: number, depth = 0): number {
  let i = p;
  let sp = 0; // containers open
  for (;;) {
    // A value starts at i.
    const c = i < end ? buf[i]! : -1;
    if (c === 0x7b || c === 0x5b) {
      if (depth + sp >= MAX_DEPTH) throw new JsonScanError(i, `nesting at most ${MAX_DEPTH} deep`);
      const object = c === 0x7b;
      i = skipWs(buf, i + 1, end);
      if (i < end && buf[i] === (object ? 0x7d : 0x5d)) {
        i++; // an empty container is a whole value
      } else {
        open[sp++] = object ? 1 : 0;
        if (object) i = memberValue(buf, i, end);
        continue;
      }
    } else if (c === 0x22) i = skipString(buf, i, end);
    else if (c === 0x74) i = skipLiteral(buf, i, end, "true");
    else if (c === 0x66) i = skipLiteral(buf, i, end, "false");
    else if (c === 0x6e) i = skipLiteral(buf, i, end, "null");
    else if (c === 0x2d || isDigit(c)) i = skipNumber(buf, i, end);
    else throw new JsonScanError(i, "a JSON value");
    // A value ended at i: close containers, or go on to the next member or item.
    for (;;) {
      if (sp === 0) return i;
      i = skipWs(buf, i, end);
      const object = open[sp - 1] === 1;
      const d = i < end ? buf[i]! : -1;
      if (d === (object ? 0x7d : 0x5d)) {
        i++;
        sp--;
        continue;
      }
      if (d !== 0x2c) throw new JsonScanError(i, object ? "',' or '}' in an object" : "',' or ']' in an array");
      i = skipWs(buf, i + 1, end);
      if (object) i = memberValue(buf, i, end);
      break;
    }
  }
}

/** Skip an object member's key, colon and the whitespace after it; @returns the index of its value. */
function memberValue(buf: Buffer, i: number, end: number): number {
  i = skipWs(buf, skipString(buf, i, end), end);
  if (i >= end || buf[i] !== 0x3a) throw new JsonScanError(i, "':' after an object key");
  return skipWs(buf, i + 1, end);
}

/** The member that {@link firstMember} or {@link nextMember} read: key [ks, ke) with its quotes, value from vs; or `end`, just past the object's "}". */
export const member = { ks: 0, ke: 0, vs: 0, end: 0 };

/**
 * Start walking the object whose "{" is at `p`: true with {@link member} set to its first
 * member; false for an empty object, with `member.end` past it.
 * @throws JsonScanError
 */
export function firstMember(buf: Buffer, p: number, end: number): boolean {
  const i = skipWs(buf, p + 1, end);
  if (i < end && buf[i] === 0x7d) {
    member.end = i + 1;
    return false;
  }
  return readMember(buf, i, end);
}

/**
 * Go on from the value that ended at `ve`: true with {@link member} set to the next member;
 * false at the object's "}", with `member.end` past it.
 * @throws JsonScanError
 */
export function nextMember(buf: Buffer, ve: number, end: number): boolean {
  const i = skipWs(buf, ve, end);
  const c = i < end ? buf[i]! : -1;
  if (c === 0x7d) {
    member.end = i + 1;
    return false;
  }
  if (c !== 0x2c) throw new JsonScanError(i, "',' or '}' in an object");
  return readMember(buf, skipWs(buf, i + 1, end), end);
}

/** Read the key and colon of the member at `i` into {@link member}. */
function readMember(buf: Buffer, i: number, end: number): true {
  member.ks = i;
  member.ke = skipString(buf, i, end);
  i = skipWs(buf, member.ke, end);
  if (i >= end || buf[i] !== 0x3a) throw new JsonScanError(i, "':' after an object key");
  member.vs = skipWs(buf, i + 1, end);
  return true;
}

/**
 * True when the key literal [ks, ke) (quotes included) decodes to `name` (an ASCII name).
 * Compares bytes; decodes only a key that has escapes and is longer than `name`.
 */
export function keyIs(buf: Buffer, ks: number, ke: number, name: string): boolean {
  const n = ke - ks - 2;
  if (n === name.length) {
    for (let k = 0; k < n; k++) if (buf[ks + 1 + k] !== name.charCodeAt(k)) return false;
    return true;
  }
  if (n < name.length) return false;
  return hasBackslash(buf, ks, ke) && decodeString(buf, ks, ke) === name;
}

function hasBackslash(buf: Buffer, p: number, q: number): boolean {
  for (let k = p; k < q; k++) if (buf[k] === 0x5c) return true;
  return false;
}

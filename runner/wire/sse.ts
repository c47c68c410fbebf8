/**
 * A text/event-stream parser (WHATWG HTML, "Server-sent events", §9.2.6 "Interpreting an event
 * stream") that works on bytes and reports where each event sits in the body.
 *
 * What counts as an event: one that the spec's dispatch step delivers. A block of lines ended by
 * a blank line is dispatched when it had at least one `data` field — even `data:` with an empty
 * value (the data buffer is then "\n", not empty, so dispatch goes ahead with data ""). A block
 * with only comments, `id:`, `event:` or `retry:` lines is not dispatched and is not an event
 * (e.g. a bare `id: 7` line followed by a blank line). A block that the stream ends before its
 * blank line is never dispatched.
 *
 * Bytes, not text: the delimiters (CR, LF, colon, space) are ASCII, so splitting UTF-8 bytes
 * gives the spec's result for valid UTF-8; `data` holds the joined data as bytes.
 */

/** One dispatched event. Offsets are bytes from the start of the event stream (the body). */
export interface SseEvent {
  /** Value of the last `event:` field of the block, "" when none (a browser then reports "message"). */
  type: string;
  /** The data: every `data` field's value joined with "\n" (UTF-8 bytes). */
  data: Buffer;
  /** Where each `data` field's value sits in the body, in order; `data` joins them with one "\n" between. */
  dataSegments: { offset: number; length: number }[];
  /** Value of the last `id:` field of this block, if it had one (values containing NUL are ignored, per spec). */
  id?: string;
  /** The stream's last event ID as of this event (persists across events, per spec). */
  lastEventId: string;
  /** Value of the last valid `retry:` field of this block (ASCII digits only), milliseconds. */
  retry?: number;
  /** Offset of the block's first line (comments in the block included). */
  start: number;
  /** Offset just past the blank line that dispatched the event. */
  end: number;
}

const EMPTY = Buffer.alloc(0);
const LF = 0x0a;
const CR = 0x0d;

/**
 * Incremental event-stream parser: push body bytes as they arrive, get the events they complete.
 * A line ended by a CR at the end of a chunk ends there (the spec's rule); an LF that follows in
 * the next chunk is taken as part of that line end. Keeps references to pushed chunks.
 */
export class SseParser {
  private buf: Buffer = EMPTY;
  /** Stream offset of buf[0]. */
  private base = 0;
  /** Next unread index in buf. */
  private i = 0;
  private skipLF = false;
  private lastEventId = "";
  // The block in progress.
  private blockStart = 0;
  private type = "";
  private id: string | undefined;
  private retry: number | undefined;
  private dataParts: Buffer[] = [];
  private dataSegments: SseEvent["dataSegments"] = [];
  /**
   * Chunks pushed after an unfinished line that hold no line end: kept as they came and joined
   * with it only when its end arrives, so a long line (a large event's data) costs time linear in
   * its length, not the line so far per chunk.
   */
  private held: Buffer[] = [];
  private heldBytes = 0;

  /** Body bytes pushed so far. */
  get receivedBytes(): number {
    return this.base + this.buf.length + this.heldBytes;
  }

  /**
   * Offset where the undispatched part of the stream starts (the block in progress, or the end
   * of the stream when the last line ended a block). Bytes from here on belong to no event yet.
   */
  get pendingFrom(): number {
    return this.blockStart;
  }

  /**
   * Feed the next body bytes.
   * @returns the events dispatched by them, in order
   */
  push(chunk: Buffer): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.i < this.buf.length && !this.skipLF && chunk.indexOf(LF) < 0 && chunk.indexOf(CR) < 0) {
      this.held.push(chunk); // the unfinished line goes on
      this.heldBytes += chunk.length;
      return out;
    }
    if (this.i >= this.buf.length && this.held.length === 0) this.buf = chunk;
    else this.buf = Buffer.concat([this.buf.subarray(this.i), ...this.held, chunk]);
    this.held = [];
    this.heldBytes = 0;
    this.base += this.i;
    this.i = 0;
    const buf = this.buf;
    if (this.base === 0 && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
      this.i = 3; // a leading UTF-8 BOM is not part of the first line
      this.blockStart = 3;
    } else if (this.base === 0 && buf.length < 3 && buf.length > 0 && buf[0] === 0xef) {
      return out; // maybe a BOM: wait for three bytes
    }
    if (this.skipLF && this.i < buf.length) {
      if (buf[this.i] === LF) {
        this.i++;
        if (this.blockStart === this.base) this.blockStart++;
      }
      this.skipLF = false;
    }
    let nextLF = -1;
    let nextCR = -1;
    for (;;) {
      const start = this.i;
      // Each search runs once per occurrence (-2: none left), so CR-only or LF-only streams stay linear.
      if (nextLF !== -2 && nextLF < start) nextLF = find(buf, LF, start);
      if (nextCR !== -2 && nextCR < start) nextCR = find(buf, CR, start);
      const lf = nextLF < 0 ? -1 : nextLF;
      const cr = nextCR < 0 ? -1 : nextCR;
      let lineEnd: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        lineEnd = cr;
        if (cr + 1 < buf.length) next = buf[cr + 1] === LF ? cr + 2 : cr + 1;
        else {
          next = cr + 1;
          this.skipLF = true;
        }
      } else if (lf >= 0) {
        lineEnd = lf;
        next = lf + 1;
      } else break;
      this.i = next;
      const ev = this.line(start, lineEnd, this.base + next);
      if (ev) out.push(ev);
      if (this.skipLF) break;
    }
    return out;
  }

  /**
   * The stream ended: a block without its blank line is discarded, per spec.
   * @returns the number of bytes after the last dispatched or discarded-by-blank-line block (not in any event)
   */
  end(): number {
    return this.receivedBytes - this.blockStart;
  }

  /** Process one line [s, e) of buf; `after` is the stream offset past its line end. */
  private line(s: number, e: number, after: number): SseEvent | undefined {
    const buf = this.buf;
    if (s === e) {
      // Blank line: dispatch.
      const hasData = this.dataParts.length > 0;
      let ev: SseEvent | undefined;
      if (this.id !== undefined) this.lastEventId = this.id;
      if (hasData) {
        ev = {
          type: this.type,
          data: this.dataParts.length === 1 ? this.dataParts[0]! : joinLines(this.dataParts),
          dataSegments: this.dataSegments,
          lastEventId: this.lastEventId,
          start: this.blockStart,
          end: after,
        };
        if (this.id !== undefined) ev.id = this.id;
        if (this.retry !== undefined) ev.retry = this.retry;
      }
      this.blockStart = after;
      this.type = "";
      this.id = undefined;
      this.retry = undefined;
      this.dataParts = [];
      this.dataSegments = [];
      return ev;
    }
    if (buf[s] === 0x3a) return undefined; // comment
    let colon = buf.indexOf(0x3a, s);
    if (colon < 0 || colon >= e) colon = e;
    let v = colon + 1;
    if (v < e && buf[v] === 0x20) v++;
    if (v > e) v = e;
    const n = colon - s;
    if (n === 4 && buf[s] === 0x64 && buf[s + 1] === 0x61 && buf[s + 2] === 0x74 && buf[s + 3] === 0x61) {
      this.dataParts.push(buf.subarray(v, e));
      this.dataSegments.push({ offset: this.base + v, length: e - v });
    } else if (n === 5 && buf.toString("latin1", s, colon) === "event") {
      this.type = buf.toString("utf8", v, e);
    } else if (n === 2 && buf[s] === 0x69 && buf[s + 1] === 0x64) {
      const nul = buf.indexOf(0, v);
      if (nul < 0 || nul >= e) this.id = buf.toString("utf8", v, e);
    } else if (n === 5 && buf.toString("latin1", s, colon) === "retry") {
      const t = buf.toString("latin1", v, e);
      if (/^[0-9]+$/.test(t)) this.retry = Number(t);
    }
    return undefined;
  }
}

function find(buf: Buffer, byte: number, from: number): number {
  const k = buf.indexOf(byte, from);
  return k < 0 ? -2 : k;
}

function joinLines(parts: Buffer[]): Buffer {
  const nl = Buffer.from("\n");
  const all: Buffer[] = [];
  parts.forEach((p, k) => {
    if (k > 0) all.push(nl);
    all.push(p);
  });
  return Buffer.concat(all);
}

/**
 * Parse a whole (or partial) event-stream body: the events dispatched so far, in order.
 * A trailing block without its blank line is not an event.
 */
export function parseSseEvents(body: Buffer): SseEvent[] {
  return new SseParser().push(body);
}

/**
 * Map an offset within an event's joined `data` to an offset within the body
 * (a joining "\n" maps to the end of the data line before it).
 */
export function dataToBodyOffset(ev: Pick<SseEvent, "dataSegments">, dataOffset: number): number {
  let d = 0;
  for (const seg of ev.dataSegments) {
    if (dataOffset <= d + seg.length) return seg.offset + (dataOffset - d);
    d += seg.length + 1;
  }
  const last = ev.dataSegments[ev.dataSegments.length - 1];
  return last ? last.offset + last.length : 0;
}

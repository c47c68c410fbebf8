/**
 * An incremental HTTP/1.1 stream parser (RFC 9112) that accounts for every byte: each byte of a
 * stream ends up in exactly one message's head, body or chunk framing. Used by the counter on
 * reassembled capture streams, and by the raw driver and the timing client to know when a
 * response is complete.
 *
 * Accepted beyond strict RFC 9112 (both are byte-exact in the counts): a bare LF as a line end,
 * and empty lines before a request line (counted in that request's head bytes).
 * Not supported (they throw): obsolete header line folding, `101 Switching Protocols` and 2xx
 * answers to CONNECT (what follows is not HTTP/1.1), requests whose Transfer-Encoding does not
 * end in `chunked`.
 */
import { WireFormatError, describeBytes } from "./errors.js";

/** A header or trailer field as it appeared: name as sent (case kept), value trimmed of OWS. */
export type HeaderField = [name: string, value: string];

/** The start line and header section of an HTTP/1.1 message. Strings are decoded as latin1. */
export interface HttpHead {
  /** The request line or status line, without its line end. */
  startLine: string;
  /** `HTTP/1.1`, `HTTP/1.0`. */
  version: string;
  /** Header fields in the order sent. */
  headers: HeaderField[];
  /** Request method (requests only). */
  method?: string;
  /** Request target (requests only). */
  target?: string;
  /** Status code (responses only). */
  status?: number;
  /** Reason phrase, possibly empty (responses only). */
  reason?: string;
}

/** Where a run of body bytes sits in the stream: `length` bytes from `bodyOffset` of the body are at `streamOffset`. */
export interface BodySegment {
  /** Offset within the de-chunked body, bytes. */
  bodyOffset: number;
  /** Offset within the stream, bytes. */
  streamOffset: number;
  /** Length, bytes. */
  length: number;
}

/** One complete HTTP/1.1 message. `headBytes + bodyBytes + framingBytes = endOffset - startOffset`. */
export interface HttpMessage extends HttpHead {
  /** Stream offset of the message's first byte (of a leading empty line, if any), bytes. */
  startOffset: number;
  /** Stream offset just past the message's last byte, bytes. */
  endOffset: number;
  /** Start line + header lines + the blank line that ends the head (with any leading empty lines), bytes. */
  headBytes: number;
  /** The payload with chunk framing removed (still content-coded if Content-Encoding says so). */
  body: Buffer;
  /** `body.length`, bytes. */
  bodyBytes: number;
  /** Chunk-size lines (extensions included), CRLFs after chunk data, last-chunk, trailers, final CRLF; 0 when not chunked. Bytes. */
  framingBytes: number;
  /** True when the body used chunked transfer coding. */
  chunked: boolean;
  /** True when the body was delimited by the end of the stream (a response without length). */
  closeDelimited: boolean;
  /** Trailer fields of a chunked body, in order. */
  trailers: HeaderField[];
  /** Where the body's bytes sit in the stream (one segment per chunk, or one for a plain body). */
  bodySegments: BodySegment[];
}

/**
 * The message in progress (bytes received since the last complete message).
 * `headBytes + bodyBytes + framingBytes` = every byte received since `startOffset`.
 */
export interface HttpPartialMessage {
  /** Stream offset of the message's first byte. */
  startOffset: number;
  /** The head, once its blank line has arrived. */
  head?: HttpHead;
  /** Head bytes received: all bytes so far while the head is incomplete. */
  headBytes: number;
  /** De-chunked body bytes received so far (e.g. the SSE events of a still-open stream). */
  body: Buffer;
  /** `body.length`, bytes. */
  bodyBytes: number;
  /** Chunk framing received so far, including a chunk-size line still without its line end. Bytes. */
  framingBytes: number;
  /** True when the body uses chunked transfer coding. */
  chunked: boolean;
  /** Where the body's bytes sit in the stream. */
  bodySegments: BodySegment[];
}

/** Longest start line, header line, chunk-size line or trailer line accepted, bytes. */
const MAX_LINE = 64 * 1024;
/** Longest head accepted, bytes. */
const MAX_HEAD = 1024 * 1024;
const EMPTY = Buffer.alloc(0);
/** 1 for the bytes of an RFC 9110 token (header names). */
const TOKEN_BYTE = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TOKEN_BYTE[c.charCodeAt(0)] = 1;
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([^\x00-\x20\x7f]+) (HTTP\/1\.[0-9])$/;
const STATUS_LINE = /^(HTTP\/1\.[0-9]) ([0-9]{3})(?: ([^\x00-\x08\x0a-\x1f\x7f]*))?$/;
const CHUNK_EXT = /^[ \t]*(;[^\x00-\x08\x0a-\x1f\x7f]*)?$/;
const CHUNK_SIZE_EXPECTED = "chunk-size line (hex digits then CRLF)";

type State = "head" | "length" | "chunk-size" | "chunk-data" | "chunk-data-end" | "trailer" | "close" | "done";

/**
 * Why a parser stopped ({@link Http1StreamParser.failure}): `malformed` bytes that are not
 * HTTP/1.1; `chunk-length` chunk data not followed by CRLF at its declared size; `switch` a 101
 * or a 2xx answer to CONNECT (what follows is not HTTP/1.1); `ended-in-head` / `ended-in-body`
 * the stream ended inside a message.
 */
export type HttpFailure = "malformed" | "chunk-length" | "switch" | "ended-in-head" | "ended-in-body";

interface Line {
  /** Stream offset of the line's first byte. */
  start: number;
  /** Stream offset of its line end (CR of CRLF, or the bare LF). */
  end: number;
  /** Stream offset just past the LF. */
  next: number;
}

/**
 * Incremental parser for one direction of one HTTP/1.1 connection.
 *
 * ```ts
 * const p = new Http1StreamParser("response", "conn 2 s2c");
 * p.expectResponseTo("POST");
 * for (const chunk of chunks) for (const m of p.push(chunk)) use(m);
 * for (const m of p.end()) use(m); // at EOF
 * ```
 * The parser keeps references to pushed chunks (no copy until a body is complete): do not mutate
 * them. After it throws, the parser must not be used again.
 */
export class Http1StreamParser {
  private buf: Buffer = EMPTY;
  /** Stream offset of `buf[0]`. */
  private base = 0;
  /** Stream offset of the next unconsumed byte. */
  private pos = 0;
  private state: State = "head";
  private readonly methods: string[] = [];
  private answer?: (startOffset: number) => string;
  private ended = false;
  private failed?: HttpFailure;

  // The message in progress.
  private msgStart = 0;
  private startLineSeen = false;
  /** True once the blank line ending the head has been read (the head may still be refused). */
  private headEnded = false;
  private head?: HttpHead;
  private headers: HeaderField[] = [];
  private headBytes = 0;
  private remaining = 0;
  /** Body bytes not yet in `acc`, as views of the pushed chunks (no copy until needed). */
  private parts: Buffer[] = [];
  /**
   * The body so far, once {@link partial} (or {@link stopped}) needed it whole: a buffer grown by
   * doubling, of which the first `accBytes` are the body's first bytes (the rest of the body is in
   * `parts`). Appending never changes bytes already in it, so views handed out stay true, and the
   * body is copied a bounded number of times however often it is asked for: linear in its size.
   */
  private acc?: Buffer;
  private accBytes = 0;
  private segments: BodySegment[] = [];
  private bodyBytes = 0;
  private framingBytes = 0;
  private chunked = false;
  private closeDelimited = false;
  private trailers: HeaderField[] = [];
  /** Stream offset and size of the chunk being read, for error messages. */
  private chunkStart = 0;
  private chunkSize = 0;

  /**
   * @param kind which side's messages this stream carries: `request` (client to server) or `response`
   * @param label names the stream in error messages, e.g. `conn 2 c2s`
   */
  constructor(
    readonly kind: "request" | "response",
    readonly label = kind === "request" ? "requests" : "responses",
  ) {}

  /**
   * Queue the method of the next request this stream answers (responses only), so that a
   * response to HEAD is known to have no body. Interim (1xx) responses do not use up an entry;
   * with the queue empty a response is taken to answer a non-HEAD request.
   * @throws Error when called on a request parser
   */
  expectResponseTo(method: string): void {
    if (this.kind !== "response") throw new Error("expectResponseTo applies to a response parser");
    this.methods.push(method);
  }

  /**
   * Decide the request each final response answers with `answer(startOffset)` (the stream offset
   * of the response's first byte), which returns that request's method ("" for one that answers
   * no request: it is read as an answer to a non-HEAD request), instead of the queue of
   * {@link expectResponseTo}. Called once per final response, in stream order, when its head is complete.
   * @throws Error when called on a request parser
   */
  answerWith(answer: (startOffset: number) => string): void {
    if (this.kind !== "response") throw new Error("answerWith applies to a response parser");
    this.answer = answer;
  }

  /** Why push() or end() threw its WireFormatError; undefined while the stream parses. */
  get failure(): HttpFailure | undefined {
    return this.failed;
  }

  /** True once the message in progress has a complete, valid start line (its head may still be arriving). */
  get startLineComplete(): boolean {
    return this.startLineSeen;
  }

  /**
   * After push() threw for bytes that are not HTTP/1.1 (failure `malformed`, `chunk-length`,
   * `switch`): the message in progress as far as it was read, when its head was complete (its
   * head, the body and framing read before the fault), and the stream offset from which the
   * bytes cannot be read as HTTP/1.1 (the start of that message when its head was not complete).
   */
  stopped(): { message?: HttpPartialMessage; unreadFrom: number } {
    if (!this.headEnded || this.head === undefined) return { unreadFrom: this.msgStart };
    const message: HttpPartialMessage = {
      startOffset: this.msgStart,
      head: this.head,
      headBytes: this.headBytes,
      body: this.bodySoFar(),
      bodyBytes: this.bodyBytes,
      framingBytes: this.framingBytes,
      chunked: this.chunked,
      bodySegments: this.segments.map((x) => ({ ...x })),
    };
    return { message, unreadFrom: this.pos };
  }

  /** Stream offset just past the last byte pushed (bytes received so far). */
  get receivedBytes(): number {
    return this.base + this.buf.length;
  }

  /**
   * Feed the next bytes of the stream.
   * @param out where the messages completed go, as each completes (so that those before a fault
   *   are kept when push throws)
   * @returns `out`: the messages this chunk completed, in order (often none or one)
   * @throws WireFormatError naming the label, the stream offset and what was expected
   * @throws Error when called after end() or after a close-delimited body
   */
  push(chunk: Buffer, out: HttpMessage[] = []): HttpMessage[] {
    if (this.ended) throw new Error(`${this.label}: push after end()`);
    if (this.state === "done") {
      if (chunk.length === 0) return [];
      throw new Error(`${this.label}: push after a close-delimited body ended`);
    }
    const used = this.pos - this.base;
    if (used >= this.buf.length) this.buf = chunk;
    else this.buf = Buffer.concat([used === 0 ? this.buf : this.buf.subarray(used), chunk]);
    this.base = this.pos;
    this.run(out);
    return out;
  }

  /**
   * The stream ended (EOF). Completes a close-delimited response body.
   * @returns the messages completed by the end of stream (zero or one)
   * @throws WireFormatError when the stream ends inside a head (at the head's first byte when its
   *   start line is not complete), a chunk, or a Content-Length body; `partial` then holds the
   *   message as it stands
   */
  end(): HttpMessage[] {
    if (this.ended) return [];
    this.ended = true;
    const at = this.receivedBytes;
    if (this.state !== "done" && this.state !== "close" && !(this.state === "head" && at === this.msgStart)) {
      this.failed = this.state === "head" ? "ended-in-head" : "ended-in-body";
    }
    switch (this.state) {
      case "done":
        return [];
      case "close": {
        this.state = "done";
        return [this.complete()];
      }
      case "head":
        if (at === this.msgStart) return [];
        if (this.startLineSeen) throw this.fail(at, "more header lines and a blank line to end the head");
        throw this.fail(this.msgStart, `a complete ${this.startLineName()}`, this.pos);
      case "length":
        throw this.fail(at, `${this.remaining} more body bytes (Content-Length)`);
      case "chunk-size":
        throw this.fail(at, CHUNK_SIZE_EXPECTED);
      case "chunk-data":
        throw this.fail(at, `${this.remaining} more bytes of the ${this.chunkSize}-byte chunk that starts at byte ${this.chunkStart}`);
      case "chunk-data-end":
        throw this.fail(at, `CRLF after the ${this.chunkSize}-byte chunk that starts at byte ${this.chunkStart}`);
      case "trailer":
        throw this.fail(at, "trailer lines and a blank line to end the chunked body");
    }
  }

  /**
   * The message in progress: every byte received since the last complete message, split into
   * head, body and framing; undefined when no byte of a next message has arrived. The body is a
   * view whose bytes later pushes never change (do not mutate it); asking after every chunk costs
   * time linear in the body's size over the whole body (the bytes are copied into a buffer grown
   * by doubling), not the body so far per call.
   */
  get partial(): HttpPartialMessage | undefined {
    const received = this.receivedBytes;
    if (this.state === "done" || (this.state === "head" && received === this.msgStart)) return undefined;
    const pending = received - this.pos;
    const headComplete = this.state !== "head";
    return {
      startOffset: this.msgStart,
      head: headComplete ? this.head : undefined,
      headBytes: headComplete ? this.headBytes : received - this.msgStart,
      body: this.bodySoFar(),
      bodyBytes: this.bodyBytes,
      framingBytes: this.framingBytes + (headComplete ? pending : 0),
      chunked: this.chunked,
      bodySegments: this.segments.map((s) => ({ ...s })),
    };
  }

  /** The body received so far as one buffer: a chunk's view while it is one piece, else a view of `acc` (see there). */
  private bodySoFar(): Buffer {
    if (this.acc === undefined) {
      if (this.parts.length === 0) return EMPTY;
      if (this.parts.length === 1) return this.parts[0]!;
    }
    if (this.acc === undefined || this.acc.length < this.bodyBytes) {
      const grown = Buffer.allocUnsafe(Math.max(this.bodyBytes, 2 * (this.acc?.length ?? 0), 64 * 1024));
      this.acc?.copy(grown, 0, 0, this.accBytes);
      this.acc = grown;
    }
    for (const part of this.parts) {
      part.copy(this.acc, this.accBytes);
      this.accBytes += part.length;
    }
    this.parts = [];
    return this.acc.subarray(0, this.accBytes);
  }

  private startLineName(): string {
    return this.kind === "request" ? "request line (METHOD SP target SP HTTP/1.1)" : "status line (HTTP/1.1 SP 3-digit status)";
  }

  /** The error for `at`, showing the bytes from stream offset `from`; the failure is `malformed` unless already set. */
  private fail(at: number, expected: string, from = at): WireFormatError {
    this.failed ??= "malformed";
    const i = from - this.base;
    return new WireFormatError(this.label, at, `expected ${expected}, got ${describeBytes(this.buf, Math.max(0, i))}`);
  }

  /** Next line from `pos`, or null when its LF has not arrived yet. */
  private readLine(expected: string): Line | null {
    const buf = this.buf;
    const i = this.pos - this.base;
    // A byte loop, not buf.indexOf: head and chunk-size lines are short, and a call into the
    // runtime per line costs more than scanning its bytes here.
    const stop = Math.min(buf.length, i + MAX_LINE + 1);
    let lf = i;
    while (lf < stop && buf[lf] !== 0x0a) lf++;
    if (lf === stop) {
      if (stop - i > MAX_LINE) throw this.fail(this.pos, `${expected} within ${MAX_LINE} bytes`);
      return null;
    }
    const end = lf > i && buf[lf - 1] === 0x0d ? lf - 1 : lf;
    return { start: this.pos, end: this.base + end, next: this.base + lf + 1 };
  }

  private text(line: Line): string {
    return this.buf.toString("latin1", line.start - this.base, line.end - this.base);
  }

  private run(out: HttpMessage[]): void {
    for (;;) {
      switch (this.state) {
        case "head":
          if (!this.readHead()) return;
          if ((this.state as State) === "head") out.push(this.complete());
          break;
        case "length":
        case "chunk-data": {
          const n = Math.min(this.remaining, this.receivedBytes - this.pos);
          if (n > 0) this.takeBody(n);
          if (this.remaining > 0) return;
          if (this.state === "length") out.push(this.complete());
          else this.state = "chunk-data-end";
          break;
        }
        case "close":
          if (this.receivedBytes > this.pos) this.takeBody(this.receivedBytes - this.pos);
          return;
        case "chunk-size":
          if (!this.readChunkSize()) return;
          break;
        case "chunk-data-end": {
          const avail = this.receivedBytes - this.pos;
          if (avail === 0) return;
          const i = this.pos - this.base;
          const b0 = this.buf[i];
          let n = 0;
          if (b0 === 0x0a) n = 1;
          else if (b0 === 0x0d) {
            if (avail < 2) return;
            if (this.buf[i + 1] === 0x0a) n = 2;
          }
          if (n === 0) {
            this.failed = "chunk-length";
            throw this.fail(this.pos, `CRLF after the ${this.chunkSize}-byte chunk that starts at byte ${this.chunkStart}`);
          }
          this.framingBytes += n;
          this.pos += n;
          this.state = "chunk-size";
          break;
        }
        case "trailer": {
          const line = this.readLine("trailer line or blank line");
          if (!line) return;
          if (line.end > line.start) this.trailers.push(this.parseField(line, "trailer line (name: value)"));
          this.framingBytes += line.next - line.start;
          this.pos = line.next;
          if (line.end === line.start) out.push(this.complete());
          break;
        }
        case "done":
          return;
      }
    }
  }

  /** Consume head lines; true once the head is complete (state then says what follows). */
  private readHead(): boolean {
    for (;;) {
      const expected = this.startLineSeen ? "header line (name: value) or blank line" : this.startLineName();
      const line = this.readLine(expected);
      if (!line) {
        if (this.receivedBytes - this.msgStart > MAX_HEAD) throw this.fail(this.pos, `end of head within ${MAX_HEAD} bytes`);
        return false;
      }
      if (!this.startLineSeen) {
        if (line.end === line.start) {
          if (this.kind === "response") throw this.fail(line.start, this.startLineName());
          this.pos = line.next; // an empty line before a request line: RFC 9112 §2.2 says ignore it
          continue;
        }
        this.parseStartLine(line);
        this.startLineSeen = true;
        this.pos = line.next;
        continue;
      }
      if (line.end === line.start) {
        this.pos = line.next;
        this.headBytes = this.pos - this.msgStart;
        this.headEnded = true;
        this.headDone(line.start);
        return true;
      }
      this.headers.push(this.parseField(line, "header line (name: value)"));
      this.pos = line.next;
    }
  }

  private isFold(line: Line): boolean {
    const b = this.buf[line.start - this.base];
    return b === 0x20 || b === 0x09;
  }

  private parseStartLine(line: Line): void {
    const s = this.text(line);
    if (this.kind === "request") {
      const m = REQUEST_LINE.exec(s);
      if (!m) throw this.fail(line.start, this.startLineName());
      this.head = { startLine: s, version: m[3]!, headers: [], method: m[1]!, target: m[2]! };
    } else {
      const m = STATUS_LINE.exec(s);
      if (!m) throw this.fail(line.start, this.startLineName());
      this.head = { startLine: s, version: m[1]!, headers: [], status: Number(m[2]), reason: m[3] ?? "" };
    }
  }

  private parseField(line: Line, expected: string): HeaderField {
    if (this.isFold(line)) throw this.fail(line.start, `${expected}; obsolete line folding is not supported`);
    // One decode per line; name and value are slices of it (latin1: one char per byte).
    const t = this.text(line);
    const e = t.length;
    let colon = 0;
    while (colon < e && TOKEN_BYTE[t.charCodeAt(colon)] === 1) colon++;
    if (colon === 0 || colon === e || t.charCodeAt(colon) !== 0x3a) throw this.fail(line.start, expected);
    let vs = colon + 1;
    while (vs < e && (t.charCodeAt(vs) === 0x20 || t.charCodeAt(vs) === 0x09)) vs++;
    let ve = e;
    while (ve > vs && (t.charCodeAt(ve - 1) === 0x20 || t.charCodeAt(ve - 1) === 0x09)) ve--;
    for (let k = vs; k < ve; k++) {
      const c = t.charCodeAt(k);
      if ((c < 0x20 && c !== 0x09) || c === 0x7f) throw this.fail(line.start, expected);
    }
    return [t.slice(0, colon), t.slice(vs, ve)];
  }

  /** The head ended at `blankAt`: decide how the body is delimited. */
  private headDone(blankAt: number): void {
    const head = this.head!;
    head.headers = this.headers;
    const values = (name: string) => fieldValues(this.headers, name);
    let method = "";
    if (this.kind === "response") {
      const status = head.status!;
      if (status === 101) {
        this.failed = "switch";
        throw new WireFormatError(this.label, this.msgStart, "101 Switching Protocols: the bytes after it are not HTTP/1.1, which wirecost does not count");
      }
      if (status < 200) return this.noBody(); // interim: the final response is still to come
      method = this.answer ? this.answer(this.msgStart) : (this.methods.shift() ?? "");
      if (method === "HEAD" || status === 204 || status === 304) return this.noBody();
      if (method === "CONNECT" && status < 300) {
        this.failed = "switch";
        throw new WireFormatError(this.label, this.msgStart, "2xx answer to CONNECT: the bytes after it are a tunnel, which wirecost does not count");
      }
    }
    const te = values("transfer-encoding");
    if (te.length > 0) {
      const codings = te
        .join(",")
        .split(",")
        .map((c) => c.trim().toLowerCase())
        .filter((c) => c !== "");
      if (codings[codings.length - 1] === "chunked") {
        this.chunked = true;
        this.state = "chunk-size";
        return;
      }
      if (this.kind === "request") {
        this.failed = "malformed";
        throw new WireFormatError(this.label, blankAt, `expected Transfer-Encoding ending in chunked on a request, got "${te.join(", ")}"`);
      }
      this.closeDelimited = true;
      this.state = "close";
      return;
    }
    const cl = values("content-length");
    if (cl.length > 0) {
      const all = cl
        .join(",")
        .split(",")
        .map((v) => v.trim());
      const first = all[0]!;
      if (!/^[0-9]{1,15}$/.test(first) || all.some((v) => v !== first)) {
        this.failed = "malformed";
        throw new WireFormatError(this.label, this.msgStart, `expected one decimal Content-Length, got "${cl.join(", ")}"`);
      }
      this.remaining = Number(first);
      this.state = this.remaining > 0 ? "length" : "head";
      return;
    }
    if (this.kind === "request") return this.noBody();
    this.closeDelimited = true;
    this.state = "close";
  }

  private noBody(): void {
    this.state = "head"; // run() sees "head" right after readHead() and completes the message
  }

  private readChunkSize(): boolean {
    const line = this.readLine(CHUNK_SIZE_EXPECTED);
    const i = this.pos - this.base;
    if (!line) {
      if (i < this.buf.length && hexValue(this.buf[i]!) < 0) throw this.fail(this.pos, CHUNK_SIZE_EXPECTED);
      return false;
    }
    const e = line.end - this.base;
    let j = i;
    let size = 0;
    let digits = 0;
    for (; j < e; j++) {
      const v = hexValue(this.buf[j]!);
      if (v < 0) break;
      if (size > 0 || v > 0) digits++;
      size = size * 16 + v;
    }
    if (j === i || !CHUNK_EXT.test(this.buf.toString("latin1", j, e))) throw this.fail(line.start, CHUNK_SIZE_EXPECTED);
    if (digits > 12) throw this.fail(line.start, "a chunk size below 2^48");
    this.framingBytes += line.next - line.start;
    this.chunkStart = line.start;
    this.chunkSize = size;
    this.pos = line.next;
    if (size === 0) this.state = "trailer";
    else {
      this.remaining = size;
      this.state = "chunk-data";
    }
    return true;
  }

  private takeBody(n: number): void {
    const i = this.pos - this.base;
    this.parts.push(this.buf.subarray(i, i + n));
    const last = this.segments[this.segments.length - 1];
    if (last && last.streamOffset + last.length === this.pos && last.bodyOffset + last.length === this.bodyBytes) last.length += n;
    else this.segments.push({ bodyOffset: this.bodyBytes, streamOffset: this.pos, length: n });
    this.bodyBytes += n;
    this.pos += n;
    if (this.state !== "close") this.remaining -= n;
  }

  /** Finish the message in progress at `pos` and reset for the next one. */
  private complete(): HttpMessage {
    const head = this.head!;
    const body =
      this.acc !== undefined ? this.bodySoFar() : this.parts.length === 0 ? EMPTY : this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const msg: HttpMessage = {
      startLine: head.startLine,
      version: head.version,
      headers: head.headers,
      startOffset: this.msgStart,
      endOffset: this.pos,
      headBytes: this.headBytes,
      body,
      bodyBytes: this.bodyBytes,
      framingBytes: this.framingBytes,
      chunked: this.chunked,
      closeDelimited: this.closeDelimited,
      trailers: this.trailers,
      bodySegments: this.segments,
    };
    if (head.method !== undefined) msg.method = head.method;
    if (head.target !== undefined) msg.target = head.target;
    if (head.status !== undefined) msg.status = head.status;
    if (head.reason !== undefined) msg.reason = head.reason;
    this.msgStart = this.pos;
    this.startLineSeen = false;
    this.headEnded = false;
    this.head = undefined;
    this.headers = [];
    this.headBytes = 0;
    this.remaining = 0;
    this.parts = [];
    this.acc = undefined;
    this.accBytes = 0;
    this.segments = [];
    this.bodyBytes = 0;
    this.framingBytes = 0;
    this.chunked = false;
    this.closeDelimited = false;
    this.trailers = [];
    if (this.state !== "done") this.state = "head";
    return msg;
  }
}

/**
 * Stream offset of a body byte: maps `bodyOffset` (within the de-chunked body) through
 * `segments`. An offset equal to the body length maps just past the last segment.
 * @throws RangeError when the offset is outside the body
 */
export function bodyToStreamOffset(segments: readonly BodySegment[], bodyOffset: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segments[mid]!;
    if (bodyOffset < s.bodyOffset) hi = mid - 1;
    else if (bodyOffset >= s.bodyOffset + s.length) lo = mid + 1;
    else return s.streamOffset + (bodyOffset - s.bodyOffset);
  }
  const last = segments[segments.length - 1];
  if (last && bodyOffset === last.bodyOffset + last.length) return last.streamOffset + last.length;
  throw new RangeError(`body offset ${bodyOffset} is outside the body`);
}

/** Value of the first header field named `name` (case-insensitive), or undefined. */
export function headerValue(head: Pick<HttpHead, "headers">, name: string): string | undefined {
  const n = name.toLowerCase();
  for (const [k, v] of head.headers) if (k.length === n.length && k.toLowerCase() === n) return v;
  return undefined;
}

/** Values of every field named `name` (lower-case), in order; [] when none. */
function fieldValues(fields: readonly HeaderField[], name: string): string[] {
  const out: string[] = [];
  for (const [k, v] of fields) if (k.length === name.length && k.toLowerCase() === name) out.push(v);
  return out;
}

/** Value of a hex digit byte (0–15), or -1. */
export function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  return -1;
}

/**
 * The per-message table of one count, kept in columns (one array per field) rather than one
 * object per row: a large log has hundreds of thousands of rows, and objects would cost more to
 * build and collect than counting the bytes does. {@link MessageTable.toRows} and
 * {@link MessageTable.row} give {@link MessageRow} objects where a caller wants them.
 */
import { MESSAGE_KINDS, type MessageKind } from "../../format/messages.js";
import type { Direction } from "../capture/log.js";
import type { AnomalyCode } from "../../format/anomalies.js";
import type { JsonRpcKind } from "./jsonrpc.js";

/**
 * One place the bytes went. Summed over all rows, `headBytes`, `bodyBytes`, `framingBytes`,
 * `newlineBytes` and `unattributedBytes` add up to `total_bytes`; per direction, to that
 * direction's columns. A JSON-RPC
 * row's `bodyBytes` is the object's own text (`{` to `}`); inside a multi-line SSE event that
 * text includes the "\n" joining the data lines.
 */
export interface MessageRow {
  /** Connection (0 for stdio without one). */
  conn: number;
  dir: Direction;
  /** Order of the row in the log, from 1: by the log `seq` of the chunk holding its first byte, then connection, direction, offset. */
  seq: number;
  /** Log `seq` of the chunk holding the row's first byte. */
  logSeq: number;
  /** Stream offset of the row's first byte, bytes. */
  offset: number;
  kind: MessageKind;
  /** JSON-RPC method; for a result or error, that of the request with the same id sent the other way before it, when known. */
  method?: string;
  /** JSON-RPC id as canonical JSON text. */
  id?: string;
  /** HTTP rows: the request or status line. */
  startLine?: string;
  /** HTTP head bytes (http-only rows), bytes. */
  headBytes: number;
  /** Body bytes: a JSON-RPC object's text, or an HTTP body's / stdio line's bytes outside JSON-RPC objects. */
  bodyBytes: number;
  /** HTTP chunk framing (http-only rows), bytes. */
  framingBytes: number;
  /** Stdio newline ending the line (1 on the line's only message, or on its line-only row), bytes. */
  newlineBytes: number;
  /** `_meta` value bytes of this message (both directions; the meta_bytes column sums c2s only). */
  metaBytes: number;
  /** True for a JSON-RPC message carried in a server-sent event. */
  sse?: boolean;
  /** `unattributed` rows: bytes attributed to no layer (0 on every other row), bytes. */
  unattributedBytes: number;
  /**
   * True when the HTTP message was still open at the end of the log, cut by the end of its
   * connection or by bytes that are not HTTP/1.1 (counted as it stands), or a stdio partial line.
   */
  incomplete?: boolean;
  /** Codes of the anomalies this row is involved in (runner/count/anomalies.ts), joined by ","; absent when none. */
  anomaly?: string;
}

/** The kinds, by their code in {@link MessageTable.kind}. */
const KINDS: readonly MessageKind[] = MESSAGE_KINDS;
/** Code of each kind in {@link MessageTable.kind}. An `unattributed` row keeps its bytes in the body column. */
export const KIND = { request: 0, notification: 1, result: 2, error: 3, "http-only": 4, "line-only": 5, unattributed: 6 } as const satisfies Record<
  MessageKind,
  number
>;
/** The {@link KIND} code of a JSON-RPC message kind. */
export function kindCode(kind: JsonRpcKind): number {
  switch (kind) {
    case "request":
      return KIND.request;
    case "notification":
      return KIND.notification;
    case "result":
      return KIND.result;
    case "error":
      return KIND.error;
  }
}

/** Row flags (MessageTable `add`): a JSON-RPC message carried in an SSE event. */
export const FLAG_SSE = 1;
/** Row flags (MessageTable `add`): an HTTP message counted as it stands (not complete), or a stdio partial line. */
export const FLAG_INCOMPLETE = 2;
/** Row flags (MessageTable `add`): the row carries its stdio line's newline (1 byte). */
export const FLAG_NEWLINE = 4;

/** Rows per block of a {@link MessageTable}, as a power of two. */
const BLOCK_BITS = 14;
const BLOCK_ROWS = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_ROWS - 1;
/** Largest log `seq`, per row, for which {@link MessageTable.finish} sorts by counting (else by comparison). */
const COUNTING_SORT_SLACK = 8;

/** The columns of {@link BLOCK_ROWS} rows. Byte columns are bytes (below 4 GiB: a stream is one Buffer). */
class Block {
  /** Index into the table's stream list. */
  readonly stream = new Uint32Array(BLOCK_ROWS);
  readonly logSeq = new Float64Array(BLOCK_ROWS);
  readonly offset = new Float64Array(BLOCK_ROWS);
  /** {@link KIND} codes. */
  readonly kind = new Uint8Array(BLOCK_ROWS);
  /** FLAG_* bits. */
  readonly flags = new Uint8Array(BLOCK_ROWS);
  readonly headBytes = new Uint32Array(BLOCK_ROWS);
  readonly bodyBytes = new Uint32Array(BLOCK_ROWS);
  readonly framingBytes = new Uint32Array(BLOCK_ROWS);
  readonly metaBytes = new Uint32Array(BLOCK_ROWS);
  /** JSON-RPC method, id (canonical JSON text) and HTTP start line: numbers of interned strings, 0 for none. */
  readonly method = new Uint32Array(BLOCK_ROWS);
  readonly id = new Uint32Array(BLOCK_ROWS);
  readonly startLine = new Uint32Array(BLOCK_ROWS);
}

/**
 * Message rows in columns, in blocks of 16,384 rows (a block is allocated when the first row
 * needs it: no copies as the table grows, no room reserved that is not used). Add rows with
 * {@link add} in any order of streams, but within one stream in offset order; then
 * {@link finish} once. Strings (methods, ids, start lines) are kept once each. Before finish,
 * index k is the k-th row added; after, {@link row}(i) is the i-th row in log order.
 */
export class MessageTable {
  /** Rows added. */
  length = 0;
  private readonly blocks: Block[] = [];
  /** The strings the string columns refer to: number n is strings[n - 1]. */
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  /** conn and direction of each stream the rows belong to. */
  private readonly streams: { conn: number; dir: Direction }[] = [];
  /** Stream index by `conn * 2 + (dir === "s2c" ? 1 : 0)`. */
  private readonly streamIds = new Map<number, number>();
  /** Log order: order[i] is the index (in adding order) of the i-th row in the log; set by finish. */
  private order: Uint32Array | undefined;
  /** Anomaly codes by row (adding order); few rows have any. */
  private readonly marks = new Map<number, AnomalyCode[]>();

  /** The index of a stream (conn, dir) for {@link add}, the same for every call with the same stream. */
  streamId(conn: number, dir: Direction): number {
    const key = conn * 2 + (dir === "s2c" ? 1 : 0);
    let id = this.streamIds.get(key);
    if (id === undefined) {
      id = this.streams.push({ conn, dir }) - 1;
      this.streamIds.set(key, id);
    }
    return id;
  }

  /**
   * Add a row.
   * @param stream from {@link streamId}
   * @param logSeq log `seq` of the chunk holding the row's first byte
   * @param offset stream offset of the row's first byte, bytes
   * @param kind a {@link KIND} code
   * @param head HTTP head bytes; body: body bytes; framing: chunk framing bytes; meta: `_meta` value bytes
   * @param flags FLAG_* bits
   * @returns its index (in adding order)
   * @throws Error after {@link finish}
   */
  add(
    stream: number,
    logSeq: number,
    offset: number,
    kind: number,
    head: number,
    body: number,
    framing: number,
    meta: number,
    flags: number,
    method?: string,
    id?: string,
    startLine?: string,
  ): number {
    if (this.order) throw new Error("MessageTable: add after finish");
    const k = this.length++;
    const j = k & BLOCK_MASK;
    const b = j === 0 && this.blocks.length === k >>> BLOCK_BITS ? this.newBlock() : this.blocks[k >>> BLOCK_BITS]!;
    b.stream[j] = stream;
    b.logSeq[j] = logSeq;
    b.offset[j] = offset;
    b.kind[j] = kind;
    b.flags[j] = flags;
    b.headBytes[j] = head;
    b.bodyBytes[j] = body;
    b.framingBytes[j] = framing;
    b.metaBytes[j] = meta;
    b.method[j] = method === undefined ? 0 : this.intern(method);
    b.id[j] = id === undefined ? 0 : this.intern(id);
    b.startLine[j] = startLine === undefined ? 0 : this.intern(startLine);
    return k;
  }

  private newBlock(): Block {
    const b = new Block();
    this.blocks.push(b);
    return b;
  }

  /** Take `bytes` out of the body bytes of row k (a message found inside that row's body). */
  takeBody(k: number, bytes: number): void {
    const b = this.blocks[k >>> BLOCK_BITS]!;
    b.bodyBytes[k & BLOCK_MASK] = b.bodyBytes[k & BLOCK_MASK]! - bytes;
  }

  /** The stream index of row k (as {@link add} got it). */
  streamOf(k: number): number {
    return this.blocks[k >>> BLOCK_BITS]!.stream[k & BLOCK_MASK]!;
  }

  /** Drop the rows from index `length` on (a counter that gave up on a connection takes its rows back). */
  truncate(length: number): void {
    if (length < this.length) this.length = length;
    for (const k of this.marks.keys()) if (k >= length) this.marks.delete(k);
  }

  /** Mark row k (adding order) as involved in an anomaly with this code (once per code). */
  mark(k: number, code: AnomalyCode): void {
    const codes = this.marks.get(k);
    if (!codes) this.marks.set(k, [code]);
    else if (!codes.includes(code)) codes.push(code);
  }

  /** Where row k (adding order) is: its stream, offset and bytes (head, body, framing), bytes. */
  located(k: number): { conn: number; dir: Direction; offset: number; bytes: number } {
    const b = this.blocks[k >>> BLOCK_BITS]!;
    const j = k & BLOCK_MASK;
    const { conn, dir } = this.streams[b.stream[j]!]!;
    return { conn, dir, offset: b.offset[j]!, bytes: b.headBytes[j]! + b.bodyBytes[j]! + b.framingBytes[j]! };
  }

  /** The number that stands for `text` in the string columns; each distinct string is kept once. */
  private intern(text: string): number {
    let n = this.stringIds.get(text);
    if (n === undefined) {
      n = this.strings.push(text);
      this.stringIds.set(text, n);
    }
    return n;
  }

  /** The string a string column holds (undefined for 0). */
  private text(n: number): string | undefined {
    return n === 0 ? undefined : this.strings[n - 1];
  }

  /**
   * Put the rows in log order: by the log `seq` of the chunk holding each row's first byte; rows
   * of one chunk belong to one stream and keep their adding (offset) order. Then give each result
   * or error without a method the method of the latest request with the same id sent the other
   * way before it. Call once, after the last add.
   * @param anomaly called, in log order, for each JSON-RPC message that is an anomaly: a request
   *   with id null (`null-id-request`); a response whose id no request sent the other way before
   *   it has (`unsolicited-response`; an error with id null is not one: JSON-RPC 2.0 §5 gives it
   *   to a request whose id could not be read), or has only as another JSON type (`"1"` and `1`:
   *   `id-type-mismatch`, never paired). `k` is the row (adding order); it may throw.
   */
  finish(anomaly?: (code: AnomalyCode, k: number, detail: string) => void): this {
    const n = this.length;
    const seq = new Float64Array(n);
    for (let k = 0; k < n; k++) seq[k] = this.blocks[k >>> BLOCK_BITS]!.logSeq[k & BLOCK_MASK]!;
    const order = new Uint32Array(n);
    let sorted = true;
    let integers = true;
    let max = 0;
    for (let k = 0; k < n; k++) {
      const s = seq[k]!;
      if (k > 0 && s < seq[k - 1]!) sorted = false;
      if (s > max) max = s;
      if (!(Number.isInteger(s) && s >= 0)) integers = false;
    }
    if (sorted) for (let k = 0; k < n; k++) order[k] = k;
    else if (integers && max <= COUNTING_SORT_SLACK * n + 1024) {
      // A stable counting sort on the log seq.
      const starts = new Uint32Array(max + 2);
      for (let k = 0; k < n; k++) starts[seq[k]! + 1]!++;
      for (let s = 1; s < starts.length; s++) starts[s]! += starts[s - 1]!;
      for (let k = 0; k < n; k++) order[starts[seq[k]!]!++] = k;
    } else {
      for (let k = 0; k < n; k++) order[k] = k;
      order.sort((a, b) => seq[a]! - seq[b]! || a - b);
    }
    this.order = order;
    /** Method of the latest request by id, per direction (c2s, s2c). */
    const requests = [new Map<number, number>(), new Map<number, number>()];
    /** The ids of those requests with JSON types ignored, per direction; made at the first response that finds no request. */
    const loose: (Set<string> | undefined)[] = [undefined, undefined];
    const nullId = this.stringIds.get("null");
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      const b = this.blocks[k >>> BLOCK_BITS]!;
      const j = k & BLOCK_MASK;
      const id = b.id[j]!;
      if (id === 0) continue;
      const kind = b.kind[j]!;
      const c2s = this.streams[b.stream[j]!]!.dir === "c2s";
      if (kind === KIND.request) {
        const d = c2s ? 0 : 1;
        if (b.method[j] !== 0) requests[d]!.set(id, b.method[j]!);
        loose[d]?.add(looseId(this.text(id)!));
        if (id === nullId)
          anomaly?.(
            "null-id-request",
            k,
            `request ${this.text(b.method[j]!) ?? ""} has "id": null: its response cannot be told from an error about an unreadable id`,
          );
      } else if ((kind === KIND.result || kind === KIND.error) && b.method[j] === 0) {
        const d = c2s ? 1 : 0;
        const m = requests[d]!.get(id);
        if (m !== undefined) b.method[j] = m;
        else if (anomaly && !(id === nullId && kind === KIND.error)) {
          let seen = loose[d];
          if (!seen) {
            seen = new Set<string>();
            for (const r of requests[d]!.keys()) seen.add(looseId(this.text(r)!));
            loose[d] = seen;
          }
          const text = this.text(id)!;
          const what = kind === KIND.result ? "result" : "error";
          if (seen.has(looseId(text))) anomaly("id-type-mismatch", k, `${what} id ${text} has another JSON type than the id of the request it would answer`);
          else anomaly("unsolicited-response", k, `${what} id ${text} answers no request sent the other way before it`);
        }
      }
    }
    return this;
  }

  /**
   * The i-th row in log order, as an object (`seq` = i + 1; optional fields only when set).
   * @throws Error before {@link finish}, RangeError when i is out of range
   */
  row(i: number): MessageRow {
    if (!this.order) throw new Error("MessageTable: row before finish");
    if (!(i >= 0 && i < this.length)) throw new RangeError(`row ${i} of ${this.length}`);
    const k = this.order[i]!;
    const b = this.blocks[k >>> BLOCK_BITS]!;
    const j = k & BLOCK_MASK;
    const { conn, dir } = this.streams[b.stream[j]!]!;
    const flags = b.flags[j]!;
    const unattributed = b.kind[j] === KIND.unattributed;
    const r: MessageRow = {
      conn,
      dir,
      seq: i + 1,
      logSeq: b.logSeq[j]!,
      offset: b.offset[j]!,
      kind: KINDS[b.kind[j]!]!,
      headBytes: b.headBytes[j]!,
      bodyBytes: unattributed ? 0 : b.bodyBytes[j]!,
      framingBytes: b.framingBytes[j]!,
      newlineBytes: flags & FLAG_NEWLINE ? 1 : 0,
      metaBytes: b.metaBytes[j]!,
      unattributedBytes: unattributed ? b.bodyBytes[j]! : 0,
    };
    const method = this.text(b.method[j]!);
    const id = this.text(b.id[j]!);
    const startLine = this.text(b.startLine[j]!);
    if (method !== undefined) r.method = method;
    if (id !== undefined) r.id = id;
    if (startLine !== undefined) r.startLine = startLine;
    if (flags & FLAG_SSE) r.sse = true;
    if (flags & FLAG_INCOMPLETE) r.incomplete = true;
    const codes = this.marks.get(k);
    if (codes) r.anomaly = codes.join(",");
    return r;
  }

  /** Every row in log order, as objects. @throws Error before {@link finish} */
  toRows(): MessageRow[] {
    const out: MessageRow[] = new Array<MessageRow>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.row(i);
    return out;
  }
}

/** A canonical id's text with JSON types ignored: a string's value (`"1"` gives `1`), anything else as it is. */
function looseId(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.slice(1, -1); // a raw control character inside: the characters between the quotes
  }
}

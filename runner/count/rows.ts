/**
 * Message rows shared by the counters: one fixed-shape constructor, and the last step that puts
 * rows in log order and names the method each response answers.
 */
import type { Direction } from "../capture/log.js";
import type { MessageKind, MessageRow } from "./columns.js";

/**
 * A row with its place in the log and zero bytes; `seq` is 0 until {@link finishRows}.
 * Set the byte fields and optional fields on it by assignment.
 */
export function newRow(conn: number, dir: Direction, logSeq: number, offset: number, kind: MessageKind): MessageRow {
  return { conn, dir, seq: 0, logSeq, offset, kind, headBytes: 0, bodyBytes: 0, framingBytes: 0, newlineBytes: 0, metaBytes: 0 };
}

/**
 * Order rows by (logSeq, conn, dir c2s first, offset), stable, number them from 1 (`seq`, set on
 * the rows themselves), and give each result or error without a method the method of the latest
 * request with the same id sent the other way before it.
 * @returns the same row objects, in log order
 */
export function finishRows(rows: MessageRow[]): MessageRow[] {
  const n = rows.length;
  // Sort indexes over typed key arrays: the rows differ in shape (optional fields), which would
  // make a comparator over the objects slow.
  const logSeq = new Float64Array(n);
  const conn = new Float64Array(n);
  const dir = new Uint8Array(n);
  const offset = new Float64Array(n);
  const order: number[] = new Array<number>(n);
  for (let k = 0; k < n; k++) {
    const r = rows[k]!;
    logSeq[k] = r.logSeq;
    conn[k] = r.conn;
    dir[k] = r.dir === "c2s" ? 0 : 1;
    offset[k] = r.offset;
    order[k] = k;
  }
  order.sort((a, b) => logSeq[a]! - logSeq[b]! || conn[a]! - conn[b]! || dir[a]! - dir[b]! || offset[a]! - offset[b]! || a - b);
  const requests = new Map<string, string>();
  const out: MessageRow[] = new Array<MessageRow>(n);
  for (let k = 0; k < n; k++) {
    const row = rows[order[k]!]!;
    row.seq = k + 1;
    out[k] = row;
    if (row.id === undefined) continue;
    if (row.kind === "request" && row.method !== undefined) requests.set(`${row.dir}|${row.id}`, row.method);
    else if ((row.kind === "result" || row.kind === "error") && row.method === undefined) {
      const m = requests.get(`${row.dir === "c2s" ? "s2c" : "c2s"}|${row.id}`);
      if (m !== undefined) row.method = m;
    }
  }
  return out;
}

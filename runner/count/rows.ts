/**
 * Shared last step of the counters: order message rows as they happened and name the method
 * each response answers.
 */
import type { MessageRow } from "./columns.js";

/** A message row before it has its place in the log order. */
export type RowDraft = Omit<MessageRow, "seq">;

/**
 * Sort rows by (logSeq, conn, dir c2s first, offset), stable, number them from 1 (`seq`), and
 * give each result or error without a method the method of the latest request with the same id
 * sent the other way before it.
 */
export function finishRows(drafts: RowDraft[]): MessageRow[] {
  const order = drafts.map((d, k) => ({ d, k }));
  order.sort(
    (a, b) =>
      a.d.logSeq - b.d.logSeq ||
      a.d.conn - b.d.conn ||
      (a.d.dir === b.d.dir ? 0 : a.d.dir === "c2s" ? -1 : 1) ||
      a.d.offset - b.d.offset ||
      a.k - b.k,
  );
  const requests = new Map<string, string>();
  return order.map(({ d }, k) => {
    const { conn, dir, ...rest } = d;
    const row: MessageRow = { conn, dir, seq: k + 1, ...rest };
    if (row.id !== undefined) {
      if (row.kind === "request" && row.method !== undefined) requests.set(`${row.dir}|${row.id}`, row.method);
      else if ((row.kind === "result" || row.kind === "error") && row.method === undefined) {
        const m = requests.get(`${row.dir === "c2s" ? "s2c" : "c2s"}|${row.id}`);
        if (m !== undefined) row.method = m;
      }
    }
    return row;
  });
}

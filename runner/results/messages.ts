/**
 * The per-message breakdown of one run, kept beside its capture log as
 * `logs/<config>/<repeat>.messages.tsv`, so a page can show where the bytes went without
 * parsing logs. Columns follow runner/count's MessageRow; byte columns are bytes.
 */
import type { MessageTable } from "../count/index.js";
import { toTsv, writeAtomic } from "./files.js";

/** Columns of a messages.tsv file, in order. */
export const MESSAGE_COLUMNS = ["seq", "conn", "dir", "kind", "method", "id", "start_line", "head_bytes", "body_bytes", "framing_bytes", "newline_bytes", "meta_bytes", "sse", "incomplete"] as const;

/** The messages.tsv text of a finished message table: header and one row per message, in log order. */
export function messagesTsv(messages: MessageTable): string {
  const rows = messages.toRows().map((m) => [m.seq, m.conn, m.dir, m.kind, m.method ?? "", m.id ?? "", m.startLine ?? "", m.headBytes, m.bodyBytes, m.framingBytes, m.newlineBytes, m.metaBytes, m.sse === true, m.incomplete === true]);
  return toTsv(MESSAGE_COLUMNS, rows);
}

/** Write a finished message table to `path` atomically. */
export function writeMessages(path: string, messages: MessageTable): void {
  writeAtomic(path, messagesTsv(messages));
}

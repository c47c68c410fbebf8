/**
 * The per-message breakdown of one run, kept beside its capture log (format/messages.ts owns the
 * file's columns): the counter's message rows, with each HTTP message's head summary.
 */
import type { Stream } from "../capture/log.js";
import type { MessageTable } from "../count/index.js";
import { writeAtomic } from "../../format/files.js";
import { messagesTsv, type MessageRow } from "../../format/messages.js";
import { headSummaries } from "./heads.js";

/**
 * The rows of messages.tsv for a finished message table. `http-only` rows take, in order per
 * connection and direction, the head summaries of `streams` (the streams that were counted).
 */
export function messageRows(messages: MessageTable, streams: readonly Stream[]): MessageRow[] {
  const rows = messages.toRows();
  const heads = rows.some((m) => m.kind === "http-only") ? headSummaries(streams) : new Map();
  const used = new Map<string, number>();
  return rows.map((m) => {
    let headerNames: string[] = [];
    let contentType = "";
    if (m.kind === "http-only") {
      const key = `${m.conn}:${m.dir}`;
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      const head = heads.get(key)?.[n];
      if (head !== undefined) ({ headerNames, contentType } = head);
    }
    return {
      seq: m.seq,
      conn: m.conn,
      dir: m.dir,
      kind: m.kind,
      method: m.method ?? "",
      id: m.id ?? "",
      startLine: m.startLine ?? "",
      headBytes: m.headBytes,
      bodyBytes: m.bodyBytes,
      framingBytes: m.framingBytes,
      newlineBytes: m.newlineBytes,
      metaBytes: m.metaBytes,
      sse: m.sse === true,
      incomplete: m.incomplete === true,
      headerNames,
      contentType,
    };
  });
}

/** Write a run's messages.tsv to `path` atomically (see {@link messageRows}). */
export function writeMessages(path: string, messages: MessageTable, streams: readonly Stream[]): void {
  writeAtomic(path, messagesTsv(messageRows(messages, streams)));
}

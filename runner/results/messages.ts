/**
 * The per-message breakdown of one run, kept beside its capture log (format/messages.ts owns the
 * file's columns): the counter's message rows, with each HTTP message's head summary.
 */
import type { Stream } from "../capture/log.js";
import { rmSync } from "node:fs";
import type { CountResult, MessageTable } from "../count/index.js";
import { anomalyCounts } from "../count/anomalies.js";
import { anomaliesTsv } from "../../format/anomalies.js";
import { anomaliesPathOf, messagesPathOf } from "../../format/layout.js";
import { writeAtomic } from "../../format/files.js";
import { jsonFieldPaths, messagesTsv, type MessageRow } from "../../format/messages.js";
import { headSummaries } from "./heads.js";
import { countAllTokens } from "../count/tokens.js";

const JSONRPC_KINDS: readonly string[] = ["request", "notification", "result", "error"];

/**
 * The rows of messages.tsv for a finished message table. `http-only` rows take, in order per
 * connection and direction, the head summaries of `streams` (the streams that were counted);
 * JSON-RPC rows the tokens of their own text (runner/count/tokens.ts) where that text is one whole
 * JSON value in the stream (not split by chunk framing or SSE data lines) and holds no run the
 * tokenizer cannot count in time (`LONGEST_RUN_COUNTED`).
 */
export function messageRows(messages: MessageTable, streams: readonly Stream[]): MessageRow[] {
  const rows = messages.toRows();
  const heads = rows.some((m) => m.kind === "http-only") ? headSummaries(streams) : new Map();
  const used = new Map<string, number>();
  const byStream = new Map(streams.map((s) => [`${s.conn}:${s.dir}`, s]));
  /** A JSON-RPC message's own text and its value, read from the stream; undefined when that text is not one whole JSON value (split by framing). */
  const parsed = (m: (typeof rows)[number]): { text: string; value: unknown } | undefined => {
    if (!JSONRPC_KINDS.includes(m.kind)) return undefined;
    const bytes = byStream.get(`${m.conn}:${m.dir}`)?.bytes;
    if (!bytes) return undefined;
    const text = bytes.toString("utf8", m.offset, m.offset + m.bodyBytes);
    try {
      return { text, value: JSON.parse(text) };
    } catch {
      return undefined;
    }
  };
  return rows.map((m) => {
    const message = parsed(m);
    const tokens = message && countAllTokens(message.text);
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
      anomalies: m.anomaly ? m.anomaly.split(",") : [],
      unattributedBytes: m.unattributedBytes,
      jsonFields: message !== undefined && m.dir === "c2s" ? jsonFieldPaths(message.value) : [],
      ...(tokens ? { tokens } : {}),
    };
  });
}

/** Write a run's messages.tsv to `path` atomically (see {@link messageRows}). */
export function writeMessages(path: string, messages: MessageTable, streams: readonly Stream[]): void {
  writeAtomic(path, messagesTsv(messageRows(messages, streams)));
}

/**
 * Write what a counted run keeps beside its capture log `log`: its messages.tsv and, when the
 * count found anomalies, its anomalies.tsv (format/anomalies.ts; a stale one is removed when there
 * are none).
 * @returns the anomaly codes with their counts, for the run's journal record (undefined: none)
 */
export function writeRunBreakdown(log: string, result: CountResult, streams: readonly Stream[]): Record<string, number> | undefined {
  writeMessages(messagesPathOf(log), result.messages, streams);
  const file = anomaliesPathOf(log);
  if (result.anomalies.length === 0) {
    rmSync(file, { force: true });
    return undefined;
  }
  writeAtomic(
    file,
    anomaliesTsv(result.anomalies.map((a) => ({ code: a.code, conn: a.conn, dir: a.dir, offset: a.offset, bytes: a.bytes, detail: a.detail ?? "" }))),
  );
  return anomalyCounts(result.anomalies) as Record<string, number>;
}

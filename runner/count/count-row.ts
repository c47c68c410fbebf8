/**
 * What a count is: the columns of one counted capture log (ARCHITECTURE.md, "What a byte count
 * means"), the counts beside them, and the result that holds them with the per-message table
 * (message-table.ts) that says where the bytes went and the anomalies (anomalies.ts) named on the
 * way; and how a counter reports an anomaly into a count in progress.
 */
import type { Direction } from "../capture/log.js";
import { WireFormatError } from "../wire/errors.js";
import { streamLabel, type Anomaly } from "./anomalies.js";
import { ANOMALY_CODES } from "../../format/anomalies.js";
import { MessageTable } from "./message-table.js";
import { COUNT_COLUMNS, type CountColumn } from "../../format/count-columns.js";

/**
 * One counted capture log: a non-negative integer per count column (format/count-columns.ts says
 * each one's unit and meaning). For HTTP, `request_head_bytes + request_body_bytes +
 * response_head_bytes + response_body_bytes + chunk_framing_bytes + unattributed_bytes =
 * total_bytes`; for stdio the HTTP columns are 0 and `newline_bytes + unattributed_bytes` plus the
 * bytes of the lines (JSON-RPC messages and the bytes beside them, in the message rows) is
 * `total_bytes`.
 */
export type CountRow = Record<CountColumn, number>;

export { COUNT_COLUMNS, type CountColumn };

/** A CountRow of zeros. */
export function emptyCountRow(): CountRow {
  const row = {} as CountRow;
  for (const c of COUNT_COLUMNS) row[c] = 0;
  return row;
}

/** Counts that are not columns, for the curious and for checks. */
export interface CountBreakdown {
  /** HTTP requests seen (head complete), requests. */
  http_requests: number;
  /** HTTP responses seen, interim 1xx included (head complete), responses. */
  http_responses: number;
  /** HTTP messages still open at the end of the log, counted as they stand (e.g. an SSE stream not closed), messages. */
  open_http_messages: number;
  /** Stdio: bytes after the last newline of each direction, not a message, bytes (in unattributed_bytes). */
  partial_line_bytes: number;
}

/** The result of counting one capture log. */
export interface CountResult {
  row: CountRow;
  /** The per-message rows, finished (in log order; `toRows()` gives them as {@link MessageRow} objects). */
  messages: MessageTable;
  breakdown: CountBreakdown;
  /** What the counter counted and named instead of stopping on, by connection, direction and offset (empty with `strict`, which throws the first). */
  anomalies: Anomaly[];
}

/** A count in progress: the row, the breakdown and the message table, added to stream by stream. */
export interface Count {
  row: CountRow;
  breakdown: CountBreakdown;
  messages: MessageTable;
  anomalies: Anomaly[];
  /** Throw the first anomaly (a WireFormatError) instead of recording it. */
  strict: boolean;
  /** Streams counted, and how many of them ended (an eof record). */
  streams: number;
  endedStreams: number;
  /** The stream holding the log's last chunk so far (greatest seq), for an anomaly about the end of the log. */
  last?: { seq: number; conn: number; dir: Direction; length: number };
}

/** A count of nothing yet. @param strict throw the first anomaly instead of recording it */
export function newCount(strict = false): Count {
  return {
    row: emptyCountRow(),
    breakdown: { http_requests: 0, http_responses: 0, open_http_messages: 0, partial_line_bytes: 0 },
    messages: new MessageTable(),
    anomalies: [],
    strict,
    streams: 0,
    endedStreams: 0,
  };
}

/** Note a stream about to be counted into `acc` (for the anomalies about the end of the log). */
export function noteStream(acc: Count, stream: { conn: number; dir: Direction; bytes: Buffer; ended: boolean; chunkSeq: readonly number[] }): void {
  acc.streams++;
  if (stream.ended) acc.endedStreams++;
  const seq = stream.chunkSeq[stream.chunkSeq.length - 1];
  if (seq !== undefined && (acc.last === undefined || seq > acc.last.seq)) acc.last = { seq, conn: stream.conn, dir: stream.dir, length: stream.bytes.length };
}

/**
 * Add an anomaly to a count (and mark its per-message rows), or with `acc.strict` throw it.
 * @param rows indexes (adding order) of the message rows it involves
 * @throws WireFormatError `LABEL at byte OFFSET: DETAIL (CODE)` when `acc.strict` (`LABEL: DETAIL (CODE)` for `empty-log`)
 */
export function reportAnomaly(acc: Count, anomaly: Anomaly, label: string, ...rows: number[]): void {
  if (acc.strict) {
    const offset = anomaly.code === "empty-log" ? undefined : anomaly.offset;
    throw new WireFormatError(label, offset, `${anomaly.detail ?? ANOMALY_CODES[anomaly.code]} (${anomaly.code})`);
  }
  acc.anomalies.push(anomaly);
  for (const k of rows) acc.messages.mark(k, anomaly.code);
}

/**
 * The anomalies about the log as a whole, once every stream is counted into `acc`: `empty-log`
 * when it holds no bytes; `log-truncated` (at the end of the stream holding the log's last
 * chunk) when no stream has an eof record and no stream was already found cut.
 * @param stdio name streams as stdio pipes
 * @throws WireFormatError with `acc.strict` (see {@link reportAnomaly})
 */
export function endOfLogAnomalies(acc: Count, stdio: boolean): void {
  if (acc.row.total_bytes === 0) {
    reportAnomaly(
      acc,
      { code: "empty-log", conn: 0, dir: "c2s", offset: 0, bytes: 0, detail: "the log holds no bytes (no records, or only eof records)" },
      "capture",
    );
    return;
  }
  const last = acc.last;
  if (acc.endedStreams > 0 || last === undefined || acc.anomalies.some((a) => a.code === "log-truncated")) return;
  reportAnomaly(
    acc,
    {
      code: "log-truncated",
      conn: last.conn,
      dir: last.dir,
      offset: last.length,
      bytes: 0,
      detail: "the log holds no eof record: it may end before its connections did, and the totals may be short",
    },
    streamLabel(last.conn, last.dir, stdio),
  );
}

/**
 * Finish the message table of `acc` (log order, methods of responses) and report the anomalies
 * of its JSON-RPC messages (`null-id-request`, `unsolicited-response`, `id-type-mismatch`; see
 * MessageTable.finish), each covering the message's bytes.
 * @throws WireFormatError with `acc.strict`
 */
export function finishMessages(acc: Count, stdio: boolean): MessageTable {
  return acc.messages.finish((code, k, detail) => {
    const at = acc.messages.located(k);
    reportAnomaly(acc, { code, conn: at.conn, dir: at.dir, offset: at.offset, bytes: at.bytes, detail }, streamLabel(at.conn, at.dir, stdio), k);
  });
}

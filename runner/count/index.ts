/**
 * Count a capture log by protocol layer (ARCHITECTURE.md, "What a byte count means").
 *
 * ```ts
 * const { row, messages } = countLog(readCaptureLog("run.log"), { transport: "http" });
 * ```
 */
import { createHash } from "node:crypto";
import { readCaptureStreams, reassemble, scanCaptureStreams, type CaptureRecord, type Stream } from "../capture/log.js";
import { newCount, type CountResult } from "./count-row.js";
import { countHttp, countHttpConnection, countHttpStreams, finishHttpCount } from "./http-count.js";
import { countStdio, countStdioStream, countStdioStreams, finishStdioCount } from "./stdio.js";

export {
  COUNT_COLUMNS,
  emptyCountRow,
  type CountBreakdown,
  type CountColumn,
  type CountResult,
  type CountRow,
} from "./count-row.js";
export { MessageTable, type MessageRow } from "./message-table.js";
export type { MessageKind } from "../../format/messages.js";
export { anomalyCounts, type Anomaly } from "./anomalies.js";
export { ANOMALY_CODES, type AnomalyCode } from "../../format/anomalies.js";
export { WireFormatError } from "../wire/errors.js";
import { WireFormatError } from "../wire/errors.js";
export { scanJsonRpc, type JsonRpcKind, type JsonRpcMessageInfo, type JsonRpcScan } from "./jsonrpc.js";
export { connectionsCounted, countHttp, countHttpStreams } from "./http-count.js";
export { countStdio, countStdioStreams, splitStdioLines, type StdioLines } from "./stdio.js";

/** How to count a log. */
export interface CountOptions {
  /** How the log's bytes travelled: HTTP/1.1 through the TCP relay, or stdio pipes through the tap. */
  transport: "http" | "stdio";
  /**
   * Throw the first anomaly (runner/count/anomalies.ts) as a WireFormatError instead of counting
   * and naming it (default false: every byte is counted, anomalies are in `anomalies`).
   */
  strict?: boolean;
}

/**
 * Count one capture log: {@link countHttp} or {@link countStdio}.
 * @returns `{ row, messages, breakdown, anomalies }`
 * @throws WireFormatError (see those functions): with `strict`, for the first anomaly
 */
export function countLog(records: readonly CaptureRecord[], options: CountOptions): CountResult {
  const strict = options.strict === true;
  return options.transport === "http" ? countHttp(records, strict) : countStdio(records, strict);
}

/**
 * Count one capture log file: `countLog(readCaptureLog(path), options)`, the same result, faster.
 * The file is read in one pass and each connection is counted as soon as both its directions
 * have ended (`scanCaptureStreams`), so memory holds only the connections open at once. A log
 * not in the usual shape, or one that a counter rejects, is read and counted again the general
 * way, so that results and errors are those of {@link countStreams} on `readCaptureStreams(path)`.
 * Use {@link countStreams} and {@link streamsDigest} on `readCaptureStreams(path)` to count and
 * digest one log with a single read.
 * @throws CaptureLogError when a line is not a record; WireFormatError (see countHttp, countStdio)
 */
export function countLogFile(path: string, options: CountOptions): CountResult {
  const http = options.transport === "http";
  const acc = newCount(options.strict === true);
  let read = false;
  try {
    read = scanCaptureStreams(path, (streams) => {
      if (http) countHttpConnection(streams, acc);
      else for (const s of streams) countStdioStream(s, acc);
    });
  } catch (e) {
    if (!(e instanceof WireFormatError)) throw e;
  }
  if (!read) return countStreams(readCaptureStreams(path), options);
  return http ? finishHttpCount(acc) : finishStdioCount(acc);
}

/**
 * Count reassembled streams (from `reassemble` or `readCaptureStreams`, sorted by conn then dir).
 * @throws WireFormatError (see countHttp, countStdio)
 */
export function countStreams(streams: readonly Stream[], options: CountOptions): CountResult {
  const strict = options.strict === true;
  return options.transport === "http" ? countHttpStreams(streams, true, strict) : countStdioStreams(streams, strict);
}

/**
 * sha256 (lower-case hex) over the log's reassembled streams, for byte-identity checks of
 * repeats: for each non-empty stream in (conn, dir) order, the line `conn dir length\n` then its
 * bytes. Independent of how the bytes were chunked, of seq numbers and of eof records.
 */
export function streamDigest(records: readonly CaptureRecord[]): string {
  return streamsDigest(reassemble([...records]));
}

/** {@link streamDigest} of streams already reassembled (sorted by conn then dir). */
export function streamsDigest(streams: readonly Stream[]): string {
  const h = createHash("sha256");
  for (const s of streams) {
    if (s.bytes.length === 0) continue;
    h.update(`${s.conn} ${s.dir} ${s.bytes.length}\n`);
    h.update(s.bytes);
  }
  return h.digest("hex");
}

/**
 * Count a stdio capture log: each direction is newline-delimited JSON-RPC (MCP stdio transport).
 * Each complete line (ending in "\n") holds one message (or a batch, or nothing but whitespace);
 * its newline byte is counted in newline_bytes. A line without JSON-RPC is unattributed and named
 * (runner/count/anomalies.ts). Bytes after the last newline are a partial line: not a message,
 * unattributed, reported in the breakdown as partial_line_bytes too.
 * stderr is not in the log (the tap keeps it apart).
 */
import { reassemble, seqAtOffset, type CaptureRecord, type Stream } from "../capture/log.js";
import { sortAnomalies, streamLabel } from "./anomalies.js";
import type { AnomalyCode } from "../../format/anomalies.js";
import { endOfLogAnomalies, finishMessages, newCount, noteStream, reportAnomaly, type Count, type CountResult } from "./count-row.js";
import { describeBytes } from "../wire/errors.js";
import { JsonScanError, skipWs } from "./json-scan.js";
import { scanJsonRpc, type JsonRpcMessageInfo } from "./jsonrpc.js";
import { FLAG_INCOMPLETE, FLAG_NEWLINE, KIND, kindCode } from "./message-table.js";

/** The complete lines of a stdio stream, and where the partial line after them starts. */
export interface StdioLines {
  /** Each complete line's content as [start, end) offsets; its "\n" is at `end`. */
  lines: [start: number, end: number][];
  /** Offset just past the last "\n" (= bytes.length when there is no partial line). */
  partialStart: number;
}

/** Split a stdio stream at "\n" bytes (a "\r" before one stays in the line's content). */
export function splitStdioLines(bytes: Buffer): StdioLines {
  const lines: [number, number][] = [];
  let s = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, s);
    if (nl < 0) break;
    lines.push([s, nl]);
    s = nl + 1;
  }
  return { lines, partialStart: s };
}

/**
 * Count a stdio capture log (`conn` absent or the same on every record; several conns are
 * counted as separate pipes). Rows: a line that is exactly one JSON-RPC object gives one row
 * carrying its newline; a blank line, or a line with JSON-RPC messages and other bytes (a batch's
 * brackets, a CR before the newline) gives a `line-only` row (bytes outside messages, and the
 * newline) plus one row per message in it. Anomalies (runner/count/anomalies.ts): a complete line
 * that holds no JSON-RPC message (`stdio-non-jsonrpc-line`) and a partial line after the last
 * newline (`stdio-partial-line`, or `log-truncated` when the stream has no eof record) give an
 * `unattributed` row; a line ended by CRLF is counted and named (`stdio-crlf-line`).
 * @param records the log's records, any order
 * @param strict throw the first anomaly instead of recording it
 * @throws WireFormatError naming the pipe (`stdio c2s`, or `conn N c2s`), the byte offset and
 *   what was found, for the first anomaly when `strict`
 */
export function countStdio(records: readonly CaptureRecord[], strict = false): CountResult {
  return countStdioStreams(reassemble([...records]), strict);
}

/**
 * {@link countStdio} over streams already reassembled (from {@link reassemble} or
 * `readCaptureStreams`), sorted by conn then dir.
 * @throws WireFormatError (see countStdio)
 */
export function countStdioStreams(streams: readonly Stream[], strict = false): CountResult {
  const acc = newCount(strict);
  for (const stream of streams) countStdioStream(stream, acc);
  return finishStdioCount(acc);
}

/**
 * Count one stdio stream (one direction of one pipe) into `acc`.
 * @throws WireFormatError (see countStdio); `acc` is then in an undefined state
 */
export function countStdioStream(stream: Stream, acc: Count): void {
  const { row, breakdown, messages } = acc;
  noteStream(acc, stream);
  const c2s = stream.dir === "c2s";
  const where = streamLabel(stream.conn, stream.dir, true);
  const bytes = stream.bytes;
  const { lines, partialStart } = splitStdioLines(bytes);
  row[c2s ? "c2s_bytes" : "s2c_bytes"] += bytes.length;
  const id = messages.streamId(stream.conn, stream.dir);
  const seq = (offset: number) => seqAtOffset(stream, offset);
  const named = (code: AnomalyCode, offset: number, length: number, detail: string, k: number) =>
    reportAnomaly(acc, { code, conn: stream.conn, dir: stream.dir, offset, bytes: length, detail }, where, k);
  for (let k = 0; k < lines.length; k++) {
    const [s, e] = lines[k]!;
    const found = lineMessages(bytes, s, e);
    if (typeof found === "string") {
      const u = messages.add(id, seq(s), s, KIND.unattributed, 0, e + 1 - s, 0, 0, 0);
      row.unattributed_bytes += e + 1 - s;
      named("stdio-non-jsonrpc-line", s, e + 1 - s, `line ${k + 1} holds no JSON-RPC message (one per line): ${found}`, u);
      continue;
    }
    row.newline_bytes++;
    let inside = 0;
    for (const info of found) inside += info.end - info.start;
    const lineOnly = found.length !== 1 || inside !== e - s;
    const first = messages.length;
    if (lineOnly) messages.add(id, seq(s), s, KIND["line-only"], 0, e - s - inside, 0, 0, FLAG_NEWLINE);
    for (const info of found) {
      messages.add(
        id,
        seq(info.start),
        info.start,
        kindCode(info.kind),
        0,
        info.end - info.start,
        0,
        info.metaBytes,
        lineOnly ? 0 : FLAG_NEWLINE,
        info.method,
        info.id,
      );
      row[c2s ? "jsonrpc_c2s" : "jsonrpc_s2c"]++;
      if (c2s) row.meta_bytes += info.metaBytes;
    }
    if (e > s && bytes[e - 1] === 0x0d)
      named("stdio-crlf-line", e - 1, 1, `line ${k + 1} ends in CRLF: the newline-delimited stdio transport ends a message with LF alone`, first);
  }
  if (partialStart < bytes.length) {
    const length = bytes.length - partialStart;
    breakdown.partial_line_bytes += length;
    row.unattributed_bytes += length;
    const u = messages.add(id, seq(partialStart), partialStart, KIND.unattributed, 0, length, 0, 0, FLAG_INCOMPLETE);
    if (stream.ended)
      named(
        "stdio-partial-line",
        partialStart,
        length,
        `the stream ended ${length} bytes after its last newline, inside a line: ${describeBytes(bytes, partialStart)}`,
        u,
      );
    else named("log-truncated", partialStart, length, `the log ends inside a line (no eof record for this stream): ${describeBytes(bytes, partialStart)}`, u);
  }
}

/** Total the row, name the anomalies of the log as a whole, and finish the message table of a stdio count. */
export function finishStdioCount(acc: Count): CountResult {
  acc.row.total_bytes = acc.row.c2s_bytes + acc.row.s2c_bytes;
  endOfLogAnomalies(acc, true);
  return { row: acc.row, messages: finishMessages(acc, true), breakdown: acc.breakdown, anomalies: sortAnomalies(acc.anomalies) };
}

/**
 * The JSON-RPC messages of the line [s, e) of `bytes` (none for a blank line), or why it holds
 * none: not JSON, or JSON without a JSON-RPC message.
 */
function lineMessages(bytes: Buffer, s: number, e: number): JsonRpcMessageInfo[] | string {
  if (skipWs(bytes, s, e) === e) return [];
  try {
    const { messages } = scanJsonRpc(bytes, s, e);
    return messages.length > 0 ? messages : `JSON that is not JSON-RPC, ${describeBytes(bytes, s, e, 24, "")}`;
  } catch (err) {
    if (!(err instanceof JsonScanError)) throw err;
    return `expected ${err.expected} at byte ${err.offset}, got ${describeBytes(bytes, err.offset, e, 24, "end of line")}`;
  }
}

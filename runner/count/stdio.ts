/**
 * Count a stdio capture log: each direction is newline-delimited JSON-RPC (MCP stdio transport).
 * Each complete line (ending in "\n") holds one message (or a batch, or nothing but whitespace);
 * its newline byte is counted in newline_bytes. Bytes after the last newline are a partial line:
 * not a message, reported in the breakdown as partial_line_bytes, still in the direction's total.
 * stderr is not in the log (the tap keeps it apart).
 */
import { reassemble, seqAtOffset, type CaptureRecord, type Stream } from "../capture/log.js";
import { newCount, type Count, type CountResult } from "./count-row.js";
import { WireFormatError, describeBytes } from "../wire/errors.js";
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
 * carrying its newline; any other line gives a `line-only` row (bytes outside messages, and the
 * newline) plus one row per message in it; a partial line gives an `incomplete` line-only row.
 * @param records the log's records, any order
 * @throws WireFormatError naming the pipe (`stdio c2s`, or `conn N c2s`), the byte offset and the
 *   line number when a complete line is neither JSON nor blank
 */
export function countStdio(records: readonly CaptureRecord[]): CountResult {
  return countStdioStreams(reassemble([...records]));
}

/**
 * {@link countStdio} over streams already reassembled (from {@link reassemble} or
 * `readCaptureStreams`), sorted by conn then dir.
 * @throws WireFormatError (see countStdio)
 */
export function countStdioStreams(streams: readonly Stream[]): CountResult {
  const acc = newCount();
  for (const stream of streams) countStdioStream(stream, acc);
  return finishStdioCount(acc);
}

/**
 * Count one stdio stream (one direction of one pipe) into `acc`.
 * @throws WireFormatError (see countStdio); `acc` is then in an undefined state
 */
export function countStdioStream(stream: Stream, acc: Count): void {
  const { row, breakdown, messages } = acc;
  const c2s = stream.dir === "c2s";
  const where = stream.conn === 0 ? `stdio ${stream.dir}` : `conn ${stream.conn} ${stream.dir}`;
  const { lines, partialStart } = splitStdioLines(stream.bytes);
  row[c2s ? "c2s_bytes" : "s2c_bytes"] += stream.bytes.length;
  row.newline_bytes += lines.length;
  const id = messages.streamId(stream.conn, stream.dir);
  const seq = (offset: number) => seqAtOffset(stream, offset);
  for (let k = 0; k < lines.length; k++) {
    const [s, e] = lines[k]!;
    const infos = lineMessages(stream, s, e, k + 1, where);
    let inside = 0;
    for (const info of infos) inside += info.end - info.start;
    const lineOnly = infos.length !== 1 || inside !== e - s;
    if (lineOnly) messages.add(id, seq(s), s, KIND["line-only"], 0, e - s - inside, 0, 0, FLAG_NEWLINE);
    for (const info of infos) {
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
  }
  if (partialStart < stream.bytes.length) {
    breakdown.partial_line_bytes += stream.bytes.length - partialStart;
    messages.add(id, seq(partialStart), partialStart, KIND["line-only"], 0, stream.bytes.length - partialStart, 0, 0, FLAG_INCOMPLETE);
  }
}

/** Total the row and finish the message table of a stdio count. */
export function finishStdioCount(acc: Count): CountResult {
  acc.row.total_bytes = acc.row.c2s_bytes + acc.row.s2c_bytes;
  return { row: acc.row, messages: acc.messages.finish(), breakdown: acc.breakdown };
}

/** The JSON-RPC messages of the line [s, e) of `stream` (none for a blank line). */
function lineMessages(stream: Stream, s: number, e: number, lineNo: number, where: string): JsonRpcMessageInfo[] {
  const bytes = stream.bytes;
  if (skipWs(bytes, s, e) === e) return [];
  try {
    return scanJsonRpc(bytes, s, e).messages;
  } catch (err) {
    if (!(err instanceof JsonScanError)) throw err;
    throw new WireFormatError(
      where,
      err.offset,
      `expected ${err.expected} in line ${lineNo} (one JSON-RPC message per line), got ${describeBytes(bytes, err.offset, e, 24, "end of line")}`,
    );
  }
}

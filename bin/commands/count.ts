/**
 * `wirecost count LOG`: count one capture log (this tool's relay or tap, or the Python relay
 * published with the mcp-on-the-wire write-up: same line format) and print one TSV row, or with
 * `--per-message` the per-message breakdown in the columns of a run's messages.tsv. Anomalies
 * (runner/count/anomalies.ts) are printed on stderr, one line each; `--strict` fails on the first.
 */
import { readCaptureStreams } from "../../runner/capture/log.js";
import { COUNT_COLUMNS, WireFormatError, countStreams, type Anomaly, type CountResult } from "../../runner/count/index.js";
import { toTsv } from "../../format/tsv.js";
import { messagesTsv } from "../../format/messages.js";
import { messageRows } from "../../runner/results/messages.js";
import { UserError } from "../../format/errors.js";
import { refuseNotPlainFile } from "../../format/files.js";

/** Most anomaly lines printed; the rest are summed up in one line. */
const SHOWN = 20;

/** An HTTP/1.x request line at the start of a stream (RFC 9112 §3: method SP request-target SP HTTP-version CRLF). */
const HTTP_REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;

/** One line for an anomaly: `conn 1 s2c at byte 80, 18 bytes: truncated-body: DETAIL`. */
function anomalyLine(a: Anomaly, stdio: boolean): string {
  const where = stdio && a.conn === 0 ? `stdio ${a.dir}` : `conn ${a.conn} ${a.dir}`;
  const what = a.code === "empty-log" ? "capture" : `${where} at byte ${a.offset}, ${a.bytes} byte${a.bytes === 1 ? "" : "s"}`;
  return `${what}: ${a.code}${a.detail ? `: ${a.detail}` : ""}`;
}

/**
 * Count `log` and write TSV to stdout: a header and one row (`log`, then COUNT_COLUMNS), or with
 * `perMessage` a header and one row per message row (MESSAGE_COLUMNS, log order); each anomaly
 * goes to stderr as `LOG: anomaly: …` (at most 20, then how many more).
 * @param out where the TSV goes (default stdout; `wirecost capture --count` of a stdio tap: stderr)
 * @throws UserError when the log cannot be read or is not a plain file (a FIFO), with `strict` when it has an anomaly, and when
 *   no byte of it is in the assumed transport's shape (one line; suggests the other transport
 *   when a stream does not start in the assumed wire format)
 */
export function countCommand(log: string, o: { stdio?: boolean; perMessage?: boolean; strict?: boolean }, out: NodeJS.WritableStream = process.stdout): void {
  let result: CountResult;
  let streams: ReturnType<typeof readCaptureStreams>;
  const hint = o.stdio ? " — if this is an HTTP log, drop --stdio" : " — if this is a stdio log, add --stdio";
  refuseNotPlainFile(log); // a FIFO would keep the reader waiting forever
  try {
    streams = readCaptureStreams(log);
    result = countStreams(streams, { transport: o.stdio ? "stdio" : "http", strict: o.strict === true });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code === "ENOENT") throw new UserError(`${log}: no such file — give the path of a capture log, e.g. results/logs/<config>/1.jsonl`);
    const message = err.message.startsWith(log) ? err.message : `${log}: ${err.message}`;
    // A stream that does not even start in the assumed wire format may be of the other transport.
    throw new UserError(`${message}${e instanceof WireFormatError && e.offset === 0 ? hint : ""}`);
  }
  const { row, anomalies } = result;
  // Nothing in the assumed shape, from the first byte on: most likely the other transport. With
  // --stdio, an HTTP log's JSON bodies may still be counted as lines, so its request line tells.
  const first = anomalies[0];
  const httpLog = o.stdio === true && streams.some((s) => s.dir === "c2s" && HTTP_REQUEST_LINE.test(s.bytes.subarray(0, 256).toString("latin1")));
  if (first?.offset === 0 && (httpLog || (row.total_bytes > 0 && row.unattributed_bytes === row.total_bytes))) {
    throw new UserError(`${log}: ${anomalyLine(first, o.stdio === true)}${hint}`);
  }
  for (const a of anomalies.slice(0, SHOWN)) process.stderr.write(`${log}: anomaly: ${anomalyLine(a, o.stdio === true)}\n`);
  if (anomalies.length > SHOWN) process.stderr.write(`${log}: ${anomalies.length - SHOWN} more anomalies\n`);
  if (o.perMessage) {
    out.write(messagesTsv(messageRows(result.messages, streams)));
    return;
  }
  out.write(toTsv(["log", ...COUNT_COLUMNS], [[log, ...COUNT_COLUMNS.map((c) => row[c])]]));
}

/**
 * `wirecost count LOG`: count one capture log (this tool's relay or tap, or the Python relay
 * published with the mcp-on-the-wire write-up: same line format) and print one TSV row, or with
 * `--per-message` the per-message breakdown in the columns of a run's messages.tsv.
 */
import { readCaptureStreams } from "../../runner/capture/log.js";
import { COUNT_COLUMNS, WireFormatError, countStreams } from "../../runner/count/index.js";
import { toTsv } from "../../format/tsv.js";
import { messagesTsv } from "../../format/messages.js";
import { messageRows } from "../../runner/results/messages.js";
import { UserError } from "../../format/errors.js";

/**
 * Count `log` and write TSV to stdout: a header and one row (`log`, then COUNT_COLUMNS), or with
 * `perMessage` a header and one row per message row (MESSAGE_COLUMNS, log order).
 * @throws UserError when the log cannot be read or is malformed (one line; suggests the other
 *   transport when a stream does not start in the assumed wire format)
 */
export function countCommand(log: string, o: { stdio?: boolean; perMessage?: boolean }): void {
  let result: ReturnType<typeof countStreams>;
  let streams: ReturnType<typeof readCaptureStreams>;
  try {
    streams = readCaptureStreams(log);
    result = countStreams(streams, { transport: o.stdio ? "stdio" : "http" });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code === "ENOENT") throw new UserError(`${log}: no such file — give the path of a capture log, e.g. results/logs/<config>/1.jsonl`);
    const message = err.message.startsWith(log) ? err.message : `${log}: ${err.message}`;
    // A stream that does not even start in the assumed wire format may be of the other transport.
    const hint =
      e instanceof WireFormatError && e.offset === 0 ? (o.stdio ? " — if this is an HTTP log, drop --stdio" : " — if this is a stdio log, add --stdio") : "";
    throw new UserError(`${message}${hint}`);
  }
  if (o.perMessage) {
    process.stdout.write(messagesTsv(messageRows(result.messages, streams)));
    return;
  }
  process.stdout.write(toTsv(["log", ...COUNT_COLUMNS], [[log, ...COUNT_COLUMNS.map((c) => result.row[c])]]));
}

/**
 * `wirecost count LOG`: count one capture log (this tool's relay or tap, or the Python relay
 * published with the mcp-on-the-wire write-up: same line format) and print one TSV row, or with
 * `--per-message` the per-message breakdown in the columns of a run's messages.tsv.
 */
import { COUNT_COLUMNS, countLogFile } from "../../runner/count/index.js";
import { toTsv } from "../../runner/results/files.js";
import { MESSAGE_COLUMNS } from "../../runner/results/messages.js";
import { UserError } from "../../runner/errors.js";

/**
 * Count `log` and write TSV to stdout: a header and one row (`log`, then COUNT_COLUMNS), or with
 * `perMessage` a header and one row per message row (MESSAGE_COLUMNS, log order).
 * @throws UserError when the log cannot be read or is malformed (one line; suggests --stdio for an HTTP failure)
 */
export function countCommand(log: string, o: { stdio?: boolean; perMessage?: boolean }): void {
  let result;
  try {
    result = countLogFile(log, { transport: o.stdio ? "stdio" : "http" });
  } catch (e) {
    throw new UserError(`${log}: ${(e as Error).message}${o.stdio ? "" : " — if this is a stdio log, add --stdio"}`);
  }
  if (o.perMessage) {
    const rows = result.messages.map((m) => [m.seq, m.conn, m.dir, m.kind, m.method ?? "", m.id ?? "", m.startLine ?? "", m.headBytes, m.bodyBytes, m.framingBytes, m.newlineBytes, m.metaBytes, m.sse === true, m.incomplete === true]);
    process.stdout.write(toTsv(MESSAGE_COLUMNS, rows));
    return;
  }
  process.stdout.write(toTsv(["log", ...COUNT_COLUMNS], [[log, ...COUNT_COLUMNS.map((c) => result.row[c])]]));
}

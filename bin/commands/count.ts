/** `wirecost count LOG`: count one capture log, print one TSV row (or the per-message breakdown). */
import { readCaptureLog } from "../../runner/capture/log.js";
import { COUNT_COLUMNS, countLog } from "../../runner/count/index.js";
import { toTsv } from "../../runner/results/files.js";
import { UserError } from "../../runner/errors.js";

/** Count `log`. @throws UserError when the log cannot be read or is malformed */
export function countCommand(log: string, o: { stdio?: boolean; perMessage?: boolean }): void {
  let result;
  try {
    result = countLog(readCaptureLog(log), { transport: o.stdio ? "stdio" : "http" });
  } catch (e) {
    throw new UserError(`${log}: ${(e as Error).message}${o.stdio ? "" : " — if this is a stdio log, add --stdio"}`);
  }
  if (o.perMessage) {
    const rows = result.messages as unknown as Record<string, unknown>[];
    const cols = rows[0] ? Object.keys(rows[0]) : [];
    process.stdout.write(toTsv(cols, rows.map((r) => cols.map((c) => r[c] as string | number))));
    return;
  }
  process.stdout.write(toTsv(["log", ...COUNT_COLUMNS], [[log, ...COUNT_COLUMNS.map((c) => result.row[c])]]));
}

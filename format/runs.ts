/**
 * `runs.tsv` of a bytes folder (format/layout.ts `RESULTS_FILES.runs`): one row per configuration ×
 * repeat, rebuilt from the run journal by runner/results/store.ts, read here for every reader.
 */
import { existsSync } from "node:fs";
import { parseAnomalySummary } from "./anomalies.js";
import { isCountColumn } from "./count-columns.js";
import { UserError } from "./errors.js";
import { resultsFile } from "./layout.js";
import { compareCodeUnits } from "./order.js";
import { columnIndex, field, readTsv } from "./tsv.js";
import { parseCount, parseOneOf } from "./values.js";

/** How a run ended, as `runs.tsv` and the run journal write it: measured, failed (crash, bad bytes), timed out, or skipped. */
export const RUN_STATUSES = ["ok", "failed", "timeout", "skipped"] as const;

/** One of {@link RUN_STATUSES}. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One row of `runs.tsv`: a configuration × repeat, every column kept as text in header order. */
export interface RunRow {
  /** Configuration id. */
  config: string;
  /** 1-based repeat number. */
  repeat: number;
  /** One of {@link RUN_STATUSES}. */
  status: RunStatus;
  /** Anomaly code → how many times the counter found it in this run (column `anomalies`, format/anomalies.ts); empty when none or when the file has no such column. */
  anomalies: ReadonlyMap<string, number>;
  /** Every column of the row by header name (including the ones above), as written. */
  cells: ReadonlyMap<string, string>;
}

/** `runs.tsv` parsed: its header (columns added at the end by newer runners included) and rows. */
export interface Runs {
  /** Column names in file order. */
  header: readonly string[];
  /** Rows sorted by configuration id, then repeat. */
  rows: readonly RunRow[];
}

/**
 * Read `runs.tsv` if present: every reader's one parse of it (render's pages, `wirecost compare`,
 * the tool catalog).
 * @param fix the fix a message gives
 * @returns undefined when the file does not exist
 * @throws UserError (file:line) when it lacks `config`, `repeat` or `status`, a repeat is not a
 *   whole number from 1, a status is none of {@link RUN_STATUSES}, an anomalies cell is not
 *   `code:count` pairs of known codes, a count cell is neither empty nor a count, `exit` is neither
 *   empty, an exit code nor a signal name, or a configuration's repeat has two rows
 */
export function readRunsTable(dir: string, fix: string): Runs | undefined {
  const file = resultsFile(dir, "runs");
  if (!existsSync(file)) return undefined;
  const table = readTsv(file, fix);
  const col = columnIndex(table, ["config", "repeat", "status"]);
  const anomaliesAt = table.header.indexOf("anomalies");
  const seen = new Set<string>();
  const rows = table.rows.map((row) => {
    const cells = new Map(table.header.map((name, i) => [name, field(row, i)] as const));
    checkCells(cells, file, row.line, fix);
    const run = {
      config: field(row, col("config")),
      repeat: parseRepeat(field(row, col("repeat")), file, row.line, fix),
      status: parseOneOf(field(row, col("status")), RUN_STATUSES, file, row.line, "status", fix),
      anomalies: anomaliesAt < 0 ? new Map<string, number>() : parseAnomalies(field(row, anomaliesAt), file, row.line, fix),
      cells,
    };
    const key = `${run.config}\t${run.repeat}`;
    if (seen.has(key)) throw new UserError({ file, line: row.line, key: "repeat", problem: `a second row of ${run.config} repeat ${run.repeat}`, fix });
    seen.add(key);
    return run;
  });
  rows.sort((a, b) => compareCodeUnits(a.config, b.config) || a.repeat - b.repeat);
  return { header: table.header, rows };
}

/**
 * Check the cells a reader shows as written: each count column (format/count-columns.ts) empty (a
 * run that is not ok) or a count, and `exit` empty, an exit code or a signal name (`SIGKILL`).
 */
function checkCells(cells: ReadonlyMap<string, string>, file: string, line: number, fix: string): void {
  for (const [name, text] of cells) if (isCountColumn(name) && text !== "") parseCount(text, file, line, name, fix);
  const exit = cells.get("exit") ?? "";
  if (exit !== "" && !/^(0|-?[1-9][0-9]*|SIG[A-Z0-9]+)$/.test(exit))
    throw new UserError({ file, line, key: "exit", problem: `expected an exit code or a signal name (e.g. \`SIGKILL\`), found \`${exit}\``, fix });
}

/** A repeat number: a whole number from 1. */
function parseRepeat(text: string, file: string, line: number, fix: string): number {
  const repeat = parseCount(text, file, line, "repeat", fix);
  if (repeat === 0) throw new UserError({ file, line, key: "repeat", problem: "repeats are numbered from 1, found `0`", fix });
  return repeat;
}

/** An `anomalies` cell (format/anomalies.ts), its problem named at its line. */
function parseAnomalies(cell: string, file: string, line: number, fix: string): Map<string, number> {
  try {
    return parseAnomalySummary(cell);
  } catch (e) {
    throw new UserError({ file, line, key: "anomalies", problem: (e as Error).message, fix });
  }
}

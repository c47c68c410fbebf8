/**
 * `runs.tsv` of a bytes folder (format/layout.ts `RESULTS_FILES.runs`): one row per configuration ×
 * repeat, rebuilt from the run journal by runner/results/store.ts, read here for every reader.
 */
import { existsSync } from "node:fs";
import { resultsFile } from "./layout.js";
import { compareCodeUnits } from "./order.js";
import { columnIndex, field, readTsv } from "./tsv.js";
import { parseInteger } from "./values.js";

/** One row of `runs.tsv`: a configuration × repeat, every column kept as text in header order. */
export interface RunRow {
  /** Configuration id. */
  config: string;
  /** 1-based repeat number. */
  repeat: number;
  /** `ok`, `failed`, `timeout` or `skipped`. */
  status: string;
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
 * @throws UserError (file:line) when it lacks `config`, `repeat` or `status`, or a repeat is not an integer
 */
export function readRunsTable(dir: string, fix: string): Runs | undefined {
  const file = resultsFile(dir, "runs");
  if (!existsSync(file)) return undefined;
  const table = readTsv(file, fix);
  const col = columnIndex(table, ["config", "repeat", "status"]);
  const rows = table.rows.map((row) => ({
    config: field(row, col("config")),
    repeat: parseInteger(field(row, col("repeat")), file, row.line, "repeat", fix),
    status: field(row, col("status")),
    cells: new Map(table.header.map((name, i) => [name, field(row, i)] as const)),
  }));
  rows.sort((a, b) => compareCodeUnits(a.config, b.config) || a.repeat - b.repeat);
  return { header: table.header, rows };
}

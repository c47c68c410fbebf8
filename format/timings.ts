/**
 * `timings.tsv` of a timing folder (format/layout.ts `RESULTS_FILES.timings`): one row per
 * (configuration, trial, metric), written by runner/measure/timings.ts, read here for every reader
 * (the A2A page's trial values, `wirecost compare`). A failed trial is one row, metric `error`.
 */
import { columnIndex, field, readTsv } from "./tsv.js";
import { parseNumber, parseOptionalNumber } from "./values.js";

/** Columns of `timings.tsv`, in order. */
export const TIMINGS_COLUMNS = ["config", "trial", "seq", "layout", "workload", "status", "metric", "value"] as const;

/** One row of `timings.tsv`. */
export interface TimingTrialRow {
  config: string;
  /** 1-based trial number. */
  trial: number;
  /** `ok`, or how the trial failed. */
  status: string;
  /** Metric name with its unit (`p50_us`, `cpu_per_request_us`, …; `error` on a failed trial's row). */
  metric: string;
  /** The value in the metric's unit; null when the cell is empty (a figure the trial could not make). */
  value: number | null;
  /** 1-based line in the file, for messages. */
  line: number;
}

/**
 * Read `timings.tsv`, rows sorted by trial (stable: file order within a trial).
 * @param fix the fix a message gives (e.g. the command that writes the folder again)
 * @throws UserError naming the file and line when the file is missing, lacks a column, or a trial
 *   or a non-empty value is not a number
 */
export function readTimingTrials(file: string, fix: string): TimingTrialRow[] {
  const table = readTsv(file, fix);
  const col = columnIndex(table, ["config", "trial", "status", "metric", "value"]);
  const rows = table.rows.map(
    (r): TimingTrialRow => ({
      config: field(r, col("config")),
      trial: parseNumber(field(r, col("trial")), file, r.line, "trial", fix),
      status: field(r, col("status")),
      metric: field(r, col("metric")),
      value: parseOptionalNumber(field(r, col("value")), file, r.line, "value", fix) ?? null,
      line: r.line,
    }),
  );
  return rows.sort((a, b) => a.trial - b.trial);
}

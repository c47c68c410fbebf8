/** Read and check `medians.tsv`: min, median and max of each metric per configuration (every reader: render, compare). */
import { UserError } from "./errors.js";
import { columnIndex, field, readTsv } from "./tsv.js";
import { parseCount, parseMedianCount } from "./values.js";
import { isCountColumn } from "./count-columns.js";

/** Spread of one metric over a configuration's ok repeats (bytes or messages, by metric). */
export interface MetricStats {
  /** Smallest value over the ok repeats. */
  min: number;
  /** Median over the ok repeats. */
  median: number;
  /** Largest value over the ok repeats. */
  max: number;
}

/** Per configuration id, per metric name (e.g. `total_bytes`), its stats. */
export type Medians = ReadonlyMap<string, ReadonlyMap<string, MetricStats>>;

/**
 * Read `medians.tsv` (header `config metric min median max`; counts, a median may be halfway between two).
 * @param file path of `medians.tsv`
 * @param missingFix fix printed when the file is missing
 * @throws UserError (file:line) when the file is missing, a column is missing, min or max is not
 *   a non-negative integer or the median not a count (one decimal at most), `min ≤ median ≤ max` does not hold, a metric is no count column (format/count-columns.ts), or a (config, metric) pair repeats
 */
export function readMedians(file: string, missingFix: string): Medians {
  const table = readTsv(file, missingFix);
  const col = columnIndex(table, ["config", "metric", "min", "median", "max"]);
  const out = new Map<string, Map<string, MetricStats>>();
  for (const row of table.rows) {
    const get = (name: string): string => field(row, col(name));
    const config = get("config");
    const metric = get("metric");
    if (!isCountColumn(metric))
      throw new UserError({
        file,
        line: row.line,
        key: "metric",
        problem: `\`${metric}\` is no count column wirecost writes`,
        fix: "regenerate the results with `npx wirecost run`",
      });
    const stats: MetricStats = {
      min: parseCount(get("min"), file, row.line, "min"),
      median: parseMedianCount(get("median"), file, row.line, "median"),
      max: parseCount(get("max"), file, row.line, "max"),
    };
    if (!(stats.min <= stats.median && stats.median <= stats.max)) {
      throw new UserError({
        file,
        line: row.line,
        key: metric,
        problem: `expected min ≤ median ≤ max, found ${stats.min}, ${stats.median}, ${stats.max}`,
        fix: "regenerate the results with `npx wirecost run`",
      });
    }
    let metrics = out.get(config);
    if (metrics === undefined) {
      metrics = new Map();
      out.set(config, metrics);
    }
    if (metrics.has(metric)) {
      throw new UserError({
        file,
        line: row.line,
        key: metric,
        problem: `metric \`${metric}\` of \`${config}\` appears twice`,
        fix: "keep one row per configuration and metric (merge shards with `npx wirecost merge`)",
      });
    }
    metrics.set(metric, stats);
  }
  return out;
}

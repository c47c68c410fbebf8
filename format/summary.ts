/** Read and check `summary.tsv`: one row per configuration with its axis values and identity of repeats (every reader: render, compare). */
import { UserError } from "./errors.js";
import { compareCodeUnits } from "./order.js";
import { columnIndex, field, readTsv } from "./tsv.js";
import { parseCount, parseYesNo } from "./values.js";
import { parseAnomalySummary } from "./anomalies.js";
import { nameProblem } from "./layout.js";
import { changeAdding, migrateTable } from "./migrations.js";

/** One configuration's row of `summary.tsv`. */
export interface ConfigSummary {
  /** Stable configuration id (e.g. `raw-python-sdk-http-2026-07-28-plain`). */
  config: string;
  /** Axis values by axis name, in the matrix's declared order. */
  axes: ReadonlyMap<string, string>;
  /** Repeats scheduled. */
  repeats: number;
  /** Repeats that finished with status `ok`. */
  repeatsOk: number;
  /** Whether every counted column was identical across the ok repeats. */
  countIdentical: boolean;
  /** Whether the captured bytes were identical across the ok repeats. */
  bytesIdentical: boolean;
  /** Fields that varied between repeats (e.g. `date`, `mcp-session-id`); empty when none. */
  varyingFields: readonly string[];
  /**
   * Anomaly code → count summed over the ok repeats (column `anomalies`, format/anomalies.ts);
   * empty when none, and for a file written before anomalies were counted (format/migrations.ts).
   */
  anomalies: ReadonlyMap<string, number>;
}

/** `summary.tsv` parsed: axis names in declared order and rows sorted by configuration id. */
export interface Summary {
  /** Axis column names, in the matrix's declared order (the columns between `config` and `repeats`). */
  axisNames: readonly string[];
  /** One entry per configuration, sorted by `config` (code-unit order). */
  configs: readonly ConfigSummary[];
  /** Whether the file was written since anomalies are counted (format/migrations.ts, change 3). */
  anomaliesRecorded: boolean;
}

const TAIL = ["repeats", "repeats_ok", "count_identical", "bytes_identical", "varying_fields", "anomalies"] as const;

/** The columns after the axes stand in {@link TAIL}'s order. @throws UserError naming the first out of place */
function checkTailOrder(file: string, tail: readonly string[]): void {
  if (tail.join("\t") === TAIL.join("\t")) return;
  throw new UserError({
    file,
    line: 1,
    key: tail.find((c, i) => c !== TAIL[i]) ?? "repeats",
    problem: `the columns after the axes must be ${TAIL.join(", ")} in that order, found ${tail.join(", ")}`,
    fix: "regenerate the file with `npx wirecost run` (or `npx wirecost recount --results DIR`)",
  });
}

/**
 * Read `summary.tsv`, an older file through format/migrations.ts. Every column between `config`
 * and `repeats` is an axis.
 * @param file path of `summary.tsv`
 * @param missingFix fix printed when the file is missing
 * @throws UserError (file:line) when the file is missing, `config` is not the first column,
 *   `repeats` or a later column is missing or out of its order, a value is malformed, a configuration id cannot be a
 *   file name (format/layout.ts nameProblem), a configuration repeats,
 *   or `repeats_ok` exceeds `repeats`
 */
export function readSummary(file: string, missingFix: string): Summary {
  const { table, predates } = migrateTable("summary", readTsv(file, missingFix));
  if (table.header[0] !== "config") {
    throw new UserError({
      file,
      line: 1,
      key: "config",
      problem: `the first column must be \`config\`, found \`${table.header[0] ?? ""}\``,
      fix: "regenerate the file with `npx wirecost run`",
    });
  }
  const col = columnIndex(table, ["config", ...TAIL]);
  const axisNames = table.header.slice(1, col("repeats"));
  checkTailOrder(file, table.header.slice(col("repeats"), col("repeats") + TAIL.length));
  const configs: ConfigSummary[] = [];
  const seen = new Map<string, number>();
  for (const row of table.rows) {
    const get = (name: string): string => field(row, col(name));
    const config = get("config");
    const bad = nameProblem(config);
    if (bad !== undefined)
      throw new UserError({
        file,
        line: row.line,
        key: "config",
        problem: `configuration id ${JSON.stringify(config.slice(0, 60))} ${bad} (ids name files in the results folder)`,
        fix: "regenerate the results with `npx wirecost run`",
      });
    const earlier = seen.get(config);
    if (earlier !== undefined) {
      throw new UserError({
        file,
        line: row.line,
        key: "config",
        problem: `configuration \`${config}\` already appears on line ${earlier}`,
        fix: "keep one row per configuration (merge shards with `npx wirecost merge`)",
      });
    }
    seen.set(config, row.line);
    const repeats = parseCount(get("repeats"), file, row.line, "repeats");
    const repeatsOk = parseCount(get("repeats_ok"), file, row.line, "repeats_ok");
    if (repeatsOk > repeats) {
      throw new UserError({
        file,
        line: row.line,
        key: "repeats_ok",
        problem: `repeats_ok (${repeatsOk}) exceeds repeats (${repeats})`,
        fix: "regenerate the results with `npx wirecost run`",
      });
    }
    const varying = get("varying_fields");
    const anomalyCell = get("anomalies");
    let anomalies: Map<string, number>;
    try {
      anomalies = parseAnomalySummary(anomalyCell);
    } catch (e) {
      throw new UserError({
        file,
        line: row.line,
        key: "anomalies",
        problem: (e as Error).message,
        fix: "regenerate the results with `npx wirecost run` (recount reads this file too)",
      });
    }
    configs.push({
      config,
      axes: new Map(axisNames.map((name, i) => [name, field(row, i + 1)] as const)),
      repeats,
      repeatsOk,
      countIdentical: parseYesNo(get("count_identical"), file, row.line, "count_identical"),
      bytesIdentical: parseYesNo(get("bytes_identical"), file, row.line, "bytes_identical"),
      varyingFields: varying === "" ? [] : varying.split(","),
      anomalies,
    });
  }
  configs.sort((a, b) => compareCodeUnits(a.config, b.config));
  return { axisNames, configs, anomaliesRecorded: !predates.has(changeAdding("summary", "anomalies")) };
}

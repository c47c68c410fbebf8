/**
 * The changes along an axis of a bytes results folder, `changes.tsv` (format/layout.ts): for each
 * configuration and the configuration with the same values but the previous value of the axis
 * (e.g. `version`: the previous release of the same target), what changed on the wire between
 * their first ok repeats and why. Written by the runner after a bytes run whose matrix has a
 * `version` axis (runner/results/axis-changes.ts, causes named by runner/compare/causes.ts),
 * read by the pages. Byte columns are bytes, head minus base (negative: fewer).
 *
 * Columns, in order: `axis from to base_config head_config base_total_bytes head_total_bytes
 * delta_total_bytes kind change dir method name count bytes`. One row per named cause; a pair with
 * no byte change has one row with `kind` empty and `bytes` 0; bytes no cause holds are one row of
 * kind `unexplained`. A pair whose logs could not be compared has kind `error` and the reason in
 * `name`.
 */
import { existsSync } from "node:fs";
import { columnIndex, field, readTsv, toTsv, type TsvCell } from "./tsv.js";

/** The columns of `changes.tsv`, in order. */
export const CHANGE_COLUMNS = [
  "axis",
  "from",
  "to",
  "base_config",
  "head_config",
  "base_total_bytes",
  "head_total_bytes",
  "delta_total_bytes",
  "kind",
  "change",
  "dir",
  "method",
  "name",
  "count",
  "bytes",
] as const;

/** One row of `changes.tsv`. */
export interface ChangeRow {
  /** The axis varied (e.g. `version`). */
  axis: string;
  /** The axis value of the base configuration (the earlier one). */
  from: string;
  /** The axis value of the head configuration. */
  to: string;
  baseConfig: string;
  headConfig: string;
  /** Total bytes of the base run and the head run, and head minus base, bytes. */
  baseTotalBytes: number;
  headTotalBytes: number;
  deltaTotalBytes: number;
  /**
   * What the cause names (runner/compare/causes.ts: `header`, `json path`, `framing`, `exchange`,
   * …), `unexplained` for bytes no cause holds, `error` when the pair could not be compared, ""
   * for a pair with no change.
   */
  kind: string;
  /** `added`, `removed`, `resized` or `changed`; "" for none. */
  change: string;
  /** `c2s`, `s2c` or `both`; "" for none. */
  dir: string;
  /** JSON-RPC method it happened in, "" when none. */
  method: string;
  /** Header name, JSON path, framing change, …; for `error` the reason. */
  name: string;
  /** Occurrences. */
  count: number;
  /** Head minus base, bytes. */
  bytes: number;
}

/** `changes.tsv` text for `rows` (in the order given). */
export function changesTsv(rows: readonly ChangeRow[]): string {
  return toTsv(
    CHANGE_COLUMNS,
    rows.map((r): TsvCell[] => [
      r.axis,
      r.from,
      r.to,
      r.baseConfig,
      r.headConfig,
      r.baseTotalBytes,
      r.headTotalBytes,
      r.deltaTotalBytes,
      r.kind,
      r.change,
      r.dir,
      r.method,
      r.name,
      r.count,
      r.bytes,
    ]),
  );
}

/**
 * Read `changes.tsv` at `file`; undefined when the folder has none (a matrix without a version axis).
 * @throws UserError naming the file, line and column when it is malformed (format/tsv.ts)
 */
export function readChanges(file: string): ChangeRow[] | undefined {
  if (!existsSync(file)) return undefined;
  const table = readTsv(file, "rerun the matrix with npx wirecost run");
  const col = columnIndex(table, CHANGE_COLUMNS);
  return table.rows.map((row) => {
    const s = (name: (typeof CHANGE_COLUMNS)[number]) => field(row, col(name));
    const n = (name: (typeof CHANGE_COLUMNS)[number]) => Number(field(row, col(name)) || 0);
    return {
      axis: s("axis"),
      from: s("from"),
      to: s("to"),
      baseConfig: s("base_config"),
      headConfig: s("head_config"),
      baseTotalBytes: n("base_total_bytes"),
      headTotalBytes: n("head_total_bytes"),
      deltaTotalBytes: n("delta_total_bytes"),
      kind: s("kind"),
      change: s("change"),
      dir: s("dir"),
      method: s("method"),
      name: s("name"),
      count: n("count"),
      bytes: n("bytes"),
    };
  });
}

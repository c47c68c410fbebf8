/**
 * The changes along the `version` axis of a bytes results folder (`changes.tsv`,
 * format/changes.ts): each configuration is paired with the configuration that has the same
 * values but the previous version of the axis (in the matrix's declared order, `plan.versions`)
 * that the folder measured, i.e. the previous release of the same target; the first ok repeat of
 * each is compared by `byteChangeCauses` (runner/compare/causes.ts), which names the cause of every
 * byte that changed. Counting is deterministic, so one repeat stands for the configuration
 * (`summary.tsv` says whether its repeats were count-identical).
 */
import { byteChangeCauses } from "../compare/causes.js";
import type { ChangeRow } from "../../format/changes.js";
import { captureLogPath } from "../../format/layout.js";
import { VERSION_AXIS } from "../matrix/target-of.js";
import type { Configuration } from "../matrix/types.js";
import type { RunRecord } from "./schema.js";

/**
 * Rows of `changes.tsv` for the configurations of `configs` along axis `version` in `order`.
 * @param dir the results folder (its capture logs are read)
 * @param configs the configurations measured (every axis value present)
 * @param order the version axis' values in declared order (earlier first)
 * @param okRuns a configuration's ok runs (with counts), sorted by repeat
 * @returns per consecutive pair, its causes (a row with `kind` "" when nothing changed, `unexplained`
 *   for bytes no cause holds, `error` when a log could not be compared); pairs in `configs` order
 */
export function versionChanges(dir: string, configs: readonly Configuration[], order: readonly string[], okRuns: (config: string) => RunRecord[]): ChangeRow[] {
  const rank = new Map(order.map((v, i) => [v, i] as const));
  /** The configuration's values without the version: the group it is compared within. */
  const groupKey = (c: Configuration) =>
    JSON.stringify(
      Object.entries(c.values)
        .filter(([k]) => k !== VERSION_AXIS)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  const groups = new Map<string, { c: Configuration; run: RunRecord }[]>();
  for (const c of configs) {
    const run = okRuns(c.id)[0];
    const v = c.values[VERSION_AXIS];
    if (!run || v === undefined || !rank.has(v)) continue;
    const key = groupKey(c);
    const list = groups.get(key) ?? [];
    list.push({ c, run });
    groups.set(key, list);
  }
  const rows: ChangeRow[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => rank.get(a.c.values[VERSION_AXIS]!)! - rank.get(b.c.values[VERSION_AXIS]!)!);
    for (let i = 1; i < list.length; i++) {
      const base = list[i - 1]!;
      const head = list[i]!;
      const transport = head.c.values.transport === "stdio" ? "stdio" : "http";
      const pair = {
        axis: VERSION_AXIS,
        from: base.c.values[VERSION_AXIS]!,
        to: head.c.values[VERSION_AXIS]!,
        baseConfig: base.c.id,
        headConfig: head.c.id,
      };
      rows.push(
        ...pairChanges(dir, pair, transport, base.run.repeat, head.run.repeat, {
          base: base.run.counts?.total_bytes ?? 0,
          head: head.run.counts?.total_bytes ?? 0,
        }),
      );
    }
  }
  return rows;
}

/**
 * The rows of `changes.tsv` (format/changes.ts) for one pair of configurations: the causes of the
 * byte change from the base's capture log to the head's (`byteChangeCauses`), one row per cause
 * with bytes, a row with `kind` "" when nothing changed, `unexplained` for bytes no cause holds,
 * `error` (the reason in `name`) when the logs could not be compared.
 * @param pair the axis, its two values and the two configuration ids
 * @param transport how both runs' bytes travelled
 * @param baseRepeat,headRepeat the repeat whose capture log stands for each configuration
 * @param totals each run's total bytes as recorded, used when the logs cannot be read
 */
export function pairChanges(
  dir: string,
  pair: Pick<ChangeRow, "axis" | "from" | "to" | "baseConfig" | "headConfig">,
  transport: "http" | "stdio",
  baseRepeat: number,
  headRepeat: number,
  totals: { base: number; head: number },
): ChangeRow[] {
  const rows: ChangeRow[] = [];
  const none = { kind: "", change: "", dir: "", method: "", name: "", count: 0, bytes: 0 };
  try {
    const change = byteChangeCauses(
      { log: captureLogPath(dir, pair.baseConfig, baseRepeat), transport },
      { log: captureLogPath(dir, pair.headConfig, headRepeat), transport },
    );
    const sums = { baseTotalBytes: change.base.total_bytes, headTotalBytes: change.head.total_bytes, deltaTotalBytes: change.delta.total_bytes };
    const causes = change.causes.filter((c) => c.bytes !== 0);
    if (causes.length === 0 && change.unexplainedBytes === 0) rows.push({ ...pair, ...sums, ...none });
    for (const c of causes)
      rows.push({ ...pair, ...sums, kind: c.kind, change: c.change, dir: c.dir, method: c.method, name: c.name, count: c.count, bytes: c.bytes });
    if (change.unexplainedBytes !== 0) rows.push({ ...pair, ...sums, ...none, kind: "unexplained", bytes: change.unexplainedBytes });
  } catch (e) {
    rows.push({
      ...pair,
      baseTotalBytes: totals.base,
      headTotalBytes: totals.head,
      deltaTotalBytes: totals.head - totals.base,
      ...none,
      kind: "error",
      name: (e as Error).message.split("\n")[0]!,
    });
  }
  return rows;
}

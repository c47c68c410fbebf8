/** Print an expansion: TSV (one row per cell) or JSON, as `wirecost expand` does. */
import { toTsv } from "../../format/tsv.js";
import { counted } from "../../format/plural.js";
import type { Expansion } from "./expand.js";
import type { Matrix } from "./types.js";

/** Counted runs of an expansion: the sum of repeats (warm-up runs not included). */
export function runCount(e: Expansion): number {
  return e.configurations.reduce((s, c) => s + c.repeats, 0);
}

/**
 * TSV of the configurations: `id, repeats, warmup, <axis…>`; with `all`, excluded cells follow
 * (repeats 0) and two columns say `included|excluded` and the reason. Ends with a newline.
 */
export function expansionTsv(m: Matrix, e: Expansion, all = false): string {
  const axes = m.axes.map((a) => a.name);
  const rows: (string | number)[][] = e.configurations.map((c) => [
    c.id,
    c.repeats,
    c.warmup ?? 0,
    ...axes.map((a) => c.values[a]!),
    ...(all ? ["included", ""] : []),
  ]);
  if (all) rows.push(...e.excluded.map((c) => [c.id, 0, 0, ...axes.map((a) => c.values[a]!), "excluded", c.reason]));
  return toTsv(["id", "repeats", "warmup", ...axes, ...(all ? ["status", "reason"] : [])], rows);
}

/** JSON text `{configurations, excluded?, configurationCount, runs}` (2-space indent, trailing newline). */
export function expansionJson(e: Expansion, all = false): string {
  return (
    JSON.stringify(
      { configurations: e.configurations, ...(all ? { excluded: e.excluded } : {}), configurationCount: e.configurations.length, runs: runCount(e) },
      null,
      2,
    ) + "\n"
  );
}

/** One summary line: `N configurations, R runs[, W warm-up runs][, X cells excluded]` (singular nouns for 1). */
export function expansionSummary(e: Expansion): string {
  const warm = e.configurations.reduce((s, c) => s + (c.warmup ?? 0), 0);
  return `${counted(e.configurations.length, "configuration")}, ${counted(runCount(e), "run")}${warm ? `, ${counted(warm, "warm-up run")}` : ""}${e.excluded.length ? `, ${counted(e.excluded.length, "cell")} excluded` : ""}`;
}

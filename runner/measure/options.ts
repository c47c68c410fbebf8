/**
 * A timing run's options as the matrix gives them (`measures:`, `timing:`), with defaults applied:
 * read by the timing mode to claim a matrix (runner/modes/timing.ts) without loading the timing
 * machinery, and by runner/execute/measure-run.ts to run it.
 */
import { UserError } from "../../format/errors.js";
import type { Matrix } from "../matrix/types.js";
import type { TimingMeasure } from "./trial.js";
import { WORKLOADS } from "./workloads.js";

/** Timing parameters (`timing:` in the matrix), with defaults applied. */
export interface TimingOptions {
  /** Measures selected (`measures:`); `bytes` is the counting run and not handled here. */
  measures: TimingMeasure[];
  /** Trials per configuration (default 5: the fewest from which pages print a bootstrap interval). */
  trials: number;
  /** Discarded warm-up calls per trial (default 2000). */
  warmupCalls: number;
  /** Timed calls per trial (default 10000). */
  calls: number;
  /** Throughput connection counts (default [1, 50]). */
  connections: number[];
  /** Duration of each throughput window, seconds (default 5). */
  throughputSeconds: number;
  /** `interleaved` or `random:SEED` (default interleaved). */
  order: string;
  /** Target name → workload name (default `a2a-send-message`). */
  workloads: Record<string, string>;
  /** Declared assumptions (e.g. capacity-table request rates), copied to timings-run.json as given. */
  assumptions: unknown;
}

const TIMING_MEASURES = ["latency", "cpu", "throughput"] as const;

/**
 * Read `measures` and `timing` from the matrix file.
 * @returns undefined when the matrix selects no timing measure (bytes only)
 * @throws UserError naming the key and the fix for an unknown measure or workload
 */
export function timingOptions(matrix: Matrix): TimingOptions | undefined {
  if (matrix.measures?.includes("percall")) return undefined; // runner/percall/ runs it (see percallOptions)
  const measures = (matrix.measures ?? ["bytes"]).filter((m) => m !== "bytes");
  for (const m of measures)
    if (!(TIMING_MEASURES as readonly string[]).includes(m))
      throw new UserError(`${matrix.file}: measures: unknown measure "${m}" — use bytes, latency, cpu, throughput or percall`);
  if (measures.length === 0) return undefined;
  const t = matrix.timing ?? {};
  const num = (k: string, d: number) => {
    const v = t[k] ?? d;
    if (typeof v !== "number" || !(v >= 0)) throw new UserError(`${matrix.file}: timing.${k} must be a number ≥ 0 — fix it`);
    return v;
  };
  const workloads = (t.workloads ?? {}) as Record<string, string>;
  for (const [k, w] of Object.entries(workloads))
    if (!WORKLOADS[w]) throw new UserError(`${matrix.file}: timing.workloads.${k}: unknown workload "${w}" — use one of: ${Object.keys(WORKLOADS).join(", ")}`);
  return {
    measures: measures as TimingMeasure[],
    trials: num("trials", 5),
    warmupCalls: num("warmupCalls", 2000),
    calls: num("calls", 10000),
    connections: (t.connections as number[] | undefined) ?? [1, 50],
    throughputSeconds: num("throughputSeconds", 5),
    order: (t.order as string | undefined) ?? "interleaved",
    workloads,
    assumptions: t.assumptions ?? null,
  };
}

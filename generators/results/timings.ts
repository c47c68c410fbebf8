/**
 * Timing results, read from files only (written by a timing run, see ARCHITECTURE.md, "Results folder"):
 * - `timings-summary.tsv`: `config  metric  trials  median  min  max` (median/min/max over a
 *   configuration's ok trials; metric names carry their unit, e.g. `cpu_per_request_us`);
 * - `timings.tsv`: `config  trial  seq  layout  workload  status  metric  value`, one row per ok
 *   trial and metric (the values the page's intervals are taken over; optional: without it the
 *   intervals are the summary's min–max);
 * - `timings-run.json`: schema version (format/schema.ts, `TIMINGS_READABLE_VERSIONS`), machine,
 *   node, tool, timing parameters with the declared `assumptions`, per-configuration axis values,
 *   target labels, layouts, order, per-trial load and status.
 * A results folder holds them itself or in one direct sub-folder (e.g. `results/a2a-layer-cost/`).
 */
import { UserError } from "../../format/errors.js";
import { columnIndex, field, readTsv } from "../../format/tsv.js";

/** One metric of one configuration over its trials. */
export interface TimingFigure {
  /** Ok trials the figure is taken over. */
  trials: number;
  /** Median over those trials, in the metric's unit. */
  median: number;
  min: number;
  max: number;
}

/** A configuration of a timing run: its id and axis values (`target`, `pinning`, …). */
export interface TimingConfiguration {
  id: string;
  /** Target name (axis `target`). */
  target: string;
  /** Pinning layout name (axis `pinning`; `default` when absent). */
  layout: string;
}

/** One trial's run-level facts. */
export interface TimingTrial {
  config: string;
  trial: number;
  seq: number;
  status: string;
  error?: string;
  /** 1-minute load average just before the trial. */
  load1: number;
  /** load1 above the allowed core count. */
  busy: boolean;
  /** The target's `listening on …` stderr line in that trial, when it printed one. */
  listeningLine?: string;
}

/** Everything a timing page reads. */
export interface Timings {
  /** The folder read. */
  dir: string;
  /** Configurations in run order of first appearance in `timings-run.json`. */
  configs: TimingConfiguration[];
  /** Target name → label. */
  targets: Record<string, string>;
  /** Layout name → its description (e.g. `target='taskset -c 0' client='taskset -c 1'`). */
  layouts: Record<string, string>;
  trials: TimingTrial[];
  /** Declared assumptions copied from the matrix (`timing.assumptions`), as given. */
  assumptions: { capacityRequestsPerSecond: number[]; agentTurnSeconds: number[] };
  /** Timing parameters (`timing:` with defaults applied). */
  timing: { trials: number; warmupCalls: number; calls: number; connections: number[]; throughputSeconds: number; order: string };
  /**
   * The machine; `clockTicksPerSecond` (`getconf CLK_TCK`: one tick is 1/clockTicksPerSecond s, the
   * unit of the tick figures) is undefined in results written before it was recorded.
   */
  machine: { cores: number; allowedCores: number[]; cpuModel: string; governor: string; clockTicksPerSecond?: number };
  node: string;
  tool: { name: string; version: string } | undefined;
  /** Git commit of the wirecost checkout that ran, and whether it had uncommitted changes; undefined in older results. */
  git: { commit: string; dirty: boolean } | undefined;
  matrix: string;
  command: string;
  startedAt: string;
  percentileMethod: string;
  cpuMethod: string;
  /** Targets built before they ran, with toolchain and resolved set (empty when none). */
  builds: readonly TargetBuildInfo[];
  /** Schema version of `timings-run.json` (1: its throughput windows carry no tick figures). */
  schemaVersion: number;
  /** A figure by configuration id and metric, or undefined when the summary lacks it. */
  figure(config: string, metric: string): TimingFigure | undefined;
  /** The ok trials' values of a metric, in trial order, from `timings.tsv`; empty when that file or the metric is absent. */
  trialValues(config: string, metric: string): number[];
}

import { readBuilds, type TargetBuildInfo } from "../../format/builds.js";
import { resultsFile } from "../../format/layout.js";
import { existsSync } from "node:fs";
import { readRunFile } from "../../format/run-files.js";
import { TIMINGS_READABLE_VERSIONS } from "../../format/schema.js";
import { readTimingTrials } from "../../format/timings.js";
import { parseNumber } from "../../format/values.js";

const FIX = "rerun the timing matrix: npx wirecost run matrices/a2a-layer-cost.yaml --results DIR";

function numbers(v: unknown, file: string, key: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "number" && Number.isFinite(x) && x > 0)) {
    throw new UserError({
      file,
      key,
      problem: "expected a list of positive numbers",
      fix: `declare it under timing.assumptions in the matrix (e.g. ${key.split(".").pop()}: [10, 100]) and ${FIX}`,
    });
  }
  return v as number[];
}

/**
 * Read a timing results folder.
 * @throws UserError naming the file (and line or key) when `timings-summary.tsv` or
 *   `timings-run.json` is missing or malformed or of another schema version (format/run-files.ts),
 *   the declared assumptions are absent, or `machine.clockTicksPerSecond` is not a positive number
 */
export function loadTimings(dir: string): Timings {
  // The schema version first: a folder of another version is refused for that, whatever its other files hold.
  const runFile = resultsFile(dir, "timingsRun");
  const run = readRunFile(runFile, TIMINGS_READABLE_VERSIONS, FIX);
  const table = readTsv(resultsFile(dir, "timingsSummary"), FIX);
  const col = columnIndex(table, ["config", "metric", "trials", "median", "min", "max"]);
  const figures = new Map<string, TimingFigure>();
  for (const row of table.rows) {
    const num = (name: string): number => parseNumber(field(row, col(name)), table.file, row.line, name, FIX);
    figures.set(`${field(row, col("config"))}\t${field(row, col("metric"))}`, {
      trials: num("trials"),
      median: num("median"),
      min: num("min"),
      max: num("max"),
    });
  }
  const trialValues = readTrialValues(dir);
  const timing = (run.timing ?? {}) as Timings["timing"] & { assumptions?: Record<string, unknown> | null };
  const a = timing.assumptions ?? {};
  const rawConfigs = run.configurations as { id: string; values: Record<string, string> }[] | undefined;
  if (!Array.isArray(rawConfigs))
    throw new UserError({ file: runFile, key: "configurations", problem: "missing (written by timing runs since the A2A page exists)", fix: FIX });
  const configs = rawConfigs.map((c) => {
    if (!c.values.target)
      throw new UserError({ file: runFile, key: `configurations.${c.id}.values.target`, problem: "configuration without a target axis value", fix: FIX });
    return { id: c.id, target: c.values.target, layout: c.values.pinning ?? "default" };
  });
  const layouts: Record<string, string> = {};
  for (const [config, description] of Object.entries((run.layouts ?? {}) as Record<string, string>)) {
    const c = configs.find((x) => x.id === config);
    if (c) layouts[c.layout] = description;
  }
  return {
    dir,
    configs,
    targets: (run.targets ?? {}) as Record<string, string>,
    layouts,
    trials: (run.trials ?? []) as TimingTrial[],
    assumptions: {
      capacityRequestsPerSecond: numbers(a.capacityRequestsPerSecond, runFile, "timing.assumptions.capacityRequestsPerSecond"),
      agentTurnSeconds: numbers(a.agentTurnSeconds, runFile, "timing.assumptions.agentTurnSeconds"),
    },
    timing,
    machine: machineOf(run.machine, runFile),
    node: String(run.node ?? "unknown"),
    tool: run.tool as Timings["tool"],
    git: run.git as Timings["git"],
    matrix: String(run.matrix ?? "unknown"),
    command: String(run.command ?? "unknown"),
    startedAt: String(run.startedAt ?? "unknown"),
    percentileMethod: String(run.percentileMethod ?? "unknown"),
    cpuMethod: String(run.cpuMethod ?? "unknown"),
    builds: readBuilds(run.builds, runFile),
    schemaVersion: run.schemaVersion as number,
    figure: (config, metric) => figures.get(`${config}\t${metric}`),
    trialValues: (config, metric) => [...(trialValues.get(`${config}\t${metric}`) ?? [])],
  };
}

/**
 * The machine of `timings-run.json`, its clock tick rate checked where recorded (an additive key of
 * schema 2: absent in results written before it).
 * @throws UserError naming the file and key when `machine.clockTicksPerSecond` is there but not a positive number
 */
function machineOf(v: unknown, file: string): Timings["machine"] {
  const m = v as Timings["machine"];
  const hz: unknown = m?.clockTicksPerSecond;
  if (hz !== undefined && !(typeof hz === "number" && Number.isFinite(hz) && hz > 0))
    throw new UserError({
      file,
      key: "machine.clockTicksPerSecond",
      problem: `expected a positive number (getconf CLK_TCK), got ${JSON.stringify(hz)}`,
      fix: FIX,
    });
  return m;
}

/**
 * The ok trials' values per `config\tmetric` from `timings.tsv` (format/timings.ts), in trial
 * order; a metric a trial could not make (empty cell) is left out.
 * @returns an empty map when the file is absent
 * @throws UserError naming the file and line of a malformed row
 */
function readTrialValues(dir: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (!existsSync(resultsFile(dir, "timings"))) return out;
  for (const r of readTimingTrials(resultsFile(dir, "timings"), FIX)) {
    if (r.status !== "ok" || r.value === null) continue;
    const k = `${r.config}\t${r.metric}`;
    out.set(k, [...(out.get(k) ?? []), r.value]);
  }
  return out;
}

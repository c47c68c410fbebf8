/**
 * The two results folders `wirecost compare` reads, by report kind (format/layout.ts names the
 * files): a wire (bytes) folder's medians per configuration and column and the capture log of its
 * first ok repeat; a timing folder's kept trials per configuration and metric (timings.tsv, ok
 * trials); a per-call folder's trials and kept samples per configuration and metric
 * (percall-samples.tsv). The marker files tell the kinds apart (summary.tsv, timings-summary.tsv,
 * percall.tsv).
 */
import { markerList, resultKindOf, type ResultKind } from "../../format/kinds.js";
import { existsSync } from "node:fs";
import { captureLogPath, resultsFile } from "../../format/layout.js";
import { UserError } from "../../format/errors.js";
import { readMedians } from "../../format/medians.js";
import { readProvenance } from "../../format/provenance.js";
import { readSummary } from "../../format/summary.js";
import { readRunFile } from "../../format/run-files.js";
import { readTimingTrials } from "../../format/timings.js";
import { readPercallSamples } from "../../format/percall.js";
import { readRunsTable } from "../../format/runs.js";
import { PERCALL_READABLE_VERSIONS, TIMINGS_READABLE_VERSIONS } from "../../format/schema.js";

/** What a results folder says about how it was made (compared at the top of the output). */
export interface SetContext {
  /** The matrix file and its sha256 ("" when not recorded). */
  matrix: string;
  matrixSha256: string;
  /** wirecost's version. */
  tool: string;
  /** The machine: CPU model and cores, node version. */
  machine: string;
}

/** One configuration of a wire folder. */
export interface WireConfig {
  transport: "http" | "stdio";
  /** Median over ok repeats per count column (medians.tsv), in the column's unit. */
  medians: Record<string, number>;
  /** The capture log of the first ok repeat, when the folder keeps it. */
  log?: string;
  /** Whether any repeat ran ok (a configuration whose every run failed has no medians). */
  ok: boolean;
}

/** A results folder, read. */
export type ResultSet =
  | { kind: "wire"; dir: string; context: SetContext; configs: Map<string, WireConfig> }
  | {
      kind: "timing" | "percall";
      dir: string;
      context: SetContext;
      /** config → metric → values (one per ok trial, or per kept sample), in the metric's unit; no metrics when every trial failed. */
      configs: Map<string, Map<string, number[]>>;
    };

/**
 * Timing metrics that describe the run, not the target (the load before a trial, calls made,
 * CPU ticks counted, the quantisation error): not compared.
 */
export const TIMING_CONTEXT_METRICS = /^(load1_before|calls|ticks|quantisation_error_pct|tput_c[0-9]+_(requests|errors|ticks|quantisation_error_pct)|load1)$/;

/** The report kind of a results folder, by its marker file. @throws UserError when it has none */
export function setKind(dir: string): ResultKind {
  if (!existsSync(dir)) throw new UserError(`${dir}: no such folder; fix: give a results folder (e.g. results, results/a2a-layer-cost)`);
  const kind = resultKindOf(dir);
  if (kind !== undefined) return kind;
  throw new UserError(`${dir}: not a results folder (no ${markerList()}); fix: give a folder written by \`npx wirecost run\`, or run one there`);
}

const REGEN = "re-run the matrix into this folder with `npx wirecost run MATRIX --results DIR`";

/**
 * Read a results folder of any kind.
 * @throws UserError (one line naming the file and the fix) when it is not a results folder or a
 *   file is missing or malformed
 */
export function readResultSet(dir: string): ResultSet {
  const kind = setKind(dir);
  if (kind === "wire") return readWire(dir);
  if (kind === "timing") return readTiming(dir);
  return readPercall(dir);
}

/**
 * A wire folder, its files checked as `render` checks them (format/summary.ts, medians.ts,
 * provenance.ts: one check per file kind).
 */
function readWire(dir: string): ResultSet {
  // In render's order (generators/results/load.ts): summary.tsv, medians.tsv, provenance.json.
  const summary = readSummary(resultsFile(dir, "summary"), REGEN);
  const medians = readMedians(resultsFile(dir, "medians"), REGEN);
  const p = readProvenance(resultsFile(dir, "provenance"), REGEN);
  const context: SetContext = {
    matrix: p.matrix.file,
    matrixSha256: p.matrix.sha256,
    tool: p.tool.version,
    machine: `${p.cpu.model}, ${p.cpu.cores} cores, node ${p.node}`,
  };
  const configs = new Map<string, WireConfig>();
  for (const c of summary.configs) {
    configs.set(c.config, { transport: c.axes.get("transport") === "stdio" ? "stdio" : "http", medians: {}, ok: false });
  }
  for (const [config, metrics] of medians) {
    const c = configs.get(config);
    if (!c) continue;
    for (const [metric, stats] of metrics) c.medians[metric] = stats.median;
    c.ok = true;
  }
  for (const r of readRunsTable(dir, REGEN)?.rows ?? []) {
    const c = configs.get(r.config);
    if (!c || c.log !== undefined || r.status !== "ok") continue;
    const log = captureLogPath(dir, r.config, r.repeat);
    if (existsSync(log)) c.log = log;
  }
  return { kind: "wire", dir, context, configs };
}

function contextOf(run: Record<string, unknown> | undefined): SetContext {
  const r = run as
    | { matrix?: unknown; matrixSha256?: string; tool?: { version?: string }; machine?: { cpuModel?: string; cores?: number }; node?: string }
    | undefined;
  const matrix = typeof r?.matrix === "string" ? r.matrix : ((r?.matrix as { file?: string } | undefined)?.file ?? "");
  return {
    matrix,
    matrixSha256: r?.matrixSha256 ?? (r?.matrix as { sha256?: string } | undefined)?.sha256 ?? "",
    tool: r?.tool?.version ?? "",
    machine: r?.machine ? `${r.machine.cpuModel ?? "?"}, ${r.machine.cores ?? "?"} cores, node ${r.node ?? "?"}` : "",
  };
}

function push(configs: Map<string, Map<string, number[]>>, config: string, metric: string, v: number): void {
  const m = configs.get(config) ?? new Map<string, number[]>();
  configs.set(config, m);
  m.set(metric, [...(m.get(metric) ?? []), v]);
}

function readTiming(dir: string): ResultSet {
  // The schema version first: a folder of another version is refused for that, whatever its other files hold.
  const context = contextOf(readRunFile(resultsFile(dir, "timingsRun"), TIMINGS_READABLE_VERSIONS, REGEN));
  const configs = new Map<string, Map<string, number[]>>();
  for (const r of readTimingTrials(resultsFile(dir, "timings"), REGEN)) {
    // Every configuration run is kept, one whose every trial failed with no metrics (compare lists it).
    if (!configs.has(r.config)) configs.set(r.config, new Map());
    if (r.status !== "ok" || TIMING_CONTEXT_METRICS.test(r.metric) || r.value === null) continue;
    push(configs, r.config, r.metric, r.value);
  }
  return { kind: "timing", dir, context, configs };
}

function readPercall(dir: string): ResultSet {
  // The schema version first, as for a timing folder.
  const run = readRunFile(resultsFile(dir, "percallRun"), PERCALL_READABLE_VERSIONS, REGEN) as
    | { matrix?: string; runs?: { matrixSha256?: string; tool?: { version?: string }; cpuModel?: string; cores?: number; node?: string }[] }
    | undefined;
  const configs = new Map<string, Map<string, number[]>>();
  for (const r of readPercallSamples(resultsFile(dir, "percallSamples"), REGEN)) {
    if (r.kind === "trial" && /^(calls|load1)$/.test(r.metric)) continue;
    push(configs, r.config, `${r.kind}:${r.metric}`, r.value);
  }
  const last = run?.runs?.at(-1);
  const context: SetContext = {
    matrix: run?.matrix ?? "",
    matrixSha256: last?.matrixSha256 ?? "",
    tool: last?.tool?.version ?? "",
    machine: last ? `${last.cpuModel ?? "?"}, ${last.cores ?? "?"} cores, node ${last.node ?? "?"}` : "",
  };
  return { kind: "percall", dir, context, configs };
}

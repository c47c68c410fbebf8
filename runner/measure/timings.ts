import { median } from "simple-statistics";
import { toTsv } from "../../format/tsv.js";
import { TIMING_STAGE_COLUMNS } from "../../format/attribution.js";
import { writeAtomic } from "../../format/files.js";
import type { TrialResult, TrialStages } from "./trial.js";
import { profileRelPath, resultsFile, trialPath } from "../../format/layout.js";
import { TIMINGS_SCHEMA_VERSION } from "../../format/schema.js";
import { TIMINGS_COLUMNS } from "../../format/timings.js";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

/** Fixed precision of values in TSV (3 decimals: nanosecond resolution for `_us` figures). */
const fix = (v: number) => (Number.isFinite(v) ? Number(v.toFixed(3)) : v);

/** The metrics of one trial as (name with unit, value) pairs, in a fixed order. */
export function trialMetrics(r: TrialResult): [string, number][] {
  const out: [string, number][] = [["load1_before", r.load1]];
  if (r.responseBodyBytes !== undefined) out.push(["response_body_bytes", r.responseBodyBytes]);
  if (r.latency) {
    const l = r.latency;
    out.push(["calls", l.count], ["p50_us", l.p50Us], ["p95_us", l.p95Us], ["p99_us", l.p99Us], ["max_us", l.maxUs], ["mean_us", l.meanUs]);
  }
  if (r.cpu) {
    const c = r.cpu;
    out.push(
      ["cpu_per_request_us", c.cpuPerRequestUs],
      ["ticks_per_request_us", c.ticksPerRequestUs],
      ["ticks", c.ticks],
      ["quantisation_error_pct", c.quantisationError * 100],
      ["client_cpu_per_request_us", c.clientCpuPerRequestUs],
    );
  }
  for (const t of r.throughput ?? []) {
    const p = `tput_c${t.connections}_`;
    out.push(
      [p + "requests_per_s", t.requestsPerSecond],
      [p + "requests", t.requests],
      [p + "errors", t.errors],
      [p + "p50_us", t.latency.p50Us],
      [p + "p95_us", t.latency.p95Us],
      [p + "p99_us", t.latency.p99Us],
      [p + "cpu_per_request_us", t.cpuPerRequestUs],
      [p + "ticks_per_request_us", t.ticksPerRequestUs],
      [p + "ticks", t.ticks],
      [p + "quantisation_error_pct", t.quantisationError * 100],
      [p + "client_cpu_per_request_us", t.clientCpuPerRequestUs],
    );
  }
  return out;
}

/**
 * Write the timing files into `dir` (atomically, sorted by config then trial).
 * @param run extra run-level facts for `timings-run.json` (machine, order, parameters…)
 */
export function writeTimings(dir: string, results: TrialResult[], run: Record<string, unknown>): void {
  const sorted = [...results].sort((a, b) => (a.config < b.config ? -1 : a.config > b.config ? 1 : a.trial - b.trial));
  const rows: (string | number)[][] = [];
  const byMetric = new Map<string, number[]>();
  for (const r of sorted) {
    // The profiled window's folded stacks go to their own file (below), not into the trial's JSON.
    const stages = r.stages && "rows" in r.stages ? { ...r.stages, profile: undefined } : r.stages;
    writeAtomic(trialPath(dir, r.config, r.trial), JSON.stringify({ ...r, ...(stages ? { stages } : {}) }, null, 2) + "\n");
    if (r.status !== "ok") {
      rows.push([r.config, r.trial, r.seq, r.layout, r.workload, r.status, "error", 0]);
      continue;
    }
    for (const [m, v] of trialMetrics(r)) {
      rows.push([r.config, r.trial, r.seq, r.layout, r.workload, r.status, m, fix(v)]);
      const k = `${r.config}\t${m}`;
      byMetric.set(k, [...(byMetric.get(k) ?? []), v]);
    }
  }
  const stageRows = sorted.flatMap((r) =>
    r.stages === undefined
      ? []
      : "reason" in r.stages
        ? [[r.config, "none", "", "not-attributed", "not attributed", "not attributed", "", "", `not attributed: ${r.stages.reason}`.replace(/\s+/g, " ")]]
        : r.stages.rows.map((x) => [
            r.config,
            (r.stages as TrialStages).sampler,
            fix((r.stages as TrialStages).cpuPerRequestUs),
            x.stage,
            x.label,
            x.kind,
            x.samples ?? "",
            x.usPerCall === null ? "" : fix(x.usPerCall),
            x.note.replace(/\s+/g, " "),
          ]),
  );
  if (stageRows.length) writeAtomic(resultsFile(dir, "timingsStages"), toTsv(TIMING_STAGE_COLUMNS, stageRows));
  for (const r of sorted) {
    const text = r.stages && "rows" in r.stages ? r.stages.profile : undefined;
    if (text === undefined) continue;
    const file = join(dir, profileRelPath(r.config, "server"));
    mkdirSync(dirname(file), { recursive: true });
    writeAtomic(file, text);
  }
  writeAtomic(resultsFile(dir, "timings"), toTsv(TIMINGS_COLUMNS, rows));
  const summary = [...byMetric.entries()].map(([k, vs]) => {
    const [config, metric] = k.split("\t") as [string, string];
    return [config, metric, vs.length, fix(median(vs)), fix(Math.min(...vs)), fix(Math.max(...vs))];
  });
  writeAtomic(resultsFile(dir, "timingsSummary"), toTsv(["config", "metric", "trials", "median", "min", "max"], summary));
  writeAtomic(
    resultsFile(dir, "timingsRun"),
    JSON.stringify(
      {
        schemaVersion: TIMINGS_SCHEMA_VERSION,
        ...run,
        trials: sorted.map((r) => ({
          config: r.config,
          trial: r.trial,
          seq: r.seq,
          status: r.status,
          error: r.error,
          load1: r.load1,
          busy: r.busy,
          targetAffinity: r.targetAffinity,
          startedAt: r.startedAt,
          ...(r.listeningLine ? { listeningLine: r.listeningLine } : {}),
        })),
      },
      null,
      2,
    ) + "\n",
  );
}

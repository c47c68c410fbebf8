/**
 * The results folder: the run journal (runs/plan.json and runs/<config>/<repeat>.json, see
 * journal.ts) is the record; runs.tsv (a row per configuration × repeat), summary.tsv (per
 * configuration: axis values, repeats ok, identity of repeats), medians.tsv (configuration,
 * metric, min, median, max), coverage.tsv and provenance.json are rebuilt from it. Every file is
 * written atomically, so a kill at any instant leaves a consistent folder that `--resume` continues.
 */
import { mkdirSync, rmSync } from "node:fs";
import { median } from "simple-statistics";
import { COUNT_COLUMNS, type CountRow } from "../count/index.js";
import { varyingFieldsOf } from "./identity.js";
import { toTsv, tsvLines } from "../../format/tsv.js";
import { writeAtomic } from "../../format/files.js";
import { readRuns, writePlan, writeRun } from "./journal.js";
import type { Provenance } from "../../format/schema.js";
import type { ResultsPlan, RunRecord } from "./schema.js";
import { captureLogPath, logDir, resultsFile } from "../../format/layout.js";
import { anomalySummary } from "../../format/anomalies.js";
import { changesTsv } from "../../format/changes.js";
import { versionChanges } from "./axis-changes.js";

/** Columns of runs.tsv, in order. */
export const RUN_COLUMNS = ["config", "repeat", "status", "exit", "error", ...COUNT_COLUMNS, "stream_sha256", "anomalies"] as const;

/** Format a median: integers as is, others with one decimal (deterministic). */
function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Writes one results folder. */
export class ResultsStore {
  /** @param dir results folder, created if missing */
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /**
   * Path of the capture log of one run (its folder is created). A log of an earlier attempt of the
   * same run is removed first, so the new one is a new file: the log is appended as bytes cross
   * (not written atomically), and writing into the old file would write through a hard link to it.
   */
  logPath(config: string, repeat: number): string {
    mkdirSync(logDir(this.dir, config), { recursive: true });
    const path = captureLogPath(this.dir, config, repeat);
    rmSync(path, { force: true });
    return path;
  }

  /** Record the plan of this folder (before the first run). */
  plan(plan: ResultsPlan): void {
    writePlan(this.dir, plan);
  }

  /** Record a finished run: one atomic journal file. */
  record(run: RunRecord): void {
    writeRun(this.dir, run);
  }

  /** Finished runs of the plan's selected configurations, sorted by config then repeat (reads the journal). */
  all(plan: ResultsPlan): RunRecord[] {
    return plan.selected.flatMap((id) => runsOf(this.dir, plan, id));
  }

  /** Rebuild runs.tsv, summary.tsv, medians.tsv, coverage.tsv and write provenance.json (see {@link rebuildResults}). */
  finish(plan: ResultsPlan, provenance: Provenance, opts: RebuildOptions = {}): void {
    rebuildResults(this.dir, plan, provenance, opts);
  }
}

/** Journal runs of configuration `id` within its planned repeats, sorted by repeat (none when the plan does not name it). */
function runsOf(dir: string, plan: ResultsPlan, id: string): RunRecord[] {
  const c = plan.configurations.find((x) => x.id === id);
  return c ? readRuns(dir, id, c.repeats) : [];
}

/** Options of {@link rebuildResults}. */
export interface RebuildOptions {
  /**
   * Why the identity of repeats is not worked out this time (e.g. after ^C, where it would keep the
   * user waiting: aligning repeats reads every capture log). Given: `varying_fields` of each
   * configuration whose repeats are not byte-identical is `unknown (<why>)`; absent: worked out.
   */
  skipIdentity?: string;
}

/**
 * Rebuild the derived files of results folder `dir` from its journal, one configuration at a
 * time (memory stays flat in the number of runs): runs.tsv, summary.tsv and medians.tsv for the
 * plan's selected configurations (sorted by id); coverage.tsv for those and the excluded cells
 * (measured | failed | skipped | excluded | not-run, with the reason); provenance.json as given;
 * changes.tsv when the plan has a `version` axis (`plan.versions`: runner/results/axis-changes.ts).
 * @throws UserError when a journal file is unreadable (see readRuns)
 */
export function rebuildResults(dir: string, plan: ResultsPlan, provenance: Provenance, opts: RebuildOptions = {}): void {
  const axisNames = plan.axisNames;
  const byId = new Map(plan.configurations.map((c) => [c.id, c]));
  const selected = [...plan.selected].sort();
  let runsText = toTsv(RUN_COLUMNS, []);
  const summary: (string | number | boolean)[][] = [];
  const medians: string[][] = [];
  const coverage: string[][] = [];
  let anomaliesCounted = true;
  for (const id of selected) {
    const c = byId.get(id);
    if (!c) continue;
    const runs = runsOf(dir, plan, id);
    runsText += tsvLines(
      runs.map((r) => [
        r.config,
        r.repeat,
        r.status,
        r.exit,
        r.error,
        ...COUNT_COLUMNS.map((col) => r.counts?.[col]),
        r.digest,
        anomalySummary(r.anomalies ?? {}),
      ]),
    );
    const ok = runs.filter((r) => r.status === "ok" && r.counts);
    const first = ok[0];
    const countIdentical =
      ok.length > 0 &&
      ok.every(
        (r) =>
          COUNT_COLUMNS.every((col) => r.counts![col] === first!.counts![col]) && anomalySummary(r.anomalies ?? {}) === anomalySummary(first!.anomalies ?? {}),
      );
    const bytesIdentical = ok.length > 0 && ok.every((r) => r.digest === first!.digest);
    // Anomalies over the ok repeats: each code with its count summed over them.
    const anomalies = new Map<string, number>();
    for (const r of ok) for (const [code, n] of Object.entries(r.anomalies ?? {})) anomalies.set(code, (anomalies.get(code) ?? 0) + n);
    const varying = bytesIdentical
      ? ""
      : opts.skipIdentity !== undefined && ok.length > 1
        ? `unknown (${opts.skipIdentity})`
        : varyingFieldsOf(
            ok.map((r) => captureLogPath(dir, id, r.repeat)),
            c.values.transport === "stdio" ? "stdio" : "http",
          );
    summary.push([c.id, ...axisNames.map((a) => c.values[a]!), c.repeats, ok.length, countIdentical, bytesIdentical, varying, anomalySummary(anomalies)]);
    // A run counted before anomalies were (format/migrations.ts, change 3) has no unattributed_bytes.
    if (ok.some((r) => (r.counts as Partial<CountRow>).unattributed_bytes === undefined)) anomaliesCounted = false;
    medians.push(...medianRows(c.id, ok));
    const bad = runs.find((r) => r.status !== "ok");
    const state = runs.length === 0 ? "not-run" : runs.every((r) => r.status === "skipped") ? "skipped" : bad ? "failed" : "measured";
    coverage.push([c.id, ...axisNames.map((a) => c.values[a]!), state, bad ? `${bad.status}: ${bad.error}` : ""]);
  }
  for (const c of plan.excluded) coverage.push([c.id, ...axisNames.map((a) => c.values[a]!), "excluded", c.reason]);
  coverage.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  writeAtomic(resultsFile(dir, "runs"), runsText);
  writeAtomic(resultsFile(dir, "coverage"), toTsv(["config", ...axisNames, "outcome", "reason"], coverage));
  // Runs of a counter that did not count anomalies (an older folder not recounted, merged or kept): the
  // summary keeps that older shape, so pages say anomalies were not counted instead of "none".
  const summaryHeader = ["config", ...axisNames, "repeats", "repeats_ok", "count_identical", "bytes_identical", "varying_fields", "anomalies"];
  writeAtomic(
    resultsFile(dir, "summary"),
    anomaliesCounted
      ? toTsv(summaryHeader, summary)
      : toTsv(
          summaryHeader.slice(0, -1),
          summary.map((row) => row.slice(0, -1)),
        ),
  );
  writeAtomic(resultsFile(dir, "medians"), toTsv(["config", "metric", "min", "median", "max"], medians));
  if (plan.versions) {
    const measured = selected.map((id) => byId.get(id)).filter((c) => c !== undefined);
    const okRuns = (id: string) => runsOf(dir, plan, id).filter((r) => r.status === "ok" && r.counts);
    writeAtomic(resultsFile(dir, "changes"), changesTsv(versionChanges(dir, measured, plan.versions, okRuns)));
  }
  writeProvenance(dir, provenance);
}

/**
 * A configuration's `medians.tsv` rows: min, median and max of each count column over its ok runs;
 * a column a run's counter did not have is not counted for it (no row, never a NaN).
 */
function medianRows(config: string, ok: readonly RunRecord[]): string[][] {
  const rows: string[][] = [];
  if (ok.length === 0) return rows;
  for (const col of COUNT_COLUMNS) {
    const vs = ok.map((r) => (r.counts as Partial<CountRow>)[col]);
    if (vs.some((v) => v === undefined)) continue;
    const counted = vs as number[];
    rows.push([config, col, fmt(Math.min(...counted)), fmt(median(counted)), fmt(Math.max(...counted))]);
  }
  return rows;
}

/** Write `provenance.json` of results folder `dir` (atomic; two-space JSON, the one way it is written). */
export function writeProvenance(dir: string, provenance: Provenance): void {
  writeAtomic(resultsFile(dir, "provenance"), JSON.stringify(provenance, null, 2) + "\n");
}

/**
 * The results folder: runs.tsv (a row per configuration × repeat), summary.tsv (per
 * configuration: axis values, repeats ok, identity of repeats), medians.tsv (configuration,
 * metric, min, median, max), provenance.json, and logs/<config>/<repeat>.jsonl capture logs.
 * Every file is written atomically; runs.tsv is rewritten after every run so a kill at any
 * instant leaves a consistent folder.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { median } from "simple-statistics";
import { COUNT_COLUMNS, type CountRow } from "../count/index.js";
import type { Configuration, ExcludedCell, Matrix } from "../matrix/types.js";
import { toTsv, writeAtomic } from "./files.js";
import type { Provenance } from "./provenance.js";
import type { RunRecord } from "./schema.js";

/** Columns of runs.tsv, in order. */
export const RUN_COLUMNS = ["config", "repeat", "status", "exit", "error", ...COUNT_COLUMNS, "stream_sha256"] as const;

/** Format a median: integers as is, others with one decimal (deterministic). */
function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Writes one results folder. */
export class ResultsStore {
  private readonly runs = new Map<string, RunRecord>();

  /** @param dir results folder, created if missing */
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Path of the capture log of one run. */
  logPath(config: string, repeat: number): string {
    const d = join(this.dir, "logs", config);
    mkdirSync(d, { recursive: true });
    return join(d, `${repeat}.jsonl`);
  }

  /** Record a finished run and rewrite runs.tsv. */
  record(run: RunRecord): void {
    this.runs.set(`${run.config}\u0000${run.repeat}`, run);
    this.writeRuns();
  }

  /** Runs recorded so far, sorted by config then repeat. */
  all(): RunRecord[] {
    return [...this.runs.values()].sort((a, b) => (a.config < b.config ? -1 : a.config > b.config ? 1 : a.repeat - b.repeat));
  }

  private writeRuns(): void {
    const rows = this.all().map((r) => [r.config, r.repeat, r.status, r.exit, r.error, ...COUNT_COLUMNS.map((c) => r.counts?.[c]), r.digest]);
    writeAtomic(join(this.dir, "runs.tsv"), toTsv(RUN_COLUMNS, rows));
  }

  /**
   * Write summary.tsv and medians.tsv for `configs` (axis columns in the matrix's order),
   * coverage.tsv (every expanded cell: measured | failed | excluded | not-run, with the reason;
   * `excluded` lists the cells the matrix left out) and provenance.json.
   */
  finish(matrix: Matrix, configs: Configuration[], excluded: ExcludedCell[], provenance: Provenance): void {
    const axisNames = matrix.axes.map((a) => a.name);
    const byConfig = new Map<string, RunRecord[]>();
    for (const r of this.all()) {
      const list = byConfig.get(r.config) ?? [];
      list.push(r);
      byConfig.set(r.config, list);
    }
    const sorted = [...configs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const summary: (string | number | boolean)[][] = [];
    const medians: string[][] = [];
    for (const c of sorted) {
      const runs = byConfig.get(c.id) ?? [];
      const ok = runs.filter((r) => r.status === "ok" && r.counts);
      const first = ok[0];
      const countIdentical = ok.length > 0 && ok.every((r) => COUNT_COLUMNS.every((col) => r.counts![col] === first!.counts![col]));
      const bytesIdentical = ok.length > 0 && ok.every((r) => r.digest === first!.digest);
      summary.push([c.id, ...axisNames.map((a) => c.values[a]!), c.repeats, ok.length, countIdentical, bytesIdentical, ""]);
      if (ok.length === 0) continue;
      for (const col of COUNT_COLUMNS) {
        const vs = ok.map((r) => (r.counts as CountRow)[col]);
        medians.push([c.id, col, fmt(Math.min(...vs)), fmt(median(vs)), fmt(Math.max(...vs))]);
      }
    }
    const coverage: string[][] = [];
    for (const c of sorted) {
      const runs = byConfig.get(c.id) ?? [];
      const bad = runs.find((r) => r.status !== "ok");
      const state = runs.length === 0 ? "not-run" : bad ? "failed" : "measured";
      coverage.push([c.id, ...axisNames.map((a) => c.values[a]!), state, bad ? `${bad.status}: ${bad.error}` : ""]);
    }
    for (const c of excluded) coverage.push([c.id, ...axisNames.map((a) => c.values[a]!), "excluded", c.reason]);
    coverage.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
    writeAtomic(join(this.dir, "coverage.tsv"), toTsv(["config", ...axisNames, "state", "reason"], coverage));
    writeAtomic(join(this.dir, "summary.tsv"), toTsv(["config", ...axisNames, "repeats", "repeats_ok", "count_identical", "bytes_identical", "varying_fields"], summary));
    writeAtomic(join(this.dir, "medians.tsv"), toTsv(["config", "metric", "min", "median", "max"], medians));
    writeAtomic(join(this.dir, "provenance.json"), JSON.stringify(provenance, null, 2) + "\n");
  }
}

/**
 * Shapes of a bytes results folder's journal (runs/plan.json, runs/<config>/<repeat>.json), which
 * only the runner reads; the files pages read are owned by format/ (layout, columns, versions).
 */
import type { CountRow } from "../count/index.js";
import type { Configuration, ExcludedCell } from "../matrix/types.js";

import type { RunStatus } from "../../format/runs.js";

/** One run of one configuration: a row of runs.tsv, and one file `runs/<config>/<repeat>.json`. */
export interface RunRecord {
  config: string;
  /** 1-based repeat number. */
  repeat: number;
  status: RunStatus;
  /** Target exit code or signal name (e.g. "3", "SIGKILL") as seen when it was stopped ("" while it was running). */
  exit: string;
  /** One-line reason when not ok, with the tail of the target's stderr. */
  error: string;
  /** Byte and message counts (ok runs only). */
  counts?: CountRow;
  /** Anomaly code → how many times the counter found it in this run (ok runs with anomalies only; runner/count/anomalies.ts). */
  anomalies?: Record<string, number>;
  /** sha256 hex over the captured streams (byte identity of repeats). */
  digest?: string;
}

/**
 * What a results folder was asked to hold (`runs/plan.json`): written when a run starts, so a
 * folder killed at any instant can be resumed, merged or rebuilt without the matrix file.
 */
export interface ResultsPlan {
  schemaVersion: number;
  /** Tool that wrote the folder; merge refuses folders of different versions. */
  tool: { name: string; version: string };
  /**
   * Matrix file (relative to where the run started), sha256 hex of its bytes, and (since 0.1)
   * sha256 hex of its definition (Matrix.definitionSha256: its data, comments and layout aside).
   */
  matrix: { file: string; sha256: string; definition?: string };
  /** Axis names in the matrix's declared order (columns of summary.tsv and coverage.tsv). */
  axisNames: string[];
  /**
   * The `version` axis' values in declared order (earlier releases first), when the matrix has
   * that axis: the order `changes.tsv` pairs consecutive versions in (runner/results/axis-changes.ts).
   */
  versions?: string[];
  /** Every configuration after `--only` (all shards together), sorted by id, repeats as run. */
  configurations: Configuration[];
  /** Cells the matrix left out, with the reason. */
  excluded: ExcludedCell[];
  /** Ids of the configurations this folder runs (its shard's share), sorted. */
  selected: string[];
  /** `K/N` when this folder holds one shard; absent for a whole run or a merged folder. */
  shard?: string;
}

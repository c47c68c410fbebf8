/** Shapes of the results folder (DESIGN.md, "Results"). */
import type { CountRow } from "../count/index.js";

/** Version of the results folder format; a loader refuses any other. */
export const SCHEMA_VERSION = 1;

/** How a run ended: measured, failed (crash, bad bytes), timed out, or skipped. */
export type RunStatus = "ok" | "failed" | "timeout" | "skipped";

/** One run of one configuration: a row of runs.tsv. */
export interface RunRecord {
  config: string;
  /** 1-based repeat number. */
  repeat: number;
  status: RunStatus;
  /** Target exit code or signal name as seen when it was stopped ("" while it was running). */
  exit: string;
  /** One-line reason when not ok, with the tail of the target's stderr. */
  error: string;
  /** Byte and message counts (ok runs only). */
  counts?: CountRow;
  /** sha256 hex over the captured streams (byte identity of repeats). */
  digest?: string;
  /** Fields that differ from repeat 1 of the same configuration, computed at summary time. */
}

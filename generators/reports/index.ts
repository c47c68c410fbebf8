/**
 * Registry of report kinds. `render` looks at the results folder and each folder directly under
 * it; every folder a kind detects becomes a report. Adding a kind is one file and one entry.
 */
import { percallReport } from "./percall.js";
import { timingsReport } from "./timings.js";
import type { ReportKind } from "./types.js";
import { wireReport } from "./wire.js";

export type { ReportKind, ReportSite } from "./types.js";

/** Report kinds, in the order checked. */
export const REPORT_KINDS: readonly ReportKind[] = [wireReport, timingsReport, percallReport];

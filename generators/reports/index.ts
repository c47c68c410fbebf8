/**
 * Registry of report kinds, one per kind of results folder (format/kinds.ts). `render` looks at the
 * results folder and each folder directly under it; every folder of a kind becomes a report.
 * Adding a kind is its declaration in format/kinds.ts, one file here and one entry.
 */
import { percallReport } from "./percall.js";
import { timingsReport } from "./timings.js";
import type { ReportKind } from "./types.js";
import { wireReport } from "./wire.js";

export type { ReportKind, ReportSite } from "./types.js";

/** Report kinds, in the order checked. */
export const REPORT_KINDS: readonly ReportKind[] = [wireReport, timingsReport, percallReport];

/**
 * The page registry of wire reports: pages built from a bytes results folder, in build order.
 * Adding a wire report page is one new file under `pages/` and one entry in `REPORTS`; other
 * kinds of results (timings, per-call) are report kinds in `reports/`.
 */
import { mcpOnTheWire } from "./mcp-on-the-wire.js";
import type { Page } from "./types.js";

export type { Page } from "./types.js";

/**
 * Report pages of a wire results folder, in order; the first is the report's main page (the one
 * the index links). Page ids come from the results (see `Page.id`); the wire report kind checks
 * that they are `[a-z0-9-]` and distinct.
 */
export const REPORTS: readonly Page[] = [mcpOnTheWire];

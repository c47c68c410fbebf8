/**
 * The page registry: every page of the site, in build order. Adding a report is one new file
 * under `pages/` and one entry in `REPORTS`.
 */
import type { Timings } from "../results/timings.js";
import { a2aLayerCostPage } from "./a2a-layer-cost.js";
import { indexPage } from "./home.js";
import { mcpOnTheWire } from "./mcp-on-the-wire.js";
import type { Page } from "./types.js";

export type { Page } from "./types.js";

/** Report pages, in the order the index lists them. */
export const REPORTS: readonly Page[] = [mcpOnTheWire];

/** Every page: the reports, then the index that links them. */
export const PAGES: readonly Page[] = [...REPORTS, indexPage(REPORTS)];

/** Report pages built from timing results (`timings-summary.tsv`), in the order the index lists them. */
export const TIMING_REPORTS: ReadonlyArray<(timings: Timings) => Page> = [a2aLayerCostPage];

/**
 * Every page when timing results may be present: the reports, the timing reports built from
 * `timings` (none when undefined), then the index linking all of them.
 */
export function pagesWithTimings(timings: Timings | undefined): readonly Page[] {
  if (timings === undefined) return PAGES;
  const reports = [...REPORTS, ...TIMING_REPORTS.map((make) => make(timings))];
  return [...reports, indexPage(reports)];
}

for (const page of PAGES) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(page.id)) throw new Error(`page id not [a-z0-9-]: ${page.id}`);
}
if (new Set(PAGES.map((p) => p.id)).size !== PAGES.length) throw new Error("two pages share an id");

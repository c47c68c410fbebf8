/**
 * The page registry of wire reports: pages built from a bytes results folder, in build order.
 * Adding a wire report page is one new file under `pages/` and one entry in `REPORTS`; other
 * kinds of results (timings, per-call) are report kinds in `reports/`.
 */
import { mcpOnTheWire } from "./mcp-on-the-wire.js";
import type { Page } from "./types.js";

export type { Page } from "./types.js";

/** Report pages of a wire results folder, in order. */
export const REPORTS: readonly Page[] = [mcpOnTheWire];

for (const page of REPORTS) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(page.id)) throw new Error(`page id not [a-z0-9-]: ${page.id}`);
}
if (new Set(REPORTS.map((p) => p.id)).size !== REPORTS.length) throw new Error("two pages share an id");

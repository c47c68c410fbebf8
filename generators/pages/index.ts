/**
 * The page registry: every page of the site, in build order. Adding a report is one new file
 * under `pages/` and one entry in `REPORTS`.
 */
import { indexPage } from "./home.js";
import { mcpOnTheWire } from "./mcp-on-the-wire.js";
import type { Page } from "./types.js";

export type { Page } from "./types.js";

/** Report pages, in the order the index lists them. */
export const REPORTS: readonly Page[] = [mcpOnTheWire];

/** Every page: the reports, then the index that links them. */
export const PAGES: readonly Page[] = [...REPORTS, indexPage(REPORTS)];

for (const page of PAGES) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(page.id)) throw new Error(`page id not [a-z0-9-]: ${page.id}`);
}
if (new Set(PAGES.map((p) => p.id)).size !== PAGES.length) throw new Error("two pages share an id");

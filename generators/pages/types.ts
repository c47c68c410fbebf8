/** The page plug-in interface: one page per file, listed in `pages/index.ts`. */
import type { Results } from "../results/load.js";

/** A page of the site, built as markdown from a results folder's contents. */
export interface Page {
  /** File stem under the site folder (`<id>.md`, `<id>.html`): lowercase letters, digits, hyphens. */
  id: string;
  /** Page title, plain text (used in the layout's `<title>` and the index). */
  title: string;
  /** One sentence about the page, plain text, shown on the index page. */
  description: string;
  /**
   * Build the page's markdown from results. Deterministic: same results in, same string out.
   * @throws UserError when the results lack something this page needs (e.g. an axis column)
   */
  build(results: Results): string;
}

/** The page plug-in interface: one page per file, listed in `pages/index.ts`. */
import type { PredictionResult } from "../predictions/evaluate.js";
import type { Registration } from "../predictions/registration.js";
import type { Results } from "../results/load.js";

/** What a page may use besides the results: judged predictions and the site's naming rules. */
export interface SiteContext {
  /** Judged predictions and their pre-registration, or undefined when there is no predictions file. */
  predictions: { file: string; results: readonly PredictionResult[]; registration: ReadonlyMap<string, Registration> } | undefined;
  /** File stem (no extension) of a configuration's page, e.g. `config-raw-mcp-ts-v2-http-2026-07-28-plain` (see `configPageStem`). */
  configPage(config: string): string;
}

/** A page's output: its markdown and any files it links (e.g. SVG charts), relative to the site. */
export interface PageOutput {
  /** Markdown source of the page. */
  markdown: string;
  /** Extra files: site-relative name (flat, `[A-Za-z0-9._-]`) and content. */
  assets?: ReadonlyArray<{ file: string; content: string }>;
  /**
   * Companion pages the page links (e.g. the wire report's decoded exchanges): id (`[a-z0-9-]`,
   * unique in the site), plain-text title and markdown; each becomes `<id>.md` and `<id>.html`.
   */
  pages?: ReadonlyArray<{ id: string; title: string; markdown: string }>;
}

/**
 * A page of the site, built as markdown from a results folder's contents. Its name comes from the
 * results (the report's title and slug in `results.provenance.report`), so two reports of one
 * kind can share a site.
 */
export interface Page {
  /** File stem under the site folder (`<id>.md`, `<id>.html`): lowercase letters, digits, hyphens. */
  id(results: Results): string;
  /** Page title, plain text (used in the layout's `<title>` and the index). */
  title(results: Results): string;
  /** One sentence about the page, plain text, shown on the index page. */
  description(results: Results): string;
  /**
   * Build the page's markdown (and assets) from results. Deterministic: same results in, same output.
   * @throws UserError when the results lack something this page needs (e.g. an axis column)
   */
  build(results: Results, context: SiteContext): string | PageOutput | Promise<string | PageOutput>;
}

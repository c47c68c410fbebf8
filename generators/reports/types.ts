/** The report-kind plug-in interface: one kind per results format, listed in `reports/index.ts`. */
import type { ResultKind } from "../../format/kinds.js";

/** What one report contributes to the site. */
export interface ReportSite {
  /** How the index lists the report. */
  entry: { id: string; title: string; description: string; results: string };
  /** Site-relative file name → content (pages as `.md` and `.html`, chart SVGs, …). */
  files: Map<string, string>;
}

/** A kind of results folder and the pages it renders to. */
export interface ReportKind {
  /** The kind of results folder it renders (format/kinds.ts, whose marker file tells a folder's kind). */
  kind: ResultKind;
  /**
   * Render the report of `dir`.
   * @param options.predictions predictions file for this report, when the caller named one
   * @throws UserError when a file of the folder is missing or malformed
   */
  render(dir: string, options: { predictions?: string }): Promise<ReportSite>;
}

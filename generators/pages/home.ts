/** The index page (`site/index.md` and `.html`): lists every report rendered and its results folder. */
import { mdCell } from "../../format/markdown.js";
import type { ReportSite } from "../reports/types.js";
import { tableView, type Column } from "../table.js";
import { renderMarkdownTemplate } from "../templates.js";

/** Index page id: the site's `index.md` / `index.html`. */
export const INDEX_ID = "index";

/** Index page title. */
export const INDEX_TITLE = "wirecost reports";

/** A report as the index lists it; `folder` is its results folder relative to the results root ("." for the root). */
export type IndexEntry = ReportSite["entry"] & { folder: string };

/**
 * The index page's markdown.
 * @param entries the reports, in the order shown; ids are [a-z0-9-] (checked by their pages)
 */
export function indexMarkdown(entries: readonly IndexEntry[]): string {
  const columns: ReadonlyArray<Column<IndexEntry>> = [
    { header: "Report", align: "left", cell: (e) => e.title },
    { header: "About", align: "left", cell: (e) => e.description },
    { header: "Results folder", align: "left", cell: (e) => e.folder },
  ];
  const view = tableView(columns, entries);
  view.rows = view.rows.map((cells, i) => {
    const [title, ...rest] = cells;
    return [`[${title ?? ""}](${entries[i]?.id ?? ""}.md)`, ...rest];
  });
  return renderMarkdownTemplate("index.md.njk", { title: mdCell(INDEX_TITLE), reports: view });
}

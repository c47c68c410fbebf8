/** The index page (`site/index.md` and `.html`): lists the report pages and where results came from. */
import { mdCell } from "../escape.js";
import type { Results } from "../results/load.js";
import { tableView, type Column } from "../table.js";
import { renderMarkdownTemplate } from "../templates.js";
import type { Page } from "./types.js";

/** Index page id: the site's `index.md` / `index.html`. */
export const INDEX_ID = "index";

/**
 * Make the index page for a list of report pages.
 * @param reports the pages to link, in the order shown
 */
export function indexPage(reports: readonly Page[]): Page {
  const columns: ReadonlyArray<Column<Page>> = [
    { header: "Report", align: "left", cell: (p) => p.title },
    { header: "About", align: "left", cell: (p) => p.description },
  ];
  return {
    id: INDEX_ID,
    title: "wirecost reports",
    description: "All reports rendered from one results folder.",
    build(results: Results): string {
      const view = tableView(columns, reports);
      // Link each title to its page; ids are checked to be [a-z0-9-] by the registry.
      view.rows = view.rows.map((cells, i) => {
        const [title, ...rest] = cells;
        return [`[${title ?? ""}](${reports[i]?.id ?? ""}.md)`, ...rest];
      });
      const p = results.provenance;
      return renderMarkdownTemplate("index.md.njk", {
        title: mdCell("wirecost reports"),
        reports: view,
        tool: mdCell(`${p.tool.name} ${p.tool.version}`),
        commit: mdCell(p.git.commit ?? "(not a git checkout)"),
        dirty: p.git.dirty,
        matrix: mdCell(p.matrix.file),
      });
    },
  };
}

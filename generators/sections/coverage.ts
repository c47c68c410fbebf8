/** The coverage grid: every expanded cell as measured, failed, excluded (with its rule) or not run. */
import { mdCell } from "../../format/markdown.js";
import { formatInt } from "../format.js";
import type { Coverage } from "../results/extra.js";
import { tableView, type TableView } from "../table.js";

/** The grid and a count per state. */
export interface CoverageView {
  /** One row per expanded cell. */
  table: TableView;
  /** e.g. `8 measured, 0 failed, 2 excluded, 0 not run`. */
  counts: string;
}

/** Build the coverage grid; axis names become escaped headers. */
export function coverageView(coverage: Coverage): CoverageView {
  const count = (s: string): string => formatInt(coverage.cells.filter((c) => c.outcome === s).length);
  return {
    table: tableView(
      [
        { header: "Configuration", align: "left", cell: (c) => c.config },
        ...coverage.axisNames.map((a) => ({ header: mdCell(a), align: "left" as const, cell: (c: (typeof coverage.cells)[number]) => c.axes.get(a) ?? "" })),
        { header: "Outcome", align: "left", cell: (c) => c.outcome },
        { header: "Reason", align: "left", cell: (c) => c.reason },
      ],
      coverage.cells,
    ),
    counts: `${count("measured")} measured, ${count("failed")} failed, ${coverage.cells.some((c) => c.outcome === "skipped") ? `${count("skipped")} skipped (toolchain missing), ` : ""}${count("excluded")} excluded, ${count("not-run")} not run`,
  };
}

/** The built targets of a report (toolchain and resolved dependency set), as one table (cells as text: the table escapes them). */
import { formatInt } from "../format.js";
import type { TargetBuildInfo } from "../../format/builds.js";
import { tableView, type TableView } from "../table.js";

const ECOSYSTEM: Readonly<Record<string, string>> = { pypi: "PyPI", crates: "crates.io", go: "Go modules", maven: "Maven Central" };

/**
 * One row per built target: its toolchain versions, how many packages its build resolved and the
 * whole set as `name version` pairs (the resolved set is the provenance: nothing is left out).
 * @returns undefined when no target was built
 */
export function buildsTable(builds: readonly TargetBuildInfo[]): TableView | undefined {
  if (builds.length === 0) return undefined;
  return tableView(
    [
      { header: "Target", align: "left", cell: (b: TargetBuildInfo) => b.target },
      { header: "Toolchain", align: "left", cell: (b: TargetBuildInfo) => b.toolchain.map((t) => `${t.tool}: ${t.version}`).join("; ") || "—" },
      {
        header: "Resolved packages",
        align: "right",
        cell: (b: TargetBuildInfo) => `${formatInt(b.packages.length)}${ECOSYSTEM[b.ecosystem] ? ` (${ECOSYSTEM[b.ecosystem]})` : ""}`,
      },
      // A package resolved at several versions (`2.0.119, 3.0.10`) reads `syn 2.0.119 and 3.0.10`, not as a nameless entry of the list.
      {
        header: "Resolved set",
        align: "left",
        cell: (b: TargetBuildInfo) => b.packages.map((p) => `${p.name} ${p.version.split(/,\s*/).join(" and ")}`).join(", ") || "—",
      },
    ],
    builds,
  );
}

/** The environment block of a report: what ran, where, from `provenance.json`. */
import { formatInt } from "../format.js";
import type { Provenance } from "../results/load.js";
import { tableView, type Column, type TableView } from "../table.js";
import { buildsTable } from "./builds.js";

/** The environment as two tables: run facts (key → value) and target package versions. */
export interface EnvironmentView {
  /** Tool, commit, Node, OS, CPU, matrix, command, start and end. */
  facts: TableView;
  /** One row per target package: name and resolved version. */
  packages: TableView;
  /** One row per built target: toolchain and resolved set; undefined when none was built. */
  builds?: TableView;
}

type Fact = readonly [label: string, value: string];

const FACT_COLUMNS: ReadonlyArray<Column<Fact>> = [
  { header: "Item", align: "left", cell: (f) => f[0] },
  { header: "Value", align: "left", cell: (f) => f[1] },
];

const PACKAGE_COLUMNS: ReadonlyArray<Column<{ name: string; version: string }>> = [
  { header: "Package", align: "left", cell: (p) => p.name },
  { header: "Version", align: "left", cell: (p) => p.version },
];

/** Build the environment tables from provenance; every value is escaped as a table cell. */
export function environmentView(p: Provenance): EnvironmentView {
  const facts: Fact[] = [
    ["Tool", `${p.tool.name} ${p.tool.version}`],
    ["Commit", p.git.commit ?? "(not a git checkout)"],
    ["Uncommitted changes", p.git.dirty ? "yes (dirty)" : "no (clean)"],
    ["Node", p.node],
    ["OS", `${p.os.platform} ${p.os.release} ${p.os.arch}`],
    ["CPU", `${p.cpu.model}, ${formatInt(p.cpu.cores)} cores`],
    ["Matrix", `${p.matrix.file} (sha256 ${p.matrix.sha256})`],
    ["Command", p.command],
    ["Started", p.startedAt],
    ["Ended", p.endedAt],
  ];
  const builds = buildsTable(p.builds);
  return { facts: tableView(FACT_COLUMNS, facts), packages: tableView(PACKAGE_COLUMNS, p.packages), ...(builds ? { builds } : {}) };
}

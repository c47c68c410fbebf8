/**
 * The tool catalog files `wirecost measure` adds to a bytes results folder (format/tools.ts):
 * `tools.tsv`, each tool definition of every configuration's tools/list answer with its bytes
 * and tokens (runner/count/tool-catalog.ts), and `tools-changes.tsv`, each configuration against
 * the same one at the previous revision it speaks, its byte changes and their causes
 * (runner/compare/causes.ts, through `pairChanges`). Read from each configuration's first ok
 * repeat (counting is deterministic; `summary.tsv` says whether repeats were identical).
 */
import type { ChangeRow } from "../../format/changes.js";
import { writeAtomic } from "../../format/files.js";
import { captureLogPath, resultsFile } from "../../format/layout.js";
import { readMedians } from "../../format/medians.js";
import { readSummary, type ConfigSummary } from "../../format/summary.js";
import { changesTsv, TOOL_CHANGES_FILE, TOOLS_FILE, toolsTsv, type ToolRow } from "../../format/tools.js";
import { readTsvRecords } from "../../format/tsv.js";
import { join } from "node:path";
import { toolCatalogOfRun } from "../count/tool-catalog.js";
import { pairChanges } from "./axis-changes.js";

const FIX = "run the server again with `npx wirecost measure`";

/**
 * Write tools.tsv and tools-changes.tsv into the results folder `dir` (atomically), from its
 * summary.tsv, runs.tsv and capture logs.
 * @returns the rows written
 * @throws UserError when summary.tsv or runs.tsv is missing or malformed
 */
export function writeToolCatalog(dir: string): { tools: ToolRow[]; changes: ChangeRow[] } {
  const summary = readSummary(resultsFile(dir, "summary"), FIX);
  const okRepeat = new Map<string, number>();
  for (const r of readTsvRecords(resultsFile(dir, "runs"), FIX)) {
    const repeat = Number(r.repeat);
    if (r.status === "ok" && r.config !== undefined && !(okRepeat.get(r.config)! <= repeat)) okRepeat.set(r.config, repeat);
  }
  const measured = summary.configs.filter((c) => okRepeat.has(c.config));
  const axis = (c: ConfigSummary, name: string): string => c.axes.get(name) ?? "";
  const transportOf = (c: ConfigSummary): "http" | "stdio" => (axis(c, "transport") === "stdio" ? "stdio" : "http");
  const tools: ToolRow[] = [];
  for (const c of measured) {
    const row = { config: c.config, transport: axis(c, "transport"), revision: axis(c, "revision") };
    const catalog = toolCatalogOfRun(captureLogPath(dir, c.config, okRepeat.get(c.config)!), transportOf(c));
    if (!Array.isArray(catalog)) {
      tools.push({ ...row, tool: "", definitionBytes: undefined, tokens: undefined, note: catalog.reason });
      continue;
    }
    for (const t of catalog) tools.push({ ...row, tool: t.name, definitionBytes: t.definitionBytes, tokens: t.tokens, note: "" });
  }
  // Each configuration against the one with the same other axis values at the previous revision.
  const groups = new Map<string, ConfigSummary[]>();
  for (const c of measured) {
    const key = JSON.stringify(summary.axisNames.filter((a) => a !== "revision").map((a) => axis(c, a)));
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const medians = readMedians(resultsFile(dir, "medians"), FIX);
  const totalOf = (c: ConfigSummary): number => medians.get(c.config)?.get("total_bytes")?.median ?? Number.NaN;
  const changes: ChangeRow[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => (axis(a, "revision") < axis(b, "revision") ? -1 : 1));
    for (let i = 1; i < list.length; i++) {
      const [base, head] = [list[i - 1]!, list[i]!];
      const pair = { axis: "revision", from: axis(base, "revision"), to: axis(head, "revision"), baseConfig: base.config, headConfig: head.config };
      changes.push(
        ...pairChanges(dir, pair, transportOf(head), okRepeat.get(base.config)!, okRepeat.get(head.config)!, { base: totalOf(base), head: totalOf(head) }),
      );
    }
  }
  writeAtomic(join(dir, TOOLS_FILE), toolsTsv(tools));
  writeAtomic(join(dir, TOOL_CHANGES_FILE), changesTsv(changes));
  return { tools, changes };
}

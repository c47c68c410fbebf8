/**
 * One page per configuration: its axes, every metric (min, median, max), every repeat from
 * `runs.tsv`, the identity of its repeats and varying fields, and its trace.
 */
import { mdCell, mdCode, mdFence } from "../escape.js";
import { formatInt } from "../format.js";
import { compareCodeUnits } from "../order.js";
import { reproduceCommand } from "../reproduce.js";
import { idStem } from "../stem.js";
import type { ConfigSummary, Results } from "../results/load.js";
import { identityLine } from "../sections/identity.js";
import { traceView } from "../sections/trace.js";
import { tableView } from "../table.js";
import { renderMarkdownTemplate } from "../templates.js";

/**
 * File stem of a configuration's page: `config-<id>` when the id is `[A-Za-z0-9_-]` (dots allowed
 * inside), else `config-<first 16 hex of sha256(id)>`, so no id can escape the site folder.
 */
export function configPageStem(config: string): string {
  return `config-${idStem(config)}`;
}

/**
 * Build one configuration's page markdown.
 * @param summary the configuration's summary row
 * @returns markdown source
 */
export function configPageMarkdown(results: Results, summary: ConfigSummary): string {
  const metrics = [...(results.medians.get(summary.config) ?? new Map())].sort((a, b) => compareCodeUnits(a[0], b[0]));
  const runs = results.runs;
  const runRows = runs?.rows.filter((r) => r.config === summary.config) ?? [];
  const runColumns = (runs?.header ?? []).filter((h) => h !== "config");
  const trace = traceView(results, summary.config);
  return renderMarkdownTemplate("config.md.njk", {
    title: mdCode(summary.config),
    axes: tableView(
      [
        { header: "Axis", align: "left", cell: (a: readonly [string, string]) => a[0] },
        { header: "Value", align: "left", cell: (a: readonly [string, string]) => a[1] },
      ],
      results.axisNames.map((a) => [a, summary.axes.get(a) ?? ""] as const),
    ),
    identity: identityLine(summary),
    varying: summary.varyingFields.map((f) => mdCode(f) || mdCell("(empty)")),
    metrics: tableView(
      [
        { header: "Metric", align: "left", cell: (m: (typeof metrics)[number]) => m[0] },
        { header: "Min", align: "right", cell: (m: (typeof metrics)[number]) => formatInt(m[1].min) },
        { header: "Median", align: "right", cell: (m: (typeof metrics)[number]) => formatInt(m[1].median) },
        { header: "Max", align: "right", cell: (m: (typeof metrics)[number]) => formatInt(m[1].max) },
      ],
      metrics,
    ),
    hasMetrics: metrics.length > 0,
    runs: runRows.length
      ? tableView(
          runColumns.map((h) => ({
            header: mdCell(h),
            align: "left" as const,
            cell: (r: (typeof runRows)[number]) => {
              const v = r.cells.get(h) ?? "";
              return h === "stream_sha256" ? v.slice(0, 16) : v;
            },
          })),
          runRows,
        )
      : undefined,
    trace: trace && { repeat: formatInt(trace.repeat), table: trace.table, exchange: mdFence(trace.exchange) },
    command: mdCode(reproduceCommand(summary.config, results.provenance.matrix.file, "medians.tsv", "total_bytes")),
  });
}

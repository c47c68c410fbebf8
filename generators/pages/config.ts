/**
 * One page per configuration: its axes, every metric (min, median, max), every repeat from
 * `runs.tsv`, the identity of its repeats and varying fields, and its trace.
 */
import { sequenceSvg } from "../charts/sequence.js";
import { mdCell, mdCode, mdFence } from "../../format/markdown.js";
import { formatInt, formatMedianCount } from "../format.js";
import { compareCodeUnits } from "../../format/order.js";
import { reproduceCommand } from "../reproduce.js";
import { idStem } from "../stem.js";
import type { ConfigSummary, Results } from "../results/load.js";
import { LEGACY_REPORT } from "../../format/migrations.js";
import { identityLine } from "../sections/identity.js";
import { speaksMcp } from "../sections/protocol.js";
import { sequenceSteps, traceView } from "../sections/trace.js";
import { readAnomalies } from "../results/extra.js";
import { tableView } from "../table.js";
import { renderMarkdownTemplate } from "../templates.js";
import { RESULTS_FILES } from "../../format/layout.js";

/**
 * File stem of a configuration's page. The id part is the id itself when it is `[A-Za-z0-9_-]`
 * (dots allowed inside), else the first 16 hex digits of sha256(id), so no id can escape the site
 * folder. The rule that keeps two reports' pages apart: the report whose slug is
 * `mcp-on-the-wire` (the name every bytes report had before reports were named, see
 * `LEGACY_REPORT`) keeps the unprefixed `config-<id>`; any other report's pages are
 * `config-<slug>--<id>`. A slug never holds `--`, so two reports of different slugs never share a
 * stem; a clash with a `config-<id>` page of the MCP report is refused by `render`.
 * @param config configuration id
 * @param slug the report's slug (file stem of its main page)
 * @returns the stem, without extension
 */
export function configPageStem(config: string, slug: string): string {
  return slug === LEGACY_REPORT.slug ? `config-${idStem(config)}` : `config-${slug}--${idStem(config)}`;
}

/**
 * The values an axis took over the configurations of this configuration's target, in sort order
 * (`0, 256, 4096`), or `only this one` when the target ran one value: an axis the target does not
 * use (another SDK's option) or one not swept for it.
 */
function targetValues(results: Results, summary: ConfigSummary, axis: string): string {
  const target = summary.axes.get("target");
  const values = [...new Set(results.configs.filter((c) => c.axes.get("target") === target).map((c) => c.axes.get(axis) ?? ""))].sort((a, b) =>
    a.localeCompare(b, "en", { numeric: true }),
  );
  return values.length <= 1 ? "only this one" : values.join(", ");
}

/**
 * Build one configuration's page markdown; its "Back to the report" link goes to
 * `<results.provenance.report.slug>.md`.
 * @param summary the configuration's summary row
 * @param sequence site-relative file of the page's sequence diagram (see {@link configSequence}), when one was drawn
 * @returns markdown source
 */
export function configPageMarkdown(results: Results, summary: ConfigSummary, sequence?: string): string {
  const metrics = [...(results.medians.get(summary.config) ?? new Map())].sort((a, b) => compareCodeUnits(a[0], b[0]));
  const runs = results.runs;
  const runRows = runs?.rows.filter((r) => r.config === summary.config) ?? [];
  const runColumns = (runs?.header ?? []).filter((h) => h !== "config");
  const trace = traceView(results, summary.config, { meta: speaksMcp(results, summary) });
  const okRepeats = runRows.filter((r) => r.status === "ok").map((r) => r.repeat);
  const anomalies = okRepeats.flatMap((repeat) => readAnomalies(results.dir, summary.config, repeat).map((a) => ({ repeat, ...a })));
  return renderMarkdownTemplate("config.md.njk", {
    sequence,
    title: mdCode(summary.config),
    report: results.provenance.report.slug,
    axes: tableView(
      [
        { header: "Axis", align: "left", cell: (a: readonly [string, string, string]) => a[0] },
        { header: "Value", align: "left", cell: (a: readonly [string, string, string]) => a[1] },
        { header: "Values this target ran", align: "left", cell: (a: readonly [string, string, string]) => a[2] },
      ],
      results.axisNames.map((a) => [a, summary.axes.get(a) ?? "", targetValues(results, summary, a)] as const),
    ),
    identity: identityLine(summary),
    varying: summary.varyingFields.map((f) => mdCode(f) || mdCell("(empty)")),
    metrics: tableView(
      [
        { header: "Metric", align: "left", cell: (m: (typeof metrics)[number]) => m[0] },
        { header: "Min", align: "right", cell: (m: (typeof metrics)[number]) => formatInt(m[1].min) },
        { header: "Median", align: "right", cell: (m: (typeof metrics)[number]) => formatMedianCount(m[1].median) },
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
    anomalies: anomalies.length
      ? tableView(
          [
            { header: "Repeat", align: "right", cell: (a: (typeof anomalies)[number]) => formatInt(a.repeat) },
            { header: "Code", align: "left", cell: (a: (typeof anomalies)[number]) => a.code },
            { header: "Stream", align: "left", cell: (a: (typeof anomalies)[number]) => (a.conn === 0 ? `stdio ${a.dir}` : `conn ${a.conn} ${a.dir}`) },
            { header: "At byte", align: "right", cell: (a: (typeof anomalies)[number]) => formatInt(a.offset) },
            { header: "Bytes", align: "right", cell: (a: (typeof anomalies)[number]) => formatInt(a.bytes) },
            { header: "Detail", align: "left", cell: (a: (typeof anomalies)[number]) => a.detail },
          ],
          anomalies,
        )
      : undefined,
    anomalyRepeats: formatInt(okRepeats.length),
    trace: trace && {
      repeat: formatInt(trace.repeat),
      table: trace.table,
      exchange: mdFence(trace.exchange),
      tokenizers: trace.tokens ? tokenizersText(results) : undefined,
    },
    command: mdCode(reproduceCommand(summary.config, results.provenance.matrix.file, RESULTS_FILES.medians, "total_bytes")),
  });
}

/** The tokenizers of the token columns as provenance.json names them, markdown. */
export function tokenizersText(results: Results): string {
  return results.provenance.tokenizers.length ? results.provenance.tokenizers.map((t) => mdCell(t)).join(", ") : "tokenizers not recorded in these results";
}

/**
 * The sequence diagram of a configuration's traced repeat: `<stem>-sequence.svg`, one arrow per
 * HTTP message or stdio line with its bytes per layer (from `messages.tsv`).
 * @param stem the configuration page's stem ({@link configPageStem})
 * @returns undefined when the results hold no per-message breakdown of the configuration
 */
export function configSequence(results: Results, summary: ConfigSummary, stem: string): { file: string; content: string } | undefined {
  const trace = traceView(results, summary.config, { meta: speaksMcp(results, summary) });
  if (trace === undefined || trace.messages.length === 0) return undefined;
  return {
    file: `${stem}-sequence.svg`,
    content: sequenceSvg(sequenceSteps(trace.messages), `Exchanges of ${summary.config}, repeat ${trace.repeat}: one arrow per HTTP message or stdio line`),
  };
}

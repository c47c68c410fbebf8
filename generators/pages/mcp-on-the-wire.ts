/**
 * The bytes report page: one HTTP table and one stdio table of median byte and message counts per
 * configuration (shaped like the first table of the published `mcp-on-the-wire` write-up), each
 * row with the command that reproduces it, the identity of its repeats, and the environment.
 *
 * Its title and file stem are the report's (`results.provenance.report`: the matrix's `title:` and
 * `slug:`; "MCP on the wire", `mcp-on-the-wire` for results that do not record them). MCP parts
 * (the revision column, `_meta` bytes, the servers side by side, the crossover estimate counted in
 * `tools/call` requests, request state, MCP header names) appear only when some configuration
 * speaks MCP (see `speaksMcp`), and are drawn from those configurations only; otherwise the page
 * speaks of JSON-RPC messages and requests only.
 */
import { readFileSync } from "node:fs";
import { UserError } from "../../format/errors.js";
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatInt, formatMedianCount, transportName } from "../format.js";
import { compareTuples } from "../../format/order.js";
import { reproduceCommand } from "../reproduce.js";
import type { ConfigSummary, MetricStats, Results } from "../results/load.js";
import { skippedConfigs } from "../results/extra.js";
import { environmentView } from "../sections/environment.js";
import { identityLine } from "../sections/identity.js";
import { tableView, type Column, type TableView } from "../table.js";
import { renderMarkdownTemplate } from "../templates.js";
import { coverageView } from "../sections/coverage.js";
import { FLOW_CALLS, crossoverView, framingShareTable, mainClient, serversSideBySide, stateTable } from "../sections/derived.js";
import { predictionViews } from "../sections/predictions.js";
import { traceView } from "../sections/trace.js";
import { speaksMcp } from "../sections/protocol.js";
import { mdFence } from "../../format/markdown.js";
import type { Page, PageOutput, SiteContext } from "./types.js";
import { RESULTS_FILES } from "../../format/layout.js";
import { anomalyView } from "../sections/anomalies.js";
import { wireHeadline } from "../sections/headline.js";
import { clientDefinition, clientWords, definitionItems, flowBriefLine, flowDefinition } from "../sections/definitions.js";
import { wireCharts } from "../sections/wire-charts.js";
import { clientFieldsView } from "../sections/client-fields.js";
import { releasesView } from "../sections/releases.js";
import { toolCatalogView } from "../sections/tool-catalog.js";
import { conformanceView } from "../sections/conformance.js";
import { COUNT_COLUMN_WORDS, countColumnWords, type CountColumnWords } from "../../format/count-columns.js";

/** Axes this page reads; each must be a column of `summary.tsv` (`revision` only when some configuration speaks MCP). */
const REQUIRED_AXES = ["flow", "revision", "target", "client", "transport"] as const;
/** Row order: these axes (`revision` only for MCP), then any other axis in declared order, then the configuration id. */
const SORT_AXES = ["flow", "revision", "target", "client"] as const;
/** Axes that only MCP configurations read as built-in; elsewhere they are ordinary axes. */
const MCP_AXES: readonly string[] = ["revision"];
/** The metric each row's reproduce command prints. */
const CHECK_METRIC = "total_bytes";

/** One configuration placed in a table, with its row key (`H1`, `S1`, …). */
interface Row {
  key: string;
  summary: ConfigSummary;
  metrics: ReadonlyMap<string, MetricStats>;
}

/** What the template shows for one table and its reproduce list. */
interface SectionView {
  table: TableView;
  rows: Array<{ key: string; config: string; command: string; expected: string; identity: string }>;
}

const axis = (row: Row, name: string): string => row.summary.axes.get(name) ?? "";
const median = (row: Row, metric: string): string => {
  const stats = row.metrics.get(metric);
  return stats === undefined ? "—" : formatMedianCount(stats.median);
};
/** A count column's median, under the label format/count-columns.ts gives it. */
const count = (column: CountColumnWords): Column<Row> => ({
  header: column.label,
  align: "right",
  cell: (row) => median(row, column.name),
});

/** A target's name as the report shows it: its label from provenance when there is one, else the axis value. */
const targetName = (labels: ReadonlyMap<string, string>, name: string): string => labels.get(name) ?? name;

/**
 * The full table's columns, key columns first so the totals show without scrolling: row key,
 * flow, revision, target, client, total bytes (and `_meta` bytes), then the count columns the
 * vocabulary places in this transport's table (format/count-columns.ts `table`), then the other axes.
 */
function columns(kind: "http" | "stdio", extraAxes: readonly string[], labels: ReadonlyMap<string, string>, mcp: boolean): Array<Column<Row>> {
  const key: Array<Column<Row>> = [
    { header: "#", align: "left", cell: (r) => r.key },
    { header: "Flow", align: "left", cell: (r) => axis(r, "flow") },
    ...(mcp ? [{ header: "Revision", align: "left", cell: (r) => axis(r, "revision") } satisfies Column<Row>] : []),
    { header: "Target", align: "left", cell: (r) => targetName(labels, axis(r, "target")) },
    { header: "Client", align: "left", cell: (r) => axis(r, "client") },
    count(countColumnWords("total_bytes")),
    ...(mcp ? [count(countColumnWords("meta_bytes"))] : []),
    {
      header: "JSON-RPC C→S / S→C",
      align: "right",
      cell: (r) => `${median(r, "jsonrpc_c2s")} / ${median(r, "jsonrpc_s2c")}`,
    },
  ];
  const extras = extraAxes.map((name): Column<Row> => ({ header: mdCell(name), align: "left", cell: (r) => axis(r, name) }));
  return [...key, ...COUNT_COLUMN_WORDS.filter((c) => c.table === kind).map(count), ...extras];
}

function section(
  kind: "http" | "stdio",
  rows: readonly Row[],
  extraAxes: readonly string[],
  labels: ReadonlyMap<string, string>,
  ctx: SiteContext,
  matrix: string,
  mcp: boolean,
): SectionView {
  const table = tableView(columns(kind, extraAxes, labels, mcp), rows);
  // Row keys link to the configuration pages (stems are [A-Za-z0-9._-], safe in a link).
  table.rows = table.rows.map((cells, i) => {
    const [key, ...rest] = cells;
    const row = rows[i];
    return row === undefined ? cells : [`[${key ?? ""}](${ctx.configPage(row.summary.config)}.md)`, ...rest];
  });
  return {
    table,
    rows: rows.map((row) => {
      const stats = row.metrics.get(CHECK_METRIC);
      return {
        key: row.key,
        config: mdCode(row.summary.config),
        command: mdCode(reproduceCommand(row.summary.config, matrix, RESULTS_FILES.medians, CHECK_METRIC)),
        expected: stats === undefined ? "no median (no ok repeat)" : `median ${mdCode(String(stats.median))}`,
        identity: identityLine(row.summary),
      };
    }),
  };
}

/** True when some configuration of the results speaks MCP. */
const anyMcp = (results: Results): boolean => results.configs.some((c) => speaksMcp(results, c));

/**
 * Refuse results that lack an axis the page needs (`REQUIRED_AXES`; the MCP ones only when some
 * configuration speaks MCP).
 * @returns the built-in axes the page reads
 * @throws UserError naming summary.tsv, the axis and the fix
 */
function builtInAxes(results: Results, mcp: boolean): readonly string[] {
  const builtIn: readonly string[] = REQUIRED_AXES.filter((name) => mcp || !MCP_AXES.includes(name));
  for (const name of builtIn) {
    if (!results.axisNames.includes(name)) {
      throw new UserError({
        file: results.files.summary,
        line: 1,
        key: name,
        problem: `the ${results.provenance.report.slug} page needs the axis column \`${name}\``,
        fix: `declare a \`${name}\` axis in the matrix and rerun \`npx wirecost run\``,
      });
    }
  }
  return builtIn;
}

/** The measured configurations (skipped ones left out) in the page's order: the sort axes, the other axes, the id. */
function sortedConfigs(results: Results, builtIn: readonly string[], extraAxes: readonly string[]): ConfigSummary[] {
  const sortKey = (c: ConfigSummary): string[] => [
    ...[...SORT_AXES.filter((name) => builtIn.includes(name)), ...extraAxes].map((name) => c.axes.get(name) ?? ""),
    c.config,
  ];
  const skipped = skippedConfigs(results);
  return [...results.configs].filter((c) => !skipped.has(c.config)).sort((a, b) => compareTuples(sortKey(a), sortKey(b)));
}

/** The rows of one transport, keyed `<prefix><n>` in page order, with their medians. */
function rowsOf(results: Results, sorted: readonly ConfigSummary[], prefix: string, transport: string): Row[] {
  return sorted
    .filter((c) => c.axes.get("transport") === transport)
    .map((summary, i) => ({ key: `${prefix}${i + 1}`, summary, metrics: results.medians.get(summary.config) ?? new Map<string, MetricStats>() }));
}

/** Each row's decoded trace (where its capture log is kept), and its calls: the tools/call requests the trace holds. */
function tracesOf(results: Results, rows: readonly Row[], isMcp: (r: Row) => boolean) {
  const calls = new Map<string, number>();
  const traces = new Map<string, ReturnType<typeof traceView>>();
  for (const r of rows) {
    const t = traceView(results, r.summary.config, { meta: isMcp(r) });
    traces.set(r.summary.config, t);
    if (t) calls.set(r.summary.config, t.messages.filter((m) => m.dir === "c2s" && m.kind === "request" && m.method === "tools/call").length);
  }
  return { calls, traces };
}

/** The decoded exchanges: the one-call flow (`plain`) of each row group that has a trace. */
function exchangeViews(
  rows: readonly Row[],
  traces: ReturnType<typeof tracesOf>["traces"],
  labels: ReadonlyMap<string, string>,
  extraAxes: readonly string[],
  mcp: boolean,
  ctx: SiteContext,
) {
  return rows
    .filter((r) => r.summary.axes.get("flow") === "plain" && traces.get(r.summary.config) !== undefined)
    .map((r) => {
      const t = traces.get(r.summary.config);
      const label = [
        targetName(labels, r.summary.axes.get("target") ?? ""),
        `client ${r.summary.axes.get("client") ?? ""}`,
        ...["transport", ...(mcp ? ["revision"] : [])].map((a) => r.summary.axes.get(a) ?? ""),
        ...extraAxes.map((a) => `${a} ${r.summary.axes.get(a) ?? ""}`),
      ].join(", ");
      return {
        key: `[${r.key}](${ctx.configPage(r.summary.config)}.md)`,
        label: mdCell(label),
        repeat: formatInt(t?.repeat ?? 0),
        lines: mdFence(t?.exchange ?? []),
        table: t?.table,
      };
    });
}

/** Link the headline tables' row keys (`[H3]`) to their configuration pages, as the full tables' keys are. */
function linkHeadlineKeys(headline: ReturnType<typeof wireHeadline> | undefined, rows: readonly Row[], ctx: SiteContext): void {
  const configOfKey = new Map(rows.map((r) => [r.key, r.summary.config] as const));
  for (const t of headline?.tables ?? []) {
    t.table.rows = t.table.rows.map((cells) =>
      cells.map((c) =>
        c.replace(/\\\[([HS][0-9]+)\\\]$/, (whole, key: string) => {
          const config = configOfKey.get(key);
          return config === undefined ? whole : `\\[[${key}](${ctx.configPage(config)}.md)\\]`;
        }),
      ),
    );
  }
}

/** The page's second page: the decoded exchanges and the coverage of the matrix. */
function detailsPage(results: Results, exchanges: ReturnType<typeof exchangeViews>, mcp: boolean) {
  const slug = results.provenance.report.slug;
  const details = { id: `${slug}-exchanges`, title: `${results.provenance.report.title}: decoded exchanges and coverage` };
  const coverage = results.coverage && coverageView(results.coverage);
  const markdown = renderMarkdownTemplate("mcp-on-the-wire-exchanges.md.njk", {
    title: mdCell(details.title),
    report: { id: slug, title: mdCell(results.provenance.report.title) },
    mcp,
    exchanges,
    coverage,
  });
  return { ...details, markdown, coverage };
}

async function build(results: Results, ctx: SiteContext): Promise<PageOutput> {
  const mcp = anyMcp(results);
  const builtIn = builtInAxes(results, mcp);
  const extraAxes = results.axisNames.filter((name) => !builtIn.includes(name));
  const sorted = sortedConfigs(results, builtIn, extraAxes);
  const httpRows = rowsOf(results, sorted, "H", "http");
  const stdioRows = rowsOf(results, sorted, "S", "stdio");
  const allRows = [...httpRows, ...stdioRows];
  const isMcp = (r: Row): boolean => speaksMcp(results, r.summary);
  const mcpRows = allRows.filter(isMcp);
  const labels = results.provenance.targetLabels;
  const slug = results.provenance.report.slug;
  const { calls, traces } = tracesOf(results, allRows, isMcp);
  const exchanges = exchangeViews(allRows, traces, labels, extraAxes, mcp, ctx);
  const charts = await wireCharts(mcp ? mcpRows : allRows, results.axisNames, calls, slug, mcp);
  const assets = charts.assets;
  // The full tables' data, copied into the site beside the page (a results file, unchanged).
  const data = { medians: `${slug}-medians.tsv`, summary: `${slug}-summary.tsv` };
  assets.push({ file: data.medians, content: readFileSync(results.files.medians, "utf8") });
  assets.push({ file: data.summary, content: readFileSync(results.files.summary, "utf8") });
  const releases = await releasesView(results, slug);
  if (releases) assets.push(...releases.assets);
  const details = detailsPage(results, exchanges, mcp);
  const headline = mcp ? wireHeadline(mcpRows, results.axisNames, headlineLabels(results), calls) : undefined;
  linkHeadlineKeys(headline, allRows, ctx);
  const predictions = ctx.predictions;
  const markdown = renderMarkdownTemplate("mcp-on-the-wire.md.njk", {
    details: { id: details.id, title: mdCell(details.title) },
    title: mdCell(results.provenance.report.title),
    mcp,
    headline,
    flowLine: flowBriefLine(headline?.flows ?? [], results.provenance.flows),
    gridClient: clientWords(mainClient(mcp ? mcpRows : allRows), results.provenance.declaredClients),
    releases: releases?.view,
    catalog: toolCatalogView(results),
    http: section("http", httpRows, extraAxes, labels, ctx, results.provenance.matrix.file, mcp),
    stdio: section("stdio", stdioRows, extraAxes, labels, ctx, results.provenance.matrix.file, mcp),
    charts,
    data,
    definitions: definitionItems(mcp ? ["flow", "client", "revision", "layer", "meta", "repeat"] : ["layer", "repeat"], {
      flow: flowDefinition(results.provenance.flows),
      client: clientDefinition(results.provenance.declaredClients),
    }),
    framing: framingShareTable(httpRows),
    servers: serversSideBySide(mcpRows, results.axisNames, labels),
    conformance: mcp ? conformanceView(results, (t) => results.provenance.targetLabels.get(t) ?? t) : undefined,
    // MCP-only sections read the MCP configurations only (calls are `tools/call` requests).
    crossHttp: crossoverView(httpRows.filter(isMcp), results.axisNames, calls),
    crossStdio: crossoverView(stdioRows.filter(isMcp), results.axisNames, calls),
    flowCalls: Object.entries(FLOW_CALLS)
      .map(([flow, n]) => `${formatInt(n)} call${n === 1 ? "" : "s"} in ${mdCode(flow)}`)
      .join(", "),
    state: mcp ? stateTable(results, mcpRows) : undefined,
    clientFieldsView: clientFieldsView(results),
    exchanges,
    coverage: details.coverage,
    anomalies: anomalyView(results, ctx.configPage),
    predictions: predictions && {
      file: mdCode(predictions.file.split("/").pop() ?? ""),
      items: predictionViews(predictions.results, predictions.registration),
    },
    other: sorted
      .filter((c) => !["http", "stdio"].includes(c.axes.get("transport") ?? ""))
      .map((c) => ({ config: mdCode(c.config), transport: mdCode(c.axes.get("transport") ?? ""), identity: identityLine(c) })),
    env: environmentView(results.provenance),
  });
  return { markdown, assets, pages: [{ id: details.id, title: details.title, markdown: details.markdown }] };
}

/**
 * The targets' labels for the headline's legend, each with the version of its package that was
 * installed (provenance `packages`) when the label does not name it already:
 * `MCP TypeScript SDK v1 (@modelcontextprotocol/sdk 1.32.2)`. Left as they are when the results
 * have a `version` axis (one results folder, many versions).
 */
function headlineLabels(results: Results): Map<string, string> {
  const out = new Map(results.provenance.targetLabels);
  if (results.axisNames.includes("version")) return out;
  for (const [target, label] of out) {
    const pkg = results.provenance.targetPackages.get(target);
    const version = results.provenance.packages.find((p) => p.name === pkg)?.version;
    if (pkg === undefined || version === undefined || label.includes(version)) continue;
    out.set(target, label.includes(`(${pkg})`) ? label.replace(`(${pkg})`, `(${pkg} ${version})`) : `${label} ${version}`);
  }
  return out;
}

/** `a`, `a and b`, `a, b and c`. */
const andList = (items: readonly string[]): string => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/**
 * The page's one-line description (the site index's "About"), worded for what the results hold:
 * the target named when there is one, "per revision, target and client" naming only the axes
 * with several values, HTTP round trips only when HTTP was measured, the transports measured.
 */
function description(results: Results): string {
  if (results.axisNames.includes("version"))
    return "Total bytes of each flow and transport per package release, and each change between consecutive releases with its cause.";
  const values = (axis: string): string[] => [...new Set(results.configs.flatMap((c) => c.axes.get(axis) ?? []))].filter((v) => v !== "");
  const mcp = anyMcp(results);
  const transports = ["http", "stdio"].filter((t) => values("transport").includes(t));
  const targets = values("target");
  const per = [mcp && values("revision").length > 1 ? "revision" : "", targets.length > 1 ? "target" : "", values("client").length > 1 ? "client" : ""].filter(
    Boolean,
  );
  return [
    `Median bytes, JSON-RPC messages${transports.includes("http") ? " and HTTP round trips" : ""} of each ${mcp ? "MCP " : ""}flow`,
    targets.length === 1 ? ` of ${mdCell(targets[0]!)}` : "",
    per.length ? `, per ${andList(per)}` : "",
    transports.length ? `, over ${andList(transports.map(transportName))}` : "",
    ".",
  ].join("");
}

/**
 * The bytes report page (`site/<slug>.md` and `.html`, e.g. `mcp-on-the-wire.md`): id and title
 * from `results.provenance.report`, description worded for MCP when some configuration speaks it.
 */
export const mcpOnTheWire: Page = {
  id: (results) => results.provenance.report.slug,
  title: (results) => results.provenance.report.title,
  description,
  build,
};

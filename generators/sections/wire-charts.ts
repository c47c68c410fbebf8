/**
 * The wire report's charts, one per question, each an SVG with its data beside it as a TSV file
 * (the chart's text alternative and what the tracing test reads): the crossover (total bytes
 * against calls per session, one panel per server) and bytes by layer as small multiples (flow ×
 * revision panels, one bar per server, shared scales), both from the main grid of one transport;
 * and the request-state growth (total bytes against the `state` axis's size, one panel per server,
 * transport and client, one line per revision), from the rows of the `state` flow.
 */
import { COUNT_COLUMN_WORDS } from "../../format/count-columns.js";
import { toTsv } from "../../format/tsv.js";
import { crossoverSvg, layerMultiplesSvg, sweepLinesSvg, type CrossoverDatum, type LayerDatum, type SweepDatum } from "../charts/svg.js";
import { formatFixed } from "../format.js";
import { compareTuples } from "../../format/order.js";
import { crossoverFits, type KeyedRow, mainGrid, reportFlows } from "./derived.js";

/** A chart as the page links it: the SVG, its data file and a one-sentence text alternative. */
export interface ChartView {
  /** Site-relative SVG file. */
  svg: string;
  /** Site-relative TSV of the plotted values. */
  data: string;
  /** Text alternative (the image's alt text), words only: the figures are in the data file and tables. */
  alt: string;
  /** Series that the eye cannot tell apart because they coincide, computed from the plotted values (markdown); "" when none. */
  coincide?: string;
}

/**
 * Which series of a chart coincide: per panel, each pair of series that has the same value at
 * every x where both have one, in words (`2025-06-18 and 2025-11-25 coincide (the later drawn
 * over the earlier) in every panel`; `coincide where both are drawn` when they share only some
 * x; no panel named when the chart has one).
 * @param points one entry per plotted value: panel, series, x and value
 * @returns "" when no two series of a panel coincide
 */
export function coincidingSeries(points: ReadonlyArray<{ panel: string; series: string; x: string | number; value: number }>): string {
  const byPanel = new Map<string, Map<string, Map<string, number>>>();
  for (const p of points) {
    const panel = byPanel.get(p.panel) ?? new Map<string, Map<string, number>>();
    const series = panel.get(p.series) ?? new Map<string, number>();
    series.set(String(p.x), p.value);
    panel.set(p.series, series);
    byPanel.set(p.panel, panel);
  }
  const groupsOf = new Map<string, string[]>();
  for (const [panel, series] of byPanel) {
    const names = [...series.keys()].sort((a, b) => compareTuples([a], [b]));
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = series.get(names[i] ?? "") ?? new Map<string, number>();
        const b = series.get(names[j] ?? "") ?? new Map<string, number>();
        const shared = [...a.keys()].filter((x) => b.has(x));
        if (shared.length === 0 || shared.some((x) => a.get(x) !== b.get(x))) continue;
        const partial = shared.length < a.size || shared.length < b.size;
        const words = `${names[i]} and ${names[j]} coincide${partial ? " where both are drawn" : ""} (the later drawn over the earlier)`;
        groupsOf.set(words, [...(groupsOf.get(words) ?? []), panel]);
      }
    }
  }
  return [...groupsOf]
    .map(([words, panels]) => (byPanel.size === 1 ? words : `${words} ${panels.length === byPanel.size ? "in every panel" : `in ${panels.join(", ")}`}`))
    .join("; ");
}

/** HTTP layers stacked per bar, in order: metric and label (format/count-columns.ts `httpLayer`). */
const HTTP_LAYERS = COUNT_COLUMN_WORDS.filter((c) => c.httpLayer).map((c) => [c.name, c.label] as const);

const axis = (r: KeyedRow, name: string): string => r.summary.axes.get(name) ?? "";

/**
 * Add a chart's SVG and the TSV of its plotted values to `assets` as `<stem>.svg` and `<stem>.tsv`.
 * @param svgSource the rendered chart (a promise of its SVG source)
 * @param columns the TSV header; `rows` one row per plotted value
 * @returns the two file names
 */
async function addChart(
  assets: Array<{ file: string; content: string }>,
  stem: string,
  svgSource: Promise<string>,
  columns: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): Promise<{ svg: string; tsv: string }> {
  const svg = `${stem}.svg`;
  const tsv = `${stem}.tsv`;
  assets.push({ file: svg, content: await svgSource });
  assets.push({
    file: tsv,
    content: toTsv(
      [...columns],
      rows.map((r) => [...r]),
    ),
  });
  return { svg, tsv };
}

type Assets = Array<{ file: string; content: string }>;

/** The crossover chart: per server and revision, the measured medians at 1 and 10 calls and the fitted line (undefined without fits). */
async function crossoverChart(
  assets: Assets,
  base: readonly KeyedRow[],
  axisNames: readonly string[],
  calls: ReadonlyMap<string, number>,
  slug: string,
  transport: string,
): Promise<ChartView | undefined> {
  const fits = crossoverFits(base, axisNames, calls);
  if (fits.lines.length === 0) return undefined;
  const data: Array<CrossoverDatum & { config: string }> = [];
  const meetMax = Math.max(0, ...fits.meets.map((m) => (m.at !== undefined && Number.isFinite(m.at) ? Math.ceil(m.at) : 0)));
  const sorted = [...fits.lines].sort((a, b) => compareTuples([axis(a.one, "target"), a.rev], [axis(b.one, "target"), b.rev]));
  for (const l of sorted) {
    const panel = axis(l.one, "target");
    const far = Math.max(l.c10, Math.min(meetMax, 2 * l.c10));
    for (const [r, c] of [
      [l.one, l.c1],
      [l.ten, l.c10],
    ] as const) {
      data.push({ panel, revision: l.rev, calls: c, bytes: r.metrics.get("total_bytes")?.median ?? 0, kind: "measured", config: r.summary.config });
    }
    for (const c of [0, far])
      data.push({
        panel,
        revision: l.rev,
        calls: c,
        bytes: Number(formatFixed(l.fixed + l.marginal * c, 1).replace(/,/g, "")),
        kind: "fitted",
        config: l.one.summary.config,
      });
  }
  const { svg, tsv } = await addChart(
    assets,
    `${slug}-crossover`,
    crossoverSvg(data),
    ["server", "revision", "calls", "total_bytes", "kind", "config"],
    data.map((d) => [d.panel, d.revision, d.calls, d.bytes, d.kind, d.config]),
  );
  return {
    svg,
    data: tsv,
    coincide: coincidingSeries(data.filter((d) => d.kind === "measured").map((d) => ({ panel: d.panel, series: d.revision, x: d.calls, value: d.bytes }))),
    alt: `${transport}: total bytes per session against calls per session, one panel per server, measured medians as points and the fitted line of each revision`,
  };
}

/** The HTTP layers chart: one panel per flow and revision, one stacked bar per server (undefined without HTTP rows). */
async function layersChart(assets: Assets, http: readonly KeyedRow[], slug: string): Promise<ChartView | undefined> {
  const data: Array<LayerDatum & { config: string }> = [];
  // Every flow the rows ran (reportFlows: plain, input, ten first), one panel per flow and revision.
  const flows = reportFlows(http);
  const rank = (r: KeyedRow): string => String(flows.indexOf(axis(r, "flow"))).padStart(4, "0");
  const sorted = [...http]
    .filter((r) => flows.includes(axis(r, "flow")))
    .sort((a, b) => compareTuples([rank(a), axis(a, "revision"), axis(a, "target")], [rank(b), axis(b, "revision"), axis(b, "target")]));
  for (const r of sorted) {
    HTTP_LAYERS.forEach(([metric, layer], order) => {
      const v = r.metrics.get(metric)?.median;
      if (v === undefined) return;
      data.push({ flow: axis(r, "flow"), revision: axis(r, "revision"), server: axis(r, "target"), layer, order, bytes: v, config: r.summary.config });
    });
  }
  if (data.length === 0) return undefined;
  const { svg, tsv } = await addChart(
    assets,
    `${slug}-http-layers`,
    layerMultiplesSvg(data),
    ["flow", "revision", "server", "layer", "bytes", "config"],
    data.map((d) => [d.flow, d.revision, d.server, d.layer, d.bytes, d.config]),
  );
  return {
    svg,
    data: tsv,
    alt: "HTTP bytes by layer (request and response heads and bodies, chunk framing), one panel per flow and revision, one stacked bar per server, all panels on one bytes scale",
  };
}

/** The request-state chart: total bytes of the state flow against its request state (undefined without a `state` axis or points). */
async function stateChart(assets: Assets, rows: readonly KeyedRow[], axisNames: readonly string[], slug: string): Promise<ChartView | undefined> {
  const state = axisNames.includes("state") ? statePoints(rows, axisNames) : [];
  if (state.length === 0) return undefined;
  const { svg, tsv } = await addChart(
    assets,
    `${slug}-request-state`,
    sweepLinesSvg(state, "Request state [bytes] (state axis)", "Total bytes per session (median)"),
    ["panel", "revision", "state_bytes", "total_bytes", "config"],
    state.map((d) => [d.panel, d.series, d.x, d.y, d.config]),
  );
  return {
    svg,
    data: tsv,
    coincide: coincidingSeries(state.map((d) => ({ panel: d.panel, series: d.series, x: d.x, value: d.y }))),
    alt: "Total bytes of the state flow against the size of its request state, one panel per server, transport and client, one line per revision",
  };
}

/**
 * Build the charts and their files.
 * @param rows report rows that speak MCP (every transport)
 * @param calls configuration id → `tools/call` requests counted in its trace
 * @param mcp whether the rows speak MCP (the crossover, counted in `tools/call` requests, is drawn only then)
 * @param slug the report's file stem (chart files are `<slug>-crossover.svg`, `<slug>-http-layers.svg`, …)
 * @returns the charts that have data, and the files to add to the site
 */
export async function wireCharts(
  rows: readonly KeyedRow[],
  axisNames: readonly string[],
  calls: ReadonlyMap<string, number>,
  slug: string,
  mcp: boolean,
): Promise<{ crossover?: ChartView; layers?: ChartView; state?: ChartView; assets: Assets }> {
  const assets: Assets = [];
  const grid = mainGrid(rows, axisNames);
  const http = grid.filter((r) => axis(r, "transport") === "http");
  const base = http.length > 0 ? http : grid.filter((r) => axis(r, "transport") === "stdio");
  const crossover = mcp ? await crossoverChart(assets, base, axisNames, calls, slug, http.length > 0 ? "HTTP" : "stdio") : undefined;
  const layers = http.length > 0 ? await layersChart(assets, http, slug) : undefined;
  const state = await stateChart(assets, rows, axisNames, slug);
  return { ...(crossover ? { crossover } : {}), ...(layers ? { layers } : {}), ...(state ? { state } : {}), assets };
}

/**
 * The request-state chart's points: every row of the `state` flow with a numeric `state` value,
 * its median total bytes. Panel: target, transport, the client when not `raw`, and the value of
 * any other axis that varies among that target's state rows (e.g. `pystate=plain`), so each panel
 * and revision has one point per state size. Sorted by panel, revision, state size.
 */
function statePoints(rows: readonly KeyedRow[], axisNames: readonly string[]): Array<SweepDatum & { config: string }> {
  const stateRows = rows.filter((r) => axis(r, "flow") === "state" && axis(r, "state") !== "" && Number.isFinite(Number(axis(r, "state"))));
  const fixed = ["target", "transport", "client", "flow", "state", "revision"];
  const varying = (target: string): string[] =>
    axisNames.filter((a) => !fixed.includes(a) && new Set(stateRows.filter((r) => axis(r, "target") === target).map((r) => axis(r, a))).size > 1);
  const points = stateRows
    .filter((r) => r.metrics.get("total_bytes")?.median !== undefined)
    .map((r) => {
      const client = axis(r, "client");
      const panel = [
        axis(r, "target"),
        axis(r, "transport"),
        ...(client !== "" && client !== "raw" ? [`${client} client`] : []),
        ...varying(axis(r, "target")).map((a) => `${a}=${axis(r, a)}`),
      ].join(" ");
      return { panel, series: axis(r, "revision"), x: Number(axis(r, "state")), y: r.metrics.get("total_bytes")!.median, config: r.summary.config };
    });
  return points.sort((a, b) => compareTuples([a.panel, a.series], [b.panel, b.series]) || a.x - b.x);
}

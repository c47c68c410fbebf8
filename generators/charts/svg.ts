/**
 * Static SVG charts built at render time: a vega-lite spec compiled to vega and rendered
 * headless (`renderer: "none"`), so a reader needs no script to read a number. Text in the
 * data is escaped by vega's SVG writer.
 */
import * as vega from "vega";
import * as vl from "vega-lite";

/** One point of a line chart: its x category, its series and its value. */
export interface LineDatum {
  /** Category on the x axis (e.g. a release `1.25.0`). */
  x: string;
  /** Series (one line and colour each, e.g. `mcp-ts-v1 2025-06-18`). */
  series: string;
  /** Value in the unit named by the chart's value axis title (bytes). */
  value: number;
}

/**
 * Render a line chart with points over ordinal x categories as an SVG document (a series has a
 * line through the categories it has a value for); the value axis starts at zero.
 * @param data one datum per category and series
 * @param xOrder the x categories in display order (categories not listed are left out)
 * @param xTitle title of the x axis; `valueTitle` of the value axis, including its unit
 * @returns SVG source ending with a newline
 */
export function lineChartSvg(data: readonly LineDatum[], xOrder: readonly string[], xTitle: string, valueTitle: string): Promise<string> {
  const series = [...new Set(data.map((d) => d.series))];
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 560,
    height: 220,
    data: { values: data.filter((d) => xOrder.includes(d.x)).map((d) => ({ ...d })) },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "x", type: "ordinal", sort: [...xOrder], title: xTitle, axis: { labelAngle: -90 } },
      // From zero, so that a step of a few bytes on a total of thousands looks as small as it is.
      y: { field: "value", type: "quantitative", title: valueTitle, scale: { zero: true } },
      color: { field: "series", type: "nominal", sort: series, title: null, legend: { orient: "bottom", columns: 2, labelLimit: 360 } },
    },
  });
}

/**
 * Compile a vega-lite spec and render it headless to an SVG document (no script needed to read it).
 * @returns SVG source ending with a newline
 */
export async function vegaLiteSvg(spec: vl.TopLevelSpec): Promise<string> {
  const compiled = vl.compile({ ...spec, config: { font: "sans-serif", view: { stroke: null }, ...(spec.config ?? {}) } } as vl.TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg.endsWith("\n") ? svg : `${svg}\n`;
}

/** One point of the crossover chart: a panel (server), a revision, a call count and total bytes. */
export interface CrossoverDatum {
  /** Panel title (a server's short name). */
  panel: string;
  /** Revision (colour). */
  revision: string;
  /** `tools/call` requests in the session. */
  calls: number;
  /** Total bytes of the session (measured median, or the fitted line's value). */
  bytes: number;
  /** `measured` (a median of `medians.tsv`) or `fitted` (fixed + marginal · calls). */
  kind: "measured" | "fitted";
}

/**
 * The crossover chart: total bytes against calls per session, one panel per server (shared
 * scales), measured medians as points and the fitted lines through them, one colour per revision.
 * @param data measured points and, per line, its fitted values at the chart's call counts
 */
export function crossoverSvg(data: readonly CrossoverDatum[]): Promise<string> {
  const panels = [...new Set(data.map((d) => d.panel))];
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values: data.map((d) => ({ ...d })) },
    facet: { field: "panel", type: "nominal", sort: panels, title: null, header: { labelFontSize: 12 } },
    // Up to five panels in one row, so that no empty cell of the grid draws a lone axis.
    columns: panels.length <= 5 ? Math.max(1, panels.length) : panels.length % 3 === 0 ? 3 : panels.length % 4 === 0 ? 4 : 3,
    spec: {
      width: 220,
      height: 160,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'fitted'" }],
          mark: { type: "line", strokeWidth: 1.5 },
          encoding: {
            x: { field: "calls", type: "quantitative", title: "Calls per session (tools/call)" },
            y: { field: "bytes", type: "quantitative", title: "Total bytes per session" },
            color: { field: "revision", type: "nominal", title: "Revision", legend: { orient: "bottom" } },
          },
        },
        {
          transform: [{ filter: "datum.kind === 'measured'" }],
          mark: { type: "point", filled: true, size: 40 },
          encoding: {
            x: { field: "calls", type: "quantitative" },
            y: { field: "bytes", type: "quantitative" },
            color: { field: "revision", type: "nominal" },
          },
        },
      ],
    },
    resolve: { scale: { x: "shared", y: "shared" } },
  });
}

/** One bar segment of the layer small multiples: panel row (flow), panel column (revision), bar (server), layer. */
export interface LayerDatum {
  flow: string;
  revision: string;
  server: string;
  layer: string;
  /** Order of the layer in the stack (0 first). */
  order: number;
  /** Median bytes of the layer. */
  bytes: number;
}

/**
 * Bytes by layer as small multiples: one panel per flow × revision, one stacked bar per server,
 * every panel on the same bytes scale.
 */
export function layerMultiplesSvg(data: readonly LayerDatum[]): Promise<string> {
  const order = (key: keyof LayerDatum) => [...new Set(data.map((d) => String(d[key])))];
  const layers = [...new Map(data.map((d) => [d.layer, d.order] as const))].sort((a, b) => a[1] - b[1]).map(([l]) => l);
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values: data.map((d) => ({ ...d })) },
    facet: {
      row: { field: "flow", type: "nominal", sort: order("flow"), title: "Flow" },
      column: { field: "revision", type: "nominal", sort: order("revision"), title: "Revision" },
    },
    spec: {
      width: 200,
      height: { step: 14 },
      mark: { type: "bar" },
      encoding: {
        y: { field: "server", type: "nominal", sort: order("server"), title: null },
        x: { field: "bytes", type: "quantitative", title: "Bytes (median)" },
        color: { field: "layer", type: "nominal", sort: layers, title: "Layer", legend: { orient: "bottom", columns: 3 } },
        order: { field: "order", type: "quantitative" },
      },
    },
    resolve: { scale: { x: "shared", y: "shared" } },
  });
}

/** One path of a box plot: nearest-rank percentiles of its samples, in the unit of the axis title. */
export interface BoxDatum {
  label: string;
  min: number;
  q1: number;
  median: number;
  q3: number;
  p95: number;
  max: number;
}

/**
 * Horizontal box plot from precomputed summaries: box 25th–75th percentile with a median tick,
 * whisker from the minimum to the 95th percentile (the maximum stays in the data, not drawn: one
 * slow call would squeeze every box).
 * @param valueTitle the value axis title, with its unit
 */
export function boxSvg(data: readonly BoxDatum[], valueTitle: string): Promise<string> {
  const labels = data.map((d) => d.label);
  const y = { field: "label", type: "nominal" as const, sort: labels, title: null, axis: { labelLimit: 0 } };
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 440,
    config: { axisY: { labelLimit: 0 } },
    data: { values: data.map((d) => ({ ...d })) },
    layer: [
      { mark: { type: "rule" }, encoding: { y, x: { field: "min", type: "quantitative", title: valueTitle }, x2: { field: "p95" } } },
      { mark: { type: "bar", size: 14, color: "#9ecae9" }, encoding: { y, x: { field: "q1", type: "quantitative" }, x2: { field: "q3" } } },
      { mark: { type: "tick", color: "#08519c", thickness: 2, size: 14 }, encoding: { y, x: { field: "median", type: "quantitative" } } },
    ],
  });
}

/** One bar of the CPU chart: a target in a layout, its median and the ends of its interval over trials (µs). */
export interface CpuDatum {
  target: string;
  layout: string;
  cpuUs: number;
  minUs: number;
  maxUs: number;
  /** True for the floor target (drawn in grey). */
  floor: boolean;
}

/** Horizontal bars of CPU per request per target, one panel per layout, error bars from `minUs` to `maxUs` (the interval over trials), shared scale. */
export function cpuBarsSvg(data: readonly CpuDatum[]): Promise<string> {
  const targets = [...new Set(data.map((d) => d.target))];
  const y = { field: "target", type: "nominal" as const, sort: targets, title: null };
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values: data.map((d) => ({ ...d, kind: d.floor ? "floor" : "SDK" })) },
    // Panels in the order the data first names them (the page puts its headline layout first).
    facet: { row: { field: "layout", type: "nominal", title: "Layout", sort: [...new Set(data.map((d) => d.layout))] } },
    spec: {
      width: 420,
      height: { step: 18 },
      layer: [
        {
          mark: { type: "bar" },
          encoding: {
            y,
            x: { field: "cpuUs", type: "quantitative", title: "Server CPU per request [µs] (median of trials)" },
            color: {
              field: "kind",
              type: "nominal",
              title: null,
              scale: { domain: ["SDK", "floor"], range: ["#4c78a8", "#aaaaaa"] },
              legend: { orient: "bottom" },
            },
          },
        },
        { mark: { type: "rule", color: "#222" }, encoding: { y, x: { field: "minUs", type: "quantitative" }, x2: { field: "maxUs" } } },
      ],
    },
    resolve: { scale: { x: "shared" } },
  });
}

/** One measured point of a sweep chart: its panel, its series (one line and colour), x and y in the axes' units. */
export interface SweepDatum {
  /** Panel title (e.g. a server and transport). */
  panel: string;
  /** Series within the panel (e.g. a revision, or a path). */
  series: string;
  x: number;
  y: number;
}

/**
 * A sweep as small multiples: one panel per `panel` (in first-seen order, up to four a row, shared
 * scales), in each a line with points per series over a quantitative x; both axes start at zero,
 * so the height at the left is the fixed cost and the slope the cost per unit of x.
 * @param xTitle and `yTitle`: the axes' titles, with their units
 * @returns SVG source ending with a newline
 */
export function sweepLinesSvg(data: readonly SweepDatum[], xTitle: string, yTitle: string): Promise<string> {
  const panels = [...new Set(data.map((d) => d.panel))];
  const series = [...new Set(data.map((d) => d.series))];
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values: data.map((d) => ({ ...d })) },
    facet: { field: "panel", type: "nominal", sort: panels, title: null, header: { labelFontSize: 12, labelLimit: 260 } },
    columns: Math.min(4, Math.max(1, panels.length)),
    spec: {
      width: 220,
      height: 160,
      mark: { type: "line", point: true },
      encoding: {
        x: { field: "x", type: "quantitative", title: xTitle, scale: { zero: true } },
        y: { field: "y", type: "quantitative", title: yTitle, scale: { zero: true } },
        color: { field: "series", type: "nominal", sort: series, title: null, legend: { orient: "bottom", columns: 2, labelLimit: 360 } },
      },
    },
    resolve: { scale: { x: "shared", y: "shared" } },
  });
}

/** One segment of a stacked stage bar: a path, a stage (one colour each) and its time per call (µs). */
export interface StageDatum {
  path: string;
  stage: string;
  us: number;
}

/**
 * Horizontal stacked bars, one per path, one colour per stage, on one shared scale (µs per call);
 * a negative segment (a hand-off below zero) is drawn left of zero.
 * @param stageOrder stages in legend and stacking order
 */
export function stageBarsSvg(data: readonly StageDatum[], stageOrder: readonly string[]): Promise<string> {
  const paths = [...new Set(data.map((d) => d.path))];
  return vegaLiteSvg({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 480,
    config: { axisY: { labelLimit: 0 } },
    data: { values: data.map((d, i) => ({ ...d, order: stageOrder.indexOf(d.stage), i })) },
    mark: { type: "bar" },
    encoding: {
      y: { field: "path", type: "nominal", sort: paths, title: null },
      x: { field: "us", type: "quantitative", title: "Time per call [µs]", stack: "zero" },
      color: {
        field: "stage",
        type: "nominal",
        sort: [...stageOrder],
        title: "stage",
        scale: { scheme: "tableau20" },
        legend: { orient: "bottom", columns: 3, labelLimit: 360 },
      },
      order: { field: "order", type: "quantitative" },
    },
  });
}

/**
 * Static SVG charts built at render time: a vega-lite spec compiled to vega and rendered
 * headless (`renderer: "none"`), so a reader needs no script to read a number. Text in the
 * data is escaped by vega's SVG writer.
 */
import * as vega from "vega";
import * as vl from "vega-lite";

/** One bar segment: a row label, a stack part and its value. */
export interface StackedDatum {
  /** Row label (e.g. a table row key and its configuration). */
  row: string;
  /** Stack part (e.g. `Request head`). */
  part: string;
  /** Order of the part in the stack (0 first). */
  order: number;
  /** Value in the unit named by the chart's axis title (bytes). */
  value: number;
}

/**
 * Render a horizontal stacked bar chart as an SVG document.
 * @param data one datum per row and part; rows appear in first-seen order
 * @param valueTitle title of the value axis, including its unit (e.g. `Bytes`)
 * @returns SVG source ending with a newline
 */
export async function stackedBarSvg(data: readonly StackedDatum[], valueTitle: string): Promise<string> {
  const rows = [...new Set(data.map((d) => d.row))];
  const parts = [...new Map(data.map((d) => [d.part, d.order] as const))].sort((a, b) => a[1] - b[1]).map(([p]) => p);
  const spec: vl.TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 560,
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: "bar" },
    encoding: {
      y: { field: "row", type: "nominal", sort: rows, title: null, axis: { labelLimit: 360 } },
      x: { field: "value", type: "quantitative", title: valueTitle },
      color: { field: "part", type: "nominal", sort: parts, title: null, legend: { orient: "bottom", columns: 3 } },
      order: { field: "order", type: "quantitative" },
    },
    config: { font: "sans-serif", view: { stroke: null } },
  };
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg.endsWith("\n") ? svg : `${svg}\n`;
}

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
 * line through the categories it has a value for).
 * @param data one datum per category and series
 * @param xOrder the x categories in display order (categories not listed are left out)
 * @param xTitle title of the x axis; `valueTitle` of the value axis, including its unit
 * @returns SVG source ending with a newline
 */
export async function lineChartSvg(data: readonly LineDatum[], xOrder: readonly string[], xTitle: string, valueTitle: string): Promise<string> {
  const series = [...new Set(data.map((d) => d.series))];
  const spec: vl.TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 560,
    height: 220,
    data: { values: data.filter((d) => xOrder.includes(d.x)).map((d) => ({ ...d })) },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "x", type: "ordinal", sort: [...xOrder], title: xTitle, axis: { labelAngle: -45 } },
      y: { field: "value", type: "quantitative", title: valueTitle, scale: { zero: false } },
      color: { field: "series", type: "nominal", sort: series, title: null, legend: { orient: "bottom", columns: 2, labelLimit: 360 } },
    },
    config: { font: "sans-serif", view: { stroke: null } },
  };
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg.endsWith("\n") ? svg : `${svg}\n`;
}

/**
 * The per-call page's payload-sweep chart: p50 per call against the size of the tool's result, one
 * panel per transport, one line per path, the direct call drawn in every panel for reference. Both
 * axes start at zero, so the height of a line at the left is the per-message cost and its slope
 * the per-KB cost; the data file beside it carries every plotted point with the path's two-point
 * per-message and per-KB figures (`payloadCost`, as the page's payload table). Every value is a
 * row of `percall-payload.tsv`.
 */
import { sweepLinesSvg, type SweepDatum } from "../charts/svg.js";
import { payloadCost } from "../pages/mcp-per-call-overhead.js";
import type { PercallResults } from "../results/percall.js";
import { toTsv } from "../../format/tsv.js";
import type { ChartView } from "./wire-charts.js";

/**
 * Build the payload-sweep chart and its data file.
 * @param stem the page's file stem (files `<stem>-payload.svg`, `<stem>-payload.tsv`)
 * @returns undefined when no path measured the sweep at two sizes or more
 */
export async function payloadSweepChart(
  r: PercallResults,
  stem: string,
): Promise<{ view: ChartView; assets: Array<{ file: string; content: string }> } | undefined> {
  const swept = r.rows.filter((p) => p.payload.length >= 2);
  const transports = [...new Set(swept.filter((p) => p.kind === "mcp").map((p) => p.transport))].sort();
  const panels = transports.length > 0 ? transports : [...new Set(swept.map((p) => p.transport))];
  const data: SweepDatum[] = [];
  const rows: Array<Array<string | number>> = [];
  for (const panel of panels) {
    for (const p of swept.filter((x) => x.transport === panel || x.kind === "direct")) {
      const cost = payloadCost(p.payload);
      for (const point of [...p.payload].sort((a, b) => a.resultBytes - b.resultBytes)) {
        data.push({ panel, series: p.config, x: point.resultBytes / 1024, y: point.p50Us / 1000 });
        rows.push([panel, p.config, point.resultBytes, point.p50Us, Number(cost.perMessageUs.toFixed(3)), Number(cost.perKbUs.toFixed(3))]);
      }
    }
  }
  if (data.length === 0) return undefined;
  const svg = `${stem}-payload.svg`;
  const tsv = `${stem}-payload.tsv`;
  return {
    view: {
      svg,
      data: tsv,
      alt: "p50 per call against the size of the result, one panel per transport, one line per path with the direct call in every panel; the height at the left is the per-message cost, the slope the per-KB cost",
    },
    assets: [
      { file: svg, content: await sweepLinesSvg(data, "Result size [KiB]", "p50 per call [ms] (median of trials)") },
      { file: tsv, content: toTsv(["panel", "config", "result_bytes", "p50_us", "per_message_us", "per_kb_us"], rows) },
    ],
  };
}

/**
 * "Across releases": the part of a bytes report whose matrix has a `version` axis (README
 * "Package versions as an axis"), one part per SDK (a target of the matrix, one package): a chart
 * per flow and transport of each configuration's median total bytes per release (one line per
 * revision, the target's releases in version order); every pair of its consecutive releases
 * compared and how many of its configurations changed; and each change with its causes, from
 * `changes.tsv` (written by the runner with the cause finder of `wirecost compare`). Every figure
 * comes from the results files.
 */
import type { ChangeRow } from "../../format/changes.js";
import { counted } from "../../format/plural.js";
import { lineChartSvg, type LineDatum } from "../charts/svg.js";
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatInt } from "../format.js";
import { skippedConfigs } from "../results/extra.js";
import type { Results } from "../results/load.js";
import { idStem } from "../stem.js";
import { tableView, type TableView } from "../table.js";
import { coincidingSeries } from "./wire-charts.js";

/** The axis whose values are releases. */
const VERSION = "version";

/** One SDK's part of the releases section: the releases of one target (one package). */
export interface SdkReleasesView {
  /** The target's id and its label from the matrix, as markdown (escaped). */
  target: string;
  label: string;
  /** Its releases in order, as inline code joined by commas. */
  releases: string;
  /** One chart per flow and transport: its heading and its SVG file beside the page. */
  charts: { flow: string; transport: string; file: string; coincide: string }[];
  /** Per consecutive pair of its releases: configurations compared and changed. */
  pairs: TableView;
  /** Each configuration pair whose bytes changed, with its causes; undefined when none changed. */
  changes: TableView | undefined;
  /**
   * The answer in a few lines: each pair of consecutive releases that changed bytes (Δ total
   * bytes, configurations changed, the causes named), then the releases where nothing changed;
   * markdown, one item each.
   */
  summary: string[];
  /** Its configuration pairs compared and those with a byte change. */
  compared: string;
  changed: string;
}

/** What the template shows (templates/sections/releases.md.njk); strings are markdown source. */
export interface ReleasesView {
  /** One part per SDK (target of the matrix), in the order of the results' configuration ids. */
  sdks: SdkReleasesView[];
  /** Configuration pairs compared and pairs with a byte change, over the whole report. */
  compared: string;
  changed: string;
}

/** Versions in release order: numeric-aware comparison (`1.9.0` before `1.13.0`). */
export function releaseOrder(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

const signed = (n: number): string => (n > 0 ? `+${formatInt(n)}` : formatInt(n));

/**
 * One configuration pair's causes as text: causes of the same kind, change and name summed over
 * the messages they happened in (`json path result.tools[*].execution added in tools/list ×3: +120 B`).
 */
function causesText(rows: readonly ChangeRow[]): string {
  const merged = new Map<string, { row: ChangeRow; bytes: number; count: number; methods: string[] }>();
  for (const r of rows) {
    if (r.kind === "") continue;
    const key = JSON.stringify([r.kind, r.change, r.name]);
    const m = merged.get(key) ?? { row: r, bytes: 0, count: 0, methods: [] };
    m.bytes += r.bytes;
    m.count += r.count;
    if (r.method !== "" && !m.methods.includes(r.method)) m.methods.push(r.method);
    merged.set(key, m);
  }
  return [...merged.values()]
    .sort((a, b) => Math.abs(b.bytes) - Math.abs(a.bytes))
    .map(({ row, bytes, count, methods }) => {
      if (row.kind === "unexplained") return `unexplained: ${signed(bytes)} B`;
      if (row.kind === "error") return `not compared: ${row.name}`;
      const where = methods.length ? ` in ${methods.join(", ")}` : "";
      return `${row.kind} ${row.name} ${row.change}${where}${count > 1 ? ` ×${count}` : ""}: ${signed(bytes)} B`;
    })
    .join("; ");
}

/**
 * The causes of one configuration pair without their bytes (`json path result.tools[*].execution
 * added in tools/list`), to be listed once per release pair.
 */
function causeNames(rows: readonly ChangeRow[]): string[] {
  const merged = new Map<string, string[]>();
  for (const r of rows) {
    if (r.kind === "") continue;
    const name = r.kind === "unexplained" ? "unexplained bytes" : r.kind === "error" ? `not compared: ${r.name}` : `${r.kind} ${mdCode(r.name)} ${r.change}`;
    const methods = merged.get(name) ?? [];
    if (r.method !== "" && !methods.includes(r.method)) methods.push(r.method);
    merged.set(name, methods);
  }
  return [...merged].map(([name, methods]) => (methods.length ? `${name} in ${methods.join(", ")}` : name));
}

/** A configuration of the results, as `Results` lists them. */
type Config = Results["configs"][number];
/** A consecutive pair of releases of one configuration, with its changes.tsv rows. */
type Pair = { target: string; from: string; to: string; head: Config | undefined; rows: ChangeRow[] };
/** A pair's rows changed bytes: a total that differs or a named cause. */
const changedPair = (p: Pair): boolean => p.rows[0]!.deltaTotalBytes !== 0 || p.rows.some((r) => r.kind !== "");
const axisOf = (c: Config, name: string): string => c.axes.get(name) ?? "";
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The view and chart files of the releases section, or undefined when the results have no
 * `version` axis: one part per target (an SDK package), each with its own releases.
 * @param slug the report's slug: chart files are `<slug>-releases-<target>-<flow>-<transport>.svg`
 */
export async function releasesView(results: Results, slug: string): Promise<{ view: ReleasesView; assets: { file: string; content: string }[] } | undefined> {
  if (!results.axisNames.includes(VERSION)) return undefined;
  const skipped = skippedConfigs(results);
  const measured = results.configs.filter((c) => !skipped.has(c.config) && results.medians.get(c.config)?.get("total_bytes") !== undefined);
  const configOf = new Map(results.configs.map((c) => [c.config, c] as const));
  const byPair = new Map<string, ChangeRow[]>();
  for (const r of results.changes ?? []) {
    const key = `${r.baseConfig}\t${r.headConfig}`;
    byPair.set(key, [...(byPair.get(key) ?? []), r]);
  }
  const pairs: Pair[] = [...byPair.values()].map((list) => {
    const first = list[0]!;
    const head = configOf.get(first.headConfig);
    return { target: head ? axisOf(head, "target") : "", from: first.from, to: first.to, head, rows: list };
  });
  const targets = [...new Set(measured.map((c) => axisOf(c, "target")))];
  const assets: { file: string; content: string }[] = [];
  const sdks: SdkReleasesView[] = [];
  for (const target of targets) {
    const part = await sdkView(
      results,
      slug,
      target,
      measured.filter((c) => axisOf(c, "target") === target),
      pairs.filter((p) => p.target === target),
    );
    assets.push(...part.assets);
    sdks.push(part.view);
  }
  return {
    view: { sdks, compared: formatInt(pairs.length), changed: formatInt(pairs.filter(changedPair).length) },
    assets,
  };
}

/** One row of a target's release-pairs table: two consecutive releases and their configurations compared. */
interface ReleaseRow {
  from: string;
  to: string;
  compared: number;
  changed: number;
  delta: number[];
}

/** The charts of one target: flow × transport, one series per client and revision, total bytes against release. */
async function releaseCharts(results: Results, slug: string, target: string, measured: readonly Config[], order: readonly string[]) {
  const clients = new Set(measured.map((c) => axisOf(c, "client")));
  const groups = new Map<string, LineDatum[]>();
  for (const c of measured) {
    const key = JSON.stringify([axisOf(c, "flow"), axisOf(c, "transport")]);
    const series = [...(clients.size > 1 ? [axisOf(c, "client")] : []), axisOf(c, "revision")].filter((s) => s !== "").join(" ");
    const list = groups.get(key) ?? [];
    list.push({ x: axisOf(c, VERSION), series, value: results.medians.get(c.config)!.get("total_bytes")!.median });
    groups.set(key, list);
  }
  const charts: SdkReleasesView["charts"] = [];
  const assets: { file: string; content: string }[] = [];
  for (const [key, data] of [...groups].sort(([a], [b]) => byText(a, b))) {
    const [flow, transport] = JSON.parse(key) as [string, string];
    const file = `${slug}-releases-${idStem(`${target}-${flow}-${transport}`)}.svg`;
    assets.push({ file, content: await lineChartSvg(data, [...order], "Release", "Total bytes (median)") });
    charts.push({
      flow: mdCode(flow),
      transport: mdCode(transport),
      file,
      coincide: coincidingSeries(data.map((d) => ({ panel: "", series: d.series, x: d.x, value: d.value }))),
    });
  }
  return { charts, assets };
}

/** Pairs of consecutive releases from changes.tsv, in release order: configurations compared, changed, and their Δ total bytes. */
function releaseRowsOf(pairs: readonly Pair[], rank: ReadonlyMap<string, number>): ReleaseRow[] {
  const byRelease = new Map<string, ReleaseRow>();
  for (const p of pairs) {
    const key = JSON.stringify([p.from, p.to]);
    const e = byRelease.get(key) ?? { from: p.from, to: p.to, compared: 0, changed: 0, delta: [] };
    e.compared++;
    if (changedPair(p)) e.changed++;
    e.delta.push(p.rows[0]!.deltaTotalBytes);
    byRelease.set(key, e);
  }
  return [...byRelease.values()].sort((a, b) => (rank.get(a.from) ?? 0) - (rank.get(b.from) ?? 0));
}

/** `+3` or `-2 to +5`: one signed figure, or the range of several. */
function signedRange(xs: readonly number[], unit = ""): string {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? `${signed(lo)}${unit}` : `${signed(lo)} to ${signed(hi)}${unit}`;
}

/** The release-pairs table. */
function releasePairsTable(releaseRows: readonly ReleaseRow[]): TableView {
  return tableView(
    [
      { header: "Releases", align: "left", cell: (r: ReleaseRow) => `${r.from} → ${r.to}` },
      { header: "Configurations compared", align: "right", cell: (r) => formatInt(r.compared) },
      { header: "Changed", align: "right", cell: (r) => formatInt(r.changed) },
      { header: "Δ total bytes", align: "right", cell: (r) => signedRange(r.delta) },
    ],
    [...releaseRows],
  );
}

/** The changed configurations, one row each with its cause (undefined when none changed). */
function changesTable(changedPairs: readonly Pair[]): TableView | undefined {
  if (!changedPairs.length) return undefined;
  return tableView(
    [
      { header: "Releases", align: "left", cell: (p: Pair) => `${p.from} → ${p.to}` },
      { header: "Transport", align: "left", cell: (p) => (p.head ? axisOf(p.head, "transport") : "") },
      { header: "Revision", align: "left", cell: (p) => (p.head ? axisOf(p.head, "revision") : "") },
      { header: "Flow", align: "left", cell: (p) => (p.head ? axisOf(p.head, "flow") : "") },
      { header: "Total bytes", align: "right", cell: (p) => `${formatInt(p.rows[0]!.baseTotalBytes)} → ${formatInt(p.rows[0]!.headTotalBytes)}` },
      { header: "Δ", align: "right", cell: (p) => signed(p.rows[0]!.deltaTotalBytes) },
      { header: "Cause", align: "left", cell: (p) => causesText(p.rows) },
    ],
    [...changedPairs],
  );
}

/** The sentences: each release pair that changed bytes with its causes, and the pairs that changed none. */
function releaseSummary(target: string, releaseRows: readonly ReleaseRow[], changedPairs: readonly Pair[]): string[] {
  const summary: string[] = [];
  const changedHere = releaseRows.filter((r) => r.changed > 0);
  for (const r of changedHere) {
    const here = changedPairs.filter((p) => p.from === r.from && p.to === r.to);
    const span = signedRange(
      here.map((p) => p.rows[0]?.deltaTotalBytes ?? 0),
      " B",
    );
    summary.push(
      `**${mdCode(target)} ${r.from} → ${r.to}**: ${span} total bytes in ${formatInt(r.changed)} of ${counted(r.compared, "configuration")}; ${causeNames(here.flatMap((p) => p.rows)).join("; ")}.`,
    );
  }
  const first = releaseRows[0];
  const last = releaseRows[releaseRows.length - 1];
  if (first !== undefined && last !== undefined && changedHere.length === 0) {
    const pairsCompared = counted(
      releaseRows.reduce((n, r) => n + r.compared, 0),
      "configuration pair",
    );
    summary.push(`**${mdCode(target)} ${first.from} → ${last.to}**: no release changed any byte (${pairsCompared}).`);
  } else if (changedHere.length < releaseRows.length) {
    const unchanged = releaseRows
      .filter((r) => r.changed === 0)
      .map((r) => `${r.from} → ${r.to}`)
      .join(", ");
    summary.push(`${mdCode(target)}, no byte changed: ${unchanged}.`);
  }
  return summary;
}

/** One target's part of the releases section (see {@link releasesView}). */
async function sdkView(
  results: Results,
  slug: string,
  target: string,
  measured: readonly Config[],
  pairs: readonly Pair[],
): Promise<{ view: SdkReleasesView; assets: { file: string; content: string }[] }> {
  const order = releaseOrder(measured.map((c) => axisOf(c, VERSION)));
  const { charts, assets } = await releaseCharts(results, slug, target, measured, order);
  const rank = new Map(order.map((v, i) => [v, i] as const));
  const releaseRows = releaseRowsOf(pairs, rank);
  const changedPairs = pairs
    .filter(changedPair)
    .sort((a, b) => (rank.get(a.from) ?? 0) - (rank.get(b.from) ?? 0) || byText(a.rows[0]!.headConfig, b.rows[0]!.headConfig));
  return {
    view: {
      target: mdCode(target),
      label: mdCell(results.provenance.targetLabels.get(target) ?? target),
      releases: order.map(mdCode).join(", "),
      charts,
      pairs: releasePairsTable(releaseRows),
      changes: changesTable(changedPairs),
      summary: releaseSummary(target, releaseRows, changedPairs),
      compared: formatInt(pairs.length),
      changed: formatInt(changedPairs.length),
    },
    assets,
  };
}

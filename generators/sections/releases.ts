/**
 * "Across releases": the part of a bytes report whose matrix has a `version` axis (README
 * "Package versions as an axis"). A chart per flow and transport of each configuration's median
 * total bytes per release (one line per target and revision, releases in version order); per
 * target, every pair of consecutive releases compared and how many of its configurations changed;
 * and each change with its causes, from `changes.tsv` (written by the runner with the cause finder
 * of `wirecost compare`). Every figure comes from the results files.
 */
import type { ChangeRow } from "../../format/changes.js";
import { counted } from "../../format/plural.js";
import { lineChartSvg, type LineDatum } from "../charts/svg.js";
import { mdCode } from "../../format/markdown.js";
import { formatInt } from "../format.js";
import { skippedConfigs } from "../results/extra.js";
import type { Results } from "../results/load.js";
import { idStem } from "../stem.js";
import { tableView, type TableView } from "../table.js";
import { coincidingSeries } from "./wire-charts.js";

/** The axis whose values are releases. */
const VERSION = "version";

/** What the template shows (templates/sections/releases.md.njk); strings are markdown source. */
export interface ReleasesView {
  /** Releases in order, as inline code joined by commas. */
  releases: string;
  /** One chart per flow and transport: its heading and its SVG file beside the page. */
  charts: { flow: string; transport: string; file: string; coincide: string }[];
  /** Per target and consecutive pair of releases: configurations compared and changed. */
  pairs: TableView;
  /** Each configuration pair whose bytes changed, with its causes; undefined when none changed. */
  changes: TableView | undefined;
  /**
   * The answer in a few lines, for the top of the page: per target, each pair of consecutive
   * releases that changed bytes (Δ total bytes, configurations changed, the causes named), then
   * the releases where nothing changed; markdown, one item each.
   */
  summary: string[];
  /** Pairs compared and pairs with a byte change, over the whole report. */
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

/**
 * The view and chart files of the releases section, or undefined when the results have no
 * `version` axis.
 * @param slug the report's slug: chart files are `<slug>-releases-<flow>-<transport>.svg`
 */
export async function releasesView(results: Results, slug: string): Promise<{ view: ReleasesView; assets: { file: string; content: string }[] } | undefined> {
  if (!results.axisNames.includes(VERSION)) return undefined;
  const skipped = skippedConfigs(results);
  const measured = results.configs.filter((c) => !skipped.has(c.config) && results.medians.get(c.config)?.get("total_bytes") !== undefined);
  const order = releaseOrder(measured.map((c) => c.axes.get(VERSION) ?? ""));
  const axis = (c: (typeof measured)[number], name: string) => c.axes.get(name) ?? "";
  const labelOf = (target: string) => results.provenance.targetLabels.get(target) ?? target;
  // Charts: flow × transport, one series per target, client and revision.
  const clients = new Set(measured.map((c) => axis(c, "client")));
  const groups = new Map<string, LineDatum[]>();
  for (const c of measured) {
    const key = JSON.stringify([axis(c, "flow"), axis(c, "transport")]);
    const series = [axis(c, "target"), ...(clients.size > 1 ? [axis(c, "client")] : []), axis(c, "revision")].filter((s) => s !== "").join(" ");
    const list = groups.get(key) ?? [];
    list.push({ x: axis(c, VERSION), series, value: results.medians.get(c.config)!.get("total_bytes")!.median });
    groups.set(key, list);
  }
  const charts: ReleasesView["charts"] = [];
  const assets: { file: string; content: string }[] = [];
  for (const [key, data] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [flow, transport] = JSON.parse(key) as [string, string];
    const file = `${slug}-releases-${idStem(`${flow}-${transport}`)}.svg`;
    assets.push({ file, content: await lineChartSvg(data, order, "Release", "Total bytes (median)") });
    charts.push({
      flow: mdCode(flow),
      transport: mdCode(transport),
      file,
      coincide: coincidingSeries(data.map((d) => ({ panel: "", series: d.series, x: d.x, value: d.value }))),
    });
  }
  // Pairs of consecutive releases, from changes.tsv.
  const rows = results.changes ?? [];
  const byPair = new Map<string, ChangeRow[]>();
  for (const r of rows) {
    const key = `${r.baseConfig}\t${r.headConfig}`;
    const list = byPair.get(key) ?? [];
    list.push(r);
    byPair.set(key, list);
  }
  const configOf = new Map(results.configs.map((c) => [c.config, c] as const));
  type Pair = { target: string; from: string; to: string; head: (typeof measured)[number] | undefined; rows: ChangeRow[] };
  const pairs: Pair[] = [...byPair.values()].map((list) => {
    const first = list[0]!;
    const head = configOf.get(first.headConfig);
    return { target: head ? axis(head, "target") : "", from: first.from, to: first.to, head, rows: list };
  });
  const rank = new Map(order.map((v, i) => [v, i] as const));
  const byRelease = new Map<string, { target: string; from: string; to: string; compared: number; changed: number; delta: number[] }>();
  for (const p of pairs) {
    const key = JSON.stringify([p.target, p.from, p.to]);
    const e = byRelease.get(key) ?? { target: p.target, from: p.from, to: p.to, compared: 0, changed: 0, delta: [] };
    e.compared++;
    const d = p.rows[0]!.deltaTotalBytes;
    if (d !== 0 || p.rows.some((r) => r.kind !== "")) e.changed++;
    e.delta.push(d);
    byRelease.set(key, e);
  }
  const releaseRows = [...byRelease.values()].sort(
    (a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0) || (rank.get(a.from) ?? 0) - (rank.get(b.from) ?? 0),
  );
  const pairsTable = tableView(
    [
      { header: "Target", align: "left", cell: (r: (typeof releaseRows)[number]) => labelOf(r.target) },
      { header: "Releases", align: "left", cell: (r) => `${r.from} → ${r.to}` },
      { header: "Configurations compared", align: "right", cell: (r) => formatInt(r.compared) },
      { header: "Changed", align: "right", cell: (r) => formatInt(r.changed) },
      {
        header: "Δ total bytes",
        align: "right",
        cell: (r) => {
          const lo = Math.min(...r.delta);
          const hi = Math.max(...r.delta);
          return lo === hi ? signed(lo) : `${signed(lo)} to ${signed(hi)}`;
        },
      },
    ],
    releaseRows,
  );
  const changedPairs = pairs
    .filter((p) => p.rows[0]!.deltaTotalBytes !== 0 || p.rows.some((r) => r.kind !== ""))
    .sort(
      (a, b) =>
        (a.target < b.target ? -1 : a.target > b.target ? 1 : 0) ||
        (rank.get(a.from) ?? 0) - (rank.get(b.from) ?? 0) ||
        (a.rows[0]!.headConfig < b.rows[0]!.headConfig ? -1 : 1),
    );
  const changes = changedPairs.length
    ? tableView(
        [
          { header: "Target", align: "left", cell: (p: Pair) => p.target },
          { header: "Releases", align: "left", cell: (p) => `${p.from} → ${p.to}` },
          { header: "Transport", align: "left", cell: (p) => (p.head ? axis(p.head, "transport") : "") },
          { header: "Revision", align: "left", cell: (p) => (p.head ? axis(p.head, "revision") : "") },
          { header: "Flow", align: "left", cell: (p) => (p.head ? axis(p.head, "flow") : "") },
          { header: "Total bytes", align: "right", cell: (p) => `${formatInt(p.rows[0]!.baseTotalBytes)} → ${formatInt(p.rows[0]!.headTotalBytes)}` },
          { header: "Δ", align: "right", cell: (p) => signed(p.rows[0]!.deltaTotalBytes) },
          { header: "Cause", align: "left", cell: (p) => causesText(p.rows) },
        ],
        changedPairs,
      )
    : undefined;
  const summary: string[] = [];
  for (const target of [...new Set(releaseRows.map((r) => r.target))]) {
    const mine = releaseRows.filter((r) => r.target === target);
    const changedHere = mine.filter((r) => r.changed > 0);
    for (const r of changedHere) {
      const here = changedPairs.filter((p) => p.target === target && p.from === r.from && p.to === r.to);
      const deltas = here.map((p) => p.rows[0]?.deltaTotalBytes ?? 0);
      const lo = Math.min(...deltas);
      const hi = Math.max(...deltas);
      const span = lo === hi ? `${signed(lo)} B` : `${signed(lo)} to ${signed(hi)} B`;
      summary.push(
        `**${mdCode(target)} ${r.from} → ${r.to}**: ${span} total bytes in ${formatInt(r.changed)} of ${counted(r.compared, "configuration")}; ${causeNames(here.flatMap((p) => p.rows)).join("; ")}.`,
      );
    }
    const first = mine[0];
    const last = mine[mine.length - 1];
    if (first !== undefined && last !== undefined && changedHere.length === 0) {
      summary.push(
        `**${mdCode(target)} ${first.from} → ${last.to}**: no release changed any byte (${counted(
          mine.reduce((n, r) => n + r.compared, 0),
          "configuration pair",
        )}).`,
      );
    } else if (changedHere.length < mine.length) {
      summary.push(
        `${mdCode(target)}, no byte changed: ${mine
          .filter((r) => r.changed === 0)
          .map((r) => `${r.from} → ${r.to}`)
          .join(", ")}.`,
      );
    }
  }
  return {
    view: {
      summary,
      releases: order.map(mdCode).join(", "),
      charts,
      pairs: pairsTable,
      changes,
      compared: formatInt(pairs.length),
      changed: formatInt(changedPairs.length),
    },
    assets,
  };
}

/**
 * Derived figures of the report, each printed with its inputs: the framing share of each HTTP
 * total and the linear crossover estimate between revisions from one-call and ten-call totals.
 */
import { mdCell } from "../../format/markdown.js";
import { crossoverCalls, linearCost, sharePercent } from "../derive/figures.js";
import { formatFixed, formatInt, transportName } from "../format.js";
import { compareTuples } from "../../format/order.js";
import type { ConfigSummary, MetricStats, Results } from "../results/load.js";
import { tableView, type TableView } from "../table.js";

/** A configuration as a report row: its key (`H1`), summary and medians. */
export interface KeyedRow {
  /** Row key shown in the tables (`H1`, `S2`, …). */
  key: string;
  /** The configuration. */
  summary: ConfigSummary;
  /** Its medians by metric. */
  metrics: ReadonlyMap<string, MetricStats>;
}

const med = (r: KeyedRow, metric: string): number | undefined => r.metrics.get(metric)?.median;

/**
 * Framing share per HTTP row: (request head + response head + chunk framing) / total.
 * @returns the table, or undefined when no row has all four medians
 */
export function framingShareTable(rows: readonly KeyedRow[]): TableView | undefined {
  const usable = rows.filter((r) => ["request_head_bytes", "response_head_bytes", "chunk_framing_bytes", "total_bytes"].every((m) => med(r, m) !== undefined));
  if (usable.length === 0) return undefined;
  return tableView(
    [
      { header: "#", align: "left", cell: (x) => x.r.key },
      { header: "Request head + response head + chunk bytes", align: "left", cell: (x) => x.formula },
      { header: "Framing bytes", align: "right", cell: (x) => formatInt(x.framing) },
      { header: "Total bytes", align: "right", cell: (x) => formatInt(x.total) },
      { header: "Framing share [%]", align: "right", cell: (x) => formatFixed(sharePercent(x.framing, x.total), 0) },
    ],
    usable.map((r) => {
      const [rh, sh, ch, total] = ["request_head_bytes", "response_head_bytes", "chunk_framing_bytes", "total_bytes"].map((m) => med(r, m) ?? 0) as [
        number,
        number,
        number,
        number,
      ];
      return { r, framing: rh + sh + ch, total, formula: `(${formatInt(rh)} + ${formatInt(sh)} + ${formatInt(ch)}) / ${formatInt(total)}` };
    }),
  );
}

/** Calls per flow when the results carry no trace to count them from: the flows' definitions. */
export const FLOW_CALLS: Readonly<Record<string, number>> = { plain: 1, ten: 10 };

/** One fitted line: a group (every axis but flow and revision) at one revision. */
export interface CrossoverLine {
  /** The group as `axis=value, …`. */
  group: string;
  /** The group's axis values in `axisNames` order (flow and revision left out). */
  tuple: readonly string[];
  /** Revision of both endpoints. */
  rev: string;
  /** The one-call (`plain`) and ten-call (`ten`) rows. */
  one: KeyedRow;
  ten: KeyedRow;
  /** Calls in each endpoint (`tools/call` requests). */
  c1: number;
  c10: number;
  /** Fixed bytes per session and marginal bytes per added call (see `linearCost`). */
  fixed: number;
  marginal: number;
}

/** Where two revisions' lines of one group meet: `at` calls, undefined when parallel. */
export interface CrossoverMeet {
  group: string;
  a: CrossoverLine;
  b: CrossoverLine;
  at: number | undefined;
}

/**
 * Fit fixed and marginal bytes per revision from the `plain` (one call) and `ten` (ten calls)
 * totals of configurations that agree on every other axis, and where each pair of revisions
 * meets (revisions in sorted order, so `a` is the older one).
 * @param rows every report row of one transport
 * @param calls configuration id → calls counted in its trace (`tools/call` requests), when known
 */
export function crossoverFits(
  rows: readonly KeyedRow[],
  axisNames: readonly string[],
  calls: ReadonlyMap<string, number>,
): { lines: CrossoverLine[]; meets: CrossoverMeet[] } {
  const groupAxes = axisNames.filter((a) => a !== "flow" && a !== "revision");
  const groups = new Map<string, { tuple: string[]; byRevision: Map<string, { one?: KeyedRow; ten?: KeyedRow }> }>();
  for (const r of rows) {
    const flow = r.summary.axes.get("flow");
    if (flow !== "plain" && flow !== "ten") continue;
    if (med(r, "total_bytes") === undefined) continue;
    const tuple = groupAxes.map((a) => r.summary.axes.get(a) ?? "");
    const key = JSON.stringify(tuple);
    const g = groups.get(key) ?? { tuple, byRevision: new Map() };
    const rev = r.summary.axes.get("revision") ?? "";
    const pair = g.byRevision.get(rev) ?? {};
    if (flow === "plain") pair.one = r;
    else pair.ten = r;
    g.byRevision.set(rev, pair);
    groups.set(key, g);
  }
  const lineRows: CrossoverLine[] = [];
  const meetRows: CrossoverMeet[] = [];
  const callsOf = (r: KeyedRow): number => calls.get(r.summary.config) ?? FLOW_CALLS[r.summary.axes.get("flow") ?? ""] ?? 0;
  for (const g of [...groups.values()].sort((a, b) => compareTuples(a.tuple, b.tuple))) {
    const label = groupAxes.map((a, i) => `${a}=${g.tuple[i] ?? ""}`).join(", ");
    const mine: CrossoverLine[] = [];
    for (const [rev, pair] of [...g.byRevision].sort((a, b) => compareTuples([a[0]], [b[0]]))) {
      if (pair.one === undefined || pair.ten === undefined) continue;
      const c1 = callsOf(pair.one);
      const c10 = callsOf(pair.ten);
      if (c1 === c10) continue;
      const fit = linearCost(c1, med(pair.one, "total_bytes") ?? 0, c10, med(pair.ten, "total_bytes") ?? 0);
      mine.push({ group: label, tuple: g.tuple, rev, one: pair.one, ten: pair.ten, c1, c10, fixed: fit.fixedBytes, marginal: fit.marginalBytes });
    }
    lineRows.push(...mine);
    for (let i = 0; i < mine.length; i++) {
      for (let j = i + 1; j < mine.length; j++) {
        const a = mine[i];
        const b = mine[j];
        if (a === undefined || b === undefined) continue;
        const at = crossoverCalls({ fixedBytes: a.fixed, marginalBytes: a.marginal }, { fixedBytes: b.fixed, marginalBytes: b.marginal });
        meetRows.push({ group: label, a, b, at });
      }
    }
  }
  return { lines: lineRows, meets: meetRows };
}

/** The crossover section: per revision its line, and per pair of revisions where they meet. */
export interface CrossoverView {
  /** Per group and revision: one-call and ten-call totals, fixed and marginal bytes. */
  lines: TableView;
  /** Per group and pair of revisions: the call count where the totals meet. */
  meets: TableView;
}

/**
 * The crossover tables of {@link crossoverFits}.
 * @param rows every report row of one transport
 * @param calls configuration id → calls counted in its trace (`tools/call` requests), when known
 * @returns undefined when no configuration has both flows
 */
export function crossoverView(rows: readonly KeyedRow[], axisNames: readonly string[], calls: ReadonlyMap<string, number>): CrossoverView | undefined {
  const { lines: lineRows, meets: meetRows } = crossoverFits(rows, axisNames, calls);
  if (lineRows.length === 0) return undefined;
  const total = (r: KeyedRow): string => formatInt(med(r, "total_bytes") ?? 0);
  return {
    lines: tableView(
      [
        { header: "Group", align: "left", cell: (x) => x.group },
        { header: "Revision", align: "left", cell: (x) => x.rev },
        { header: "Rows", align: "left", cell: (x) => `${x.one.key}, ${x.ten.key}` },
        { header: "Calls", align: "right", cell: (x) => `${formatInt(x.c1)} / ${formatInt(x.c10)}` },
        { header: "One-call total", align: "right", cell: (x) => total(x.one) },
        { header: "Ten-call total", align: "right", cell: (x) => total(x.ten) },
        { header: "Fixed bytes per session", align: "right", cell: (x) => formatFixed(x.fixed, 1) },
        { header: "Marginal bytes per added call", align: "right", cell: (x) => formatFixed(x.marginal, 1) },
      ],
      lineRows,
    ),
    meets: tableView(
      [
        { header: "Group", align: "left", cell: (x) => x.group },
        { header: "Revisions", align: "left", cell: (x) => `${x.a.rev} vs ${x.b.rev}` },
        {
          header: "(fixed A − fixed B) / (marginal B − marginal A)",
          align: "left",
          cell: (x) => `(${formatFixed(x.a.fixed, 1)} − ${formatFixed(x.b.fixed, 1)}) / (${formatFixed(x.b.marginal, 1)} − ${formatFixed(x.a.marginal, 1)})`,
        },
        {
          header: "Totals meet at [calls]",
          align: "right",
          cell: (x) =>
            x.at === undefined ? "never (parallel)" : x.at < 1 ? `no crossing at 1 call or more (lines meet at ${formatFixed(x.at, 2)})` : formatFixed(x.at, 2),
        },
        {
          header: "Ten-call difference B − A [bytes]",
          align: "right",
          cell: (x) => formatInt((med(x.b.ten, "total_bytes") ?? 0) - (med(x.a.ten, "total_bytes") ?? 0)),
        },
      ],
      meetRows,
    ),
  };
}

/**
 * The state-size table (when the matrix has a `state` axis): per state size and revision, total,
 * request body and response body bytes. When some rows run the `state` flow (the flow that
 * carries request state), only those rows are shown; otherwise every row with a `state` value.
 * Rows sort by the other axes, then state size as a number, then revision.
 * @returns undefined when there is no `state` axis
 */
export function stateTable(results: Results, allRows: readonly KeyedRow[]): TableView | undefined {
  if (!results.axisNames.includes("state")) return undefined;
  const stateFlow = allRows.filter((r) => r.summary.axes.get("flow") === "state");
  const rows = stateFlow.length > 0 ? stateFlow : allRows;
  const others = results.axisNames.filter((a) => a !== "state" && a !== "revision");
  const num = (r: KeyedRow): number => Number(r.summary.axes.get("state") ?? "") || 0;
  const sorted = [...rows].sort(
    (a, b) =>
      compareTuples(
        others.map((x) => a.summary.axes.get(x) ?? ""),
        others.map((x) => b.summary.axes.get(x) ?? ""),
      ) ||
      num(a) - num(b) ||
      compareTuples([a.summary.axes.get("revision") ?? ""], [b.summary.axes.get("revision") ?? ""]),
  );
  const cell =
    (metric: string) =>
    (r: KeyedRow): string => {
      const v = med(r, metric);
      return v === undefined ? "—" : formatInt(v);
    };
  return tableView(
    [
      { header: "#", align: "left", cell: (r) => r.key },
      { header: "State bytes", align: "right", cell: (r) => r.summary.axes.get("state") ?? "" },
      { header: "Revision", align: "left", cell: (r) => r.summary.axes.get("revision") ?? "" },
      ...others.map((a) => ({ header: mdCell(a), align: "left" as const, cell: (r: KeyedRow) => r.summary.axes.get(a) ?? "" })),
      { header: "Total bytes", align: "right", cell: cell("total_bytes") },
      { header: "Request body", align: "right", cell: cell("request_body_bytes") },
      { header: "Response body", align: "right", cell: cell("response_body_bytes") },
    ],
    sorted,
  );
}

/**
 * The main grid of a report: the raw client's rows (when no row has the raw client, the most
 * common client's), and for every axis other than target,
 * transport, flow, revision and client only its most common value (a sweep's values are rarer;
 * ties go to the first value in sort order), so each (target, transport, flow, revision) names
 * at most one row.
 */
export function mainGrid<R extends KeyedRow>(rows: readonly R[], axisNames: readonly string[]): R[] {
  const fixed = axisNames.filter((a) => !["target", "transport", "flow", "revision", "client"].includes(a));
  const mode = new Map<string, string>();
  for (const a of fixed) {
    const counts = new Map<string, number>();
    for (const r of rows) {
      const v = r.summary.axes.get(a) ?? "";
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    mode.set(a, [...counts].sort((x, y) => y[1] - x[1] || compareTuples([x[0]], [y[0]]))[0]?.[0] ?? "");
  }
  const client = mainClient(rows);
  return rows.filter((r) => (r.summary.axes.get("client") ?? "raw") === client && fixed.every((a) => (r.summary.axes.get(a) ?? "") === mode.get(a)));
}

/** Flows a report shows first, in this order; any other flow follows by name. */
const FIRST_FLOWS = ["plain", "input", "ten"];
/** Flows with a section of their own (the request-state section), left out of the flow tables. */
const OWN_SECTION_FLOWS = ["state"];

/**
 * The flows of a report's headline, servers side by side and layer chart: every flow the rows ran
 * (`plain`, `input`, `ten` first, then the others by name), but those with a section of their own
 * (`state`).
 */
export function reportFlows(rows: readonly KeyedRow[]): string[] {
  const present = new Set(rows.map((r) => r.summary.axes.get("flow") ?? "").filter((f) => f !== "" && !OWN_SECTION_FLOWS.includes(f)));
  return [...FIRST_FLOWS.filter((f) => present.has(f)), ...[...present].filter((f) => !FIRST_FLOWS.includes(f)).sort((a, b) => compareTuples([a], [b]))];
}

/** The client of the main grid ({@link mainGrid}): `raw` when some row has it, else the most common. */
export function mainClient(rows: readonly KeyedRow[]): string {
  const clients = new Map<string, number>();
  for (const r of rows) clients.set(r.summary.axes.get("client") ?? "raw", (clients.get(r.summary.axes.get("client") ?? "raw") ?? 0) + 1);
  return clients.has("raw") ? "raw" : ([...clients].sort((x, y) => y[1] - x[1] || compareTuples([x[0]], [y[0]]))[0]?.[0] ?? "raw");
}

/** One flow × transport table of the servers side by side (see {@link serversSideBySide}). */
export interface ServerComparison {
  transport: string;
  /** The transport as the page names it (`HTTP`, `stdio`: generators/format.ts transportName). */
  name: string;
  flow: string;
  table: TableView;
}

/**
 * The servers side by side: per transport and flow ({@link reportFlows}), one row per revision and
 * one column per target, each cell the median total bytes with the JSON-RPC message counts
 * (client→server / server→client). Only the main grid's client's rows, and for every other axis only its
 * most common value (the main grid's: a sweep's values are rarer), so each cell is one
 * configuration of the main grid; a cell without such a row is "—".
 * @param labels target name → label (provenance)
 * @returns the tables in transport, flow order; empty when fewer than two targets have rows
 */
export function serversSideBySide(rows: readonly KeyedRow[], axisNames: readonly string[], labels: ReadonlyMap<string, string>): ServerComparison[] {
  const main = mainGrid(rows, axisNames);
  const targets = [...new Set(main.map((r) => r.summary.axes.get("target") ?? ""))].sort((a, b) => compareTuples([labels.get(a) ?? a], [labels.get(b) ?? b]));
  if (targets.length < 2) return [];
  const out: ServerComparison[] = [];
  for (const transport of ["http", "stdio"]) {
    for (const flow of reportFlows(main)) {
      const here = main.filter((r) => r.summary.axes.get("transport") === transport && r.summary.axes.get("flow") === flow);
      if (here.length === 0) continue;
      const revisions = [...new Set(here.map((r) => r.summary.axes.get("revision") ?? ""))].sort((a, b) => compareTuples([a], [b]));
      const at = (rev: string, t: string) => here.find((r) => r.summary.axes.get("revision") === rev && r.summary.axes.get("target") === t);
      const cell = (r: KeyedRow | undefined): string => {
        const total = r && med(r, "total_bytes");
        if (r === undefined || total === undefined) return "—";
        return `${formatInt(total)} (${formatInt(med(r, "jsonrpc_c2s") ?? 0)} / ${formatInt(med(r, "jsonrpc_s2c") ?? 0)}) [${r.key}]`;
      };
      out.push({
        transport,
        name: transportName(transport),
        flow,
        table: tableView(
          [
            { header: "Revision", align: "left", cell: (rev: string) => rev },
            ...targets.map((t) => ({ header: mdCell(labels.get(t) ?? t), align: "right" as const, cell: (rev: string) => cell(at(rev, t)) })),
          ],
          revisions,
        ),
      });
    }
  }
  return out;
}

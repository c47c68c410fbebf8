/**
 * The answer first: the wire report's headline table (per server, flow × revision totals and the
 * difference to the previous revision) and findings sentences generated from the same medians and
 * from the crossover fits. Every number printed here is a median of `medians.tsv`, a difference of
 * two medians, or a crossover figure of {@link crossoverFits} (the tracing test recomputes each).
 */
import { mdCell, mdCode } from "../escape.js";
import { formatFixed, formatInt } from "../format.js";
import { compareTuples } from "../order.js";
import { tableView, type TableView } from "../table.js";
import { crossoverFits, type CrossoverMeet, type KeyedRow, mainGrid } from "./derived.js";

/** At most this many rows in a headline table (a reader takes it in at a glance). */
export const HEADLINE_MAX_ROWS = 12;
/** Flows of the headline, in order; other flows stay in the full tables. */
const HEADLINE_FLOWS = ["plain", "input", "ten"] as const;

/** The headline of the wire report. */
export interface WireHeadline {
  /** Transport the table shows (`http` when the results have HTTP rows, else `stdio`). */
  transport: string;
  /** Flow × revision rows, one column per server: median total bytes and, after the first revision, the difference to the previous one. */
  table: TableView;
  /** Server name → label (the column headers are the short names). */
  legend: string[];
  /** Findings, one markdown sentence each. */
  findings: string[];
  /** True when rows past {@link HEADLINE_MAX_ROWS} were left to the full tables. */
  cut: boolean;
}

const total = (r: KeyedRow | undefined): number | undefined => r?.metrics.get("total_bytes")?.median;
const axis = (r: KeyedRow, name: string): string => r.summary.axes.get(name) ?? "";
/** A signed difference as printed: `+12`, `-467`, `0`. */
const signed = (d: number): string => (d > 0 ? `+${formatInt(d)}` : formatInt(d));

/**
 * Build the headline from the report rows that speak MCP.
 * @param rows report rows (`H1`, `S1`, …) of every transport
 * @param axisNames the results' axis columns (summary.tsv)
 * @param calls configuration id → `tools/call` requests counted in its trace
 * @returns undefined when the main grid has no row of a headline flow
 */
export function wireHeadline(
  rows: readonly KeyedRow[],
  axisNames: readonly string[],
  labels: ReadonlyMap<string, string>,
  calls: ReadonlyMap<string, number>,
): WireHeadline | undefined {
  const grid = mainGrid(rows, axisNames);
  const transport = grid.some((r) => axis(r, "transport") === "http") ? "http" : "stdio";
  const here = grid.filter((r) => axis(r, "transport") === transport && (HEADLINE_FLOWS as readonly string[]).includes(axis(r, "flow")));
  if (here.length === 0) return undefined;
  const targets = [...new Set(here.map((r) => axis(r, "target")))].sort((a, b) => compareTuples([a], [b]));
  const revisions = [...new Set(here.map((r) => axis(r, "revision")))].sort((a, b) => compareTuples([a], [b]));
  const at = (flow: string, rev: string, target: string): KeyedRow | undefined =>
    here.find((r) => axis(r, "flow") === flow && axis(r, "revision") === rev && axis(r, "target") === target);
  const all = HEADLINE_FLOWS.flatMap((flow) => revisions.map((rev, i) => ({ flow, rev, prev: revisions[i - 1] }))).filter((x) =>
    targets.some((t) => at(x.flow, x.rev, t) !== undefined),
  );
  const shown = all.slice(0, HEADLINE_MAX_ROWS);
  const cellOf = (x: (typeof all)[number], target: string): string => {
    const r = at(x.flow, x.rev, target);
    const v = total(r);
    if (r === undefined || v === undefined) return "—";
    const before = x.prev === undefined ? undefined : total(at(x.flow, x.prev, target));
    return before === undefined ? `${formatInt(v)} [${r.key}]` : `${formatInt(v)} (${signed(v - before)}) [${r.key}]`;
  };
  const table = tableView(
    [
      { header: "Flow", align: "left", cell: (x: (typeof all)[number]) => x.flow },
      { header: "Revision", align: "left", cell: (x: (typeof all)[number]) => x.rev },
      ...targets.map((t) => ({ header: mdCell(t), align: "right" as const, cell: (x: (typeof all)[number]) => cellOf(x, t) })),
    ],
    shown,
  );
  return {
    transport,
    table,
    legend: targets.map((t) => (labels.has(t) && labels.get(t) !== t ? `${mdCell(t)}: ${mdCell(labels.get(t) ?? t)}` : mdCell(t))),
    findings: findings(here, targets, revisions, transport, axisNames, calls),
    cut: shown.length < all.length,
  };
}

/** The sentences: per flow, which revision is lighter on which servers; per server, the crossover; the lightest and heaviest server. */
function findings(
  rows: readonly KeyedRow[],
  targets: readonly string[],
  revisions: readonly string[],
  transport: string,
  axisNames: readonly string[],
  calls: ReadonlyMap<string, number>,
): string[] {
  const out: string[] = [];
  const newest = revisions[revisions.length - 1];
  const previous = revisions[revisions.length - 2];
  const find = (flow: string, rev: string | undefined, target: string) =>
    rows.find((r) => axis(r, "flow") === flow && axis(r, "revision") === rev && axis(r, "target") === target);
  const list = (names: readonly string[]): string => names.map((n) => mdCell(n)).join(", ");
  if (newest !== undefined && previous !== undefined) {
    for (const flow of HEADLINE_FLOWS) {
      const pairs = targets
        .map((t) => ({ t, a: total(find(flow, previous, t)), b: total(find(flow, newest, t)) }))
        .filter((p): p is { t: string; a: number; b: number } => p.a !== undefined && p.b !== undefined);
      if (pairs.length === 0) continue;
      const lighter = pairs.filter((p) => p.b < p.a).map((p) => p.t);
      const heavier = pairs.filter((p) => p.b > p.a).map((p) => p.t);
      const parts = [
        lighter.length > 0 ? `lighter than ${previous} on ${lighter.length === pairs.length ? "every server measured" : list(lighter)}` : "",
        heavier.length > 0
          ? `heavier${lighter.length > 0 ? "" : ` than ${previous}`} on ${heavier.length === pairs.length ? "every server measured" : list(heavier)}`
          : "",
      ].filter(Boolean);
      const range = pairs.map((p) => p.b - p.a).sort((x, y) => x - y);
      const lo = range[0] ?? 0;
      const hi = range[range.length - 1] ?? 0;
      const span = lo === hi ? `${signed(lo)} bytes` : `${signed(lo)} to ${signed(hi)} bytes`;
      out.push(
        `Over ${transport}, flow ${mdCode(flow)}: ${newest} is ${parts.length > 0 ? parts.join(" and ") : `equal to ${previous}`} (${span} per session).`,
      );
    }
  }
  const fits = crossoverFits(rows, axisNames, calls);
  for (const t of targets) {
    const meet = fits.meets.find((m: CrossoverMeet) => axis(m.a.one, "target") === t && m.a.rev === previous && m.b.rev === newest);
    if (meet === undefined) continue;
    out.push(crossoverSentence(t, meet));
  }
  if (newest !== undefined) {
    const one = targets
      .map((t) => ({ t, r: find("plain", newest, t) }))
      .map((x) => ({ ...x, v: total(x.r) }))
      .filter((x): x is { t: string; r: KeyedRow; v: number } => x.r !== undefined && x.v !== undefined)
      .sort((a, b) => a.v - b.v || compareTuples([a.t], [b.t]));
    const first = one[0];
    const last = one[one.length - 1];
    if (first !== undefined && last !== undefined && one.length > 1) {
      out.push(
        `For one call over ${transport} at ${newest}, ${mdCell(first.t)} sends the fewest bytes (${formatInt(first.v)}, row ${first.r.key}) and ${mdCell(last.t)} the most (${formatInt(last.v)}, row ${last.r.key}).`,
      );
    }
  }
  return out;
}

/** One server's crossover in words, with the fitted fixed and marginal bytes it rests on. */
function crossoverSentence(target: string, m: CrossoverMeet): string {
  const basis = `fixed ${formatFixed(m.a.fixed, 1)} vs ${formatFixed(m.b.fixed, 1)} bytes per session, ${formatFixed(m.a.marginal, 1)} vs ${formatFixed(m.b.marginal, 1)} bytes per added call`;
  const lighterAt = (calls: number): boolean => m.b.fixed + m.b.marginal * calls < m.a.fixed + m.a.marginal * calls;
  const name = mdCell(target);
  if (m.at === undefined || m.at < 1) {
    const word = lighterAt(1) ? "lighter" : "heavier";
    return `With ${name}, ${m.b.rev} is ${word} than ${m.a.rev} at every call count from one (${basis}).`;
  }
  const early = lighterAt(1) ? "lighter" : "heavier";
  const late = early === "lighter" ? "heavier" : "lighter";
  return `With ${name}, ${m.b.rev} is ${early} than ${m.a.rev} up to ${formatFixed(m.at, 2)} calls per session and ${late} beyond (${basis}).`;
}

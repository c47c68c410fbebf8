/**
 * The answer first: the wire report's headline table (per server, flow × revision totals and the
 * difference to the previous revision) and findings sentences generated from the same medians and
 * from the crossover fits. Every number printed here is a median of `medians.tsv`, a difference of
 * two medians, or a crossover figure of {@link crossoverFits} (the tracing test recomputes each).
 */
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatFixed, formatInt, transportName } from "../format.js";
import { compareTuples } from "../../format/order.js";
import { tableView, type TableView } from "../table.js";
import { crossoverFits, type CrossoverMeet, type KeyedRow, mainGrid, reportFlows } from "./derived.js";

/** At most this many rows in a headline table (a reader takes it in at a glance). */
export const HEADLINE_MAX_ROWS = 12;

/** One transport's table of the headline. */
export interface HeadlineTable {
  /** `http` or `stdio`. */
  transport: string;
  /** The transport as the page names it (`HTTP`, `stdio`: generators/format.ts transportName). */
  name: string;
  /** Flow × revision rows, one column per server: median total bytes and, after the first revision, the difference to the previous one. */
  table: TableView;
  /** True when rows past {@link HEADLINE_MAX_ROWS} were left to the full tables. */
  cut: boolean;
}

/** The headline of the wire report. */
export interface WireHeadline {
  /** One table per transport the main grid has, `http` first. */
  tables: HeadlineTable[];
  /** Server name → label (the column headers are the short names). */
  legend: string[];
  /** Findings, one markdown sentence each; a sentence names the transport it holds for. */
  findings: string[];
  /** The client and the other axes' values the tables hold (`client \`raw\``, `state \`0\``, …), markdown. */
  settings: string[];
  /** The flows of the tables, in order ({@link reportFlows}). */
  flows: string[];
}

const total = (r: KeyedRow | undefined): number | undefined => r?.metrics.get("total_bytes")?.median;
const axis = (r: KeyedRow, name: string): string => r.summary.axes.get(name) ?? "";
/** A signed difference as printed: `+12`, `-467`, `0`. */
const signed = (d: number): string => (d > 0 ? `+${formatInt(d)}` : formatInt(d));
const byName = (a: string, b: string): number => compareTuples([a], [b]);

/**
 * Build the headline from the report rows that speak MCP: one table per transport (HTTP first,
 * then stdio), since the revisions compare differently over each.
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
  const main = mainGrid(rows, axisNames);
  const flows = reportFlows(main);
  const grid = main.filter((r) => flows.includes(axis(r, "flow")));
  const transports = ["http", "stdio"].filter((t) => grid.some((r) => axis(r, "transport") === t));
  if (transports.length === 0) return undefined;
  const targets = [...new Set(grid.map((r) => axis(r, "target")))].sort(byName);
  const tables = transports.map((transport) =>
    headlineTable(
      grid.filter((r) => axis(r, "transport") === transport),
      transport,
      targets,
      flows,
    ),
  );
  return {
    tables,
    legend: targets.map((t) => (labels.has(t) && labels.get(t) !== t ? `${mdCell(t)}: ${mdCell(labels.get(t) ?? t)}` : mdCell(t))),
    findings: findings(grid, transports, axisNames, calls, flows),
    flows,
    settings: ["client", ...axisNames.filter((a) => !["target", "transport", "flow", "revision", "client"].includes(a))].flatMap((a) => {
      const values = [...new Set(grid.map((r) => r.summary.axes.get(a) ?? (a === "client" ? "raw" : "")))];
      return values.length === 1 && values[0] !== "" ? [`${mdCell(a)} ${mdCode(values[0] ?? "")}`] : [];
    }),
  };
}

/** One transport's flow × revision table (rows of that transport only). */
function headlineTable(here: readonly KeyedRow[], transport: string, targets: readonly string[], flows: readonly string[]): HeadlineTable {
  const revisions = [...new Set(here.map((r) => axis(r, "revision")))].sort(byName);
  const at = (flow: string, rev: string, target: string): KeyedRow | undefined =>
    here.find((r) => axis(r, "flow") === flow && axis(r, "revision") === rev && axis(r, "target") === target);
  const all = flows
    .flatMap((flow) => revisions.map((rev, i) => ({ flow, rev, prev: revisions[i - 1] })))
    .filter((x) => targets.some((t) => at(x.flow, x.rev, t) !== undefined));
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
  return { transport, name: transportName(transport), table, cut: shown.length < all.length };
}

/** How the newest revision compares with the one before it over one transport, one flow. */
interface FlowVerdict {
  transport: string;
  previous: string;
  newest: string;
  /** The verdict in words (`lighter than 2025-11-25 on every server measured`), with the range of differences. */
  text: string;
  /** The same without the revision it is compared with (`lighter on every server measured (…)`). */
  bare: string;
  /** -1 lighter everywhere, +1 heavier everywhere, 0 mixed or equal. */
  sign: number;
}

const listNames = (names: readonly string[]): string => names.map((n) => mdCell(n)).join(", ");
const revisionsOf = (rows: readonly KeyedRow[]): string[] => [...new Set(rows.map((r) => axis(r, "revision")))].sort(byName);
const targetsOf = (rows: readonly KeyedRow[]): string[] => [...new Set(rows.map((r) => axis(r, "target")))].sort(byName);
const findRow = (rows: readonly KeyedRow[], flow: string, rev: string | undefined, target: string) =>
  rows.find((r) => axis(r, "flow") === flow && axis(r, "revision") === rev && axis(r, "target") === target);

/** Of one transport's rows and one flow: whether the newest revision is lighter or heavier than the one before, per server, in words. */
function flowVerdict(rows: readonly KeyedRow[], transport: string, flow: string): FlowVerdict | undefined {
  const revisions = revisionsOf(rows);
  const newest = revisions[revisions.length - 1];
  const previous = revisions[revisions.length - 2];
  if (newest === undefined || previous === undefined) return undefined;
  const pairs = targetsOf(rows)
    .map((t) => ({ t, a: total(findRow(rows, flow, previous, t)), b: total(findRow(rows, flow, newest, t)) }))
    .filter((p): p is { t: string; a: number; b: number } => p.a !== undefined && p.b !== undefined);
  if (pairs.length === 0) return undefined;
  const lighter = pairs.filter((p) => p.b < p.a).map((p) => p.t);
  const heavier = pairs.filter((p) => p.b > p.a).map((p) => p.t);
  // "every server measured" only where there are several; one server is named.
  const which = (ts: string[]) => (ts.length === pairs.length && pairs.length > 1 ? "every server measured" : listNames(ts));
  const phrase = (than: string): string =>
    [lighter.length > 0 ? `lighter${than} on ${which(lighter)}` : "", heavier.length > 0 ? `heavier${lighter.length > 0 ? "" : than} on ${which(heavier)}` : ""]
      .filter(Boolean)
      .join(" and ") || `equal${than === "" ? "" : ` to ${previous}`}`;
  const range = pairs.map((p) => p.b - p.a).sort((x, y) => x - y);
  const lo = range[0] ?? 0;
  const hi = range[range.length - 1] ?? 0;
  const span = lo === hi ? `${signed(lo)} bytes` : `${signed(lo)} to ${signed(hi)} bytes`;
  const sign = lighter.length === pairs.length ? -1 : heavier.length === pairs.length ? 1 : 0;
  return { transport, previous, newest, text: `${phrase(` than ${previous}`)} (${span} per session)`, bare: `${phrase("")} (${span} per session)`, sign };
}

/** Per flow, which revision is lighter over each transport: one sentence for both when they compare the same revisions. */
function flowSentences(of: (transport: string) => KeyedRow[], transports: readonly string[], flows: readonly string[]): string[] {
  const out: string[] = [];
  for (const flow of flows) {
    const verdicts = transports.map((t) => flowVerdict(of(t), t, flow)).filter((v): v is FlowVerdict => v !== undefined);
    const first = verdicts[0];
    if (first === undefined) continue;
    const sameRevisions = verdicts.every((v) => v.newest === first.newest && v.previous === first.previous);
    const turns = verdicts.some((v) => v.sign !== first.sign);
    if (sameRevisions) {
      const clauses = verdicts.map((v, i) => `${i === 0 ? "" : turns ? "but " : "and "}over ${transportName(v.transport)} ${v.bare}`);
      out.push(`Flow ${mdCode(flow)}, ${first.newest} against ${first.previous}: ${clauses.join(", ")}.`);
    } else {
      for (const v of verdicts) out.push(`Over ${transportName(v.transport)}, flow ${mdCode(flow)}: ${v.newest} is ${v.text}.`);
    }
  }
  return out;
}

/** Of one transport: each server's crossover, and the lightest and heaviest server for one call at the newest revision. */
function transportSentences(rows: readonly KeyedRow[], transport: string, axisNames: readonly string[], calls: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  const revisions = revisionsOf(rows);
  const newest = revisions[revisions.length - 1];
  const previous = revisions[revisions.length - 2];
  const targets = targetsOf(rows);
  const fits = crossoverFits(rows, axisNames, calls);
  for (const t of targets) {
    const meet = fits.meets.find((m: CrossoverMeet) => axis(m.a.one, "target") === t && m.a.rev === previous && m.b.rev === newest);
    if (meet !== undefined) out.push(crossoverSentence(t, transport, meet));
  }
  if (newest === undefined) return out;
  const one = targets
    .map((t) => ({ t, r: findRow(rows, "plain", newest, t) }))
    .map((x) => ({ ...x, v: total(x.r) }))
    .filter((x): x is { t: string; r: KeyedRow; v: number } => x.r !== undefined && x.v !== undefined)
    .sort((a, b) => a.v - b.v || byName(a.t, b.t));
  const first = one[0];
  const last = one[one.length - 1];
  if (first !== undefined && last !== undefined && one.length > 1)
    out.push(
      `For one call over ${transportName(transport)} at ${newest}, ${mdCell(first.t)} sends the fewest bytes (${formatInt(first.v)}, row ${first.r.key}) and ${mdCell(last.t)} the most (${formatInt(last.v)}, row ${last.r.key}).`,
    );
  return out;
}

/**
 * The sentences: per flow, which revision is lighter over each transport (one sentence for both,
 * so that a transport where the answer turns round is read beside the other); per transport and
 * server, the crossover; per transport, the lightest and heaviest server for one call.
 */
function findings(
  grid: readonly KeyedRow[],
  transports: readonly string[],
  axisNames: readonly string[],
  calls: ReadonlyMap<string, number>,
  flows: readonly string[],
): string[] {
  const of = (transport: string): KeyedRow[] => grid.filter((r) => axis(r, "transport") === transport);
  return [...flowSentences(of, transports, flows), ...transports.flatMap((t) => transportSentences(of(t), t, axisNames, calls))];
}

/**
 * One server's crossover in words, with the fitted fixed and marginal bytes it rests on, each
 * figure named by its revision (the newer revision first, as the sentence reads).
 */
function crossoverSentence(target: string, transport: string, m: CrossoverMeet): string {
  const cost = (l: CrossoverMeet["a"]): string => `${l.rev}: ${formatFixed(l.fixed, 1)} bytes per session + ${formatFixed(l.marginal, 1)} per added call`;
  const basis = `${cost(m.b)}; ${cost(m.a)}`;
  const lighterAt = (calls: number): boolean => m.b.fixed + m.b.marginal * calls < m.a.fixed + m.a.marginal * calls;
  const name = `With ${mdCell(target)} over ${transportName(transport)}`;
  if (m.at === undefined || m.at < 1) {
    const word = lighterAt(1) ? "lighter" : "heavier";
    return `${name}, ${m.b.rev} is ${word} than ${m.a.rev} at every call count from one (${basis}).`;
  }
  const early = lighterAt(1) ? "lighter" : "heavier";
  const late = early === "lighter" ? "heavier" : "lighter";
  return `${name}, ${m.b.rev} is ${early} than ${m.a.rev} up to ${formatFixed(m.at, 2)} calls per session and ${late} beyond (${basis}).`;
}
